# PyTorch's polynomial_nn tutorial loop (nn.Sequential, MSELoss(reduction='sum')).
import math
import time

import torch

x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
p = torch.tensor([1, 2, 3])
xx = x.unsqueeze(-1).pow(p)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")
learning_rate = 1e-6
running = 0.0
t0 = time.process_time()
for t in range(1000):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    running += loss.item()
    if t % 100 == 99:
        print(t, loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= learning_rate * param.grad
t1 = time.process_time()
print(running)
print("loop", t1 - t0)
