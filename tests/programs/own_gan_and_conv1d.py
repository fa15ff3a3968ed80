# a small GAN with a gradient penalty, a 1-d convolutional autoencoder and a transposed convolution, written for this test (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(1)
G = nn.Sequential(nn.Linear(4, 16), nn.LeakyReLU(0.2), nn.Linear(16, 2))
D = nn.Sequential(nn.Linear(2, 16), nn.LeakyReLU(0.2), nn.Linear(16, 1))
optG = torch.optim.Adam(G.parameters(), lr=2e-3, betas=(0.5, 0.999))
optD = torch.optim.Adam(D.parameters(), lr=2e-3, betas=(0.5, 0.999))
real = torch.randn(64, 2) * torch.tensor([0.5, 2.0]) + torch.tensor([1.0, -1.0])
bce = nn.BCEWithLogitsLoss()
for step in range(20):
    z = torch.randn(64, 4)
    fake = G(z)
    d_loss = bce(D(real), torch.ones(64, 1)) + bce(D(fake.detach()), torch.zeros(64, 1))
    alpha = torch.rand(64, 1)
    interp = (alpha * real + (1 - alpha) * fake.detach()).requires_grad_(True)
    gp_grad, = torch.autograd.grad(D(interp).sum(), interp, create_graph=True)
    gp = ((gp_grad.norm(2, dim=1) - 1) ** 2).mean()
    optD.zero_grad()
    (d_loss + 10 * gp).backward()
    optD.step()
    g_loss = bce(D(fake), torch.ones(64, 1))
    optG.zero_grad()
    g_loss.backward()
    optG.step()
    if step % 5 == 4:
        print(step, round(d_loss.item(), 6), round(gp.item(), 6), round(g_loss.item(), 6))
class AE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Sequential(nn.Conv1d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool1d(2), nn.Conv1d(4, 8, 3, padding=1), nn.AdaptiveAvgPool1d(4))
        self.dec = nn.Sequential(nn.Flatten(), nn.Linear(32, 16), nn.Sigmoid())
    def forward(self, x):
        return self.dec(self.enc(x))
ae = AE()
x = torch.rand(8, 1, 16)
opt = torch.optim.RMSprop(ae.parameters(), lr=1e-2, alpha=0.9)
for i in range(10):
    loss = F.mse_loss(ae(x), x.squeeze(1))
    opt.zero_grad(); loss.backward(); opt.step()
print(loss.item(), ae.enc[0].weight.grad.abs().sum().item())
ct = nn.ConvTranspose2d(2, 3, kernel_size=2, stride=2)
img = torch.randn(1, 2, 3, 3, requires_grad=True)
o = ct(img)
o.mean().backward()
print(o.shape, img.grad.sum().item())
