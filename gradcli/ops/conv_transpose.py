"""`F.conv_transpose2d` (ConvolutionBackward0, as torch records any convolution): the
adjoint of conv2d with the same weight, whose input gradient it is.  The columns
`W^T x` are scattered back into the image window by window, as torch's col2im adds them
(channel, kernel row, kernel column, then position); its gradients are conv2d's own
steps (gather the gradient's windows, multiply), so they are differentiable again."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..engine.declare import none
from ..engine.forward import add_terms
from ..engine.function import Function
from ..runtime.errors import GradRuntimeError
from .nn import _conv_index, _pair, _same_dtype, gather, scatter
from .registry import Arg, register
from .shape import reshape, squeeze, unsqueeze


class ConvTranspose2d(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("idx", "valid", "xshape", "wshape", "oshape", "groups")
    name = "ConvolutionBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def jvp(self, ts, F, *saved):
        """conv_transpose(x, w) + b is bilinear in (x, w) and linear in b."""
        x, w = ts.args[0], ts.args[1]
        params = ts.params
        tb = ts[2] if len(ts) > 2 else None
        return add_terms(
            None if ts[0] is None else ConvTranspose2d.apply(ts[0], w, None, **params),
            None if ts[1] is None else ConvTranspose2d.apply(x, ts[1], None, **params),
            None if tb is None else reshape(tb, 1, -1, 1, 1),
        )

    def forward(self, x, w, b, idx, valid, oshape, groups):
        N, Cin = x.shape[:2]
        cout = w.shape[1] * groups
        per = cout * oshape[0] * oshape[1]
        full = idx[None] + (np.arange(N) * per).reshape(N, 1, 1, 1)
        fvalid = None if valid is None else np.broadcast_to(valid, full.shape)
        self.idx, self.valid, self.xshape, self.wshape = full, fvalid, x.shape, w.shape
        self.oshape, self.groups = (N, cout) + oshape, groups
        xr = x.reshape(N, groups, Cin // groups, -1)  # (N, G, Cin/G, L)
        wg = w.reshape(groups, Cin // groups, -1)  # (G, Cin/G, K)
        cols = np.matmul(np.swapaxes(wg, -1, -2), xr)  # (N, G, K, L)
        out = scatter(_Arrays, cols, full, fvalid, self.oshape)
        if b is not None:
            out = out + b.reshape(1, -1, 1, 1)
        self.save(x, w)
        return out.astype(x.dtype, copy=False)

    def backward(self, g, F, x, w):
        n = self.needs
        N, G = self.xshape[0], self.groups
        Cin = self.xshape[1]
        cols = gather(F, g, self.idx, self.valid)  # (N, G, K, L)
        gx = gw = gb = None
        if n[0]:
            wg = F.reshape(w, (G, Cin // G, -1))
            gx = F.reshape(wg @ cols, self.xshape)
        if n[1]:
            xr = F.reshape(x, (N, G, Cin // G, -1))
            gw = F.reshape(F.sum(xr @ F.swapaxes(cols, -1, -2), axis=0), self.wshape)
        if len(n) > 2 and n[2]:
            gb = F.sum(g, axis=(0, 2, 3))
        return gx, gw, gb


class _Arrays:
    tensor_mode = False


@register(
    "conv_transpose2d",
    "conv_transpose2d(input, weight, bias=None, stride=1, padding=0, output_padding=0, "
    "groups=1, dilation=1)",
    "2-d transposed convolution of (N, Cin, H, W) input with (Cin, Cout/groups, kH, kW) weight",
    checks=[
        ((Arg((2, 2, 3, 3)), Arg((2, 3, 2, 2)), Arg((3,))), {}),
        ((Arg((1, 2, 3, 2)), Arg((2, 1, 3, 2))), {"stride": 2, "padding": 1, "groups": 2}),
        ((Arg((2, 3, 3)), Arg((2, 1, 2, 2))), {"dilation": 2, "output_padding": 1, "stride": 2}),
    ],
    category="nn",
    batch="image",
    inplace=None,
    pure=False,
    parser=None,
)
def conv_transpose2d(
    input, weight, bias=None, stride=1, padding=0, output_padding=0, groups=1, dilation=1
):
    x, w = tensor_arg(input), tensor_arg(weight)
    unbatched = x.data.ndim == 3
    if unbatched:
        x = unsqueeze(x, 0)
    if x.data.ndim != 4:
        raise GradRuntimeError(
            "Expected 3D (unbatched) or 4D (batched) input to conv_transpose2d, but got "
            f"input of size: [{', '.join(str(s) for s in x.data.shape)}]"
        )
    if w.data.ndim != 4:
        raise GradRuntimeError(f"weight should have 4 dimensions, got {w.data.ndim}")
    _same_dtype(x, w, "Input type and weight type")
    stride, dilation = _pair(stride, "stride"), _pair(dilation, "dilation")
    padding, opad = _pair(padding, "padding"), _pair(output_padding, "output_padding")
    N, Cin, H, W = x.data.shape
    if w.data.shape[0] != Cin or groups < 1 or Cin % groups:
        raise GradRuntimeError(
            f"Given transposed=1, weight of size [{', '.join(map(str, w.data.shape))}], "
            f"expected input[{', '.join(map(str, x.data.shape))}] to have "
            f"{w.data.shape[0]} channels, but got {Cin} channels instead"
        )
    for o, s, d in zip(opad, stride, dilation):
        if o >= s and o >= d:
            raise GradRuntimeError(
                "output padding must be smaller than either stride or dilation, but got "
                f"output_padding_height: {opad[0]} output_padding_width: {opad[1]} "
                f"stride_height: {stride[0]} stride_width: {stride[1]} dilation_height: "
                f"{dilation[0]} dilation_width: {dilation[1]}"
            )
    _, cg, kh, kw = w.data.shape
    oh = (H - 1) * stride[0] - 2 * padding[0] + dilation[0] * (kh - 1) + opad[0] + 1
    ow = (W - 1) * stride[1] - 2 * padding[1] + dilation[1] * (kw - 1) + opad[1] + 1
    if oh <= 0 or ow <= 0:
        raise GradRuntimeError(
            f"Given input size per channel: ({H} x {W}). Calculated output size per channel: "
            f"({oh} x {ow}). Output size is too small"
        )
    idx, valid, h2, w2 = _conv_index(
        cg * groups, oh, ow, kh, kw, stride, padding, dilation, groups
    )  # (the conv2d this is the adjoint of: (h2, w2) == (H, W))
    b = None if bias is None else tensor_arg(bias)
    out = ConvTranspose2d.apply(x, w, b, idx=idx, valid=valid, oshape=(oh, ow), groups=groups)
    return squeeze(out, 0) if unbatched else out
