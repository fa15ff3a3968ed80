"""torch.nn.functional's layers: linear (AddmmBackward0 / MmBackward0 over
TBackward0, as PyTorch records it), conv2d (ConvolutionBackward0), max_pool2d
(MaxPool2DWithIndicesBackward0) and dropout and feature_dropout (MulBackward0 by a
Bernoulli mask drawn from the generator as PyTorch's CPU kernel draws it).

conv2d and max_pool2d gather windows with a flat index (im2col) and scatter
gradients back with the same index; the gather and the scatter are ops of their
own, each the other's VJP, so every gradient here is differentiable again."""

from __future__ import annotations

from math import prod

import numpy as np

from ..engine.declare import none
from ..runtime import context
from ..numerics.random import sampling
from ..numerics import mkl
from ..numerics.mkl import mm_grads, torch_mm
from ..numerics import conv_gemm, native_layers, onednn_conv, per_shape
from ..numerics.sums.summation import inner_sums
from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ..core.convert import tensor_arg, type_name
from ..core.dtypes import scalar_type_name
from ..core.tensor import Tensor
from ..engine.function import Function
from ..engine.saved import saved_const, saved_operands
from ..engine.zero_terms import Zero, sum_terms
from ..engine.forward import add_terms
from ..engine.forward import linear as linear_jvp
from ..engine import versions
from .registry import FUNCTIONS, Arg, register
from .linalg import matmul, mm, t
from .shape import reshape, squeeze, unsqueeze
from .elementwise import add, mul
from .padding import pad
from .pool_windows import gathered_windows, native_windows

SAME_EVEN_WARNING = (
    "Using padding='same' with even kernel lengths and odd dilation may require "
    "a zero-padded copy of the input be created"
)


# ---------------------------------------------------------------- gather / scatter


def _gather_array(x, idx, valid):
    out = x.reshape(-1)[idx]
    return out if valid is None else np.where(valid, out, 0).astype(x.dtype, copy=False)


def _scatter_array(g, idx, valid, shape):
    size = prod(shape)
    if valid is not None:
        g = np.where(valid, g, 0)
    out = np.bincount(idx.reshape(-1), weights=g.reshape(-1).astype(np.float64), minlength=size)
    return out.astype(g.dtype, copy=False).reshape(shape)


class Gather(Function):
    """x.flatten()[idx] (0 where not valid): windows of x for conv and pooling."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("idx", "valid", "shape")
    name = "IndexBackward0"
    holds_saved = True  # (its indices: a second backward fails, as in PyTorch)
    saved_names = none("PyTorch's names of its saved values are not recorded")
    jvp = linear_jvp

    def forward(self, x, idx, valid):
        self.idx, self.valid, self.shape = idx, valid, x.shape
        return _gather_array(x, idx, valid)

    def backward(self, g, F):
        return (scatter(F, g, self.idx, self.valid, self.shape),)


class Scatter(Function):
    """Zeros of `shape` with g added at the flat positions idx (where valid)."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("idx", "valid")
    name = "IndexPutBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    jvp = linear_jvp

    def forward(self, g, idx, valid, shape):
        self.idx, self.valid = idx, valid
        return _scatter_array(g, idx, valid, shape)

    def backward(self, gg, F):
        return (gather(F, gg, self.idx, self.valid),)


def gather(F, x, idx, valid):
    if F.tensor_mode:
        return Gather.apply(x, idx=idx, valid=valid)
    return _gather_array(x, idx, valid)


def scatter(F, g, idx, valid, shape):
    if F.tensor_mode:
        return Scatter.apply(g, idx=idx, valid=valid, shape=shape)
    return _scatter_array(g, idx, valid, shape)


# ---------------------------------------------------------------- linear


class Addmm(Function):
    """bias + a @ b (torch.addmm), bias broadcast to the product's shape."""

    __slots__ = ("sbias",)
    name = "AddmmBackward0"
    saved_names = ("mat1", "mat2")
    saved_extra = {
        "alpha": saved_const(1),
        "beta": saved_const(1),
        **saved_operands(("mat1", "mat2"), first_input=1),
    }
    saved_uses = ((2,), (1,))  # (bias, mat1, mat2): each operand for the other's gradient

    def jvp(self, ts, F, *saved):
        """d(bias + a @ b) = dbias + da @ b + a @ db, PyTorch's terms in its order (a
        missing tangent a zero term: engine/zero_terms.py)."""
        bias, a, b = ts.args[:3]
        shape = (a.data.shape[0], b.data.shape[1])
        dt = a.data.dtype
        return sum_terms(
            Zero(None, "", shape, dt) if ts[0] is None else ts[0],
            Zero(b, "MmBackward0", shape, dt) if ts[1] is None else ts[1] @ b,
            Zero(a, "MmBackward0", shape, dt) if ts[2] is None else a @ ts[2],
        )

    def formula(self, S, bias, a, b, *_):
        """bias + a b (nn.Linear's x Wᵀ + b)."""
        prod = S.matmul(S.saved_const(a, self, 0, None), S.saved_const(b, self, 1, None))
        return prod + S.unknown(bias, self, 0, self.sbias)

    def forward(self, bias, a, b):
        self.sbias = bias.shape
        self.save(a, b)
        return torch_mm(a, b, bias)

    def backward(self, g, F, a, b):
        n = self.needs
        return (F.sum_to(g, self.sbias) if n[0] else None, *mm_grads(g, a, b, n[1], n[2], F))


def _pair(v, name, n=2):
    if isinstance(v, Tensor):
        v = v.data.tolist()
    if isinstance(v, (list, tuple)):
        if len(v) == 1:
            v = (v[0],) * n
        if len(v) != n:
            raise GradRuntimeError(
                f"expected {name} to be a single integer value or a list of "
                f"{n} values to match the convolution dimensions, but got "
                f"{name}={list(v)}"
            )
        return tuple(int(i) for i in v)
    if isinstance(v, bool) or not isinstance(v, int):
        raise GradTypeError(f"{name} must be an int or a tuple of ints, not {type_name(v)}")
    return (v,) * n


def _same_dtype(x, w, what="mat1 and mat2"):
    if x.data.dtype != w.data.dtype:
        raise GradRuntimeError(
            f"{what} must have the same dtype, but got "
            f"{scalar_type_name(x.data.dtype)} and {scalar_type_name(w.data.dtype)}"
        )


@register(
    "linear",
    "linear(input, weight, bias=None)",
    "input @ weight.T + bias (an nn.Linear)",
    checks=[
        ((Arg((4, 3)), Arg((2, 3)), Arg((2,))), {}),
        ((Arg((4, 3)), Arg((2, 3))), {}),
        ((Arg((3,)), Arg((2, 3)), Arg((2,))), {}),
        ((Arg((2, 2, 3)), Arg((2, 3)), Arg((2,))), {}),
    ],
    category="nn",
    function=False,
    batch="linear",
    inplace=None,
    pure=True,
    parser=None,
)  # F.linear only: torch has no torch.linear
def linear(input, weight, bias=None):
    x, w = tensor_arg(input), tensor_arg(weight)
    if x.data.ndim == 0 or w.data.ndim == 0:
        raise GradRuntimeError(
            "both arguments to linear need to be at least 1D, but they are "
            f"{x.data.ndim}D and {w.data.ndim}D"
        )
    if w.data.ndim != 2 or x.data.shape[-1] != w.data.shape[1]:
        xs = x.data.shape if x.data.ndim != 1 else (1,) + x.data.shape
        rows = prod(xs[:-1]) if xs else 1
        raise GradRuntimeError(
            f"mat1 and mat2 shapes cannot be multiplied ({rows}x"
            f"{xs[-1] if xs else 1} and "
            f"{'x'.join(str(n) for n in w.data.shape[::-1])})"
        )
    _same_dtype(x, w)
    wt = t(w)
    nd = x.data.ndim
    if bias is None:
        if nd == 2:
            return mm(x, wt)
        return matmul(x, wt)  # 1-d: SqueezeBackward4 over MmBackward0, as torch
    b = tensor_arg(bias)
    _same_dtype(x, b, "self and mat2")
    if nd == 2:
        return Addmm.apply(b, x, wt)
    if not x.data.flags.c_contiguous or (nd != 3 and b.data.ndim != 1):
        # at::linear fuses only a contiguous input: on any other, the product and then
        # the bias added (mm and a separate add round otherwise than the fused addmm)
        return add(matmul(x, wt), b)
    lead = x.data.shape[:-1]
    out = Addmm.apply(b, reshape(x, -1, x.data.shape[-1]), wt)
    return reshape(out, *lead, w.data.shape[0])


# ---------------------------------------------------------------- conv2d


#: the window indices of a conv or pool, from sizes alone, kept per shape
_memo = per_shape.memo()


@_memo
def _conv_index(C, H, W, kh, kw, stride, padding, dilation, groups):
    """Flat indices (groups, C/groups*kh*kw, L) into one sample, and which are inside."""
    sh, sw = stride
    ph, pw = padding
    dh, dw = dilation
    oh = (H + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (W + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    c = np.arange(C).reshape(C, 1, 1, 1, 1)
    i = (
        (np.arange(kh) * dh).reshape(1, kh, 1, 1, 1)
        + (np.arange(oh) * sh).reshape(1, 1, 1, oh, 1)
        - ph
    )
    j = (
        (np.arange(kw) * dw).reshape(1, 1, kw, 1, 1)
        + (np.arange(ow) * sw).reshape(1, 1, 1, 1, ow)
        - pw
    )
    valid = (i >= 0) & (i < H) & (j >= 0) & (j < W)
    flat = c * (H * W) + np.clip(i, 0, H - 1) * W + np.clip(j, 0, W - 1)
    shape = (groups, (C // groups) * kh * kw, oh * ow)
    flat = np.broadcast_to(flat, (C, kh, kw, oh, ow)).reshape(shape)
    valid = np.broadcast_to(valid, (C, kh, kw, oh, ow)).reshape(shape)
    return flat, (None if valid.all() else valid), oh, ow


@_memo
def _column_rows(xshape, kh, kw, sh, dh, dw, oh):
    """(where each row of im2col's columns (N, C, kh, kw, oh) starts in a C-contiguous
    input of this shape, in elements,): the compiled copy's table (`native_layers.rows`,
    each row's outputs `sw` elements apart)."""
    N, C, H, W = xshape
    planes = (np.arange(N * C, dtype=np.int64) * (H * W)).reshape(N * C, 1, 1, 1)
    i = (np.arange(kh, dtype=np.int64) * dh).reshape(1, kh, 1, 1)
    j = (np.arange(kw, dtype=np.int64) * dw).reshape(1, 1, kw, 1)
    r = (np.arange(oh, dtype=np.int64) * sh).reshape(1, 1, 1, oh)
    return (np.ascontiguousarray((planes + (i + r) * W + j).reshape(-1)),)


def _col2im32(gcols, idx, valid, shape):
    """The float32 columns' gradient added into the input's, one value after another in
    float32 (col2im's loop; a float64 sum rounded at the end can differ)."""
    out = np.zeros(prod(shape), np.float32)
    if valid is None:
        np.add.at(out, idx.reshape(-1), gcols.reshape(-1))
    else:
        keep = valid.reshape(-1)
        np.add.at(out, idx.reshape(-1)[keep], gcols.reshape(-1)[keep])
    return out.reshape(shape)


def _bias_grad(g, groups, dilated, F):
    """The bias gradient as PyTorch's convolution backward takes it, group by group
    (each group's grad_output a tensor of its own): slow_conv2d's sums over the batch
    and the positions; slow_conv_dilated2d's starts from zeros, to which each
    sample's sum over its positions is added in turn."""
    if groups == 1 and not dilated:
        N, O, H, W = g.shape
        if (
            not F.tensor_mode
            and g.dtype.char in "fd"
            and g.dtype.isnative
            and g.flags.c_contiguous
            and O > 1
            and H * W * g.itemsize >= 32
        ):
            # F.sum's order (sum_dims.dim_sums: each (sample, channel) plane a row summed
            # as the inner kernel sums it, the rows of a channel added in turn from 0),
            # with the rows summed where they lie (no copy in the channels' order)
            rows = inner_sums(g.reshape(N * O, H * W)).reshape(N, O)
            return np.add.reduce(rows, 0) + g.dtype.type(0)
        return F.sum(g, axis=(0, 2, 3))
    Og = g.shape[1] // groups
    parts = []
    for k in range(groups):
        part = np.ascontiguousarray(g[:, k * Og : (k + 1) * Og])
        if dilated:
            acc = np.zeros(Og, g.dtype)
            for n in range(g.shape[0]):
                acc += F.sum(part[n], axis=(1, 2))
            parts.append(acc)
        else:
            parts.append(F.sum(part, axis=(0, 2, 3)))
    return parts[0] if groups == 1 else np.concatenate(parts)


@_memo
def _conv_plan(xshape, wshape, f32, stride, padding, dilation, groups):
    """A convolution's geometry, from its shapes and parameters alone (so its node takes
    only those: a replayed loop runs it again with them): (the window index and which
    windows are inside, as _conv_index gives them, the output's (oh, ow), the window
    (kh, kw, sh, sw, dh, dw) when every window lies inside the input and no padding is
    asked (else None), whether it is dilated, and the onednn_conv.Direct of a float32
    convolution PyTorch sends to oneDNN (else None)); the window index is made when it
    is used (`Conv2d._index`: a gather's columns, the input's gradient)."""
    N, C, H, W = xshape
    kh, kw = wshape[2:]
    (sh, sw), (ph, pw), (dh, dw) = stride, padding, dilation
    oh = (H + 2 * ph - dh * (kh - 1) - 1) // sh + 1
    ow = (W + 2 * pw - dw * (kw - 1) - 1) // sw + 1
    # (without padding every window lies inside the input: _conv_index's valid is None)
    window = (kh, kw, *stride, *dilation) if padding == (0, 0) else None
    dilated = dilation != (1, 1)
    direct = None
    if f32 and onednn_conv.uses_onednn(N, C, H, W, kh, kw, groups, stride != (1, 1), dilated):
        # (else torch's slow_conv2d, computed as in float64, through MKL's sgemm)
        direct = onednn_conv.plan(H, W, kh, kw, groups, stride, padding, dilation, (oh, ow))
    return (oh, ow), window, dilated, direct


class Conv2d(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = (
        "geometry",
        "window",
        "xshape",
        "wshape",
        "oshape",
        "groups",
        "has_bias",
        "dilated",
        "direct",
        "cols",
    )
    name = "ConvolutionBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def jvp(self, ts, F, *saved):
        """conv(x, w) + b is bilinear in (x, w) and linear in b."""
        x, w = ts.args[0], ts.args[1]
        params = {k: v for k, v in ts.params.items() if k != "b"}
        tb = ts[2] if len(ts) > 2 else None
        return add_terms(
            None if ts[0] is None else Conv2d.apply(ts[0], w, None, **params),
            None if ts[1] is None else Conv2d.apply(x, ts[1], None, **params),
            None if tb is None else reshape(tb, 1, -1, 1, 1),
        )

    def forward(self, x, w, b, stride, padding, dilation, groups):
        # the geometry from the shapes and the parameters (_conv_plan): the window index
        # (im2col's), which windows read padding, the output's size; `direct`: None where
        # PyTorch runs slow_conv2d (MKL's gemm per sample, as here), for a float32
        # convolution it sends to oneDNN its onednn_conv.Direct (which passes run the
        # direct kernels reproduced there; the others: NumPy's products); `window`:
        # (kh, kw, sh, sw, dh, dw) when every window lies inside the input (no padding
        # read): the columns are then one strided copy (_columns), not a gather
        oshape, window, dilated, direct = _conv_plan(
            x.shape, w.shape, x.dtype == np.float32, stride, padding, dilation, groups
        )
        N = x.shape[0]
        self.geometry = (stride, padding, dilation)
        self.xshape, self.wshape = x.shape, w.shape
        self.oshape, self.groups, self.has_bias = oshape, groups, b is not None
        self.dilated, self.direct, self.window = dilated, direct, window
        self.cols = None
        self.save(x, w)
        O = w.shape[0]
        if direct is not None and direct.forward:
            out = onednn_conv.forward(x, w, b, *direct[:3], oshape)
            if out is not None:
                return out
        cols = self._columns(x)  # (N, G, K, L)
        wg = w.reshape(groups, O // groups, -1)  # (G, O/G, K)
        out = conv_gemm.forward(wg, cols, b, dilated) if direct is None else None
        if out is not None:
            out = out.reshape((N, O) + oshape)
            if window is not None:
                # the weight's gradient takes these columns again (`_saved_columns`)
                self.cols = (cols, x, versions.state.epoch)
        else:
            out = np.matmul(wg, cols).reshape((N, O) + oshape)
            if b is not None:
                out = out + b.reshape(1, O, 1, 1)
        return out

    def _full(self):
        """(the flat index of every sample's windows into the batch, which are inside or
        None): the per-sample index with each sample's offset."""
        N, C, H, W = self.xshape
        kh, kw = self.wshape[2:]
        idx, valid, _, _ = _conv_index(C, H, W, kh, kw, *self.geometry, self.groups)
        full = idx[None] + (np.arange(N) * prod(self.xshape[1:])).reshape(N, 1, 1, 1)
        return full, (None if valid is None else np.broadcast_to(valid, full.shape))

    def _columns(self, x):
        """The columns of x (N, G, K, L), im2col's: gathered by the flat index, or where
        every window lies inside the input copied from a strided view of x into a
        64-byte aligned buffer (one group's columns are then where MKL reads them, with
        no copy to alignment: conv_gemm.columns)."""
        if self.window is None:
            return _gather_array(x, *self._full())
        kh, kw, sh, sw, dh, dw = self.window
        N, C, _, _ = x.shape
        G = self.groups
        oh, ow = self.oshape
        out = mkl.aligned_empty((N, G, C // G, kh, kw, oh, ow), x.dtype)
        if not (
            x.flags.c_contiguous
            and x.itemsize in (4, 8)
            and native_layers.rows(x, _column_rows(x.shape, kh, kw, sh, dh, dw, oh)[0], ow, sw, out)
        ):  # (the strided view, made only here: making it costs more than the copy)
            s0, s1, s2, s3 = x.strides
            view = np.lib.stride_tricks.as_strided(
                x,
                (N, G, C // G, kh, kw, oh, ow),
                (s0, s1 * (C // G), s1, s2 * dh, s3 * dw, s2 * sh, s3 * sw),
                writeable=False,
            )
            np.copyto(out, view)
        return out.reshape(N, G, (C // G) * kh * kw, oh * ow)

    def _saved_columns(self, x, kept):
        """The columns of x for the weight's gradient: the forward's where they are of
        this very array and no in-place operation has run since (every one bumps a
        version: `versions.state.epoch`), else made again from x (as PyTorch makes them
        from the input it saved)."""
        if kept is not None:
            cols, of, epoch = kept
            if of is x and epoch == versions.state.epoch:
                return cols
        return self._columns(x)

    def _columns_grad(self, g, gr, F, w, exact):
        """The input's gradient as weight.T @ grad_output per sample, then col2im."""
        O, G = self.wshape[0], self.groups
        wg = F.reshape(w, (G, O // G, -1))
        gcols = conv_gemm.columns_grad(wg, gr, self.dilated) if exact else None
        if gcols is None:
            gcols = F.swapaxes(wg, -1, -2) @ gr  # (N, G, K, L)
        if exact and gcols.dtype == np.float32:
            return _col2im32(gcols, *self._full(), self.xshape)
        return scatter(F, gcols, *self._full(), self.xshape)

    def backward(self, g, F, x, w):
        n = self.needs
        N, O, G = self.xshape[0], self.wshape[0], self.groups
        gr = F.reshape(g, (N, G, O // G, -1))
        exact = not F.tensor_mode and self.direct is None
        gx = gw = gb = None
        if n[0]:
            direct_gx = None
            if self.direct is not None and self.direct.data and not F.tensor_mode:
                direct_gx = onednn_conv.input_grad(g, w, self.xshape, self.direct.padding)
            gx = direct_gx if direct_gx is not None else self._columns_grad(g, gr, F, w, exact)
        with_bias = len(n) > 2 and n[2]
        direct = self.direct
        if direct is not None and direct.weights and not F.tensor_mode and (n[1] or with_bias):
            gw, gb = onednn_conv.weight_grad(
                x, g, self.wshape[2:], direct.stride, direct.padding, n[1], with_bias
            )
        kept, self.cols = self.cols, None
        if n[1] and gw is None:
            if F.tensor_mode or self.window is None:
                cols = gather(F, x, *self._full())
            else:
                cols = self._saved_columns(x, kept)
            if exact:
                gw = conv_gemm.weight_grad(gr, cols, self.dilated)
            if gw is None:
                gw = F.sum(gr @ F.swapaxes(cols, -1, -2), axis=0)
            gw = F.reshape(gw, self.wshape)
        if with_bias and gb is None:
            if F.tensor_mode or self.direct is not None:
                gb = F.sum(g, axis=(0, 2, 3))
            else:
                gb = _bias_grad(g, G, self.dilated, F)
        return gx, gw, gb


@register(
    "conv2d",
    "conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1)",
    "2-d convolution (cross-correlation) of (N, C, H, W) input with (O, C/groups, kH, kW) weight",
    checks=[
        ((Arg((2, 2, 4, 4)), Arg((3, 2, 2, 2)), Arg((3,))), {}),
        ((Arg((1, 2, 5, 4)), Arg((2, 1, 3, 2))), {"stride": 2, "padding": 1, "groups": 2}),
        ((Arg((2, 5, 5)), Arg((1, 2, 2, 2))), {"dilation": 2}),
    ],
    category="nn",
    batch="image",
    inplace=None,
    pure=True,
    parser=None,
)
def conv2d(input, weight, bias=None, stride=1, padding=0, dilation=1, groups=1):
    x, w = tensor_arg(input), tensor_arg(weight)
    unbatched = x.data.ndim == 3
    if unbatched:
        x = unsqueeze(x, 0)
    if x.data.ndim != 4:
        raise GradRuntimeError(
            f"Expected 3D (unbatched) or 4D (batched) input to conv2d, but got "
            f"input of size: [{', '.join(str(s) for s in x.data.shape)}]"
        )
    if w.data.ndim != 4:
        raise GradRuntimeError(f"weight should have 4 dimensions, got {w.data.ndim}")
    stride, dilation = _pair(stride, "stride"), _pair(dilation, "dilation")
    if isinstance(padding, str):
        if padding == "valid":
            padding = (0, 0)
        elif padding == "same":
            if stride != (1, 1):
                raise GradRuntimeError("padding='same' is not supported for strided convolutions")
            tot = [d * (k - 1) for d, k in zip(dilation, w.data.shape[2:])]
            padding = tuple(v // 2 for v in tot)
            if any(v % 2 for v in tot):  # torch: the extra row/column of zeros at the end
                context.warn(SAME_EVEN_WARNING)
                x = pad(x, (0, tot[1] % 2, 0, tot[0] % 2))
        else:
            raise GradRuntimeError(f"Invalid padding string: '{padding}'")
    padding = _pair(padding, "padding")
    N, C, H, W = x.data.shape
    O, Cg, kh, kw = w.data.shape
    if groups < 1 or C % groups or O % groups or Cg * groups != C:
        raise GradRuntimeError(
            f"Given groups={groups}, weight of size [{', '.join(str(s) for s in w.data.shape)}], "
            f"expected input[{', '.join(str(s) for s in x.data.shape)}] to have {Cg * groups} "
            f"channels, but got {C} channels instead"
        )
    if (
        H + 2 * padding[0] < dilation[0] * (kh - 1) + 1
        or W + 2 * padding[1] < dilation[1] * (kw - 1) + 1
    ):
        raise GradRuntimeError(
            f"Calculated padded input size per channel: ({H + 2 * padding[0]} x "
            f"{W + 2 * padding[1]}). Kernel size: ({dilation[0] * (kh - 1) + 1} x "
            f"{dilation[1] * (kw - 1) + 1}). Kernel size can't be greater than actual input size"
        )
    _same_dtype(x, w, "Input type and weight type")
    params = dict(stride=stride, padding=padding, dilation=dilation, groups=groups)
    if bias is None:
        out = Conv2d.apply(x, w, b=None, **params)
    else:
        out = Conv2d.apply(x, w, tensor_arg(bias), **params)
    return squeeze(out, 0) if unbatched else out


# ---------------------------------------------------------------- max_pool2d


class MaxPool2d(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("idx", "shape", "args")
    name = "MaxPool2DWithIndicesBackward0"
    saved_names = ("self", "result1")  # result1: the indices, in each plane
    saved_extra = {
        "kernel_size": lambda node: node.args[0],
        "stride": lambda node: node.args[1],
        "padding": lambda node: node.args[2],
        "dilation": lambda node: node.args[3],
        "ceil_mode": lambda node: node.args[4],
    }

    def jvp(self, ts, F, *saved):
        """The tangent at the positions the max chose (a selection of the input)."""
        return Gather.apply(ts[0], idx=self.idx, valid=None)

    def forward(self, x, kernel_size, stride, padding, dilation, ceil_mode, strided=True):
        # strided: whether the call gave the stride (PyTorch saves () for the kernel's)
        # the geometry from the shape and the parameters (_pool_plan): a replayed loop
        # runs the node again with the same parameters
        oshape, inside = _pool_plan(x.shape[-2:], kernel_size, stride, padding, dilation, ceil_mode)
        self.args = (kernel_size, stride if strided else (), padding, dilation, ceil_mode)
        if x.ndim == 3:  # unbatched (C, H, W): one node, as PyTorch's kernel takes it whole
            out = self.forward(x[None], kernel_size, stride, padding, dilation, ceil_mode, strided)
            self.idx, self.shape = self.idx[0], x.shape
            self.save(x, self.saved[1][0])
            return out[0]
        window = (kernel_size, stride, dilation)
        if inside and x.dtype.kind == "f":
            got = native_windows(x, oshape, window) if x.size else None
            if got is None:
                got = gathered_windows(x, oshape, window)
            if got is None:
                out, local = self._windows(x, oshape, window)
            else:
                out, local, self.idx = got
                self.shape = x.shape
            self.save(x, local)
            return out
        idx, valid = _pool_index(*x.shape[-2:], *kernel_size, *stride, *padding, *dilation, *oshape)
        if x.dtype.kind == "f":
            out = self._strided(x, idx, oshape, window, padding)
        else:
            out = self._gathered(x, idx, valid, oshape)
        # PyTorch keeps the input and the indices of the maxima in each plane
        N, C = x.shape[:2]
        planes = (np.arange(N * C, dtype=np.int64) * prod(x.shape[2:])).reshape(N, C, 1, 1)
        self.save(x, (self.idx - planes).astype(np.int64))
        return out

    def _gathered(self, x, idx, valid, oshape):
        N, C = x.shape[:2]
        per = prod(x.shape[2:])
        full = idx[None] + (np.arange(N * C) * per).reshape(N * C, 1, 1)  # (NC, K, L)
        win = x.reshape(-1)[full]
        if valid is not None:
            win = np.where(valid, win, -np.inf)
        nan = np.isnan(win)
        pick = np.where(nan.any(axis=1), nan.argmax(axis=1), win.argmax(axis=1))  # first max / nan
        chosen = np.take_along_axis(full, pick[:, None, :], axis=1)[:, 0, :]
        self.idx, self.shape = chosen.reshape((N, C) + oshape), x.shape
        return np.take_along_axis(win, pick[:, None, :], axis=1).reshape((N, C) + oshape)

    def _strided(self, x, idx, oshape, window, padding):
        """forward's values and choices by strided windows: each of the K positions of a
        window as a strided view of x over the outputs whose window has it inside the
        input (padding and ceil_mode's last windows leave it out), compared in window
        order from -inf at position 0 -- a later value is taken when it is greater, or
        is the first nan (the gathered argmax's picks: the first max or the first nan,
        position 0 where every value is -inf or outside)."""
        (kh, kw), (sh, sw), (dh, dw) = window
        N, C, H, W = x.shape
        oh, ow = oshape
        nans = bool(np.isnan(x).any())
        best = np.full((N, C, oh, ow), -np.inf, x.dtype)
        kbest = np.zeros((N, C, oh, ow), np.intp)
        rows = _tap_ranges(H, kh, sh, padding[0], dh, oh)
        cols = _tap_ranges(W, kw, sw, padding[1], dw, ow)
        for k in range(kh * kw):
            r0, r1, ir = rows[k // kw]
            q0, q1, iq = cols[k % kw]
            if r0 == r1 or q0 == q1:
                continue
            v = x[
                :, :, ir : ir + sh * (r1 - r0 - 1) + 1 : sh, iq : iq + sw * (q1 - q0 - 1) + 1 : sw
            ]
            b, kb = best[:, :, r0:r1, q0:q1], kbest[:, :, r0:r1, q0:q1]
            take = v > b
            if nans:
                take |= np.isnan(v) & ~np.isnan(b)
            np.copyto(b, v, where=take)
            np.copyto(kb, k, where=take)
        # the chosen position in x (flat): the window position's index in the plane (the
        # clipped one of an outside position, as gathered), plus the plane's offset
        chosen = idx[kbest, np.arange(oh * ow).reshape(oh, ow)]
        chosen += (np.arange(N * C) * (H * W)).reshape(N, C, 1, 1)
        self.idx, self.shape = chosen, x.shape
        return best

    def _windows(self, x, oshape, window):
        """_strided's values and choices where every window lies inside the input (no
        padding, no partial window of ceil_mode), and the chosen indices in each plane:
        the same compares in window order, starting from the values at position 0 (what
        the compare with -inf takes there: all but -inf, which is equal), the indices
        computed from the positions (no clipped index to look up)."""
        (kh, kw), (sh, sw), (dh, dw) = window
        N, C, H, W = x.shape
        oh, ow = oshape
        nans = bool(np.isnan(x).any())
        best = np.array(x[:, :, : sh * (oh - 1) + 1 : sh, : sw * (ow - 1) + 1 : sw], order="C")
        local = np.zeros((N, C, oh, ow), np.int64)  # (the chosen position's offset)
        take = np.empty((N, C, oh, ow), np.bool_)
        for k in range(1, kh * kw):
            i, j = (k // kw) * dh, (k % kw) * dw
            v = x[:, :, i : i + sh * (oh - 1) + 1 : sh, j : j + sw * (ow - 1) + 1 : sw]
            np.greater(v, best, out=take)
            if nans:
                take |= np.isnan(v) & ~np.isnan(best)
                np.copyto(best, v, where=take)
            else:  # (NumPy's maximum gives its second operand where the two are equal)
                np.maximum(v, best, out=best)
            np.copyto(local, i * W + j, where=take)
        # the chosen position in each plane: the window's corner plus the position's offset
        corner, planes = _pool_offsets(N * C, H * W, oh, ow, sh * W, sw)
        local += corner
        self.idx = local + planes.reshape(N, C, 1, 1)
        self.shape = x.shape
        return best, local

    def backward(self, g, F, _x, _indices):
        if F.tensor_mode or g.dtype.char not in "fd":
            return (scatter(F, g, self.idx, None, self.shape),)
        # PyTorch's kernel adds each output's gradient into its input's, output after
        # output, in the input's dtype: windows that overlap share inputs, whose float32
        # sums are float32's, not a float64 sum rounded
        size, idx = prod(self.shape), self.idx
        if idx.dtype == np.int64 and idx.flags.c_contiguous and g.dtype.isnative:
            out = native_layers.pool_scatter(np.ascontiguousarray(g), idx, size)
            if out is not None:  # (the compiled loop: the same additions in the same order)
                return (out.reshape(self.shape),)
        out = np.zeros(size, g.dtype)
        np.add.at(out, idx.reshape(-1), g.reshape(-1))
        return (out.reshape(self.shape),)


def _inside(shape, oshape, window, padding):
    """Whether every pooling window lies inside the input (no padding, no partial last
    window)."""
    (kh, kw), (sh, sw), (dh, dw) = window
    return (
        padding == (0, 0)
        and (oshape[0] - 1) * sh + (kh - 1) * dh < shape[2]
        and (oshape[1] - 1) * sw + (kw - 1) * dw < shape[3]
    )


def _tap_ranges(size, k, stride, pad, dil, out):
    """For each kernel offset along one axis: (first output, end output, first input
    index) of the outputs whose window has that offset inside the input."""
    taps = []
    for i in range(k):
        off = i * dil - pad
        lo = (stride - 1 - off) // stride if off < 0 else 0  # (the first r with r*s + off >= 0)
        hi = min(out, (size - 1 - off) // stride + 1) if size - 1 - off >= 0 else 0
        taps.append((lo, max(lo, hi), lo * stride + off))
    return taps


def _pool_size(n, k, s, p, d, ceil):
    span = n + 2 * p - d * (k - 1) - 1
    out = (span + (s - 1 if ceil else 0)) // s + 1
    if ceil and (out - 1) * s >= n + p:
        out -= 1
    return out


@_memo
def _pool_offsets(planes, size, oh, ow, row, col):
    """(each window's corner in its plane (oh, ow), each plane's start (planes, 1, 1)):
    `row` and `col` the steps between windows' corners."""
    corner = (np.arange(oh, dtype=np.int64) * row).reshape(oh, 1) + np.arange(ow) * col
    return corner, (np.arange(planes, dtype=np.int64) * size).reshape(planes, 1, 1)


@_memo
def _pool_plan(hw, kernel_size, stride, padding, dilation, ceil_mode):
    """A pooling's geometry from a plane's (H, W) and its parameters: (the output's
    (oh, ow), whether every window lies inside the input, `_inside`)."""
    (H, W), (kh, kw), (sh, sw), (ph, pw), (dh, dw) = hw, kernel_size, stride, padding, dilation
    oh = _pool_size(H, kh, sh, ph, dh, ceil_mode)
    ow = _pool_size(W, kw, sw, pw, dw, ceil_mode)
    return (oh, ow), _inside((0, 0, H, W), (oh, ow), (kernel_size, stride, dilation), padding)


@_memo
def _pool_index(H, W, kh, kw, sh, sw, ph, pw, dh, dw, oh, ow):
    """Flat indices (kh*kw, oh*ow) of the windows into one plane, and which are inside
    (None: all)."""
    i = (np.arange(kh) * dh).reshape(kh, 1, 1, 1) + (np.arange(oh) * sh).reshape(1, 1, oh, 1) - ph
    j = (np.arange(kw) * dw).reshape(1, kw, 1, 1) + (np.arange(ow) * sw).reshape(1, 1, 1, ow) - pw
    valid = np.broadcast_to((i >= 0) & (i < H) & (j >= 0) & (j < W), (kh, kw, oh, ow))
    flat = np.broadcast_to(np.clip(i, 0, H - 1) * W + np.clip(j, 0, W - 1), (kh, kw, oh, ow))
    flat = flat.reshape(kh * kw, oh * ow)
    valid = valid.reshape(kh * kw, oh * ow)
    return flat, (None if valid.all() else valid)


@register(
    "max_pool2d",
    "max_pool2d(input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False)",
    "the largest value of each kernel_size window of (N, C, H, W) input",
    checks=[((Arg((2, 2, 4, 4)), 2), {}), ((Arg((1, 5, 5)), 3), {"stride": 2, "padding": 1})],
    category="nn",
    batch="image",
    inplace=None,
    pure=True,
    parser=None,
)
def max_pool2d(
    input, kernel_size, stride=None, padding=0, dilation=1, ceil_mode=False, return_indices=False
):
    x = tensor_arg(input)
    if x.data.ndim not in (3, 4):
        raise GradRuntimeError("non-empty 3D or 4D (batch mode) tensor expected for input")
    if return_indices:
        raise GradValueError("max_pool2d: return_indices=True is not supported by gradcli")
    kh, kw = _pair(kernel_size, "kernel_size")
    sh, sw = (kh, kw) if stride is None or stride == [] or stride == () else _pair(stride, "stride")
    ph, pw = _pair(padding, "padding")
    dh, dw = _pair(dilation, "dilation")
    if ph > kh // 2 or pw > kw // 2:
        raise GradRuntimeError(
            "pad should be at most half of effective kernel size, but got "
            f"pad={ph if ph > kh // 2 else pw}, kernel_size="
            f"{kh if ph > kh // 2 else kw} and dilation={dh}"
        )
    C, H, W = x.data.shape[-3:]
    oh = _pool_size(H, kh, sh, ph, dh, ceil_mode)
    ow = _pool_size(W, kw, sw, pw, dw, ceil_mode)
    if oh <= 0 or ow <= 0:
        raise GradRuntimeError(
            f"Given input size: ({C}x{H}x{W}). Calculated output size: "
            f"({C}x{oh}x{ow}). Output size is too small"
        )
    return MaxPool2d.apply(
        x,
        kernel_size=(kh, kw),
        stride=(sh, sw),
        padding=(ph, pw),
        dilation=(dh, dw),
        ceil_mode=bool(ceil_mode),
        strided=not (stride is None or stride == [] or stride == ()),
    )


# ---------------------------------------------------------------- dropout


@register(
    "dropout",
    "dropout(input, p=0.5, training=True)",
    "zero each element with probability p (a Bernoulli draw) and scale the rest by 1/(1-p)",
    category="nn",
    batch=None,
    inplace=None,
    pure=True,  # (its draws an op of their own, run in their place: _Noise)
    checks=none("random values: nothing to compare finite differences with"),
    parser=None,
)
def dropout(input, p=0.5, training=True, inplace=False):
    return _dropout(tensor_arg(input), p, training, feature=False, inplace=inplace)


@register(
    "feature_dropout",
    "feature_dropout(input, p, train)",
    "zero each channel (input[i, j]) with probability p (a Bernoulli draw per channel) and "
    "scale the rest by 1/(1-p): what dropout1d/2d/3d compute",
    category="nn",
    batch=None,
    inplace=None,
    pure=True,  # (its draws an op of their own, run in their place: _Noise)
    checks=none("random values: nothing to compare finite differences with"),
    parser=None,
)
def feature_dropout(input, p, train, inplace=False):
    return _dropout(tensor_arg(input), p, train, feature=True, inplace=inplace)


def _dropout(x, p, training, feature, inplace=False):
    """ATen's dropout: the input itself when nothing is dropped, else the input times a
    noise of Bernoulli(1 - p) draws divided by 1 - p (in place, `x.mul_(noise)`, when
    asked); a feature dropout draws one value per channel, the noise of shape
    (N, C, 1, ...) broadcast over the rest."""
    times = FUNCTIONS["mul_"] if inplace else mul
    if isinstance(p, bool) or not isinstance(p, (int, float)) or not 0 <= p <= 1:
        raise GradValueError(f"dropout probability has to be between 0 and 1, but got {p}")
    if p == 0 or not training or x.data.size == 0:
        return x
    if x.data.dtype.kind != "f":
        raise GradRuntimeError("result type Float can't be cast to the desired output type Long")
    if p == 1:
        return times(x, Tensor(np.zeros((), dtype=x.data.dtype)))
    shape = x.data.shape
    if feature:
        if len(shape) < 2:
            raise GradRuntimeError("Feature dropout requires at least 2 dimensions in the input")
        shape = shape[:2] + (1,) * (len(shape) - 2)
    order = None if feature else _memory_order(x.data)
    return times(x, _Noise.apply(shape=shape, p=p, dtype=x.data.dtype, order=order))


class _Noise(Function):
    """Dropout's noise: Bernoulli(1 - p) draws of the program's generator, divided by
    1 - p, as an op of no tensor (its value is the generator's next draws: `draws`, so a
    replayed loop runs it in its place every iteration, never hoisted, and its draws are
    the compiled loop's, language/replay_plan._invariant).  `order`: the dims of the
    input from the outermost in memory (empty_like keeps a permuted input's layout: the
    draws go in memory order), or None."""

    name = "Noise"  # (never a node: no tensor argument)
    draws = True
    jvp = none("no tensor argument: its draws are constants, never a node")

    def forward(self, shape, p, dtype, order):
        if order is None:
            keep = sampling.bernoulli(context.current.generator, shape, 1 - p)
        else:
            drawn = sampling.bernoulli(
                context.current.generator, tuple(shape[d] for d in order), 1 - p
            )
            keep = drawn.transpose(np.argsort(order))
        return keep.astype(dtype) / dtype.type(1 - p)


def _memory_order(a):
    """The dims of a non-contiguous array that is a permutation of a contiguous one, from
    the outermost in memory (what `empty_like` keeps); None for a C-contiguous array or
    one that is no such permutation (PyTorch's noise is then contiguous)."""
    if a.ndim < 2 or a.flags.c_contiguous:
        return None
    order = tuple(int(d) for d in np.argsort([-s for s in a.strides], kind="stable"))
    return order if a.transpose(order).flags.c_contiguous else None
