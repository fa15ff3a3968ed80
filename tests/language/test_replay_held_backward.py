"""`E.backward()` of an expression E other than a name in a replayed body (`l.sum().backward()`,
d2l's form): split in two before the body is compiled (language/loop_split.py, loop_shapes.
`held_backward`): E assigned to a name the program cannot spell, replayed as any
assignment is, and the backward of that name; a body with it and a step the replay may
not run (a `def` updating the parameters) replays up to it and runs the rest as its
compiled tail.  Each program prints exactly what it prints with `--no-replay`, in float32
and float64, and the ones that should replay do; a backward that raises (a second
backward through freed buffers) raises where the compiled loop raises it."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
torch.set_default_dtype({dt})
torch.manual_seed(4)
X = torch.randn(40, 3)
y = X @ torch.tensor([[1.0], [-2.0], [0.5]]) + 0.3
w = torch.zeros(3, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
batches = list(zip(X.split(10), y.split(10)))
"""

_CASES = {
    # d2l's loop: a sum's backward, then a def's step (the compiled tail)
    "sgd_def": """def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
for epoch in range(4):
    for Xb, yb in batches:
        l = (Xb @ w + b - yb) ** 2 / 2
        l.sum().backward()
        sgd([w, b], 0.1, 10)
    print(epoch, l.sum().item())
print(w, b)
""",
    # a mean's backward and the update in the body, the gradient printed after
    "mean_in_body": """for step in range(12):
    out = X @ w + b
    ((out - y) ** 2).mean().backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        b -= 0.1 * b.grad
    w.grad.zero_()
    b.grad.zero_()
print(w, b, out.sum())
""",
    # the backward of a graph already freed at the 6th step: the error where compiled
    "raises": """for step in range(8):
    out = (X @ w + b - y) ** 2
    out.sum().backward()
    print(step, w.grad.sum().item())
    if step == 6:
        out.mean().backward()
print(w.grad)
""",
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}") + loop
    for name, loop in _CASES.items()
    for dt in ("float32", "float64")
}

#: iterations replayed, at least
REPLAYED = {"sgd_def": 10, "mean_in_body": 8, "raises": 4}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_held_backward_prints_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert (off.returncode != 0) == name.startswith("raises"), off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_held_backward_replays(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[f"{name}_float64"]) >= least
