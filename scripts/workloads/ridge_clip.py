# Polynomial-feature regression with weight decay and gradient clipping: features built by
# torch.cat once, nn.Linear, SGD(weight_decay=...), clip_grad_norm_ each step, the best
# validation loss kept by comparison (early-stopping bookkeeping).
import time

import torch
import torch.nn as nn

torch.manual_seed(0)
x = torch.linspace(-2, 2, 200).unsqueeze(1)
y = 0.5 * x**3 - x + 0.3 * torch.randn(200, 1)
feats = torch.cat([x**p for p in range(1, 8)], dim=1)
feats = (feats - feats.mean(dim=0)) / feats.std(dim=0)
idx = torch.randperm(200)
tr, va = idx[:150], idx[150:]
model = nn.Linear(7, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.05, weight_decay=1e-3)
mse = nn.MSELoss()
best, best_step, norms = float("inf"), -1, []
t0 = time.process_time()
for step in range(800):
    opt.zero_grad()
    loss = mse(model(feats[tr]), y[tr])
    loss.backward()
    norm = torch.nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.5)
    norms.append(norm.item())
    opt.step()
    with torch.no_grad():
        val = mse(model(feats[va]), y[va]).item()
    if val < best:
        best, best_step = val, step
t1 = time.process_time()
print(loss.item(), best, best_step)
print(max(norms), min(norms))
print(model.weight)
print(model.bias.item())
print("loop", t1 - t0)
