# An MLP classifier with nn.BatchNorm1d and nn.Dropout, AdamW and a StepLR schedule; the
# model switches between train() and eval() for a validation accuracy each epoch.
import time

import torch
import torch.nn as nn

torch.manual_seed(0)
n, d, k = 600, 12, 3
X = torch.randn(n, d)
centers = torch.randn(k, d) * 2
labels = torch.randint(0, k, (n,))
X = X + centers[labels]
Xtr, ytr = X[:480], labels[:480]
Xva, yva = X[480:], labels[480:]

model = nn.Sequential(
    nn.Linear(d, 64),
    nn.BatchNorm1d(64),
    nn.ReLU(),
    nn.Dropout(0.2),
    nn.Linear(64, 32),
    nn.BatchNorm1d(32),
    nn.ReLU(),
    nn.Dropout(0.2),
    nn.Linear(32, k),
)
opt = torch.optim.AdamW(model.parameters(), lr=3e-3, weight_decay=1e-2)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=5, gamma=0.5)
criterion = nn.CrossEntropyLoss()
bs = 32
t0 = time.process_time()
for epoch in range(12):
    model.train()
    perm = torch.randperm(len(Xtr))
    running = 0.0
    for i in range(0, len(Xtr), bs):
        idx = perm[i : i + bs]
        out = model(Xtr[idx])
        loss = criterion(out, ytr[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item() * len(idx)
    sched.step()
    model.eval()
    with torch.no_grad():
        pred = model(Xva).argmax(dim=1)
        acc = (pred == yva).float().mean().item()
    if epoch % 3 == 2:
        print(epoch, round(running / len(Xtr), 6), acc, sched.get_last_lr()[0])
t1 = time.process_time()
print(running / len(Xtr))
print(model[1].running_mean.sum().item(), model[1].running_var.sum().item())
print(sum(p.sum().item() for p in model.parameters()))
print("loop", t1 - t0)
