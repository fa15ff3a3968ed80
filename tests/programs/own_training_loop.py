# a training loop of our own: TensorDataset, random_split with a Generator, DataLoader, BatchNorm1d, kaiming init through apply, nesterov SGD, OneCycleLR, a confusion matrix by bincount, best state_dict by deepcopy (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, random_split
import copy

torch.manual_seed(42)
N, D, K = 300, 12, 4
X = torch.randn(N, D)
W = torch.randn(D, K)
y = (X @ W + 0.3 * torch.randn(N, K)).argmax(1)
ds = TensorDataset(X, y)
train_ds, val_ds = random_split(ds, [240, 60], generator=torch.Generator().manual_seed(0))
train_dl = DataLoader(train_ds, batch_size=32, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=64)

model = nn.Sequential(
    nn.Linear(D, 32), nn.BatchNorm1d(32), nn.ReLU(), nn.Dropout(0.1),
    nn.Linear(32, 32), nn.Tanh(),
    nn.Linear(32, K),
)
def init(m):
    if isinstance(m, nn.Linear):
        nn.init.kaiming_normal_(m.weight, nonlinearity='relu')
        nn.init.zeros_(m.bias)
model.apply(init)
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9, nesterov=True, weight_decay=1e-4)
sched = torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.1, total_steps=8 * len(train_dl))
crit = nn.CrossEntropyLoss()
best, best_state = 0.0, None
for epoch in range(8):
    model.train()
    for xb, yb in train_dl:
        loss = crit(model(xb), yb)
        opt.zero_grad(set_to_none=True)
        loss.backward()
        opt.step()
        sched.step()
    model.eval()
    correct = total = 0
    conf = torch.zeros(K, K, dtype=torch.long)
    with torch.no_grad():
        for xb, yb in val_dl:
            pred = model(xb).argmax(dim=1)
            correct += (pred == yb).sum().item()
            total += yb.numel()
            conf += torch.bincount(yb * K + pred, minlength=K * K).reshape(K, K)
    acc = correct / total
    if acc > best:
        best, best_state = acc, copy.deepcopy(model.state_dict())
    print(f"epoch {epoch} loss {loss.item():.5f} acc {acc:.4f} lr {sched.get_last_lr()[0]:.5f}")
print(conf)
model.load_state_dict(best_state)
print(best, model[1].running_mean[:4], model[1].num_batches_tracked)
probs = F.softmax(model(X[:3]), dim=1)
print(probs, probs.topk(2, dim=1))
print(sum(p.numel() for p in model.parameters() if p.requires_grad))
