"""`torch.index_put(input, indices, values, accumulate=False)` (and `x.index_put`,
`x.index_put_`): input with values put at `input[indices]` (indices a tuple of index
tensors, as `x[i, j] = v` takes them), or added there (accumulate: repeated indices add
up).  IndexPutBackward0 saves the indices and accumulate; its gradients are
derivatives.yaml's: grad (accumulate) or grad with zeros put at the indices for input,
grad[indices] summed to values' shape for values."""

from __future__ import annotations

import numpy as np

from ..core import dtypes
from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.forward import linear
from ..engine.function import Function
from ..runtime.errors import GradIndexError, GradRuntimeError, GradTypeError, ShapeError
from .registry import FUNCTIONS, Arg, Parser, register
from .tensor_args import _pytype
from .index_errors import check_index_tensors


def _shape(s):
    return "[" + ", ".join(map(str, s)) + "]"


class IndexPutOp(Function):
    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("key", "indices", "accumulate", "shape")
    name = "IndexPutBackward0"
    saved_names = ()
    saved_extra = {
        "indices": lambda node: tuple(Tensor(i) for i in node.indices),
        "accumulate": lambda node: node.accumulate,
    }
    jvp = linear  # linear in its tensor inputs

    def forward(self, x, v, key, indices, accumulate):
        self.key, self.indices, self.accumulate = key, indices, accumulate
        self.shape = np.shape(v)
        out = x.copy()
        target = x[key].shape
        try:
            vb = np.broadcast_to(v, target)
        except ValueError:
            raise ShapeError(
                f"shape mismatch: value tensor of shape {_shape(np.shape(v))} cannot "
                f"be broadcast to indexing result of shape {_shape(target)}"
            ) from None
        if accumulate:
            np.add.at(out, key, vb)
        else:
            out[key] = vb
        return out

    def backward(self, g, F):
        n = self.needs
        gx = gv = None
        if n[0]:
            if self.accumulate:
                gx = g
            elif F.tensor_mode:  # grad.index_put(indices, zeros_like(values))
                zero = Tensor(np.zeros((), g.data.dtype))
                gx = IndexPutOp.apply(g, zero, key=self.key, indices=self.indices, accumulate=False)
            else:
                gx = np.array(g)  # (a 0-d gradient may be a NumPy scalar: not writable)
                gx[self.key] = 0
        if n[1]:
            gv = F.sum_to(F.take(g, self.key), self.shape)
        return gx, gv


def _key(x, indices):
    """The NumPy key of index tensors (long or bool; None takes a whole dim), with
    PyTorch's errors."""
    if isinstance(indices, Tensor) or not isinstance(indices, (tuple, list)):
        raise GradTypeError(
            "index_put(): argument 'indices' (position 2) must be tuple of Tensors, not "
            f"{_pytype(indices)}"
        )
    key, arrays = [], []
    for i in indices:
        if i is None:
            key.append(slice(None))
            continue
        if not isinstance(i, Tensor):
            raise GradTypeError(
                "index_put(): argument 'indices' (position 2) must be tuple of Tensors, "
                f"not {_pytype(indices)}"
            )
        a = i.data
        if a.dtype.kind not in "biu":
            raise GradIndexError("tensors used as indices must be long, int, byte or bool tensors")
        key.append(a)
        arrays.append(a)
    shape = x.data.shape
    dim = 0
    entries: list = []  # (the index tensors, (indices, size) each: `out_of_bounds`)
    bounds = False
    for k in key:
        if isinstance(k, np.ndarray) and k.dtype.kind == "b":
            entries.append((k, shape[dim : dim + k.ndim]))
            dim += k.ndim
            continue
        if dim >= len(shape):
            raise GradIndexError(
                f"too many indices for tensor of dimension {len(shape)} (got {len(key)})"
            )
        if isinstance(k, np.ndarray):
            n = shape[dim]
            entries.append((k, n))
            bounds = bounds or bool(k.size and (k.max() >= n or k.min() < -n))
        dim += 1
    check_index_tensors(entries, bounds)
    return tuple(key), tuple(arrays)


@register(
    "index_put",
    "index_put(input, indices, values, accumulate=False)",
    "input with values put at input[indices] (added there with accumulate=True)",
    method=True,
    checks=[
        ((Arg((3, 4)), (Tensor(np.array([0, 2])), Tensor(np.array([1, 3]))), Arg((2,))), {}),
        (
            (Arg((3, 4)), (Tensor(np.array([0, 2, 0])),), Arg((4,))),
            {"accumulate": True},
        ),
    ],
    category="shape",
    batch=None,
    inplace="index_put_",
    pure=False,
    parser=Parser(overloaded=True),
)
def index_put(input, indices, values, accumulate=False):  # noqa: A002
    x, v = tensor_arg(input), tensor_arg(values)
    key, arrays = _key(x, indices)
    if v.data.dtype != x.data.dtype:
        raise GradRuntimeError(
            "Index put requires the source and destination dtypes match, got "
            f"{dtypes.scalar_type_name(x.data.dtype)} for the destination and "
            f"{dtypes.scalar_type_name(v.data.dtype)} for the source."
        )
    return IndexPutOp.apply(x, v, key=key, indices=arrays, accumulate=bool(accumulate))


# ---------------------------------------------------------------- put


class Put(Function):
    """x with source's elements put (or added) at flat indices of x."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")
    __slots__ = ("idx", "accumulate", "source_shape")
    name = "PutBackward0"
    saved_names = ("index", "source")
    saved_extra = {"accumulate": lambda node: node.accumulate}
    jvp = linear  # linear in its tensor inputs

    def forward(self, x, source, index, idx, accumulate):
        self.idx, self.accumulate, self.source_shape = idx, accumulate, source.shape
        self.save(index, source)
        out = np.array(x, copy=True)
        flat = out.reshape(-1)
        if accumulate:
            np.add.at(flat, idx, source.reshape(-1))
        else:
            flat[idx] = source.reshape(-1)
        return out

    def backward(self, g, F, _index, _source):
        n = self.needs
        gx = gs = None
        if n[0]:
            if self.accumulate:
                gx = g
            elif F.tensor_mode:  # grad.put(index, zeros_like(source), false)
                zeros = Tensor(np.zeros(self.source_shape, g.data.dtype))
                gx = Put.apply(g, zeros, index=_index, idx=self.idx, accumulate=False)
            else:
                gx = np.array(g)  # (a 0-d gradient may be a NumPy scalar: not writable)
                gx.reshape(-1)[self.idx] = 0
        if n[1]:  # grad.take(index).reshape_as(source)
            if F.tensor_mode:
                taken = FUNCTIONS["take"](g, Tensor(self.idx))
                gs = FUNCTIONS["reshape"](taken, *self.source_shape)
            else:
                gs = np.ascontiguousarray(g).reshape(-1)[self.idx].reshape(self.source_shape)
        return gx, gs


@register(
    "put",
    "put(input, index, source, accumulate=False)",
    "input with source's elements put at the flat indices index (added with accumulate)",
    method=True,
    checks=[
        ((Arg((2, 3)), Tensor(np.array([0, 4, -1])), Arg((3,))), {}),
        ((Arg((2, 3)), Tensor(np.array([[1, 1], [5, 0]])), Arg((2, 2))), {"accumulate": True}),
    ],
    category="shape",
    batch=None,
    inplace="put_",
    pure=False,
    parser=Parser(overloaded=True),
)
def put(input, index, source, accumulate=False):  # noqa: A002
    x, i, s = tensor_arg(input), tensor_arg(index), tensor_arg(source)
    if i.data.dtype != np.int64:
        raise GradRuntimeError(
            "put_(): Expected a long tensor for index, but got "
            f"{dtypes.scalar_type_name(i.data.dtype)}"
        )
    if x.data.dtype != s.data.dtype:
        raise GradRuntimeError(
            "put_(): self and source expected to have the same dtype, but got self.dtype = "
            f"{dtypes.scalar_type_name(x.data.dtype)} and source.dtype = "
            f"{dtypes.scalar_type_name(s.data.dtype)}"
        )
    if s.data.size != i.data.size:
        raise GradIndexError(
            "put_(): Expected source and index to have the same number of elements, but got "
            f"source.numel() = {s.data.size}, index.numel() = {i.data.size}"
        )
    n = x.data.size
    flat = i.data.reshape(-1)
    bad = (flat >= n) | (flat < -n)
    if bad.any():
        raise GradIndexError(
            f"out of range: tried to access index {int(flat[bad][0])} on a tensor of {n} elements."
        )
    idx = np.where(flat < 0, flat + n, flat)
    return Put.apply(x, s, index=i.data, idx=idx, accumulate=bool(accumulate))
