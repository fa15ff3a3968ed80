"""The per-op shortcuts of the training loops give exactly what the general
path gives: 0-d float32 arithmetic on Python floats, the in-place scalar step
`w -= lr * w.grad` under no_grad, the two-operand `apply2`."""

from __future__ import annotations

import math

import numpy as np
import pytest

from gradcli.runtime import context
from gradcli.numerics.floats.singles import F32, scalar_times, single, singles
from gradcli.core.tensor import Tensor
from gradcli.engine import versions
from gradcli.engine.autograd import run_backward
from gradcli.engine.number_nodes import number_node
from gradcli.engine.saved import saved_attr
from gradcli.library import inplace  # noqa: F401  (registers the ops)
from gradcli.library import scalar_steps
from gradcli.library.inplace import AUGMENTED
from gradcli.ops.elementwise import Add, Div, Mul, Sub
from gradcli.ops.registry import OPERATOR_NODES

F32_SPECIAL = [
    0.0,
    -0.0,
    1.0,
    -2.5,
    1e-40,
    -1e-45,
    1.4e-45,
    3.4028234663852886e38,
    -3.4e38,
    1e-38,
    0.1,
    1 / 3,
    2.0**24 + 1,
    math.inf,
    -math.inf,
    math.nan,
]


def _f32_values():
    rng = np.random.default_rng(16)
    vals = F32_SPECIAL + (rng.standard_normal(40) * 10.0 ** rng.integers(-44, 38, 40)).tolist()
    return [float(np.float32(v)) for v in vals]


def _same(got, want):
    got, want = np.asarray(got), np.asarray(want)
    assert got.dtype == want.dtype == np.float32
    if np.isnan(want):
        assert np.isnan(got)
    else:
        assert got.tobytes() == want.tobytes(), (got, want)


OPS = [("+", np.add), ("-", np.subtract), ("*", np.multiply)]
PY = {"+": float.__add__, "-": float.__sub__, "*": float.__mul__}


@pytest.mark.parametrize("op,np_op", OPS)
def test_singles_are_numpys_float32_arithmetic(op, np_op):
    vals = _f32_values()
    numbers = [0.1, -0.0, 1e-6, 3, -7, 2**30 + 1, 2**53, 1e30, 123456789.123]
    for a in vals:
        for b in vals[::2] + numbers:
            x = np.array(a, dtype=np.float32)
            pairs = (
                [(x, b), (b, x)]
                if type(b) is int or b not in vals
                else [(x, np.array(b, dtype=np.float32))]
            )
            if b in numbers:
                pairs.append((x, b))
            for p, q in pairs:
                f = singles(p, q, F32)
                assert f is not None
                with np.errstate(all="ignore"):
                    want = np_op(p, q)
                _same(single(PY[op](*f)), want)


def test_singles_refuse_what_they_do_not_compute():
    one = np.array(1.5, dtype=np.float32)
    assert singles(one, 2**53 + 1, F32) is None  # an int a double does not hold
    assert singles(one, True, F32) is None  # bools go through NumPy
    assert singles(one, 1e39, F32) is None  # out of float32's range
    assert singles(one, math.inf, F32) is None
    assert singles(np.ones(2, np.float32), 1.0, F32) is None
    assert singles(np.array(1.0), 1.0, F32) is None  # a float64 array
    assert singles(one, 1.0, np.dtype(np.float64)) is None
    assert (
        singles(one, -0.0, F32) == (1.5, -0.0) and math.copysign(1, singles(one, -0.0, F32)[1]) < 0
    )


@pytest.mark.parametrize("op,np_op", [("+=", np.add), ("-=", np.subtract), ("*=", np.multiply)])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_scalar_step_is_the_inplace_op(op, np_op, dt):
    """`x op= y` on tensors: under no_grad on a leaf that requires grad, and in grad mode
    where neither does."""
    for grad_mode in (False, True):
        _scalar_steps(AUGMENTED[op], np_op, dt, grad_mode)


def _scalar_steps(fn, np_op, dt, grad_mode):
    vals = _f32_values()
    prev = context.current.grad_enabled
    context.current.grad_enabled = grad_mode
    try:
        for a in vals:
            for b in vals[::3]:
                x = Tensor(np.array(a, dtype=dt), not grad_mode)
                v = versions.version(x)
                arr = x.data
                y = Tensor(np.array(b, dtype=dt))
                r = fn(x, y)
                with np.errstate(all="ignore"):
                    want = np_op(np.array(a, dtype=dt), np.array(b, dtype=dt))
                assert r is x and x.data is arr and x.data.dtype == dt
                assert versions.version(x) == v + 1
                if np.isnan(want):
                    assert np.isnan(x.data)
                else:
                    assert x.data.tobytes() == np.asarray(want).tobytes(), (a, b)
    finally:
        context.current.grad_enabled = prev


def test_scalar_step_to_zero_happens_once():
    """The result 0.0 (a false tensor) is the step's result, not a cue to run it again."""
    prev = context.current.grad_enabled
    context.current.grad_enabled = False
    try:
        x = Tensor(np.array(1.0, dtype=np.float32))
        AUGMENTED["-="](x, Tensor(np.array(1.0, dtype=np.float32)))
        assert x.data == 0.0 and versions.version(x) == 1
    finally:
        context.current.grad_enabled = prev


def test_scalar_step_leaves_other_cases_to_the_rule():
    x = Tensor(np.array(1.0, dtype=np.float32))
    AUGMENTED["-="](x, Tensor(np.array(0.5)))  # float64 operand: the general rule, cast back
    assert x.data.dtype == np.float32 and x.data == 0.5
    w = Tensor(np.array(1.0), True)
    with pytest.raises(Exception, match="leaf Variable"):  # grad mode on: PyTorch's refusal
        AUGMENTED["-="](w, Tensor(np.array(0.5)))


@pytest.mark.parametrize("cls", [Add, Sub, Mul])
def test_apply2_makes_the_node_apply_makes(cls):
    rng = np.random.default_rng(2)
    for dt in (np.float32, np.float64):
        for sa, sb in (((), ()), ((3,), ()), ((2, 3), (3,))):
            a = Tensor(rng.standard_normal(sa).astype(dt), True)
            b = Tensor(rng.standard_normal(sb).astype(dt), True)
            for bb in (b, 0.25):
                r1 = cls.apply(a, bb, dt=np.dtype(dt))
                r2 = cls.apply2(a, bb, np.dtype(dt))
                assert r1.data.tobytes() == r2.data.tobytes() and r1.data.dtype == r2.data.dtype
                n1, n2 = r1.grad_fn, r2.grad_fn
                assert type(n1) is type(n2) and n1.name == n2.name
                assert n1.parents == n2.parents and n1.needs == n2.needs
                assert n1.out_dtype == n2.out_dtype
                src1 = list(getattr(n1, "saved_src", ()))
                src2 = list(getattr(n2, "saved_src", ()))
                if bb is not b and cls.saved_uses is not None and cls.saved_uses[0] == (1,):
                    # apply2 keeps no `a` that only the constant's gradient would use, as
                    # PyTorch saves no `self` then; `_saved_self` is None either way
                    assert n2.saved[0] is None and src2 == [None] + src1[1:]
                    assert saved_attr(n1, "_saved_self") is saved_attr(n2, "_saved_self") is None
                else:
                    assert src1 == src2
                g1 = run_backward((r1,), (Tensor(np.ones_like(r1.data)),), inputs=[a])
                g2 = run_backward((r2,), (Tensor(np.ones_like(r2.data)),), inputs=[a])
                assert g1[0].data.tobytes() == g2[0].data.tobytes()


@pytest.mark.parametrize(
    "make",
    [
        lambda y: y * 1.00001,
        lambda y: 3.0 * y,
        lambda y: y / 2.0,
        lambda y: Mul.apply2(y, Tensor(np.array(0.5)), np.dtype(np.float64)),
        lambda y: Div.apply2(y, Tensor(np.array(0.5)), np.dtype(np.float64)),
    ],
)
@pytest.mark.parametrize("shape", [(), (3,)])
def test_a_tensor_times_a_constant_keeps_no_reference_to_the_tensor(make, shape):
    """`y * k` and `y / k` (k a number or a tensor that requires no grad) keep no `y`:
    PyTorch saves no `self` that only the constant's gradient would use.  The chain
    `y = y * 1.00001` then frees each step's tensor, and its gradients are unchanged;
    y changed in place afterwards is no error (nothing of it was saved)."""
    import gc
    import weakref

    x = Tensor(np.linspace(0.5, 1.5, 3) if shape else np.array(0.75), True)
    y = x * 1.0
    ref = weakref.ref(y)
    z = make(y)
    del y
    gc.collect()
    assert ref() is None
    (g,) = run_backward((z,), (Tensor(np.ones_like(z.data)),), inputs=[x])
    y = x * 1.0
    z = make(y)
    AUGMENTED["+="](y, 1.0)  # y changed in place after z was made from it
    (h,) = run_backward((z,), (Tensor(np.ones_like(z.data)),), inputs=[x])
    assert g.data.tobytes() == h.data.tobytes()


NUMBER_VALUES = [
    0.0,
    -0.0,
    1.0,
    -2.5,
    1e-310,
    -1e-310,
    1.7976931348623157e308,
    -1e308,
    1e-300,
    math.inf,
    -math.inf,
    math.nan,
    0.1,
    1.00001,
    3.0,
    2.0**53,
]


def _node_fields(t):
    n = t.grad_fn
    return (
        type(n),
        n.needs,
        n.parents,
        n.out_dtype,
        n.watch,
        getattr(n, "sa", None),
        getattr(n, "sb", None),
        len(n.saved),
        getattr(n, "saved_src", None),
        getattr(n, "vers", None),
        n.seq < t.seq,
    )


# the operators' nodes with a number_forward (the ones language/fastops.py makes this way)
NUMBER_NODES = {node for node, _, _ in OPERATOR_NODES.values() if node.number_forward is not None}


def test_the_number_nodes_are_add_sub_mul():
    assert NUMBER_NODES == {Add, Sub, Mul}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("cls", sorted(NUMBER_NODES, key=lambda c: c.__name__))
def test_number_node_is_the_node_apply2_makes(cls, dtype):
    """engine/number_nodes.py: a 0-d float64 or float32 tensor op a Python number, made
    without apply2's general steps, is apply2's node: fields, saved values, version
    records, creation order, value bits, and its gradient."""
    dt = np.dtype(dtype)
    was = versions.state.bumped
    try:
        for bumped in (False, True):
            versions.state.bumped = bumped
            _compare_number_nodes(cls, dt)
    finally:
        versions.state.bumped = was


def _compare_number_nodes(cls, dt):
    values = NUMBER_VALUES if dt == np.float64 else NUMBER_VALUES + _f32_values()[::3]
    numbers = NUMBER_VALUES[::3] + [3, -7, 2**53, 2**24 + 1, 3.4028235e38, 1e-46, 0.1]
    for av in values:
        with np.errstate(all="ignore"):
            leaf = Tensor(np.array(av, dtype=dt), True)
        mid = Mul.apply2(leaf, 2.0, dt)  # a tensor with a grad_fn too
        for t in (leaf, mid):
            for k in numbers:
                r1 = cls.apply2(t, k, dt)
                r2 = number_node(cls, t, k)
                assert type(r2) is Tensor and r2.requires_grad and r2.data.dtype == dt
                assert r2.data.shape == () and type(r2.data) is np.ndarray
                assert _bits(r1.data) == _bits(r2.data), (cls, av, k)
                assert _node_fields(r1)[:-1] == _node_fields(r2)[:-1]
                assert _node_fields(r2)[-1] and r1.grad_fn.seq < r2.grad_fn.seq
                for s1, s2 in zip(r1.grad_fn.saved, r2.grad_fn.saved):
                    assert (s1 is t.data) == (s2 is t.data) and type(s1) is type(s2)
                    assert _bits(s1) == _bits(s2)
                g1 = run_backward((r1,), (None,), retain_graph=True, inputs=[t])[0]
                g2 = run_backward((r2,), (None,), retain_graph=True, inputs=[t])[0]
                assert _bits(g1.data) == _bits(g2.data)


def test_number_node_steps_aside_for_forward_mode():
    """With a forward-mode level open (apply2 swapped), the general path makes the node."""
    from gradcli.engine import forward

    t = Tensor(np.array(1.5), True)
    level = forward.enter_level()
    try:
        r = number_node(Mul, t, 2.0)
    finally:
        forward.exit_level(level)
    assert r.grad_fn.name == "MulBackward0" and r.data == 3.0


def _bits(v):
    return np.asarray(v, dtype=np.float64).tobytes()


def test_scalar_times_is_numpys_product():
    vals = _f32_values()
    for dt in (np.float32, np.float64):
        for gv in vals:
            for g in (np.array(gv, dtype=dt), np.asarray(gv, dtype=dt)[()]):
                for c in vals[::4] + [1.00001, 3, -(2**40), 0.1]:
                    for cc in (c, np.array(c, dtype=dt)):
                        r = scalar_times(g, cc)
                        assert r is not None
                        with np.errstate(all="ignore"):
                            want = g * cc
                        assert type(r) is type(want) and r.dtype == want.dtype
                        if np.isnan(want):
                            assert np.isnan(r)
                        else:
                            assert np.asarray(r).tobytes() == np.asarray(want).tobytes(), (g, cc)
    one = np.array(1.0)
    assert scalar_times(np.ones(2), 1.0) is None
    assert scalar_times(one, np.array(1.0, np.float32)) is None  # mixed dtypes: NumPy's rules
    assert scalar_times(one, True) is None
    assert scalar_times(np.array(1, np.int64), 2.0) is None


#: programs with a hook that changes a gradient in place, and the first lines torch 2.13
#: printed: a hook on the root (the pass then makes its own head gradient, not the
#: shared read-only one, autograd._ONES), and a hook on one of Add's operands, whose
#: gradient Add shares with the other (the change reaches both, as in torch)
HOOK_PROGRAMS = [
    (
        "x = tensor([1., 2.], requires_grad=true)\n"
        "def h(g):\n    g.mul_(3)\n"
        "for i in range(3):\n    y = (x * x).sum()\n    if i == 2:\n"
        "        handle = y.register_hook(h)\n    y.backward()\n    print(x.grad)\n"
        "z = (x * x).sum()\nz.backward()\nprint(x.grad)\n",
        ["tensor([2., 4.])", "tensor([4., 8.])", "tensor([10., 20.])", "tensor([12., 24.])"],
    ),
    (
        "x = tensor([1., 2., 3.], requires_grad=true)\n"
        "def h(g):\n    g.mul_(2)\n"
        "for form in range(2):\n    a = x.sum()\n    b = x.mean()\n"
        "    handle = b.register_hook(h)\n    if form == 0:\n        (a + b).backward()\n"
        "    else:\n        (a * 1 + b).backward()\n    print(x.grad)\n    x.grad = None\n",
        ["tensor([2.6667, 2.6667, 2.6667])", "tensor([1.6667, 1.6667, 1.6667])"],
    ),
]


@pytest.mark.parametrize("src,lines", HOOK_PROGRAMS)
def test_a_hook_that_changes_a_gradient_in_place_does_as_in_torch(src, lines):
    from conftest import run_inprocess

    r = run_inprocess(src)
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout.split("\n")[: len(lines)] == lines


def test_head_gradient_is_one_read_only_array():
    """`out.backward()` of a 0-d output starts every pass from one read-only array of 1
    while no node of the run has hooks or retain_grad."""
    from gradcli.engine import autograd
    from gradcli.engine.autograd import backward_out
    from gradcli.ops.registry import FUNCTIONS

    x = Tensor(np.array([1.0, 2.0]), True)
    heads = set()
    for _ in range(3):
        y = FUNCTIONS["sum"](FUNCTIONS["mul"](x, x))
        backward_out(y)
        heads.add(id(autograd._ONES[np.dtype(np.float64)]))
    head = autograd._ONES[np.dtype(np.float64)]
    assert len(heads) == 1 and not head.flags.writeable and head.shape == () and head == 1
    assert x.grad.data.tolist() == [6.0, 12.0]


def test_a_whole_means_gradient_is_dense_when_small_and_one_value_when_big():
    """Mean's backward: up to DENSE_LIMIT values a dense array (cheaper for the kernels
    after it), beyond a broadcast view of its one value (the 1e7 workload: no pass over
    memory, kernels.scaled keeps it one value)."""
    from gradcli.engine.vjp_arrays import DENSE_LIMIT, ArrayF
    from gradcli.ops.registry import FUNCTIONS

    for n, dense in ((4, True), (DENSE_LIMIT, True), (DENSE_LIMIT + 1, False), (10**6, False)):
        for dt in (np.float32, np.float64):
            m = FUNCTIONS["mean"](Tensor(np.ones(n, dt), True))
            (g,) = m.grad_fn.backward(np.array(1, dt), ArrayF)
            assert g.shape == (n,) and g.dtype == dt and g[0] == dt(1) / n
            assert g.flags.c_contiguous if dense else not any(g.strides), (n, dt)


@pytest.mark.parametrize("op", ["+=", "-=", "*="])
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("shape", [(5,), (3, 4)])
def test_array_step_is_the_inplace_method(op, dt, shape):
    """`x op= y` of two arrays of one dtype and shape (scalar_steps.array_update) gives
    the values, array, version and graph the in-place method's general rule gives, under
    no_grad on a leaf that requires grad and in grad mode where neither does."""
    rng = np.random.default_rng(5)
    method = {"+=": "add_", "-=": "sub_", "*=": "mul_"}[op]
    from gradcli.ops.registry import METHOD_ONLY

    for grad_mode in (False, True):
        prev = context.current.grad_enabled
        context.current.grad_enabled = grad_mode
        try:
            a = (rng.standard_normal(shape) * 1e3).astype(dt)
            a.flat[0], a.flat[1] = -0.0, np.inf
            b = (rng.standard_normal(shape) * 1e-3).astype(dt)
            b.flat[0] = 0.0
            x, ref = Tensor(a.copy(), not grad_mode), Tensor(a.copy(), not grad_mode)
            arr, v = x.data, versions.version(x)
            assert AUGMENTED[op](x, Tensor(b.copy())) is x
            METHOD_ONLY[method].fn(ref, Tensor(b.copy()))
            assert x.data is arr and x.data.tobytes() == ref.data.tobytes()
            assert versions.version(x) == v + 1 == versions.version(ref)
            assert x.grad_fn is None and x.requires_grad is ref.requires_grad
            y = Tensor(b.copy())  # (the step itself took it, not the rule)
            assert scalar_steps.array_update(x, y, scalar_steps.ARRAY_STEPS[op])
        finally:
            context.current.grad_enabled = prev


def test_array_step_leaves_other_cases_to_the_rule():
    prev = context.current.grad_enabled
    context.current.grad_enabled = False
    try:
        x = Tensor(np.arange(4.0, dtype=np.float32))
        AUGMENTED["-="](x, Tensor(np.full(4, 0.5)))  # float64 operand: cast back
        assert x.data.dtype == np.float32 and x.data.tolist() == [-0.5, 0.5, 1.5, 2.5]
        AUGMENTED["-="](x, x)  # the same array: the rule's x - x
        assert x.data.tolist() == [0.0] * 4
        y = Tensor(np.arange(3.0))
        AUGMENTED["+="](y, Tensor(np.ones((2, 3))))  # a broadcast: PyTorch's refusal
    except Exception as e:
        assert "doesn't match the broadcast shape" in str(e)
    else:
        raise AssertionError("the broadcast step ran")
    finally:
        context.current.grad_enabled = prev
    w = Tensor(np.arange(3.0), True)
    with pytest.raises(Exception, match="leaf Variable"):  # grad mode on: PyTorch's refusal
        AUGMENTED["-="](w, Tensor(np.ones(3)))


ZERO_PROGRAMS = [
    # zero_ of a gradient in grad mode: +0.0 everywhere, one version more
    (
        "w = torch.tensor([1.0, -2.0], requires_grad=True)\n(w * w).sum().backward()\n"
        "g = w.grad\nv = g._version\n_ = g.zero_()\nprint(g, g._version - v, g is w.grad)\n"
        "print(torch.tensor([-0.0]).zero_().sign().item() == 0, 1 / torch.tensor(-0.0).zero_())\n",
        ["tensor([0., 0.]) 1 True", "True tensor(inf)"],
    ),
    # a tensor saved for backward and zeroed after: the version error, as in torch
    (
        "a = torch.tensor([1.0, 2.0], dtype=torch.float64)\n"
        "w = torch.tensor([3.0, 4.0], dtype=torch.float64, requires_grad=True)\n"
        "y = (w * a).sum()\n_ = a.zero_()\ntry:\n    y.backward()\nexcept RuntimeError as e:\n"
        "    print(str(e).split(';')[0])\n",
        [
            "one of the variables needed for gradient computation has been modified by an "
            "inplace operation: [torch.DoubleTensor [2]] is at version 1"
        ],
    ),
    # a view of the zeroed tensor sees the zeros
    (
        "a = torch.tensor([1.0, 2.0, 3.0])\nb = a[1:]\n_ = a.zero_()\nprint(b, b._version)\n",
        ["tensor([0., 0.]) 1"],
    ),
]


@pytest.mark.parametrize("src,lines", ZERO_PROGRAMS)
def test_zero_of_a_plain_tensor_does_as_in_torch(src, lines):
    from conftest import run_inprocess

    r = run_inprocess("import torch\n" + src)
    assert (r.returncode, r.stderr) == (0, ""), r.stderr
    assert r.stdout.split("\n")[: len(lines)] == lines
