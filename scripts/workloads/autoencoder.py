# A small autoencoder (tanh encoder, sigmoid decoder) trained with MSE by a
# `def train_step(model, batch)` that returns the loss as a float; SGD with momentum.
import time

import torch
from torch import nn


class AutoEncoder(nn.Module):
    def __init__(self, d_in, d_hidden, d_code):
        super().__init__()
        self.encoder = nn.Sequential(
            nn.Linear(d_in, d_hidden), nn.Tanh(), nn.Linear(d_hidden, d_code)
        )
        self.decoder = nn.Sequential(
            nn.Linear(d_code, d_hidden), nn.Tanh(), nn.Linear(d_hidden, d_in), nn.Sigmoid()
        )

    def forward(self, x):
        return self.decoder(self.encoder(x))


torch.manual_seed(0)
basis = torch.rand(4, 32)
codes = torch.rand(256, 4)
data = torch.sigmoid(codes @ basis * 3 - 3)
model = AutoEncoder(32, 24, 4)
optimizer = torch.optim.SGD(model.parameters(), lr=0.5, momentum=0.9)
loss_fn = nn.MSELoss()


def train_step(model, batch):
    optimizer.zero_grad()
    recon = model(batch)
    loss = loss_fn(recon, batch)
    loss.backward()
    optimizer.step()
    return loss.item()


losses = []
t0 = time.process_time()
for epoch in range(30):
    for batch in data.split(32):
        losses.append(train_step(model, batch))
    if epoch % 10 == 9:
        print(epoch, sum(losses[-8:]) / 8)
t1 = time.process_time()
with torch.no_grad():
    z = model.encoder(data[:3])
    err = ((model(data) - data) ** 2).mean(dim=1)
print(z)
print(err.max().item(), err.argmax().item())
print("loop", t1 - t0)
