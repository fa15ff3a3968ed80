# An MLP 784-256-10 from scratch on random data of MNIST's shape, softmax cross-entropy.
import time

import torch
import torch.nn.functional as F

torch.manual_seed(0)
X = torch.randn(128, 784)
y = torch.randint(0, 10, (128,))
W1 = (torch.randn(784, 256) * 0.03).requires_grad_()
b1 = torch.zeros(256, requires_grad=True)
W2 = (torch.randn(256, 10) * 0.06).requires_grad_()
b2 = torch.zeros(10, requires_grad=True)
params = [W1, b1, W2, b2]
t0 = time.process_time()
for step in range(60):
    logits = torch.relu(X @ W1 + b1) @ W2 + b2
    loss = F.cross_entropy(logits, y)
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.1 * p.grad
t1 = time.process_time()
print(loss.item())
print("loop", t1 - t0)
