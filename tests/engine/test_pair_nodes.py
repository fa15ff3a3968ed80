"""engine/number_nodes.py `pair_node`: the node of two 0-d float64 or float32 tensors
under + - *, made without apply2's general steps, is apply2's node: its fields, saved
values, version records, creation order, value bits and gradients; and the language's
operators make it (and step aside for what it does not cover)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.engine import versions
from gradcli.engine.autograd import run_backward
from gradcli.engine.number_nodes import pair_node
from gradcli.ops.elementwise import Add, Mul, Sub
from gradcli.ops.registry import OPERATOR_NODES

VALUES = [0.0, -0.0, 1.0, -2.5, 1e-310, 1e-40, 3.4e38, -1e308, math.inf, -math.inf, math.nan, 0.1]


def test_the_pair_nodes_are_add_sub_mul():
    nodes = {node for node, _, _ in OPERATOR_NODES.values() if node.pair_forward is not None}
    assert nodes == {Add, Sub, Mul}


def _fields(t):
    n = t.grad_fn
    return (
        type(n),
        n.needs,
        n.parents,
        n.out_dtype,
        n.watch,
        n.sa,
        n.sb,
        len(n.saved),
        tuple(n.saved_src) if n.saved else None,
        getattr(n, "vers", None),
    )


def _bits(v):
    return np.asarray(v).tobytes()


@pytest.mark.parametrize("cls", [Add, Sub, Mul])
@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_pair_node_is_the_node_apply2_makes(cls, dtype):
    dt = np.dtype(dtype)
    was = versions.state.bumped
    try:
        for bumped in (False, True):
            versions.state.bumped = bumped
            with np.errstate(all="ignore"):
                _compare(cls, dt)
    finally:
        versions.state.bumped = was


def _operands(v, dt):
    leaf = Tensor(np.array(v, dtype=dt), True)
    return [leaf, Tensor(np.array(v, dtype=dt)), Mul.apply2(leaf, 2.0, dt)]


def _compare(cls, dt):
    for av in VALUES:
        for bv in VALUES[::2]:
            for a in _operands(av, dt):
                for b in _operands(bv, dt):
                    if not (a.requires_grad or b.requires_grad):
                        continue
                    r1 = cls.apply2(a, b, dt)
                    r2 = pair_node(cls, a, b)
                    assert type(r2.data) is np.ndarray and r2.data.dtype == dt
                    assert r2.data.shape == () and r2.requires_grad
                    assert _bits(r1.data) == _bits(r2.data), (cls, av, bv)
                    assert _fields(r1) == _fields(r2)
                    assert r1.grad_fn.seq < r2.grad_fn.seq < r2.seq
                    for s1, s2 in zip(r1.grad_fn.saved, r2.grad_fn.saved):
                        assert s1 is s2
                    inputs = [t for t in (a, b) if t.requires_grad]
                    g1 = run_backward((r1,), (None,), retain_graph=True, inputs=inputs)
                    g2 = run_backward((r2,), (None,), retain_graph=True, inputs=inputs)
                    assert [_bits(g.data) for g in g1] == [_bits(g.data) for g in g2]


def test_pair_node_steps_aside_for_forward_mode():
    from gradcli.engine import forward

    a, b = Tensor(np.array(1.5), True), Tensor(np.array(2.0), True)
    level = forward.enter_level()
    try:
        r = pair_node(Mul, a, b)
    finally:
        forward.exit_level(level)
    assert r.grad_fn.name == "MulBackward0" and r.data == 3.0


@pytest.mark.parametrize("op", ["+", "-", "*"])
def test_the_languages_operators_make_the_same_nodes(op):
    from gradcli.language.runtime import binary_op

    run = binary_op(op)
    cls = OPERATOR_NODES[op][0]
    for dt in (np.dtype(np.float64), np.dtype(np.float32)):
        a, b = Tensor(np.array(0.3, dtype=dt), True), Tensor(np.array(-1.7, dtype=dt), True)
        for x, y in ((a, b), (a, a), (a, 2.5), (a, 3)) + (((2.5, a),) if op != "-" else ()):
            got = run(x, y)
            want = cls.apply2(x, y, dt) if type(x) is Tensor else cls.apply2(y, x, dt)
            assert _bits(got.data) == _bits(want.data) and got.data.dtype == dt
            assert _fields(got) == _fields(want)
