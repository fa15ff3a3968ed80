"""Small torch functions that PyTorch's own documentation shows and that ATen writes as
other ops: `torch.positive` (the input itself), `torch.msort` (sort along dim 0, its
values), `torch.atleast_1d`/`2d`/`3d` (ATen's reshape and unsqueeze views), `torch.argwhere`
(nonzero), `torch.isposinf`/`isneginf`/`signbit` (element tests, bool results) and
`torch.broadcast_shapes`/`broadcast_tensors` (the broadcast shape; each input expanded
to it)."""

from __future__ import annotations

import math

import numpy as np

from ..core import dtypes
from ..core.convert import type_name
from ..core.dtypes import scalar_type_name
from ..core.tensor import Tensor
from ..engine.declare import none
from ..ops.dims import norm_dims
from ..ops.indexing import slice_view
from ..ops.registry import FUNCTIONS, Arg, not_a_tensor_op, register
from ..runtime.errors import GradError, GradRuntimeError, GradTypeError, GradValueError
from .values import Size

M = Arg((3, 2))
NO_GRAD = none("a bool result: nothing to differentiate")


def _f(name):
    return FUNCTIONS[name]


def _input(name, v):
    if not isinstance(v, Tensor):
        raise GradTypeError(
            f"{name}(): argument 'input' (position 1) must be Tensor, not {type_name(v)}"
        )
    return v


@register(
    "positive",
    "positive(input)",
    "input itself (unary +); an error for a bool tensor",
    method=True,
    checks=[((M,), {})],
    category="math",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def positive(input):
    x = _input("positive", input)
    if x.data.dtype == np.bool_:
        raise GradRuntimeError("The `+` operator, on a bool tensor is not supported.")
    return x


@register(
    "msort",
    "msort(input)",
    "input sorted along its first dimension (sort(input, 0)'s values)",
    method=True,
    checks=[((Arg((3, 2)),), {})],
    category="reduce",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def msort(input):
    return _f("sort")(_input("msort", input), 0)[0]


def _atleast(name, view):
    def fn(*tensors):
        if len(tensors) == 1:
            tensors = tensors[0]
        if isinstance(tensors, Tensor):
            return view(tensors)
        if not isinstance(tensors, (tuple, list)) or not all(
            isinstance(t, Tensor) for t in tensors
        ):
            got = tensors if not isinstance(tensors, (tuple, list)) else tensors
            raise GradTypeError(
                f"{name}() received an invalid combination of arguments - got "
                f"({type_name(got)}), but expected one of:\n"
                " * (Tensor input)\n * (tuple of Tensors tensors)"
            )
        return tuple(view(t) for t in tensors)

    return fn


def _view_1d(x):
    return _f("reshape")(x, (1,)) if x.data.ndim == 0 else x


def _view_2d(x):
    if x.data.ndim == 0:
        return _f("reshape")(x, (1, 1))
    return _f("unsqueeze")(x, 0) if x.data.ndim == 1 else x


def _view_3d(x):
    n = x.data.ndim
    if n == 0:
        return _f("reshape")(x, (1, 1, 1))
    if n == 1:
        return _f("unsqueeze")(_f("unsqueeze")(x, 0), -1)
    return _f("unsqueeze")(x, -1) if n == 2 else x


for _n, _view in (("atleast_1d", _view_1d), ("atleast_2d", _view_2d), ("atleast_3d", _view_3d)):
    register(
        _n,
        f"{_n}(*tensors)",
        f"each input viewed with at least {_n[-2]} dimensions (a tuple for several)",
        checks=[((Arg(()),), {}), ((Arg((3,)),), {}), ((Arg((2, 3)),), {})],
        category="shape",
        batch=None,
        inplace=None,
        pure=False,
        parser=None,
    )(_atleast(_n, _view))


@register(
    "argwhere",
    "argwhere(input)",
    "the indices of the non-zero elements, one row each (nonzero)",
    method=True,
    checks=NO_GRAD,
    category="indexing",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def argwhere(input):
    return _f("nonzero")(_input("argwhere", input))


def _element_test(name, test, doc):
    def fn(input):
        x = _input(name, input).data
        return Tensor(np.array(test(x), dtype=np.bool_).reshape(x.shape))

    fn.__name__ = name
    register(
        name,
        f"{name}(input)",
        doc,
        method=True,
        checks=NO_GRAD,
        category="comparison",
        batch=None,
        inplace=None,
        pure=False,
        parser=None,
    )(fn)


def _posinf(x):
    return x == np.inf if x.dtype.kind == "f" else np.zeros(x.shape, np.bool_)


def _neginf(x):
    return x == -np.inf if x.dtype.kind == "f" else np.zeros(x.shape, np.bool_)


def _signbit(x):
    if x.dtype == np.bool_ or x.dtype.kind == "u":
        return np.zeros(x.shape, np.bool_)
    return np.signbit(x)


_element_test("isposinf", _posinf, "whether each element is +inf")
_element_test("isneginf", _neginf, "whether each element is -inf")
_element_test("signbit", _signbit, "whether each element's sign bit is set (-0.0 too)")


def _shape_of(s):
    if isinstance(s, int) and not isinstance(s, bool):
        return (s,), (s,)
    if not isinstance(s, (tuple, list)) or any(
        isinstance(n, bool) or not isinstance(n, int) for n in s
    ):
        raise GradRuntimeError(
            "Input shapes should be of type ints, a tuple of ints, or a list of ints, got "
            + repr(s)
        )
    return tuple(s), s


@register(
    "broadcast_shapes",
    "broadcast_shapes(*shapes)",
    "the shape the given shapes broadcast to (a torch.Size)",
    checks=none("shapes, not tensors"),
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def broadcast_shapes(*shapes):
    given = [_shape_of(s) for s in shapes]
    result = [1] * max((len(s) for s, _ in given), default=0)
    for i, (s, shown) in enumerate(given):
        for k in range(-1, -len(s) - 1, -1):
            n = s[k]
            if n < 0:
                raise GradValueError("Attempting to broadcast a dimension with negative length!")
            if n == 1 or n == result[k]:
                continue
            if result[k] != 1:
                raise GradRuntimeError(
                    f"Attempting to broadcast a dimension of length {n} at {k}! Mismatching "
                    f"argument at index {i} had {shown!r}; but expected shape should be "
                    f"broadcastable to {result!r}"
                )
            result[k] = n
    return Size(result)


def _broadcast(shapes):
    out: list[int] = []
    for s in shapes:
        for k, n in enumerate(reversed(s)):
            if k == len(out):
                out.insert(0, n)
                continue
            j = len(out) - 1 - k
            if out[j] == 1:
                out[j] = n
            elif n != 1 and n != out[j]:
                raise GradRuntimeError(
                    f"The size of tensor a ({out[j]}) must match the size of tensor b ({n}) "
                    f"at non-singleton dimension {j}"
                )
    return tuple(out)


@register(
    "broadcast_tensors",
    "broadcast_tensors(*tensors)",
    "the tensors expanded to their common broadcast shape",
    checks=[((Arg((1, 3)), Arg((2, 1))), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def broadcast_tensors(*tensors):
    if len(tensors) == 1 and isinstance(tensors[0], (tuple, list)):
        tensors = tuple(tensors[0])
    for i, t in enumerate(tensors):
        if not isinstance(t, Tensor):
            raise GradTypeError(
                f"expected Tensor as element {i} in argument 0, but got {type_name(t)}"
            )
    shape = _broadcast([t.data.shape for t in tensors])
    # (ATen's expand_outplace: a tensor of that shape already is itself, not a view)
    return tuple(t if t.data.shape == shape else _f("expand")(t, shape) for t in tensors)


# ------------------------------------------------------------------ tensor_split


def _split_points(name, x, sections, dim):
    """ATen's tensor_split: the (start, end) of each piece along dim."""
    size = x.data.shape[dim]
    if isinstance(sections, Tensor):
        if sections.data.dtype != np.int64:
            raise GradRuntimeError(
                "tensor_split expected tensor_indices_or_sections to have dtype of long, but got "
                + scalar_type_name(sections.data.dtype)
            )
        if sections.data.ndim > 1:
            raise GradRuntimeError(
                "tensor_split expected tensor_indices_or_sections to be a zero-dimensional or"
                f" one-dimensional tensor, but got a tensor with {sections.data.ndim} dims"
            )
        sections = int(sections.data) if sections.data.ndim == 0 else sections.data.tolist()
    if isinstance(sections, int) and not isinstance(sections, bool):
        if sections <= 0:
            raise GradRuntimeError(f"number of sections must be larger than 0, got {sections}")
        small, extra = divmod(size, sections)
        points, start = [], 0
        for i in range(sections):
            end = start + small + (1 if i < extra else 0)
            points.append((start, end))
            start = end
        return points
    if not isinstance(sections, (tuple, list)) or any(
        isinstance(i, bool) or not isinstance(i, int) for i in sections
    ):
        raise GradTypeError(
            f"{name}(): argument 'indices' must be tuple of ints, not {type_name(sections)}"
        )
    points, start = [], 0
    for i in list(sections) + [size]:
        points.append((start, i))
        start = i
    return points


def _pieces(x, points, dim):
    size = x.data.shape[dim]
    out = []
    for a, b in points:
        a = min(max(a + size if a < 0 else a, 0), size)
        b = min(max(b + size if b < 0 else b, 0), size)
        key = (slice(None),) * dim + (slice(a, max(a, b)),)
        out.append(slice_view(x, key, (dim, None)))
    return tuple(out)


@register(
    "tensor_split",
    "tensor_split(input, indices_or_sections, dim=0)",
    "input split along dim into n near-equal pieces, or at the given indices (views)",
    method=True,
    checks=[((Arg((7, 2)), 3), {}), ((Arg((2, 7)), (1, 5)), {"dim": 1})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def tensor_split(input, indices_or_sections, dim=0):
    x = _input("tensor_split", input)
    if x.data.ndim == 0:
        raise GradRuntimeError(
            "tensor_split expected at least a 1-dimensional tensor, but got a tensor with 0 dims"
        )
    (d,) = norm_dims(dim, x.data.ndim)
    return _pieces(x, _split_points("tensor_split", x, indices_or_sections, d), d)


def _direction_split(name, least, dim_of):
    def fn(input, indices_or_sections):
        x = _input(name, input)
        n = x.data.ndim
        if n < least:
            raise GradRuntimeError(
                f"torch.{name} requires a tensor with at least {least} dimension, but got a "
                f"tensor with {n} dimensions!"
            )
        d = dim_of(n)
        if isinstance(indices_or_sections, int) and not isinstance(indices_or_sections, bool):
            size = x.data.shape[d]
            if indices_or_sections != 0 and size % indices_or_sections == 0:
                return tensor_split(x, indices_or_sections, d)
            raise GradRuntimeError(
                f"torch.{name} attempted to split along dimension {d}, but the size of the "
                f"dimension {size} is not divisible by the split_size {indices_or_sections}!"
            )
        return tensor_split(x, indices_or_sections, d)

    fn.__name__ = name
    register(
        name,
        f"{name}(input, indices_or_sections)",
        f"tensor_split along dim {dim_of(3)} (equal pieces when a number)",
        method=True,
        checks=[((Arg((2, 4, 2)), 2), {})],
        category="shape",
        batch=None,
        inplace=None,
        pure=False,
        parser=None,
    )(fn)


_direction_split("hsplit", 1, lambda n: 0 if n == 1 else 1)
_direction_split("vsplit", 2, lambda n: 0)
_direction_split("dsplit", 3, lambda n: 2)


@register(
    "unflatten",
    "unflatten(input, dim, sizes)",
    "dim of input viewed as the shape sizes (one size may be -1)",
    method=True,
    checks=[((Arg((3, 4)), 1, (2, 2)), {})],
    category="shape",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def unflatten(input, dim, sizes):
    x = _input("unflatten", input)
    sizes = [int(n) for n in sizes]
    if not sizes:
        raise GradRuntimeError("unflatten: sizes must be non-empty")
    dims = norm_dims(dim, x.data.ndim)
    if not dims:  # a 0-d input: the dim in range, but no dim to unflatten
        raise GradRuntimeError(
            "unflatten got an unexpected error: "
            "Dimension specified as 0 but tensor has no dimensions"
        )
    (d,) = dims
    shape = list(x.data.shape)
    size = shape[d]
    known = math.prod(n for n in sizes if n != -1)
    if (known != size) if -1 not in sizes else (known == 0 or size % known):
        raise GradRuntimeError(
            f"unflatten: Provided sizes {sizes} don't multiply up to the size of dim {d} "
            f"({size}) in the input tensor"
        )
    return _f("view")(x, *shape[:d], *sizes, *shape[d + 1 :])


@register(
    "element_size",
    "x.element_size()",
    "the size of one element in bytes",
    method=True,
    function=False,
    checks=none("not a differentiable op"),
    category="tensor",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def element_size(x):
    return int(x.data.dtype.itemsize)


# ------------------------------------------------------------------ integer and set tests


def _integer_pair(name, input, other):
    x, y = _input(name, input), other
    if not isinstance(y, Tensor):
        raise GradTypeError(
            f"{name}(): argument 'other' (position 2) must be Tensor, not {type_name(y)}"
        )
    dt = dtypes.result_type(x, y)
    if dt.kind not in "iu":
        raise GradError(
            f"\"{name}_cpu\" not implemented for '{scalar_type_name(dt)}'",
            type_name="NotImplementedError",
        )
    a, b = np.broadcast_arrays(x.data.astype(dt), y.data.astype(dt))
    return a, b


def _gcd(input, other):
    a, b = _integer_pair("gcd", input, other)
    return Tensor(np.ascontiguousarray(np.gcd(a, b)))


def _lcm(input, other):
    a, b = _integer_pair("lcm", input, other)
    return Tensor(np.ascontiguousarray(np.lcm(a, b)))


for _n, _fn, _doc in (
    ("gcd", _gcd, "the element-wise greatest common divisor of integer tensors"),
    ("lcm", _lcm, "the element-wise least common multiple of integer tensors"),
):
    _fn.__name__ = _n
    register(
        _n,
        f"{_n}(input, other)",
        _doc,
        method=True,
        checks=none("integers: nothing to differentiate"),
        category="math",
        batch=None,
        inplace=None,
        pure=False,
        parser=None,
    )(_fn)


@register(
    "isin",
    "isin(elements, test_elements, *, assume_unique=False, invert=False)",
    "whether each of elements is in test_elements (bool)",
    checks=NO_GRAD,
    category="comparison",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def isin(elements, test_elements, *, assume_unique=False, invert=False):
    if not isinstance(elements, Tensor) and not isinstance(test_elements, Tensor):
        raise GradTypeError(
            "isin() received an invalid combination of arguments - got "
            f"({type_name(elements)}, {type_name(test_elements)})"
        )
    e = elements.data if isinstance(elements, Tensor) else np.asarray(elements)
    t = test_elements.data if isinstance(test_elements, Tensor) else np.asarray(test_elements)
    out = np.isin(e, t, invert=bool(invert))
    return Tensor(np.array(out, dtype=np.bool_).reshape(e.shape))


# ------------------------------------------------------------------ dtypes


def _dtype_arg(name, v, what, pos):
    if not isinstance(v, dtypes.DType):
        raise GradTypeError(
            f"{name}(): argument '{what}' (position {pos}) must be torch.dtype, not {type_name(v)}"
        )
    return v.np


@not_a_tensor_op(
    "promote_types",
    "promote_types(type1, type2)",
    "the dtype PyTorch's type promotion gives two dtypes",
    why="dtypes, not tensors",
)
def promote_types(type1, type2):
    a = _dtype_arg("promote_types", type1, "type1", 1)
    b = _dtype_arg("promote_types", type2, "type2", 2)
    return dtypes.DType(dtypes.promote(a, b))


@not_a_tensor_op(
    "can_cast",
    "can_cast(from_, to)",
    "whether PyTorch's casting rules allow from_ to to (no float to integer, nothing to bool)",
    why="dtypes, not tensors",
)
def can_cast(from_, to):
    a = _dtype_arg("can_cast", from_, "from_", 1)
    b = _dtype_arg("can_cast", to, "to", 2)
    if a.kind == "f" and b.kind in "iub":
        return False
    return not (a != np.bool_ and b == np.bool_)


@not_a_tensor_op(
    "result_type",
    "result_type(tensor1, tensor2)",
    "the dtype an arithmetic op on the two operands (tensors or numbers) gives",
    why="a dtype, not a tensor",
)
def result_type(tensor1, tensor2):
    given = (tensor1, tensor2)
    if not any(isinstance(v, Tensor) for v in given) or not all(
        isinstance(v, (Tensor, int, float)) for v in given
    ):
        raise GradTypeError(
            "result_type() received an invalid combination of arguments - got "
            f"({type_name(tensor1)}, {type_name(tensor2)})"
        )
    return dtypes.DType(dtypes.result_type(tensor1, tensor2))
