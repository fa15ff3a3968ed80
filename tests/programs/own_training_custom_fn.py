# a training script of our own: a custom autograd Function, LayerNorm, GELU, Dropout, AdamW with StepLR, label smoothing, gradient clipping, state_dict shapes (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
import torch.nn.functional as F
import math

torch.manual_seed(0)

class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        y = x.exp()
        ctx.save_for_backward(y)
        return y
    @staticmethod
    def backward(ctx, g):
        (y,) = ctx.saved_tensors
        return g * y

class Net(nn.Module):
    def __init__(self, d_in, d_h, d_out):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_h)
        self.drop = nn.Dropout(0.2)
        self.fc2 = nn.Linear(d_h, d_out)
        self.ln = nn.LayerNorm(d_h)
    def forward(self, x):
        h = self.drop(F.gelu(self.ln(self.fc1(x))))
        return self.fc2(h)

X = torch.randn(64, 10)
w_true = torch.randn(10, 3)
y = (X @ w_true).argmax(dim=1)
net = Net(10, 32, 3)
opt = torch.optim.AdamW(net.parameters(), lr=3e-3, weight_decay=0.05)
sched = torch.optim.lr_scheduler.StepLR(opt, step_size=20, gamma=0.5)
for epoch in range(60):
    net.train()
    perm = torch.randperm(64)
    total = 0.0
    for i in range(0, 64, 16):
        idx = perm[i:i+16]
        logits = net(X[idx])
        loss = F.cross_entropy(logits, y[idx], label_smoothing=0.1)
        opt.zero_grad()
        loss.backward()
        nn.utils.clip_grad_norm_(net.parameters(), 1.0)
        opt.step()
        total += loss.item() * len(idx)
    sched.step()
    if epoch % 10 == 9:
        net.eval()
        with torch.no_grad():
            acc = (net(X).argmax(1) == y).float().mean().item()
        print(f"epoch {epoch+1:3d} loss {total/64:.6f} acc {acc:.4f} lr {sched.get_last_lr()[0]:.6f}")

x = torch.linspace(-1, 1, 5, requires_grad=True)
z = MyExp.apply(x).sum() + (x.sin() ** 2).mean()
z.backward()
print(x.grad)
print(sum(p.numel() for p in net.parameters()), math.isclose(1.0, 1.0))
print(net)
print({k: tuple(v.shape) for k, v in net.state_dict().items()})
