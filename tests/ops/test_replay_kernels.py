"""The ops' replay kernels and pass-through backwards: what a replayed loop
body runs instead of an op's whole forward (Function.replay_kernel, run by
engine/replay.run_kernels) gives the same array, bit for bit, and saves the same
values; an op that says its backward passes g through (Function.passes_through, read
by schedule.made_now) does give g itself.  Every op class of the table is asked, so
a kernel added to an op is checked here without a new test."""

from __future__ import annotations

import itertools

import numpy as np
import pytest

import gradcli.ops  # noqa: F401  (fills the table)
from gradcli.engine import replay as engine
from gradcli.engine.function import Function
from gradcli.engine.vjp_arrays import ArrayF

F32, F64 = np.dtype(np.float32), np.dtype(np.float64)


def _classes():
    out, todo = [], list(Function.__subclasses__())
    while todo:
        c = todo.pop()
        todo.extend(c.__subclasses__())
        out.append(c)
    return out


def _bits(rng, shape, dt):
    """Values of every kind: random bit patterns (NaN payloads, infinities, subnormals,
    signed zeros) and ordinary numbers."""
    it = np.uint32 if dt == F32 else np.uint64
    raw = rng.integers(0, np.iinfo(it).max, shape, dtype=it, endpoint=True).view(dt)
    ordinary = rng.standard_normal(shape).astype(dt)
    return np.where(rng.random(shape) < 0.5, raw, ordinary).astype(dt)


SHAPES = [((), (5,)), ((5,), ()), ((5,), (5,)), ((2, 3), (3,)), ((1, 3), (2, 1)), ((4,), (4,))]


def _binary_args(rng):
    for (sa, sb), dt in itertools.product(SHAPES, (F32, F64)):
        yield (np.asarray(_bits(rng, sa, dt)), np.asarray(_bits(rng, sb, dt)), dt)
    # a Python number (its form taken once: singles.weak), of every kind weak treats apart
    for dt in (F32, F64):
        for v in (2.5, 3, -0.0, 0, float("nan"), float("inf"), 2**60, 1e300, 1e-320):
            yield (_bits(rng, (4,), dt), v, dt)
    # kinds no kernel takes: 0-d with a number, 0-d with 0-d, mixed or integer dtypes
    yield (np.asarray(_bits(rng, (), F32)), 2.5, F32)
    yield (_bits(rng, (3,), F32), True, F32)
    yield (np.asarray(_bits(rng, (), F64)), np.asarray(_bits(rng, (), F64)), F64)
    yield (_bits(rng, (3,), F32), _bits(rng, (3,), F64), F64)
    yield (np.arange(3), np.arange(3), np.dtype(np.int64))


def _pow_args(rng):
    for dt, shape, e in itertools.product((F32, F64), ((5,), (2, 3), ()), (2, 2.0, 3, 0.5, True)):
        yield (np.asarray(_bits(rng, shape, dt)), e, dt)


def _clamp_args(rng):
    bounds = [(-0.5, 0.7), (-1, 2), (0.25, -0.25), (float("nan"), 1.0), (-float("inf"), 1e30)]
    # (refused: a zero bound, a missing one, a 0-d array, an integer array)
    bounds += [(0.0, 1.0), (-1.0, -0.0), (None, 1.0), (-1.0, None)]
    for dt, shape, (lo, hi) in itertools.product((F32, F64), ((5,), (2, 3), ()), bounds):
        yield (np.asarray(_bits(rng, shape, dt)), lo, hi)
    yield (np.arange(4), -1, 2)


def _mm_args(rng):
    for dt, (m, k, n) in itertools.product((F32, F64), ((2, 3, 4), (16, 10, 32), (1, 5, 1))):
        a, b = _bits(rng, (m, k), dt), _bits(rng, (k, n), dt)
        yield (a, b)
        yield (np.ascontiguousarray(a.T).T, b[:, ::-1])  # (views: the forward's own copies)
    # kinds no kernel takes: integers
    yield (np.arange(6).reshape(2, 3), np.arange(6).reshape(3, 2))


def _unary_args(rng):
    for dt, shape in itertools.product((F32, F64), ((5,), (2, 3), (64, 32))):
        yield (_bits(rng, shape, dt),)
    # a view that is not C-contiguous (its result laid out as it is), a column
    for dt in (F32, F64):
        yield (_bits(rng, (3, 4), dt).T,)
        yield (_bits(rng, (4, 6), dt)[:, 1:2],)
    # kinds no kernel takes: 0-d, integers
    yield (np.asarray(_bits(rng, (), F32)),)
    yield (np.arange(-3, 3),)


def _args_for(cls, rng):
    """Arguments for an op class whose forward has a kernel: Add's, Sub's, Mul's (and a
    subclass's that keeps their forward, MulScalar's), PowScalar's, Clamp's, Mm's and
    the element-wise functions' of one tensor (Unary's); None for others."""
    from gradcli.ops.clamp_where import Clamp
    from gradcli.ops.elementwise import _Arith
    from gradcli.ops.linalg import Mm
    from gradcli.ops.power import PowScalar
    from gradcli.ops.unary import Unary

    if issubclass(cls, Unary):
        return list(_unary_args(rng))

    if issubclass(cls, _Arith) and cls.forward is _Arith.forward and cls.ufunc is not None:
        return list(_binary_args(rng))
    if cls is PowScalar:
        return list(_pow_args(rng))
    if cls is Clamp:
        return list(_clamp_args(rng))
    if cls is Mm:
        return list(_mm_args(rng))
    return None


def _with_kernel():
    from gradcli.ops.elementwise import _Arith

    return [
        c for c in _classes() if c.replay_kernel is not Function.replay_kernel and c is not _Arith
    ]  # (the base Add, Sub and Mul share: no op of its own)


def test_every_op_with_a_kernel_is_checked_here():
    """An op class that defines a replay kernel (or inherits one) gets arguments in
    `_args_for`, or is a subclass whose kernel never answers."""
    rng = np.random.default_rng(0)
    with_kernel = _with_kernel()
    assert len(with_kernel) >= 4
    for c in with_kernel:
        if _args_for(c, rng) is None:  # a subclass (MulHalf): its parent's kernel, refused
            parent = next(b for b in c.__mro__[1:] if _args_for(b, rng) is not None)
            for args in _args_for(parent, rng):
                assert c.__new__(c).replay_kernel(*args) is None, c.__name__


def _answers(c):
    """Whether the class's kernel may answer (not Unary's own, nor a Unary's without a
    function of its own: digamma's, lgamma's)."""
    return getattr(c, "_kernel", True) is not None


@pytest.mark.parametrize(
    "cls",
    [
        c
        for c in _with_kernel()
        if _args_for(c, np.random.default_rng(0)) is not None and _answers(c)
    ],
    ids=lambda c: c.__name__,
)
def test_a_kernel_gives_what_the_whole_forward_gives(cls):
    rng = np.random.default_rng(1)
    taken = 0
    for args in _args_for(cls, rng):
        whole = cls.__new__(cls)
        whole.saved = ()
        want = whole.forward(*args)
        kernel = whole.replay_kernel(*args)
        if kernel is None:
            continue
        taken += 1
        # a shadow whose whole forward ran once, on other values of the same kind
        other = tuple(
            np.asarray(_bits(rng, a.shape, a.dtype)) if type(a) is np.ndarray else a for a in args
        )  # (a number is the plan's constant: the same)
        sh = cls.__new__(cls)
        sh.saved = ()
        sh.forward(*other)
        slots = {k for c in cls.__mro__ for k in getattr(c, "__slots__", ())}
        fields = {k: getattr(sh, k) for k in slots - {"saved"} if hasattr(sh, k)}
        f, arity, keeps, w = kernel
        vals = [args[0], args[1] if arity == 2 else None, None]  # (its output: slot 2)
        engine.run_kernels(
            [None, None, sh], vals, ((2, f, 0, 1 if arity == 2 else -1, w, keeps, None, None, ()),)
        )
        got = vals[2]
        assert type(got) is np.ndarray and type(want) is np.ndarray
        assert got.dtype is want.dtype and got.shape == want.shape
        assert got.tobytes() == want.tobytes(), (cls.__name__, args)
        assert len(sh.saved) == len(whole.saved)
        if keeps is engine.KEEPS_OUT:  # (its output: the kernel's)
            assert len(whole.saved) == 1 and whole.saved[0] is want and sh.saved[0] is got
        else:
            assert all(x is y for x, y in zip(sh.saved, whole.saved))
        # the fields the whole forward sets are what the first one set
        # (a nan constant, which explain's formula keeps as `k`, is the same nan)
        assert all(_same(getattr(whole, k), v) for k, v in fields.items()), cls.__name__
    assert taken >= 4


def _same(a, b):
    return a == b or (a != a and b != b)


def test_the_element_wise_functions_have_kernels():
    """relu, tanh, sigmoid (saving their output), exp and sin: a kernel for a float
    array; none for a 0-d one, an integer one, or digamma (no function of its own)."""
    from gradcli.ops.gamma import Digamma
    from gradcli.ops.unary import NODES

    f = np.ones((2, 3), np.float32)
    for name in ("relu", "tanh", "sigmoid", "exp", "sin"):
        node = NODES[name].__new__(NODES[name])
        kernel = node.replay_kernel(f)
        assert kernel is not None, name
        assert (kernel[2] is engine.KEEPS_OUT) is (name in ("relu", "tanh", "sigmoid", "exp")), name
        assert node.replay_kernel(np.asarray(np.float32(1))) is None
    assert NODES["relu"].__new__(NODES["relu"]).replay_kernel(np.arange(3)) is None
    assert Digamma.__new__(Digamma).replay_kernel(f) is None


def test_a_kernel_is_not_given_for_kinds_its_op_treats_apart():
    from gradcli.ops.elementwise import Add, Mul
    from gradcli.ops.power import PowScalar

    f = np.ones(3, np.float32)
    assert Mul.__new__(Mul).replay_kernel(f, 2.5, F32) is not None  # a number
    assert Mul.__new__(Mul).replay_kernel(np.asarray(np.float32(2)), 2.5, F32) is None  # 0-d
    assert Mul.__new__(Mul).replay_kernel(f, True, F32) is None  # a bool
    assert (
        Add.__new__(Add).replay_kernel(np.asarray(np.float64(1)), np.asarray(np.float64(2)), F64)
        is None
    )  # both 0-d
    assert Add.__new__(Add).replay_kernel(f, f.astype(np.float64), F64) is None  # a cast
    assert PowScalar.__new__(PowScalar).replay_kernel(f, True, F32) is None  # True ** is 1
    assert PowScalar.__new__(PowScalar).replay_kernel(f, 3, F32) is None  # x * x * x
    assert PowScalar.__new__(PowScalar).replay_kernel(np.asarray(np.float32(2)), 2, F32) is None


@pytest.mark.parametrize("needs", [(True, True), (True, False), (False, True)])
@pytest.mark.parametrize("shapes", SHAPES, ids=str)
def test_a_node_that_passes_g_through_gives_g_itself(needs, shapes):
    from gradcli.ops.elementwise import Add, Sub

    rng = np.random.default_rng(2)
    for cls in (Add, Sub):
        node = cls.__new__(cls)
        node.saved = ()
        a, b = (np.asarray(_bits(rng, s, F64)) for s in shapes)
        out = node.forward(a, b, F64)
        node.needs = needs
        g = np.asarray(_bits(rng, out.shape, F64))
        grads = node.backward(g, ArrayF)
        through = node.passes_through()
        assert through == all(grads[i] is g for i in range(2) if needs[i]), (cls, needs, shapes)
        assert not node.saved


def test_a_subclass_does_not_pass_through():
    from gradcli.ops.elementwise import Add, Sub

    for parent in (Add, Sub):
        sub = type("Other" + parent.__name__, (parent,), {"__slots__": ()})
        node = sub.__new__(sub)
        node.forward(np.ones(3), np.ones(3), F64)
        node.needs = (True, False)
        assert not node.passes_through()
        node = parent.__new__(parent)
        node.forward(np.ones(3), np.ones(3), F64)
        node.needs = (True, False)
        assert node.passes_through()
