"""Linear algebra: matmul and its PyTorch variants (mm mv dot), outer, t, transpose, trace."""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..engine.saved import saved_shape
from ..engine.saved import given, saved_shown
from ..core import dtypes
from ..engine.function import Function
from ..engine.saved import saved_operands
from ..engine.forward import bilinear, linear
from ..engine.versions import viewing
from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..runtime.errors import GradRuntimeError, ShapeError
from .tensor_args import tensors_only, with_method_positions
from .registry import Arg, internal, Parser, register, tensor_f
from ..runtime.limits import check_alloc
from ..numerics.mkl import mm_grads, torch_mm
from ..numerics.mkl_vectors import torch_dot, torch_mv
from ..numerics.linalg.bmm import matmul_nd, matmul_nd_grads, should_fold, torch_bmm
from .shape import SqueezeMatmul, squeeze, unsqueeze
from .elementwise import mul
from .shape import reshape
from .dims import norm_dims, one_dim
from .shape import permute


def _size(shape):
    return "x".join(str(n) for n in shape)


def _dtype_mismatch(da, db):
    """PyTorch's error for a product of two dtypes, in the words of the kernel that
    matmul's dims lead to: dot, addmv (mv), mm (a 1-d or n-d first operand folded
    into a matrix) or bmm."""
    na, nb = da.ndim, db.ndim
    A, B = dtypes.scalar_type_name(da.dtype), dtypes.scalar_type_name(db.dtype)
    if na == 1 and nb == 1:
        return f"dot : expected both vectors to have same dtype, but found {A} and {B}"
    if nb == 1:
        return f"addmv input tensors must have the same dtype, but got {B}, {A}, and {B}"
    if nb == 2:
        return (
            "expected m1 and m2 to have the same dtype, but got: "
            f"{_tn(da.dtype)} != {_tn(db.dtype)}"
        )
    return f"expected scalar type {A} but found {B}"


def _tn(dt):
    """c10's C++ type names, as PyTorch's mm message spells dtypes."""
    return {
        "float64": "double",
        "float32": "float",
        "int64": "long int",
        "int32": "int",
        "int16": "short int",
        "int8": "signed char",
        "uint8": "unsigned char",
        "float16": "c10::Half",
        "bool": "bool",
    }.get(dt.name, dt.name)


class Mm(Function):
    __slots__ = ()
    name = "MmBackward0"
    saved_names = ("self", "mat2")
    saved_order = (1, 0)
    saved_extra = saved_operands(("self", "mat2"))
    saved_uses = ((1,), (0,))  # each operand for the other's gradient

    def formula(self, S, a, b):
        return S.matmul(S.saved_const(a, self, 0, None), S.saved_const(b, self, 1, None))

    def forward(self, a, b):
        self.save(a, b)
        return torch_mm(a, b)

    def replay_kernel(self, a, b):
        """On two 2-D float32 or float64 arrays of one dtype the forward is torch_mm
        alone, saving both operands (a matrix product first in a statement, `X @ W1`, no
        longer ends a replayed statement's program of kernels before it starts)."""
        if (
            type(self).forward is not Mm.forward
            or type(a) is not np.ndarray
            or type(b) is not np.ndarray
            or a.ndim != 2
            or b.ndim != 2
            or a.dtype is not b.dtype
            or a.dtype.char not in "fd"
        ):
            return None
        return (torch_mm, 2, True, None)

    def backward(self, g, F, a, b):
        n = self.needs
        return mm_grads(g, a, b, n[0], n[1], F)

    jvp = bilinear


class Mv(Function):
    __slots__ = ()
    name = "MvBackward0"
    saved_names = ("self", "vec")
    saved_uses = ((1,), (0,))  # each operand for the other's gradient

    def formula(self, S, a, v):
        return S.matmul(S.saved_const(a, self, 0, None), S.saved_const(v, self, 1, None))

    def forward(self, a, v):
        self.save(a, v)
        return torch_mv(a, v)

    def backward(self, g, F, a, v):
        n = self.needs
        return (F.outer(g, v) if n[0] else None, F.mv(F.transpose(a), g) if n[1] else None)

    jvp = bilinear


class Dot(Function):
    __slots__ = ()
    name = "DotBackward0"
    saved_names = ("self", "tensor")
    saved_uses = ((1,), (0,))  # each operand for the other's gradient

    def formula(self, S, a, b):
        return S.matmul(S.saved_const(a, self, 0, None), S.saved_const(b, self, 1, None))

    def forward(self, a, b):
        self.save(a, b)
        return torch_dot(a, b)

    def backward(self, g, F, a, b):
        n = self.needs
        return (g * b if n[0] else None, g * a if n[1] else None)

    jvp = bilinear


class Vdot(Dot):
    """vdot of real vectors: dot's value (ATen calls dot), its own node."""

    __slots__ = ()
    name = "VdotBackward0"
    saved_names = ("self", "other")
    saved_order = (1, 0)  # PyTorch saves other before self


class Matmul(Function):
    """Batched / broadcast matmul (3-d and up, or a vector against a batch), folded
    into one mm/mv or as a bmm as PyTorch's _matmul_impl chooses (numerics/linalg/bmm.py)."""

    __slots__ = ("sa", "sb", "fold")
    name = "UnsafeViewBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")
    saved_uses = ((1,), (0,))  # each operand for the other's gradient

    def formula(self, S, a, b, *_):
        return S.matmul(S.saved_const(a, self, 0, self.sa), S.saved_const(b, self, 1, self.sb))

    def forward(self, a, b, fold=False):
        self.sa, self.sb, self.fold = a.shape, b.shape, fold
        self.save(a, b)
        return matmul_nd(a, b, fold)

    def backward(self, g, F, a, b):
        if not F.tensor_mode:
            return matmul_nd_grads(g, a, b, self.fold, self.needs[0], self.needs[1], F.sum_to)
        sa, sb = self.sa, self.sb
        if self.fold and len(sa) >= 3 and len(sb) <= 2:
            return self._folded(g, F, a, b)
        a2 = F.reshape(a, (1,) + sa) if len(sa) == 1 else a
        b2 = F.reshape(b, sb + (1,)) if len(sb) == 1 else b
        g2 = g
        if len(sa) == 1:
            g2 = F.expand_dims(g2, -2)
        if len(sb) == 1:
            g2 = F.expand_dims(g2, -1)
        ga = gb = None
        if self.needs[0]:
            ga = F.sum_to(
                g2 @ F.swapaxes(b2, -1, -2), a2.shape if not F.tensor_mode else a2.data.shape
            )
            ga = F.reshape(ga, sa)
        if self.needs[1]:
            gb = F.sum_to(
                F.swapaxes(a2, -1, -2) @ g2, b2.shape if not F.tensor_mode else b2.data.shape
            )
            gb = F.reshape(gb, sb)
        return ga, gb

    def _folded(self, g, F, a, b):
        """Under create_graph, the gradients of a product PyTorch folds (a of 3 or more dims
        times a matrix or vector: a.reshape(-1, k).mm(b), viewed back) as its backward
        makes them: an mm (or mv) for b, the product with b viewed back for a."""
        sa, sb = self.sa, self.sb
        rows = 1
        for n in sa[:-1]:
            rows *= n
        af = F.reshape(a, (rows, sa[-1]))
        gf = F.reshape(g, (rows,) + sb[1:])
        ga = gb = None
        if len(sb) == 2:  # mm's gradients, each in its operand's layout (mm_grads)
            ga, gb = mm_grads(gf, af, b, self.needs[0], self.needs[1], F)
            if ga is not None:
                ga = F.reshape(ga, sa)
        else:
            if self.needs[0]:
                ga = F.reshape(F.outer(gf, b), sa)
            if self.needs[1]:
                gb = F.transpose(af) @ gf
        return ga, gb

    jvp = bilinear


_F64, _F32 = np.dtype(np.float64), np.dtype(np.float32)


def _matmul_check(a, b):
    da, db = a.data, b.data
    if da.ndim == 0 or db.ndim == 0:
        raise GradRuntimeError(
            f"both arguments to matmul need to be at least 1D, but they are {da.ndim}D and {db.ndim}D"
        )
    ka = da.shape[-1]
    kb = db.shape[0] if db.ndim == 1 else db.shape[-2]
    if ka != kb and da.ndim == 1 and db.ndim == 1 and da.dtype != db.dtype:
        raise GradRuntimeError(_dtype_mismatch(da, db))  # (dot checks the dtypes first)
    if ka != kb and da.ndim >= 3 and db.ndim <= 2:  # PyTorch folds a into a matrix first
        rows = 1
        for n in da.shape[:-1]:
            rows *= n
        raise ShapeError(
            f"size mismatch, got input ({rows}), mat ({rows}x{ka}), vec ({kb})"
            if db.ndim == 1
            else f"mat1 and mat2 shapes cannot be multiplied ({rows}x{ka} and {_size(db.shape)})"
        )
    if ka != kb:
        if da.ndim == 1 and db.ndim == 1:
            raise ShapeError(
                "inconsistent tensor size, expected tensor [%d] and src [%d] to have the same "
                "number of elements, but got %d and %d elements respectively"
                % (ka, db.shape[0], ka, db.shape[0])
            )
        if da.ndim == 2 and db.ndim == 1:
            raise ShapeError(
                f"size mismatch, got input ({da.shape[0]}), mat ({_size(da.shape)}), "
                f"vec ({db.shape[0]})"
            )
        sa = da.shape if da.ndim > 1 else (1,) + da.shape
        sb = db.shape if db.ndim > 1 else db.shape + (1,)
        raise ShapeError(
            f"mat1 and mat2 shapes cannot be multiplied ({_size(sa[-2:])} and {_size(sb[-2:])})"
            if da.ndim <= 2 and db.ndim <= 2
            else f"Expected size for first two dimensions of batch2 tensor to be: "
            f"[{_size(sb[:-2])}, {ka}] but got: [{_size(sb[:-2])}, {kb}]."
        )
    dt = dtypes.result_type(a, b)
    if da.dtype != db.dtype:
        raise GradRuntimeError(_dtype_mismatch(da, db))
    if da.dtype == np.bool_:
        kernel = (
            "dot"
            if da.ndim == 1 and db.ndim == 1
            else "addmv_impl_cpu"
            if db.ndim == 1
            else "addmm_impl_cpu_"
            if db.ndim == 2
            else "bmm"
        )
        raise GradRuntimeError(f"\"{kernel}\" not implemented for 'Bool'")
    _check_matmul_size(da.shape, db.shape)
    return dt


def _check_matmul_size(sa, sb):
    """Refuse a product whose result is over the memory cap before computing it."""
    rows = sa[-2:-1] if len(sa) > 1 else ()
    cols = sb[-1:] if len(sb) > 1 else ()
    if len(sa) <= 2 and len(sb) <= 2:  # no batch dims (nothing to broadcast)
        check_alloc(rows + cols)
        return
    try:
        batch = np.broadcast_shapes(sa[:-2], sb[:-2])
    except ValueError:
        return  # NumPy reports the mismatch
    check_alloc(tuple(batch) + rows + cols)


@register(
    "matmul",
    "matmul(input, other)",
    "matrix product (also @), PyTorch's rules by dims",
    method=True,
    checks=[
        ((Arg((2, 3)), Arg((3, 4))), {}),
        ((Arg((3,)), Arg((3,))), {}),
        ((Arg((2, 3)), Arg((3,))), {}),
        ((Arg((3,)), Arg((3, 2))), {}),
        ((Arg((2, 2, 3)), Arg((3, 2))), {}),
    ],
    category="linalg",
    batch="matmul",
    inplace=None,
    operators=("@",),
    pure=True,
    parser=Parser(("other",)),
)
@internal("matmul")
def matmul(input, other):
    if type(input) is Tensor and type(other) is Tensor:  # two float matrices that fit:
        da, db = input.data, other.data  # nothing for _matmul_check to refuse
        if da.ndim == 2 and db.ndim == 2 and da.shape[1] == db.shape[0]:
            dt = da.dtype
            if dt is db.dtype and (dt is _F64 or dt is _F32):
                check_alloc((da.shape[0], db.shape[1]))
                return Mm.apply(input, other)
    a, b = tensor_arg(input), tensor_arg(other)
    _matmul_check(a, b)
    na, nb = a.data.ndim, b.data.ndim
    if na == 2 and nb == 2:
        return Mm.apply(a, b)
    if na == 2 and nb == 1:
        return Mv.apply(a, b)
    if na == 1 and nb == 1:
        return Dot.apply(a, b)
    if na == 1 and nb == 2:
        return SqueezeMatmul.apply(Mm.apply(unsqueeze(a, 0), b), axes=(0,))
    if na == 3 and nb == 3 and a.data.shape[0] != b.data.shape[0]:
        # PyTorch drops a batch of one that requires grad, to fold the product
        if a.data.shape[0] == 1 and a.requires_grad:
            return matmul(squeeze(a, 0), b)
        if b.data.shape[0] == 1 and b.requires_grad:
            return matmul(a, squeeze(b, 0))
    fold = should_fold(a.data, b.data, a.requires_grad, b.requires_grad)
    cls = Matmul
    if fold and na == 2 and nb > 2:  # folded as b.mT @ a.T: the result's .mT.contiguous()
        cls = MatmulT if 1 in (a.data.shape[0], b.data.shape[-1]) else MatmulClone
    return cls.apply(a, b, fold=fold)


class MatmulT(Matmul):
    __slots__ = ()
    name = "TransposeBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")


class MatmulClone(Matmul):
    __slots__ = ()
    name = "CloneBackward0"
    saved_names = none("PyTorch's names of its saved values are not recorded")


class Bmm(Function):
    __slots__ = ()
    name = "BmmBackward0"
    saved_names = ("self", "mat2")
    saved_order = (1, 0)  # PyTorch saves mat2 before self
    saved_uses = ((1,), (0,))  # each operand for the other's gradient

    def formula(self, S, a, b):
        return S.matmul(S.saved_const(a, self, 0, None), S.saved_const(b, self, 1, None))

    def forward(self, a, b):
        self.save(a, b)
        return torch_bmm(a, b)

    def backward(self, g, F, a, b):
        n = self.needs
        if not F.tensor_mode:
            return (
                torch_bmm(g, np.swapaxes(b, 1, 2)) if n[0] else None,
                torch_bmm(np.swapaxes(a, 1, 2), g) if n[1] else None,
            )
        return (
            g @ F.swapaxes(b, 1, 2) if n[0] else None,
            F.swapaxes(a, 1, 2) @ g if n[1] else None,
        )

    jvp = bilinear


@register(
    "bmm",
    "bmm(input, mat2)",
    "batched product of 3-d tensors",
    method=True,
    checks=[((Arg((2, 2, 3)), Arg((2, 3, 2))), {})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=True,
    parser=None,
)
@tensor_f("bmm")
def bmm(a, b):
    a, b = tensors_only("bmm", a, b, names=("input", "mat2"), broadcast=False)
    da, db = a.data, b.data
    if da.ndim != 3 or db.ndim != 3:
        raise GradRuntimeError(f"batch{1 if da.ndim != 3 else 2} must be a 3D tensor")
    if db.shape[:2] != (da.shape[0], da.shape[2]):
        raise GradRuntimeError(
            "Expected size for first two dimensions of batch2 tensor to be: "
            f"[{da.shape[0]}, {da.shape[2]}] but got: [{db.shape[0]}, {db.shape[1]}]."
        )
    _matmul_check(a, b)
    return Bmm.apply(a, b)


@register(
    "mm",
    "mm(input, mat2)",
    "product of two matrices",
    method=True,
    checks=[((Arg((2, 3)), Arg((3, 2))), {})],
    category="linalg",
    batch="mm",
    inplace=None,
    pure=True,
    parser=Parser(overloaded=True, method_params=("mat2",)),
)
@tensor_f("mm")
def mm(a, b):
    a, b = tensors_only("mm", a, b, names=("input", "mat2"), broadcast=False)
    if a.data.ndim != 2 or b.data.ndim != 2:
        raise GradRuntimeError(f"{'self' if a.data.ndim != 2 else 'mat2'} must be a matrix")
    _matmul_check(a, b)
    return Mm.apply(a, b)


@register(
    "mv",
    "mv(input, vec)",
    "matrix times vector",
    method=True,
    checks=[((Arg((2, 3)), Arg((3,))), {})],
    category="linalg",
    batch="mv",
    inplace=None,
    pure=True,
    parser=Parser(("vec",)),
)
@tensor_f("mv")
def mv(a, v):
    a, v = tensors_only("mv", a, v, names=("input", "vec"), broadcast=False)
    if a.data.ndim != 2 or v.data.ndim != 1:
        # ATen sizes its result by the matrix's dim 0 first (one dim: the result's, 1)
        one_dim(0, a.data.ndim)
        raise GradRuntimeError(
            f"vector + matrix @ vector expected, got 1, {a.data.ndim}, {v.data.ndim}"
        )
    _matmul_check(a, v)
    return Mv.apply(a, v)


@register(
    "dot",
    "dot(input, other)",
    "inner product of two vectors",
    method=True,
    checks=[((Arg((3,)), Arg((3,))), {})],
    category="linalg",
    batch="dot",
    inplace=None,
    pure=True,
    parser=Parser(("tensor",)),
)
def dot(a, b):
    a, b = tensors_only("dot", a, b, names=("input", "tensor"), broadcast=False)
    if a.data.ndim != 1 or b.data.ndim != 1:
        raise GradRuntimeError(
            f"1D tensors expected, but got {a.data.ndim}D and {b.data.ndim}D tensors"
        )
    _matmul_check(a, b)
    return Dot.apply(a, b)


@register(
    "vdot",
    "vdot(input, other)",
    "inner product of two vectors (the first conjugated: for real ones, dot)",
    method=True,
    checks=[((Arg((3,)), Arg((3,))), {})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=Parser(("other",)),
)
def vdot(a, b):
    a, b = tensors_only("vdot", a, b, broadcast=False)
    if a.data.ndim != 1 or b.data.ndim != 1:
        raise GradRuntimeError(
            f"1D tensors expected, but got {a.data.ndim}D and {b.data.ndim}D tensors"
        )
    _matmul_check(a, b)
    return Vdot.apply(a, b)


@register(
    "outer",
    "outer(input, vec2)",
    "outer product of two vectors",
    method=True,
    checks=[((Arg((3,)), Arg((2,))), {})],
    category="linalg",
    aliases=("ger",),
    batch="outer",
    inplace=None,
    pure=True,
    parser=Parser(("vec2",)),
)
@tensor_f("outer")
def outer(a, b):
    a, b = tensors_only("outer", a, b, names=("input", "vec2"), broadcast=False)
    for t, role in ((a, "self"), (b, "vec2")):
        if t.data.ndim != 1:
            raise GradRuntimeError(f"outer: Expected 1-D argument {role}, but got {t.data.ndim}-D")
    # PyTorch computes outer as a column times a row: MulBackward0
    return mul(reshape(a, (a.data.shape[0], 1)), b)


with_method_positions(mm, "mm", ("input", "mat2"))
with_method_positions(vdot, "vdot")
with_method_positions(mv, "mv", ("input", "vec"))
with_method_positions(bmm, "bmm", ("input", "mat2"))
with_method_positions(dot, "dot", ("input", "tensor"))
with_method_positions(outer, "outer", ("input", "vec2"))


class Transpose(Function):
    __slots__ = ("d0", "d1", "dim0", "dim1")
    name = "TransposeBackward0"
    saved_names = ()
    saved_extra = {"dim0": saved_shown("dim0"), "dim1": saved_shown("dim1")}

    def forward(self, x, d0, d1, dim0=None, dim1=None):
        self.d0, self.d1 = d0, d1
        self.dim0 = d0 if dim0 is None else dim0  # the dims as given
        self.dim1 = d1 if dim1 is None else dim1
        return x.swapaxes(d0, d1) if x.ndim else x.view()  # a scalar's view of itself

    def formula(self, S, x):
        x = S.obj(x)
        return np.swapaxes(x, self.d0, self.d1) if np.ndim(x) else x

    def backward(self, g, F):
        if not isinstance(g, Tensor) and not np.ndim(g):
            return (g,)  # a scalar's (under create_graph: a transpose of it, as in torch)
        return (F.swapaxes(g, self.d0, self.d1),)

    jvp = linear


class T(Transpose):
    __slots__ = ()
    name = "TBackward0"
    saved_names = ()  # PyTorch saves nothing
    saved_extra: dict = {}  # (not Transpose's dims)

    def backward(self, g, F):
        return (F.transpose(g),)  # t() again (a gradient made under create_graph: TBackward0)


@register(
    "transpose",
    "transpose(input, dim0, dim1)",
    "swap two dims",
    method=True,
    checks=[((Arg((2, 3)), 0, 1), {}), ((Arg((2, 3, 2)), -1, 0), {})],
    category="linalg",
    aliases=("swapaxes", "swapdims"),
    batch="transpose",
    inplace=None,
    pure=True,
    parser={
        "transpose": Parser(("dim0", "dim1")),
        "swapaxes": Parser(("axis0", "axis1")),
        "swapdims": Parser(("dim0", "dim1")),
    },
)
@tensor_f("swapaxes")
@viewing
def transpose(x, dim0, dim1):
    x = tensor_arg(x)
    nd = x.data.ndim
    (d0,) = norm_dims(dim0, nd) or (0,)
    (d1,) = norm_dims(dim1, nd) or (0,)
    return Transpose.apply(x, d0=d0, d1=d1, dim0=given(dim0, d0), dim1=given(dim1, d1))


@register(
    "t",
    "t(input)",
    "transpose of a matrix (a vector stays as it is)",
    method=True,
    checks=[((Arg((2, 3)),), {}), ((Arg((3,)),), {})],
    category="linalg",
    batch="t",
    inplace=None,
    pure=True,
    parser=None,
)
@viewing
def t(x):
    x = tensor_arg(x)
    if x.data.ndim > 2:
        raise GradRuntimeError(
            f"t() expects a tensor with <= 2 dimensions, but self is {x.data.ndim}D"
        )
    if x.data.ndim < 2:
        return TSmall.apply(x)
    return T.apply(x, d0=0, d1=1)


class TSmall(Function):
    """t() of a vector or 0-d tensor: the same values, still recorded as TBackward0."""

    __slots__ = ()
    name = "TBackward0"
    saved_names = ()  # PyTorch saves nothing

    def forward(self, x):
        return x

    def formula(self, S, x):
        return x

    def backward(self, g, F):
        return (g,)

    jvp = linear


@tensor_f("transpose")
def _transpose_t(x):
    return t(x) if x.data.ndim <= 2 else _permute_rev(x)


def _permute_rev(x):
    return permute(x, tuple(reversed(range(x.data.ndim))))


class Trace(Function):
    __slots__ = ("shape",)
    name = "TraceBackward0"
    saved_names = ()
    saved_extra = {"self_sym_sizes": saved_shape()}

    def formula(self, S, x):
        return S.obj(np.trace(S.obj(x)))

    def forward(self, x):
        if x.ndim != 2:
            raise GradRuntimeError(
                f"trace: expected a matrix, but got tensor with dim {x.ndim}",
                hint="trace is the sum of a matrix's diagonal; to see a backward pass: "
                "backward_trace(out), or backward out, trace=true",
            )
        self.shape = x.shape
        return np.asarray(np.trace(x))

    def backward(self, g, F):
        eye = np.eye(*self.shape, dtype=bool)
        return (F.where(eye, F.broadcast_to(g, self.shape), 0.0),)

    jvp = linear


@register(
    "trace",
    "trace(input)",
    "sum of the diagonal of a matrix",
    method=True,
    checks=[((Arg((3, 3)),), {}), ((Arg((2, 3)),), {})],
    category="linalg",
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def trace(x):
    return Trace.apply(tensor_arg(x))
