"""`recv.append(f(args))` in a replayed loop (language/loop_shapes.py's "append_call",
replay_defs._Held.item with the list's load): the call of a `def` whose calls replay
is the loop's own item, its value (the number of `return loss.item()`, a Tensor, None)
appended to the list recv holds.  Each program prints the same with and without
replay (`--no-replay`); the loops that should replay are counted by the report."""

from __future__ import annotations

import re

import pytest

from conftest import replay_both, run_inprocess

_HEAD = """torch.manual_seed(0)
X = torch.randn(24, 3)
Y = torch.randn(24, 1)
net = nn.Sequential(nn.Linear(3, 5), nn.Tanh(), nn.Linear(5, 1))
opt = torch.optim.SGD(net.parameters(), lr=0.05, momentum=0.9)
mse = nn.MSELoss()


def fit(xb, yb):
    opt.zero_grad()
    loss = mse(net(xb), yb)
    loss.backward()
    opt.step()
    return loss.item()


"""
_AFTER = "print(net[0].weight, net[2].bias, net[2].bias.grad)\n"

PROGRAMS = {
    # the number of `return loss.item()` appended, batches of one shape
    "item": _HEAD
    + """history = []
batches = list(zip(X.split(4), Y.split(4)))
for epoch in range(5):
    for xb, yb in batches:  # (counted)
        history.append(fit(xb, yb))
    print(epoch, history[-1], len(history))
print(sum(history))
"""
    + _AFTER,
    # a new list each epoch, a last smaller batch (its call as compiled)
    "new_list_each_epoch": _HEAD
    + """batches = list(zip(X.split(5), Y.split(5)))
for epoch in range(4):
    losses = []
    for xb, yb in batches:  # (counted)
        losses.append(fit(xb, yb))
    print(epoch, losses)
"""
    + _AFTER,
    # a Tensor returned: appended as the call returns it (its graph kept)
    "tensor": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
X = torch.randn(16, 3)
def step(x):
    y = ((x * w).tanh() ** 2).sum()
    y.backward()
    return y
out = []
for epoch in range(3):
    for x in list(X.split(4)):  # (counted)
        out.append(step(x))
print(out, w.grad)
print(out[-1].grad_fn, out[0] is out[4], [o.requires_grad for o in out])
print(out[2] + out[3], sum(out).grad_fn)
""",
    # nothing returned: None appended; a global the def makes
    "none": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
X = torch.randn(12, 3)
def step(x):
    global last
    last = (x * w).sum()
    last.backward()
got = []
for x in list(X.split(3)):  # (counted)
    got.append(step(x))
print(got, last, w.grad)
""",
    # an `if` every few steps that prints, a counter
    "guarded": _HEAD
    + """history = []
batches = list(zip(X.split(4), Y.split(4)))
t = 0
for i in range(12):  # (counted)
    history.append(fit(X, Y))
    t += 1
    if i % 5 == 4:
        print(t, history[-1])
print(history)
"""
    + _AFTER,
    # the function redefined between the loop's runs, the list given another list
    "redefined": _HEAD
    + """history = []
for epoch in range(3):
    for i in range(4):  # (counted)
        history.append(fit(X, Y))
    def fit(xb, yb):
        opt.zero_grad()
        loss = (net(xb) - yb).abs().mean()
        loss.backward()
        opt.step()
        return loss.item()
    print(epoch, history)
    history = list(history)
"""
    + _AFTER,
    # an error in a call mid-loop: raised in its place
    "raises": _HEAD
    + """history = []
batches = list(zip(X.split(4), Y.split(4))) + [(X[:4], Y[:3])]
for xb, yb in batches:  # (counted)
    history.append(fit(xb, yb))
"""
    + _AFTER,
    # a receiver of the program's class: its `append` runs the program's code
    "not_a_list": _HEAD
    + """class Log:
    def __init__(self):
        self.items = []
    def append(self, v):
        print('append', v)
        self.items.append(v)
history = Log()
for i in range(6):  # (counted)
    history.append(fit(X, Y))
print(history.items)
"""
    + _AFTER,
    # the receiver is not bound: NameError in its place, before the call runs
    "unbound": _HEAD
    + """for i in range(4):
    if i == 2:
        del hist
    hist = [] if i == 0 else hist
    hist.append(fit(X, Y))
"""
    + _AFTER,
}

_FAILING = ("raises", "unbound")

#: iterations the loop marked `(counted)` replays, at least
REPLAYED = {
    "item": 4 * 5,
    "new_list_each_epoch": 3 * 3,
    "tensor": 5,
    "none": 2,
    "guarded": 6,
    "redefined": 5,
}


def _source(name):
    return "import torch\nfrom torch import nn\n" + PROGRAMS[name]


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_appended_calls_print_what_compiled_calls_print(name):
    source = _source(name)
    for flags in ((), ("--dtype", "float32")):
        on, off = replay_both(source, *flags)
        assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
        assert off.returncode == (1 if name in _FAILING else 0), off.stderr


def _replayed(monkeypatch, name):
    """Iterations of the loop marked `(counted)` replayed, in all, by the report."""
    from gradcli.language import loop_shapes, replay

    monkeypatch.setattr(loop_shapes, "REPORT", True)
    monkeypatch.setattr(replay, "REPORT", True)
    source = _source(name)
    line = 1 + next(i for i, x in enumerate(source.splitlines()) if "(counted)" in x)
    got = run_inprocess(source)
    pattern = r"replay: loop at line %d: (\d+) of \d+ iterations replayed" % line
    return sum(int(n) for n in re.findall(pattern, got.stderr))


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_loops_appending_calls_replay(name, least, monkeypatch):
    assert _replayed(monkeypatch, name) >= least


def test_a_receiver_that_is_not_a_list_is_not_replayed(monkeypatch):
    """(`append` of a program's class runs its code: the loop runs as compiled.)"""
    assert _replayed(monkeypatch, "not_a_list") == 0
