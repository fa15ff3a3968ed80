"""vmap's batching rules (ops/batch_rules.py) against the loop they replace.

Every op of the registry that has a batching rule is run under vmap on the sample
arguments of its gradient checks (the registry's `checks`, as tests/ops/test_gradcheck.py
builds them), with every tensor argument batched and with only the first one batched,
and must give what the op gives sample by sample, stacked -- without falling back to
the loop.  A new rule is tested by registering it; nobody writes a test for it."""

import numpy as np
import pytest

import gradcli.session  # noqa: F401
from gradcli.core.tensor import Tensor
from gradcli.library import vmap as vm
from gradcli.library.func import grad
from gradcli.ops import batching as bt
from gradcli.ops.registry import BATCH_RULES, FUNCTIONS
from tests.ops.test_gradcheck import CASES, _build

B = 3

RULED = [c for c in CASES if c.values[0].name in BATCH_RULES]

# rules that batch only part of their arguments and loop for the rest, by design:
# conv2d and conv_transpose2d with a batched weight (a different filter per sample) run
# sample by sample
PARTIAL = {("conv2d", "all"), ("conv_transpose2d", "all")}


def _leaves_first(obj):
    if isinstance(obj, Tensor):
        return [obj]
    if isinstance(obj, (list, tuple)):
        return [t for o in obj for t in _leaves_first(o)]
    return []


def _samples(entry, i):
    """B per-sample argument lists of the check (same structure, new values)."""
    args_spec, kwargs_spec = entry.checks[i]
    rng = np.random.default_rng(7 + i)
    out = []
    for _ in range(B):
        leaves = []
        args = [_build(a, rng, leaves) for a in args_spec]
        kwargs = {k: _build(v, rng, leaves) for k, v in kwargs_spec.items()}
        out.append((args, kwargs))
    return out


def _stack_like(objs, batched):
    """The per-sample arguments as one batch (stacked where batched, else sample 0)."""
    first = objs[0]
    if isinstance(first, Tensor):
        return FUNCTIONS["stack"](list(objs), 0) if batched else first
    if isinstance(first, list):
        return [_stack_like([o[k] for o in objs], batched) for k in range(len(first))]
    return first


def _compare(got, want):
    if isinstance(want, Tensor):
        assert isinstance(got, Tensor)
        assert got.data.shape == want.data.shape and got.data.dtype == want.data.dtype
        np.testing.assert_allclose(got.data, want.data, rtol=1e-12, atol=1e-12)
    elif isinstance(want, (tuple, list)):
        assert len(got) == len(want)
        for g, w in zip(got, want):
            _compare(g, w)
    else:
        assert got == want


def _stacked_results(outs):
    first = outs[0]
    if isinstance(first, Tensor):
        return FUNCTIONS["stack"](list(outs), 0)
    if isinstance(first, (tuple, list)):
        return tuple(_stacked_results([o[k] for o in outs]) for k in range(len(first)))
    return first


def no_loop(monkeypatch):
    def refuse(fn, *a, **k):
        raise AssertionError(f"vmap fell back to the loop for {fn}")

    monkeypatch.setattr(bt, "loop", refuse)


@pytest.fixture(name="no_loop")
def no_loop_fixture(monkeypatch):
    no_loop(monkeypatch)


@pytest.mark.parametrize("which", ["all", "first"])
@pytest.mark.parametrize("entry,i", [c.values for c in RULED], ids=[c.id for c in RULED])
def test_rule_matches_the_loop(entry, i, which, monkeypatch):
    if (entry.name, which) not in PARTIAL:
        no_loop(monkeypatch)
    samples = _samples(entry, i)
    want = _stacked_results([entry.fn(*a, **k) for a, k in samples])
    n_args = len(samples[0][0])
    tensor_pos = [p for p in range(n_args) if _leaves_first(samples[0][0][p])]
    if not tensor_pos:
        pytest.skip("no tensor argument")
    batched = set(tensor_pos if which == "all" else tensor_pos[:1])
    if which == "first":  # the others: one value for every sample
        samples = [
            ([a if p in batched else samples[0][0][p] for p, a in enumerate(args)], kw)
            for args, kw in samples
        ]
        want = _stacked_results([entry.fn(*a, **k) for a, k in samples])
    args = [_stack_like([s[0][p] for s in samples], p in batched) for p in range(n_args)]
    kwargs = samples[0][1]
    in_dims = tuple(0 if p in batched else None for p in range(n_args))
    got = vm.vmap(lambda *a: bt.call(entry.fn, a, kwargs), in_dims=in_dims)(*args)
    _compare(got, want)


def test_an_op_without_a_rule_loops_and_is_right(monkeypatch):
    seen = []
    real = bt.loop

    def spy(fn, *a, **k):
        seen.append(fn)
        return real(fn, *a, **k)

    monkeypatch.setattr(bt, "loop", spy)
    x = Tensor(np.random.default_rng(0).standard_normal((3, 4, 4)))
    got = vm.vmap(lambda t: bt.op("trace", t))(x)
    want = FUNCTIONS["stack"]([FUNCTIONS["trace"](FUNCTIONS["index"](x, b)) for b in range(3)], 0)
    np.testing.assert_array_equal(got.data, want.data)
    assert seen == [FUNCTIONS["trace"]]


def test_per_sample_grads_batched_equal_the_loop(no_loop):
    rng = np.random.default_rng(1)
    w = Tensor(rng.standard_normal((4, 8)))
    xs = Tensor(rng.standard_normal((50, 8)))
    ys = Tensor(rng.standard_normal((50, 4)))

    def loss(w, x, y):
        d = bt.op("sub", bt.op("matmul", x, bt.op("numpy_T", w)), y)
        return bt.op("mean", bt.op("mul", d, d))

    got = vm.vmap(grad(loss), in_dims=(None, 0, 0))(w, xs, ys)
    for b in (0, 17, 49):
        one = grad(loss)(w, FUNCTIONS["index"](xs, b), FUNCTIONS["index"](ys, b))
        np.testing.assert_allclose(got.data[b], one.data, rtol=1e-12, atol=1e-14)


def test_nested_levels_and_out_dims(no_loop):
    a = Tensor(np.array([1.0, 2.0]))
    b = Tensor(np.array([3.0, 4.0, 5.0]))
    inner = vm.vmap(lambda s, t: bt.op("mul", s, t), in_dims=(0, None))
    got = vm.vmap(inner, in_dims=(None, 0), out_dims=1)(a, b)
    np.testing.assert_array_equal(got.data, np.outer(a.data, b.data))


@pytest.mark.parametrize("k", [2, 3, 2.5])
def test_a_number_exponent_stays_a_number(no_loop, k):
    """torch's batching rule keeps `x ** k` the Tensor_Scalar op: the same values, bit
    for bit, as the op sample by sample (2 and 3 multiplied out; an int made a tensor
    would be the Tensor_Tensor op, SLEEF's pow)."""
    x = Tensor(np.linspace(0.1, 3.0, 1600).reshape(80, 20))
    got = vm.vmap(lambda t: bt.op("pow", t, k))(x)
    want = FUNCTIONS["pow"](x, k)
    assert got.data.tobytes() == want.data.tobytes()
