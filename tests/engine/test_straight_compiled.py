"""`loss.backward()` of a loop run as compiled (a body the replay does not take: a class
of the program's, a print each iteration) goes through a Straight of its graph's
schedule (engine/straight.py `backward_out`) once the structure has been seen: the
programs print what they print with `--no-replay`, which keeps the backward loop
(autograd._pass), and the Straight is picked by the graph's node dtypes and by which
gradients go to one leaf (a structure does not say either)."""

from __future__ import annotations

import pytest

from conftest import run_inprocess
from gradcli.engine import straight

HEAD = """import torch


class Box:
    def __init__(self, t):
        self.t = t

    def __mul__(self, other):
        return Box(self.t * (other.t if isinstance(other, Box) else other))

    def __add__(self, other):
        return Box(self.t + (other.t if isinstance(other, Box) else other))


torch.manual_seed(0)
"""

PROGRAMS = {
    # a two-layer network of the program's class, its bias summed to its shape
    "mlp": """
X = torch.randn(16, 4)
Y = torch.randn(16, 1)
W1 = (torch.randn(4, 8) * 0.5).requires_grad_()
b1 = torch.zeros(8, requires_grad=True)
W2 = (torch.randn(8, 1) * 0.5).requires_grad_()
for i in range(12):
    h = Box(X @ W1) + Box(b1)
    out = Box(h.t.tanh() @ W2) * 0.5
    loss = ((out.t - Y) ** 2).mean()
    for p in (W1, b1, W2):
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in (W1, b1, W2):
            p -= 0.1 * p.grad
    print(i, loss.item(), b1.grad.sum().item())
""",
    # one structure, its leaves shared or not: x * y, then x * x
    "aliasing": """
x = torch.randn(5, requires_grad=True)
y = torch.randn(5, requires_grad=True)
for i in range(12):
    b = Box(x) * Box(x if i >= 6 else y)
    loss = b.t.sum()
    loss.backward()
    print(i, x.grad.tolist(), y.grad.tolist())
""",
    # one structure, of float32 and of float64 nodes in turn (and a float32 leaf in a
    # float64 graph), gradients summed into .grad
    "dtypes": """
w32 = torch.randn(3, dtype=torch.float32, requires_grad=True)
w64 = torch.randn(3, dtype=torch.float64, requires_grad=True)
x32 = torch.randn(3, dtype=torch.float32)
x64 = torch.randn(3, dtype=torch.float64)
for i in range(12):
    w, x = [(w64, x64), (w32, x32), (w32, x64)][i % 3]
    b = Box(w) * Box(x)
    loss = (b.t * b.t).sum()
    loss.backward()
    print(i, [None if p.grad is None else p.grad.tolist() for p in (w32, w64)], loss.dtype)
""",
    # pieces of a chunk (gathered by the pass), hooks added mid-loop, a second backward
    "special": """
x = torch.randn(6, requires_grad=True)
w = torch.randn(3, requires_grad=True)
for i in range(12):
    a, c = x.chunk(2)
    b = Box(a) * Box(w)
    loss = (b.t * c).sum()
    if i == 7:
        h = w.register_hook(lambda g: g * 2)
    if i == 9:
        h.remove()
    loss.backward()
    if i == 10:
        try:
            loss.backward()
        except RuntimeError as e:
            print("error:", e)
    print(i, x.grad.tolist(), w.grad.tolist())
""",
    # a saved input changed in place before the backward, from the eighth pass on
    "version": """
w = torch.randn(4, requires_grad=True)
for i in range(10):
    x = torch.randn(4)
    b = Box(w) * Box(x)
    loss = (b.t * w).sum()
    if i == 8:
        with torch.no_grad():
            w.add_(1.0)
    try:
        loss.backward()
    except RuntimeError as e:
        print("error:", str(e)[:90])
    print(i, w.grad.tolist())
""",
    # a custom Function (its own backward) in the graph, an efficient-zeros gradient
    "custom": """
class Ste(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.round(x * 4.0) / 4.0

    @staticmethod
    def backward(ctx, g):
        return g * 1.0


w = torch.randn(6, requires_grad=True)
for i in range(10):
    q = Box(Ste.apply(w)) * 2.0
    loss = (q.t * w).sum() + w.sum() * 0.0
    w.grad = None
    loss.backward()
    print(i, loss.item(), w.grad.tolist())
""",
}


def _run(source, *flags):
    return run_inprocess(source, ("eval", "-q", *flags, "-"))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_a_compiled_loop_s_straight_backward_prints_what_the_loop_prints(name, dtype):
    src = HEAD + PROGRAMS[name]
    straight._COMPILED.clear()
    got = _run(src, "--dtype", dtype)
    used = [
        p
        for _, progs, _ in straight._COMPILED.values()
        for *_, p in progs
        if p and p.run is not None
    ]
    want = _run(src, "--dtype", dtype, "--no-replay")
    assert got.stdout == want.stdout
    assert got.stderr == want.stderr
    assert got.returncode == want.returncode == 0
    if name != "special":  # (its pieces keep the loop: the last test)
        assert used, "no pass ran through a Straight"


def test_one_structure_gets_a_straight_per_dtypes_and_leaf_sharing():
    straight._COMPILED.clear()
    _run(HEAD + PROGRAMS["aliasing"])
    assert sorted(len(progs) for _, progs, _ in straight._COMPILED.values()) == [2]
    straight._COMPILED.clear()
    _run(HEAD + PROGRAMS["dtypes"])
    assert sorted(len(progs) for _, progs, _ in straight._COMPILED.values()) == [2]


def test_a_graph_of_pieces_keeps_the_loop():
    straight._COMPILED.clear()
    _run(HEAD + PROGRAMS["special"])
    progs = [p for _, ps, _ in straight._COMPILED.values() for *_, p in ps]
    assert progs and all(p is None for p in progs)
