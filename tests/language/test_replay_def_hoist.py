"""A training step's `def` given the same data every call: the ops of its parameters that
need no gradient (`x ** 2`) are computed once (replay._hoist), as they are in the loop
written inline, and computed again when the call is given other data or the data's
bytes change; a `global` declaration does not stop it.  An assignment whose op has no
replay kernel (`x ** 3` of a tensor needing a gradient) runs that op's whole forward in
its kernel program (engine.run_kernels' WHOLE), so the ops after it keep their kernels.
Each program prints the same with and without replay (`--no-replay`)."""

from __future__ import annotations

import pytest

from conftest import replay_both, run_inprocess
from gradcli.engine import replay as engine
from gradcli.language import replay

_TUTORIAL = """import math
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x)
torch.manual_seed(0)
a, b, c, d = (torch.randn((), requires_grad=True) for _ in range(4))
def train_step(x, y):
    global a, b, c, d
    y_pred = a + b * x + c * x**2 + d * x**3
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        a -= 1e-4 * a.grad
        b -= 1e-4 * b.grad
        c -= 1e-4 * c.grad
        d -= 1e-4 * d.grad
        a.grad = None
        b.grad = None
        c.grad = None
        d.grad = None
    return loss.item()
"""

PROGRAMS = {
    # the same data every call: x ** 2 and x ** 3 computed once
    "same_data": _TUTORIAL
    + "for t in range(40):\n    l = train_step(x, y)\nprint(l, a, b, c, d)\n",
    # other data of the same shape on some calls, the data changed in place, through
    # `.data` and by a slice, between calls
    "data_changes": _TUTORIAL
    + """x2 = x * 0.5
for t in range(40):
    l = train_step(x2 if t % 7 == 3 else x, y)
    if t == 11:
        x.add_(0.25)
    if t == 19:
        x.data.mul_(0.5)
    if t == 27:
        x[5:9] = 0.0
    print(t, l)
print(a, b, c, d, x[:6])
""",
    # a loop over minibatches given to the step: each call's data is new
    "minibatches": _TUTORIAL
    + """xs = x.split(50)
ys = y.split(50)
for t in range(5):
    for xb, yb in zip(xs, ys):
        l = train_step(xb, yb)
    print(t, l)
print(a, b, c, d)
""",
    # in a loop written inline, x ** 3 of a tensor needing a gradient (no kernel) between
    # ops that have kernels
    "whole_forward_between_kernels": """torch.manual_seed(0)
w = torch.randn(6, requires_grad=True)
x = torch.randn(6)
for t in range(12):
    z = w * x
    q = (z ** 3 * 0.5 + z * x - x).sum()
    q.backward()
    with torch.no_grad():
        w -= 0.01 * w.grad
        w.grad = None
print(z, q, w)
try:
    q.backward()
except RuntimeError as e:
    print("error:", e)
""",
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_prints_what_compiled_calls_print(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


def _hoists(monkeypatch, source):
    """How many times a program's replayed statements computed their hoisted values."""
    count = [0]
    real = replay._hoist

    def counted(*args):
        count[0] += 1
        return real(*args)

    monkeypatch.setattr(replay, "_hoist", counted)
    out = run_inprocess(source)
    assert out.returncode == 0, out.stderr
    return count[0]


def test_the_same_data_is_hoisted_once(monkeypatch):
    """40 calls given the same tensor: its powers computed once or twice (the first
    replayed calls), not at each call."""
    assert 1 <= _hoists(monkeypatch, PROGRAMS["same_data"]) <= 3


def test_changed_data_is_computed_again(monkeypatch):
    """The calls given other data, or data changed in place, compute the hoisted values
    again (each of the 5 calls with x2, its following call with x, and the 3 changes)."""
    assert _hoists(monkeypatch, PROGRAMS["data_changes"]) >= 10


def test_an_op_without_a_kernel_runs_in_the_program(monkeypatch):
    """The kernel program of `q = ...` holds x ** 3's whole forward, and the ops after
    it (kernels)."""
    programs = []
    real = engine.run_kernels

    def noted(shadows, vals, program):
        programs.append(tuple(e[3] for e in program))
        return real(shadows, vals, program)

    monkeypatch.setattr(engine, "run_kernels", noted)
    out = run_inprocess(PROGRAMS["whole_forward_between_kernels"])
    assert out.returncode == 0, out.stderr
    mixed = [p for p in programs if engine.WHOLE in p]
    assert mixed, programs
    assert any(p.index(engine.WHOLE) < len(p) - 1 for p in mixed), mixed
