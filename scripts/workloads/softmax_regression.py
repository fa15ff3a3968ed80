# Softmax regression: 2,000 x 100 inputs, 10 classes, cross-entropy, plain SGD.
import time

import torch
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(2000, 100)
y = torch.randint(0, 10, (2000,))
W = torch.zeros(100, 10, requires_grad=True)
b = torch.zeros(10, requires_grad=True)
t0 = time.process_time()
for step in range(60):
    loss = F.cross_entropy(X @ W + b, y)
    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
        b -= 0.5 * b.grad
        W.grad.zero_()
        b.grad.zero_()
t1 = time.process_time()
print(loss.item())
print(W.sum().item(), b.sum().item())
print("loop", t1 - t0)
