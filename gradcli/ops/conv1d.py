"""The 1-d forms of the convolution and the pools, as PyTorch's CPU build runs them.

- `F.conv1d(input, weight, ...)`: ATen's `_convolution` views a 3-d input and weight as
  4-d (`view1d_as_2d`: a height of one, kernel (1, k), stride (1, s), padding (0, p),
  dilation (1, d)) and runs the 2-d path, so the values are conv2d's (ops/nn.py, bit for
  bit); one node, ConvolutionBackward0, whose gradients have the 1-d shapes.
- `F.max_pool1d`, `F.avg_pool1d`, `F.adaptive_avg_pool1d`: PyTorch's composites, the 2-d
  pool of `input.unsqueeze(-2)` then `squeeze(-2)` (grad_fn SqueezeBackward1)."""

from __future__ import annotations

from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradValueError
from .nn import SAME_EVEN_WARNING, Conv2d, _same_dtype
from .registry import FUNCTIONS, Arg, register


def _single(v, what):
    """An int or a 1-tuple (PyTorch's _single) as an int."""
    if isinstance(v, (tuple, list)):
        if len(v) != 1:
            raise GradRuntimeError(
                f"expected {what} to be a single integer value or a list of 1 values"
            )
        v = v[0]
    return int(v)


def _as4(F, a):
    """(N, C, L) -> (N, C, 1, L): a reshape of an array or a Tensor."""
    shape = a.data.shape if type(a) is Tensor else a.shape
    return F.reshape(a, shape[:2] + (1,) + shape[2:])


def _as3(F, a):
    if a is None:
        return None
    shape = a.data.shape if type(a) is Tensor else a.shape
    return F.reshape(a, shape[:2] + shape[3:])


class Conv1d(Conv2d):
    """The convolution of a 3-d input: conv2d's node on the 4-d views, the 1-d shapes."""

    __slots__ = ()

    def forward(self, x, w, b, stride, padding, dilation, groups):
        out = Conv2d.forward(
            self, x[:, :, None, :], w[:, :, None, :], b, (1, stride), (0, padding),
            (1, dilation), groups,
        )  # fmt: skip
        self.save(x, w)  # (the inputs themselves: a second derivative reaches them)
        return out[:, :, 0, :]

    def backward(self, g, F, x, w):
        gx, gw, gb = Conv2d.backward(self, _as4(F, g), F, _as4(F, x), _as4(F, w))
        return _as3(F, gx), _as3(F, gw), gb

    def jvp(self, ts, F, *saved):
        """conv(x, w) + b is bilinear in (x, w) and linear in b."""
        x, w = ts.args[0], ts.args[1]
        params = {k: v for k, v in ts.params.items() if k != "b"}
        tb = ts[2] if len(ts) > 2 else None
        terms = [
            None if ts[0] is None else Conv1d.apply(ts[0], w, None, **params),
            None if ts[1] is None else Conv1d.apply(x, ts[1], None, **params),
            None if tb is None else FUNCTIONS["reshape"](tb, 1, -1, 1),
        ]
        terms = [t for t in terms if t is not None]
        out = terms[0]
        for t in terms[1:]:
            out = FUNCTIONS["add"](out, t)
        return out


def _size(shape):
    return "[" + ", ".join(str(s) for s in shape) + "]"


@register(
    "conv1d",
    "conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)",
    "1-d convolution (cross-correlation) of (N, C, L) input with (O, C/groups, k) weight",
    checks=[
        ((Arg((2, 2, 6)), Arg((3, 2, 3)), Arg((3,))), {}),
        ((Arg((1, 2, 7)), Arg((2, 1, 2))), {"stride": 2, "padding": 1, "groups": 2}),
        ((Arg((2, 5)), Arg((1, 2, 2))), {"dilation": 2}),
    ],
    category="nn",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def conv1d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    x, w = tensor_arg(input), tensor_arg(weight)
    unbatched = x.data.ndim == 2
    if unbatched:
        x = FUNCTIONS["unsqueeze"](x, 0)
    if x.data.ndim != 3:
        raise GradRuntimeError(
            "Expected 2D (unbatched) or 3D (batched) input to conv1d, but got input of size: "
            + _size(input.data.shape if isinstance(input, Tensor) else x.data.shape)
        )
    if w.data.ndim < 3:
        raise GradRuntimeError("weight should have at least three dimensions")
    stride, dilation = _single(stride, "stride"), _single(dilation, "dilation")
    k = w.data.shape[2]
    if isinstance(padding, str):
        if padding == "valid":
            padding = 0
        elif padding == "same":
            if stride != 1:
                raise GradRuntimeError("padding='same' is not supported for strided convolutions")
            total = dilation * (k - 1)
            padding = total // 2
            if total % 2:  # torch: the extra zero at the end
                context.warn(SAME_EVEN_WARNING)
                x = FUNCTIONS["pad"](x, (0, 1))
        else:
            raise GradRuntimeError(f"Invalid padding string: '{padding}'")
    padding = _single(padding, "padding")
    N, C, L = x.data.shape
    O, Cg = w.data.shape[:2]
    if groups < 1 or C % groups or O % groups or Cg * groups != C:
        raise GradRuntimeError(
            f"Given groups={groups}, weight of size {_size(w.data.shape)}, expected "
            f"input{_size(x.data.shape)} to have {Cg * groups} channels, but got {C} channels "
            "instead"
        )
    if L + 2 * padding < dilation * (k - 1) + 1:
        raise GradRuntimeError(
            f"Calculated padded input size per channel: ({L + 2 * padding}). Kernel size: "
            f"({dilation * (k - 1) + 1}). Kernel size can't be greater than actual input size"
        )
    _same_dtype(x, w, "Input type and weight type")
    params = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
    if bias is None:
        out = Conv1d.apply(x, w, b=None, **params)
    else:
        out = Conv1d.apply(x, w, tensor_arg(bias), **params)
    return FUNCTIONS["squeeze"](out, 0) if unbatched else out


def _pooled(name, pool2d, input, *rest):
    """PyTorch's 1-d pool `name`: the 2-d pool of input.unsqueeze(-2) (with the 2-d
    pool's arguments `rest`), squeezed."""
    x = tensor_arg(input)
    nd = x.data.ndim
    if nd not in (2, 3) and name == "max_pool1d":
        raise GradRuntimeError(
            "max_pool1d: Expected 2D or 3D (batch mode) tensor with optional 0 dim batch "
            f"size for input, but got:{_size(x.data.shape)}"
        )
    if nd not in (2, 3):
        raise GradRuntimeError(
            f"Expected 2 to 3 dimensions, but got {nd}-dimensional tensor for argument #1 "
            f"'self' (while checking arguments for {name})"
        )
    out = pool2d(FUNCTIONS["unsqueeze"](x, -2), *rest)
    return FUNCTIONS["squeeze"](out, -2)


def _pair1(v, what, default=None):
    if v is None:
        return default
    return (1, _single(v, what))


@register(
    "max_pool1d",
    "max_pool1d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False)",
    "the maximum of each window of length kernel_size along the last dim",
    checks=[((Arg((2, 3, 8)), 2), {}), ((Arg((3, 7)), 3), {"stride": 2, "padding": 1})],
    category="nn",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def max_pool1d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    if return_indices:
        raise GradValueError("max_pool1d: return_indices=True is not supported by gradcli")
    k = _pair1(kernel_size, "kernel_size")
    s = _pair1(stride, "stride", k) if stride != [] else k
    return _pooled(
        "max_pool1d",
        FUNCTIONS["max_pool2d"],
        input,
        k,
        s,
        (0, _single(padding, "padding")),
        _pair1(dilation, "dilation"),
        ceil_mode,
    )


@register(
    "avg_pool1d",
    "avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, "
    "count_include_pad=True)",
    "the mean of each window of length kernel_size along the last dim",
    checks=[((Arg((2, 3, 8)), 2), {}), ((Arg((3, 7)), 3), {"stride": 2, "padding": 1})],
    category="nn",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def avg_pool1d(input, kernel_size, stride=None, padding=0, ceil_mode=False, count_include_pad=True):
    k = _pair1(kernel_size, "kernel_size")
    s = _pair1(stride, "stride", k) if stride != [] else k
    return _pooled(
        "avg_pool1d",
        FUNCTIONS["avg_pool2d"],
        input,
        k,
        s,
        (0, _single(padding, "padding")),
        ceil_mode,
        count_include_pad,
    )


@register(
    "adaptive_avg_pool1d",
    "adaptive_avg_pool1d(input, output_size)",
    "the mean over output_size windows that cover the last dim",
    checks=[((Arg((2, 3, 8)), 3), {}), ((Arg((3, 7)), 2), {})],
    category="nn",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def adaptive_avg_pool1d(input, output_size):
    return _pooled(
        "adaptive_avg_pool1d",
        FUNCTIONS["adaptive_avg_pool2d"],
        input,
        (1, _single(output_size, "output_size")),
    )
