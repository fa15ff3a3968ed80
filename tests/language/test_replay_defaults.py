"""Numbers a replayed statement's calls default to, taken as the plan's constants as the
numbers it writes are: the defaults of the pure ops' functions it calls by name
(`F.layer_norm(x, (8,))`'s eps=1e-05, `F.smooth_l1_loss`'s beta=1.0:
loop_compile._literals) and of the program's functions and forwards a replayed loop
sees through (`def rmsnorm(x, eps=1e-05)`: replay_through.default_numbers).  Each
program prints exactly what it prints with `--no-replay`, in float32 and float64, and
replays."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
import torch.nn.functional as F
g = torch.manual_seed(0)
X = torch.randn(16, 6, dtype={dt})
Y = torch.randn(16, 1, dtype={dt})
V = torch.randn(6, 6, dtype={dt}, requires_grad=True)
W = torch.randn(6, 1, dtype={dt}, requires_grad=True)
def rmsnorm(x, eps=1e-05):
    return x / torch.sqrt((x * x).mean(1, keepdim=True) + eps)
def rms_other(x, eps=0.5):
    return x / torch.sqrt((x * x).mean(1, keepdim=True) + eps)
class Norm(torch.nn.Module):
    def forward(self, x, eps=1e-3, p=2.0):
        return x / ((x.abs() ** p).mean(1, keepdim=True) + eps)
norm = Norm()
"""
_LOOP = """for i in range(12):
    h = {h}
    loss = {loss}
    loss.backward()
    with torch.no_grad():
        V -= 0.05 * V.grad
        W -= 0.05 * W.grad
        V.grad = None
        W.grad = None
{extra}print(loss, h.sum())
print(V, W)
"""

_CASES = {
    "layer_norm": ("F.layer_norm(X @ V, (6,))", "torch.mean((h @ W - Y) ** 2)", ""),
    "smooth_l1": ("torch.tanh(X @ V)", "F.smooth_l1_loss(h @ W, Y)", ""),
    "softplus_huber": ("F.softplus(X @ V)", "F.huber_loss(h @ W, Y)", ""),
    "def_default": ("rmsnorm(X @ V)", "torch.mean((h @ W - Y) ** 2)", ""),
    "forward_defaults": ("norm(X @ V)", "torch.mean((h @ W - Y) ** 2)", ""),
    # the name bound to another function (another default) half way: checked
    "def_rebound": (
        "rmsnorm(X @ V)",
        "torch.mean((h @ W - Y) ** 2)",
        "    if i == 5:\n        rmsnorm = rms_other\n",
    ),
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=dt) + _LOOP.format(h=h, loss=loss, extra=extra)
    for name, (h, loss, extra) in _CASES.items()
    for dt in ("torch.float32", "torch.float64")
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_defaults_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_defaults_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= (5 if "rebound" in name else 10)
