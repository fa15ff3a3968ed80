# A tiny variational autoencoder: the reparameterization trick by hand and through torch.distributions (Normal's rsample, log_prob, entropy, kl_divergence against a standard normal, Independent over the event dimension), an ELBO summed over features and averaged over the batch, Adam (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
import torch.nn.functional as F
from torch.distributions import Normal, Independent, kl_divergence

torch.manual_seed(0)


class VAE(nn.Module):
    def __init__(self, d_in=6, d_hidden=8, d_latent=2):
        super().__init__()
        self.enc = nn.Sequential(nn.Linear(d_in, d_hidden), nn.Tanh())
        self.mu = nn.Linear(d_hidden, d_latent)
        self.logvar = nn.Linear(d_hidden, d_latent)
        self.dec = nn.Sequential(nn.Linear(d_latent, d_hidden), nn.Tanh(), nn.Linear(d_hidden, d_in))

    def encode(self, x):
        h = self.enc(x)
        return self.mu(h), self.logvar(h)

    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        eps = torch.randn_like(std)
        return mu + eps * std

    def forward(self, x):
        mu, logvar = self.encode(x)
        z = self.reparameterize(mu, logvar)
        return self.dec(z), mu, logvar


def loss_by_hand(recon, x, mu, logvar):
    rec = F.mse_loss(recon, x, reduction="sum") / x.size(0)
    kld = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp()) / x.size(0)
    return rec + kld, rec, kld


data = torch.randn(16, 6) @ torch.randn(6, 6) * 0.5
model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=1e-2)

for epoch in range(5):
    opt.zero_grad()
    recon, mu, logvar = model(data)
    loss, rec, kld = loss_by_hand(recon, data, mu, logvar)
    loss.backward()
    opt.step()
    print(f"epoch {epoch}: loss={loss.item():.4f} rec={rec.item():.4f} kld={kld.item():.4f}")

print(model.mu.weight.grad)

# the same objective written with torch.distributions
mu, logvar = model.encode(data)
q = Normal(mu, torch.exp(0.5 * logvar))
p = Normal(torch.zeros_like(mu), torch.ones_like(mu))
z = q.rsample()
print(z.shape, z.requires_grad, z.grad_fn)
kl = kl_divergence(q, p).sum(-1).mean()
kl_hand = -0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp(), dim=-1).mean()
print(round(kl.item(), 4), round(kl_hand.item(), 4), torch.allclose(kl, kl_hand))

recon = model.dec(z)
likelihood = Independent(Normal(recon, torch.ones_like(recon)), 1)
log_px = likelihood.log_prob(data)
print(log_px.shape, likelihood.batch_shape, likelihood.event_shape)
elbo = (log_px - kl_divergence(q, p).sum(-1)).mean()
model.zero_grad()
(-elbo).backward()
print("elbo", round(elbo.item(), 4))
print(model.logvar.bias.grad)
print(q.entropy().sum(-1)[:4].detach())
print(p.log_prob(torch.tensor([0.0, 1.0]))[0].tolist())
print(q.mean[:2].detach(), q.stddev[:2].detach())

# sampling from the prior without gradients
with torch.no_grad():
    samples = model.dec(p.sample()[:3])
print(samples.shape, samples.requires_grad)
print(Normal(0.0, 1.0).cdf(torch.tensor([-1.0, 0.0, 1.96])))
print(q.rsample((3,)).shape, q.variance.shape, likelihood.entropy()[:2].detach())
try:
    Normal(torch.tensor([0.0]), torch.tensor([-1.0]))
except ValueError as e:
    print("ValueError:", str(e).split(" found")[0])
