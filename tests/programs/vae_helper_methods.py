# A variational autoencoder in the style of PyTorch's examples (vae/main.py): a forward
# that calls the module's own helper methods (encode, reparameterize with randn_like,
# decode), returns three values unpacked by the loop, and a loss of binary cross-entropy
# plus the KL term in a function; then a model whose helper unpacks a chunk and draws
# with torch.randn, and one drawing from a torch.Generator of its own. Random data stands
# in for MNIST; trained in float32 and float64.
# (Written for this suite; the output is torch's.)
import torch
import torch.nn as nn
import torch.nn.functional as F


class VAE(nn.Module):
    def __init__(self, d_in, d_h, d_z):
        super().__init__()
        self.enc = nn.Linear(d_in, d_h)
        self.mu = nn.Linear(d_h, d_z)
        self.logvar = nn.Linear(d_h, d_z)
        self.dec1 = nn.Linear(d_z, d_h)
        self.dec2 = nn.Linear(d_h, d_in)

    def encode(self, x):
        h = torch.relu(self.enc(x))
        return self.mu(h), self.logvar(h)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def decode(self, z):
        h = torch.relu(self.dec1(z))
        return torch.sigmoid(self.dec2(h))

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = self.reparameterize(mu, logvar)
        return self.decode(z), mu, logvar


class Chunked(VAE):
    def __init__(self, d_in, d_h, d_z):
        super().__init__(d_in, d_h, d_z)
        self.both = nn.Linear(d_h, 2 * d_z)

    def encode(self, x):
        h = torch.tanh(self.enc(x))
        mu, logvar = self.both(h).chunk(2, dim=1)
        return mu, logvar

    def reparameterize(self, mu, logvar):
        return mu + torch.randn(mu.shape) * torch.exp(0.5 * logvar)


class Seeded(VAE):
    def __init__(self, d_in, d_h, d_z):
        super().__init__(d_in, d_h, d_z)
        self.gen = torch.Generator().manual_seed(7)

    def reparameterize(self, mu, logvar):
        eps = torch.randn(mu.shape, generator=self.gen)
        return mu + eps * torch.exp(0.5 * logvar)


def loss_function(recon, x, mu, logvar):
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
    return bce + kld


for dtype in (torch.float32, torch.float64):
    torch.set_default_dtype(dtype)
    torch.manual_seed(0)
    data = torch.rand(32, 12)
    for cls in (VAE, Chunked, Seeded):
        model = cls(12, 10, 3)
        opt = torch.optim.Adam(model.parameters(), lr=1e-2)
        losses = []
        for epoch in range(30):
            opt.zero_grad()
            recon, mu, logvar = model(data)
            loss = loss_function(recon, data, mu, logvar)
            loss.backward()
            opt.step()
            losses.append(loss.item())
        print(cls.__name__, dtype, losses[::6], loss.grad_fn.name())
        print(recon.grad_fn.name(), mu.grad_fn.name(), logvar.sum())
        print(model.dec2.bias.grad, model.enc.weight.sum())
    with torch.no_grad():
        recon, mu, logvar = model(data[:4])
    print(recon.sum(), torch.randn(2))
    bad = data.clone()
    bad[0, 0] = 1.5
    try:
        for epoch in range(3):
            recon, mu, logvar = model(data)
            loss = loss_function(recon, bad, mu, logvar)
    except RuntimeError as e:
        print(epoch, e)
