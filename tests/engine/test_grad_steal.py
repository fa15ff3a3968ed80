"""The backward (passes._deliver, and a replayed graph's straight-line backward,
engine/straight.py) makes a leaf's gradient its .grad without a copy when no one else
holds it, as PyTorch's
AccumulateGrad takes a gradient whose use_count is 1: the array (or a view of an owner
that only it holds) by CPython's reference count.  Every other gradient is copied: one
another variable, another leaf or the flow record holds, a read-only one, one in
another layout.  No .grad ever shares memory with another leaf's or with what the flow
record keeps, and the programs print what they print compiled."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import run_inprocess
from gradcli.core.tensor import Tensor
from gradcli.engine import autograd, observe, passes, straight
from gradcli.ops.registry import FUNCTIONS


def _leaf(shape=(3, 2)):
    return Tensor(np.arange(np.prod(shape), dtype=np.float64).reshape(shape), True)


def _owner(a):
    return a if a.base is None else a.base


def test_a_gradient_no_one_else_holds_becomes_grad_as_it_is():
    leaf = _leaf()
    g = np.full((3, 2), 0.5)
    straight._into(leaf, g, False)
    assert leaf.grad.data is g


def test_a_view_whose_owner_only_it_holds_becomes_grad_as_it_is():
    leaf = _leaf()
    g = np.full((1, 3, 2), 0.5)[0]  # (a C-ordered view of an owner only it holds)
    assert g.base is not None and g.flags.c_contiguous
    straight._into(leaf, g, False)
    assert leaf.grad.data is g


def test_a_gradient_held_elsewhere_is_copied():
    leaf = _leaf()
    g = np.full((3, 2), 0.5)
    kept = [g]
    straight._into(leaf, g, False)
    assert leaf.grad.data is not g and not np.shares_memory(leaf.grad.data, kept[0])
    assert leaf.grad.data.tobytes() == g.tobytes()


def test_a_view_of_an_owner_another_view_holds_is_copied():
    leaf = _leaf()
    owner = np.full((2, 3, 2), 0.5)
    g, other = owner[0], owner[1]
    del owner
    straight._into(leaf, g, False)
    assert not np.shares_memory(leaf.grad.data, other)
    assert leaf.grad.data.tobytes() == g.tobytes()


@pytest.mark.parametrize("kind", ["read-only", "transposed"])
def test_a_read_only_or_other_layout_gradient_is_copied_in_c_order(kind):
    leaf = _leaf()
    g = np.full((2, 3), 0.5).T if kind == "transposed" else np.full((3, 2), 0.5)
    if kind == "read-only":
        g.flags.writeable = False
    straight._into(leaf, g, False)
    d = leaf.grad.data
    assert d is not g and d.flags.c_contiguous and d.flags.writeable
    assert not np.shares_memory(d, g) and (d == g).all()


def test_the_backward_loop_takes_a_gradient_only_its_pair_holds():
    a, b, c = _leaf(), _leaf(), _leaf()
    shared = np.full((3, 2), 2.0)
    pairs = [(a, np.full((3, 2), 0.5)), (b, shared), (c, np.full((1, 3, 2), 1.5)[0])]
    mine = id(pairs[0][1]), id(pairs[2][1])  # (ids: a name would hold them)
    passes._deliver(pairs, {}, autograd._store_grad, ())
    assert (id(a.grad.data), id(c.grad.data)) == mine
    assert not np.shares_memory(b.grad.data, shared) and (b.grad.data == 2.0).all()


def _run_straight(t):
    root = t.grad_fn
    prog = straight.made_now(root)
    run = straight._make(root, prog.steps)
    assert run is not None
    flow = observe.start_flow(len(prog.steps))
    g = np.array(1, dtype=t.data.dtype)
    g.flags.writeable = False
    run(root, g, flow, observe.FLOW_SMALL)
    return flow


def test_no_grad_shares_memory_with_another_or_with_the_flow_record():
    """Two leaves given one gradient (an add), a leaf whose gradient is a view of one the
    flow record keeps (a transpose), a leaf of its own product (stolen): each .grad its
    own memory, and the record's values are what flowed."""
    f = FUNCTIONS
    u, v, w, x = _leaf(), _leaf(), _leaf((2, 3)), _leaf((2, 2))
    c = Tensor(np.linspace(-1, 1, 6).reshape(3, 2))
    y = f["add"](f["add"](u, v), f["matmul"](f["t"](w), x))
    t = f["sum"](f["mul"](y, c))
    flow = _run_straight(t)
    grads = [p.grad.data for p in (u, v, w, x)]
    recorded = [a for a in flow[1].values() if isinstance(a, np.ndarray)]
    before = [a.copy() for a in recorded]
    for i, a in enumerate(grads):
        for b in grads[i + 1 :] + recorded:
            assert not np.shares_memory(a, b)
    for p in (u, v, w, x):
        p.grad.data[...] = 7.0  # (what an in-place change of .grad would do)
    assert all((a == b).all() for a, b in zip(recorded, before))


LOOP = """torch.manual_seed(5)
X = torch.randn(24, 6)
T = torch.randn(24, 2)
A = torch.randn(6, 4, requires_grad=True)
B = torch.randn(4, 2, requires_grad=True)
u = torch.randn(24, 2, requires_grad=True)
v = torch.randn(24, 2, requires_grad=True)
opt = torch.optim.SGD([A, B, u, v], lr=0.05, momentum=0.5)
for i in range(15):
    opt.zero_grad()
    loss = ((torch.tanh(X @ A) @ B + u + v - T) ** 2).mean()
    loss.backward()
    opt.step()
u.grad.mul_(3.0)
B.grad.zero_()
print(loss.item(), u.grad[0], v.grad[0], A.grad.sum().item(), B.grad)
"""


def test_a_loop_after_zero_grad_prints_what_it_prints_compiled():
    """.grad set to None each step (zero_grad), then changed in place after the loop:
    the leaves given one gradient (u, v) stay apart."""
    replayed = run_inprocess(LOOP)
    compiled = run_inprocess(LOOP, ("eval", "--no-replay", "-"))
    assert replayed.returncode == 0
    assert replayed.stdout == compiled.stdout and replayed.stderr == compiled.stderr
