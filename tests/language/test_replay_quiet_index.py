"""A replayed loop's head indexing the data by a minibatch's indices (`idx = perm[i : i +
bs]`, `xb, yb = X[idx], y[idx]`): a quiet head (language/replay_head.py `_quiet`: the
indexed names hold tensors, the indices tensors, ints or None, a slice's bounds ints and
their arithmetic, checked before each statement runs), so the names the replay made
stay pending and a steady plan checks only the names the head binds.  Each program
prints exactly what it prints with `--no-replay`, in float32 and float64, and replays;
an index or a tensor of the program's own class (its `__index__` or `__getitem__`
reading a made name), and a head whose index raises, caught outside the loop, run as
compiled would."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations, run_inprocess

_HEAD = """import torch
torch.set_default_dtype({dt})
torch.manual_seed(2)
X = torch.randn(60, 3)
y = (X[:, 0] + 0.5 * X[:, 2] > 0).float().unsqueeze(1)
W = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
"""

_CASES = {
    # short epochs over a permutation, a running loss, a print per epoch
    "epochs": """total = 0.0
for epoch in range(6):
    perm = torch.randperm(60)
    for start in range(0, 60, 12):
        idx = perm[start : start + 12]
        xb, yb = X[idx], y[idx]
        p = torch.sigmoid(xb @ W + b)
        loss = ((p - yb) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            W -= 0.5 * W.grad
            b -= 0.5 * b.grad
        W.grad.zero_()
        b.grad.zero_()
        total += loss.item()
    print(epoch, total, xb.shape)
print(W, b, loss)
""",
    # a bound of negative numbers, a step count, an index tensor of ints from a list
    "bounds": """order = torch.tensor([5, 1, 7, 3, 0, 2, 9, 4, 8, 6])
k = 2
for step in range(10):
    sel = order[-k * 5 : 10 - k // 2]
    xb, yb = X[sel, :], y[sel]
    loss = (xb @ W + b - yb).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        W -= 0.01 * W.grad
    W.grad = None
print(W, loss, sel)
""",
    # a bound of the program's own class (its `__mul__` and `__add__` read the made
    # name) and its own indexed object (`__getitem__` reads it): the names bound
    # before, as compiled
    "program_objects": """class At:
    def __init__(self, i):
        self.i = i
    def __mul__(self, k):
        print("mul", loss.item())
        return self.i * k
    def __add__(self, k):
        print("add", loss.item())
        return self.i + k
class Rows:
    def __getitem__(self, key):
        print("rows", loss.item())
        return X[key]
loss = torch.tensor(0.0)
V = torch.randn(3, 1, requires_grad=True)
for i in [3, 4, At(5), 6, 7, 8, 9, At(10), 11, 12]:
    xb, n = X[i * 1 : i + 10], 10
    loss = (xb @ V).pow(2).mean()
    loss.backward()
print(V.grad, loss)
rows = Rows()
for i in range(8):
    xb, n = rows[i : i + 10], 10
    loss = (xb @ V).pow(2).mean()
    loss.backward()
print(V.grad, loss)
""",
    # an index out of range in the head at the 7th step, caught outside the loop: the
    # names are what the compiled loop left
    "raises": """perm = torch.cat([torch.randperm(60), torch.tensor([70])])
xb = None
try:
    for start in range(0, 61, 10):
        idx = perm[start : start + 10]
        xb, yb = X[idx], y[idx]
        loss = ((xb @ W + b - yb) ** 2).mean()
        loss.backward()
except IndexError as e:
    print("caught", e)
print(xb.shape, loss, W.grad)
""",
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}") + loop
    for name, loop in _CASES.items()
    for dt in ("float32", "float64")
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_indexing_head_prints_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_indexing_head_replays(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= 4


@pytest.mark.parametrize("case", ["epochs", "bounds"])
def test_an_indexing_head_is_quiet(case, monkeypatch):
    from gradcli.language import replay_head

    quiet = []
    real = replay_head.compile_loop

    def noted(*args):
        body = real(*args)
        if isinstance(body, replay_head.Headed):
            quiet.append(body.quiet is not None)
        return body

    monkeypatch.setattr(replay_head, "compile_loop", noted)
    run_inprocess(PROGRAMS[f"{case}_float64"])
    assert quiet and all(quiet)
