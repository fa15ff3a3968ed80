"""A loop with no `backward` over an nn.Linear (a validation or inference loop, with or
without no_grad) replays: the saved view `t(weight)` of an iteration no backward frees
is bound, as a view of the weight, when the names are bound (an in-place change of the
weight afterwards makes it AsStridedBackward0, as compiled; one changed in the body is
not replayed); under no_grad a view op's output is only an operand of later ops.  Each program prints the same with and without
replay (`--no-replay`); the ones that should replay are counted."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 2))
xs = [torch.randn(5, 4) for _ in range(6)]
ys = [torch.randn(5, 2) for _ in range(6)]
"""

PROGRAMS = {
    # validation losses under no_grad, each kept as a number
    "no_grad_validation": _HEAD
    + """losses = []
with torch.no_grad():
    for xb, yb in zip(xs, ys):
        out = model(xb)
        val = ((out - yb) ** 2).mean()
        losses.append(val.item())
print(losses, sum(losses) / len(losses))
print(val, out, out.requires_grad)
""",
    # inference in grad mode: the last iteration's graph is kept; its grad_fn printed,
    # then a backward through it
    "inference_keeps_graph": _HEAD
    + """for xb in xs:
    out = model(xb)
    s = out.softmax(1).sum()
print(out.grad_fn, s.grad_fn, s)
s.backward()
print(model[0].weight.grad, model[2].weight.grad)
""",
    # the weight changed in place after the loop: the kept graph's saved view t(weight)
    # is then AsStridedBackward0's output, which the error names
    "weight_changed_after": _HEAD
    + """for xb in xs:
    out = model(xb)
    s = out.sum()
print(s)
with torch.no_grad():
    model[2].weight.mul_(2.0)
try:
    s.backward()
except RuntimeError as e:
    print(e)
""",
    # the weight changed in place inside the body, after the forward: the kept graph's
    # saved view is then AsStridedBackward0's output already (not replayed)
    "weight_changed_in_body": _HEAD
    + """w = model[2].weight
for xb in xs:
    out = model(xb)
    s = out.sum()
    with torch.no_grad():
        w.mul_(0.5)
print(s)
try:
    s.backward()
except RuntimeError as e:
    print(e)
""",
}

REPLAYS = {"no_grad_validation": 4, "inference_keeps_graph": 4, "weight_changed_after": 4}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_loops_without_backward_print_what_compiled_loops_print(name, dtype):
    on, off = replay_both(PROGRAMS[name], "-q", "--dtype", dtype)
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", sorted(REPLAYS.items()))
def test_loops_without_backward_over_linear_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least
