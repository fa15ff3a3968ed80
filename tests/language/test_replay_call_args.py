"""None, True and False passed by position to a pure op's function or method
(`torch.sum(h, 1, True)`, `torch.clamp(h, None, 0.5)`), as they may be passed by
keyword (loop_shapes._pure_call), or to a `def` whose calls replay
(loop_compile._def_call), and a pure op that only a namespace holds (`F.linear`:
loop_compile.namespaced): the loop replays, and each program prints exactly what it
prints with `--no-replay`, in float32 and float64."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_PROGRAM = """import torch
import torch.nn.functional as F
torch.set_default_dtype({dt})
g = torch.manual_seed(0)
X = torch.randn(16, 4)
T = torch.randn(16, 1)
W = torch.randn(4, 3, requires_grad=True)
for i in range(12):
    h = {h}
    loss = {loss}
    loss.backward()
    with torch.no_grad():
        W -= 0.05 * W.grad
        W.grad = None
print(loss, h.sum())
print(W)
"""
_CASES = {
    "sum_keepdim": ("torch.sum(X @ W, 1, True)", "F.mse_loss(h, T)"),
    "mean_method": ("(X @ W).mean(1, True)", "((h - T) ** 2).mean()"),
    "clamp_none": ("torch.clamp(X @ W, None, 0.5)", "(h.sum(1, True) - T).abs().mean()"),
    "f_linear": ("F.linear(X, W.t(), None) + F.linear(X, W.t())", "F.mse_loss(h.sum(1, True), T)"),
    "clamp_none_min": ("torch.clamp(X @ W, -0.5, None)", "(h.sum(1, False) ** 2).mean()"),
}
PROGRAMS = {
    f"{name}_{dt}": _PROGRAM.format(dt=f"torch.{dt}", h=h, loss=loss)
    for name, (h, loss) in _CASES.items()
    for dt in ("float32", "float64")
}

# a call of a `def` whose calls replay, with None and True by position
# (loop_compile._def_call)
_DEF = """import torch
torch.set_default_dtype({dt})
g = torch.manual_seed(0)
X = torch.randn(32, 4)
Y = torch.randn(32, 1)
W = torch.randn(4, 1, requires_grad=True)
def step(x, y, flag, scale):
    loss = ((x @ W - y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W.sub_(0.05 * W.grad)
        W.grad = None
    return loss
for i in range(12):
    loss = step(X, Y, True, None)
print(loss, W)
"""
PROGRAMS.update({f"def_flags_{dt}": _DEF.format(dt=f"torch.{dt}") for dt in ("float32", "float64")})


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_literal_args_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_literal_args_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= 10
