# A CNN training script as tutorials write one (written for this test): random_split,
# DataLoaders, Conv2d/BatchNorm2d/MaxPool2d/Dropout, CrossEntropyLoss with label smoothing,
# SGD with momentum, nesterov and weight decay, train/eval modes, accuracy under no_grad,
# state_dict keys.
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.utils.data import TensorDataset, DataLoader, random_split

torch.manual_seed(0)
X = torch.randn(64, 1, 8, 8)
y = torch.randint(0, 3, (64,))
ds = TensorDataset(X, y)
train_ds, val_ds = random_split(ds, [48, 16])
train_dl = DataLoader(train_ds, batch_size=16, shuffle=True)
val_dl = DataLoader(val_ds, batch_size=16)

class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.conv1 = nn.Conv2d(1, 4, 3, padding=1)
        self.bn1 = nn.BatchNorm2d(4)
        self.pool = nn.MaxPool2d(2)
        self.conv2 = nn.Conv2d(4, 8, 3)
        self.fc = nn.Linear(8 * 2 * 2, 3)
        self.drop = nn.Dropout(0.25)
    def forward(self, x):
        x = self.pool(F.relu(self.bn1(self.conv1(x))))
        x = F.relu(self.conv2(x))
        x = torch.flatten(x, 1)
        x = self.drop(x)
        return self.fc(x)

net = Net()
print(net)
print(sum(p.numel() for p in net.parameters()))
crit = nn.CrossEntropyLoss(label_smoothing=0.1)
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9, weight_decay=1e-4, nesterov=True)
for epoch in range(3):
    net.train()
    running = 0.0
    for xb, yb in train_dl:
        opt.zero_grad()
        out = net(xb)
        loss = crit(out, yb)
        loss.backward()
        opt.step()
        running += loss.item() * xb.size(0)
    net.eval()
    correct = 0
    with torch.no_grad():
        for xb, yb in val_dl:
            pred = net(xb).argmax(1)
            correct += (pred == yb).sum().item()
    print(f"epoch {epoch+1}: train loss {running / len(train_ds):.4f}, val acc {correct / len(val_ds):.2%}")
print(net.bn1.running_mean, net.bn1.num_batches_tracked)
print(net.state_dict()['conv1.weight'].shape, list(net.state_dict().keys())[:4])
probs = F.softmax(net(X[:2]), dim=1)
print(probs, probs.max(dim=1))
