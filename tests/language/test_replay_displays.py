"""A loop over a display of variables in a replayed body (`for p in (w, b):` in a no_grad
block, `for p in [w, b]: p.grad = None`: loop_updates.displayed) steps each variable's
tensor as a loop over a list of them does, the tensors checked by identity: when the
program binds a name to another tensor mid-loop (under an `if`), that iteration runs as
compiled and the next is noted again.  Each program prints exactly what it prints with
`--no-replay`, in float32 and float64, and replays."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
torch.set_default_dtype({dt})
torch.manual_seed(2)
X = torch.randn(30, 4)
Y = X @ torch.randn(4, 1) + 0.5
w = torch.zeros(4, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
c = torch.ones(1, requires_grad=True)
"""
_CASES = {
    "tuple": """for i in range(40):
    loss = ((X @ w * c + b - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        for p in (w, b, c):
            p -= 0.05 * p.grad
            p.grad = None
    if i % 10 == 0:
        print(i, loss.item())
print(loss, w, b, c, w._version)
""",
    "rebound": """lr = 0.1
for i in range(40):
    loss = ((X @ w + b - Y) ** 2).mean()
    for p in [w, b]:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in w, b:
            p -= lr * p.grad
    if i == 20:
        w = w.detach().clone().requires_grad_()
print(loss, w, b, w._version, b._version)
""",
    # a name only the display reads bound to another tensor with a gradient mid-loop:
    # cleared as compiled (a stale loop would clear the old tensor's)
    "only_display": """z = torch.ones(2, requires_grad=True)
for i in range(40):
    loss = ((X @ w + b - Y) ** 2).mean()
    for p in [w, b, z]:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in (w, b):
            p -= 0.1 * p.grad
    if i == 20:
        z = torch.ones(2, requires_grad=True)
        z.sum().backward()
print(loss, z.grad, w)
""",
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}") + loop
    for name, loop in _CASES.items()
    for dt in ("float32", "float64")
}


def test_a_display_of_other_values_is_no_step():
    """A loop over a display of values other than names (`(torch.float64, 2)`) in a body:
    as any other statement (the body runs as compiled)."""
    on, off = replay_both(
        """import torch
for k in range(3):
    for dt in (torch.float64, torch.float32):
        print(k, torch.ones(2, dtype=dt).sum())
    for v in [k, 2 * k]:
        print(v)
"""
    )
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0 and "float32" in off.stdout, off.stderr


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_displays_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_displays_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= 30
