# A residual MLP of pre-norm blocks (LayerNorm, Linear, GELU, Dropout) held in an nn.ModuleList
# that the forward goes over, trained with shuffled minibatches, CrossEntropyLoss, SGD
# with momentum and a StepLR schedule, its accuracy measured in eval mode each epoch.
# (Written for this suite; the output is torch's.)
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)

class Block(nn.Module):
    def __init__(self, d):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.fc1 = nn.Linear(d, 4 * d)
        self.fc2 = nn.Linear(4 * d, d)
        self.drop = nn.Dropout(0.1)

    def forward(self, x):
        return x + self.drop(self.fc2(F.gelu(self.fc1(self.norm(x)))))

class Net(nn.Module):
    def __init__(self, d_in, d, n_blocks, n_out):
        super().__init__()
        self.inp = nn.Linear(d_in, d)
        self.blocks = nn.ModuleList([Block(d) for _ in range(n_blocks)])
        self.out = nn.Linear(d, n_out)

    def forward(self, x):
        x = self.inp(x)
        for block in self.blocks:
            x = block(x)
        return self.out(x)

X = torch.randn(256, 16)
Y = (X[:, 0] > 0).long() + (X[:, 1] > 0).long()
model = Net(16, 32, 3, 3)
criterion = nn.CrossEntropyLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=20, gamma=0.5)
for epoch in range(12):
    model.train()
    perm = torch.randperm(X.shape[0])
    total = 0.0
    for i in range(0, X.shape[0], 64):
        idx = perm[i:i + 64]
        xb, yb = X[idx], Y[idx]
        out = model(xb)
        loss = criterion(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * xb.shape[0]
    sched.step()
    model.eval()
    with torch.no_grad():
        acc = (model(X).argmax(dim=1) == Y).float().mean().item()
    if epoch % 3 == 0:
        print(epoch, round(total / X.shape[0], 6), acc)
print(model.out.bias)
