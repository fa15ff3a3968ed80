"""A module's forward that calls the module's own helper methods (`mu, logvar =
self.encode(x)`, `z = self.reparameterize(mu, logvar)`) is seen through as a forward
made of their statements is (replay_through._methods), a forward's value unpacked into
three names is split as two are (replay_plan._alias), draws of the default generator
(`torch.randn_like(std)`) are ops run in their place (ops/creation.Draws), and
binary_cross_entropy's range checks run in a replayed step too.  Each program prints
exactly what it prints with `--no-replay`, in float32 and float64, and those that can
replay do."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.set_default_dtype({dt})
g = torch.manual_seed(0)
class VAE(nn.Module):
    def __init__(self):
        super().__init__()
        self.enc = nn.Linear(8, 6)
        self.mu = nn.Linear(6, 2)
        self.logvar = nn.Linear(6, 2)
        self.dec = nn.Linear(2, 8)
    def encode(self, x):
        h = torch.relu(self.enc(x))
        return self.mu(h), self.logvar(h)
    def reparameterize(self, mu, logvar):
        std = torch.exp(0.5 * logvar)
        return mu + torch.randn_like(std) * std
    def forward(self, x):
        mu, logvar = self.encode(x)
        z = self.reparameterize(mu, logvar)
        return torch.sigmoid(self.dec(z)), mu, logvar
def loss_fn(recon, x, mu, logvar):
    bce = F.binary_cross_entropy(recon, x, reduction="sum")
    return bce - 0.5 * torch.sum(1 + logvar - mu.pow(2) - logvar.exp())
data = torch.rand(16, 8)
model = VAE()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
"""
_LOOP = """for step in range({n}):
{before}    recon, mu, logvar = model(data)
    loss = loss_fn(recon, data, mu, logvar)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 7 == 0:
        print(step, loss.item(), torch.rand(1))
print(loss, recon.grad_fn, mu.sum(), logvar.grad_fn, model.dec.bias.grad)
"""
_CASES = {
    "train": _LOOP.format(n=40, before=""),
    # a helper method replaced on the instance, then on the class, partway: the
    # replaced one runs from then on (the plan's checks fail; the loop then runs as
    # compiled)
    "replaced": """def other(x):
    return model.mu(x[:, :6]), model.logvar(x[:, 2:])
class Other:
    def plain(self, mu, logvar):
        return mu * 0.5
"""
    + _LOOP.format(
        n=30,
        before="""    if step == 10:
        model.encode = other
    if step == 20:
        del model.encode
        VAE.reparameterize = Other.plain
""",
    ),
    # a helper with a loop of its own, and one that reads a global the loop rebinds
    "loop_helper": """scale = 0.5
def many(self, mu, logvar):
    for i in range(2):
        mu = mu * scale
    return mu
VAE.reparameterize = many
"""
    + _LOOP.format(n=20, before="    scale = scale + 0.01\n"),
    # the data out of binary_cross_entropy's range partway: its error where it stands
    "bad_target": _LOOP.format(
        n=20,
        before="""    if step == 12:
        data = data * 3
""",
    ),
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}") + loop
    for name, loop in _CASES.items()
    for dt in ("float32", "float64")
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_helpers_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    if not name.startswith("bad_target"):
        assert off.returncode == 0, off.stderr
    else:
        assert "all elements of target should be between 0 and 1" in off.stderr
        assert off.stdout.count("\n") == 2  # (steps 0 and 7 printed)


#: replayed iterations at least
_AT_LEAST = {"train": 30, "replaced": 7, "bad_target": 8}


@pytest.mark.parametrize("name", [n for n in PROGRAMS if n.rsplit("_", 1)[0] in _AT_LEAST])
def test_helpers_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= _AT_LEAST[name.rsplit("_", 1)[0]]
