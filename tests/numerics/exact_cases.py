"""The inputs of tests/golden/exact_numerics.json (shared by
scripts/gen_golden.py exact, which records torch's results, and
tests/numerics/test_exact_numerics.py): math functions, matrix products and float32 powers
that gradcli computes as PyTorch does (gradcli/numerics/mkl.py, gradcli/numerics/floats/sleef_pow.py)."""

from __future__ import annotations

import hashlib

import numpy as np

from numerics_cases import values

#: function -> the interval its inputs are spread over
UNARY = {
    "sin": (-10.0, 10.0),
    "cos": (-10.0, 10.0),
    "tan": (-1.5, 1.5),
    "exp": (-80.0, 80.0),
    "log": (1e-3, 1e3),
    "log2": (1e-3, 1e3),
    "log10": (1e-3, 1e3),
    "sqrt": (0.0, 1e4),
    "tanh": (-10.0, 10.0),
    "asin": (-1.0, 1.0),
    "acos": (-1.0, 1.0),
    "atan": (-20.0, 20.0),
}
EDGES = [
    0.0,
    -0.0,
    np.inf,
    -np.inf,
    np.nan,
    1e-45,
    -1e-45,
    1e-39,
    3e38,
    -3e38,
    1.0,
    -1.0,
    0.5,
    2.0,
    125.0,
    -125.0,
    1e5,
    8e6,
    1e30,
    np.pi,
    -np.pi,
    1e-8,
]
SIZES = (1, 7, 8, 15, 16, 17, 33, 2000, 2003)


def spread(n, seed, lo, hi, dtype):
    """n values in [lo, hi], the same on every machine."""
    u = np.abs(values(n, seed, "float64"))
    frac = (u % 1000003.0) / 1000003.0
    return (lo + (hi - lo) * frac).astype(dtype)


def unary_input(op, n, dtype):
    lo, hi = UNARY[op]
    x = spread(n, 11, lo, hi, dtype)
    if n >= 2000:
        x[: len(EDGES)] = np.asarray(EDGES, dtype=dtype)
    return x


POW_EXPONENTS = (4, 5, -3, 0.5, 1.5, 2.5, -0.7, 7, 1 / 3, 0.0001)


def pow_input(n):
    x = spread(n, 13, -6.0, 6.0, "float32")
    if n >= 2000:
        x[: len(EDGES)] = np.asarray(EDGES, dtype="float32")
    return x


#: the activations whose kernels (forward, backward, and the backward's backward)
#: gradcli follows (gradcli/numerics/floats/torch_exp.py, gradcli/ops/fused_grads.py)
ACTIVATIONS = ("sigmoid", "tanh")
ACT_SIZES = SIZES + (40000, 70001)  # above 32768 values torch cuts the range in threads


def act_input(n, dtype):
    x = spread(n, 31, -20.0, 20.0, dtype)
    if n >= 2000:
        x[: len(EDGES)] = np.asarray(EDGES, dtype=dtype)
    return x


#: SLEEF's log1p/expm1/sinh/cosh and the kernels on them (gradcli/numerics/floats/sleef_u10.py,
#: torch_act.py), ATen's own digamma and its gradient's trigamma (floats/digamma.py), and
#: SLEEF's lgamma (floats/sleef_lgamma.py): function text in x -> the interval its inputs are spread over; the edge
#: values go first (rotated by n, so that the small sizes, all left-over values, see
#: different ones) and, from 2000 values on, last too (in the left-over values of sinh's)
U10 = {
    "torch.log1p(x)": (-1.2, 20.0),
    "torch.expm1(x)": (-40.0, 100.0),
    "torch.sinh(x)": (-100.0, 100.0),
    "torch.cosh(x)": (-720.0, 720.0),
    "F.softplus(x)": (-30.0, 30.0),
    "F.softplus(x, 0.5, 4.0)": (-100.0, 100.0),
    "F.elu(x)": (-30.0, 30.0),
    "F.logsigmoid(x)": (-100.0, 100.0),
    "torch.digamma(x)": (-30.0, 30.0),
    "torch.special.psi(x * 1e3)": (-5.0, 5.0),
    "torch.lgamma(x)": (-30.0, 30.0),
    "torch.special.gammaln(x * 1e3)": (-5.0, 5.0),
}


def u10_input(text, n, dtype):
    lo, hi = U10[text]
    x = spread(n, 51, lo, hi, dtype)
    edges = np.roll(np.asarray(EDGES + [-0.5, -1.0 + 2**-20, -2.0, 1e38, 89.5], dtype=dtype), n)
    k = min(n, len(edges))
    x[:k] = edges[:k]
    if n >= 2000:
        x[-len(edges) :] = edges[::-1]
    return x


#: the sizes of torch.lgamma's sweep of each dtype's whole range (`lgamma_input`)
LGAMMA_SIZES = (5000, 5003)


def lgamma_input(n, dtype):
    """n values over the dtype's whole range, m * 2^e with m in [1, 2) and e over every
    exponent from the smallest subnormal's to the largest, the signs alternating; then a
    quarter of them beside the poles (0 and the negative integers to -200, within 1e-6),
    a sixteenth within 1e-3 of 1 and as many of 2, and the edge values first."""
    lo, hi = (-1074.0, 1024.0) if dtype == "float64" else (-149.0, 128.0)
    m = 1.0 + spread(n, 61, 0.0, 1.0, "float64")
    e = np.floor(spread(n, 62, lo, hi, "float64")).astype(np.int64)
    x = np.minimum(np.ldexp(m, e), float(np.finfo(dtype).max))
    x[1::2] = -x[1::2]
    k, j = n // 4, n // 16
    x[:k] = -np.floor(spread(k, 63, 0.0, 200.0, "float64")) + spread(k, 64, -1e-6, 1e-6, "float64")
    x[k : k + j] = 1.0 + spread(j, 65, -1e-3, 1e-3, "float64")
    x[k + j : k + 2 * j] = 2.0 + spread(j, 66, -1e-3, 1e-3, "float64")
    edges = EDGES + [-0.5, -1.0 + 2**-20, -2.0, 2.3, 7.0, 1.1, 1.2, 1e-306, 1e-30, 2.0**28 + 0.5]
    x[: len(edges)] = edges
    return x.astype(dtype)


#: expressions in x (and t, a tensor of values in [0, 1)) whose values and gradients
#: gradcli computes as torch's kernels do: the same text runs under torch and gradcli
EXPRESSIONS = {
    "mse_loss": "F.mse_loss(x, t)",
    "mse_loss_sum": "F.mse_loss(x, t, reduction='sum')",
    "mse_loss_none": "F.mse_loss(x, t, reduction='none')",
    "bce": "F.binary_cross_entropy(torch.sigmoid(x), t)",
    "bce_sum": "F.binary_cross_entropy(torch.sigmoid(x), t, reduction='sum')",
    # each value of its scalar kernel (glibc's logf and log1pf): a mean hides a last bit
    "bce_none": "F.binary_cross_entropy(torch.sigmoid(x), t, reduction='none')",
    "bce_binary_none": "F.binary_cross_entropy(torch.sigmoid(x), t.round(), reduction='none')",
    "bce_weight_none": "F.binary_cross_entropy(torch.sigmoid(x * 3), t.round(), weight=t, "
    "reduction='none')",
    # Stirling's term: torch.log's float32 values; the target's gradient in ATen's order
    "poisson_full_none": "F.poisson_nll_loss(x, t * 10, full=True, reduction='none')",
    "poisson_full_target": "F.poisson_nll_loss(t, x.abs() * 3, full=True, reduction='none')",
    "bce_logits": "F.binary_cross_entropy_with_logits(x, t)",
    "bce_logits_none": "F.binary_cross_entropy_with_logits(x, t, reduction='none')",
    "silu": "F.silu(x)",
    "softplus": "F.softplus(x)",
    "div_both": "(x * 0.5 + t) / (x.abs() + 0.5)",
    "log10": "torch.log10(x.abs() + 0.1)",
    "log2": "torch.log2(x.abs() + 0.1)",
    "asin": "torch.asin(torch.tanh(x))",
    "acos": "torch.acos(torch.tanh(x))",
    "relu": "torch.relu(x)",
    "exp": "torch.exp(x)",
    "sin": "torch.sin(x)",
    "mul": "x * t",
    "pow3": "x ** 3",
    "mean": "x.mean()",
    "sum": "x.sum()",
    "sum0": "x.sum(0)",
    "l1_loss": "F.l1_loss(x, t)",
    "leaky_relu": "F.leaky_relu(x, 0.1)",
    "clamp": "torch.clamp(x, -1, 1)",
    "softmax_last": "F.softmax(x, 1)",
    "log_softmax_last": "F.log_softmax(x, -1)",
    "softmax_long_rows": "F.softmax(x.reshape(7, -1), 1)",
    "log_softmax_long_rows": "F.log_softmax(x.reshape(7, -1), 1)",
    "cross_entropy": "F.cross_entropy(x, (t[:, 0] * 7).long())",
    "sum_last": "x.sum(1)",
    "mean_last": "x.mean(-1, keepdim=True)",
    "sum_long_rows": "x.reshape(7, -1).sum(1)",
    "mean_long_rows": "x.reshape(7, -1).mean(1)",
    "sum_middle": "x.reshape(-1, 7, 1).sum(1)",
    "logsumexp": "torch.logsumexp(x, 1)",
    "logsumexp_long": "torch.logsumexp(x.reshape(7, -1), 1)",
    "cumsum_last": "torch.cumsum(x, 1)",
    "cumsum_first": "torch.cumsum(x, 0)",
    "prod": "(x[:3] * 0.1 + 1).prod()",
    "prod_dim": "(x * 0.1 + 1).prod(1)",
    "var": "x.var()",
    "std": "x.std()",
    "var_biased": "x.var(unbiased=False)",
    "std_keepdim": "x.std(dim=(0, 1), keepdim=True)",
    # SLEEF's log1p/expm1/sinh/cosh (gradcli/numerics/floats/sleef_u10.py) and the kernels built on them
    # (gradcli/numerics/floats/torch_act.py); the scaled inputs reach the special cases (overflow, the
    # log1p bound 1e38, below -1)
    "log1p": "torch.log1p(x * 0.24)",
    "log1p_huge": "torch.log1p(x * 1e38)",
    "log1p_below": "torch.log1p(-x.abs() * 0.3)",
    "expm1": "torch.expm1(x)",
    "expm1_wide": "torch.expm1(x * 30)",
    "sinh": "torch.sinh(x)",
    "cosh": "torch.cosh(x)",
    "sinh_wide": "torch.sinh(x * 30)",
    "cosh_wide": "torch.cosh(x * 200)",
    "softplus_beta": "F.softplus(x, 2.0, 3.0)",
    "elu": "F.elu(x)",
    "elu_alpha": "F.elu(x, 0.7)",
    "bce_logits_sum": "F.binary_cross_entropy_with_logits(x * 9, t, reduction='sum')",
    "bce_logits_pw": "F.binary_cross_entropy_with_logits(x, t, pos_weight=t + 0.5)",
    "bce_logits_w_pw": "F.binary_cross_entropy_with_logits(x * 5, t, weight=t, pos_weight=t * 3, "
    "reduction='none')",
    "logsigmoid": "F.logsigmoid(x * 9)",
    "bce_logits_target": "F.binary_cross_entropy_with_logits(t * 8 - 4, x.sigmoid())",
    "bce_logits_target_pw": "F.binary_cross_entropy_with_logits(t * 8 - 4, x.sigmoid(), pos_weight=t + 0.5)",
    "elu_grad2": "torch.autograd.grad(F.elu(x, 0.7), x, t, create_graph=True)[0]",
    "logsigmoid_grad2": "torch.autograd.grad(F.logsigmoid(x * 3), x, t, create_graph=True)[0]",
    # views: TensorIterator walks a transposed tensor in memory order, x[::2] row by row,
    # x[:, ::2] with the scalar code only (gradcli/numerics/floats/tensor_iter.py)
    "sinh_t": "torch.sinh(x.t())",
    "cosh_rows": "torch.cosh(x[::2])",
    "sinh_cols": "torch.sinh(x[:, ::2])",
    "sigmoid_t": "torch.sigmoid(x.t())",
    "softplus_t": "F.softplus(x.t() * 3)",
    "elu_slice": "F.elu(x[:, 1:6])",
    "silu_t": "F.silu(x.t())",
    # the gradient torch hands these kernels: a mean's is dense, a sum's expanded (stride 0)
    "silu_mean0": "F.silu(x).mean(0)",
    "softplus_sum0": "F.softplus(x).sum(0)",
    "elu_mean1": "F.elu(x).mean(1)",
    "silu_sum1": "F.silu(x).sum(1)",
    "mean0": "x.mean(0)",
    "mean0_keepdim": "x.mean(0, keepdim=True)",
}
#: expressions whose gradient, taken with create_graph, PyTorch records as one fused
#: backward op: its grad_fn name is compared (tests/numerics/test_exact_numerics.py)
DOUBLE_NAMES = {
    "mse_loss": "F.mse_loss(x, t)",
    "mse_loss_none": "F.mse_loss(x, t, reduction='none')",
    "log_softmax": "F.log_softmax(x, 1)",
    "softmax": "F.softmax(x, 1)",
    "softmax_dim0": "F.softmax(x, 0)",
    "cross_entropy": "F.cross_entropy(x, (t[:, 0] * 7).long())",
    "tanh": "torch.tanh(x)",
    "sigmoid": "torch.sigmoid(x)",
    "softplus": "F.softplus(x)",
    "relu": "torch.relu(x)",
    "elu": "F.elu(x)",
    "silu": "F.silu(x)",
    "exp": "torch.exp(x)",
    "bce_logits": "F.binary_cross_entropy_with_logits(x, t)",
}

#: whose forward values still differ from torch's in the last bit (only the gradient is
#: compared)
FORWARD_DIFFERS: set = set()
EXPR_SHAPES = ((1, 7), (286, 7), (5715, 7))  # 7, 2002 and 40005 values (two threads' ranges)


def expr_inputs(shape, dtype):
    """(x, t, g): the expression's input, its second operand and the gradient given."""
    n = int(np.prod(shape))
    x = spread(n, 41, -4.0, 4.0, dtype).reshape(shape)
    t = spread(n, 42, 0.0, 0.999, dtype).reshape(shape)
    g = spread(n, 43, -1.0, 1.0, dtype).reshape(shape)
    return x, t, g


#: (rows, inner, cols) of the matrix products
MM_SHAPES = [
    (1, 1, 1),
    (2, 3, 4),
    (5, 1, 7),
    (7, 5, 1),
    (1, 2000, 3),
    (2000, 3, 1),
    (64, 100, 10),
    (33, 65, 17),
    (3, 300, 2),
]
DOT_SIZES = (1, 7, 8, 100, 2000, 4097)


def matrix(shape, seed, dtype, transposed=False):
    """A matrix of `shape`; transposed: stored as its transpose (a column-major view)."""
    n = int(np.prod(shape))
    a = spread(n, seed, -2.0, 2.0, dtype)
    if transposed:
        return a.reshape(shape[::-1]).T
    return a.reshape(shape)


#: (rows, classes) of the log_softmax / cross-entropy cases
CE_SHAPES = [
    (1, 1),
    (3, 2),
    (5, 3),
    (4, 7),
    (64, 8),
    (64, 10),
    (100, 17),
    (7, 33),
    (1000, 10),
    (16, 512),
]
#: (rows, columns) of the sums over rows (a bias's gradient)
OUTER_SHAPES = [(1, 5), (64, 10), (64, 512), (3, 32), (17, 40), (300, 7), (100, 65), (2, 1)]


def ce_input(b, c):
    x = spread(b * c, 21, -6.0, 6.0, "float32").reshape(b, c)
    t = np.abs(values(b, 22, "float64")).astype(np.int64) % c
    return x, t


#: (shape, dim) of the softmax / log_softmax cases over a dim other than the last
#: (gradcli/numerics/floats/softmax_dim.py; tests/golden/softmax_dims.json)
SOFTMAX_DIMS = [
    ((300, 200), 0),
    ((5, 7), 0),
    ((4, 3, 10), 1),
    ((4, 3, 10), 0),
    ((2, 50, 3, 4), 1),
    ((3, 9, 1), 1),
    ((100, 1000), 0),
    ((64, 3, 500), 1),
    ((10, 4096), 0),
    ((7, 33, 65), 1),
    ((2, 3, 4, 5), 2),
    ((2, 12), 0),
    ((3, 5, 9), 1),
    ((2, 20), 0),
    ((3, 40), 0),
    ((2, 33), 0),
    ((5, 64), 0),
    ((2, 2, 17), 1),
    ((9, 2, 100), 1),
    ((3, 300, 7), 0),
    ((6, 17, 3), 0),
    ((2, 1000), 0),
    ((4, 8, 8, 8), 1),
    ((2, 3, 3), 0),
    ((50, 50), 0),
    ((3, 70000), 0),
    ((6, 20), 0),
]


def softmax_input(shape, dtype):
    """(x, g): the input (values in [-12, 12]; the (6, 20) case with inf, -inf, nan, a
    column of -inf and +-100 in it) and the gradient given."""
    n = int(np.prod(shape))
    x = spread(n, 51, -12.0, 12.0, dtype).reshape(shape)
    if shape == (6, 20):
        x[2, 3], x[4, 7], x[1, 10], x[0, 0], x[3, 5] = np.inf, -np.inf, np.nan, 100.0, -100.0
        x[:, 15] = -np.inf
    return x, spread(n, 52, -1.0, 1.0, dtype).reshape(shape)


#: (shape, dim, keepdim, correction) of the var / std cases over some dims
#: (gradcli/numerics/sums/welford.py; tests/golden/var_dims.json)
VAR_DIMS = [
    ((300, 200), 1, False, 1),
    ((300, 200), 0, True, 1),
    ((5, 7, 9), 1, False, 0),
    ((2, 5000), 1, False, 1),
    ((100, 3), 0, False, 2),
    ((4, 40000), 1, True, 1),
    ((70000, 2), 0, False, 1),
    ((8, 16, 33), 2, False, 1),
    ((6, 5, 4), (0, 2), False, 1),
    ((6, 5, 4), (0, 1), True, 0),
    ((1, 3000), 1, False, 1),
    ((3000, 1), 0, True, 1),
    ((1, 50, 1), 1, False, 1),
    ((7, 1), 1, False, 0),
    ((65, 70), -1, False, 1),
    ((3, 4, 5, 6), (1, 3), False, 1),
    ((9, 12), 0, False, 1),
]


def var_input(shape, dtype):
    """(x, g): the input (the (9, 12) case with inf, -inf, nan, a constant column and
    huge values in it) and the gradient given."""
    n = int(np.prod(shape))
    x = spread(n, 61, -5.0, 7.0, dtype).reshape(shape)
    if shape == (9, 12):
        x[2, 3], x[4, 7], x[1, 10] = np.inf, -np.inf, np.nan
        x[:, 5] = 1.25
        x[:, 6] = spread(9, 62, 1e18, 3e18, dtype)
    return x, spread(n, 63, -1.0, 1.0, dtype).reshape(shape)


def nan_digest(a):
    """A value's bytes as a sha256 (conftest.digest's), every NaN written as one NaN: how
    the softmax and var goldens record arrays (torch's vector max leaves all-ones NaNs,
    which print as any other NaN; gradcli does not copy the bits of a NaN)."""
    a = np.array(a)
    a[np.isnan(a)] = np.nan
    return hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()


#: (shape, permutation) of the sums and means of all of a permuted tensor (summed in
#: memory order: gradcli/numerics/sums/summation.py in_memory_order; tests/golden/permuted_sums.json)
PERMUTED_SUMS = [
    ((300, 200), (1, 0)),
    ((40, 30, 20), (2, 0, 1)),
    ((5, 7), (1, 0)),
    ((3, 70000), (1, 0)),
    ((100, 3, 40), (1, 2, 0)),
    ((2, 3), (1, 0)),
    ((9, 1, 40), (2, 1, 0)),
]


#: (base shape, exponent shape) of float32 `tensor ** tensor` (gradcli/numerics/floats/powers.py
#: torch_pow_tensor; tests/golden/pow_tensors.json)
POW_TENSORS = [
    ((300, 7), (300, 7)),
    ((5,), (5,)),
    ((40, 33), (33,)),
    ((17,), ()),
    ((3, 1), (1, 20)),
    ((2000,), (2000,)),
    ((40000,), (40000,)),
    ((7, 300), (300, 7)),
]


def pow_tensor_input(sa, sb, dtype="float32"):
    """(base, exponent, g) in `dtype`: bases in [0, 4] with 0, 1, 2, 0.5 first, exponents
    in [-3, 3] with 0, 2, -1, 0.5 first; the last case's exponent is transposed (a view)."""
    a = spread(int(np.prod(sa)), 81, 0.0, 4.0, dtype).reshape(sa)
    b = spread(int(np.prod(sb)), 82, -3.0, 3.0, dtype).reshape(sb)
    for v, firsts in ((a, [0.0, 1.0, 2.0, 0.5]), (b, [0.0, 2.0, -1.0, 0.5])):
        if v.size > 10:
            v.reshape(-1)[:4] = firsts
    if sb == sa[::-1] and sa != sb:
        b = b.T  # (a view: the kernel walks it in memory order)
    shape = np.broadcast_shapes(a.shape, b.shape)
    return a, b, spread(int(np.prod(shape)), 83, -1.0, 1.0, dtype).reshape(shape)


#: float64 `x ** e` and x's gradient (tests/golden/pow_tensors.json, "e" cases): SLEEF's
#: double pow on whole blocks of 8, the C library's on the rest (numerics/floats/sleef_powd.py)
POW_SCALARS = (1.5, 0.3, -1.7, 2.5, 4, 7, -3, 1 / 3, 10.5, 0.25, 100, 1e-05, -0.75, 1.1, 3.7, 0, 1)
POW_SCALAR_SHAPES = ((2000,), (13,), (40000,), (7, 300))
_POW_EDGES = (
    0.0,
    -0.0,
    np.inf,
    -np.inf,
    np.nan,
    1.0,
    -1.0,
    5e-324,
    2e-308,
    1e308,
    -2.0,
    0.5,
    1.0000000000000002,
    0.9999999999999999,
)


def pow_scalar_input(shape):
    """(base, g), float64: bases in [-4, 4] with the edge values first (for 2,000 values,
    also bases from 2^-990 to 2^990); the (7, 300) base is transposed (a view)."""
    n = int(np.prod(shape))
    x = spread(n, 84, -4.0, 4.0, "float64")
    if n >= 2000:
        x[: len(_POW_EDGES)] = _POW_EDGES
        # (2^k times [1, 2): no libm call, whose last bits follow NumPy's CPU dispatch)
        x[100:400] = np.ldexp(
            spread(300, 85, 1.0, 2.0, "float64"),
            np.rint(spread(300, 87, -990.0, 990.0, "float64")).astype(np.int64),
        )
    x = x.reshape(shape[::-1]).T if len(shape) == 2 else x.reshape(shape)
    return x, spread(n, 86, -1.0, 1.0, "float64").reshape(x.shape)


#: float32 bases raised to exponents of another dtype (the result is float32; torch's
#: gradients compute in it): (exponent dtype, exponent shape)
POW_MIXED = [("int64", (2000,)), ("int64", ()), ("float64", ())]


def pow_mixed_input(dtype, shape):
    """(base, exponent, g): 2,000 float32 bases in [0.1, 4], the exponent in `dtype`
    (ints in [-3, 3], or 1.7)."""
    a = spread(2000, 91, 0.1, 4.0, "float32")
    if dtype == "int64":
        b = np.rint(spread(int(np.prod(shape)), 92, -3.0, 3.0, "float64")).astype(np.int64)
        b = b.reshape(shape)
    else:
        b = np.array(1.7, dtype=dtype)
    return a, b, spread(2000, 93, -1.0, 1.0, "float32")


#: F.batch_norm (tests/golden/batch_norm.json): input shapes, each in training and in
#: evaluation, with and without weight and bias, float32 and float64.  (N, C) and
#: (N, C, 1, ...) take ATen's channels-last kernels, the others its contiguous ones:
#: rows of L values shorter than, equal to and longer than a vector, odd and even L.
BATCH_NORM = [
    (32, 100),
    (8, 27),
    (2, 5),
    (2, 40),
    (40, 7),
    (4, 2, 1),
    (2, 4, 1, 1),
    (5, 3, 9),
    (32, 128, 4),
    (2, 3, 7),
    (6, 5, 17),
    (16, 24, 2),
    (3, 2, 33),
    (1, 3, 12),
    (9, 40, 3),
    (2, 130, 7),
    (4, 6, 5, 3),
    (3, 9, 2, 2),
]


#: F.batch_norm of a permuted input (tests/golden/batch_norm.json): (shape, permutation),
#: each also with its gradient arriving transposed (dims 0 and 1 of the result swapped
#: downstream).  A channels-last 4-d layout takes ATen's channels-last kernels, the
#: others its general path (TensorIterator's order, nothing fused).
BATCH_NORM_LAYOUTS = [
    ((6, 10, 5), (0, 2, 1)),
    ((32, 4, 128), (0, 2, 1)),
    ((3, 4, 5, 6), (0, 3, 1, 2)),
    ((2, 3, 3, 40), (0, 3, 1, 2)),
    ((4, 3, 6, 5), (1, 3, 2, 0)),
    ((7, 12), (1, 0)),
]


def batch_norm_input(shape, dtype, perm=None):
    """(x, g, weight, bias, running_mean, running_var) of a case (the channels: dim 1 of
    x permuted by `perm`)."""
    n, c = int(np.prod(shape)), shape[1 if perm is None else perm[1]]
    return (
        spread(n, 101, -3.0, 5.0, dtype).reshape(shape),
        spread(n, 102, -1.0, 1.0, dtype).reshape(shape),
        spread(c, 103, 0.5, 1.5, dtype),
        spread(c, 104, -1.0, 1.0, dtype),
        spread(c, 105, -1.0, 1.0, dtype),
        spread(c, 106, 0.3, 1.3, dtype),
    )


#: (rows, length) of softmax / log_softmax over the last dim, both dtypes, every length
#: around the kernels' vectors (4 doubles, 8 floats) (numerics/floats/softmax64.py,
#: sleef_explog.py and their compiled rows, numerics/native_softmax.py;
#: tests/golden/softmax_rows.json)
SOFTMAX_ROWS = [
    (rows, d)
    for d in (1, 2, 3, 4, 5, 7, 8, 9, 12, 15, 16, 17, 31, 33, 100, 1000)
    for rows in ((3, 40, 41) if d < 1000 else (3, 12, 41))
]


def softmax_rows_input(shape, dtype):
    """(x, g): rows of values in [-1, 1] times a scale per row (0.01 to 300); with 41 rows,
    some rows hold edge values (which the compiled rows hand to the emulation): -inf, a row of zeros and one -0, a row of -0s, a row whose
    largest value is -0, a NaN, +inf, a row of -inf, a row of equal values, huge ones."""
    rows, d = shape
    x = spread(rows * d, 81, -1.0, 1.0, "float64").reshape(rows, d)
    x = x * np.resize([0.01, 1.0, 30.0, 0.3, 300.0, 3.0, 0.1], rows)[:, None]
    x = x.astype(dtype)
    if rows == 41:
        x[5, d // 2] = -np.inf
        x[6], x[6, d - 1] = 0.0, -0.0
        x[7] = -0.0
        x[8] = -np.abs(x[8])
        x[8, d // 3] = -0.0
        x[9, d - 1] = np.nan
        x[10, 0] = np.inf
        x[11] = -np.inf
        x[12] = 7.25
        x[13, :] = spread(d, 83, -3e37, 3e37, dtype)
    return x, spread(rows * d, 84, -1.0, 1.0, dtype).reshape(shape)
