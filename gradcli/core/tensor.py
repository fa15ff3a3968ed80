"""The Tensor: a NumPy array plus the autograd fields PyTorch users know.

This class has no operators and no repr of its own: the op table installs
`+`, `*`, `@` ... (gradcli/ops/__init__.py, as early tinygrad's registry put the
operators on Tensor), so code inside gradcli and the VJPs in create_graph mode can
write `a * b` on tensors, and gradcli/core/printing.py installs `__repr__`.  What
the *language* may reach on a tensor is decided elsewhere (the attribute allowlist
in gradcli/language/runtime.py and the methods in the op table), never by Python
attribute lookup on this class.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..runtime.errors import GradRuntimeError

_counter = itertools.count()
#: the next creation number, shared by tensors and graph nodes (engine/function.py: a node's
#: number orders the backward pass as PyTorch's sequence_nr does)
next_seq = _counter.__next__


class Tensor:
    __slots__ = (
        "data",
        "requires_grad",
        "grad",
        "grad_fn",
        "retains_grad",
        "seq",
        "vc",
        "view_of",
        "views",
        "__weakref__",
    )
    # vc: version counter (engine/versions.py; None until the first in-place op), view_of:
    # (base, view function) for a tensor sharing its base's storage, views: a base's views
    # (weak); unset until needed

    def __init__(self, data: np.ndarray, requires_grad: bool = False, grad_fn=None):
        self.data = data
        self.requires_grad = requires_grad
        self.grad = None
        self.grad_fn = grad_fn
        self.retains_grad = False
        self.seq = next(_counter)  # creation order, for the `backward` command's display
        self.vc = None  # no in-place op yet (engine/versions.py makes it)

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

    def __bool__(self):
        if self.data.size != 1:
            raise GradRuntimeError("Boolean value of Tensor with more than one value is ambiguous")
        return bool(self.data)

    def item(self):
        if self.data.size != 1:
            raise GradRuntimeError(
                f"a Tensor with {self.data.size} elements cannot be converted to Scalar"
            )
        return self.data.reshape(()).item()

    __hash__ = object.__hash__


def type_name(v) -> str:
    if isinstance(v, Tensor):
        return "Tensor"
    if v is None:
        return "None"
    named = getattr(type(v), "type_name_of", None)  # a name that depends on the value
    if named is not None:
        return named(v)
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list", tuple: "tuple"}.get(
        type(v), type(v).__name__
    )
