# A two-layer net whose training step is a function.
import time

import torch

torch.manual_seed(0)
X = torch.randn(64, 10)
Y = torch.randn(64, 1)
W1 = torch.randn(10, 32, requires_grad=True)
W2 = torch.randn(32, 1, requires_grad=True)


def step(X, Y, lr):
    h = torch.relu(X @ W1)
    loss = ((h @ W2 - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W1.sub_(lr * W1.grad)
        W2.sub_(lr * W2.grad)
        W1.grad.zero_()
        W2.grad.zero_()
    return loss


t0 = time.process_time()
for i in range(500):
    loss = step(X, Y, 0.001)
t1 = time.process_time()
print(loss.item())
print(W1.sum().item(), W2.sum().item())
print("loop", t1 - t0)
