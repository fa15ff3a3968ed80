"""Golden-file cases for gradcli: plain data, no torch import.

Every case is a short program written in the common subset of Python and the
gradcli language (SPEC.md section 2), so it can be run both

  * under real PyTorch (scripts/gen_golden.py cases, with
    ``torch.set_default_dtype(torch.float64)``, every top-level statement
    compiled in ``'single'`` mode so bare expression lines display their repr),
  * and by ``python -m gradcli eval -`` (tests/fidelity/test_golden_cases.py).

Rules for writing cases (keep them, or the two sides stop being comparable):

  * no randomness (no rand/randn): explicit values, arange, linspace;
  * ``**`` for power (``^`` is xor in Python);
  * only the built-ins of SPEC section 3, plus ``print`` and ``display``
    (``display(a, b)`` prints ``repr`` of each argument on its own line);
  * no Python-only syntax (no ``is``, comprehensions, lambdas, f-strings);
  * values shown through ``.item()`` / ``.tolist()`` (full 17-digit floats)
    only where the result is exact in binary (sums of small dyadic numbers),
    so that NumPy and torch cannot differ in the last bit;
  * no sums of results that are mathematically zero (softmax rows...), whose
    round-off would be printed.

``CASES`` is a list of ``(name, source)``; names are unique and ``/``-separated
(family/op/shape/form).  ``GRAD_FN_SETUP`` and ``GRAD_FN_EXPRS`` feed
tests/golden/grad_fn_names.json (one ``print(EXPR.grad_fn)`` per expression).
"""

CASES = []
_names = set()


def case(name, src):
    """Register a case; ``src`` may be indented (it is dedented)."""
    import textwrap

    if name in _names:
        raise ValueError("duplicate case name: " + name)
    _names.add(name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


def _lines(*lines):
    return "\n".join(lines) + "\n"


# ---------------------------------------------------------------------------
# 1. Creation functions
# ---------------------------------------------------------------------------

_CREATION = {
    "tensor/float_vec": "torch.tensor([1.0, 2.5, -3.0])",
    "tensor/float_mat": "torch.tensor([[1.0, 2.0], [3.0, 4.0]])",
    "tensor/int_vec": "torch.tensor([1, 2, 3])",
    "tensor/int_mat": "torch.tensor([[1, 2], [3, 4]])",
    "tensor/mixed_int_float": "torch.tensor([1, 2.5, 3])",
    "tensor/bool_vec": "torch.tensor([True, False, True])",
    "tensor/scalar_float": "torch.tensor(3.5)",
    "tensor/scalar_int": "torch.tensor(7)",
    "tensor/scalar_bool": "torch.tensor(True)",
    "tensor/dtype_float32": "torch.tensor([1.0, 2.0], dtype=torch.float32)",
    "tensor/dtype_float": "torch.tensor([1.5, 2.0], dtype=torch.float)",
    "tensor/dtype_float64": "torch.tensor([1, 2], dtype=torch.float64)",
    "tensor/dtype_double": "torch.tensor([1, 2], dtype=torch.double)",
    "tensor/dtype_int64": "torch.tensor([1.7, -2.7], dtype=torch.int64)",
    "tensor/dtype_long": "torch.tensor([3, 4], dtype=torch.long)",
    "tensor/dtype_bool": "torch.tensor([0, 1, 2], dtype=torch.bool)",
    "tensor/requires_grad": "torch.tensor([1.0, 2.0], requires_grad=True)",
    "tensor/requires_grad_scalar": "torch.tensor(2.0, requires_grad=True)",
    "tensor/requires_grad_float32": "torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True)",
    "tensor/nested3d": "torch.tensor([[[1.0, 2.0], [3.0, 4.0]], [[5.0, 6.0], [7.0, 8.0]]])",
    "tensor/empty": "torch.tensor([])",
    "tensor/from_tensor_0d_list": "torch.tensor([[1.0], [2.0]])",
    "ones/args": "torch.ones(2, 3)",
    "ones/tuple": "torch.ones((2, 3))",
    "ones/vec": "torch.ones(4)",
    "ones/requires_grad": "torch.ones(2, 2, requires_grad=True)",
    "ones/dtype_float32": "torch.ones(2, dtype=torch.float32)",
    "ones/dtype_int64": "torch.ones(3, dtype=torch.int64)",
    "ones/dtype_bool": "torch.ones(2, dtype=torch.bool)",
    "ones/list_shape": "torch.ones([3, 1])",
    "zeros/args": "torch.zeros(2, 3)",
    "zeros/tuple": "torch.zeros((3,))",
    "zeros/requires_grad": "torch.zeros(3, requires_grad=True)",
    "zeros/dtype_int64": "torch.zeros(2, 2, dtype=torch.long)",
    "full/float": "torch.full((2, 3), 3.5)",
    "full/int": "torch.full((3,), 7)",
    "full/bool": "torch.full((2,), True)",
    "full/requires_grad": "torch.full((2, 2), 0.5, requires_grad=True)",
    "full/dtype": "torch.full((2,), 2, dtype=torch.float32)",
    "full/list_shape": "torch.full([2, 2], -1.25)",
    "eye/square": "torch.eye(3)",
    "eye/rect": "torch.eye(2, 3)",
    "eye/requires_grad": "torch.eye(2, requires_grad=True)",
    "eye/dtype_int64": "torch.eye(2, dtype=torch.int64)",
    "arange/int_stop": "torch.arange(5)",
    "arange/int_start_stop": "torch.arange(2, 6)",
    "arange/int_step": "torch.arange(1, 10, 3)",
    "arange/float_stop": "torch.arange(4.0)",
    "arange/float_step": "torch.arange(0, 1, 0.25)",
    "arange/negative_step": "torch.arange(5, 0, -1)",
    "arange/negative_float_step": "torch.arange(1.0, -1.0, -0.5)",
    "arange/dtype_float64": "torch.arange(4, dtype=torch.float64)",
    "arange/dtype_float32": "torch.arange(3, dtype=torch.float32)",
    "arange/requires_grad": "torch.arange(3.0, requires_grad=True)",
    "arange/empty": "torch.arange(0)",
    "linspace/basic": "torch.linspace(0, 1, 5)",
    "linspace/steps_kw": "torch.linspace(-1, 1, steps=3)",
    "linspace/one_step": "torch.linspace(2, 3, 1)",
    "linspace/float32": "torch.linspace(0, 2, 3, dtype=torch.float32)",
    "linspace/requires_grad": "torch.linspace(0, 1, 3, requires_grad=True)",
    "linspace/decreasing": "torch.linspace(1, 0, 4)",
}
for _n, _e in _CREATION.items():
    case(
        "creation/" + _n,
        _lines("t = " + _e, "t", "print(t.shape, t.dtype, t.requires_grad, t.is_leaf)"),
    )

case(
    "creation/ones_like/float",
    """
    x = torch.tensor([[1.5, 2.5, 3.5]])
    torch.ones_like(x)
    x.shape
""",
)
case(
    "creation/ones_like/int",
    """
    x = torch.tensor([1, 2, 3])
    torch.ones_like(x)
""",
)
case(
    "creation/ones_like/float32",
    """
    x = torch.tensor([1.0, 2.0], dtype=torch.float32)
    torch.ones_like(x)
""",
)
case(
    "creation/ones_like/requires_grad_not_inherited",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    o = torch.ones_like(x)
    o
    o.requires_grad
""",
)
case(
    "creation/ones_like/requires_grad_kw",
    """
    x = torch.tensor([1.0, 2.0])
    torch.ones_like(x, requires_grad=True)
""",
)
case(
    "creation/ones_like/dtype_kw",
    """
    x = torch.tensor([1, 2])
    torch.ones_like(x, dtype=torch.float64)
""",
)
case(
    "creation/zeros_like/float",
    """
    x = torch.tensor([[1.5, 2.5], [3.5, 4.5]])
    torch.zeros_like(x)
""",
)
case(
    "creation/zeros_like/int",
    """
    x = torch.tensor([[1, 2], [3, 4]])
    torch.zeros_like(x)
""",
)
case(
    "creation/zeros_like/scalar",
    """
    x = torch.tensor(5.0, requires_grad=True)
    torch.zeros_like(x)
""",
)
case(
    "creation/zeros_like/requires_grad_kw",
    """
    x = torch.tensor([1.0, 2.0, 3.0])
    z = torch.zeros_like(x, requires_grad=True)
    z
    z.is_leaf
""",
)
case(
    "creation/variable",
    """
    from torch.autograd import Variable
    x = Variable(torch.ones(2, 2), requires_grad=True)
    x
    x.is_leaf
    print(x.grad_fn)
""",
)
case(
    "creation/variable_no_grad",
    """
    from torch.autograd import Variable
    x = Variable(torch.tensor([1.0, 2.0]))
    x
    x.requires_grad
""",
)
case(
    "creation/floattensor",
    """
    g = torch.FloatTensor([0.1, 1.0, 0.0001])
    g
    g.dtype
""",
)
case(
    "creation/tensor_of_tensor_requires_grad_leaf_grad",
    """
    x = torch.ones(2, 2, requires_grad=True)
    y = (x * 3).sum()
    y.backward()
    x.grad
""",
)
case(
    "creation/error/int_requires_grad",
    """
    x = torch.tensor([1, 2, 3], requires_grad=True)
""",
)
case(
    "creation/error/arange_int_requires_grad",
    """
    print("before")
    x = torch.arange(3, requires_grad=True)
""",
)
case(
    "creation/error/ones_int_requires_grad",
    """
    x = torch.ones(2, dtype=torch.int64, requires_grad=True)
""",
)


# ---------------------------------------------------------------------------
# 2. Element-wise unary functions: function and method forms, 3 shapes
# ---------------------------------------------------------------------------

_POS_INIT = {
    "scalar": "x = torch.tensor(2.0, requires_grad=True)",
    "vec": "x = torch.tensor([0.25, 1.0, 4.0], requires_grad=True)",
    "mat": "x = torch.tensor([[0.5, 1.0, 2.0], [3.0, 10.0, 100.0]], requires_grad=True)",
}
_GEN_INIT = {
    "scalar": "x = torch.tensor(-0.75, requires_grad=True)",
    "vec": "x = torch.tensor([-1.5, -0.5, 0.0, 0.5, 1.5, 2.5], requires_grad=True)",
    "mat": "x = torch.tensor([[-1.25, 0.3, 2.7], [0.5, -2.5, 1.0]], requires_grad=True)",
}
_POS_OPS = ["log", "log2", "log10", "sqrt"]
_GEN_OPS = [
    "exp",
    "sin",
    "cos",
    "tan",
    "tanh",
    "sigmoid",
    "relu",
    "abs",
    "neg",
    "square",
    "sign",
    "floor",
    "ceil",
    "round",
]


def _unary_src(init, expr, scalar):
    return _lines(
        init,
        "y = " + expr,
        "y",
        "print(y.grad_fn)",
        "y.backward()" if scalar else "y.sum().backward()",
        "x.grad",
    )


for _op in _POS_OPS + _GEN_OPS:
    _inits = _POS_INIT if _op in _POS_OPS else _GEN_INIT
    for _shape, _init in _inits.items():
        case(
            "unary/%s/%s/func" % (_op, _shape),
            _unary_src(_init, "torch.%s(x)" % _op, _shape == "scalar"),
        )
        case(
            "unary/%s/%s/method" % (_op, _shape),
            _unary_src(_init, "x.%s()" % _op, _shape == "scalar"),
        )

case("unary/neg/vec/operator", _unary_src(_GEN_INIT["vec"], "-x", False))
case("unary/neg/mat/operator", _unary_src(_GEN_INIT["mat"], "-x", False))
case("unary/neg/scalar/operator", _unary_src(_GEN_INIT["scalar"], "-x", True))
case("unary/abs/vec/builtin", _unary_src(_GEN_INIT["vec"], "abs(x)", False))
case("unary/relu/vec/F", _unary_src(_GEN_INIT["vec"], "F.relu(x)", False))
case("unary/relu/mat/F", _unary_src(_GEN_INIT["mat"], "F.relu(x)", False))
case("unary/exp/chain", _unary_src(_GEN_INIT["vec"], "torch.exp(torch.sin(x)) * x", False))
case("unary/log_exp/chain", _unary_src(_GEN_INIT["mat"], "x.exp().log()", False))
case("unary/sqrt_square/chain", _unary_src(_POS_INIT["vec"], "x.square().sqrt()", False))

# digamma: its poles (0, the negative integers) and both sides of them, in float32 and float64
_DIGAMMA_INIT = {
    "vec": "x = torch.tensor([-2.5, -1.0, -0.5, -0.0, 0.0, 1e-3, 0.5, 1.4616, 9.99, 10.0, 123.25], "
    "requires_grad=True)",
    "f64": "x = torch.tensor([-7.3, -2.0, -0.25, 0.0, 0.3, 1.0, 3.5, 10.0, 1e6, float('inf'), "
    "float('nan')], dtype=torch.float64, requires_grad=True)",
}
for _shape, _init in _DIGAMMA_INIT.items():
    case("unary/digamma/%s/func" % _shape, _unary_src(_init, "torch.digamma(x)", False))
    case("unary/digamma/%s/method" % _shape, _unary_src(_init, "x.digamma()", False))
    case(
        "unary/digamma/%s/special" % _shape,
        _unary_src(_init, "torch.special.digamma(x) + torch.special.psi(x * 2)", False),
    )
case("unary/digamma/int_input", "t = torch.tensor([1, 2, 3])\ntorch.digamma(t)\n")

# lgamma: its poles (0, the negative integers: inf, the gradient nan or inf), 1 and 2 (0),
# tiny and huge values, in float32 and float64; in place; a number is torch's TypeError
_LGAMMA_INIT = {
    "vec": "x = torch.tensor([-2.5, -1.0, -0.5, -0.0, 0.0, 1e-3, 0.5, 1.0, 1.4616, 2.0, 9.99, "
    "123.25, 1e30, 3e38], requires_grad=True)",
    "f64": "x = torch.tensor([-7.3, -2.0, -0.25, 0.0, 1e-310, 0.3, 1.0, 2.0, 3.5, 1e6, 1e300, "
    "float('inf'), float('-inf'), float('nan')], dtype=torch.float64, requires_grad=True)",
}
for _shape, _init in _LGAMMA_INIT.items():
    case("unary/lgamma/%s/func" % _shape, _unary_src(_init, "torch.lgamma(x)", False))
    case("unary/lgamma/%s/method" % _shape, _unary_src(_init, "x.lgamma()", False))
    case(
        "unary/lgamma/%s/special" % _shape,
        _unary_src(_init, "torch.special.gammaln(x) + torch.special.gammaln(x * 2)", False),
    )
case("unary/lgamma/int_input", "t = torch.tensor([1, 2, 3])\ntorch.lgamma(t)\n")
case(
    "unary/lgamma/inplace",
    _lines(
        "x = torch.tensor([0.5, 3.0, -2.5], requires_grad=True)",
        "y = x * 2",
        "y.lgamma_()",
        "print(y.grad_fn)",
        "y.sum().backward()",
        "x.grad",
    ),
)
case("unary/lgamma/number", "torch.lgamma(3.0)\n")

_F32 = "x = torch.tensor([0.5, 1.0, 2.0], dtype=torch.float32, requires_grad=True)"
for _op in ["exp", "log", "sqrt", "sigmoid", "tanh", "abs", "neg", "square", "relu", "sin"]:
    case("unary/%s/float32/method" % _op, _unary_src(_F32, "x.%s()" % _op, False))

case(
    "unary/int_input/exp",
    """
    t = torch.tensor([0, 1, 2])
    torch.exp(t)
""",
)
case(
    "unary/int_input/sqrt",
    """
    t = torch.tensor([1, 4, 9])
    t.sqrt()
""",
)
case(
    "unary/int_input/abs_neg",
    """
    t = torch.tensor([-2, 0, 3])
    t.abs()
    -t
    torch.neg(t)
    t.square()
""",
)
case(
    "unary/int_input/sign_relu",
    """
    t = torch.tensor([-2, 0, 3])
    torch.sign(t)
    torch.relu(t)
""",
)
case(
    "unary/int_input/floor_round",
    """
    t = torch.tensor([-2, 0, 3])
    t.floor()
    t.round()
    torch.ceil(t)
""",
)
case(
    "unary/int_input/sigmoid_log",
    """
    t = torch.tensor([0, 1, 2])
    torch.sigmoid(t)
    torch.log(t)
""",
)


# ---------------------------------------------------------------------------
# 3. pow, clamp, maximum, minimum, where
# ---------------------------------------------------------------------------

_PX = "x = torch.tensor([0.5, 1.0, 2.0, 3.0], requires_grad=True)"
_PM = "x = torch.tensor([[0.5, 1.0], [2.0, 4.0]], requires_grad=True)"
_PS = "x = torch.tensor(1.5, requires_grad=True)"
for _shape, _init in (("vec", _PX), ("mat", _PM), ("scalar", _PS)):
    _sc = _shape == "scalar"
    case("pow/int_exp/%s/func" % _shape, _unary_src(_init, "torch.pow(x, 2)", _sc))
    case("pow/int_exp/%s/method" % _shape, _unary_src(_init, "x.pow(2)", _sc))
    case("pow/int_exp/%s/operator" % _shape, _unary_src(_init, "x ** 2", _sc))
    case("pow/half/%s/method" % _shape, _unary_src(_init, "x.pow(0.5)", _sc))
    case("pow/neg_exp/%s/func" % _shape, _unary_src(_init, "torch.pow(x, -1)", _sc))
    case("pow/cube/%s/operator" % _shape, _unary_src(_init, "x ** 3", _sc))
    case("pow/base_number/%s/operator" % _shape, _unary_src(_init, "2 ** x", _sc))
    case("pow/base_number/%s/func" % _shape, _unary_src(_init, "torch.pow(2, x)", _sc))
    case("pow/self/%s/operator" % _shape, _unary_src(_init, "x ** x", _sc))
case(
    "floordiv/float_number",
    """
x = torch.tensor([5.0, -7.0, 0.5, -0.5])
display(x // 2, x // -2, x // 0.75, 7 // torch.tensor([2.0, -2.0]), x // 0)
""",
)
case(
    "floordiv/int",
    """
n = torch.tensor([7, -7, 6, 0])
display(n // 2, n // -2, n // 2.5, torch.floor_divide(n, 3), n.floor_divide(4))
""",
)
case(
    "floordiv/requires_grad",
    """
x = torch.tensor([5.0, -7.0], requires_grad=True)
y = x // 2
display(y, y.requires_grad)
""",
)
case(
    "floordiv/error_backward",
    """
x = torch.tensor([5.0, -7.0], requires_grad=True)
torch.sum(x // 2).backward()
""",
)
case(
    "floordiv/error_int_zero",
    """
n = torch.tensor([7, -7])
display(n // torch.tensor([1, 0]))
""",
)
case(
    "remainder/error_int_zero",
    """
n = torch.tensor([7, -7])
display(n % 0)
""",
)
case(
    "remainder/number_tensor",
    """
x = torch.tensor([5.0, -7.0, 2.5], requires_grad=True)
display(2 % x, 7.5 % x)
""",
)
case(
    "remainder/number_tensor_backward",
    """
x = torch.tensor([5.0, -7.0], requires_grad=True)
torch.sum(2 % x).backward()
""",
)
case("pow/zero_exp", _unary_src(_PX, "x ** 0", False))
case("pow/one_exp", _unary_src(_PX, "x ** 1", False))
case(
    "pow/float_exp_neg_base",
    _unary_src("x = torch.tensor([-2.0, -1.0, 1.0], requires_grad=True)", "x ** 2.0", False),
)
case(
    "pow/fractional_neg_base_nan",
    _unary_src("x = torch.tensor([-4.0, 4.0], requires_grad=True)", "x ** 0.5", False),
)
case(
    "pow/right_assoc",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = 2 ** x ** 2
    y
    y.sum().backward()
    x.grad
""",
)
case(
    "pow/neg_precedence",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = -x ** 2
    y
    print(y.grad_fn)
    y.sum().backward()
    x.grad
""",
)
case(
    "pow/numbers_precedence",
    """
    print(-2 ** 2)
    print(2 ** -1)
    print(2 ** 3 ** 2)
""",
)
for _fname, _expr in (
    ("tensor_tensor_func", "torch.pow(a, b)"),
    ("tensor_tensor_method", "a.pow(b)"),
    ("tensor_tensor_operator", "a ** b"),
):
    case(
        "pow/%s" % _fname,
        """
        a = torch.tensor([1.5, 2.0, 3.0], requires_grad=True)
        b = torch.tensor([2.0, -1.0, 0.5], requires_grad=True)
        y = %s
        y
        print(y.grad_fn)
        y.sum().backward()
        a.grad
        b.grad
    """
        % _expr,
    )
case(
    "pow/tensor_0d_exponent",
    """
    a = torch.tensor([1.5, 2.0, 3.0], requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    y = a ** b
    y
    print(y.grad_fn)
    y.sum().backward()
    a.grad
    b.grad
""",
)
case(
    "pow/broadcast_col_row",
    """
    a = torch.tensor([[1.0], [2.0]], requires_grad=True)
    b = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = a ** b
    y
    y.sum().backward()
    a.grad
    b.grad
""",
)
case(
    "pow/int_tensor",
    """
    t = torch.tensor([1, 2, 3])
    t ** 2
    t ** 0.5
    2 ** t
    t ** t
""",
)

_CX = "x = torch.tensor([-1.5, -0.5, 0.0, 0.5, 1.5], requires_grad=True)"
_CM = "x = torch.tensor([[-2.0, -0.25, 0.25], [0.75, 1.0, 3.0]], requires_grad=True)"
for _shape, _init in (("vec", _CX), ("mat", _CM)):
    case("clamp/both_pos/%s/func" % _shape, _unary_src(_init, "torch.clamp(x, -0.5, 0.5)", False))
    case(
        "clamp/both_kw/%s/func" % _shape, _unary_src(_init, "torch.clamp(x, min=-1, max=1)", False)
    )
    case("clamp/both/%s/method" % _shape, _unary_src(_init, "x.clamp(-0.5, 0.5)", False))
    case("clamp/min/%s/method" % _shape, _unary_src(_init, "x.clamp(min=0)", False))
    case("clamp/max/%s/method" % _shape, _unary_src(_init, "x.clamp(max=0.5)", False))
    case("clamp/min/%s/func" % _shape, _unary_src(_init, "torch.clamp(x, min=0.0)", False))
case(
    "clamp/scalar/method",
    _unary_src("x = torch.tensor(2.5, requires_grad=True)", "x.clamp(0, 1)", True),
)
case(
    "clamp/int_tensor",
    """
    t = torch.tensor([-3, 0, 5])
    t.clamp(-1, 1)
    torch.clamp(t, min=0)
    t.clamp(0.5, 1.5)
""",
)

_MM_PAIRS = {
    "vec": (
        "a = torch.tensor([1.0, 5.0, 3.0, 2.0], requires_grad=True)",
        "b = torch.tensor([2.0, 4.0, 3.0, 1.0], requires_grad=True)",
    ),
    "mat_row": (
        "a = torch.tensor([[1.0, 5.0, 3.0], [4.0, 0.0, 6.0]], requires_grad=True)",
        "b = torch.tensor([2.0, 2.0, 6.0], requires_grad=True)",
    ),
    "col_row": (
        "a = torch.tensor([[1.0], [4.0]], requires_grad=True)",
        "b = torch.tensor([[0.0, 2.0, 4.0]], requires_grad=True)",
    ),
    "scalar_vec": (
        "a = torch.tensor(2.0, requires_grad=True)",
        "b = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)",
    ),
}
for _op in ("maximum", "minimum"):
    for _pair, (_ia, _ib) in _MM_PAIRS.items():
        for _form, _expr in (("func", "torch.%s(a, b)" % _op), ("method", "a.%s(b)" % _op)):
            case(
                "binary/%s/%s/%s" % (_op, _pair, _form),
                _lines(
                    _ia,
                    _ib,
                    "y = " + _expr,
                    "y",
                    "print(y.grad_fn)",
                    "y.sum().backward()",
                    "a.grad",
                    "b.grad",
                ),
            )
case(
    "binary/max_two_tensors",
    _lines(
        *_MM_PAIRS["vec"],
        "y = torch.max(a, b)",
        "y",
        "print(y.grad_fn)",
        "y.sum().backward()",
        "a.grad",
        "b.grad",
    ),
)
case(
    "binary/min_two_tensors",
    _lines(
        *_MM_PAIRS["mat_row"],
        "y = torch.min(a, b)",
        "y",
        "print(y.grad_fn)",
        "y.sum().backward()",
        "a.grad",
        "b.grad",
    ),
)
case(
    "binary/maximum_int",
    """
    torch.maximum(torch.tensor([1, 5]), torch.tensor([3, 2]))
    torch.minimum(torch.tensor([1, 5]), torch.tensor([3.5, 2.5]))
""",
)

case(
    "where/vec/func",
    """
    x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
    z = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
    y = torch.where(x > 0, x, z)
    y
    print(y.grad_fn)
    y.sum().backward()
    x.grad
    z.grad
""",
)
case(
    "where/vec/method",
    """
    x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
    z = torch.tensor([10.0, 20.0, 30.0, 40.0], requires_grad=True)
    y = x.where(x > 0, z)
    y
    print(y.grad_fn)
    y.sum().backward()
    x.grad
    z.grad
""",
)
case(
    "where/scalar_other",
    """
    x = torch.tensor([-1.0, 2.0, -3.0, 4.0], requires_grad=True)
    y = torch.where(x > 0, x, 0.0)
    y
    print(y.grad_fn)
    y.sum().backward()
    x.grad
""",
)
case(
    "where/same_input_both",
    """
    x = torch.tensor([-1.0, 2.0, -3.0], requires_grad=True)
    y = torch.where(x > 0, x * 2, x * x)
    y
    y.sum().backward()
    x.grad
""",
)
case(
    "where/broadcast",
    """
    x = torch.tensor([[1.0, -2.0, 3.0], [-4.0, 5.0, -6.0]], requires_grad=True)
    z = torch.tensor([0.5, 0.25, 0.125], requires_grad=True)
    y = torch.where(x > 0, x, z)
    y
    y.sum().backward()
    x.grad
    z.grad
""",
)
case(
    "where/condition_tensor_given",
    """
    c = torch.tensor([True, False, True])
    a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    b = torch.tensor([4.0, 5.0, 6.0])
    y = torch.where(c, a, b)
    y
    y.sum().backward()
    a.grad
""",
)
case(
    "where/int_values",
    """
    c = torch.tensor([True, False])
    torch.where(c, torch.tensor([1, 2]), torch.tensor([3, 4]))
    torch.where(c, torch.tensor([1, 2]), torch.tensor([3.5, 4.5]))
""",
)


# ---------------------------------------------------------------------------
# 4. Reductions
# ---------------------------------------------------------------------------

_RV = "x = torch.tensor([1.0, -2.0, 3.0, 0.5], requires_grad=True)"
_RM = "x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]], requires_grad=True)"
_RS = "x = torch.tensor(2.5, requires_grad=True)"


def _red_src(init, expr, scalar):
    return _unary_src(init, expr, scalar)


for _op in ("sum", "mean", "prod", "norm", "std", "var"):
    case("reduce/%s/vec/func" % _op, _red_src(_RV, "torch.%s(x)" % _op, True))
    case("reduce/%s/vec/method" % _op, _red_src(_RV, "x.%s()" % _op, True))
    case("reduce/%s/mat/func" % _op, _red_src(_RM, "torch.%s(x)" % _op, True))
    case("reduce/%s/mat/method" % _op, _red_src(_RM, "x.%s()" % _op, True))
    case("reduce/%s/mat_dim0/func" % _op, _red_src(_RM, "torch.%s(x, dim=0)" % _op, False))
    case("reduce/%s/mat_dim1/method" % _op, _red_src(_RM, "x.%s(dim=1)" % _op, False))
    case("reduce/%s/mat_dim_neg/method" % _op, _red_src(_RM, "x.%s(dim=-1)" % _op, False))
    case(
        "reduce/%s/mat_keepdim/method" % _op,
        _red_src(_RM, "x.%s(dim=1, keepdim=True)" % _op, False),
    )
    case(
        "reduce/%s/mat_keepdim0/func" % _op,
        _red_src(_RM, "torch.%s(x, dim=0, keepdim=True)" % _op, False),
    )
    case("reduce/%s/vec_dim0/method" % _op, _red_src(_RV, "x.%s(dim=0)" % _op, True))
    if _op not in ("std", "var"):
        case("reduce/%s/scalar/method" % _op, _red_src(_RS, "x.%s()" % _op, True))
for _op in ("sum", "mean", "prod", "std", "var"):
    case("reduce/%s/mat_positional_dim/method" % _op, _red_src(_RM, "x.%s(1)" % _op, False))
for _op in ("sum", "mean"):
    case("reduce/%s/mat_dim_tuple/method" % _op, _red_src(_RM, "x.%s(dim=(0, 1))" % _op, True))
    case("reduce/%s/mat_dim_tuple1/func" % _op, _red_src(_RM, "torch.%s(x, (0,))" % _op, False))
    case(
        "reduce/%s/mat_all_keepdim/method" % _op,
        _red_src(_RM, "x.%s(dim=None, keepdim=True)" % _op, False),
    )
case(
    "reduce/sum/int",
    """
    t = torch.tensor([[1, 2], [3, 4]])
    t.sum()
    t.sum(dim=0)
    torch.sum(t, dim=1, keepdim=True)
""",
)
case(
    "reduce/sum/bool",
    """
    t = torch.tensor([True, False, True])
    t.sum()
""",
)
case(
    "reduce/prod/int",
    """
    t = torch.tensor([[1, 2], [3, 4]])
    t.prod()
    t.prod(dim=1)
""",
)
case(
    "reduce/mean/error_int",
    """
    t = torch.tensor([1, 2, 3])
    t.mean()
""",
)
case(
    "reduce/prod/one_zero",
    _red_src("x = torch.tensor([2.0, 0.0, 3.0], requires_grad=True)", "x.prod()", True),
)
case(
    "reduce/prod/two_zeros",
    _red_src("x = torch.tensor([2.0, 0.0, 0.0], requires_grad=True)", "x.prod()", True),
)
case(
    "reduce/prod/zero_dim",
    _red_src(
        "x = torch.tensor([[2.0, 0.0], [3.0, 4.0]], requires_grad=True)", "x.prod(dim=1)", False
    ),
)
case("reduce/norm/p1/method", _red_src(_RV, "x.norm(1)", True))
case("reduce/norm/p1_kw/func", _red_src(_RM, "torch.norm(x, p=1)", True))
case("reduce/norm/p3/method", _red_src(_RV, "x.norm(p=3)", True))
case("reduce/norm/pinf/method", _red_src(_RV, 'x.norm(float("inf"))', True))
case("reduce/norm/p1_dim/method", _red_src(_RM, "x.norm(p=1, dim=1)", False))
case(
    "reduce/norm/zero_vector", _red_src("x = torch.zeros(3, requires_grad=True)", "x.norm()", True)
)
case(
    "reduce/norm/p1_with_zero",
    _red_src("x = torch.tensor([0.0, -2.0, 3.0], requires_grad=True)", "x.norm(1)", True),
)
case(
    "reduce/std/single_element_nan",
    _red_src("x = torch.tensor([2.0], requires_grad=True)", "x.std()", True),
)
case(
    "reduce/var/constant",
    _red_src("x = torch.tensor([2.0, 2.0, 2.0], requires_grad=True)", "x.var()", True),
)

for _form, _expr in (("func", "torch.logsumexp(x, dim=%s)"), ("method", "x.logsumexp(dim=%s)")):
    case("reduce/logsumexp/vec/%s" % _form, _red_src(_RV, _expr % "0", True))
    case("reduce/logsumexp/mat_dim0/%s" % _form, _red_src(_RM, _expr % "0", False))
    case("reduce/logsumexp/mat_dim1/%s" % _form, _red_src(_RM, _expr % "1", False))
case(
    "reduce/logsumexp/mat_keepdim/func",
    _red_src(_RM, "torch.logsumexp(x, dim=1, keepdim=True)", False),
)
case("reduce/logsumexp/mat_positional/method", _red_src(_RM, "x.logsumexp(-1)", False))
case(
    "reduce/logsumexp/large_values",
    _red_src(
        "x = torch.tensor([1000.0, 1000.0, 990.0], requires_grad=True)",
        "torch.logsumexp(x, dim=0)",
        True,
    ),
)


def _softmax_src(init, expr):
    return _lines(
        init,
        "w = torch.tensor([1.0, 2.0, 4.0])",
        "y = " + expr,
        "y",
        "print(y.grad_fn)",
        "(y * w).sum().backward()",
        "x.grad",
    )


_SV = "x = torch.tensor([1.0, -2.0, 3.0], requires_grad=True)"
_SM = "x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]], requires_grad=True)"
for _op in ("softmax", "log_softmax"):
    case("reduce/%s/vec/func" % _op, _softmax_src(_SV, "torch.%s(x, dim=0)" % _op))
    case("reduce/%s/vec/method" % _op, _softmax_src(_SV, "x.%s(dim=0)" % _op))
    case("reduce/%s/vec/F" % _op, _softmax_src(_SV, "F.%s(x, dim=0)" % _op))
    case("reduce/%s/mat_dim1/func" % _op, _softmax_src(_SM, "torch.%s(x, dim=1)" % _op))
    case("reduce/%s/mat_dim_neg/method" % _op, _softmax_src(_SM, "x.%s(dim=-1)" % _op))
    case("reduce/%s/mat_dim1/F" % _op, _softmax_src(_SM, "F.%s(x, dim=1)" % _op))
    case("reduce/%s/mat_dim0/method" % _op, _softmax_src(_SM, "x.%s(0)" % _op))
case(
    "reduce/softmax/large_values",
    _softmax_src(
        "x = torch.tensor([1000.0, 1001.0, 1002.0], requires_grad=True)", "torch.softmax(x, dim=0)"
    ),
)
case(
    "reduce/log_softmax/large_values",
    _softmax_src(
        "x = torch.tensor([1000.0, 1001.0, 1002.0], requires_grad=True)",
        "torch.log_softmax(x, dim=0)",
    ),
)
case(
    "reduce/softmax/sum_rows",
    """
    x = torch.tensor([[1.0, 2.0], [3.0, 5.0]])
    p = torch.softmax(x, dim=1)
    p
    p.sum(dim=1)
""",
)

for _op in ("max", "min"):
    case("reduce/%s/whole/vec/func" % _op, _red_src(_RV, "torch.%s(x)" % _op, True))
    case("reduce/%s/whole/vec/method" % _op, _red_src(_RV, "x.%s()" % _op, True))
    case("reduce/%s/whole/mat/method" % _op, _red_src(_RM, "x.%s()" % _op, True))
    case(
        "reduce/%s/whole/ties" % _op,
        _red_src(
            "x = torch.tensor([3.0, 1.0, 3.0, 3.0, 1.0], requires_grad=True)", "x.%s()" % _op, True
        ),
    )
    case(
        "reduce/%s/dim/mat/method" % _op,
        """
        %s
        r = x.%s(dim=1)
        r
        print(r.values.grad_fn)
        r.values.sum().backward()
        x.grad
        r.indices
    """
        % (_RM, _op),
    )
    case(
        "reduce/%s/dim/mat/func" % _op,
        """
        %s
        r = torch.%s(x, dim=0)
        r.values
        r.indices
        r.values.sum().backward()
        x.grad
    """
        % (_RM, _op),
    )
    case(
        "reduce/%s/dim/unpack" % _op,
        """
        %s
        v, i = torch.%s(x, 1)
        v
        i
        print(v.grad_fn)
        v.sum().backward()
        x.grad
    """
        % (_RM, _op),
    )
    case(
        "reduce/%s/dim/keepdim" % _op,
        """
        %s
        v, i = x.%s(dim=1, keepdim=True)
        v
        i
        (v * 2).sum().backward()
        x.grad
    """
        % (_RM, _op),
    )
    case(
        "reduce/%s/dim/ties" % _op,
        """
        x = torch.tensor([[2.0, 2.0, 1.0], [1.0, 1.0, 1.0]], requires_grad=True)
        r = x.%s(dim=1)
        r
        r.values.sum().backward()
        x.grad
    """
        % _op,
    )
    case(
        "reduce/%s/dim/vec" % _op,
        """
        %s
        r = x.%s(0)
        r
        r.values.backward()
        x.grad
    """
        % (_RV, _op),
    )
    case(
        "reduce/%s/dim/index_tuple" % _op,
        """
        %s
        r = x.%s(dim=1)
        r[0]
        r[1]
        len(r)
    """
        % (_RM, _op),
    )
    case(
        "reduce/%s/int" % _op,
        """
        t = torch.tensor([[3, 7], [9, 1]])
        t.%s()
        t.%s(dim=0)
    """
        % (_op, _op),
    )
case(
    "reduce/max/whole_ties_2d",
    _red_src(
        "x = torch.tensor([[5.0, 1.0], [5.0, 5.0]], requires_grad=True)", "torch.max(x)", True
    ),
)
case("reduce/max/scalar", _red_src(_RS, "x.max()", True))

for _op in ("argmax", "argmin"):
    case(
        "reduce/%s/vec/func" % _op,
        """
        x = torch.tensor([1.0, -2.0, 3.0, 0.5])
        torch.%s(x)
    """
        % _op,
    )
    case(
        "reduce/%s/vec/method" % _op,
        """
        x = torch.tensor([1.0, -2.0, 3.0, 0.5], requires_grad=True)
        x.%s()
    """
        % _op,
    )
    case(
        "reduce/%s/mat/whole" % _op,
        """
        x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])
        x.%s()
    """
        % _op,
    )
    case(
        "reduce/%s/mat/dim" % _op,
        """
        x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.5]])
        x.%s(dim=0)
        torch.%s(x, dim=1)
        x.%s(dim=1, keepdim=True)
        x.%s(-1)
    """
        % (_op, _op, _op, _op),
    )
    case(
        "reduce/%s/ties" % _op,
        """
        x = torch.tensor([2.0, 5.0, 5.0, -1.0, -1.0])
        x.%s()
        torch.tensor([[1.0, 1.0], [0.0, 0.0]]).%s(dim=1)
    """
        % (_op, _op),
    )
    case(
        "reduce/%s/int" % _op,
        """
        t = torch.tensor([4, 9, 2])
        t.%s()
    """
        % _op,
    )
    case(
        "reduce/%s/requires_grad_result" % _op,
        """
        x = torch.tensor([1.0, 3.0, 2.0], requires_grad=True)
        i = x.%s()
        i
        i.requires_grad
        print(i.grad_fn)
        i.dtype
    """
        % _op,
    )


# ---------------------------------------------------------------------------
# 5. Linear algebra
# ---------------------------------------------------------------------------

_A = "A = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)"
_B = "B = torch.tensor([[1.0, 0.0], [-1.0, 2.0], [0.5, 1.0]], requires_grad=True)"
_V = "v = torch.tensor([1.0, -1.0, 2.0], requires_grad=True)"
_U = "u = torch.tensor([0.5, 3.0, -2.0], requires_grad=True)"
_W = "w = torch.tensor([0.5, 2.0], requires_grad=True)"
_S = "S = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)"


def _la(name, inits, expr, grads, scalar=False):
    case(
        "linalg/" + name,
        _lines(
            *inits,
            "y = " + expr,
            "y",
            "print(y.grad_fn)",
            "y.backward()" if scalar else "y.sum().backward()",
            *["%s.grad" % g for g in grads],
        ),
    )


_la("mm/operator", (_A, _B), "A @ B", "AB")
_la("mm/matmul_func", (_A, _B), "torch.matmul(A, B)", "AB")
_la("mm/matmul_method", (_A, _B), "A.matmul(B)", "AB")
_la("mm/mm_func", (_A, _B), "torch.mm(A, B)", "AB")
_la("mm/mm_method", (_A, _B), "A.mm(B)", "AB")
_la("mm/gram", (_A,), "A @ A.T", "A")
_la("mm/gram_t", (_A,), "A.t() @ A", "A")
_la("mm/chain", (_A, _B, _S), "S @ A @ B", "SAB")
_la("mv/operator", (_A, _V), "A @ v", "Av")
_la("mv/matmul_func", (_A, _V), "torch.matmul(A, v)", "Av")
_la("mv/mv_func", (_A, _V), "torch.mv(A, v)", "Av")
_la("mv/mv_method", (_A, _V), "A.mv(v)", "Av")
_la("vm/operator", (_W, _A), "w @ A", "wA")
_la("vm/matmul_func", (_W, _A), "torch.matmul(w, A)", "wA")
_la("dot/operator", (_V, _U), "v @ u", "vu", scalar=True)
_la("dot/matmul_func", (_V, _U), "torch.matmul(v, u)", "vu", scalar=True)
_la("dot/dot_func", (_V, _U), "torch.dot(v, u)", "vu", scalar=True)
_la("dot/dot_method", (_V, _U), "v.dot(u)", "vu", scalar=True)
_la("dot/self", (_V,), "v @ v", "v", scalar=True)
_la("outer/func", (_W, _V), "torch.outer(w, v)", "wv")
_la("outer/method", (_W, _V), "w.outer(v)", "wv")
_la("t/method", (_A,), "A.t()", "A")
_la("t/func", (_A,), "torch.t(A)", "A")
_la("t/attr_T", (_A,), "A.T", "A")
_la("t/vec_method", (_V,), "v.t()", "v")
_la("transpose/method", (_A,), "A.transpose(0, 1)", "A")
_la("transpose/func", (_A,), "torch.transpose(A, 0, 1)", "A")
_la("transpose/method_rev", (_A,), "A.transpose(1, 0)", "A")
_la("transpose/neg_dims", (_A,), "A.transpose(-1, -2)", "A")
_la("trace/func", (_S,), "torch.trace(S)", "S", scalar=True)
_la("trace/method", (_S,), "S.trace()", "S", scalar=True)
_la("trace/rect", (_A,), "A.trace()", "A", scalar=True)
_la(
    "T_weighted",
    (_A, "W = torch.tensor([[1.0, 2.0], [3.0, 4.0], [5.0, 6.0]])"),
    "(A.T * W).sum()",
    "A",
    scalar=True,
)
_la("mm/scalar_times", (_S,), "2 * torch.matmul(S.T, S)", "S")
case(
    "linalg/mm/int",
    """
    a = torch.tensor([[1, 2], [3, 4]])
    a @ a
    torch.mv(a, torch.tensor([1, 1]))
    torch.dot(torch.tensor([1, 2]), torch.tensor([3, 4]))
""",
)
case(
    "linalg/mm/float32",
    """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], dtype=torch.float32, requires_grad=True)
    y = a @ a
    y
    y.sum().backward()
    a.grad
""",
)
case(
    "linalg/error/mm_shapes",
    """
    a = torch.ones(2, 3)
    b = torch.ones(2, 3)
    print("start")
    a @ b
""",
)
case(
    "linalg/error/mv_shapes",
    """
    a = torch.ones(2, 3)
    v = torch.ones(2)
    torch.mv(a, v)
""",
)
case(
    "linalg/error/dot_sizes",
    """
    torch.dot(torch.ones(3), torch.ones(2))
""",
)
case(
    "linalg/error/matmul_0d",
    """
    torch.matmul(torch.tensor(2.0), torch.ones(2))
""",
)


# ---------------------------------------------------------------------------
# 6. Shape functions
# ---------------------------------------------------------------------------

_X = "x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)"
_XV = "x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)"
_XS = "x = torch.tensor(4.0, requires_grad=True)"
_XC = "x = torch.tensor([[[1.0], [2.0], [3.0]]], requires_grad=True)"
_SHW = "w = torch.tensor([[1.0, 2.0, 3.0, 4.0, 5.0, 6.0]])"


def _shape_src(init, expr):
    return _lines(
        init,
        "y = " + expr,
        "y",
        "print(y.grad_fn)",
        "y.shape",
        "(y * torch.arange(1.0, y.numel() + 1).reshape(y.shape)).sum().backward()",
        "x.grad",
    )


for _n, _i, _e in (
    ("reshape/method_args", _X, "x.reshape(3, 2)"),
    ("reshape/method_tuple", _X, "x.reshape((3, 2))"),
    ("reshape/method_neg1", _X, "x.reshape(-1)"),
    ("reshape/method_neg1_col", _X, "x.reshape(-1, 1)"),
    ("reshape/func", _X, "torch.reshape(x, (6,))"),
    ("reshape/func_list", _X, "torch.reshape(x, [1, 6])"),
    ("reshape/vec_to_col", _XV, "x.reshape(3, 1)"),
    ("reshape/scalar_to_vec", _XS, "x.reshape(1)"),
    ("reshape/to_3d", _X, "x.reshape(1, 2, 3)"),
    ("view/args", _X, "x.view(3, 2)"),
    ("view/neg1", _X, "x.view(-1)"),
    ("view/neg1_first", _X, "x.view(-1, 2)"),
    ("view/tuple", _X, "x.view((6, 1))"),
    ("flatten/method", _X, "x.flatten()"),
    ("flatten/func", _X, "torch.flatten(x)"),
    ("flatten/3d", _XC, "x.flatten()"),
    ("flatten/scalar", _XS, "x.flatten()"),
    ("squeeze/all_method", _XC, "x.squeeze()"),
    ("squeeze/all_func", _XC, "torch.squeeze(x)"),
    ("squeeze/dim0", _XC, "x.squeeze(0)"),
    ("squeeze/dim_neg", _XC, "x.squeeze(-1)"),
    ("squeeze/dim_kw", _XC, "torch.squeeze(x, dim=2)"),
    ("squeeze/non_one_dim", _XC, "x.squeeze(1)"),
    ("squeeze/nothing_to_squeeze", _X, "x.squeeze()"),
    ("unsqueeze/method0", _XV, "x.unsqueeze(0)"),
    ("unsqueeze/func1", _XV, "torch.unsqueeze(x, 1)"),
    ("unsqueeze/neg", _XV, "x.unsqueeze(-1)"),
    ("unsqueeze/kw", _X, "x.unsqueeze(dim=1)"),
    ("unsqueeze/scalar", _XS, "x.unsqueeze(0)"),
    ("expand/vec_rows", _XV, "x.expand(2, 3)"),
    ("expand/tuple", _XV, "x.expand((4, 3))"),
    ("expand/col", "x = torch.tensor([[1.0], [2.0]], requires_grad=True)", "x.expand(2, 3)"),
    ("expand/neg1", "x = torch.tensor([[1.0], [2.0]], requires_grad=True)", "x.expand(-1, 4)"),
    ("expand/scalar", _XS, "x.expand(3)"),
    ("expand/same", _X, "x.expand(2, 3)"),
    ("expand/new_leading", _X, "x.expand(2, 2, 3)"),
    (
        "index/vec_int",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[0]",
    ),
    (
        "index/vec_neg",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[-1]",
    ),
    (
        "index/vec_slice",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[1:3]",
    ),
    (
        "index/vec_step",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[::2]",
    ),
    (
        "index/vec_neg_slice",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[-2:]",
    ),
    (
        "index/vec_head",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[:3]",
    ),
    (
        "index/vec_tail",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[1:]",
    ),
    (
        "index/vec_slice_step",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[1:5:2]",
    ),
    (
        "index/vec_slice_past_end",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[3:10]",
    ),
    (
        "index/vec_slice_neg_both",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[-4:-1]",
    ),
    (
        "index/vec_full_slice",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[:]",
    ),
    (
        "index/vec_list",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[[0, 2]]",
    ),
    (
        "index/vec_list_repeat",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[[0, 0, 3]]",
    ),
    (
        "index/vec_int_tensor",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[torch.tensor([4, 1])]",
    ),
    (
        "index/vec_mask",
        "x = torch.tensor([10.0, 20.0, 30.0, 40.0, 50.0], requires_grad=True)",
        "x[x > 25]",
    ),
    ("index/mat_row", _X, "x[0]"),
    ("index/mat_row_neg", _X, "x[-1]"),
    ("index/mat_rows_slice", _X, "x[1:2]"),
    ("index/mat_col", _X, "x[:, 1]"),
    ("index/mat_col_neg", _X, "x[:, -1]"),
    ("index/mat_step", _X, "x[::2]"),
    ("index/mat_chain", _X, "x[0][1]"),
    ("index/mat_pair", _X, "x[0, 1]"),
    ("index/mat_pair_neg", _X, "x[-1, -2]"),
    ("index/mat_row_colon", _X, "x[1, :]"),
    ("index/mat_slices", _X, "x[:, 1:]"),
    ("index/mat_slices_both", _X, "x[0:1, :2]"),
    ("index/mat_col_step", _X, "x[:, ::2]"),
    ("index/mat_row_slice", _X, "x[1, 0:2]"),
    ("index/mat_list_rows", _X, "x[[1, 0]]"),
    ("index/mat_mask", _X, "x[x > 2.5]"),
    ("index/3d", _XC, "x[0, 1]"),
    ("index/3d_chain", _XC, "x[0][2][0]"),
):
    case("shape/" + _n, _shape_src(_i, _e))

case(
    "shape/flatten/vec_returns_self",
    """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x.flatten()
    y
    print(y.grad_fn)
    y.is_leaf
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    x.grad
""",
)
case(
    "shape/index/int_tensor",
    """
    t = torch.tensor([[1, 2, 3], [4, 5, 6]])
    t[1]
    t[:, 0]
    t[0, 2]
    t[-1, ::2]
""",
)
case(
    "shape/index/0d_item",
    """
    x = torch.tensor([10.0, 20.0, 30.0])
    x[1]
    x[1].item()
    x[1].shape
""",
)
case(
    "shape/index/error_out_of_range",
    """
    x = torch.tensor([10.0, 20.0, 30.0])
    x[1]
    x[5]
""",
)
case(
    "shape/index/error_out_of_range_neg",
    """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    x[-3]
""",
)
case(
    "shape/index/error_too_many",
    """
    x = torch.tensor([1.0, 2.0])
    x[0, 0]
""",
)
case(
    "shape/index/error_negative_step",
    """
    x = torch.tensor([1.0, 2.0, 3.0])
    x[::-1]
""",
)
case(
    "shape/index/empty_slice",
    """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x[2:1]
    y
    y.shape
    y.sum()
""",
)
case(
    "shape/view/error_size",
    """
    x = torch.ones(2, 3)
    x.view(4)
""",
)
case(
    "shape/reshape/error_size",
    """
    x = torch.ones(2, 3)
    x.reshape(5, -1)
""",
)
case(
    "shape/expand/error",
    """
    x = torch.ones(2)
    x.expand(3, 3)
""",
)

_CAT_A = "a = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)"
_CAT_B = "b = torch.tensor([[5.0, 6.0]], requires_grad=True)"
_CAT_C = "c = torch.tensor([[7.0], [8.0]], requires_grad=True)"


def _cat_src(inits, expr, grads):
    return _lines(
        *inits,
        "y = " + expr,
        "y",
        "print(y.grad_fn)",
        "(y * torch.arange(1.0, y.numel() + 1).reshape(y.shape)).sum().backward()",
        *["%s.grad" % g for g in grads],
    )


case("shape/cat/dim0_list", _cat_src((_CAT_A, _CAT_B), "torch.cat([a, b])", "ab"))
case("shape/cat/dim0_tuple", _cat_src((_CAT_A, _CAT_B), "torch.cat((a, b), 0)", "ab"))
case("shape/cat/dim1", _cat_src((_CAT_A, _CAT_C), "torch.cat([a, c], dim=1)", "ac"))
case("shape/cat/dim_neg", _cat_src((_CAT_A, _CAT_C), "torch.cat([c, a], dim=-1)", "ca"))
case("shape/cat/three", _cat_src((_CAT_A, _CAT_B), "torch.cat([b, a, b])", "ab"))
case(
    "shape/cat/vectors",
    _cat_src(
        (
            "a = torch.tensor([1.0, 2.0], requires_grad=True)",
            "b = torch.tensor([3.0], requires_grad=True)",
        ),
        "torch.cat([a, b])",
        "ab",
    ),
)
case(
    "shape/cat/same_twice",
    _cat_src(("a = torch.tensor([1.0, 2.0], requires_grad=True)",), "torch.cat([a, a])", "a"),
)
case(
    "shape/cat/mixed_requires_grad",
    _cat_src(
        ("a = torch.tensor([1.0, 2.0], requires_grad=True)", "b = torch.tensor([3.0, 4.0])"),
        "torch.cat([a, b])",
        "ab",
    ),
)
case(
    "shape/stack/dim0",
    _cat_src(
        (
            "a = torch.tensor([1.0, 2.0], requires_grad=True)",
            "b = torch.tensor([3.0, 4.0], requires_grad=True)",
        ),
        "torch.stack([a, b])",
        "ab",
    ),
)
case(
    "shape/stack/dim1",
    _cat_src(
        (
            "a = torch.tensor([1.0, 2.0], requires_grad=True)",
            "b = torch.tensor([3.0, 4.0], requires_grad=True)",
        ),
        "torch.stack([a, b], dim=1)",
        "ab",
    ),
)
case(
    "shape/stack/tuple",
    _cat_src(
        (
            "a = torch.tensor([1.0, 2.0], requires_grad=True)",
            "b = torch.tensor([3.0, 4.0], requires_grad=True)",
        ),
        "torch.stack((a, b, a))",
        "ab",
    ),
)
case(
    "shape/stack/scalars",
    _cat_src(
        ("a = torch.tensor(1.5, requires_grad=True)", "b = torch.tensor(-2.0, requires_grad=True)"),
        "torch.stack([a, b])",
        "ab",
    ),
)
case(
    "shape/stack/matrices_dim2",
    _cat_src(
        (_CAT_A, "b = torch.tensor([[5.0, 6.0], [7.0, 8.0]], requires_grad=True)"),
        "torch.stack([a, b], dim=2)",
        "ab",
    ),
)
case(
    "shape/cat/int",
    """
    torch.cat([torch.tensor([1, 2]), torch.tensor([3])])
    torch.cat([torch.tensor([1, 2]), torch.tensor([3.5])])
    torch.stack([torch.tensor([1, 2]), torch.tensor([3, 4])])
""",
)
case(
    "shape/cat/error_sizes",
    """
    a = torch.ones(2, 3)
    b = torch.ones(2, 2)
    torch.cat([a, b])
""",
)
case(
    "shape/stack/error_sizes",
    """
    torch.stack([torch.ones(2), torch.ones(3)])
""",
)


# ---------------------------------------------------------------------------
# 7. Binary operators over shape pairs
# ---------------------------------------------------------------------------

_PAIRS = {
    "vec_vec": (
        "a = torch.tensor([1.5, 2.0, 3.0], requires_grad=True)",
        "b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)",
    ),
    "mat_row": (
        "a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)",
        "b = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)",
    ),
    "col_row": (
        "a = torch.tensor([[1.5], [2.0]], requires_grad=True)",
        "b = torch.tensor([[0.5, -1.0, 2.0]], requires_grad=True)",
    ),
    "scalar_mat": (
        "a = torch.tensor(2.0, requires_grad=True)",
        "b = torch.tensor([[0.5, -1.0, 2.0], [1.0, 3.0, -2.0]], requires_grad=True)",
    ),
    "mat_scalar": (
        "a = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)",
        "b = torch.tensor(1.5, requires_grad=True)",
    ),
    "scalar_scalar": (
        "a = torch.tensor(3.0, requires_grad=True)",
        "b = torch.tensor(-2.0, requires_grad=True)",
    ),
    "row_mat": (
        "a = torch.tensor([1.0, 2.0, 4.0], requires_grad=True)",
        "b = torch.tensor([[0.5, -1.0, 2.0], [1.0, 3.0, -2.0]], requires_grad=True)",
    ),
}
_OPS = {"add": "+", "sub": "-", "mul": "*", "div": "/", "pow": "**", "mod": "%"}
for _opn, _sym in _OPS.items():
    for _pair, (_ia, _ib) in _PAIRS.items():
        _sc = _pair == "scalar_scalar"
        case(
            "binop/%s/%s" % (_opn, _pair),
            _lines(
                _ia,
                _ib,
                "y = a %s b" % _sym,
                "y",
                "print(y.grad_fn)",
                "y.backward()" if _sc else "y.sum().backward()",
                "a.grad",
                "b.grad",
            ),
        )

_NX = "x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)"
for _n, _e in (
    ("add_right", "x + 2"),
    ("add_left", "2 + x"),
    ("add_float", "x + 0.5"),
    ("sub_right", "x - 2"),
    ("rsub", "2 - x"),
    ("rsub_float", "1.5 - x"),
    ("mul_right", "x * 3"),
    ("mul_left", "3 * x"),
    ("div_right", "x / 4"),
    ("rdiv", "2 / x"),
    ("rdiv_float", "1.0 / x"),
    ("pow_right", "x ** 2"),
    ("rpow", "2 ** x"),
    ("pow_self", "x ** x"),
    ("mod_right", "x % 0.75"),
    ("neg", "-x"),
    ("add_self", "x + x"),
    ("mul_self", "x * x"),
    ("sub_self", "x - x"),
    ("div_self", "x / x"),
    ("add_bool", "x + True"),
    ("mul_zero", "x * 0"),
    ("div_int_tensor", "x / torch.tensor([1, 2, 4])"),
    ("mixed_chain", "(x + 1) * (x - 1) / (x * x + 1)"),
    ("sub_neg_num", "x - -1"),
    ("polynomial", "3 * x ** 3 - 2 * x ** 2 + x - 7"),
):
    case("binop/number/" + _n, _unary_src(_NX, _e, False))
case(
    "binop/number/scalar_tensor",
    _unary_src("x = torch.tensor(3.0, requires_grad=True)", "(2 - x) * (x / 2) + 2 / x", True),
)
case(
    "binop/unary_plus",
    """
    x = torch.tensor([0.5, -1.0], requires_grad=True)
    y = +x
    y
    print(y.grad_fn)
""",
)
case(
    "binop/one_requires_grad",
    """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0])
    y = a * b
    y
    y.sum().backward()
    a.grad
    print(b.grad)
""",
)
case(
    "binop/mod_signs",
    """
    a = torch.tensor([-3.0, -1.0, 1.0, 3.0])
    a % 2
    a % -2
    torch.tensor([-3, -1, 1, 3]) % 2
    torch.tensor([-3, -1, 1, 3]) % -2
    torch.tensor([5.5, -5.5]) % 2.5
""",
)
case(
    "binop/int_division",
    """
    a = torch.tensor([1, 2, 3])
    a / 2
    a / a
    7 / a
    torch.tensor(7) / torch.tensor(2)
""",
)
case(
    "binop/int_arith",
    """
    a = torch.tensor([1, 2, 3])
    a + 1
    a * 2
    a - 5
    3 - a
    -a
    a * a
""",
)
case(
    "binop/error_broadcast",
    """
    a = torch.ones(3)
    b = torch.ones(2)
    print(a.shape)
    a + b
""",
)
case(
    "binop/error_broadcast_mat",
    """
    a = torch.ones(2, 3)
    b = torch.ones(3, 2)
    a * b
""",
)

_CMP = {"lt": "<", "le": "<=", "gt": ">", "ge": ">=", "eq": "==", "ne": "!="}
for _cn, _sym in _CMP.items():
    case(
        "compare/%s/vec_vec" % _cn,
        """
        a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
        b = torch.tensor([3.0, 2.0, 1.0])
        c = a %s b
        c
        c.dtype
        c.requires_grad
    """
        % _sym,
    )
    case(
        "compare/%s/number" % _cn,
        """
        a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        a %s 2
        2 %s a
    """
        % (_sym, _sym),
    )
    case(
        "compare/%s/broadcast" % _cn,
        """
        a = torch.tensor([[1.0], [2.0]])
        b = torch.tensor([0, 2, 3])
        a %s b
    """
        % _sym,
    )
case(
    "compare/scalars",
    """
    a = torch.tensor(2.0)
    a > 1
    a == 2
    print(a < 1)
""",
)
case(
    "compare/mask_times",
    """
    x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)
    y = (x > 0) * x
    y
    print(y.grad_fn)
    y.sum().backward()
    x.grad
""",
)
case(
    "compare/bool_arith",
    """
    m = torch.tensor([1.0, 2.0, 3.0]) > 1.5
    m
    m + 1
    m * 2.5
    m.sum()
    m + m
    m * m
""",
)
case(
    "compare/float_eq_int",
    """
    torch.tensor([1.0, 2.5]) == torch.tensor([1, 2])
    torch.tensor([True, False]) == torch.tensor([1, 0])
""",
)


# ---------------------------------------------------------------------------
# 8. Type promotion
# ---------------------------------------------------------------------------

case(
    "promote/int_float64",
    """
    i = torch.tensor([1, 2, 3])
    f = torch.tensor([0.5, 0.5, 0.5])
    i + f
    (i + f).dtype
""",
)
case(
    "promote/int_float32",
    """
    i = torch.tensor([1, 2, 3])
    f = torch.tensor([0.5, 0.5, 0.5], dtype=torch.float32)
    i * f
""",
)
case(
    "promote/float32_float64",
    """
    a = torch.tensor([1.0, 2.0], dtype=torch.float32)
    b = torch.tensor([0.25, 0.5])
    a + b
    (a + b).dtype
""",
)
case(
    "promote/float32_python_float",
    """
    a = torch.tensor([1.0, 2.0], dtype=torch.float32)
    a * 2.5
    a + 1
    2 ** a
""",
)
case(
    "promote/int_python_float",
    """
    i = torch.tensor([1, 2])
    i * 2.5
    i + 0.5
    i ** 0.5
""",
)
case(
    "promote/int_python_int",
    """
    i = torch.tensor([1, 2])
    i * 3
    (i * 3).dtype
""",
)
case(
    "promote/int_python_bool",
    """
    i = torch.tensor([1, 2])
    i + True
""",
)
case(
    "promote/bool_python_int",
    """
    b = torch.tensor([True, False])
    b + 1
    b * 2
    b + 1.5
""",
)
case(
    "promote/bool_bool",
    """
    b = torch.tensor([True, False])
    c = torch.tensor([True, True])
    b + c
    b * c
""",
)
case(
    "promote/bool_int",
    """
    b = torch.tensor([True, False])
    b + torch.tensor([2, 3])
""",
)
case(
    "promote/bool_float32",
    """
    b = torch.tensor([True, False])
    b * torch.tensor([2.0, 3.0], dtype=torch.float32)
""",
)
case(
    "promote/float32_0d_float64",
    """
    a = torch.tensor([1.0, 2.0], dtype=torch.float32)
    s = torch.tensor(0.5)
    a + s
    s + a
""",
)
case(
    "promote/int_0d_float64",
    """
    i = torch.tensor([1, 2])
    s = torch.tensor(0.5)
    i + s
""",
)
case(
    "promote/int_0d_float32",
    """
    i = torch.tensor([1, 2])
    s = torch.tensor(0.5, dtype=torch.float32)
    i * s
""",
)
case(
    "promote/float32_vec_float64_0d_both_0d",
    """
    a = torch.tensor(1.0, dtype=torch.float32)
    s = torch.tensor(0.5)
    a + s
""",
)
case(
    "promote/int_0d_int_vec",
    """
    a = torch.tensor([1.5, 2.5], dtype=torch.float32)
    s = torch.tensor(3)
    a * s
    s * torch.tensor([1, 2])
""",
)
case(
    "promote/0d_int_python_float",
    """
    s = torch.tensor(3)
    s * 0.5
    s / 2
    s + 1
""",
)
case(
    "promote/float32_grad",
    """
    a = torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    y = a * b
    y
    y.sum().backward()
    a.grad
    b.grad
""",
)
case(
    "promote/float32_times_int_grad",
    """
    a = torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True)
    y = a * torch.tensor([3, 4])
    y
    y.sum().backward()
    a.grad
""",
)
case(
    "promote/float64_times_int_grad",
    """
    a = torch.tensor([1.5, 2.5], requires_grad=True)
    y = a / torch.tensor([2, 4]) + torch.tensor([True, False])
    y
    y.sum().backward()
    a.grad
""",
)
case(
    "promote/comparison_mixed",
    """
    torch.tensor([1, 2]) < torch.tensor([1.5, 1.5], dtype=torch.float32)
    torch.tensor([1, 2]) > 1.5
""",
)
case(
    "promote/where_mixed",
    """
    torch.where(torch.tensor([True, False]), torch.tensor([1.0, 2.0], dtype=torch.float32), 5)
    torch.where(torch.tensor([True, False]), torch.tensor([1, 2]), 0.5)
""",
)
case(
    "promote/cat_mixed",
    """
    torch.cat([torch.tensor([1.0], dtype=torch.float32), torch.tensor([2.0])])
    torch.cat([torch.tensor([True]), torch.tensor([2])])
""",
)
case(
    "promote/matmul_float32_float64_error",
    """
    a = torch.tensor([[1.0, 2.0]], dtype=torch.float32)
    b = torch.tensor([[1.0], [2.0]])
    a @ b
""",
)
case(
    "promote/sum_float32",
    """
    a = torch.tensor([0.5, 0.25], dtype=torch.float32)
    a.sum()
    a.mean()
    a.sum().dtype
""",
)


# ---------------------------------------------------------------------------
# 9. Autograd semantics (SPEC section 4)
# ---------------------------------------------------------------------------

case(
    "autograd/accumulate/two_backward",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    x.grad
    z = (3 * x).sum()
    z.backward()
    x.grad
""",
)
case(
    "autograd/accumulate/same_graph_retain",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 2).sum()
    y.backward(retain_graph=True)
    x.grad
    y.backward()
    x.grad
""",
)
case(
    "autograd/accumulate/three_times",
    """
    x = torch.tensor(1.5, requires_grad=True)
    for i in range(3):
        y = x * x
        y.backward()
    x.grad
""",
)
case(
    "autograd/grad_none_reset",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    x.grad
    x.grad = None
    print(x.grad)
    (x * 5).sum().backward()
    x.grad
""",
)
case(
    "autograd/grad_zero_",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * 2).sum().backward()
    x.grad.zero_()
    x.grad
    (x * 5).sum().backward()
    x.grad
""",
)
case(
    "autograd/grad_before_backward",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    print(x.grad)
    x.grad
""",
)
case(
    "autograd/head_gradient/vec",
    """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * x
    y.backward(torch.tensor([0.1, 1.0, 0.0001]))
    x.grad
""",
)
case(
    "autograd/head_gradient/kw",
    """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.backward(gradient=torch.tensor([1.0, -1.0, 0.5]))
    x.grad
""",
)
case(
    "autograd/head_gradient/mat",
    """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x ** 2
    y.backward(torch.ones(2, 2))
    x.grad
""",
)
case(
    "autograd/head_gradient/scalar_explicit",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (x * 3).mean()
    out.backward(torch.tensor(1.0))
    x.grad
""",
)
case(
    "autograd/head_gradient/scalar_two",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    out = (x * 3).sum()
    out.backward(torch.tensor(2.0))
    x.grad
""",
)
case(
    "autograd/head_gradient/float32_head_for_float64",
    """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    y.backward(torch.tensor([0.1, 1.0, 0.0001], dtype=torch.float32))
    x.grad
""",
)
case(
    "autograd/head_gradient/list_error",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.backward(torch.tensor([1.0, 2.0, 3.0]))
""",
)
case(
    "autograd/head_gradient/shape_error_mat",
    """
    x = torch.ones(2, 2, requires_grad=True)
    y = x * 2
    y.backward(torch.ones(4))
""",
)
case(
    "autograd/torch_backward_func",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    torch.autograd.backward(y)
    x.grad
""",
)
case(
    "autograd/retain_graph_twice",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x.exp().sum()
    y.backward(retain_graph=True)
    x.grad
    y.backward(retain_graph=True)
    x.grad
    y.backward()
    x.grad
""",
)
case(
    "autograd/error/second_backward",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward()
    x.grad
    y.backward()
""",
)
case(
    "autograd/error/second_backward_mean",
    """
    x = torch.ones(2, 2, requires_grad=True)
    out = ((x + 2) * (x + 2) * 3).mean()
    out.backward()
    print(x.grad)
    out.backward()
""",
)
case(
    "autograd/second_backward_no_saved",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x + 1).sum()
    y.backward()
    y.backward()
    x.grad
""",
)
case(
    "autograd/error/non_scalar_backward",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y
    y.backward()
""",
)
case(
    "autograd/error/non_scalar_backward_mat",
    """
    x = torch.ones(2, 2, requires_grad=True)
    (x + 1).backward()
""",
)
case(
    "autograd/one_element_backward",
    """
    x = torch.tensor([3.0], requires_grad=True)
    y = x * x
    y.backward()
    x.grad
""",
)
case(
    "autograd/error/backward_no_grad",
    """
    x = torch.tensor([1.0, 2.0])
    y = (x * 2).sum()
    y.backward()
""",
)
case(
    "autograd/error/backward_leaf_no_grad",
    """
    x = torch.tensor(1.0)
    x.backward()
""",
)
case(
    "autograd/backward_of_leaf",
    """
    x = torch.tensor(2.0, requires_grad=True)
    x.backward()
    x.grad
""",
)
case(
    "autograd/non_leaf_grad_none",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = y.sum()
    z.backward()
    print(y.grad)
    y.grad
    x.grad
""",
)
case(
    "autograd/retain_grad",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.retain_grad()
    z = (y * y).sum()
    z.backward()
    y.grad
    x.grad
    y.is_leaf
""",
)
case(
    "autograd/retain_grad_accumulates",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 3
    y.retain_grad()
    z = y.sum()
    z.backward(retain_graph=True)
    z.backward()
    y.grad
    x.grad
""",
)
case(
    "autograd/no_grad/block",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        y = x * 2
    y
    y.requires_grad
    print(y.grad_fn)
""",
)
case(
    "autograd/no_grad/display_inside",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        x * 2
        print((x ** 2).requires_grad)
    (x ** 2).requires_grad
""",
)
case(
    "autograd/no_grad/nested_enable",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        with torch.enable_grad():
            y = x * 2
        z = x * 3
    y
    z
""",
)
case(
    "autograd/no_grad/mixed_graph",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        c = x * 10
    y = (x * c).sum()
    y.backward()
    x.grad
""",
)
case(
    "autograd/no_grad/is_grad_enabled",
    """
    print(torch.is_grad_enabled())
    with torch.no_grad():
        print(torch.is_grad_enabled())
    print(torch.is_grad_enabled())
""",
)
case(
    "autograd/no_grad/leaf_creation_inside",
    """
    with torch.no_grad():
        x = torch.ones(2, requires_grad=True)
        y = x * 2
    x
    y
""",
)
case(
    "autograd/enable_grad/block",
    """
    x = torch.tensor([0.0, 1.0, 2.0, 3.0]).reshape((4, 1))
    x.requires_grad = True
    with torch.enable_grad():
        y = 2 * torch.matmul(x.T, x)
    y
    y.backward()
    x.grad
""",
)
case(
    "autograd/no_grad/after_block",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        y = x * 2
    z = x * 2
    z
""",
)
case(
    "autograd/detach/basic",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    d = y.detach()
    d
    d.requires_grad
    d.is_leaf
    print(d.grad_fn)
""",
)
case(
    "autograd/detach/stops_gradient",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x.detach()
    y
    y.sum().backward()
    x.grad
""",
)
case(
    "autograd/detach/leaf",
    """
    x = torch.tensor([1.5], requires_grad=True)
    x.detach()
""",
)
case(
    "autograd/data/basic",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.data
    x.data
    y.data.requires_grad
    y.data.norm()
""",
)
case(
    "autograd/data/norm_p",
    """
    y = torch.tensor([[3.0, 4.0], [0.0, -12.0]], requires_grad=True) * 1
    y.data.norm(1)
    y.data.norm()
""",
)
case(
    "autograd/requires_grad_/method",
    """
    a = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    a.requires_grad
    a.requires_grad_(True)
    a.requires_grad
    b = (a * a).sum()
    b
    print(b.grad_fn)
""",
)
case(
    "autograd/requires_grad_/default_arg",
    """
    a = torch.tensor([1.0, 2.0])
    a.requires_grad_()
    a.requires_grad_(False)
""",
)
case(
    "autograd/requires_grad_/attribute_set",
    """
    a = torch.tensor([1.0, 2.0])
    a.requires_grad = True
    a
    (a * 3).sum().backward()
    a.grad
""",
)
case(
    "autograd/requires_grad_/error_int",
    """
    a = torch.tensor([1, 2])
    a.requires_grad_()
""",
)
case(
    "autograd/requires_grad_/error_int_attr",
    """
    a = torch.tensor([1, 2])
    a.requires_grad = True
""",
)
case(
    "autograd/requires_grad_/error_non_leaf",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y.requires_grad_(False)
""",
)
case(
    "autograd/is_leaf",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([1.0, 2.0])
    y = x * 2
    z = c * 2
    print(x.is_leaf, c.is_leaf, y.is_leaf, z.is_leaf)
    print(x.requires_grad, c.requires_grad, y.requires_grad, z.requires_grad)
""",
)
case(
    "autograd/requires_grad_propagation",
    """
    x = torch.tensor([1.0], requires_grad=True)
    print(x.requires_grad)
    print((x ** 2).requires_grad)
    with torch.no_grad():
        print((x ** 2).requires_grad)
""",
)
case(
    "autograd/grad_fn_name",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    y.grad_fn.name()
    print(y.grad_fn.name())
""",
)
case(
    "autograd/grad_fn_display",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x + 2
    y.grad_fn
    print(y.grad_fn)
    display(y.grad_fn)
    print(x.grad_fn)
""",
)
case(
    "autograd/next_functions",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * 2).sum()
    y.grad_fn.next_functions
    y.grad_fn.next_functions[0][0]
    y.grad_fn.next_functions[0][0].next_functions
""",
)
case(
    "autograd/next_functions_two_leaves",
    """
    a = torch.tensor(1.0, requires_grad=True)
    b = torch.tensor(2.0, requires_grad=True)
    c = torch.tensor(3.0)
    (a * b).grad_fn.next_functions
    (a + c).grad_fn.next_functions
""",
)
case(
    "autograd/autograd_grad/basic",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 2).sum()
    torch.autograd.grad(y, x)
    print(x.grad)
""",
)
case(
    "autograd/autograd_grad/index",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    g = torch.autograd.grad(y, x)[0]
    g
""",
)
case(
    "autograd/autograd_grad/unpack",
    """
    x = torch.tensor(3.0, requires_grad=True)
    y = x ** 2
    g, = torch.autograd.grad(y, x)
    g
""",
)
case(
    "autograd/autograd_grad/two_inputs",
    """
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(5.0, requires_grad=True)
    y = a * b + a
    torch.autograd.grad(y, [a, b])
""",
)
case(
    "autograd/autograd_grad/grad_outputs",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * x
    torch.autograd.grad(y, x, grad_outputs=torch.tensor([1.0, 0.5]))
""",
)
case(
    "autograd/autograd_grad/create_graph",
    """
    x = torch.tensor(3.0, requires_grad=True)
    y = x ** 3
    g, = torch.autograd.grad(y, x, create_graph=True)
    g
    g2, = torch.autograd.grad(g, x)
    g2
""",
)
case(
    "autograd/autograd_grad/create_graph_backward",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    g = torch.autograd.grad(y, x, create_graph=True)[0]
    g
    g.sum().backward()
    x.grad
""",
)
case(
    "autograd/autograd_grad/error_unused",
    """
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor(5.0, requires_grad=True)
    y = a * 2
    torch.autograd.grad(y, [a, b])
""",
)
case(
    "autograd/autograd_grad/error_non_scalar",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.autograd.grad(x * 2, x)
""",
)
case(
    "autograd/backward_create_graph",
    """
    x = torch.tensor(2.0, requires_grad=True)
    y = x ** 3
    y.backward(create_graph=True)
    x.grad.detach()
    x.grad.requires_grad
    g = x.grad
    x.grad = None
    g.backward()
    x.grad
""",
)
case(
    "autograd/backward_inputs_leaf",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    w = torch.tensor([3.0, 4.0], requires_grad=True)
    y = (x * w).sum()
    y.backward(inputs=[x], retain_graph=True)
    x.grad
    w.grad
    y.backward(inputs=x, retain_graph=True)
    x.grad
    torch.autograd.backward(y, inputs=[w])
    w.grad
    x.grad
""",
)
case(
    "autograd/backward_inputs_non_leaf",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    h = x * 2
    y = (h * h).sum()
    y.backward(inputs=[h])
    h.grad
    x.grad
""",
)
case(
    "autograd/backward_inputs_unused",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    z = torch.tensor(5.0, requires_grad=True)
    y = (x * x).sum()
    y.backward(inputs=[x, z])
    x.grad
    z.grad
""",
)
case(
    "autograd/backward_inputs_create_graph",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x ** 3).sum()
    y.backward(inputs=[x], create_graph=True)
    x.grad
    g = x.grad.sum()
    x.grad = None
    g.backward()
    x.grad
""",
)
case(
    "autograd/backward_inputs_empty",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = (x * x).sum()
    y.backward(inputs=[])
""",
)
case(
    "autograd/backward_inputs_no_grad",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = torch.tensor([1.0, 2.0])
    y = (x * c).sum()
    y.backward(inputs=[c])
""",
)
case(
    "legacy/variable_volatile",
    """
    from torch.autograd import Variable
    v = Variable(torch.ones(2), volatile=True)
    v
    v.requires_grad
""",
)
case(
    "legacy/variable_volatile_requires_grad",
    """
    from torch.autograd import Variable
    v = Variable(torch.ones(2), requires_grad=True, volatile=True)
""",
)
case(
    "device/cpu_everywhere",
    """
    device = torch.device("cuda" if torch.cuda.is_available() else "cpu")
    device
    print(device)
    x = torch.ones(2, 2, device=device, requires_grad=True)
    x.device
    x.device.type
    x.device.index
    x.is_cpu
    x.is_cuda
    x.to(device, torch.float32)
    x.to(copy=True)
    x.to("cpu").requires_grad
    t = torch.tensor([1.0, 2.0], device="cpu")
    t.to(x)
    t.to(torch.int64)
    t.to("cpu:1", torch.float32)
    torch.device("cpu", 0)
    torch.device("cuda:1")
    torch.randn(2, device=device).shape
    torch.zeros_like(x, device="cpu")
    torch.arange(3, device="cpu")
    x.cpu().requires_grad
    torch.cuda.device_count()
""",
)
case(
    "shape/narrow_select_view_as",
    """
    x = torch.ones(3, 4, requires_grad=True)
    x.narrow(1, 1, 2).grad_fn
    x.narrow(0, -2, 2).shape
    x.narrow(0, 3, 0).shape
    torch.narrow(x, 1, 0, 1).shape
    x.select(1, -1).grad_fn
    torch.select(x, 0, 1).shape
    x.view_as(torch.ones(2, 6)).grad_fn
    a = torch.arange(12.0).reshape(3, 4)
    v = a.narrow(1, 1, 2)
    _ = v.mul_(10)
    s = a.select(0, 2)
    _ = s.add_(100)
    a
    v._version
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    (w.narrow(1, 0, 1).sum() * 3 + w.select(0, 1).pow(2).sum() + w.view_as(torch.ones(4)).sum()).backward()
    w.grad
    x.narrow(1, 2, 5)
""",
)
case(
    "shape/narrow_errors",
    """
    x = torch.ones(3, 4)
    x.narrow(1, -5, 1)
""",
)
case(
    "shape/select_errors",
    """
    x = torch.ones(3, 4)
    x.select(1, 5)
""",
)
case(
    "dtype/type_as",
    """
    x = torch.tensor([1.5, 2.0], requires_grad=True)
    i = torch.tensor([1, 2])
    x.type_as(i)
    i.type_as(x)
    x.type_as(torch.ones(1, dtype=torch.float32))
    x.type_as(torch.ones(1)).grad_fn
    x.type_as(3)
""",
)
case(
    "device/cuda_tensor",
    """
    x = torch.ones(2, device="cuda")
""",
)
case(
    "device/cuda_method",
    """
    x = torch.ones(2)
    x.cuda()
""",
)
case(
    "device/mps",
    """
    x = torch.ones(2)
    x.to("mps")
""",
)
case(
    "device/unknown_type",
    """
    torch.device("gpu")
""",
)
case(
    "device/bad_index",
    """
    torch.device("cuda:x")
""",
)
case(
    "loss/autograd_tutorial_bce_with_logits",
    """
    x = torch.ones(5)
    y = torch.zeros(3)
    w = torch.tensor([[0.1, -0.2, 0.3], [0.4, 0.5, -0.6], [-0.7, 0.8, 0.9], [1.0, -1.1, 1.2],
                      [0.13, 0.14, -0.15]], requires_grad=True)
    b = torch.tensor([0.5, -0.25, 0.125], requires_grad=True)
    z = torch.matmul(x, w) + b
    loss = torch.nn.functional.binary_cross_entropy_with_logits(z, y)
    print(f"Gradient function for z = {z.grad_fn}")
    print(f"Gradient function for loss = {loss.grad_fn}")
    loss.backward()
    print(w.grad)
    print(b.grad)
""",
)
LOSS_SETUP = """
    a = torch.tensor([[0.5, -1.2, 2.0, 0.1], [-0.3, 0.8, -2.5, 1.7], [1.1, -0.4, 0.6, -0.9]],
                     requires_grad=True)
    t = torch.tensor([[0.2, 0.9, 0.5, 0.0], [1.0, 0.3, 0.7, 0.4], [0.6, 0.1, 0.8, 1.0]],
                     requires_grad=True)
    c = torch.tensor([1, 0, 3])
"""
for _red in ("mean", "sum", "none"):
    for _name, _call, _t in (
        ("mse", "F.mse_loss(a, t, reduction=R)", True),
        ("l1", "F.l1_loss(a, t, reduction=R)", True),
        ("bce_with_logits", "F.binary_cross_entropy_with_logits(a, t, reduction=R)", True),
        (
            "bce_with_logits_weights",
            "F.binary_cross_entropy_with_logits(a, t, reduction=R, "
            "weight=torch.tensor([0.5, 1.0, 1.5, 2.0]), pos_weight=torch.tensor([1.0, 2.0, 0.5, 3.0]))",
            True,
        ),
        ("bce", "F.binary_cross_entropy(torch.sigmoid(a), t, reduction=R)", True),
        ("cross_entropy", "F.cross_entropy(a, c, reduction=R)", False),
        (
            "cross_entropy_weight",
            "F.cross_entropy(a, c, reduction=R, weight=torch.tensor([1.0, 2.0, 3.0, 4.0]))",
            False,
        ),
        ("cross_entropy_probs", "F.cross_entropy(a, t.softmax(dim=1), reduction=R)", True),
        (
            "nll_ignore",
            "F.nll_loss(F.log_softmax(a, dim=1), torch.tensor([1, -100, 3]), reduction=R)",
            False,
        ),
    ):
        case(
            f"loss/{_name}_{_red}",
            LOSS_SETUP
            + f"""
    loss = {_call.replace("R", repr(_red))}
    loss
    loss.sum().backward()
    a.grad
"""
            + ("    t.grad\n" if _t else ""),
        )
case(
    "loss/modules",
    LOSS_SETUP
    + """
    loss_fn = torch.nn.MSELoss()
    loss_fn
    loss_fn(a, t)
    ce = torch.nn.CrossEntropyLoss(reduction="sum")
    ce(a, c)
    torch.nn.BCEWithLogitsLoss()(a, t)
    torch.nn.NLLLoss()(a, c)
    torch.nn.L1Loss(reduction="none")(a, t)
    torch.nn.BCELoss()(torch.sigmoid(a), t)
""",
)
case(
    "loss/second_order",
    LOSS_SETUP
    + """
    g, = torch.autograd.grad(F.binary_cross_entropy_with_logits(a, t), a, create_graph=True)
    g.sum().backward()
    a.grad
    t.grad
""",
)
case(
    "loss/legacy_size_average",
    """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([0.0, 0.0])
    F.mse_loss(a, b, size_average=False)
    F.mse_loss(a, b, reduce=False)
    torch.nn.MSELoss(size_average=True, reduction="sum")(a, b)
""",
)
case(
    "loss/cross_entropy_probs_3d",
    """
    v = torch.tensor([[[0.2, -1.0], [3.0, 0.5], [0.1, 0.7]], [[1.2, 0.3], [-0.5, 0.25], [2.0, -2.0]]],
                     requires_grad=True)
    p = torch.tensor([[[0.2, 0.5], [0.3, 0.25], [0.5, 0.25]], [[0.1, 0.6], [0.8, 0.2], [0.1, 0.2]]])
    loss = F.cross_entropy(v, p)
    loss
    loss.backward()
    v.grad
""",
)
case(
    "loss/cross_entropy_1d",
    """
    v = torch.tensor([0.2, -1.0, 3.0, 0.5], requires_grad=True)
    loss = F.cross_entropy(v, torch.tensor(2))
    loss
    loss.backward()
    v.grad
""",
)
case(
    "loss/nll_all_ignored",
    """
    v = torch.tensor([[0.2, -1.0], [3.0, 0.5]], requires_grad=True)
    F.nll_loss(v, torch.tensor([-100, -100]))
""",
)
case(
    "loss/mse_broadcast_warns",
    """
    v = torch.tensor([[0.2, -1.0], [3.0, 0.5]], requires_grad=True)
    loss = F.mse_loss(v, torch.tensor([1.0, 2.0]))
    loss
    loss.backward()
    v.grad
""",
)
case(
    "loss/mse_int_target",
    """
    v = torch.tensor([[0.2, -1.0], [3.0, 0.5]], requires_grad=True)
    F.mse_loss(v, torch.tensor([[1, 2], [3, 4]]))
""",
)
for _name, _src in (
    ("bad_reduction", "F.mse_loss(v, v, reduction='avg')"),
    ("bce_out_of_range", "F.binary_cross_entropy(v, torch.rand(2, 2))"),
    ("bce_size", "F.binary_cross_entropy(torch.sigmoid(v), torch.rand(2))"),
    ("bce_with_logits_size", "F.binary_cross_entropy_with_logits(v, torch.rand(2))"),
    (
        "bce_with_logits_int_target",
        "F.binary_cross_entropy_with_logits(v, torch.ones(2, 2, dtype=torch.long))",
    ),
    ("nll_out_of_bounds", "F.nll_loss(v, torch.tensor([0, 5]))"),
    ("nll_negative", "F.cross_entropy(v, torch.tensor([0, -1]))"),
    ("nll_float_target", "F.nll_loss(v, torch.tensor([0.0, 1.0]))"),
    ("nll_batch", "F.nll_loss(v, torch.tensor([0, 1, 1]))"),
    ("mse_shapes", "F.mse_loss(v, torch.ones(3))"),
):
    case(
        f"loss/error_{_name}",
        f"""
    v = torch.tensor([[0.2, -1.0], [3.0, 0.5]], requires_grad=True)
    {_src}
""",
    )
case(
    "dtype/python_types_as_dtypes",
    """
    torch.ones(2, dtype=bool)
    torch.ones(2, dtype=float)
    torch.ones(2).to(int)
    torch.zeros(2, dtype=int).dtype
""",
)
case(
    "dtype/not_a_dtype",
    """
    torch.ones(2, dtype=5)
""",
)
case(
    "training/gradient_descent_no_grad_update",
    """
    x = torch.linspace(-1, 1, 20)
    y = 3 * x + 0.5
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    lr = 0.1
    for epoch in range(50):
        y_pred = w * x + b
        loss = ((y_pred - y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            b -= lr * b.grad
            w.grad.zero_()
            b.grad.zero_()
        if epoch % 10 == 0:
            print(epoch, loss.item())
    print(w, b, w.is_leaf, w.requires_grad)
""",
)
case(
    "training/params_list_update",
    """
    x = torch.linspace(0, 2, 9)
    t = torch.sin(x)
    a = torch.tensor(0.1, requires_grad=True)
    c = torch.tensor([0.2, -0.1], requires_grad=True)
    params = [a, c]
    for step in range(30):
        loss = ((a * x + c[0] * x ** 2 + c[1] - t) ** 2).sum()
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= 0.01 * p.grad
                p.grad = None
    print(loss.item())
    params
""",
)
case(
    "training/in_place_shape_error",
    """
    w = torch.tensor([1.0], requires_grad=True)
    with torch.no_grad():
        w += torch.ones(2)
""",
)
case(
    "training/rebind_outside_no_grad",
    """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    v = w
    v = v * 1
    v += 1
    v
    w
""",
)
case(
    "creation/arange_linspace_non_finite",
    """
    torch.arange(0.0, 5, float("inf"))
    torch.linspace(0, float("inf"), 5)
    torch.linspace(float("nan"), 1, 3)
""",
)
for _name, _src in (
    ("inf_end", 'torch.arange(float("inf"))'),
    ("inf_end2", 'torch.arange(1.0, float("inf"))'),
    ("nan_end", 'torch.arange(float("nan"))'),
    ("nan_step", 'torch.arange(0, 1, float("nan"))'),
):
    case(f"creation/arange_{_name}", _src + "\n")
for _fn, _vals in (
    ("log1p", "[-0.5, 0.0, 0.25, 2.0]"),
    ("expm1", "[-1.0, 0.0, 1e-3, 1.5]"),
    ("rsqrt", "[0.5, 1.0, 2.0, 9.0]"),
    ("reciprocal", "[-2.0, 0.5, 1.0, 4.0]"),
    ("atan", "[-2.0, 0.0, 0.5, 3.0]"),
    ("asin", "[-0.9, 0.0, 0.3, 0.7]"),
    ("acos", "[-0.9, 0.0, 0.3, 0.7]"),
    ("sinh", "[-2.0, 0.0, 0.5, 1.5]"),
    ("cosh", "[-2.0, 0.0, 0.5, 1.5]"),
):
    case(
        f"math/{_fn}",
        f"""
    x = torch.tensor({_vals}, requires_grad=True)
    y = torch.{_fn}(x)
    y
    y.sum().backward()
    x.grad
    g, = torch.autograd.grad(x.{_fn}().sum(), x, create_graph=True)
    g.sum().backward()
    x.grad
""",
    )
for _fn, _call in (
    ("softplus", "F.softplus(x)"),
    ("softplus_beta", "F.softplus(x, beta=2, threshold=1)"),
    ("leaky_relu", "F.leaky_relu(x)"),
    ("leaky_relu_slope", "F.leaky_relu(x, 0.2)"),
    ("elu", "F.elu(x)"),
    ("elu_alpha", "F.elu(x, alpha=0.5)"),
    ("silu", "F.silu(x)"),
):
    case(
        f"activation/{_fn}",
        f"""
    x = torch.tensor([[-3.0, -0.5, 0.0], [0.25, 1.0, 30.0]], requires_grad=True)
    y = {_call}
    y
    y.sum().backward()
    x.grad
    g, = torch.autograd.grad({_call}.sum(), x, create_graph=True)
    g.sum().backward()
    x.grad
""",
    )
case(
    "compare/predicates",
    """
    x = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), 0.0])
    torch.isnan(x)
    x.isinf()
    torch.isfinite(x)
    (x > 0).any()
    (x > 0).all()
    torch.tensor([[True, False], [True, True]]).all(dim=1)
    torch.tensor([[0, 0], [0, 2]]).any(dim=0, keepdim=True)
    torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0 + 1e-9]))
    torch.allclose(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.1]))
    torch.equal(torch.tensor([1.0, 2.0]), torch.tensor([1.0, 2.0]))
    torch.tensor([1.0, 2.0]).equal(torch.tensor([1.0]))
""",
)
case(
    "random/randint",
    """
    g = torch.manual_seed(0)
    torch.randint(0, 10, (3,))
    torch.randint(5, (2, 2))
    torch.randint(3, 10, (4,), dtype=torch.float64)
    torch.randint(low=2, high=4, size=(3,))
""",
)
case(
    "random/randint_empty_range",
    """
    torch.randint(5, 3, (2,))
""",
)
case(
    "autograd/hooks",
    """
    x = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
    y = x * 2
    h = y.register_hook(lambda g: g * 3)
    z = y.sum()
    z.backward()
    print(x.grad)
    x.grad = None
    h.remove()
    (x * 2).sum().backward()
    print(x.grad)
    x.grad = None
    seen = []
    def show(g):
        print("leaf hook got", g)
    hx = x.register_hook(show)
    w = x * x + x
    w.sum().backward()
    print(x.grad)
    hx.remove()
    x.grad = None
    a = torch.tensor(2.0, requires_grad=True)
    b = a * 3
    b.retain_grad()
    b.register_hook(lambda g: g + 100)
    c = b ** 2
    c.backward()
    print(b.grad, a.grad)
    v = torch.tensor([1.0, 2.0], requires_grad=True)
    u = v * 1
    u.register_hook(lambda g: print("u grad", g))
    r = torch.autograd.grad((u * u).sum(), v)
    print(r)
    k = torch.tensor([1.0, 2.0], requires_grad=True)
    k.register_hook(lambda g: g * 10)
    print(torch.autograd.grad((k * k).sum(), k))
    (k * k).sum().backward()
    print(k.grad)
""",
)
case(
    "autograd/hook_changes_size",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    h = y.register_hook(lambda g: g.sum())
    y.sum().backward()
""",
)
case(
    "autograd/hook_needs_grad",
    """
    x = torch.tensor([1.0, 2.0])
    x.register_hook(lambda g: g)
""",
)
case(
    "autograd/hook_create_graph",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x ** 3
    y.register_hook(lambda g: g * 2)
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    g
    g.sum().backward()
    x.grad
""",
)
case(
    "shape/split_chunk",
    """
    x = torch.arange(10.0).reshape(5, 2).requires_grad_()
    a, b, c = x.split(2)
    a, b, c
    p, q = torch.split(x, [1, 4])
    p, q
    x.chunk(2)
    x.chunk(3, dim=1)
    torch.chunk(x, 4)
    (a.sum() * 2 + c.sum() + q[0].sum() * 10).backward()
    x.grad
""",
)
case(
    "shape/split_bad_sizes",
    """
    torch.ones(5).split([2, 2])
""",
)
case(
    "shape/chunk_zero",
    """
    torch.ones(5).chunk(0)
""",
)
case(
    "reduce/cumsum",
    """
    x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
    y = x.cumsum(dim=1)
    y
    torch.cumsum(x, 0)
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
    x.grad
    torch.tensor([1, 2, 3]).cumsum(0)
    torch.tensor([True, False, True]).cumsum(0)
    g, = torch.autograd.grad((x.cumsum(1) ** 2).sum(), x, create_graph=True)
    g
    g.sum().backward()
    x.grad
""",
)
case(
    "shape/flip",
    """
    x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
    y = x.flip(0)
    y
    torch.flip(x, (0, 1))
    (y * torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])).sum().backward()
    x.grad
""",
)
case(
    "shape/masked_fill",
    """
    x = torch.tensor([[1.0, -2.0, 3.0], [0.5, 4.0, -1.0]], requires_grad=True)
    y = x.masked_fill(x < 0, 0.0)
    y
    torch.masked_fill(x, torch.tensor([True, False, True]), float("-inf"))
    (y * 2).sum().backward()
    x.grad
""",
)
case(
    "shape/masked_fill_not_bool",
    """
    torch.ones(2).masked_fill(torch.tensor([1, 0]), 0.0)
""",
)
case(
    "reduce/var/no_degrees_of_freedom_backward",
    """
    x = torch.tensor([[.5]], requires_grad=True)
    y = torch.var(x)
    y.backward()
    x.grad
    z = torch.tensor([.5, 2.0, 2.0], requires_grad=True)
    v = torch.var(z, correction=3)
    v
    v.backward()
    z.grad
""",
)
case(
    "creation/linspace_float_steps",
    """
    torch.linspace(0, 1, 2.0)
""",
)
case(
    "training/optimizers",
    """
    x = torch.linspace(-1, 1, 20)
    y = 3 * x + 0.5 + 0.1 * torch.sin(7 * x)
    w = torch.tensor(0.0, requires_grad=True)
    b = torch.tensor(0.0, requires_grad=True)
    opt = torch.optim.SGD([w, b], lr=0.1, momentum=0.9)
    print(opt)
    for epoch in range(30):
        opt.zero_grad()
        loss = ((w * x + b - y) ** 2).mean()
        loss.backward()
        opt.step()
        if epoch % 10 == 0:
            print(epoch, loss.item())
    print(w.item(), b.item(), w.grad)
    import torch.optim as optim
    a = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    opt2 = optim.Adam([a], lr=0.05)
    for i in range(20):
        opt2.zero_grad()
        l = ((a - torch.tensor([0.3, 0.1, -0.2])) ** 2).sum()
        l.backward()
        opt2.step()
    print(a, l.item())
    c = torch.tensor([1.0, 2.0], requires_grad=True)
    o3 = torch.optim.SGD([c], lr=0.05, weight_decay=0.1, momentum=0.5, nesterov=True)
    for i in range(5):
        o3.zero_grad()
        (c ** 3).sum().backward()
        o3.step()
    print(c.tolist())
""",
)
case(
    "training/adam_repr_and_zero_grad",
    """
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = torch.optim.Adam([w], lr=0.01)
    print(opt)
    (w * w).sum().backward()
    opt.step()
    w
    opt.zero_grad(set_to_none=False)
    w.grad
    opt.zero_grad()
    print(w.grad)
""",
)
for _name, _src in (
    ("not_iterable", "torch.optim.SGD(w, lr=0.1)"),
    ("empty", "torch.optim.SGD([], lr=0.1)"),
    ("non_leaf", "torch.optim.SGD([w * 2], lr=0.1)"),
    ("bad_lr", "torch.optim.SGD([w], lr=-1)"),
    ("bad_beta", "torch.optim.Adam([w], betas=(1.5, 0.9))"),
):
    case(
        f"training/optimizer_error_{_name}",
        f"""
    w = torch.ones(2, requires_grad=True)
    {_src}
""",
    )
case(
    "creation/arange_string_step",
    """
    torch.arange(0, 1, "nan")
""",
)
case(
    "random/randint_float_bound",
    """
    torch.randint(5, 7.5, (2,))
""",
)
case(
    "random/randint_infinite_bound",
    """
    torch.randint(5, float("inf"), (2,))
""",
)
case(
    "autograd/broadcast_grad_summed",
    """
    a = torch.tensor([[1.0], [2.0], [3.0]], requires_grad=True)
    b = torch.tensor([10.0, 20.0], requires_grad=True)
    s = torch.tensor(0.5, requires_grad=True)
    y = a * b + s
    y
    y.sum().backward()
    a.grad
    b.grad
    s.grad
""",
)
case(
    "autograd/broadcast_python_scalar_0d",
    """
    s = torch.tensor(2.0, requires_grad=True)
    y = s * torch.ones(2, 3)
    y.sum().backward()
    s.grad
""",
)
case(
    "autograd/diamond",
    """
    x = torch.tensor(2.0, requires_grad=True)
    a = x * 3
    b = x ** 2
    y = a * b + a
    y.backward()
    x.grad
""",
)
case(
    "autograd/reuse_intermediate",
    """
    x = torch.tensor([1.0, -1.0], requires_grad=True)
    y = x.exp()
    z = (y * y + y).sum()
    z.backward()
    x.grad
""",
)
case(
    "autograd/leaf_inplace_error",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x.zero_()
""",
)
case(
    "autograd/zero_on_plain",
    """
    t = torch.tensor([1.0, 2.0])
    t.zero_()
    t
""",
)
case(
    "autograd/zero_inside_no_grad",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.no_grad():
        x.zero_()
    x
""",
)
case(
    "autograd/tutorial_flow",
    """
    x = torch.ones(2, 2, requires_grad=True)
    y = x + 2
    y
    y.grad_fn
    z = y * y * 3
    out = z.mean()
    print(z, out)
    out.backward()
    x.grad
""",
)
case(
    "autograd/grad_is_leaf_no_grad",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    (x * x).sum().backward()
    x.grad.requires_grad
    print(x.grad.grad_fn)
    x.grad.is_leaf
""",
)
case(
    "autograd/augassign_mul",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    y *= 3
    y
    y += 1
    y
    y.sum().backward()
    x.grad
""",
)
case(
    "autograd/augassign_numbers",
    """
    n = 1
    n += 2
    n *= 5
    n -= 1
    print(n)
    f = 1.0
    f /= 4
    print(f)
""",
)


# ---------------------------------------------------------------------------
# 10. Edge values
# ---------------------------------------------------------------------------

case(
    "edge/sqrt_zero",
    _unary_src("x = torch.tensor([0.0, 4.0], requires_grad=True)", "x.sqrt()", False),
)
case(
    "edge/pow_half_zero",
    _unary_src("x = torch.tensor([0.0, 4.0], requires_grad=True)", "x ** 0.5", False),
)
case(
    "edge/abs_zero",
    _unary_src("x = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)", "x.abs()", False),
)
case(
    "edge/relu_zero",
    _unary_src("x = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)", "x.relu()", False),
)
case(
    "edge/sign_zero",
    _unary_src("x = torch.tensor([-2.0, 0.0, 3.0], requires_grad=True)", "x.sign()", False),
)
case(
    "edge/max_ties_share",
    _unary_src("x = torch.tensor([1.0, 4.0, 4.0], requires_grad=True)", "x.max()", True),
)
case(
    "edge/min_ties_share",
    _unary_src("x = torch.tensor([-1.0, -1.0, -1.0, 2.0], requires_grad=True)", "x.min()", True),
)
case(
    "edge/maximum_ties",
    _lines(
        "a = torch.tensor([1.0, 2.0], requires_grad=True)",
        "b = torch.tensor([1.0, 3.0], requires_grad=True)",
        "y = torch.maximum(a, b)",
        "y.sum().backward()",
        "a.grad",
        "b.grad",
    ),
)
case(
    "edge/clamp_at_bounds",
    _unary_src("x = torch.tensor([0.0, 0.5, 1.0], requires_grad=True)", "x.clamp(0, 1)", False),
)
case(
    "edge/log_neg",
    _unary_src("x = torch.tensor([-1.0, 0.0, 1.0], requires_grad=True)", "x.log()", False),
)
case(
    "edge/log_scalar_neg",
    """
    torch.log(torch.tensor(-1.0))
    torch.sqrt(torch.tensor(-4.0))
""",
)
case(
    "edge/div_zero",
    """
    x = torch.tensor([1.0, -1.0, 0.0], requires_grad=True)
    y = x / 0
    y
    y.sum().backward()
    x.grad
""",
)
case(
    "edge/div_by_zero_tensor",
    """
    a = torch.tensor([1.0, -1.0, 0.0], requires_grad=True)
    b = torch.tensor([0.0, 0.0, 0.0], requires_grad=True)
    y = a / b
    y
    y.sum().backward()
    a.grad
    b.grad
""",
)
case(
    "edge/reciprocal_zero",
    _unary_src("x = torch.tensor([0.0, 2.0], requires_grad=True)", "1 / x", False),
)
case(
    "edge/int_div_zero",
    """
    torch.tensor([1, 0, -1]) / 0
    torch.tensor(1.0) / torch.tensor(0.0)
    torch.tensor(0.0) / torch.tensor(0.0)
""",
)
case(
    "edge/nan_inf_display",
    """
    t = torch.tensor([float("nan"), float("inf"), -float("inf"), 1.0])
    t
    t * 0
    t.sum()
    t.max()
""",
)
case(
    "edge/nan_propagation_grad",
    """
    x = torch.tensor([-1.0, 1.0], requires_grad=True)
    y = torch.log(x).sum()
    y
    y.backward()
    x.grad
""",
)
case(
    "edge/pow_self_at_zero",
    _unary_src("x = torch.tensor([0.0, 1.0, 2.0], requires_grad=True)", "x ** x", False),
)
case(
    "edge/pow_zero_base_tensor_exp",
    """
    a = torch.tensor([0.0, 0.0, 2.0], requires_grad=True)
    b = torch.tensor([2.0, 0.0, 1.0], requires_grad=True)
    y = a ** b
    y
    y.sum().backward()
    a.grad
    b.grad
""",
)
case(
    "edge/rpow_zero_base",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = 0 ** x
    y
    y.sum().backward()
    x.grad
""",
)
case(
    "edge/exp_overflow",
    _unary_src("x = torch.tensor([1000.0, -1000.0], requires_grad=True)", "x.exp()", False),
)
case(
    "edge/sigmoid_extremes",
    _unary_src(
        "x = torch.tensor([-1000.0, 0.0, 1000.0], requires_grad=True)", "x.sigmoid()", False
    ),
)
case(
    "edge/tanh_extremes",
    _unary_src("x = torch.tensor([-1000.0, 0.0, 1000.0], requires_grad=True)", "x.tanh()", False),
)
case(
    "edge/norm_grad_at_zero_dim",
    _unary_src(
        "x = torch.tensor([[0.0, 0.0], [3.0, 4.0]], requires_grad=True)", "x.norm(dim=1)", False
    ),
)
case(
    "edge/floor_negative",
    """
    torch.tensor([-0.5, -1.5, 1.5]).floor()
    torch.tensor([-0.5, -1.5, 1.5]).ceil()
    torch.tensor([-0.5, -1.5, 1.5, 0.49999]).round()
""",
)
case(
    "edge/negative_zero",
    """
    torch.tensor(-0.0)
    torch.tensor([0.0, -0.0])
    -torch.tensor([0.0, 1.0])
    torch.tensor([-0.25]).round()
""",
)
case(
    "edge/inf_minus_inf",
    """
    a = torch.tensor(float("inf"))
    a - a
    a * 0
    -a
""",
)


# ---------------------------------------------------------------------------
# 11. Attributes and small methods
# ---------------------------------------------------------------------------

case(
    "attr/shape",
    """
    x = torch.ones(2, 3)
    x.shape
    print(x.shape)
    x.shape[0]
    x.shape[1]
    torch.tensor(1.0).shape
""",
)
case(
    "attr/size",
    """
    x = torch.ones(2, 3)
    x.size()
    x.size(0)
    x.size(1)
    x.size(-1)
    torch.tensor([1.0]).size()
""",
)
case(
    "attr/dtype",
    """
    torch.ones(2).dtype
    torch.ones(2, dtype=torch.float32).dtype
    torch.tensor([1, 2]).dtype
    torch.tensor([True]).dtype
    print(torch.tensor([1, 2]).dtype)
""",
)
case(
    "attr/dim",
    """
    torch.tensor(1.0).dim()
    torch.ones(3).dim()
    torch.ones(2, 3).dim()
    torch.ones(1, 2, 3).dim()
""",
)
case(
    "attr/numel",
    """
    torch.tensor(1.0).numel()
    torch.ones(3).numel()
    torch.ones(2, 3).numel()
""",
)
case(
    "attr/item",
    """
    torch.tensor(2.5).item()
    torch.tensor([3.0]).item()
    torch.tensor(7).item()
    torch.tensor(True).item()
    x = torch.tensor(1.5, requires_grad=True)
    (x * 2).item()
    print(torch.tensor(0.125).item())
""",
)
case(
    "attr/item_float32",
    """
    torch.tensor(0.5, dtype=torch.float32).item()
    torch.tensor(0.1, dtype=torch.float32).item()
""",
)
case(
    "attr/item_precision",
    """
    torch.tensor(0.1).item()
    torch.tensor(1.0 / 3).item()
    (torch.tensor(0.1) + torch.tensor(0.2)).item()
""",
)
case(
    "attr/item_error",
    """
    torch.tensor([1.0, 2.0, 3.0]).item()
""",
)
case(
    "attr/tolist",
    """
    torch.tensor([1.0, 2.5]).tolist()
    torch.tensor([[1, 2], [3, 4]]).tolist()
    torch.tensor(2.5).tolist()
    torch.tensor([True, False]).tolist()
    x = torch.tensor([0.5, 1.5], requires_grad=True)
    x.tolist()
    print(torch.tensor([0.25]).tolist())
""",
)
case(
    "attr/clone",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    c = x.clone()
    c
    print(c.grad_fn)
    c.is_leaf
    (c * 3).sum().backward()
    x.grad
""",
)
case(
    "attr/clone_plain",
    """
    t = torch.tensor([1, 2])
    c = t.clone()
    c
    c.zero_()
    t
""",
)
case(
    "attr/clone_func",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.clone(x)
""",
)
case(
    "attr/zero_returns_self",
    """
    t = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    u = t.zero_()
    u
    t
""",
)
case(
    "attr/requires_grad_attr",
    """
    x = torch.tensor([1.0], requires_grad=True)
    x.requires_grad
    torch.tensor([1.0]).requires_grad
    (x * 2).requires_grad
""",
)
case(
    "attr/len",
    """
    len(torch.ones(4, 2))
    len(torch.tensor([1, 2, 3]))
""",
)
case(
    "attr/len_0d_error",
    """
    len(torch.tensor(1.0))
""",
)
case(
    "attr/float_int_of_tensor",
    """
    float(torch.tensor(2.5))
    int(torch.tensor(3.7))
    float(torch.tensor([4.0]))
    int(torch.tensor(-3.7))
""",
)
case(
    "attr/T_attribute",
    """
    x = torch.tensor([[1.0, 2.0, 3.0]])
    x.T
    x.T.shape
""",
)
case(
    "attr/bool_condition_error",
    """
    x = torch.tensor([1.0, 2.0])
    if x > 0:
        print("yes")
""",
)
case(
    "attr/bool_condition_one_element",
    """
    x = torch.tensor([1.0])
    if x > 0:
        print("yes")
    if torch.tensor(0.0):
        print("no")
    else:
        print("zero is false")
""",
)


# ---------------------------------------------------------------------------
# 12. Display / formatting of tensors (PyTorch's repr rules)
# ---------------------------------------------------------------------------

_DISPLAY = {
    "int_valued_floats": "torch.tensor([1.0, 2.0, 3.0])",
    "fractions": "torch.tensor([0.5, 0.25, 0.125])",
    "four_digits": "torch.tensor([1.0 / 3, 2.0 / 3])",
    "mixed_magnitude": "torch.tensor([123.456, 1.0])",
    "sci_large_ratio": "torch.tensor([1.5, 100000.0])",
    "sci_small": "torch.tensor([0.001, 1.0])",
    "sci_tiny": "torch.tensor([1e-5, 2e-5])",
    "large_ints_float": "torch.tensor([100000000.0, 1.0])",
    "big_float": "torch.tensor([123456789.0])",
    "negative": "torch.tensor([-1.5, 2.25, -3.0])",
    "negative_ints": "torch.tensor([-1.0, 2.0, -300.0])",
    "scalar_sci": "torch.tensor(1e-5)",
    "scalar_big": "torch.tensor(1e10)",
    "scalar_neg": "torch.tensor(-2.5)",
    "scalar_third": "torch.tensor(1.0 / 3)",
    "matrix": "torch.tensor([[1.5, -2.0], [30.25, 4.0]])",
    "matrix_sci": "torch.tensor([[1e-4, 1.0], [2.0, 1e4]])",
    "tensor_3d": "torch.arange(12.0).reshape(2, 2, 3)",
    "tensor_4d": "torch.arange(16).reshape(2, 2, 2, 2)",
    "int_wide": "torch.tensor([1, -100, 10000])",
    "bool_matrix": "torch.tensor([[True, False], [False, True]])",
    "float32_matrix": "torch.tensor([[1.0, 2.5], [3.0, 4.0]], dtype=torch.float32)",
    "float32_scalar": "torch.tensor(2.5, dtype=torch.float32)",
    "float32_third": "torch.tensor([1.0 / 3], dtype=torch.float32)",
    "summarised_float": "torch.arange(2000.0)",
    "summarised_float_small": "torch.arange(1001.0) / 1000",
    "summarised_int": "torch.arange(1500)",
    "summarised_matrix": "torch.ones(1001, 3)",
    "summarised_matrix_wide": "torch.arange(3003.0).reshape(3, 1001)",
    "not_summarised_1000": "torch.ones(1000).sum()",
    "wide_matrix_wrap": "torch.arange(20.0).reshape(2, 10) / 7",
    "wide_vector_wrap": "torch.linspace(0, 1, 15)",
    "nan_only": 'torch.tensor([float("nan")])',
    "inf_and_big": 'torch.tensor([float("inf"), 12345.678])',
    "empty": "torch.zeros(0)",
    "empty_2d": "torch.ones(0, 3)",
    "one_element": "torch.tensor([[[5.0]]])",
    "zeros_neg": "torch.zeros(2) * -1",
    "requires_grad_matrix": "torch.ones(2, 2, requires_grad=True)",
    "grad_fn_matrix": "torch.ones(2, 2, requires_grad=True) * 3",
    "grad_fn_float32": "torch.ones(2, dtype=torch.float32, requires_grad=True) * 3",
    "precise_digits": "torch.tensor([1.23456789, 12.3456789])",
    "round_up_digit": "torch.tensor([0.99999, 1.5])",
    "hundred": "torch.tensor([100.0, 0.5])",
    "thousand_frac": "torch.tensor([1000.5, 0.5])",
}
for _n, _e in _DISPLAY.items():
    case("display/" + _n, _lines("t = " + _e, "t", "print(t)"))
case(
    "display/print_multiple",
    """
    a = torch.tensor([1.0, 2.0])
    b = torch.tensor(3.0, requires_grad=True)
    print(a, b)
    print("a =", a)
    print("x.grad =", None)
""",
)
case(
    "display/display_multiple",
    """
    a = torch.tensor([1.0, 2.0])
    b = torch.tensor(3.0, requires_grad=True)
    display(a, b)
    display(a.shape, a.dtype)
""",
)
case(
    "display/plain_values",
    """
    1 + 2
    2.5 * 2
    7 / 2
    True
    None
    "text"
    print("text", 1, 2.5, True, None)
    (1, 2)
    [1, 2.5]
""",
)
case(
    "display/python_float_repr",
    """
    0.1 + 0.2
    1 / 3
    1e-5
    1e20
    2.0
    print(1 / 3)
""",
)
case(
    "display/format_string",
    """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    print("a.requires_grad = {}".format(a.requires_grad))
    print("{} and {}".format(1, 2.5))
""",
)
case(
    "display/tuple_of_tensors",
    """
    a = torch.tensor([1.0, 2.0])
    (a, a * 2)
    (torch.tensor(12.0),)
""",
)
case(
    "display/list_of_tensors",
    """
    a = torch.tensor([1.0, 2.0])
    [a, torch.tensor(3)]
""",
)
case(
    "display/semicolons",
    """
    a = torch.tensor(1.0); b = a * 2; b
    print(a); print(b)
""",
)
case(
    "display/comments",
    """
    # a comment
    a = torch.tensor(1.5)  # trailing comment
    a  # displayed
""",
)


# ---------------------------------------------------------------------------
# 13. Control flow and functions
# ---------------------------------------------------------------------------

case(
    "control/for_range",
    """
    x = torch.tensor(1.0, requires_grad=True)
    y = x
    for i in range(3):
        y = y * 2
        y
    y.backward()
    x.grad
""",
)
case(
    "control/for_range_args",
    """
    for i in range(2, 8, 2):
        print(i)
    for i in range(3, 0, -1):
        i
""",
)
case(
    "control/for_tensor_rows",
    """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    total = 0
    for row in x:
        row
        total = total + row.sum() * 2
    total
    total.backward()
    x.grad
""",
)
case(
    "control/for_tensor_grad_fn",
    """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    for row in x:
        print(row.grad_fn)
""",
)
case(
    "control/for_vector",
    """
    for v in torch.tensor([1.0, 2.5]):
        v
""",
)
case(
    "control/for_list",
    """
    x = torch.tensor(2.0, requires_grad=True)
    for c in [1, 2, 3]:
        y = x ** c
        print(c, y)
""",
)
case(
    "control/while_doubling",
    """
    x = torch.tensor([0.5, -1.0, 0.25], requires_grad=True)
    y = x * 2
    while y.data.norm() < 1000:
        y = y * 2
    y
    y.backward(torch.tensor([0.1, 1.0, 0.0001]))
    x.grad
""",
)
case(
    "control/while_counter",
    """
    i = 0
    s = torch.tensor(0.0)
    while i < 4:
        s = s + i
        i = i + 1
    s
    i
""",
)
case(
    "control/while_break_continue",
    """
    i = 0
    while True:
        i = i + 1
        if i == 2:
            continue
        if i > 4:
            break
        print(i)
""",
)
case(
    "control/for_break",
    """
    for i in range(10):
        if i == 3:
            break
        i
""",
)
case(
    "control/if_elif_else",
    """
    x = torch.tensor(-2.0, requires_grad=True)
    if x > 0:
        y = x * 2
    elif x < -1:
        y = x * x
    else:
        y = -x
    y
    y.backward()
    x.grad
""",
)
case(
    "control/if_tensor_item",
    """
    x = torch.tensor([1.0, 2.0, 3.0])
    if x.sum().item() > 5:
        print("big")
    else:
        print("small")
""",
)
case(
    "control/if_display_nested",
    """
    x = torch.tensor(1.0)
    if x > 0:
        if x < 2:
            x * 10
""",
)
case(
    "control/semicolon_hides",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    x * 3;
    x * 4  # a comment; not a semicolon
    x * 5 ;  # hidden
    x; x * 6
    y = (x * x).sum();
    y
""",
)
case(
    "control/while_body_hidden",
    """
    i = 0
    while i < 3:
        i * 10
        i += 1
    i
""",
)
case(
    "control/def_basic",
    """
    def f(a, b):
        return a * b + a
    x = torch.tensor(2.0, requires_grad=True)
    y = f(x, 3)
    y
    y.backward()
    x.grad
""",
)
case(
    "control/def_no_display_inside",
    """
    def f(a):
        a * 100
        b = a + 1
        return b
    f(torch.tensor(1.0))
""",
)
case(
    "control/def_print_inside",
    """
    def f(a):
        print("inside", a)
        return a * 2
    r = f(torch.tensor([1.0, 2.0]))
    r
""",
)
case(
    "control/def_control_flow_seed003",
    """
    def f(a):
        b = a * 2
        while b.norm().item() < 1000:
            b = b * 2
        if b.sum().item() > 0:
            c = b
        else:
            c = 100 * b
        return c
    a = torch.tensor([0.3], requires_grad=True)
    d = f(a)
    d
    d.backward()
    a.grad
    a.grad == (d / a)
    b = torch.tensor([-0.7], requires_grad=True)
    e = f(b)
    e
    e.backward()
    b.grad
""",
)
case(
    "control/def_called_twice_fresh_graph",
    """
    def sq(t):
        return (t * t).sum()
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    sq(x).backward()
    sq(x).backward()
    x.grad
""",
)
case(
    "control/def_recursive",
    """
    def fact(n):
        if n <= 1:
            return 1
        return n * fact(n - 1)
    fact(5)
    x = torch.tensor(2.0, requires_grad=True)
    def p(t, n):
        if n == 0:
            return torch.tensor(1.0)
        return t * p(t, n - 1)
    y = p(x, 4)
    y
    y.backward()
    x.grad
""",
)
case(
    "control/def_multiple_return",
    """
    def both(t):
        return t * 2, t * 3
    x = torch.tensor(1.0, requires_grad=True)
    a, b = both(x)
    a
    b
    (a * b).backward()
    x.grad
""",
)
case(
    "control/def_keyword_args",
    """
    def f(a, scale=2.0):
        return a * scale
    f(torch.tensor(1.5))
    f(torch.tensor(1.5), scale=4)
""",
)
case(
    "control/def_return_none",
    """
    def f(a):
        pass
    f(1)
    print(f(1))
""",
)
case(
    "control/with_no_grad_in_def",
    """
    def update(w):
        with torch.no_grad():
            return w * 0.5
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    r = update(w)
    r
    r.requires_grad
""",
)
case(
    "control/gradient_descent_loop",
    """
    w = torch.tensor([1.0, -1.0], requires_grad=True)
    target = torch.tensor([0.5, 0.5])
    for step in range(3):
        loss = ((w - target) ** 2).sum()
        loss.backward()
        with torch.no_grad():
            w = w - 0.25 * w.grad
        w.requires_grad_(True)
        print(step, loss.item())
    w
""",
)
case(
    "control/del_name",
    """
    a = torch.tensor(1.0)
    b = a * 2
    del a
    b
""",
)
case(
    "control/bool_ops",
    """
    a = torch.tensor(1.0)
    (a > 0) and (a < 2)
    not (a > 0)
    True or False
    print(1 < 2 and 2 < 3)
""",
)
case(
    "control/tuple_unpack",
    """
    a, b = 1, 2
    print(a, b)
    a, b = b, a
    print(a, b)
""",
)
case(
    "control/error_after_output",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    print("one")
    x * 2
    for i in range(3):
        print(i)
        if i == 1:
            (x * 2).backward()
""",
)
case(
    "control/error_in_function",
    """
    def f(t):
        return t @ t
    print("before")
    f(torch.ones(2, 2))
    f(torch.ones(2, 3))
""",
)


# ---------------------------------------------------------------------------
# grad_fn name table (tests/golden/grad_fn_names.json)
# ---------------------------------------------------------------------------

GRAD_FN_SETUP = """\
x = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
u = torch.tensor([1.5, -1.0, 3.0], requires_grad=True)
m = torch.tensor([[0.5, 1.0, 2.0], [3.0, 4.0, 5.0]], requires_grad=True)
n = torch.tensor([[1.0, 2.0], [0.5, -1.0], [2.0, 0.0]], requires_grad=True)
s = torch.tensor(2.0, requires_grad=True)
q = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
c = torch.tensor([[[1.0], [2.0], [3.0]]], requires_grad=True)
f = torch.tensor([1.0, 2.0, 4.0], dtype=torch.float32, requires_grad=True)
"""

GRAD_FN_EXPRS = [
    # arithmetic
    "x + u",
    "x + 2",
    "2 + x",
    "x - u",
    "x - 2",
    "2 - x",
    "x * u",
    "x * 2",
    "2 * x",
    "x / u",
    "x / 2",
    "2 / x",
    "-x",
    "x ** 2",
    "x ** 0.5",
    "x ** u",
    "2 ** x",
    "x ** s",
    "torch.pow(x, 2)",
    "torch.pow(2, x)",
    "x.pow(u)",
    "x % 2",
    "x % u",
    "2 % x",
    "x // 2",
    "x * x",
    "f * 2",
    "f + x",
    "(x > 1) * x",
    # element-wise
    "x.exp()",
    "x.log()",
    "x.log2()",
    "x.log10()",
    "x.sqrt()",
    "x.sin()",
    "x.cos()",
    "x.tan()",
    "x.tanh()",
    "x.sigmoid()",
    "x.relu()",
    "F.relu(x)",
    "x.abs()",
    "abs(x)",
    "x.neg()",
    "x.square()",
    "torch.square(x)",
    "x.sign()",
    "x.floor()",
    "x.ceil()",
    "x.round()",
    "x.clamp(0, 1)",
    "x.clamp(min=1)",
    "x.clamp(max=1)",
    "torch.maximum(x, u)",
    "torch.minimum(x, u)",
    "torch.max(x, u)",
    "torch.where(x > 1, x, u)",
    "torch.where(x > 1, x, 0.0)",
    # reductions
    "x.sum()",
    "m.sum(dim=0)",
    "m.sum(1, keepdim=True)",
    "m.sum(dim=(0, 1))",
    "x.mean()",
    "m.mean(dim=1)",
    "x.prod()",
    "m.prod(dim=0)",
    "x.max()",
    "m.max(dim=1).values",
    "m.max(dim=0)[0]",
    "x.min()",
    "m.min(dim=1).values",
    "x.norm()",
    "m.norm(dim=1)",
    "x.norm(1)",
    "x.std()",
    "m.std(dim=0)",
    "x.var()",
    "m.var(dim=1)",
    "torch.logsumexp(x, dim=0)",
    "x.softmax(dim=0)",
    "F.softmax(m, dim=1)",
    "x.log_softmax(dim=0)",
    "F.log_softmax(m, dim=1)",
    # linear algebra
    "m @ n",
    "torch.mm(m, n)",
    "torch.matmul(m, n)",
    "m @ x",
    "torch.mv(m, x)",
    "x @ u",
    "torch.dot(x, u)",
    "torch.matmul(x, u)",
    "torch.outer(x, u)",
    "torch.tensor([1.0, 2.0]) @ m",
    "m.T",
    "m.t()",
    "x.t()",
    "m.transpose(0, 1)",
    "torch.trace(q)",
    "2 * torch.matmul(n.T, n)",
    # shape
    "m.reshape(6)",
    "m.reshape(3, 2)",
    "m.view(-1)",
    "m.flatten()",
    "torch.flatten(m)",
    "x.flatten()",
    "s.flatten()",
    "s.reshape(1)",
    "m.t().reshape(6)",
    "c.squeeze()",
    "c.squeeze(0)",
    "c.squeeze(1)",
    "c.squeeze(dim=(0, 2))",
    "x.unsqueeze(0)",
    "x.expand(2, 3)",
    "torch.cat([x, u])",
    "torch.stack([x, u])",
    "x.clone()",
    "x.detach()",
    "+x",
    # indexing
    "x[0]",
    "x[-1]",
    "m[0]",
    "m[:, 1]",
    "m[0][1]",
    "m[0, 1]",
    "x[1:3]",
    "x[::2]",
    "x[:]",
    "m[1:]",
    "m[:, 1:]",
    "m[:, 0:3]",
    "m[1, :]",
    "x[[0, 2]]",
    "x[x > 0.7]",
    "m[[1, 0]]",
    "m[m > 1]",
]


case(
    "shape/tril_triu",
    """
    import torch
    a = torch.arange(12.).view(3, 4).requires_grad_()
    b = torch.tril(a)
    c = a.triu(1)
    print(b, c, torch.tril(a, -1), a.T.tril())
    (b * 2 + c * 3).sum().backward()
    print(a.grad, b.grad_fn.name(), c.grad_fn.name(), b.grad_fn._saved_diagonal, c.grad_fn._saved_diagonal)
    x = torch.ones(2, 3, 3)
    print(x.tril_(), x.triu(-1), torch.ones(3, 3, dtype=torch.long).tril())
    try:
        torch.tril(torch.ones(3))
    except RuntimeError as e:
        print(e)
    m = torch.tril(torch.ones(4, 4)).view(1, 1, 4, 4)
    print(m[:, :, :2, :2] == 0)
    y = torch.linspace(-1, 1, 9).view(3, 3).requires_grad_()
    g, = torch.autograd.grad(y.tril().pow(2).sum(), y, create_graph=True)
    print(g.grad_fn.name())
""",
)


case(
    "autograd/grad_mode_decorated_methods",
    """
    import torch
    class M:
        def __init__(self):
            self.w = torch.ones(2, requires_grad=True)
        @torch.no_grad()
        def gen(self, x, k=2):
            return (self.w * x * k, torch.is_grad_enabled())
        @torch.inference_mode()
        def inf(self, x):
            return self.w * x
        @torch.enable_grad()
        def eg(self, x):
            return self.w * x
        @torch.no_grad()
        def gen2(self):
            yield self.w * 2
            yield torch.is_grad_enabled()
    m = M()
    print(m.gen(3.0), m.gen(1.0, k=5), M.gen(m, 2.0))
    print(m.inf(2.0).requires_grad)
    with torch.no_grad():
        print(m.eg(2.0))
    print(list(m.gen2()))
    f = m.gen
    print(f(4.0)[0])
    @torch.no_grad()
    def g(x):
        return x * 2
    print(g(m.w))
""",
)


case(
    "loss/cross_entropy_label_smoothing",
    """
    import torch
    import torch.nn.functional as F
    x = torch.linspace(-2, 3, 12).view(4, 3).requires_grad_()
    t = torch.tensor([0, 2, 1, 2])
    for red in ("mean", "sum", "none"):
        l = F.cross_entropy(x, t, label_smoothing=0.1, reduction=red)
        print(l, l.grad_fn.name())
    l = F.cross_entropy(x, t, label_smoothing=0.2)
    l.backward()
    print(x.grad)
    w = torch.tensor([1.0, 2.0, 0.5])
    t2 = torch.tensor([0, -100, 1, 2])
    for red in ("mean", "sum", "none"):
        print(F.cross_entropy(x, t2, weight=w, label_smoothing=0.3, reduction=red))
        print(F.cross_entropy(x, t2, label_smoothing=0.3, reduction=red))
    p = torch.softmax(torch.linspace(0, 1, 12).view(4, 3), 1)
    print(F.cross_entropy(x, p, label_smoothing=0.25), F.cross_entropy(x, p, weight=w, label_smoothing=0.25, reduction="none"))
    crit = torch.nn.CrossEntropyLoss(label_smoothing=0.1)
    print(crit(x, t))
    x3 = torch.linspace(-1, 1, 24).view(2, 3, 4)
    t3 = torch.tensor([[0, 1, 2, -100], [2, 2, 1, 0]])
    print(F.cross_entropy(x3, t3, label_smoothing=0.1), F.cross_entropy(x3, t3, label_smoothing=0.1, reduction="none"))
    print(F.cross_entropy(torch.tensor([1.0, 2.0, 0.5]), torch.tensor(1), label_smoothing=0.1))
    try:
        F.cross_entropy(x, t, label_smoothing=1.5)
    except RuntimeError as e:
        print(e)
    for red in ("mean", "sum", "none"):
        print(F.cross_entropy(x, t2, weight=w, label_smoothing=0.3, reduction=red).tolist())
        print(F.cross_entropy(x, p, weight=w, label_smoothing=0.25, reduction=red).tolist())
    print(x.grad.tolist())
""",
)


case(
    "shape/composites_and_indices",
    """
    import torch
    a = torch.arange(6.).view(2, 3).requires_grad_()
    b = torch.linspace(0, 1, 6).view(2, 3)
    v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    s = torch.tensor(5.0)
    for f in (torch.hstack, torch.vstack, torch.dstack, torch.column_stack):
        r = f([a, b])
        print(r, r.grad_fn.name(), r.shape)
        r2 = f([v, v * 2])
        print(r2, r2.grad_fn.name())
    print(torch.hstack([s, s]), torch.vstack([s, s]).shape, torch.column_stack([s, s]).shape, torch.dstack([v, v]).shape)
    print(torch.fliplr(a), torch.flipud(a).grad_fn.name(), a.fliplr().shape)
    print(torch.moveaxis(torch.zeros(2, 3, 4), 0, 2).shape, a.moveaxis(0, 1).grad_fn.name())
    print(torch.true_divide(a, 2), torch.broadcast_to(v, (2, 3)).grad_fn.name(), v.broadcast_to((4, 3)).shape)
    print(torch.tile(a, (2,)), torch.tile(a, (2, 1, 2)).shape, a.tile((1, 2)).grad_fn.name())
    print(torch.deg2rad(torch.tensor([180.0, 90.0, 45.0])), torch.rad2deg(torch.tensor([3.14159, 1.0])), torch.deg2rad(torch.tensor([180, 1])))
    print(torch.deg2rad(a).grad_fn.name())
    x = torch.tensor([[0.0, 1.5, 0.0], [2.0, 0.0, -1.0]])
    print(torch.nonzero(x), x.nonzero(as_tuple=True), torch.nonzero(torch.tensor(3.0)), torch.nonzero(torch.tensor(0.0), as_tuple=True))
    print(torch.count_nonzero(x), torch.count_nonzero(x, dim=0), x.count_nonzero(dim=(0, 1)), torch.count_nonzero(x, dim=-1))
    print(torch.tril_indices(3, 3), torch.triu_indices(3, 4, 1), torch.tril_indices(4, 3, -1), torch.triu_indices(2, 2, dtype=torch.int32))
    (torch.hstack([a, b]) * torch.arange(12.).view(2, 6)).sum().backward()
    print(a.grad)
    (torch.tile(v, (2, 2)).sum() + torch.deg2rad(v).sum()).backward()
    print(v.grad)
    for bad in (lambda: torch.fliplr(v), lambda: torch.flipud(s), lambda: torch.hstack([]), lambda: torch.tril_indices(-1, 2)):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
""",
)


case(
    "indexing/masked_select_roll_unique_searchsorted",
    """
    import torch
    x = torch.linspace(-2, 3, 12).view(3, 4).requires_grad_()
    m = x > 0.5
    s = torch.masked_select(x, m)
    print(s, s.grad_fn.name(), x.masked_select(torch.tensor([True, False, True, False])))
    (s * torch.arange(float(s.numel()))).sum().backward()
    print(x.grad)
    x.grad = None
    r = torch.roll(x, 1, 0)
    print(r, r.grad_fn.name(), torch.roll(x, 2), torch.roll(x, (1, -1), (0, 1)), x.roll(-3))
    (torch.roll(x, (1, 2), (0, 1)) * torch.arange(12.).view(3, 4)).sum().backward()
    print(x.grad, r.grad_fn._saved_shifts, r.grad_fn._saved_dims)
    x.grad = None
    y = torch.tensor([1.0, float("nan"), float("inf"), -float("inf"), -2.5], requires_grad=True)
    n = torch.nan_to_num(y)
    print(n, n.grad_fn.name(), torch.nan_to_num(y, nan=1.0, posinf=9.0, neginf=-9.0), y.nan_to_num(posinf=3.0))
    n.sum().backward()
    print(y.grad)
    f = torch.frac(torch.tensor([1.5, -2.25, 3.0, -0.75], requires_grad=True))
    print(f, f.grad_fn.name())
    c = torch.clamp_max(x, 0.5)
    print(c, c.grad_fn.name(), x.clamp_max(1))
    c.sum().backward()
    print(x.grad)
    x.grad = None
    ri = torch.repeat_interleave(x, 2)
    print(ri.shape, ri.grad_fn.name(), torch.repeat_interleave(x, 2, dim=1).shape, x.repeat_interleave(torch.tensor([1, 0, 2]), dim=0))
    print(torch.repeat_interleave(torch.tensor([2, 1, 3])), torch.repeat_interleave(torch.tensor([[1, 2], [3, 4]]), 2, dim=0))
    (torch.repeat_interleave(x, 3, dim=0) * torch.arange(36.).view(9, 4)).sum().backward()
    print(x.grad)
    t = torch.take_along_dim(x, torch.tensor([[0, 3], [1, 1], [2, 0]]), dim=1)
    print(t, t.grad_fn.name(), torch.take_along_dim(x, torch.tensor([0, 11, 5])), torch.take_along_dim(x, torch.tensor([[1], [0], [2]]), 1))
    a = torch.tensor([1.0, 2.0, float("nan"), float("inf"), 1e-9])
    b = torch.tensor([1.0 + 1e-6, 2.1, float("nan"), float("inf"), 0.0])
    print(torch.isclose(a, b), torch.isclose(a, b, equal_nan=True), a.isclose(b, rtol=0.1, atol=0.0))
    u = torch.tensor([3, 1, 2, 3, 1, 5])
    print(torch.unique(u), torch.unique(u, return_inverse=True), torch.unique(u, return_counts=True), u.unique(return_inverse=True, return_counts=True))
    print(torch.unique(torch.tensor([[1, 2], [1, 2], [0, 5]]), dim=0), torch.unique(torch.tensor([2.5, -1.0, 2.5])))
    seq = torch.tensor([1, 3, 5, 7, 9])
    v = torch.tensor([[3, 6, 9], [3, 6, 9]])
    print(torch.searchsorted(seq, v), torch.searchsorted(seq, v, right=True), torch.searchsorted(seq, 5), torch.searchsorted(seq, v, side="right", out_int32=True))
    print(torch.searchsorted(torch.tensor([[1, 3, 5], [2, 4, 6]]), torch.tensor([[3, 4], [1, 7]])))
    print(torch.bucketize(v, seq), torch.bucketize(v, seq, right=True), torch.bucketize(torch.tensor([0.5, 3.0, 10.0]), torch.tensor([1.0, 3.0, 5.0])))
    print(torch.bincount(torch.tensor([0, 1, 1, 3, 2, 1, 7])), torch.bincount(torch.tensor([0, 1, 1]), minlength=5), torch.bincount(torch.tensor([0, 2, 2]), weights=torch.tensor([0.5, 1.25, 0.25])))
    for bad in (lambda: torch.masked_select(x, torch.tensor([1, 0, 1, 0])), lambda: torch.roll(x, (1, 2)), lambda: torch.bincount(torch.tensor([-1, 2])), lambda: torch.repeat_interleave(x, torch.tensor([1, 2]), dim=0)):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
""",
)
case(
    "reduce/cumprod",
    """
    x = torch.tensor([[0.7, -1.3, 0.0, 2.1, 0.4, -0.9], [1.1, 0.0, 0.6, 0.0, -1.7, 0.3], [0.5, 1.9, -0.8, 1.2, 0.3, -2.2]], dtype=torch.float32, requires_grad=True)
    g = torch.tensor([[0.3, -1.1, 0.8, 0.2, -0.6, 1.4], [0.9, 0.1, -0.4, 1.6, 0.5, -0.7], [-1.2, 0.6, 0.3, -0.2, 1.1, 0.4]], dtype=torch.float32)
    for d in (0, 1, -1):
        y = torch.cumprod(x, d)
        print(y.tolist(), y.grad_fn.name(), y.grad_fn._saved_dim)
        y.backward(g)
        print(x.grad.tolist())
        x.grad = None
        gx, = torch.autograd.grad(x.cumprod(d), x, g, create_graph=True)
        print(gx.tolist(), gx.grad_fn.name())
    z = torch.tensor([[0.7, -1.3, 0.5], [1.1, 2.0, 0.6]], dtype=torch.float64, requires_grad=True)
    gz, = torch.autograd.grad(z.cumprod(1), z, torch.ones(2, 3, dtype=torch.float64), create_graph=True)
    print(gz.tolist(), gz.grad_fn.name())
    gz.sum().backward()
    print(z.grad.tolist())
    print(torch.func.jvp(lambda v: torch.cumprod(v, 1), (x.detach(),), (g,)))
    print(torch.cumprod(torch.tensor([1, 2, 3]), 0), torch.cumprod(torch.tensor([1, 2, 3], dtype=torch.int32), 0), torch.cumprod(x, 1, dtype=torch.float64).dtype)
    print(torch.tensor(3.0, requires_grad=True).cumprod(0))
    w = x.detach().clone()
    w.cumprod_(0)
    print(w)
    for bad in (lambda: torch.cumprod(x), lambda: torch.cumprod(x, 2), lambda: x.cumprod(1.5)):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
""",
)
case(
    "math/logaddexp",
    """
    _ = torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        a = (torch.randn(3, 21, dtype=torch.float32) * 4).to(dt).requires_grad_()
        b = (torch.randn(21, dtype=torch.float32) * 4).to(dt).requires_grad_()
        y = torch.logaddexp(a, b)
        print(y.tolist(), y.grad_fn.name())
        g = torch.randn(3, 21, dtype=torch.float32).to(dt)
        y.backward(g)
        print(a.grad.tolist(), b.grad.tolist())
        print(a.detach()[:, ::2].logaddexp(torch.tensor([[0.5]], dtype=dt)).tolist())
        ga, = torch.autograd.grad(torch.logaddexp(a, b), a, g, create_graph=True)
        print(ga.tolist(), ga.grad_fn.name())
        print(torch.func.jvp(torch.logaddexp, (a.detach(), b.detach()), (g, g[0]))[1].tolist())
    e = torch.tensor([float("inf"), -float("inf"), float("nan"), 3.0, -0.0])
    print(torch.logaddexp(e, torch.tensor([float("inf"), -float("inf"), 1.0, float("inf"), 0.0])))
    for bad in (lambda: torch.logaddexp(e, 2.0), lambda: e.logaddexp(1), lambda: torch.logaddexp(torch.tensor([1, 2]), torch.tensor([3, 4])), lambda: torch.logaddexp(e, torch.ones(2))):
        try:
            bad()
        except Exception as e2:
            print(type(e2).__name__, e2)
""",
)
case(
    "math/fmax_fmin",
    """
    a = torch.tensor([[-0.0, 0.0, float("nan"), 1.0], [float("nan"), 2.0, 2.0, -3.5]], requires_grad=True)
    b = torch.tensor([0.0, -0.0, 1.0, float("nan")], requires_grad=True)
    for f in (torch.fmax, torch.fmin):
        y = f(a, b)
        print(y, y.grad_fn.name())
        y.backward(torch.arange(8.0).view(2, 4))
        print(a.grad, b.grad)
        a.grad = None
        b.grad = None
        ga, = torch.autograd.grad(f(a, b), a, torch.ones(2, 4), create_graph=True)
        print(ga)
        print(torch.func.jvp(f, (a.detach(), b.detach()), (torch.ones(2, 4), torch.full((4,), 2.0))))
    print(a.fmax(b), a.fmin(b), torch.fmax(torch.tensor([1, 5]), torch.tensor([3, 2])), torch.fmin(torch.tensor([1, 5]), torch.tensor([3.0, 2.0])))
    print(torch.fmax(torch.tensor([1.5], dtype=torch.float32), torch.tensor([2.5], dtype=torch.float64)))
    for bad in (lambda: torch.fmax(a, 2.0), lambda: a.fmin(2), lambda: torch.fmax(a, torch.ones(3))):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
""",
)
case(
    "reduce/cummax_cummin",
    """
    x = torch.tensor([[1.0, 3.0, 3.0, float("nan"), 2.0, 5.0], [-1.0, -1.0, -2.0, 0.0, -0.0, -3.0], [0.5, 0.25, 0.75, 0.75, 0.1, 0.9]], requires_grad=True)
    for f in (torch.cummax, torch.cummin):
        for d in (0, 1, -1):
            r = f(x, d)
            print(r, r.values.grad_fn.name(), r.values.grad_fn._saved_dim)
            r.values.backward(torch.arange(18.0).view(3, 6))
            print(x.grad)
            x.grad = None
        gx, = torch.autograd.grad(f(x, 1).values, x, torch.ones(3, 6), create_graph=True)
        print(gx, gx.grad_fn)
        print(torch.func.jvp(lambda v: f(v, 1).values, (x.detach(),), (torch.arange(18.0).view(3, 6),)))
    print(torch.cummax(torch.tensor(3.0), 0), torch.cummax(torch.tensor([1, 3, 2, 3]), 0), x.cummin(dim=-1).indices)
    v, i = x.cummax(1)
    print(v.shape, i.dtype)
    for bad in (lambda: torch.cummax(x), lambda: torch.cummin(x, 2), lambda: x.cummax(0.5)):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
""",
)
case(
    "shape/diag_embed_diagflat",
    """
    x = torch.arange(6.).view(2, 3).requires_grad_()
    y = torch.diag_embed(x)
    print(y.shape, y.grad_fn._saved_dim1, y.grad_fn._saved_dim2, y.grad_fn._saved_offset)
    print(torch.diag_embed(x, 1, 0, 2))
    print(torch.diag_embed(x, -1, 2, 0).shape)
    d = torch.diagflat(x, 1)
    print(d, d.grad_fn._saved_dim1, d.grad_fn._saved_dim2, d.grad_fn._saved_offset)
    print(torch.diagflat(torch.tensor(2.0)), torch.diagflat(torch.tensor([1, 2]), -1))
    for bad in (lambda: torch.diag_embed(x, 0, 1, 1), lambda: torch.diag_embed(x, 0, 3, 1), lambda: torch.diagflat(x, 1.5), lambda: torch.diag_embed(x, 0.5)):
        try: bad()
        except Exception as e: print(type(e).__name__, e)
    print(x.diag_embed().shape)
    z = torch.arange(6.).view(2, 3).t().requires_grad_()
    f = torch.diagflat(z)
    print(f.grad_fn, f.grad_fn.next_functions[0][0].name(), f.grad_fn.next_functions[0][0].next_functions[0][0].name())
    (f * torch.arange(36.).view(6, 6)).sum().backward()
    print(z.grad)
    y = torch.diag_embed(x, 1, 0, 2)
    (y * torch.arange(32.).view(4, 2, 4)).sum().backward()
    print(x.grad)
    g, = torch.autograd.grad(torch.diag_embed(x * x, -1, 2, 0), x, torch.arange(32.).view(4, 2, 4), create_graph=True)
    print(g, g.grad_fn.name())
    print(torch.func.jvp(lambda v: torch.diag_embed(v), (x.detach(),), (torch.ones(2, 3),)))
""",
)
case(
    "linalg/vdot",
    """
    _ = torch.manual_seed(1)
    for dt in (torch.float32, torch.float64):
        a = torch.randn(37, dtype=torch.float32).to(dt).requires_grad_()
        b = torch.randn(37, dtype=torch.float32).to(dt).requires_grad_()
        y = torch.vdot(a, b)
        print(y.item(), y.grad_fn.name(), torch.dot(a, b).item())
        y.backward(torch.tensor(1.5, dtype=dt))
        print(a.grad.tolist(), b.grad.tolist())
        ga, = torch.autograd.grad(a.vdot(b), a, create_graph=True)
        print(ga.grad_fn.name())
        print(torch.func.jvp(torch.vdot, (a.detach(), b.detach()), (b.detach(), a.detach()))[1].item())
    for bad in (lambda: torch.vdot(torch.ones(2, 2), torch.ones(2)), lambda: torch.vdot(torch.ones(3), torch.ones(4)), lambda: torch.vdot(torch.ones(3), torch.ones(3, dtype=torch.float32)), lambda: torch.vdot(torch.ones(3), 2.0), lambda: torch.ones(3).vdot([1, 2, 3])):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
""",
)
case(
    "linalg/kron",
    """
    _ = torch.manual_seed(2)
    for dt in (torch.float32, torch.float64):
        a = torch.randn(2, 3, dtype=torch.float32).to(dt).requires_grad_()
        b = torch.randn(3, 2, dtype=torch.float32).to(dt).requires_grad_()
        y = torch.kron(a, b)
        print(y.tolist(), y.grad_fn.name(), y.grad_fn.next_functions[0][0].name(), y.shape)
        y.backward(torch.randn(6, 6, dtype=torch.float32).to(dt))
        print(a.grad.tolist(), b.grad.tolist())
        v = torch.randn(4, dtype=torch.float32).to(dt).requires_grad_()
        try:
            v.kron(a.t())
        except RuntimeError as e:
            print(e)
        z = v.kron(a.t().contiguous())
        print(z.tolist(), z.shape, torch.kron(a, torch.tensor(2.0, dtype=dt)).tolist())
        (z * z).sum().backward()
        print(v.grad.tolist(), a.grad.tolist())
    print(torch.kron(torch.tensor([1, 2]), torch.tensor([[1, 10], [100, 1000]])))
    for bad in (lambda: torch.kron(a, 2.0), lambda: torch.kron([1], a)):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
    a = torch.arange(6.0).view(2, 3)
    b = torch.arange(4.0).view(2, 2)
    for x, y in ((a.t(), torch.arange(3.0)), (a[:, ::2], b), (a.t(), b.t()), (b.t(), a), (torch.arange(3.0), a.t()), (a.t()[None], b), (a.unsqueeze(2).expand(2, 3, 2), b)):
        try:
            r = torch.kron(x, y)
            print(r.shape, r.sum().item())
        except RuntimeError as e:
            print("RuntimeError", e)
""",
)
case(
    "shape/cartesian_prod",
    """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0, 5.0], requires_grad=True)
    r = torch.cartesian_prod(a, b)
    print(r, r.grad_fn.next_functions[0][0].name())
    (r * torch.arange(12.0).view(6, 2)).sum().backward()
    print(a.grad, b.grad)
    print(torch.cartesian_prod(a), torch.cartesian_prod(torch.tensor([1, 2]), torch.tensor([0]), torch.tensor([7, 8])))
    for bad in (lambda: torch.cartesian_prod(torch.ones(2, 2), a), lambda: torch.cartesian_prod()):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
""",
)
case(
    "shape/take",
    """
    x = torch.tensor([[0.5, -1.0, 2.0], [3.0, 4.5, -6.0]], requires_grad=True)
    i = torch.tensor([[0, 5], [-1, 5]])
    y = torch.take(x, i)
    print(y, y.grad_fn.name(), y.grad_fn._saved_index)
    y.backward(torch.tensor([[1.0, 2.0], [3.0, 4.0]]))
    print(x.grad)
    print(x.take(torch.tensor(4)), x.t().take(torch.tensor([0, 1, 2])), torch.take(torch.tensor([1, 2, 3]), torch.tensor([2])))
    g, = torch.autograd.grad(torch.take(x * x, i), x, torch.ones(2, 2), create_graph=True)
    print(g, g.grad_fn.name())
    print(torch.func.jvp(lambda v: torch.take(v, i), (x.detach(),), (torch.ones(2, 3),)))
    for bad in (lambda: torch.take(x, torch.tensor([6])), lambda: torch.take(x, torch.tensor([-7])), lambda: torch.take(x, torch.tensor([0.5])), lambda: torch.take(x, [0])):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
""",
)
