"""Float math, matrix products and float32 powers bit for bit as PyTorch computes
them (tests/golden/exact_numerics.json, recorded from torch by
scripts/gen_golden.py exact; inputs in tests/numerics/exact_cases.py).

Math functions and matrix products go through MKL (gradcli/numerics/mkl.py), which the
`test` extra installs; powers are gradcli's own SLEEF re-implementation."""

from __future__ import annotations

import json
import math
import os
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from exact_cases import (
    CE_SHAPES,
    DOUBLE_NAMES,
    EXPRESSIONS,
    FORWARD_DIFFERS,
    LGAMMA_SIZES,
    OUTER_SHAPES,
    POW_EXPONENTS,
    U10,
    act_input,
    ce_input,
    expr_inputs,
    lgamma_input,
    matrix,
    pow_input,
    u10_input,
    unary_input,
)

import gradcli.session  # noqa: F401  (registers the built-ins)
from gradcli.numerics import mkl, mkl_vectors, parallel
from gradcli.core.tensor import Tensor
from gradcli.library.autograd_api import backward
from gradcli.ops.registry import FUNCTIONS
from conftest import digest as _digest, needs_mkl

GOLDEN = json.loads(
    (Path(__file__).parents[1] / "golden" / "exact_numerics.json").read_text("utf-8")
)


@needs_mkl
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_math_functions_are_pytorchs(dtype):
    cases = [c for c in GOLDEN["unary"] if c["dtype"] == dtype]
    for c in cases:
        out = FUNCTIONS[c["op"]](Tensor(unary_input(c["op"], c["n"], dtype))).data
        assert out.dtype == np.dtype(dtype)
        assert _digest(out) == c["out"], (c["op"], dtype, c["n"])
    assert len(cases) >= 100


@needs_mkl
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_math_functions_of_0d_tensors_are_pytorchs(dtype):
    """The goldens' inputs one 0-d tensor at a time (VML's one-value call, mkl._one_value,
    a network of 0-d parameters' path): the bits PyTorch gave the whole arrays."""
    cases = [c for c in GOLDEN["unary"] if c["dtype"] == dtype and c["n"] >= 2000]
    for c in cases:
        x = unary_input(c["op"], c["n"], dtype)
        values = [x[i : i + 1].reshape(()).copy() for i in range(x.size)]  # (0-d arrays)
        out = [FUNCTIONS[c["op"]](Tensor(v)).data for v in values]
        assert all(o.shape == () and o.dtype == np.dtype(dtype) for o in out)
        assert _digest(np.array(out)) == c["out"], (c["op"], dtype, c["n"])
    assert len(cases) >= 20
    assert (np.dtype(dtype), "tanh") in mkl._ONE  # (the one-value call was used)


@needs_mkl
def test_importing_torch_loads_mkl():
    """A program's `import torch` loads MKL and VML's kernels (mkl.warm), as PyTorch's
    import has them, so that its first tanh does not pay for that; a program that does
    not import torch loads nothing."""
    code = (
        "import io, sys\n"
        "from gradcli.output import TextOutput\n"
        "from gradcli.session import Session\n"
        "from gradcli.numerics import mkl\n"
        "s = Session(TextOutput(io.StringIO(), quiet=True))\n"
        "s.run(sys.argv[1])\n"
        "print(mkl._state['lib'] is not False, bool(mkl._VML_FNS or mkl._ONE))"
    )
    root = str(Path(__file__).parents[2])

    def run(program):
        env = {**os.environ, "PYTHONPATH": root}
        cmd = [sys.executable, "-c", code, program]
        return subprocess.run(cmd, capture_output=True, text=True, env=env, check=True).stdout

    assert run("import math\nx = 1 + 2\n").split() == ["False", "False"]
    assert run("import torch\n").split() == ["True", "True"]
    assert run("from torch import nn\n").split() == ["True", "True"]
    assert run("import math, torch.nn as nn\n").split() == ["True", "True"]


def test_numpy_would_differ():
    """NumPy's sin is not PyTorch's: the test above can fail."""
    c = next(
        c for c in GOLDEN["unary"] if (c["op"], c["dtype"], c["n"]) == ("sin", "float32", 2000)
    )
    assert _digest(np.sin(unary_input("sin", 2000, "float32"))) != c["out"]


def test_float32_powers_are_pytorchs():
    checked = 0
    for c in GOLDEN["pows"]:
        if c["n"] > parallel.GRAIN and parallel.THREADS != GOLDEN["threads"]:
            continue  # the blocks depend on how the range is cut between threads
        x = Tensor(pow_input(c["n"]), requires_grad=True)
        y = FUNCTIONS["pow"](x, c["e"])
        backward(FUNCTIONS["sum"](y))
        assert _digest(y.data) == c["out"], (c["e"], c["n"])
        assert _digest(x.grad.data) == c["grad"], (c["e"], c["n"], "grad")
        checked += 1
    assert checked >= 80
    assert {c["e"] for c in GOLDEN["pows"]} == set(POW_EXPONENTS)


def test_numpys_power_would_differ():
    c = next(c for c in GOLDEN["pows"] if (c["e"], c["n"]) == (4, 2000))
    assert _digest(np.power(pow_input(2000), np.float32(4))) != c["out"]


def _mm_case(c):
    r, k, cols = c["shape"]
    dt = c["dtype"]
    a = Tensor(matrix((r, k), 1, dt, c["ta"]), requires_grad=True)
    b = Tensor(matrix((k, cols), 2, dt, c["tb"]), requires_grad=True)
    out = FUNCTIONS["mm"](a, b)
    backward(out, Tensor(matrix((r, cols), 3, dt)))
    bias = Tensor(matrix((1, cols), 4, dt)[0].copy())
    lin = FUNCTIONS["addmm"](bias, Tensor(a.data), Tensor(b.data)) if "addmm" in FUNCTIONS else None
    return out.data, a.grad.data, b.grad.data, lin


@needs_mkl
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_matrix_products_and_their_gradients_are_pytorchs(dtype):
    checked = 0
    for c in GOLDEN["mm"]:
        if c["dtype"] != dtype:
            continue
        if "dot" in c:
            n = c["n"]
            a, b = (Tensor(matrix((n, 1), s, dtype)[:, 0].copy()) for s in (5, 6))
            got = float(FUNCTIONS["dot"](a, b).data)
            assert got.hex() == c["dot"], (dtype, n)
        elif "mv" in c:
            r, k, _ = c["shape"]
            a = Tensor(matrix((r, k), 1, dtype))
            v = Tensor(matrix((k, 1), 2, dtype)[:, 0].copy())
            assert _digest(FUNCTIONS["mv"](a, v).data) == c["mv"], (dtype, c["shape"])
        else:
            out, ga, gb, lin = _mm_case(c)
            what = (dtype, c["shape"], c["ta"], c["tb"])
            assert _digest(out) == c["out"], what
            assert _digest(ga) == c["ga"], what + ("grad a",)
            assert _digest(gb) == c["gb"], what + ("grad b",)
            if lin is not None:
                assert _digest(lin.data) == c["addmm"], what + ("addmm",)
        checked += 1
    assert checked >= 40


def test_without_mkl_numpy_computes(monkeypatch):
    """GRADCLI_NO_MKL (or no mkl package): NumPy's results, and no error."""
    monkeypatch.setitem(mkl._state, "lib", None)
    x = unary_input("sin", 2000, "float32")
    assert np.array_equal(FUNCTIONS["sin"](Tensor(x)).data, np.sin(x), equal_nan=True)
    a, b = matrix((5, 4), 1, "float32"), matrix((4, 3), 2, "float32")
    assert np.array_equal(FUNCTIONS["mm"](Tensor(a), Tensor(b)).data, a @ b)


def test_no_mkl_environment_variable(monkeypatch):
    monkeypatch.setenv("GRADCLI_NO_MKL", "1")
    assert mkl._load() is None
    monkeypatch.setenv("GRADCLI_NO_MKL", "")
    assert (mkl._load() is not None) == mkl.available()


def test_softmax_log_softmax_and_cross_entropy_are_pytorchs():
    """float32 softmax and log_softmax over the last dim (SLEEF's exp and log inside
    PyTorch's own reductions), their gradients, and cross_entropy / nll_loss with
    each reduction."""
    for case in GOLDEN["cross_entropy"]:
        b, c = case["shape"]
        x, t = ce_input(b, c)
        what = (b, c)
        x1 = Tensor(x.copy(), requires_grad=True)
        lsm = FUNCTIONS["log_softmax"](x1, 1)
        backward(lsm, Tensor(matrix((b, c), 23, "float32")))
        assert _digest(lsm.data) == case["lsm"], what
        assert _digest(x1.grad.data) == case["glsm"], what + ("grad",)
        x3 = Tensor(x.copy(), requires_grad=True)
        sm = FUNCTIONS["softmax"](x3, -1)
        backward(sm, Tensor(matrix((b, c), 23, "float32")))
        assert _digest(sm.data) == case["sm"], what + ("softmax",)
        assert _digest(x3.grad.data) == case["gsm"], what + ("softmax grad",)
        w = Tensor(np.abs(matrix((c, 1), 24, "float32")[:, 0]))
        for name, kw in (
            ("mean", {}),
            ("sum", {"reduction": "sum"}),
            ("weighted", {"weight": w}),
            ("ignore", {"ignore_index": int(t[0])}),
        ):
            x2 = Tensor(x.copy(), requires_grad=True)
            loss = FUNCTIONS["cross_entropy"](x2, Tensor(t), **kw)
            backward(loss)
            assert float(loss.data).hex() == case[name], what + (name,)
            assert _digest(x2.grad.data) == case["g" + name], what + (name, "grad")
    assert {tuple(c["shape"]) for c in GOLDEN["cross_entropy"]} == set(CE_SHAPES)


def test_numpys_log_softmax_would_differ():
    case = next(c for c in GOLDEN["cross_entropy"] if c["shape"] == [1000, 10])
    x, _ = ce_input(1000, 10)
    s = x - x.max(1, keepdims=True)
    assert _digest(s - np.log(np.exp(s).sum(1, keepdims=True))) != case["lsm"]


def test_bias_gradients_and_sums_over_leading_dims_are_pytorchs():
    for case in GOLDEN["bias_grads"]:
        r, c = case["shape"]
        dt = case["dtype"]
        g = Tensor(matrix((r, c), 25, dt))
        x = Tensor(matrix((r, 3), 26, dt))
        bias = Tensor(np.zeros(c, dt), requires_grad=True)
        out = FUNCTIONS["linear"](x, Tensor(np.zeros((c, 3), dt)), bias)
        backward(out, g)
        assert _digest(bias.grad.data) == case["gbias"], (dt, r, c)
        assert _digest(FUNCTIONS["sum"](g, 0).data) == case["sum0"], (dt, r, c, "sum(0)")
        g3 = Tensor(g.data.reshape(1, r, c))
        assert _digest(FUNCTIONS["sum"](g3, (0, 1), True).data) == case["sum01"], (dt, r, c)
        assert float(FUNCTIONS["sum"](g, (0, 1)).data).hex() == case["sum_all_dims"], (dt, r, c)
    assert len(GOLDEN["bias_grads"]) == 2 * len(OUTER_SHAPES)


@needs_mkl
def test_products_of_views_are_pytorchs():
    """MKL's BLAS results depend on where the data lies; a view's data lies at its
    offset in its array, as a PyTorch view's in its (64-byte aligned) storage."""
    for case in GOLDEN["views"]:
        dt, off = case["dtype"], case["off"]
        a = matrix((3001, 1), 27, dt)[:, 0].copy()
        b = matrix((3001, 1), 28, dt)[:, 0].copy()
        m = matrix((40, 30), 29, dt)
        assert (
            float(mkl_vectors.torch_dot(a[off : off + 2000], b[off : off + 2000])).hex()
            == case["dot"]
        ), (dt, off)
        assert _digest(mkl_vectors.torch_mv(m[off : off + 20], b[off : off + 30])) == case["mv"], (
            dt,
            off,
        )
        assert _digest(mkl.torch_mm(m[off : off + 20], m[off + 1 : off + 31, :7])) == case["mm"], (
            dt,
            off,
        )


@needs_mkl
@pytest.mark.parametrize("op", ["sigmoid", "tanh"])
def test_activations_and_their_first_and_second_derivatives_are_pytorchs(op):
    """sigmoid's forward (SLEEF's exp in blocks of two vectors, the C library's after
    them), tanh's and sigmoid's backward kernels (tanh's with a fused multiply-add) and
    the backward of those kernels under create_graph, with torch's grad_fn names."""
    from gradcli.library.autograd_api import grad

    checked = 0
    for c in GOLDEN["activations"]:
        if c["op"] != op or c["n"] > parallel.GRAIN and parallel.THREADS != GOLDEN["threads"]:
            continue
        dt, n = c["dtype"], c["n"]
        x = Tensor(act_input(n, dt), requires_grad=True)
        g = Tensor(matrix((n, 1), 32, dt)[:, 0].copy())
        w = Tensor(matrix((n, 1), 33, dt)[:, 0].copy())
        y = FUNCTIONS[op](x)
        (gx,) = grad(y, x, g, create_graph=True)
        (ggx,) = grad(gx, x, w)
        where = (op, dt, n)
        assert _digest(y.data) == c["out"], where
        assert _digest(gx.data) == c["grad"], where
        assert gx.grad_fn.name == c["grad_fn"], where
        assert _digest(ggx.data) == c["grad2"], where
        x2 = Tensor(act_input(n, dt), requires_grad=True)  # the plain (array) backward
        backward(FUNCTIONS[op](x2), g)
        assert _digest(x2.grad.data) == c["grad"], where
        checked += 1
    assert checked >= 18


def test_numpys_sigmoid_and_tanh_gradient_would_differ():
    """The formulas written the textbook way differ from torch's in the last bit."""
    c = next(
        c
        for c in GOLDEN["activations"]
        if (c["op"], c["dtype"], c["n"]) == ("sigmoid", "float32", 2000)
    )
    x = act_input(2000, "float32")
    assert _digest((1 / (1 + np.exp(-x))).astype(np.float32)) != c["out"]
    t = next(
        c
        for c in GOLDEN["activations"]
        if (c["op"], c["dtype"], c["n"]) == ("tanh", "float64", 2000)
    )
    y = np.tanh(act_input(2000, "float64"))
    g = matrix((2000, 1), 32, "float64")[:, 0]
    assert _digest(g * (1 - y * y)) != t["grad"]


@needs_mkl
@pytest.mark.parametrize("name", sorted(EXPRESSIONS))
def test_expressions_and_their_gradients_are_pytorchs(name):
    """Each expression of exact_cases.EXPRESSIONS, run as a gradcli program on the
    inputs torch had: its value and x's gradient, digest for digest."""
    import io
    from gradcli.output import TextOutput
    from gradcli.session import Session

    checked = 0
    for c in GOLDEN["expressions"]:
        if c["name"] != name or (
            np.prod(c["shape"]) > parallel.GRAIN and parallel.THREADS != GOLDEN["threads"]
        ):
            continue
        x, t, g = expr_inputs(tuple(c["shape"]), c["dtype"])
        s = Session(TextOutput(io.StringIO(), quiet=True))
        s.scope.vars.update(x=Tensor(x, requires_grad=True), t=Tensor(t), g=Tensor(g))
        s.run(
            "import torch.nn.functional as F\n"
            f"y = {EXPRESSIONS[name]}\n"
            "y.backward(g.reshape(-1)[:y.numel()].reshape(y.shape))\n"
        )
        where = (name, c["dtype"], c["shape"])
        if name not in FORWARD_DIFFERS:
            assert _digest(s.scope.vars["y"].data) == c["out"], where
        assert _digest(s.scope.vars["x"].grad.data) == c["grad"], where
        checked += 1
    assert checked >= 4


@pytest.mark.parametrize("name", sorted(DOUBLE_NAMES))
def test_a_gradient_taken_with_create_graph_has_pytorchs_grad_fn(name):
    """The fused backward ops PyTorch records (TanhBackwardBackward0,
    MseLossBackwardBackward0, LogSoftmaxBackwardDataBackward0 ...) or, where it records
    plain ops, the same plain op."""
    import io
    from gradcli.output import TextOutput
    from gradcli.session import Session

    x, t, g = expr_inputs((3, 7), "float64")
    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.scope.vars.update(x=Tensor(x, requires_grad=True), t=Tensor(t), g=Tensor(g))
    s.run(
        "import torch.nn.functional as F\n"
        f"y = {DOUBLE_NAMES[name]}\n"
        "gx = torch.autograd.grad(y, x, g.reshape(-1)[:y.numel()].reshape(y.shape), "
        "create_graph=True)[0]\n"
    )
    assert s.scope.vars["gx"].grad_fn.name == GOLDEN["double_names"][name]


def _run_u10(text, x, g):
    import io
    from gradcli.output import TextOutput
    from gradcli.session import Session

    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.scope.vars.update(x=Tensor(x, requires_grad=True), g=Tensor(g))
    s.run(f"import torch.nn.functional as F\ny = {text}\ny.backward(g)\n")
    return s.scope.vars["y"].data, s.scope.vars["x"].grad.data


@pytest.mark.parametrize("text", sorted(U10))
def test_sleef_u10_functions_and_their_kernels_are_pytorchs(text):
    """log1p, expm1 (SLEEF everywhere), sinh, cosh (SLEEF on blocks, glibc after them),
    softplus, elu, logsigmoid and their gradients, on edge values (0, -0, inf, nan, tiny,
    huge, near -1) and spreads, 1 to 70,001 values: digest for digest with torch."""
    checked = 0
    for c in GOLDEN["u10"]:
        if c["text"] != text or c["n"] > parallel.GRAIN and parallel.THREADS != GOLDEN["threads"]:
            continue
        dt, n = c["dtype"], c["n"]
        y, gx = _run_u10(text, u10_input(text, n, dt), matrix((n, 1), 32, dt)[:, 0].copy())
        assert _digest(y) == c["out"], (text, dt, n)
        assert _digest(gx) == c["grad"], (text, dt, n)
        checked += 1
    assert checked >= 18


def test_lgamma_over_each_dtypes_whole_range_is_pytorchs():
    """torch.lgamma (SLEEF's, every value) and its gradient grad * digamma(x) on values of
    every magnitude from the smallest subnormal to the largest finite, both signs, beside
    the poles and beside 1 and 2: digest for digest with torch, float32 and float64."""
    cases = GOLDEN["lgamma"]
    assert sorted((c["dtype"], c["n"]) for c in cases) == sorted(
        (dt, n) for dt in ("float32", "float64") for n in LGAMMA_SIZES
    )
    for c in cases:
        dt, n = c["dtype"], c["n"]
        g = matrix((n, 1), 33, dt)[:, 0].copy()
        y, gx = _run_u10("torch.lgamma(x)", lgamma_input(n, dt), g)
        assert _digest(y) == c["out"], (dt, n)
        assert _digest(gx) == c["grad"], (dt, n)


def test_the_c_librarys_lgamma_would_differ():
    """glibc's lgamma (Python's math.lgamma) is not torch's: SLEEF's differs from it in the
    last bit on many of the float64 values."""
    x = u10_input("torch.lgamma(x)", 2000, "float64")
    x = x[np.isfinite(x) & ((x > 0) | (x != np.floor(x)))]  # no pole: math.lgamma raises
    y, _ = _run_u10("torch.lgamma(x)", x, np.ones_like(x))
    libm = np.array([math.lgamma(v) for v in x.tolist()])
    assert np.count_nonzero(y != libm) > 100


def test_numpys_log1p_expm1_sinh_cosh_would_differ():
    """NumPy's (glibc's) functions differ from torch's SLEEF ones in the last bit."""
    for text, fn in (
        ("torch.log1p(x)", np.log1p),
        ("torch.expm1(x)", np.expm1),
        ("torch.sinh(x)", np.sinh),
        ("torch.cosh(x)", np.cosh),
    ):
        for dt in ("float32", "float64"):
            c = next(
                c for c in GOLDEN["u10"] if (c["text"], c["dtype"], c["n"]) == (text, dt, 2000)
            )
            with np.errstate(all="ignore"):
                assert _digest(fn(u10_input(text, 2000, dt))) != c["out"], (text, dt)
