"""The plain backward pass (`out.backward()`: engine/autograd._pass, which hands a
gradient straight to a parent with one consumer) visits nodes and adds gradients in the
same order as the general loop of run_backward, so .grad is the same to the last bit on
graphs where nodes are shared (the order of three or more additions shows in the bits).
The general loop runs when a tracer is installed (engine/observe.TRACER)."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from gradcli.runtime.errors import GradError
from gradcli.core.tensor import Tensor
from gradcli.engine import observe
from gradcli.engine.autograd import run_backward
from gradcli.ops.elementwise import Add, Mul, Sub
from gradcli.ops.reduce import Sum

OPS = (Add, Mul, Sub)


def _build(program, leaves):
    """A graph from `program`: each step (op, i, j) combines two earlier values (leaves
    or results), so results are consumed zero, one or several times."""
    vals = list(leaves)
    for op, i, j in program:
        a, b = vals[i % len(vals)], vals[j % len(vals)]
        vals.append(OPS[op].apply2(a, b, a.data.dtype))
    last = vals[len(leaves) :] or vals
    out = last[-1]
    for v in last[:-1][-3:]:  # several results reach the output
        out = Add.apply2(out, v, out.data.dtype)
    return Sum.apply(out)


def _grads(program, data, tracer):
    leaves = [Tensor(d.copy(), True) for d in data]
    out = _build(program, leaves)
    observe.TRACER = tracer
    try:
        run_backward((out,), (None,))
    finally:
        observe.TRACER = None
    return [None if t.grad is None else t.grad.data for t in leaves]


steps = st.lists(
    st.tuples(st.integers(0, 2), st.integers(0, 40), st.integers(0, 40)), min_size=1, max_size=14
)


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@settings(max_examples=150, deadline=None)
@given(program=steps, seed=st.integers(0, 2**31))
def test_pass_adds_in_the_general_loops_order(dtype, program, seed):
    rng = np.random.default_rng(seed)
    data = [
        (rng.standard_normal(5) * 10.0 ** rng.integers(-3, 4, 5)).astype(dtype) for _ in range(3)
    ]
    plain = _grads(program, data, None)
    general = _grads(program, data, lambda node, g, in_grads: None)
    for p, q in zip(plain, general):
        assert (p is None) == (q is None)
        if p is not None:
            assert p.tobytes() == q.tobytes()


def _chain(n):
    x = Tensor(np.array(2.0), True)
    y = x
    for _ in range(n):
        y = Mul.apply2(y, 1.001, y.data.dtype)
    return x, y


def test_a_chain_and_its_second_backward():
    x, y = _chain(1000)
    run_backward((y,), (None,))
    x2, y2 = _chain(1000)
    observe.TRACER = lambda node, g, in_grads: None
    try:
        run_backward((y2,), (None,))
    finally:
        observe.TRACER = None
    assert x.grad.data.tobytes() == x2.grad.data.tobytes()
    assert x.grad.data != 1.0
    with pytest.raises(Exception, match="backward through the graph a second time"):
        run_backward((y,), (None,))


def test_a_head_gradients_shape_error_names_its_output():
    """backward([a, b], [ga, gb]) with gb of the wrong shape: the error says output[1]."""
    a = Tensor(np.ones(2), True)
    b = Tensor(np.ones(3), True)
    with pytest.raises(
        GradError,
        match=r"grad_output\[1\] has a shape of torch.Size\(\[2\]\) "
        r"and output\[1\] has a shape of torch.Size\(\[3\]\)",
    ):
        run_backward((a * 2, b * 2), (Tensor(np.ones(2)), Tensor(np.ones(2))))
