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


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_bookkeeping_prints_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == (1 if name == "item_error" else 0), off.stderr


@pytest.mark.parametrize("name", [n for n in PROGRAMS if n not in ("item_error", "not_a_list")])
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
