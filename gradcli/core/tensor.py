"""The Tensor: a NumPy array plus the autograd fields PyTorch users know.

Operators (`+`, `*`, `@`, ...) dispatch to the op registry so that code inside
gradcli (and the VJPs when a graph is being created) can write `a * b` on
tensors.  What the *language* may reach on a tensor is decided elsewhere
(`gradcli.builtins.ATTRIBUTES` and the methods in the registry), never by
Python attribute lookup on this class.
"""
from __future__ import annotations

import itertools

import numpy as np

from ..base.errors import GradRuntimeError

_counter = itertools.count()


class GradMode:
    """Global grad mode: `no_grad` / `enable_grad` flip `enabled`."""
    enabled = True


class Tensor:
    __slots__ = ("data", "requires_grad", "grad", "grad_fn", "retains_grad", "seq", "__weakref__")

    def __init__(self, data: np.ndarray, requires_grad: bool = False, grad_fn=None):
        self.data = data
        self.requires_grad = requires_grad
        self.grad = None
        self.grad_fn = grad_fn
        self.retains_grad = False
        self.seq = next(_counter)   # creation order, for the `backward` command's display

    # --- facts -------------------------------------------------------------
    @property
    def is_leaf(self) -> bool:
        return self.grad_fn is None

    @property
    def shape(self):
        return self.data.shape

    @property
    def dtype(self):
        return self.data.dtype

    @property
    def ndim(self):
        return self.data.ndim

    def __len__(self):
        if not self.data.ndim:
            raise GradRuntimeError("len() of a 0-d tensor", type_name="TypeError")
        return self.data.shape[0]

    def __repr__(self):
        from .printing import show
        return show(self)

    def __bool__(self):
        if self.data.size != 1:
            raise GradRuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.data)

    def item(self):
        if self.data.size != 1:
            raise GradRuntimeError(
                f"a Tensor with {self.data.size} elements cannot be converted to Scalar")
        return self.data.reshape(()).item()

    __hash__ = object.__hash__

    # --- operators (used by VJPs in create_graph mode and by gradcli itself) --
    def __add__(self, o): return _ops.add(self, o)
    def __radd__(self, o): return _ops.add(o, self)
    def __sub__(self, o): return _ops.sub(self, o)
    def __rsub__(self, o): return _ops.sub(o, self)
    def __mul__(self, o): return _ops.mul(self, o)
    def __rmul__(self, o): return _ops.mul(o, self)
    def __truediv__(self, o): return _ops.div(self, o)
    def __rtruediv__(self, o): return _ops.div(o, self)
    def __pow__(self, o): return _ops.pow(self, o)
    def __rpow__(self, o): return _ops.pow(o, self)
    def __matmul__(self, o): return _ops.matmul(self, o)
    def __rmatmul__(self, o): return _ops.matmul(o, self)
    def __neg__(self): return _ops.neg(self)
    def __gt__(self, o): return _ops.gt(self, o)
    def __lt__(self, o): return _ops.lt(self, o)
    def __ge__(self, o): return _ops.ge(self, o)
    def __le__(self, o): return _ops.le(self, o)
    def __eq__(self, o): return _ops.eq(self, o)
    def __ne__(self, o): return _ops.ne(self, o)


class _Ops:
    """Late-bound access to the op functions (the registry imports this module)."""

    def __getattr__(self, name):
        from ..ops.registry import FUNCTIONS
        fn = FUNCTIONS[name]
        setattr(self, name, fn)
        return fn


_ops = _Ops()
