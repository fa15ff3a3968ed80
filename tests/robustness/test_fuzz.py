"""Fuzzing and property tests, a few thousand inputs per run.

* grammar-based programs (hypothesis's from_lark on grammar/gradcli.lark) and
  random mutations of the example programs, golden cases and hostile snippets:
  every input ends in success or in one of gradcli's own errors, with a line and
  a column, never in another exception (tests/robustness/fuzzing.py holds the machinery;
  scripts/fuzz.py runs the same fuzzing for longer);
* random compositions of 2 to 6 built-ins over random broadcast shapes pass the
  float64 finite-difference check, sampled away from kinks;
* the edge values of SPEC section 4, and PyTorch's messages for its error
  conditions, each pinned.

GRADCLI_FUZZ_SEED=N repeats a mutation run; GRADCLI_FUZZ_SCALE=K multiplies the
number of inputs.
"""

from __future__ import annotations

import contextlib
import io
import math
import os
import random
from pathlib import Path

import numpy as np
import pytest
from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parents[2]
SCALE = float(os.environ.get("GRADCLI_FUZZ_SCALE", "1"))


import fuzzing as fuzz  # noqa: E402  (tests/robustness/fuzzing.py: the machinery scripts/fuzz.py runs longer)


_RUNNER = fuzz.Runner(timeout=20.0)  # (made once: it raises the recursion limit as the CLI does)


@pytest.fixture(scope="module")
def runner():
    yield _RUNNER
    from gradcli.session import reset_globals

    reset_globals()


# ---------------------------------------------------------------- fuzzing

GRAMMAR = fuzz.grammar_strategy()


@settings(
    max_examples=int(200 * SCALE),
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(GRAMMAR)
def test_grammar_based_inputs(src):
    _RUNNER.run(src, variant=len(src))  # raises fuzz.Finding (shrunk by hypothesis)


def test_layout_turns_markers_into_indentation():
    assert fuzz.layout("if x :\n\x01y = 1\nz = 2\n\x02w\n") == "if x :\n    y = 1\n    z = 2\nw\n"


def test_grammar_strategy_makes_programs_that_parse():
    """Most generated programs are syntactically valid (the markers, spaces and
    explicit terminals are right), so the fuzzing reaches the compiler and runtime."""
    from gradcli.runtime.errors import GradSyntaxError
    from gradcli.language.parser import parse

    seen, parsed = [], 0

    @settings(
        max_examples=60, deadline=None, database=None, suppress_health_check=list(HealthCheck)
    )
    @given(fuzz.grammar_strategy(prelude=False))
    def collect(src):
        seen.append(src)

    collect()
    for src in seen:
        try:
            parse(src)
            parsed += 1
        except GradSyntaxError:
            pass
    assert parsed >= len(seen) * 0.5, (parsed, len(seen))


def test_mutated_programs(runner):
    seed = int(os.environ.get("GRADCLI_FUZZ_SEED", random.randrange(1 << 30)))
    rng = random.Random(seed)
    pool = fuzz.corpus()
    assert len(pool) > 50
    stream = fuzz.mutation_inputs(rng, pool)
    before = dict(runner.counts)
    n = int(3000 * SCALE)
    for _ in range(n):
        data = next(stream)
        try:
            runner.run_bytes(data, variant=rng.randrange(30))
        except fuzz.Finding as f:
            pytest.fail(f"GRADCLI_FUZZ_SEED={seed}\n{f.report()}")
    counts = {k: runner.counts[k] - before[k] for k in before}
    # the mutations reach both the runtime (programs that run) and the errors
    assert counts["ok"] > n * 0.03 and counts["error"] > n * 0.3, counts


def test_the_corpus_itself(runner):
    """Every seed program unmutated, in both output modes and atomically."""
    for i, src in enumerate(fuzz.corpus()):
        for variant in (0, 1, 4):
            runner.run(src, variant=variant + i * 6)


def test_runner_reports_escaping_exceptions(monkeypatch):
    """The harness itself: a Python exception from inside gradcli is a finding."""
    from gradcli.language import runtime

    r = fuzz.Runner()

    def boom(*a):
        raise RuntimeError("boom")  # not one of the Python errors gradcli translates

    monkeypatch.setitem(runtime.STR_METHODS, "upper", boom)
    with pytest.raises(fuzz.Finding):
        r.run('"a".upper()\n')
    assert r.run("1 +\n") == "error"
    assert r.run("x = 1\n") == "ok"


def test_sandbox_of_the_fuzzer_blocks_paths(tmp_path):
    r = fuzz.Runner()
    outside = tmp_path / "escape.npy"  # outside the runner's own directory
    assert r.run(f'save(ones(2), "{outside}")\n') == "error"
    assert not outside.exists()
    assert r.run('save(ones(2), "ok.npy")\nload("ok.npy")\n') == "ok"


# ---------------------------------------------------------------- gradient properties

UNARY = [
    "exp({0} * 0.5)",
    "sin({0})",
    "cos({0})",
    "tanh({0})",
    "sigmoid({0})",
    "log({0} * {0} + 1)",
    "sqrt({0} * {0} + 0.5)",
    "square({0})",
    "{0} ^ 3",
    "abs({0})",
    "relu({0})",
    "-{0}",
    "clamp({0}, -0.8, 0.9)",
    "{0} / ({0} * {0} + 1)",
    "{0} ** 2 * 0.5",
    "softmax({0}, dim={d})",
    "log_softmax({0}, dim={d})",
    "sum({0}, dim={d}, keepdim=true)",
    "mean({0}, dim={d}, keepdim=true)",
    "logsumexp({0}, dim={d}, keepdim=true)",
    "max({0}, dim={d}, keepdim=true).values",
    "prod({0}, dim={d}, keepdim=true)",
    "{0}.sum()",
    "norm({0})",
    "{0}.mean()",
    "max({0})",
    "{0}.flatten().sum()",
    "{0}.unsqueeze(0)",
    "exp(-{0} * {0})",
    "{0}.T.T",
]
BINARY = [
    "{0} + {1}",
    "{0} - {1}",
    "{0} * {1}",
    "{0} / ({1} * {1} + 1)",
    "maximum({0}, {1})",
    "minimum({0}, {1})",
    "where({0} > {1}, {0}, {1} * 2)",
    "{0} ^ 2 * {1}",
    "pow(abs({0}) + 1, {1})",
    "2 - {0} * {1}",
    "({0} + {1}) / 2",
]


def _shape_strategy():
    """A base shape and two shapes that broadcast to it."""

    @st.composite
    def shapes(draw):
        base = draw(st.lists(st.integers(1, 4), min_size=0, max_size=3))

        def variant():
            dims = [n if draw(st.booleans()) else 1 for n in base]
            drop = draw(st.integers(0, len(dims)))
            return tuple(dims[drop:])

        return tuple(base), variant(), variant()

    return shapes()


@st.composite
def compositions(draw):
    base, sa, sb = draw(_shape_strategy())
    n_ops = draw(st.integers(2, 6))
    exprs = ["a", "b"]
    ranks = {"a": len(sa), "b": len(sb)}
    steps = []
    for _ in range(n_ops):
        e = draw(st.sampled_from(exprs))
        if draw(st.integers(0, 2)) == 0:
            op = draw(st.sampled_from(BINARY))
            other = draw(st.sampled_from(exprs))
            new = "(" + op.format(e, other) + ")"
            rank = max(ranks[e], ranks[other])
        else:
            op = draw(st.sampled_from(UNARY))
            if "{d}" in op and ranks[e] == 0:
                op = "{0}.sum()"
            d = draw(st.integers(0, max(ranks[e] - 1, 0)))
            new = "(" + op.format(e, d=d) + ")"
            rank = (
                0
                if op.endswith((".sum()", ".mean()")) or op.startswith(("norm", "max({0})"))
                else ranks[e] + 1
                if "unsqueeze" in op
                else ranks[e]
            )
            if "flatten" in op:
                rank = 0
        steps.append(op)
        exprs.append(new)
        ranks[new] = rank
    seed = draw(st.integers(0, 2**32 - 1))
    return sa, sb, exprs[-1], seed


def _numeric_grad(f, arrays, i, h):
    x = arrays[i]
    g = np.zeros_like(x)
    flat = x.reshape(-1)
    gflat = g.reshape(-1)
    for k in range(flat.size):
        old = flat[k]
        flat[k] = old + h
        hi = f(arrays)
        flat[k] = old - h
        lo = f(arrays)
        flat[k] = old
        gflat[k] = (hi - lo) / (2 * h)
    return g


@settings(
    max_examples=int(150 * SCALE),
    deadline=None,
    database=None,
    suppress_health_check=list(HealthCheck),
)
@given(compositions())
def test_random_compositions_pass_finite_differences(case):
    from gradcli.engine.autograd import run_backward
    from gradcli.session import Session, reset_globals
    from gradcli.output import TextOutput
    from gradcli.runtime import context
    from gradcli.core.tensor import Tensor

    sa, sb, expr, seed = case
    reset_globals()
    session = Session(TextOutput(io.StringIO()))
    session.run(f"def f(a, b):\n    return sum({expr})\n")
    f = session.scope.vars["f"]
    rng = np.random.default_rng(seed)
    arrays = [rng.uniform(-1.5, 1.5, sa), rng.uniform(-1.5, 1.5, sb)]

    def value(arrs):
        prev = context.current.grad_enabled
        context.current.grad_enabled = False
        try:
            return float(f(Tensor(np.asarray(arrs[0])), Tensor(np.asarray(arrs[1]))).item())
        finally:
            context.current.grad_enabled = prev

    try:
        with contextlib.redirect_stderr(io.StringIO()):
            out0 = value(arrays)
            assume(math.isfinite(out0) and abs(out0) < 1e6)
            leaves = [Tensor(a.copy(), True) for a in arrays]
            out = f(*leaves)
            grads = run_backward([out], [None], inputs=leaves, allow_unused=True)
    finally:
        reset_globals()
    for i, g in enumerate(grads):
        analytic = np.zeros_like(arrays[i]) if g is None else np.asarray(g.data, dtype=np.float64)
        assert analytic.shape == arrays[i].shape, (expr, analytic.shape, arrays[i].shape)
        fine = _numeric_grad(value, arrays, i, 1e-6)
        coarse = _numeric_grad(value, arrays, i, 1e-4)
        # away from kinks the two step sizes agree; near one (abs, relu, max, clamp,
        # where ...) they do not, and the sample is skipped
        assume(np.all(np.isfinite(fine)) and np.all(np.isfinite(analytic)))
        assume(np.allclose(fine, coarse, rtol=1e-3, atol=1e-5))
        assert np.allclose(analytic, fine, rtol=1e-5, atol=1e-5), (expr, sa, sb, i, analytic, fine)


# ---------------------------------------------------------------- SPEC section 4 edges


def run(source):
    """Run in this process; (stdout, error or None)."""
    from gradcli.runtime.errors import GradError
    from gradcli.output import TextOutput
    from gradcli.session import Session, reset_globals

    reset_globals()
    stream = io.StringIO()
    s = Session(TextOutput(stream))
    err = None
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            s.run(source)
        except GradError as e:
            err = e
    reset_globals()
    return stream.getvalue(), err, s


def _grad(source, name="x"):
    out, err, s = run(source)
    assert err is None, err.message
    return s.scope.vars[name].grad.data


def test_sqrt_at_zero_has_gradient_inf():
    g = _grad("x = tensor([0.0, 4.0], requires_grad=true)\nsum(sqrt(x)).backward()\n")
    assert g[0] == math.inf and g[1] == 0.25


@pytest.mark.parametrize("fn", ["abs", "relu"])
def test_abs_and_relu_at_zero_have_gradient_zero(fn):
    g = _grad(f"x = tensor([0.0, -2.0, 3.0], requires_grad=true)\nsum({fn}(x)).backward()\n")
    expected = {"abs": [0.0, -1.0, 1.0], "relu": [0.0, 0.0, 1.0]}[fn]
    assert g.tolist() == expected


@pytest.mark.parametrize("fn", ["max", "min"])
def test_max_min_ties_share_the_gradient_evenly(fn):
    v = "[1.0, 3.0, 3.0, 3.0]" if fn == "max" else "[1.0, 1.0, 3.0, 4.0]"
    g = _grad(f"x = tensor({v}, requires_grad=true)\n{fn}(x).backward()\n")
    expected = [0.0, 1 / 3, 1 / 3, 1 / 3] if fn == "max" else [0.5, 0.5, 0.0, 0.0]
    assert np.allclose(g, expected)


def test_maximum_of_equal_values_splits_the_gradient():
    out, err, s = run(
        "a = tensor([2.0], requires_grad=true)\nb = tensor([2.0], requires_grad=true)\n"
        "maximum(a, b).sum().backward()\n"
    )
    assert err is None
    assert s.scope.vars["a"].grad.data.tolist() == [0.5]
    assert s.scope.vars["b"].grad.data.tolist() == [0.5]


def test_log_of_negative_is_nan_and_division_by_zero_is_inf():
    out, err, s = run(
        "a = log(tensor(-1.0))\nb = tensor(1.0) / 0\nc = -1 / tensor(0.0)\n"
        "d = tensor(0.0) / 0\nf = log(tensor(0.0))\n"
        "x = tensor(-1.0, requires_grad=true)\nlog(x).backward()\n"
    )
    assert err is None, err.message
    v = s.scope.vars
    assert math.isnan(v["a"].item())
    assert v["b"].item() == math.inf and v["c"].item() == -math.inf
    assert math.isnan(v["d"].item())
    assert v["f"].item() == -math.inf
    assert v["x"].grad.item() == -1.0
    out, err, s = run("print(log(tensor(-1.0)), 1 / tensor(0.0), tensor([1.0, -1.0]) / 0)\n")
    assert out == "tensor(nan) tensor(inf) tensor([inf, -inf])\n"
    out, err, s = run("e = 1 / 0\n")  # two Python numbers: Python's error, not inf
    assert err is not None and err.type_name == "ZeroDivisionError", out
    assert err.message == "division by zero"


@pytest.mark.parametrize(
    "source,message",
    [
        (
            "x = ones(2, dtype=long, requires_grad=true)",
            "Only Tensors of floating point and complex dtype can require gradients",
        ),
        (
            "x = ones(2, requires_grad=true)\nbackward x * 2",
            "grad can be implicitly created only for scalar outputs",
        ),
        (
            "x = ones(2, requires_grad=true)\ny = (x * x).sum()\nbackward y\nbackward y",
            "Trying to backward through the graph a second time",
        ),
        (
            "x = ones(2, requires_grad=true)\n(x * 2).backward(ones(3))",
            "Mismatch in shape: grad_output[0] has a shape of torch.Size([3]) and output[0] has a "
            "shape of torch.Size([2])",
        ),
        (
            "x = ones(2)\nif x > 0:\n    pass",
            "Boolean value of Tensor with more than one value is ambiguous",
        ),
        (
            "x = ones(2)\nx.backward()",
            "element 0 of tensors does not require grad and does not have a grad_fn",
        ),
        (
            "x = ones(2, requires_grad=true)\ny = x * 2\ny.requires_grad = false",
            "you can only change requires_grad flags of leaf variables",
        ),
    ],
)
def test_pytorch_messages_for_spec4_conditions(source, message):
    out, err, s = run(source + "\n")
    assert err is not None
    assert message in err.message, err.message
    assert err.line is not None and err.column is not None


def test_nonleaf_grad_is_none_with_a_warning():
    from gradcli.output import TextOutput
    from gradcli.session import Session, reset_globals

    reset_globals()
    s = Session(TextOutput(io.StringIO()))
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        s.run("x = ones(2, requires_grad=true)\ny = x * 2\ny.sum().backward()\ng = y.grad\n")
    assert s.scope.vars["g"] is None
    assert "is not a leaf Tensor is being accessed" in err.getvalue()
