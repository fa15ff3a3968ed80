"""Views made under no_grad of a tensor that requires grad, as PyTorch treats them
(its CreationMeta::NO_GRAD_MODE; checked against torch 2.13, tests/golden/fidelity.json).

Such a view `w` (`with torch.no_grad(): w = y[:2]`) requires grad (its base does)
but is a leaf without a grad_fn, and no gradient reaches it or its base: ops on it in
grad mode record nodes, whose gradient stops at w.  gradcli gives it a `NoGradView`
node, which the engine treats as a node with no inputs and the language shows as no
grad_fn (`visible_grad_fn`; printing: `requires_grad=True`).  A view made from w in
grad mode (`w[:1]`) inherits the mark (`_MARKED`).  Then, as PyTorch:

* an in-place op in grad mode on w, or on a view made from it, is refused
  (`check_inplace`: "A view was created in no_grad mode and is being modified inplace
  with grad mode enabled..." / "Output 0 of Slice is a view of a view which was
  created in no_grad mode and is being ...");
* once the storage's version moved (any in-place op on the base or a view of it,
  also under no_grad), w's grad_fn is "Invalid": printing shows
  `grad_fn=<Invalid>`, `w.grad_fn` and `w.is_leaf` raise "... its base or another
  view of its base has been modified inplace with grad mode enabled ...", and so does
  an op in grad mode that takes it (`w * 2`, `w.sum()`, `w[0]`: the ops' `a.grad_fn or
  a` takes the node's truth value, `__bool__`).
"""

from __future__ import annotations

import weakref

from .declare import none
from ..runtime import context
from ..runtime.errors import GradRuntimeError
from ..core.tensor import next_seq
from .function import Function
from . import versions

_TAIL = (
    " Given that this use case is ambiguous and error-prone, it is forbidden. You can "
    "clarify your code by moving both the view and the inplace either both inside the "
    "no_grad block (if you don't want the inplace to be tracked) or both outside (if you "
    "want the inplace to be tracked)."
)
_MODIFIED = "is being modified inplace with grad mode enabled."
_REBASED = "its base or another view of its base has been modified inplace with grad mode enabled."

#: id(view) -> (weak reference, the op's name) for views made in grad mode from a no_grad view
_MARKED: dict = {}


def _message(op, what):
    who = (
        "A view was created in no_grad mode and "
        if op is None
        else f"Output 0 of {op} is a view of a view which was created in no_grad mode and "
    )
    return who + what + _TAIL


class NoGradView(Function):
    """The node of a no_grad view: no inputs; "Invalid" once its storage changed."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("vc", "version")
    forward = none("made by the view itself (no inputs), never applied")
    saved_names = none("PyTorch's names of its saved values are not recorded")
    differentiable_twice = True

    @property
    def name(self):
        return "Invalid" if self.vc[0] != self.version else None

    def valid(self):
        return self.vc[0] == self.version

    def __bool__(self):
        """The ops' `a.grad_fn or a` (recording a node for input a): PyTorch's error in
        grad mode once the view is invalid (no other code takes a node's truth value)."""
        if self.vc[0] != self.version and context.current.grad_enabled:
            raise GradRuntimeError(_message(None, _REBASED))
        return True

    def backward(self, g, F):
        return ()  # the gradient stops here

    def jvp(self, ts, F):
        return None  # no inputs: never a forward-mode step


class InvalidView(Function):
    """The grad_fn of a view made in grad mode from a no_grad view, once its storage
    changed: PyTorch cannot make its grad_fn again."""

    formula = none("no formula rule yet: shown as a named function with its local Jacobian")

    __slots__ = ("op",)
    name = "Invalid"
    forward = none("made in place of a view's node once its storage changed, never applied")
    saved_names = none("PyTorch's names of its saved values are not recorded")

    def __bool__(self):
        if context.current.grad_enabled:
            raise GradRuntimeError(_message(self.op, _REBASED))
        return True

    def backward(self, g, F):
        raise GradRuntimeError(_message(self.op, _REBASED))

    jvp = NoGradView.jvp


def _node(cls, dtype):
    node = cls.__new__(cls)
    node.seq = next_seq()
    node.saved, node.parents, node.needs, node.watch, node.out_dtype = (), (), (), None, dtype
    return node


def made(r, x):
    """versions.viewing's hook: `r`, a view of `x`'s storage, was just made; x requires
    grad and r does not (grad mode is off) -> r is a no_grad view.  Or x is a no_grad
    view (or made from one) and r was made in grad mode -> r is marked."""
    if not r.requires_grad:
        if context.current.grad_enabled:
            return
        versions.state.no_grad_views = True
        node = _node(NoGradView, r.data.dtype)
        node.vc, node.version = r.vc, r.vc[0]
        r.grad_fn, r.requires_grad = node, True
        return
    if type(x.grad_fn) is NoGradView or id(x) in _MARKED and _MARKED[id(x)][0]() is x:
        fn = r.grad_fn
        op = (
            fn.name[: -len("Backward0")]
            if fn is not None and fn.name.endswith("Backward0")
            else getattr(fn, "name", "")
        )
        _MARKED[id(r)] = (weakref.ref(r, lambda _, k=id(r): _MARKED.pop(k, None)), op)


def _marked_op(t):
    m = _MARKED.get(id(t))
    return m[1] if m is not None and m[0]() is t else None


def visible_grad_fn(t):
    """`t.grad_fn` as a program sees it: None for a valid no_grad view; PyTorch's
    error for an invalid one."""
    fn = t.grad_fn
    if type(fn) is NoGradView:
        if fn.valid():
            return None
        raise GradRuntimeError(_message(None, _REBASED))
    if type(fn) is InvalidView:
        raise GradRuntimeError(_message(fn.op, _REBASED))
    return fn


def check_inplace(x):
    """PyTorch's refusal of an in-place op in grad mode on a no_grad view or a view made
    from one (inplace.check_leaf calls it for views)."""
    if type(x.grad_fn) is NoGradView:
        raise GradRuntimeError(_message(None, _MODIFIED))
    op = _marked_op(x)
    if op is not None:
        raise GradRuntimeError(_message(op, _MODIFIED))


def regenerated(views):
    """Of the views whose grad_fn an in-place op makes again (inplace._regenerate*): the
    ones PyTorch makes again.  No_grad views keep their node (now Invalid); views made
    from them become InvalidView."""
    keep = []
    for v in views:
        if type(v.grad_fn) is NoGradView:
            continue
        op = _marked_op(v)
        if op is not None:
            node = _node(InvalidView, v.data.dtype)
            node.op = op
            v.grad_fn = node
            continue
        keep.append(v)
    return keep


versions.NO_GRAD_VIEW.append(made)
