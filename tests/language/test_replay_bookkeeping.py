"""Bookkeeping in a replayed loop body (language/loop_shapes.py `_append`, replay_plan.Append,
replay.Run._other): `losses.append(loss.item())` of a made name and `steps.append(i)` of a
variable run around the replayed statements, and `w.grad = None` / `w.grad.zero_()` in
the body itself (not in a no_grad block) are the plan's own clearing.  Each program prints
exactly what it prints with `--no-replay`, in float32 and float64, and does replay."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations, run_inprocess

_HEAD = """g = torch.manual_seed(1)
X = torch.randn(20, 3, dtype={dt})
y = X @ torch.tensor([[1.0], [-2.0], [0.5]], dtype={dt}) + 0.3
W1 = torch.randn(3, 8, requires_grad=True, dtype={dt})
b1 = torch.zeros(8, requires_grad=True, dtype={dt})
W2 = torch.randn(8, 1, requires_grad=True, dtype={dt})
lr = 0.01
losses = []
steps = []
"""
_FORWARD = """    hidden = torch.relu(X @ W1 + b1)
    loss = torch.mean((hidden @ W2 - y) ** 2)
"""
_STEP = """    with torch.no_grad():
        W1 -= lr * W1.grad
        b1 -= lr * b1.grad
        W2 -= lr * W2.grad
"""
_AFTER = """print(losses)
print(steps)
print(loss, loss.grad_fn)
print(W1, b1, W2, W1.grad, W2.grad)
print(W1._version, W2._version)
"""

_BODIES = {
    # the gradients let go before backward, outside no_grad; a list of the losses, a
    # print every few steps
    "grad_none": "    W1.grad = None\n    b1.grad = None\n    W2.grad = None\n"
    + "    loss.backward()\n"
    + _STEP
    + "    losses.append(loss.item())\n"
    + "    steps.append(i)\n"
    + "    if i % 5 == 0:\n"
    + '        print(f"step {i:3d} loss {loss.item():.5f}")\n',
    # zero_() after the no_grad block, outside it
    "zero_after": "    loss.backward()\n"
    + _STEP
    + "    W1.grad.zero_()\n    b1.grad.zero_()\n    W2.grad.zero_()\n"
    + "    losses.append(loss.item())\n",
    # the number appended before backward, a number literal too
    "append_first": "    losses.append(loss.item())\n"
    + "    steps.append(-1)\n"
    + "    loss.backward()\n"
    + _STEP
    + "    W1.grad = None\n    b1.grad = None\n    W2.grad = None\n",
}


def _program(body, dt, n=16):
    return (
        _HEAD.format(dt=dt)
        + f"for i in range({n}):\n"
        + _FORWARD
        + body
        + _AFTER
        + "print(len(losses), len(steps))\n"
    )


PROGRAMS = {
    f"{name}_{dt}": _program(body, dt)
    for name, body in _BODIES.items()
    for dt in ("torch.float32", "torch.float64")
}
PROGRAMS.update(
    {
        # the list aliased: the appends are seen through the other name
        "alias": _HEAD.format(dt="torch.float64")
        + "alias = losses\n"
        + "for i in range(10):\n"
        + _FORWARD
        + "    loss.backward()\n"
        + _STEP
        + "    W1.grad = None\n    b1.grad = None\n    W2.grad = None\n"
        + "    losses.append(loss.item())\n"
        + "print(alias is losses, alias)\n",
        # not a list: a class of the program whose append runs its own code
        "not_a_list": "class Log:\n"
        + "    def __init__(self):\n        self.xs = []\n"
        + "    def append(self, x):\n        print('append', x)\n        self.xs.append(x)\n"
        + _HEAD.format(dt="torch.float64")
        + "losses = Log()\n"
        + "for i in range(6):\n"
        + _FORWARD
        + "    loss.backward()\n"
        + _STEP
        + "    W1.grad = None\n    b1.grad = None\n    W2.grad = None\n"
        + "    losses.append(loss.item())\n"
        + "print(losses.xs)\n",
        # item() of a tensor of many elements: the error where compiled raises it
        "item_error": _HEAD.format(dt="torch.float64")
        + "for i in range(6):\n"
        + "    out = X @ W1\n"
        + "    loss = out.sum()\n"
        + "    loss.backward()\n"
        + "    W1.grad = None\n"
        + "    losses.append(loss.item())\n"
        + "    steps.append(out.item())\n",
        # in a def whose calls replay
        "in_a_def": _HEAD.format(dt="torch.float64")
        + "def train(i):\n"
        + "    global W1, b1, W2\n"
        + _FORWARD
        + "    W1.grad = None\n    b1.grad = None\n    W2.grad = None\n"
        + "    loss.backward()\n"
        + _STEP
        + "    losses.append(loss.item())\n"
        + "    steps.append(i)\n"
        + "    return loss\n"
        + "for i in range(12):\n"
        + "    loss = train(i)\n"
        + _AFTER,
    }
)


_STEP_DEF = """def train(X, y):
    global W1, b1, W2
    hidden = torch.relu(X @ W1 + b1)
    {out} = torch.mean((hidden @ W2 - y) ** 2)
    {out}.backward()
    with torch.no_grad():
        W1 -= lr * W1.grad
        b1 -= lr * b1.grad
        W2 -= lr * W2.grad
        W1.grad = None
        b1.grad = None
        W2.grad = None
    return {out}.item()
"""
_DEF_AFTER = "print(l, type(l))\nprint(W1, b1, W2, W1.grad)\n"
for dt in ("torch.float32", "torch.float64"):
    # a step returning its loss as a number: called by a replayed loop, the value bound
    # to the loop's name (a print every few steps reads it)
    PROGRAMS[f"returns_item_{dt}"] = (
        _HEAD.format(dt=dt)
        + _STEP_DEF.format(out="loss")
        + "for i in range(14):\n"
        + "    l = train(X, y)\n"
        + "    if i % 4 == 0:\n"
        + "        print(i, l)\n"
        + _DEF_AFTER
    )
PROGRAMS.update(
    {
        # called where no loop replays it: each call replayed by itself
        "returns_item_calls": _HEAD.format(dt="torch.float64")
        + _STEP_DEF.format(out="loss")
        + "for i in range(10):\n"
        + "    losses.append(train(X, y) * 2)\n"
        + "l = train(X, y)\n"
        + "print(losses)\n"
        + _DEF_AFTER,
        # a global made name: bound, its item() as compiled
        "returns_global_item": _HEAD.format(dt="torch.float64")
        + _STEP_DEF.format(out="loss").replace("global W1", "global loss, W1")
        + "for i in range(10):\n"
        + "    l = train(X, y)\n"
        + "print(loss, loss.grad_fn)\n"
        + _DEF_AFTER,
        # item() of many elements: the error of the compiled `return`
        "returns_item_error": _HEAD.format(dt="torch.float64")
        + "def f(X):\n"
        + "    out = X @ W1\n"
        + "    return out.item()\n"
        + "for i in range(6):\n"
        + "    l = f(X)\n",
    }
)
_DICT_BODY = (
    "    loss.backward()\n"
    + _STEP
    + "    W1.grad = None\n    b1.grad = None\n    W2.grad = None\n"
    + "    hist['loss'].append(loss.item())\n"
    + '    hist["step"].append(i)\n'
)
for dt in ("torch.float32", "torch.float64"):
    # a dict of lists, keyed by string literals (`hist["loss"].append(loss.item())`)
    PROGRAMS[f"dict_of_lists_{dt}"] = (
        _HEAD.format(dt=dt)
        + "hist = {'loss': [], 'step': []}\n"
        + "for i in range(12):\n"
        + _FORWARD
        + _DICT_BODY
        + "print(hist)\n"
        + _AFTER
    )
PROGRAMS.update(
    {
        # the list replaced by an `if` of the body: the appends go to the new one
        "dict_list_replaced": _HEAD.format(dt="torch.float64")
        + "hist = {'loss': [], 'step': []}\n"
        + "for i in range(12):\n"
        + _FORWARD
        + _DICT_BODY
        + "    if i == 6:\n"
        + "        hist['loss'] = []\n"
        + "print(hist)\n",
        # a key the dict does not have: the KeyError where compiled raises it
        "dict_missing_key": _HEAD.format(dt="torch.float64")
        + "hist = {'loss': [], 'step': []}\n"
        + "for i in range(12):\n"
        + _FORWARD
        + _DICT_BODY
        + "    if i == 6:\n"
        + "        del hist['step']\n"
        + "print(hist)\n",
    }
)
_FAILING = ("item_error", "returns_item_error", "dict_missing_key")


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_bookkeeping_prints_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == (1 if name in _FAILING else 0), off.stderr


@pytest.mark.parametrize("name", [n for n in PROGRAMS if n not in _FAILING + ("not_a_list",)])
def test_bookkeeping_loops_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= 5


def test_a_receiver_that_is_not_a_list_is_not_replayed(monkeypatch):
    """(`append` of a program's class runs its code: the loop runs as compiled.)"""
    assert replayed_iterations(monkeypatch, PROGRAMS["not_a_list"]) == 0


def test_the_report_says_the_bookkeeping_loop_qualifies(monkeypatch):
    from gradcli.language import loop_shapes, replay

    monkeypatch.setattr(loop_shapes, "REPORT", True)
    monkeypatch.setattr(replay, "REPORT", True)
    got = run_inprocess(PROGRAMS["grad_none_torch.float32"])
    assert (
        "qualifies" in got.stderr and "12 of 16 iterations replayed" in got.stderr
    )  # (the first noted, the print's three compiled)


@pytest.mark.parametrize("name", ["returns_item_torch.float64", "returns_item_calls"])
def test_a_returned_item_takes_the_number_without_making_the_name(name, monkeypatch):
    """(`return loss.item()` of a local: the call gives the number from the replayed value,
    no Tensor of `loss` is made, so no shadow set is handed over: replay.Run.materialize
    is not called once the calls replay.)"""
    from gradcli.language import replay

    count = [0]
    real = replay.Run.materialize

    def counted(self, numbers=None):
        count[0] += 1
        return real(self, numbers)

    monkeypatch.setattr(replay.Run, "materialize", counted)
    run_inprocess(PROGRAMS[name])
    assert count[0] <= 5
