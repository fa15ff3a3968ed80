# A micrograd-style network of 0-d tensors: 2 inputs, 8 hidden, 1 output, tanh.
import time

import torch

torch.manual_seed(0)
xs = [[2.0, 3.0], [3.0, -1.0], [0.5, 1.0], [1.0, 1.0]]
ys = [1.0, -1.0, -1.0, 1.0]
w1 = [[torch.randn(()).requires_grad_() for _ in range(2)] for _ in range(8)]
b1 = [torch.zeros((), requires_grad=True) for _ in range(8)]
w2 = [torch.randn(()).requires_grad_() for _ in range(8)]
params = [p for row in w1 for p in row] + b1 + w2
t0 = time.process_time()
for k in range(20):
    loss = torch.zeros(())
    for x, y in zip(xs, ys):
        h = [torch.tanh(sum(wi * xi for wi, xi in zip(w, x)) + b) for w, b in zip(w1, b1)]
        out = torch.tanh(sum(wi * hi for wi, hi in zip(w2, h)))
        loss = loss + (out - y) ** 2
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= 0.05 * p.grad
t1 = time.process_time()
print(loss.item())
print("loop", t1 - t0)
