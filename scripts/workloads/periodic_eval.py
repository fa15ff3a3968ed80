# A regression MLP as a module class (relu, tanh) trained on minibatches drawn with
# torch.randint, with Adam, a held-out loss under torch.no_grad() every 50 steps (eval()
# and train() around it) and the best one kept.
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

torch.manual_seed(11)
X = torch.rand(600, 8) * 2 - 1
Y = torch.sin(X.sum(dim=1, keepdim=True)) + X[:, :2].prod(dim=1, keepdim=True)
X_train, Y_train = X[:500], Y[:500]
X_val, Y_val = X[500:], Y[500:]


class Net(nn.Module):
    def __init__(self, d_in, d_hidden):
        super().__init__()
        self.fc1 = nn.Linear(d_in, d_hidden)
        self.fc2 = nn.Linear(d_hidden, d_hidden)
        self.out = nn.Linear(d_hidden, 1)

    def forward(self, x):
        x = F.relu(self.fc1(x))
        x = torch.tanh(self.fc2(x))
        return self.out(x)


net = Net(8, 32)
opt = torch.optim.Adam(net.parameters(), lr=3e-3)
best = float("inf")
eval_every = 50
t0 = time.process_time()
for step in range(1, 801):
    idx = torch.randint(0, X_train.shape[0], (64,))
    pred = net(X_train[idx])
    loss = F.mse_loss(pred, Y_train[idx])
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % eval_every == 0:
        net.eval()
        with torch.no_grad():
            val = F.mse_loss(net(X_val), Y_val).item()
        net.train()
        if val < best:
            best = val
        if step % 200 == 0:
            print(f"step {step}: train {loss.item():.5f} val {val:.5f}")
t1 = time.process_time()
print("best val", best)
print("loop", t1 - t0)
