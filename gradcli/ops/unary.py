"""Element-wise math of one tensor, each function declared by `unary(...)`: exp log log2
log10 sqrt rsqrt log1p expm1, the trigonometric and hyperbolic functions, sigmoid tanh,
relu (its ThresholdBackward and `masked_grad` serve the activations too), abs sign square
reciprocal, floor ceil trunc round, erf erfc erfinv.  (A family after `elementwise`.)"""

from __future__ import annotations


import math

import numpy as np

from ..engine.declare import none
from ..core import dtypes
from ..engine.function import KEEPS_OUT, Function
from ..engine.saved import saved_const
from ..engine.forward import add_terms
from ..engine.zero_grads import efficient_zeros
from ..core.convert import tensor_arg
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..numerics import mkl, native, native_layers
from ..numerics.floats.torch_exp import sigmoid as torch_sigmoid
from ..numerics.floats import torch_act
from ..numerics.floats import erf as erf_fns
from ..core.tensor import Tensor, type_name
from ..numerics.floats.tensor_iter import laid_out
from .registry import Arg, Parser, register, tensor_f
from .elementwise import times_scalar
from .fused_grads import sigmoid_grad, tanh_grad


class Unary(Function):
    """An element-wise function of one tensor; subclasses set `np_fn` and `vjp`."""

    __slots__ = ()
    saves = ""  # "x" (input), "out" (output), "" (nothing)
    #: the class's forward of a float array alone (`_kernel` of its function), for
    #: replay_kernel; None: none
    _kernel = None

    def forward(self, x):
        if x.dtype.kind != "f":
            x = dtypes.floating(x)
        out = self.np_fn(x)
        # (VML, SLEEF: C order; a 0-d array is C-contiguous)
        if x.ndim and not x.flags.c_contiguous and out.flags.c_contiguous:
            out = laid_out(out, (x,))
        saves = self.saves
        if saves == "x":
            self.saved = (x,)
        elif saves == "out":
            self.saved = (out,)
        return out

    def replay_kernel(self, x):
        """The forward of a float array of one dim or more (Unary.forward's, a class's
        `keep_int` one's for floats): its function and layout alone (`_kernel`), keeping
        what it saves (its input, or its output: engine/function.KEEPS_OUT)."""
        cls = type(self)
        if (
            cls._kernel is None
            or cls.forward is not Unary.forward
            and cls.forward is not getattr(cls, "_int_forward", None)
            or type(x) is not np.ndarray
            or not x.ndim
            or x.dtype.kind != "f"
        ):
            return None
        saves = self.saves
        return cls._kernel, 1, KEEPS_OUT if saves == "out" else saves == "x", None


def _kernel(np_fn):
    """Unary.forward of a floating array of one dim or more, without the node's fields:
    np_fn, and its result in x's layout where x is not C-contiguous."""

    def kernel(x):
        out = np_fn(x)
        if not x.flags.c_contiguous and out.flags.c_contiguous:
            out = laid_out(out, (x,))
        return out

    return kernel


#: PyTorch's one signature `name(Tensor input)`: `torch.tanh()` is its "missing 1 required
#: positional arguments: "input"`
TENSOR_INPUT = Parser(())


def unary(
    name,
    grad_fn,
    np_fn,
    vjp,
    doc,
    saves="x",
    domain=(-2.0, 2.0),
    keep_int=False,
    aliases=(),
    batch="elementwise",
    saved_names=None,
    saved_extra=None,
    inplace=True,
    pure=None,
    formula=None,
    zeros_through=True,
    parser=TENSOR_INPUT,
    call=None,
    sig=None,
):
    """Declare and register an element-wise function: its forward, VJP (its JVP the same
    formula), grad_fn name, saved values (`saved_names`: PyTorch's names, by default
    "self" for a saved input and "result" for a saved output), batching kind, in-place
    method (`inplace`: True for name_, or None), sample arguments and `formula` (its value
    as a SymPy expression of one element, rule(sympy, v), for explain) together; `call`,
    when the op takes keyword arguments too: call(cls) -> its function (round's
    decimals).  `pure` (a replayed loop may call it) is derived: an op whose function is
    its node's apply is, one with a `call` of its own is not unless it says so."""
    if pure is None:
        pure = call is None
    if name in mkl.VML:  # PyTorch's vector math (MKL's VML), when MKL is installed
        np_fn = mkl.unary_fn(name, np_fn)
    cls = NODES[name] = type(
        grad_fn,
        (Unary,),
        {
            "__slots__": (),
            "name": grad_fn,
            "np_fn": staticmethod(np_fn),
            "saves": saves,
            "saved_names": {"x": ("self",), "out": ("result",)}.get(saves, ())
            if saved_names is None
            else saved_names,
            "saved_extra": saved_extra,
            "zeros_through": zeros_through,
            "backward": (lambda self, g, F, s: (vjp(g, F, s),))
            if saves
            else (lambda self, g, F: (vjp(g, F, None),)),
            # element-wise: the JVP is the VJP's formula with the tangent for the gradient
            "jvp": (lambda self, ts, F, s: vjp(ts[0], F, s))
            if saves
            else (lambda self, ts, F: vjp(ts[0], F, None)),
            "formula": none(
                "no formula rule yet: shown as a named function with its local Jacobian"
            )
            if formula is None
            else (lambda self, S, x: S.map(lambda v: formula(S.sp, v), x)),
        },
    )
    cls._kernel = staticmethod(_kernel(np_fn))
    if keep_int:
        cls.forward = cls._int_forward = lambda self, x: (
            np_fn(x) if x.dtype.kind != "f" else Unary.forward(self, x)
        )

    lo, hi = domain
    checks = [((Arg((), lo, hi),), {}), ((Arg((3,), lo, hi),), {}), ((Arg((2, 3), lo, hi),), {})]

    if call is None:

        def fn(x):
            return cls.apply(tensor_arg(x))

    else:
        fn = call(cls)
    fn = register(
        name,
        sig or f"{name}(input)",
        doc,
        method=True,
        checks=checks,
        category="math",
        aliases=aliases,
        batch=batch,
        inplace=name + "_" if inplace is True else inplace,
        pure=pure,
        parser=parser,
    )(tensor_f(name)(fn))
    fn.__name__ = name
    # its input is a Tensor: torch.name of a number is PyTorch's TypeError (the torch
    # namespace's form, library/torch_ns.py; the bare name keeps the calculator's numbers)
    fn.tensor_input = True
    return fn


#: each element-wise function's node class, by the function's name (`unary` fills it)
NODES: dict = {}


def forward_of(name, x):
    """The element-wise function `name`'s forward on the float array x, as its node
    computes it, without a node or Tensor (for a caller running ops with grad mode off on
    arrays of its own: library/nn/recurrent.py)."""
    cls = NODES[name]
    node = cls.__new__(cls)
    node.saved = ()
    return node.forward(x)


# the constants of derivatives.yaml (its ln 10 literal is a double 1 ulp below math.log(10))
LN2, LN10 = 0.6931471805599453, 2.3025850929940456

exp = unary(
    "exp",
    "ExpBackward0",
    np.exp,
    lambda g, F, out: g * out,
    "e ** input",
    "out",
    pure=True,
    formula=lambda sp, v: sp.exp(v),
)
log = unary(
    "log",
    "LogBackward0",
    np.log,
    lambda g, F, x: g / x,
    "natural logarithm",
    domain=(0.5, 3.0),
    pure=True,
    formula=lambda sp, v: sp.log(v),
)
unary(
    "log2",
    "Log2Backward0",
    np.log2,
    lambda g, F, x: g / (x * LN2),
    "base-2 logarithm",
    domain=(0.5, 3.0),
    formula=lambda sp, v: sp.log(v, 2),
)
unary(
    "log10",
    "Log10Backward0",
    np.log10,
    lambda g, F, x: g / (x * LN10),
    "base-10 logarithm",
    domain=(0.5, 3.0),
    formula=lambda sp, v: sp.log(v, 10),
)
# torch's M_PI / 180 and 180 / M_PI (doubles), rounded to the tensor's dtype by its kernel
DEG2RAD, RAD2DEG = 0.017453292519943295, 57.29577951308232
unary(
    "deg2rad",
    "Deg2RadBackward0",
    lambda x: x * x.dtype.type(DEG2RAD),
    lambda g, F, _: times_scalar(F, g, DEG2RAD),  # (torch's mul.Scalar: MulBackward1)
    "degrees to radians (times pi / 180)",
    saves=None,
    domain=(-200.0, 200.0),
    formula=lambda sp, v: v * sp.pi / 180,
)
unary(
    "rad2deg",
    "Rad2DegBackward0",
    lambda x: x * x.dtype.type(RAD2DEG),
    lambda g, F, _: times_scalar(F, g, RAD2DEG),
    "radians to degrees (times 180 / pi)",
    saves=None,
    formula=lambda sp, v: v * 180 / sp.pi,
)
sqrt = unary(
    "sqrt",
    "SqrtBackward0",
    np.sqrt,
    lambda g, F, out: g / (2 * out),
    "square root",
    "out",
    domain=(0.5, 3.0),
    pure=True,
    formula=lambda sp, v: sp.sqrt(v),
)
sin = unary(
    "sin",
    "SinBackward0",
    np.sin,
    lambda g, F, x: g * F.cos(x),
    "sine",
    pure=True,
    formula=lambda sp, v: sp.sin(v),
)
cos = unary(
    "cos",
    "CosBackward0",
    np.cos,
    lambda g, F, x: g * -F.sin(x),
    "cosine",
    pure=True,
    formula=lambda sp, v: sp.cos(v),
)
unary(
    "tan",
    "TanBackward0",
    np.tan,
    lambda g, F, out: g * (1 + out * out),
    "tangent",
    "out",
    domain=(-1.2, 1.2),
    inplace=None,
    formula=lambda sp, v: sp.tan(v),
)
tanh = unary(
    "tanh",
    "TanhBackward0",
    np.tanh,
    tanh_grad,
    "hyperbolic tangent",
    "out",
    pure=True,
    formula=lambda sp, v: sp.tanh(v),
    zeros_through=False,  # (tanh_backward & co: kernels)
)


def _sigmoid(x):
    if x.dtype.char in "fd":
        return torch_sigmoid(x)  # PyTorch's kernel, to the last bit
    return 1 / (1 + np.exp(-x))


unary(
    "sigmoid",
    "SigmoidBackward0",
    _sigmoid,
    sigmoid_grad,
    "logistic sigmoid 1 / (1 + exp(-input))",
    "out",
    pure=True,
    formula=lambda sp, v: 1 / (1 + sp.exp(-v)),
    zeros_through=False,  # (tanh_backward & co: kernels)
)


class ThresholdBackward(Function):
    """relu's backward as one op, for create_graph: g where x > 0, slope * g elsewhere.
    Its derivative in x is 0, yet, as in PyTorch, its result requires grad when x does."""

    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    __slots__ = ("slope",)
    name = "ThresholdBackwardBackward0"
    saved_names = ("self",)
    saved_extra = {"threshold": lambda node: 0}  # (relu: threshold 0)

    def forward(self, g, x, slope=0.0):
        self.slope = slope
        self.save(x)
        return _masked(np, g, x, slope)

    def backward(self, gg, F, x):
        return (_masked(F, gg, x, self.slope), gg * 0.0)

    def jvp(self, ts, F, x):
        tg, tx = ts
        return add_terms(
            type(self).apply(tg, x, slope=self.slope) if tg is not None else None,
            tx * 0.0 if tx is not None else None,
        )


def _masked(F, g, x, slope):
    """leaky_relu_backward: g where x > 0, slope * g elsewhere; for relu (slope 0)
    threshold_backward: 0 where x <= 0 (+0, not g * 0), g elsewhere, NaN included."""
    if slope:
        return F.where(x > 0, g, g * slope)
    if F is np and type(g) is np.ndarray and type(x) is np.ndarray:
        least = _MASKED_FROM.get(g.dtype)
        if least is not None and (
            g.size >= least or (g.size >= _KEPT_FROM and native.loaded() is not None)
        ):
            return _kept_where(g, x)
    return F.where(x <= 0, 0.0, g)


#: values from which the mask of bits beats where's fewer calls (measured), per dtype
_MASKED_FROM = {np.dtype(np.float32): 2048, np.dtype(np.float64): 16384}
#: values from which the compiled loop (where loaded) beats where: 64 x 32 doubles
#: (2,048) 12-13 -> 6-9 us, floats 12-18 -> 6 us, in isolation on a loaded machine
_KEPT_FROM = 512
#: the unsigned integer of each float dtype's size: its bits, for `_kept_where`
_BITS = {np.dtype(t): np.dtype(u) for t, u in ((np.float32, np.uint32), (np.float64, np.uint64))}


def _kept_where(g, x):
    """np.where(x <= 0, 0.0, g) for C-contiguous float arrays of one shape and dtype,
    without a branch per element: g's bits times 1 where `x <= 0` is false (x > 0 or
    NaN) and 0 elsewhere (+0.0's bits), the same array bit for bit.  NumPy's where on
    a mask without a pattern (a layer's ReLU) mispredicts a branch per element: 4-8x
    slower on 32,768 float32 values."""
    bits = _BITS.get(g.dtype)
    if (
        bits is None
        or x.dtype != g.dtype
        or x.shape != g.shape
        or not (g.flags.c_contiguous and x.flags.c_contiguous)
    ):
        return np.where(x <= 0, 0.0, g)
    if g.dtype.isnative:
        out = native_layers.kept(g, x)  # (the compiled loop, where loaded: the same bits)
        if out is not None:
            return out
    keep = np.less_equal(x, 0)
    np.logical_not(keep, out=keep)
    return np.multiply(g.view(bits), keep).view(g.dtype)


def masked_grad(F, g, x, slope=0.0, op=ThresholdBackward):
    """g where x > 0, slope * g elsewhere (a recorded op under create_graph)."""
    if F.tensor_mode:
        return op.apply(g, x, slope=slope)
    return _masked(np, g, x, slope)


def _relu(x):
    """max(0, x), not max(x, 0): NumPy's maximum gives its second operand when the two are
    equal, so relu(-0.0) is -0.0 as in PyTorch (x unless x < 0); a large float array by
    the compiled loop where loaded (the same bits, NaN payloads included)."""
    least = _RELU_FROM.get(x.dtype.char)
    if least is not None and x.size >= least and x.dtype.isnative and x.flags.c_contiguous:
        out = native_layers.relu(x)
        if out is not None:
            return out
    return np.maximum(0, x)


#: values from which the compiled loop (where loaded) beats NumPy's maximum(0, x), per
#: dtype char (its call's fixed cost is NumPy's whole maximum on fewer: 1,024 doubles
#: 3.6-4.5 us by NumPy, 6.6-6.9 us by the loop; 2,048 floats 5.8 / 6.9 us)
_RELU_FROM = {"d": 2048, "f": 4096}


relu = unary(
    "relu",
    "ReluBackward0",
    _relu,
    lambda g, F, out: masked_grad(F, g, out),
    "max(input, 0)",
    "out",
    keep_int=True,
    pure=True,
    formula=lambda sp, v: sp.Piecewise((v, v > 0), (0, True)),
    zeros_through=False,  # (tanh_backward & co: kernels)
)


class Sgn(Function):
    """x.sgn() of a real tensor, as abs's derivative records it under create_graph
    (derivatives.yaml: grad * self.sgn()); its own derivative is sgn_backward, which
    for a real tensor is efficient zeros (engine/zero_grads.py): they add nothing to
    the gradients they meet, so a -0. elsewhere stays -0. as in PyTorch."""

    __slots__ = ()
    name = "SgnBackward0"
    saved_names = ("self", "result")
    formula = none(
        "a backward's own node (create_graph): shown as a named function with its local Jacobian"
    )

    def forward(self, x):
        out = x.copy() if x.dtype == np.bool_ else torch_act.sign(x)
        self.save(x, out)
        return out

    def backward(self, g, F, x, out):
        z = efficient_zeros(np.shape(x), np.asarray(g.data if F.tensor_mode else g).dtype)
        return (Tensor(z) if F.tensor_mode else z,)

    def jvp(self, ts, F, x, out):
        return None  # sgn_backward(self_p, self_t, result): zeros for a real tensor


@register(
    "sgn",
    "sgn(input)",
    "x / |x| (0 at 0); for a real tensor, sign",
    method=True,
    checks=[((Arg((3,), -2.0, 2.0),), {})],
    category="math",
    batch="elementwise",
    inplace="sgn_",
    pure=True,
    parser=TENSOR_INPUT,
)
def sgn(input):
    return Sgn.apply(tensor_arg(input))


sgn.tensor_input = True  # torch.sgn of a number is PyTorch's TypeError


def _abs_grad(g, F, x):
    """grad * self.sgn(): the sgn a recorded op (SgnBackward0) under create_graph."""
    return g * (Sgn.apply(x) if F.tensor_mode else F.sign(x))


unary(
    "abs",
    "AbsBackward0",
    np.abs,
    _abs_grad,
    "absolute value",
    keep_int=True,
    pure=True,
    formula=lambda sp, v: sp.Abs(v),
)
unary(
    "square",
    "PowBackward0",
    np.square,
    lambda g, F, x: g * (2.0 * x**1) if F.tensor_mode else g * (2.0 * x),
    "input ** 2",
    keep_int=True,
    saved_extra={"exponent": saved_const(2)},  # PyTorch's square is pow(x, 2)
    pure="method",
    formula=lambda sp, v: v**2,
)


def _zero_grad(g, F, x):
    """derivatives.yaml's zeros_like(grad): +0 whatever the sign of g (g * 0 keeps it)."""
    if type(g) is Tensor:
        return Tensor(np.zeros(g.data.shape, g.data.dtype))
    return np.zeros(np.shape(g), np.asarray(g).dtype)


sign = unary(
    "sign",
    "SignBackward0",
    torch_act.sign,
    _zero_grad,
    "-1, 0 or 1 by sign",
    "",
    keep_int=True,
    saved_names=(),
)
floor = unary(
    "floor", "FloorBackward0", np.floor, _zero_grad, "round down", "", keep_int=True, saved_names=()
)
unary("ceil", "CeilBackward0", np.ceil, _zero_grad, "round up", "", keep_int=True, saved_names=())


def _trunc(x):
    if x.dtype == np.bool_:
        raise GradRuntimeError(
            "\"trunc_vml_cpu\" not implemented for 'Bool'", type_name="NotImplementedError"
        )
    return np.trunc(x)


unary(
    "trunc",
    "TruncBackward0",
    _trunc,
    _zero_grad,
    "round toward zero",
    "",
    saved_names=(),
    keep_int=True,
    aliases=("fix",),
    batch=None,  # sample by sample (torch.vmap batches it: not yet here)
)


class RoundDecimals(Function):
    """aten::round.decimals, `round(input, *, decimals)` (RoundBackward1): ATen's
    round_decimals kernel in the dtype's opmath type (float32 for float16), with the power
    of ten computed in double and rounded to it: `nearbyint(x * 10**d) / 10**d`, or
    `nearbyint(x / 10**-d) * 10**-d` for a negative d; its gradient zeros_like(grad)."""

    __slots__ = ()
    name = "RoundBackward1"
    saved_names = ()
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    def forward(self, x, decimals):
        if x.dtype.kind != "f":
            raise GradRuntimeError(
                f"\"round_cpu\" not implemented for '{dtypes.scalar_type_name(x.dtype)}'",
                type_name="NotImplementedError",
            )
        op = np.float32 if x.dtype.itemsize < 4 else x.dtype.type
        with np.errstate(all="ignore"):
            d = abs(decimals)
            ten = op(10.0**d if d <= 308 else math.inf)  # (C's pow: inf beyond double)
            a = x.astype(op, copy=False)
            out = np.rint(a / ten) * ten if decimals < 0 else np.rint(a * ten) / ten
        return out.astype(x.dtype, copy=False)

    def backward(self, g, F):
        return (_zero_grad(g, F, None),)

    def jvp(self, ts, F):
        return _zero_grad(ts[0], F, None)


def _round_call(cls):
    """round(input, *, decimals): without decimals aten::round (RoundBackward0), with
    them aten::round.decimals; decimals an int, as PyTorch's parser wants (anything else,
    None too, or another keyword: its "invalid combination" words)."""

    def round(x, **kw):
        x = tensor_arg(x)
        if not kw:
            return cls.apply(x)
        decimals = _int_of(kw.get("decimals"))
        if type(decimals) is not int or len(kw) > 1:
            if type(decimals) is int and len(kw) == 2:
                other = next(k for k in kw if k != "decimals")
                raise GradTypeError(f"round() got an unexpected keyword argument '{other}'")
            # (the keywords as given, listed last first)
            got = ", ".join(f"{k}={type_name(v)}" for k, v in reversed(kw.items()))
            raise GradTypeError(
                "round() received an invalid combination of arguments - got (Tensor, "
                f"{got}), but expected one of:"
            )
        return RoundDecimals.apply(x, decimals=decimals)

    def method(name):
        """x.round(...) / x.round_(...): the method's own parser, whose words differ."""

        def run(x, *args, **kw):
            if args:
                raise GradTypeError(
                    f"{name}() takes from 1 to 0 positional arguments but {len(args)} were given"
                )
            if "decimals" not in kw and kw:
                raise GradTypeError(f'{name}() missing 1 required positional arguments: "decimals"')
            if len(kw) > 1:  # (the keywords as given, listed last first)
                got = "".join(f"{k}={type_name(v)}, " for k, v in reversed(kw.items()))
                raise GradTypeError(
                    f"{name}() received an invalid combination of arguments - got ({got}), "
                    "but expected one of:"
                )
            if "decimals" not in kw:
                return round(x)
            decimals = _int_of(kw["decimals"])
            if type(decimals) is not int:
                raise GradTypeError(
                    f"{name}(): argument 'decimals' must be int, not {type_name(kw['decimals'])}"
                )
            return round(x, decimals=decimals)

        return run

    round.method = method("round")
    round.inplace_call = method("round_")
    return round


def _int_of(v):
    """An int argument as PyTorch's parser reads it: an int (not a bool), or a 0-d
    integer tensor's value; anything else as it is."""
    if type(v) is Tensor and v.data.ndim == 0 and v.data.dtype.kind in "iu":
        return int(v.data)
    return v


unary(
    "round",
    "RoundBackward0",
    np.round,
    _zero_grad,
    "round half to even; with decimals, to that many decimal digits",
    "",
    keep_int=True,
    saved_names=(),
    parser=Parser(overloaded=True),  # round(input, *, decimals)
    call=_round_call,
    sig="round(input, *, decimals=None)",
)
unary(
    "log1p",
    "Log1PBackward0",
    torch_act.log1p,
    lambda g, F, x: g / (1 + x),
    "log(1 + input), accurately",
    domain=(-0.5, 2.0),
    formula=lambda sp, v: sp.log(1 + v),
)
unary(
    "expm1",
    "Expm1Backward0",
    torch_act.expm1,
    lambda g, F, out: g * (out + 1),
    "exp(input) - 1, accurately",
    "out",
    formula=lambda sp, v: sp.exp(v) - 1,
)
unary(
    "rsqrt",
    "RsqrtBackward0",
    lambda x: 1 / np.sqrt(x),
    lambda g, F, out: (-0.5 * g) * (out**3 if F.tensor_mode else out * out * out),
    "1 / sqrt(input)",
    "out",
    domain=(0.5, 3.0),
    formula=lambda sp, v: 1 / sp.sqrt(v),
)
unary(
    "reciprocal",
    "ReciprocalBackward0",
    lambda x: 1 / x,
    lambda g, F, out: -g * (out * out),
    "1 / input",
    "out",
    domain=(0.5, 2.0),
    formula=lambda sp, v: 1 / v,
)
unary(
    "atan",
    "AtanBackward0",
    np.arctan,
    lambda g, F, x: g / (x * x + 1),
    "arc tangent",
    aliases=("arctan",),
    inplace=None,
    formula=lambda sp, v: sp.atan(v),
)
# derivatives.yaml: grad * (-x * x + 1).rsqrt() (and its negative for acos)
unary(
    "asin",
    "AsinBackward0",
    np.arcsin,
    lambda g, F, x: g * F.rsqrt(-x * x + 1),
    "arc sine",
    domain=(-0.9, 0.9),
    aliases=("arcsin",),
    inplace=None,
    formula=lambda sp, v: sp.asin(v),
)
unary(
    "acos",
    "AcosBackward0",
    np.arccos,
    lambda g, F, x: g * -F.rsqrt(-x * x + 1),
    "arc cosine",
    domain=(-0.9, 0.9),
    aliases=("arccos",),
    inplace=None,
    formula=lambda sp, v: sp.acos(v),
)
# derivatives.yaml: grad * 1 / (1 - self.pow(2)); the values NumPy's arctanh, within an
# ulp of torch's (SLEEF's atanh on whole vectors, not re-implemented)
unary(
    "atanh",
    "AtanhBackward0",
    np.arctanh,
    lambda g, F, x: g / (1 - x * x),
    "inverse hyperbolic tangent",
    domain=(-0.9, 0.9),
    aliases=("arctanh",),
    formula=lambda sp, v: sp.atanh(v),
)
# derivatives.yaml: grad * (self.pow(2) + 1).rsqrt() (and self.pow(2) - 1 for acosh)
unary(
    "asinh",
    "AsinhBackward0",
    np.arcsinh,
    lambda g, F, x: g * F.rsqrt(x * x + 1),
    "inverse hyperbolic sine",
    aliases=("arcsinh",),
    inplace=None,
    formula=lambda sp, v: sp.asinh(v),
)
unary(
    "acosh",
    "AcoshBackward0",
    np.arccosh,
    lambda g, F, x: g * F.rsqrt(x * x - 1),
    "inverse hyperbolic cosine",
    domain=(1.2, 3.0),
    aliases=("arccosh",),
    inplace=None,
    formula=lambda sp, v: sp.acosh(v),
)
unary(
    "sinh",
    "SinhBackward0",
    torch_act.sinh,
    lambda g, F, x: g * F.cosh(x),
    "hyperbolic sine",
    inplace=None,
    formula=lambda sp, v: sp.sinh(v),
)
unary(
    "cosh",
    "CoshBackward0",
    torch_act.cosh,
    lambda g, F, x: g * F.sinh(x),
    "hyperbolic cosine",
    inplace=None,
    formula=lambda sp, v: sp.cosh(v),
)


# the error function family: derivatives.yaml's constants, 2.0 / sqrt(M_PI) and
# 0.5 * sqrt(M_PI), and its self.pow(2), which PyTorch computes as self * self
_TWO_OVER_SQRT_PI = 2.0 / math.sqrt(math.pi)
_HALF_SQRT_PI = 0.5 * math.sqrt(math.pi)


unary(
    "erf",
    "ErfBackward0",
    erf_fns.erf,
    lambda g, F, x: _TWO_OVER_SQRT_PI * F.exp(-(x * x)) * g,
    "error function",
    formula=lambda sp, v: sp.erf(v),
)
unary(
    "erfc",
    "ErfcBackward0",
    erf_fns.erfc,
    lambda g, F, x: -_TWO_OVER_SQRT_PI * F.exp(-(x * x)) * g,
    "complementary error function 1 - erf(input)",
    formula=lambda sp, v: sp.erfc(v),
)
unary(
    "erfinv",
    "ErfinvBackward0",
    erf_fns.erfinv,
    lambda g, F, x: _HALF_SQRT_PI * F.exp(F.erfinv(x) * F.erfinv(x)) * g,
    "inverse error function",
    domain=(-0.9, 0.9),
    formula=lambda sp, v: sp.erfinv(v),
)
