# A training loop over a list of minibatches made once (the data differs each step, the
# shapes do not): nn.Sequential, MSELoss, Adam, the epoch's mean loss kept.
import time

import torch
from torch import nn

torch.manual_seed(0)
X = torch.randn(512, 20)
Y = (X[:, :1] * 2 - X[:, 1:2]).sin() + 0.1 * X[:, 2:3]
batches = [(X[i : i + 64], Y[i : i + 64]) for i in range(0, 512, 64)]
model = nn.Sequential(nn.Linear(20, 64), nn.ReLU(), nn.Linear(64, 1))
opt = torch.optim.Adam(model.parameters(), lr=1e-3)
loss_fn = nn.MSELoss()
history = []
t0 = time.process_time()
for epoch in range(40):
    total = 0.0
    for xb, yb in batches:
        pred = model(xb)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    history.append(total / len(batches))
    if epoch % 10 == 9:
        print(epoch, history[-1])
t1 = time.process_time()
print(loss_fn(model(X), Y).item())
print("loop", t1 - t0)
