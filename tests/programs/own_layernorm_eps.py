# a regression MLP of our own with a hand-written LayerNorm module (its eps a number attribute read as self.eps in forward), SGD with momentum, MSELoss, a print every 50 epochs (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn

torch.manual_seed(0)


class MyLayerNorm(nn.Module):
    def __init__(self, dim, eps=1e-5):
        super().__init__()
        self.eps = eps
        self.weight = nn.Parameter(torch.ones(dim))
        self.bias = nn.Parameter(torch.zeros(dim))

    def forward(self, x):
        mean = x.mean(-1, keepdim=True)
        var = ((x - mean) ** 2).mean(-1, keepdim=True)
        xhat = (x - mean) / torch.sqrt(var + self.eps)
        return xhat * self.weight + self.bias


class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc1 = nn.Linear(10, 32)
        self.ln = MyLayerNorm(32)
        self.fc2 = nn.Linear(32, 1)

    def forward(self, x):
        h = torch.relu(self.ln(self.fc1(x)))
        return self.fc2(h)


X = torch.randn(128, 10)
y = X[:, :1] * 2.0 - X[:, 1:2] + 0.1 * torch.randn(128, 1)
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
loss_fn = nn.MSELoss()
for epoch in range(400):
    opt.zero_grad()
    out = net(X)
    loss = loss_fn(out, y)
    loss.backward()
    opt.step()
    if epoch % 50 == 0:
        print(epoch, loss.item())
print(loss.item())
