# a minibatch classifier of our own whose loop starts with xb, yb = get_batch() (a function of the program drawing indices with torch.randint), nn.Sequential, cross_entropy, SGD (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(0)
data = torch.randn(500, 6)
target = (data[:, 0] > 0).long()
def get_batch():
    ix = torch.randint(0, 500, (32,))
    return data[ix], target[ix]
model = nn.Sequential(nn.Linear(6, 16), nn.ReLU(), nn.Linear(16, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for step in range(200):
    xb, yb = get_batch()
    logits = model(xb)
    loss = F.cross_entropy(logits, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 50 == 0:
        print(step, loss.item())
print(loss)
