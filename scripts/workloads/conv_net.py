# A small conv net: Conv2d, ReLU, MaxPool2d, Linear, cross-entropy, SGD.
import time

import torch
from torch import nn

torch.manual_seed(0)
X = torch.randn(32, 1, 12, 12)
y = torch.randint(0, 4, (32,))


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv = nn.Conv2d(1, 6, 3)
        self.pool = nn.MaxPool2d(2)
        self.fc = nn.Linear(6 * 5 * 5, 4)

    def forward(self, x):
        x = self.pool(torch.relu(self.conv(x)))
        return self.fc(x.flatten(1))


net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.05)
loss_fn = nn.CrossEntropyLoss()
t0 = time.process_time()
for step in range(20):
    opt.zero_grad()
    loss = loss_fn(net(X), y)
    loss.backward()
    opt.step()
t1 = time.process_time()
print(loss.item())
print(net.conv.weight.sum().item(), net.fc.weight.sum().item())
print("loop", t1 - t0)
