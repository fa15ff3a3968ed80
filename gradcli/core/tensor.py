"""The Tensor: a NumPy array plus the autograd fields PyTorch users know.

Its Python operators (`+`, `*`, `@` ...) and its repr are declared here and call the
functions of `DUNDERS`, a table the layers that define them fill: the op table
(gradcli/ops/__init__.py) with the ops by name, so code inside gradcli and the VJPs in
create_graph mode can write `a * b` on tensors, and gradcli/core/printing.py with
"repr".  What
the *language* may reach on a tensor is decided elsewhere (the attribute allowlist
in gradcli/language/runtime.py and the methods in the op table), never by Python
attribute lookup on this class.
"""

from __future__ import annotations

import itertools

import numpy as np

from ..runtime import context
from ..runtime.errors import GradRuntimeError, GradValueError
from . import parameter

_counter = itertools.count()
#: the next creation number, shared by tensors and graph nodes (engine/function.py: a node's
#: number orders the backward pass as PyTorch's sequence_nr does)
next_seq = _counter.__next__

#: the functions behind Tensor's operators, by op name ("add", "neg", ...), and "repr":
#: filled by the modules that define them (the op table, the printer)
DUNDERS: dict = {}
#: the op names the operators below call: the op table puts each op in DUNDERS
OPERATOR_OPS: list = ["neg", "invert"]


def _binary(name):
    """A binary operator and its reflected form, calling the op `name` of DUNDERS."""
    OPERATOR_OPS.append(name)

    def forward(self, other):
        return DUNDERS[name](self, other)

    def reflected(self, other):
        return DUNDERS[name](other, self)

    forward.__name__, reflected.__name__ = f"op_{name}", f"rop_{name}"
    return forward, reflected


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
    # (weak); None until needed (set, not left unset: a read of an unset slot raises and
    # catches an AttributeError, some thousands of instructions, on every in-place step)

    def __init__(self, data: np.ndarray, requires_grad: bool = False, grad_fn=None):
        self.data = data
        self.requires_grad = requires_grad
        self.grad = None
        self.grad_fn = grad_fn
        self.retains_grad = False
        self.seq = next(_counter)  # creation order, for the `backward` command's display
        self.vc = None  # no in-place op yet (engine/versions.py makes it)
        self.view_of = None
        self.views = None

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

    def __float__(self):
        """Tensor.__float__: a one-element tensor as the number Python's float(), the math
        module's functions and `%` formatting take from it, in PyTorch's words."""
        d = self.data
        if d.size != 1:  # (not .item()'s words)
            raise GradValueError("only one element tensors can be converted to Python scalars")
        if self.requires_grad:
            context.warn(
                "Converting a tensor with requires_grad=True to a scalar may lead to "
                "unexpected behavior.\nConsider using tensor.detach() first."
            )
        return float(d.reshape(()))

    def __bool__(self):
        if self.data.size != 1:
            raise GradRuntimeError(
                "Boolean value of Tensor with "
                + ("no values" if not self.data.size else "more than one value")
                + " is ambiguous"
            )
        return bool(self.data)

    def item(self):
        if self.data.size != 1:
            raise GradRuntimeError(
                f"a Tensor with {self.data.size} elements cannot be converted to Scalar"
            )
        return self.data.reshape(()).item()

    # --- operators (DUNDERS) -----------------------------------------------
    __add__, __radd__ = _binary("add")
    __sub__, __rsub__ = _binary("sub")
    __mul__, __rmul__ = _binary("mul")
    __truediv__, __rtruediv__ = _binary("div")
    __pow__, __rpow__ = _binary("pow")
    __matmul__, __rmatmul__ = _binary("matmul")
    __and__, __rand__ = _binary("bitwise_and")
    __or__, __ror__ = _binary("bitwise_or")
    __lshift__, __rlshift__ = _binary("bitwise_left_shift")
    __rshift__, __rrshift__ = _binary("bitwise_right_shift")
    __gt__ = _binary("gt")[0]
    __lt__ = _binary("lt")[0]
    __ge__ = _binary("ge")[0]
    __le__ = _binary("le")[0]
    __eq__ = _binary("eq")[0]
    __ne__ = _binary("ne")[0]

    def __neg__(self):
        return DUNDERS["neg"](self)

    def __invert__(self):
        return DUNDERS["invert"](self)

    def __repr__(self):
        show = DUNDERS.get("repr")
        return object.__repr__(self) if show is None else show(self)

    __hash__ = object.__hash__  # (__eq__ above would otherwise unset it)

    def __deepcopy__(self, memo):
        """PyTorch's rule (copy.deepcopy): only leaves can be deep-copied; the copy
        keeps requires_grad and a copy of .grad."""
        if self.grad_fn is not None:
            raise GradRuntimeError(
                "Only Tensors created explicitly by the user (graph leaves) support the "
                "deepcopy protocol at the moment.  If you were attempting to deepcopy a "
                "module, this may be because of a torch.nn.utils.weight_norm usage, see "
                "https://github.com/pytorch/pytorch/pull/103001"
            )
        new = Tensor(self.data.copy(), requires_grad=self.requires_grad)
        if self.grad is not None:
            new.grad = Tensor(self.grad.data.copy())
        if parameter.is_parameter(self):  # (a Parameter's copy is a Parameter)
            parameter.mark(new)
        memo[id(self)] = new
        return new


def type_name(v) -> str:
    if isinstance(v, Tensor):
        return "Tensor"
    if v is None:
        return "NoneType"  # (Python's and PyTorch's messages: "not NoneType")
    named = getattr(type(v), "type_name_of", None)  # a name that depends on the value
    if named is not None:
        return named(v)
    return {bool: "bool", int: "int", float: "float", str: "str", list: "list", tuple: "tuple"}.get(
        type(v), type(v).__name__
    )
