"""Registry-driven checks of every op's forward-mode rule.

Every sample call of the registry (the same CASES as tests/ops/test_gradcheck.py,
EXTRA included) is run with its float inputs made dual tensors carrying random
tangents v (gradcli/engine/forward.py), and:

* first order: each floating output's tangent (J v) against central finite
  differences (f(x + eps v) - f(x - eps v)) / 2 eps;
* against the VJP: <u, J v> from forward mode equals <J^T u, v> from reverse
  mode, for a random head u;
* second order, forward over reverse: the gradient of <u, f(x)> computed with
  create_graph inside the dual level carries the tangent H v, which must equal
  the reverse-over-reverse Hessian-vector product (the gradient of
  <grad, v>);
* second order, forward over forward: with two nested dual levels the inner
  tangent's outer tangent must equal central differences of the JVP.
  Ops whose node is not twice differentiable are skipped in both.
No op needs a test of its own: registering it with `checks` is enough.
"""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.runtime import context
from gradcli.runtime.errors import GradError
from gradcli.core.tensor import Tensor
from gradcli.engine import forward as fw
from gradcli.engine.autograd import run_backward
from tests.ops.test_gradcheck import CASES, EPS, _build, _case_seed, _nodes, float_outputs

ATOL, RTOL = 1e-5, 1e-3


def _swap(obj, table):
    if isinstance(obj, Tensor):
        return table.get(id(obj), obj)
    if isinstance(obj, list):
        return [_swap(o, table) for o in obj]
    return obj


def make(entry, i):
    """(call(table), leaves): call runs the op with leaves replaced per `table`."""
    args_spec, kwargs_spec = entry.checks[i]
    rng = np.random.default_rng(_case_seed(entry, i))
    leaves = []
    args = [_build(a, rng, leaves) for a in args_spec]
    kwargs = {k: _build(v, rng, leaves) for k, v in kwargs_spec.items()}

    def call(table=None):
        table = table or {}
        return entry.fn(*_swap(args, table), **{k: _swap(v, table) for k, v in kwargs.items()})

    return call, leaves


def _outs(out):
    return float_outputs(out)


def jvp_of(call, leaves, vs, requires_grad=False):
    """(outputs, tangents) of the op at the leaves with tangents vs."""
    level = fw.enter_level()
    try:
        table = {}
        for x, v in zip(leaves, vs):
            base = x if requires_grad else Tensor(x.data)
            table[id(x)] = fw.make_dual(base, Tensor(v), level)
        outs = _outs(call(table))
        tans = [fw.tangent_of(o, level) for o in outs]
        return outs, tans, level
    finally:
        fw.exit_level(level)


def _arr(t, like):
    return np.zeros(like.shape) if t is None else np.asarray(t.data, dtype=np.float64)


@pytest.mark.parametrize("entry,i", CASES)
def test_jvp(entry, i):
    call, leaves = make(entry, i)
    if not leaves:
        pytest.skip("no differentiable input")
    rng = np.random.default_rng(_case_seed(entry, i) + 7)
    vs = [rng.standard_normal(x.data.shape) for x in leaves]
    if _no_forward_rule(call):  # PyTorch's error, as torch raises it
        with pytest.raises(GradError, match="Trying to use forward AD with"):
            jvp_of(call, leaves, vs)
        return
    outs, tans, _ = jvp_of(call, leaves, vs)
    base = _outs(call())
    assert len(outs) == len(base)
    for o, b in zip(outs, base):
        np.testing.assert_array_equal(o.data, b.data)  # the primal is the plain result
    # finite differences along v
    prev = context.current.grad_enabled
    context.current.grad_enabled = False
    try:
        saved = [x.data.copy() for x in leaves]
        for x, v in zip(leaves, vs):
            x.data[...] = x.data + EPS * v
        hi = [o.data.copy() for o in _outs(call())]
        for x, s, v in zip(leaves, saved, vs):
            x.data[...] = s - EPS * v
        lo = [o.data.copy() for o in _outs(call())]
        for x, s in zip(leaves, saved):
            x.data[...] = s
    finally:
        context.current.grad_enabled = prev
    for k, (t, h, l, o) in enumerate(zip(tans, hi, lo, outs)):
        num = (h - l) / (2 * EPS)
        got = _arr(t, o.data)
        assert got.shape == o.data.shape, f"output {k}: tangent shape {got.shape}"
        assert np.allclose(got, num, atol=ATOL, rtol=RTOL), (
            f"{entry.name}{entry.checks[i]} output {k}: jvp\n{got}\nnumerical\n{num}"
        )
    # against the VJP: <u, J v> == <J^T u, v>
    us = [rng.standard_normal(o.data.shape) for o in outs]
    fresh = _outs(call())
    pairs = [(o, u) for o, u in zip(fresh, us) if o.requires_grad]
    fwd = sum(
        float(np.sum(u * _arr(t, o.data)))
        for o, u, t in zip(outs, us, tans)
        if o.requires_grad or t is not None
    )
    if pairs:
        gs = run_backward(
            [o for o, _ in pairs], [Tensor(u) for _, u in pairs], inputs=leaves, allow_unused=True
        )
        rev = sum(float(np.sum(_arr(g, x.data) * v)) for g, x, v in zip(gs, leaves, vs))
    else:
        rev = 0.0
    assert np.isclose(fwd, rev, atol=1e-8, rtol=1e-8), f"<u, Jv> = {fwd} but <J^T u, v> = {rev}"


def _no_forward_rule(call):
    """Whether a node of the op declares it has no forward-mode rule (jvp = none(why))."""
    return any(not type(n).jvp for n in _nodes(call()))


def _no_second_derivative(call, leaves):
    """Whether the op's gradient is PyTorch's NotImplemented node (hardsigmoid's)."""
    outs = [o for o in _outs(call()) if o.requires_grad]
    heads = [Tensor(np.ones(o.data.shape)) for o in outs]
    firsts = run_backward(outs, heads, create_graph=True, inputs=leaves, allow_unused=True)
    return any(
        getattr(g.grad_fn, "qualified_name", "") == "torch::autograd::NotImplemented"
        for g in firsts
        if g is not None
    )


@pytest.mark.parametrize("entry,i", CASES)
def test_forward_over_reverse(entry, i):
    """Hessian-vector products: forward over reverse == reverse over reverse."""
    call, leaves = make(entry, i)
    if not leaves:
        pytest.skip("no differentiable input")
    out = call()
    if any(not type(n).differentiable_twice for n in _nodes(out)):
        pytest.skip("not twice differentiable")
    if _no_second_derivative(call, leaves) or _no_forward_rule(call):
        pytest.skip("PyTorch has no second derivative or no forward-mode rule")
    rng = np.random.default_rng(_case_seed(entry, i) + 11)
    us = [rng.standard_normal(o.data.shape) for o in _outs(out)]
    vs = [rng.standard_normal(x.data.shape) for x in leaves]

    # reverse over reverse: d/dx <grad_x <u, f>, v>
    outs = [(o, u) for o, u in zip(_outs(call()), us) if o.requires_grad]
    firsts = run_backward(
        [o for o, _ in outs],
        [Tensor(u) for _, u in outs],
        create_graph=True,
        retain_graph=True,
        inputs=leaves,
        allow_unused=True,
    )
    s = None
    from gradcli.ops.reduce import sum_

    for g, v in zip(firsts, vs):
        if g is not None and g.requires_grad:
            t = sum_(g * Tensor(v))
            s = t if s is None else s + t
    if s is None:
        rr = [np.zeros(x.data.shape) for x in leaves]
    else:
        gs = run_backward([s], [None], inputs=leaves, allow_unused=True)
        rr = [_arr(g, x.data) for g, x in zip(gs, leaves)]

    # forward over reverse: the tangent of grad_x <u, f> along v
    level = fw.enter_level()
    try:
        table = {}
        duals = []
        for x, v in zip(leaves, vs):
            d = fw.make_dual(Tensor(x.data, requires_grad=True), Tensor(v), level)
            table[id(x)] = d
            duals.append(d)
        o2 = [(o, u) for o, u in zip(_outs(call(table)), us) if o.requires_grad]
        gs = run_backward(
            [o for o, _ in o2],
            [Tensor(u) for _, u in o2],
            create_graph=True,
            inputs=duals,
            allow_unused=True,
        )
        fr = [
            np.zeros(x.data.shape) if g is None else _arr(fw.tangent_of(g, level), x.data)
            for g, x in zip(gs, leaves)
        ]
    finally:
        fw.exit_level(level)
    for k, (a, b) in enumerate(zip(fr, rr)):
        assert np.allclose(a, b, atol=1e-7, rtol=1e-6), (
            f"{entry.name}{entry.checks[i]} input {k}: fwd-over-rev\n{a}\nrev-over-rev\n{b}"
        )


def test_harness_catches_a_wrong_rule(monkeypatch):
    """The checks above fail when an op's forward rule is wrong."""
    from gradcli.ops import registry

    entry = registry.BUILTINS["sin"]
    cls = type(entry.fn(Tensor(np.zeros(1), requires_grad=True)).grad_fn)
    monkeypatch.setattr(cls, "jvp", lambda self, ts, F, x: ts[0] * F.sin(x))
    with pytest.raises(AssertionError):
        test_jvp(entry, 1)


def test_every_node_class_has_a_forward_rule():
    import gradcli.session  # noqa: F401
    from gradcli.engine.function import Function
    from gradcli.ops.elementwise import NotDifferentiable, _Arith
    from gradcli.ops.unary import Unary

    def subclasses(c):
        for s in c.__subclasses__():
            yield s
            yield from subclasses(s)

    missing = [
        c.__name__
        for c in set(subclasses(Function))
        if c.jvp is Function.jvp
        and not issubclass(c, NotDifferentiable)
        and c not in (Unary, _Arith)
        and c.__module__.startswith("gradcli.")
    ]
    assert not missing


def test_op_without_forward_rule_fails_as_pytorch():
    from gradcli.runtime.errors import GradError
    from gradcli.ops.registry import FUNCTIONS

    level = fw.enter_level()
    try:
        d = fw.make_dual(Tensor(np.array([1.0, 2.0])), Tensor(np.ones(2)), level)
        with pytest.raises(GradError) as e:
            FUNCTIONS["floor_divide"](d, 2)
        assert e.value.type_name == "NotImplementedError"
        assert str(e.value.message) == (
            "Trying to use forward AD with aten::floor_divide that does not support it."
        )
    finally:
        fw.exit_level(level)


def test_nested_levels_do_not_confuse_tangents():
    """d/dx [x * d/dy (x * y)] = d/dx [x * x] = 2x with two forward levels."""
    from gradcli.ops.registry import FUNCTIONS

    outer = fw.enter_level()
    try:
        x = fw.make_dual(Tensor(np.array(3.0)), Tensor(np.array(1.0)), outer)
        inner = fw.enter_level()
        try:
            y = fw.make_dual(Tensor(np.array(5.0)), Tensor(np.array(1.0)), inner)
            dy = fw.tangent_of(FUNCTIONS["mul"](x, y), inner)
        finally:
            fw.exit_level(inner)
        r = FUNCTIONS["mul"](x, dy)
        assert float(r.data) == 9.0
        assert float(fw.tangent_of(r, outer).data) == 6.0
    finally:
        fw.exit_level(outer)


@pytest.mark.parametrize("entry,i", CASES)
def test_forward_over_forward(entry, i):
    """Nested dual levels: the inner tangent's outer tangent (u^T H v per output) against
    central differences of the first-order JVP along u."""
    call, leaves = make(entry, i)
    if not leaves:
        pytest.skip("no differentiable input")
    if any(not type(n).differentiable_twice for n in _nodes(call())):
        pytest.skip("not twice differentiable")
    if _no_second_derivative(call, leaves) or _no_forward_rule(call):
        pytest.skip("PyTorch has no second derivative or no forward-mode rule")
    rng = np.random.default_rng(_case_seed(entry, i) + 13)
    us = [rng.standard_normal(x.data.shape) for x in leaves]
    vs = [rng.standard_normal(x.data.shape) for x in leaves]
    outer = fw.enter_level()
    try:
        table = {}
        for x, u, v in zip(leaves, us, vs):
            d = fw.make_dual(Tensor(x.data), Tensor(u), outer)
            table[id(x)] = (d, v)
        inner = fw.enter_level()
        try:
            duals = {k: fw.make_dual(d, Tensor(v), inner) for k, (d, v) in table.items()}
            outs = _outs(call(duals))
            t_inner = [fw.tangent_of(o, inner) for o in outs]
        finally:
            fw.exit_level(inner)
        second = [
            np.zeros(o.data.shape) if t is None else _arr(fw.tangent_of(t, outer), o.data)
            for t, o in zip(t_inner, outs)
        ]
    finally:
        fw.exit_level(outer)
    saved = [x.data.copy() for x in leaves]
    try:
        for x, s, u in zip(leaves, saved, us):
            x.data[...] = s + EPS * u
        _, hi, _ = jvp_of(call, leaves, vs)
        hi = [_arr(t, o.data) for t, o in zip(hi, outs)]
        for x, s, u in zip(leaves, saved, us):
            x.data[...] = s - EPS * u
        _, lo, _ = jvp_of(call, leaves, vs)
        lo = [_arr(t, o.data) for t, o in zip(lo, outs)]
    finally:
        for x, s in zip(leaves, saved):
            x.data[...] = s
    for k, (a, h, l) in enumerate(zip(second, hi, lo)):
        num = (h - l) / (2 * EPS)
        assert np.allclose(a, num, atol=ATOL, rtol=RTOL), (
            f"{entry.name}{entry.checks[i]} output {k}: fwd-over-fwd\n{a}\nnumerical\n{num}"
        )
