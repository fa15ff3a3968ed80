"""Registry-driven gradient checks and second-order checks.

Every entry of the op registry (`gradcli.ops.registry.BUILTINS` and `METHOD_ONLY`) with
`checks` is differentiated here, one test per sample call, ids like `exp[0]`:

* first order: the analytic vector-Jacobian product (`run_backward` with a
  random head gradient on every floating output, so tuple outputs such as
  `max(x, dim=1)` or `unbind(x)` are covered) against central finite
  differences of the same weighted sum, float64, eps 1e-6, atol 1e-5,
  rtol 1e-3 (PyTorch's gradcheck defaults);
* second order (gradgradcheck): the first gradient is computed with
  `create_graph=True`, the head gradients themselves requiring grad as in
  PyTorch's gradgradcheck; a random weighted sum of it is differentiated
  again and compared with finite differences of the first-order gradient
  (computed on the fast path).  An op whose node says
  `differentiable_twice = False` must instead raise a clear `GradError`.

`EXTRA` adds a few configurations beyond the registry's samples (ids
`extra-pow[4]` ...), checked the same way.  Finally `gradcheck`
(gradcli/calculus.py) is shown to fail on a deliberately wrong gradient of a
Function subclass defined only in this file.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import pytest

import gradcli.session  # noqa: F401  (registers every built-in)
from gradcli.ops import registry as ops
from gradcli.engine.autograd import run_backward
from gradcli.engine.function import Function
from gradcli.runtime.errors import GradError
from gradcli.ops.registry import Arg
from gradcli.ops.reduce import sum_
from gradcli.runtime import context
from gradcli.core.tensor import Tensor

EPS, ATOL, RTOL = 1e-6, 1e-5, 1e-3


# ---------------------------------------------------------------- the cases


@dataclass(frozen=True)
class Fixed:
    """A sample tensor argument with given values (for EXTRA cases), requiring grad."""

    values: tuple


def _entries():
    seen, out = set(), []
    for table in (ops.BUILTINS, ops.METHOD_ONLY):
        for entry in table.values():
            if id(entry) in seen or not entry.checks:
                continue
            seen.add(id(entry))
            out.append(entry)
    return out


ENTRIES = _entries()
CASES = [pytest.param(e, i, id=f"{e.name}[{i}]") for e in ENTRIES for i in range(len(e.checks))]

# Configurations beyond the registry's samples that once went wrong or are easy to get
# wrong in create_graph mode: Python numbers saved as constants, 0-d results saved as the
# output, prod with zeros, pow by 0/1/2, broadcasting both ways.
EXTRA = [
    ("mul", (Arg((3,)), 3.0), {}),
    ("div", (2.0, Arg((3,), 0.5, 2.0)), {}),
    ("sub", (2.0, Arg((2, 3))), {}),
    ("pow", (Arg((3,), 0.5, 2.0), 0), {}),
    ("pow", (Arg((3,), 0.5, 2.0), 1), {}),
    ("pow", (Arg((3,), 0.5, 2.0), 2), {}),
    ("pow", (Arg((2, 1), 0.5, 2.0), Arg((1, 3))), {}),
    ("pow", (0.5, Arg((2, 3))), {}),
    ("square", (Arg((3,)),), {}),
    ("sqrt", (Arg((), 0.5, 2.0),), {}),
    ("std", (Arg((4,)),), {}),
    ("var", (Arg((2, 3)),), {"dim": 1, "keepdim": True}),
    ("std", (Arg((2, 3)),), {"correction": 0}),
    ("norm", (Arg((2, 3)),), {"p": float("inf")}),
    ("norm", (Arg((2, 3)),), {"p": 2, "dim": 1, "keepdim": True}),
    ("prod", (Fixed((2.0, 0.0, 3.0)),), {}),
    ("prod", (Fixed((2.0, 0.0, 0.0)),), {}),
    ("prod", (Fixed(((2.0, 0.0, 1.5), (0.5, 2.0, 3.0))),), {"dim": 1}),
    ("prod", (Fixed(((2.0, 0.0, 1.5), (0.0, 2.0, 3.0))),), {"dim": 0, "keepdim": True}),
    ("maximum", (Arg((2, 1)), Arg((1, 3))), {}),
    ("where", ([[True], [False]], Arg((2, 3)), Arg(())), {}),
    ("logsumexp", (Arg((2, 3)),), {"dim": 1, "keepdim": True}),
    ("softmax", (Arg((2, 3, 2)),), {"dim": -1}),
    ("max", (Arg((2, 3)),), {"dim": 1, "keepdim": True}),
    ("matmul", (Arg((2, 2, 3)), Arg((2, 3, 2))), {}),
    ("matmul", (Arg((3,)), Arg((2, 3, 2))), {}),
    ("matmul", (Arg((2, 2, 3)), Arg((3,))), {}),
    ("index", (Arg((2, 3)), ([[0, 1], [1, 1]],)), {}),
    ("index", (Arg((3,)), ([True, False, True],)), {}),
    ("expand", (Arg(()), 2, 3), {}),
    ("stack", ([Arg(()), Arg(())],), {}),
    ("cat", ([Arg((2,)), Arg((3,))],), {}),
    ("unsqueeze", (Arg(()), 0), {}),
    ("transpose", (Arg((2, 3, 2)), 0, 2), {}),
    ("expand_as", (Arg((3, 1)), Arg((2, 3, 4), grad=False)), {}),
    # nodes no registry sample reached: remainder by a number, squeeze of several dims
    # (so that their forward-mode rules are checked too, tests/ops/test_jvp.py)
    ("remainder", (Arg((3,), 0.1, 0.9), 1.5), {}),
    ("squeeze", (Arg((2, 1, 1)),), {"dim": (1, 2)}),
]


def _extra_entries():
    from gradcli.ops.registry import Builtin

    table = {**ops.METHOD_ONLY, **ops.BUILTINS}
    out = []
    for k, (name, args, kwargs) in enumerate(EXTRA):
        e = table[name]
        out.append(
            pytest.param(
                Builtin(e.name, e.fn, e.sig, e.doc, checks=[(args, kwargs)]),
                0,
                id=f"extra-{name}[{k}]",
            )
        )
    return out


CASES += _extra_entries()


def _case_seed(entry, i):
    return sum(map(ord, entry.name)) * 1000 + i


def _build(spec, rng, leaves):
    """An argument from its spec: each Arg becomes a float64 tensor (a leaf)."""
    if isinstance(spec, Fixed):
        t = Tensor(np.array(spec.values, dtype=np.float64), requires_grad=True)
        leaves.append(t)
        return t
    if isinstance(spec, Arg):
        data = rng.uniform(spec.lo, spec.hi, size=spec.shape).astype(np.float64)
        t = Tensor(np.asarray(data), requires_grad=spec.grad)
        if spec.grad:
            leaves.append(t)
        return t
    if isinstance(spec, list):
        return [_build(s, rng, leaves) for s in spec]
    return spec


def make_case(entry, i):
    """(f, leaves): f() runs the op on the current leaf values."""
    args_spec, kwargs_spec = entry.checks[i]
    rng = np.random.default_rng(_case_seed(entry, i))
    leaves = []
    args = [_build(a, rng, leaves) for a in args_spec]
    kwargs = {k: _build(v, rng, leaves) for k, v in kwargs_spec.items()}

    def f():
        return entry.fn(*args, **kwargs)

    return f, leaves


def float_outputs(out):
    """The floating tensors among an op's outputs (a tensor, or a tuple/list of them)."""
    items = out if isinstance(out, (tuple, list)) else (out,)
    return [o for o in items if isinstance(o, Tensor) and o.data.dtype.kind == "f"]


def _as_array(g, like):
    if g is None:
        return np.zeros_like(like)
    return np.asarray(g.data if isinstance(g, Tensor) else g, dtype=np.float64)


def vjp(f, leaves, heads):
    """sum_k <heads[k], outputs[k]> differentiated w.r.t. the leaves (fast path)."""
    pairs = [(o, h) for o, h in zip(float_outputs(f()), heads) if o.requires_grad]
    outs = [o for o, _ in pairs]
    hs = [h for _, h in pairs]
    if not outs:
        return [np.zeros_like(x.data) for x in leaves]
    grads = run_backward(outs, [Tensor(h) for h in hs], inputs=leaves, allow_unused=True)
    return [_as_array(g, x.data) for g, x in zip(grads, leaves)]


def weighted(f, heads):
    """The scalar sum_k <heads[k], outputs[k]> in float64, without a graph."""
    prev = context.current.grad_enabled
    context.current.grad_enabled = False
    try:
        outs = float_outputs(f())
    finally:
        context.current.grad_enabled = prev
    return sum(float(np.sum(h * o.data)) for h, o in zip(heads, outs))


def numerical(fn, arrays):
    """Central differences of the scalar fn() w.r.t. each array (perturbed in place)."""
    out = []
    for a in arrays:
        d = np.zeros(a.shape)
        flat = a.reshape(-1)  # a view: arrays are contiguous float64
        assert np.shares_memory(flat, a) or a.size == 0
        for j in range(flat.size):
            old = flat[j]
            flat[j] = old + EPS
            hi = fn()
            flat[j] = old - EPS
            lo = fn()
            flat[j] = old
            d.reshape(-1)[j] = (hi - lo) / (2 * EPS)
        out.append(d)
    return out


def assert_close(analytic, numeric, what):
    for k, (a, n) in enumerate(zip(analytic, numeric)):
        assert a.shape == n.shape, f"{what}: input {k}: shape {a.shape} vs {n.shape}"
        bad = ~np.isclose(a, n, atol=ATOL, rtol=RTOL)
        if bad.any():
            idx = tuple(int(i) for i in np.argwhere(bad)[0])
            pytest.fail(
                f"{what}: input {k} element {list(idx)}: analytic {a[idx]!r} "
                f"vs numerical {n[idx]!r}\nanalytic:\n{a}\nnumerical:\n{n}"
            )


def _heads(f, rng):
    return [np.asarray(rng.standard_normal(o.data.shape)) for o in float_outputs(f())]


def _nodes(out):
    """Every graph node behind the op's outputs (to find ones not twice-differentiable)."""
    stack = [o.grad_fn for o in float_outputs(out) if o.grad_fn is not None]
    seen = set()
    while stack:
        n = stack.pop()
        if n in seen:
            continue
        seen.add(n)
        stack.extend(p for p in n.parents if isinstance(p, Function))
    return seen


# ---------------------------------------------------------------- the tests


def test_registry_has_checks():
    names = {e.name for e in ENTRIES}
    for n in ("exp", "sum", "matmul", "cat", "index", "max", "unbind", "softmax", "norm"):
        assert n in names
    assert len([c for c in CASES if not c.id.startswith("extra-")]) > 100


@pytest.mark.parametrize("entry,i", CASES)
def test_gradcheck(entry, i):
    f, leaves = make_case(entry, i)
    outs = float_outputs(f())
    assert outs, f"{entry.name}: no floating output"
    if not leaves:
        pytest.skip("no differentiable input")
    assert any(o.requires_grad for o in outs), f"{entry.name}: output does not require grad"
    heads = _heads(f, np.random.default_rng(_case_seed(entry, i) + 1))
    analytic = vjp(f, leaves, heads)
    numeric = numerical(lambda: weighted(f, heads), [x.data for x in leaves])
    assert_close(analytic, numeric, f"{entry.name}{entry.checks[i]}")


NOT_IMPLEMENTED = "torch::autograd::NotImplemented"


@pytest.mark.parametrize("entry,i", CASES)
def test_gradgradcheck(entry, i):
    f, leaves = make_case(entry, i)
    if not leaves:
        pytest.skip("no differentiable input")
    rng = np.random.default_rng(_case_seed(entry, i) + 2)
    out = f()
    outs = [o for o in float_outputs(out) if o.requires_grad]
    heads = [
        Tensor(np.asarray(rng.standard_normal(o.data.shape)), requires_grad=True) for o in outs
    ]
    once = [n for n in _nodes(out) if not type(n).differentiable_twice]
    if once:
        with pytest.raises(GradError, match="twice|second"):
            run_backward(outs, heads, create_graph=True, inputs=leaves, allow_unused=True)
        return
    firsts = run_backward(
        outs, heads, retain_graph=True, create_graph=True, inputs=leaves, allow_unused=True
    )
    # s = sum_i <v_i, d(weighted)/d(leaf_i)>, differentiated w.r.t. leaves and heads
    vs = [np.asarray(rng.standard_normal(x.data.shape)) for x in leaves]
    terms = [sum_(g * Tensor(v)) for g, v in zip(firsts, vs) if g is not None and g.requires_grad]
    wrt = leaves + heads
    if terms:
        s = terms[0]
        for t in terms[1:]:
            s = s + t
        if any(
            getattr(g.grad_fn, "qualified_name", "") == NOT_IMPLEMENTED
            for g in firsts
            if g is not None
        ):
            # PyTorch has no second derivative here: its backward's node says so when
            # reached (hardsigmoid_backward)
            with pytest.raises(GradError, match="is not implemented"):
                run_backward([s], [None], inputs=wrt, allow_unused=True)
            return
        seconds = run_backward([s], [None], inputs=wrt, allow_unused=True)
        analytic = [_as_array(g, x.data) for g, x in zip(seconds, wrt)]
    else:  # the gradient is a constant: second derivative 0
        analytic = [np.zeros_like(x.data) for x in wrt]
    for g, x in zip(firsts, leaves):
        assert g is None or g.data.shape == x.data.shape

    # numerical: finite differences of the first-order gradient (fast path)
    head_arrays = [h.data for h in heads]  # perturbed in place, like the leaves

    def first_dot_v():
        outs2 = [o for o in float_outputs(f()) if o.requires_grad]
        gs = run_backward(outs2, [Tensor(h) for h in head_arrays], inputs=leaves, allow_unused=True)
        return sum(float(np.sum(_as_array(g, x.data) * v)) for g, x, v in zip(gs, leaves, vs))

    numeric = numerical(first_dot_v, [x.data for x in leaves] + head_arrays)
    assert_close(analytic, numeric, f"second order of {entry.name}{entry.checks[i]}")


# ---------------------------------------------------------------- gradcheck itself


class _WrongSquare(Function):
    """x ** 2 with a deliberately wrong gradient (3x instead of 2x)."""

    __slots__ = ()
    name = "WrongSquareBackward0"

    def forward(self, x):
        self.save(x)
        return x * x

    def backward(self, g, F, x):
        return (g * (3.0 * x),)


class _RightSquare(_WrongSquare):
    __slots__ = ()
    name = "RightSquareBackward0"

    def backward(self, g, F, x):
        return (g * (2.0 * x),)


def test_gradcheck_fails_on_wrong_gradient(session_out):
    from gradcli.library.calculus import gradcheck

    x = Tensor(np.array([0.5, -1.0, 2.0]), requires_grad=True)
    assert gradcheck(lambda t: _WrongSquare.apply(t), x) is False
    text = session_out.text
    assert "input 0" in text and "element" in text, text
    assert "Jacobian mismatch" in text, text


def test_gradcheck_passes_on_right_gradient(session_out):
    from gradcli.library.calculus import gradcheck

    x = Tensor(np.array([0.5, -1.0, 2.0]), requires_grad=True)
    assert gradcheck(lambda t: _RightSquare.apply(t), x) is True
    assert "input 0" in session_out.text


def test_gradcheck_wrong_gradient_in_second_input(session_out):
    from gradcli.library.calculus import gradcheck

    a = Tensor(np.array([[0.5, 1.5], [1.0, -2.0]]), requires_grad=True)
    b = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    assert gradcheck(lambda p, q: p * 2 + _WrongSquare.apply(q), (a, b)) is False
    text = session_out.text
    assert "input 1" in text, text
    assert "input 0" in text


def test_registry_gradcheck_would_catch_wrong_vjp(monkeypatch):
    """The harness above fails when an op's registered VJP is wrong."""
    from gradcli.ops import unary

    entry = ops.BUILTINS["sin"]
    cls = type(entry.fn(Tensor(np.zeros(1), requires_grad=True)).grad_fn)
    monkeypatch.setattr(cls, "backward", lambda self, g, F, x: (g * F.sin(x),))
    assert unary.sin is entry.fn
    with pytest.raises(pytest.fail.Exception):
        test_gradcheck(entry, 1)
