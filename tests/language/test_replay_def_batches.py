"""A `def`'s tensor arguments checked by their kind (language/replay_defs.py
`def_body`, replay_plan._swapped): a step called with each minibatch replays, in a
loop that is not replayed (the call's own plan) and in one that is (the loop's
plan, replay_defs._Held.item).  Each program prints the same with and without
replay (`--no-replay`); the ones that should replay are counted."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """torch.manual_seed(0)
X = torch.randn(22, 3)
Y = torch.randn(22, 1)
w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
opt = torch.optim.SGD([w, b], lr=0.05, momentum=0.9)


def step(xb, yb):
    opt.zero_grad()
    pred = torch.tanh(xb @ w + b)
    loss = ((pred - yb) ** 2).mean()
    loss.backward()
    opt.step()
    return loss.item()


"""
_AFTER = "print(w, b, w.grad, b.grad)\n"

PROGRAMS = {
    # batches of one shape, a replayed loop calling the step
    "one_shape": _HEAD
    + """batches = list(zip(X[:20].split(4), Y[:20].split(4)))
for epoch in range(4):
    for xb, yb in batches:
        l = step(xb, yb)
    print(epoch, l)
"""
    + _AFTER,
    # a last, smaller batch (its call as compiled, then the plan again)
    "last_smaller": _HEAD
    + """batches = list(zip(X.split(4), Y.split(4)))
for epoch in range(4):
    for xb, yb in batches:
        l = step(xb, yb)
    print(epoch, l)
"""
    + _AFTER,
    # calls from a loop that does not replay (the call's own plan checks the kinds)
    "loop_not_replayed": _HEAD
    + """losses = []
for epoch in range(4):
    for xb, yb in zip(X.split(4), Y.split(4)):
        losses.append(step(xb, yb))
print(losses)
"""
    + _AFTER,
    # an argument that needs a gradient: checked by identity (a new one each call)
    "requires_grad": """torch.manual_seed(0)
w = torch.randn(3)
def f(x):
    y = (x * w).tanh().sum()
    y.backward()
    return y.item()
for i in range(8):
    x = torch.randn(3, requires_grad=True)
    v = f(x)
    print(v, x.grad)
""",
    # an argument changed in place between calls, and batches changed in place
    "changed_in_place": _HEAD
    + """xb, yb = X[:4].clone(), Y[:4].clone()
for i in range(8):
    xb.mul_(0.9)
    yb += 0.1
    l = step(xb, yb)
    print(l)
batches = [(x.clone(), y.clone()) for x, y in zip(X[:20].split(4), Y[:20].split(4))]
for epoch in range(3):
    for xb, yb in batches:
        l = step(xb, yb)
        xb.mul_(-1)
    print(epoch, l, batches[0][0].sum())
"""
    + _AFTER,
    # views: of another layout (columns of a transposed matrix) after contiguous ones
    "views": _HEAD
    + """Z = torch.randn(3, 40)
for epoch in range(3):
    for xb, yb in zip(X[:20].split(4), Y[:20].split(4)):
        l = step(xb, yb)
    print(epoch, l)
    for xb, yb in zip(Z.t().split(4), Y[:20].split(4)):
        l = step(xb, yb)
    print(epoch, l, xb.stride())
for i in range(5):
    l = step(Z[:, 4 * i : 4 * i + 4].t(), Y[:4])
    print(l)
"""
    + _AFTER,
    # an argument also held by a global the def reads (by identity then), and a global
    # passed as the argument after calls with other tensors
    "held_by_a_global": """torch.manual_seed(0)
X = torch.randn(20, 3)
w = torch.randn(3, requires_grad=True)
G = torch.randn(4, 3)
def f(x):
    y = ((x * w + G) ** 2).sum()
    y.backward()
    return y.item()
for xb in X.split(4):
    G = xb
    print(f(xb), w.grad)
G = X[:4] * 2
for i in range(3):
    for xb in X.split(4):
        v = f(xb)
    print(v, f(G), w.grad)
""",
}

#: iterations replayed (calls and loop iterations), at least
REPLAYED = {
    "one_shape": 30,
    "last_smaller": 24,
    "loop_not_replayed": 12,
    "changed_in_place": 12,
    "views": 20,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_calls_with_each_batch_print_what_compiled_calls_print(name):
    for flags in ((), ("--dtype", "float32")):
        on, off = replay_both(PROGRAMS[name], *flags)
        assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
        assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_calls_with_each_batch_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least


def test_an_argument_that_needs_a_gradient_is_checked_by_identity(monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS["requires_grad"]) == 0
