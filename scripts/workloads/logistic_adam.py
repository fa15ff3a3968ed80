# Logistic regression: nn.Linear, BCEWithLogitsLoss and Adam.
import time

import torch
from torch import nn

torch.manual_seed(0)
X = torch.randn(512, 20)
y = (X[:, 0] + 0.5 * X[:, 1] > 0).float().reshape(-1, 1)
model = nn.Linear(20, 1)
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
t0 = time.process_time()
for step in range(200):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
t1 = time.process_time()
print(loss.item())
print(model.weight.sum().item(), model.bias.item())
print("loop", t1 - t0)
