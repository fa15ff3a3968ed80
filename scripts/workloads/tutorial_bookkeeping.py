# The bench's tutorial loop ("Learning PyTorch with Examples", tensors and autograd) with
# the bookkeeping people add: a running loss, a list of the losses, a print every 100 steps.
import math
import time

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
torch.manual_seed(0)
a = torch.randn((), requires_grad=True)
b = torch.randn((), requires_grad=True)
c = torch.randn((), requires_grad=True)
d = torch.randn((), requires_grad=True)
learning_rate = 1e-6
running = 0.0
losses = []
t0 = time.process_time()
for t in range(2000):
    y_pred = a + b * x + c * x**2 + d * x**3
    loss = (y_pred - y).pow(2).sum()
    running += loss.item()
    losses.append(loss.item())
    if t % 100 == 99:
        print(t, running / 100)
        running = 0.0
    loss.backward()
    with torch.no_grad():
        a -= learning_rate * a.grad
        b -= learning_rate * b.grad
        c -= learning_rate * c.grad
        d -= learning_rate * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
t1 = time.process_time()
print(f"Result: y = {a.item()} + {b.item()} x + {c.item()} x^2 + {d.item()} x^3")
print(len(losses), min(losses), sum(losses))
print("loop", t1 - t0)
