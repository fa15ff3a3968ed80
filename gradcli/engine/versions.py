"""Version counters: how backward notices a saved tensor changed in place.

As in PyTorch, every tensor has a version (`x._version`), bumped by each in-place
operation on it; a view shares its base's counter (one storage, one counter).
The counter is a one-element list kept in the tensor's `vc` slot, made on first
need (`counter`), so creating a tensor costs nothing for it.  A graph node that
saves tensors for backward records (counter, version at save time) for each;
backward compares and raises PyTorch's error, word for word, on a mismatch.
"""

from __future__ import annotations

import re
import weakref

from ..runtime.errors import GradRuntimeError
from ..core.tensor import Tensor

_TYPE_NAMES = {
    "float64": "Double",
    "float32": "Float",
    "float16": "Half",
    "bfloat16": "BFloat16",
    "int64": "Long",
    "int32": "Int",
    "int16": "Short",
    "int8": "Char",
    "uint8": "Byte",
    "bool": "Bool",
    "complex64": "ComplexFloat",
    "complex128": "ComplexDouble",
}


def type_word(dtype) -> str:
    """PyTorch's scalar-type word for a NumPy dtype: float64 -> 'Double'."""
    return _TYPE_NAMES.get(dtype.name, dtype.name)


OWN = object()  # in a node's saved_src: "this saved value is the node's own output"


class _State:
    bumped = False  # any in-place op yet (in this process)? Until then every version is 0
    epoch = 0  # in-place ops so far (record, check)
    no_grad_views = False  # any view made under no_grad of a tensor requiring grad yet?
    mutation_allowed = None  # the open allow_mutation_on_saved_tensors context
    #: once torch.inference_mode has made a tensor (library/inference.py): an object with
    #: `saved(t)` (t is an inference tensor: no node may save it) and `updated(t)` (t is
    #: one outside inference mode: torch refuses to count its in-place update)
    inference = None


state = _State()

SAVED_INFERENCE = (
    "Inference tensors cannot be saved for backward. Please do not use Tensors created in "
    "inference mode in computation tracked by autograd. To work around this, you can make a "
    "clone to get a normal tensor and use it in autograd, or use `torch.no_grad()` instead "
    "of `torch.inference_mode()`."
)


def check_saved(srcs):
    """PyTorch's refusal of a node that saves an inference tensor (srcs: node.saved_src)."""
    inference = state.inference
    for s in srcs:
        if type(s) is Tensor and inference.saved(s):
            raise GradRuntimeError(SAVED_INFERENCE)


def counter(t) -> list:
    """t's version counter (made on first use; shared with the tensors it is a view of).
    The node that made t, if it saved t as its output, watches the same counter."""
    vc = getattr(t, "vc", None)
    if vc is None:
        vc = t.vc = [0]
        node = t.grad_fn
        if node is not None and _saves_output(node):
            node.out_vc = vc
    return vc


def _saves_output(node) -> bool:
    return any(s is OWN for s in getattr(node, "saved_src", None) or ())


def version(t) -> int:
    vc = getattr(t, "vc", None)
    return vc[0] if vc is not None else 0


INPLACE_INFERENCE = (
    "Inplace update to inference tensor outside InferenceMode is not allowed.You can make a "
    "clone to get a normal tensor before doing inplace update.See "
    "https://github.com/pytorch/rfcs/pull/17 for more details."
)


def bump(t):
    """One in-place operation on t (and so on every view of its storage).  An inference
    tensor outside inference mode has no version counter to bump: PyTorch's error, the
    update itself done (as torch's, whose check comes after the kernel)."""
    if state.inference is not None and state.inference.updated(t):
        raise GradRuntimeError(INPLACE_INFERENCE)
    state.bumped = True
    state.epoch += 1
    vc = getattr(t, "vc", None)
    (vc if vc is not None else counter(t))[0] += 1


def share(view, base):
    """`view` aliases `base`'s storage: one version counter for both."""
    view.vc = counter(base)


def record(node, srcs):
    """The versions of what `node` saved (called once some in-place op has happened:
    before that, every version is 0 and nothing is recorded).  Nothing is recorded
    either while all of them are 0 (no `vers`: every version 0).  The node notes the
    in-place ops so far (`epoch`): if there are none more when it is checked, no version
    it saved can have changed."""
    node.epoch = state.epoch
    vers = None
    for i, s in enumerate(srcs):
        if s is not None and s is not OWN:
            vc = s.vc
            if vc is not None and vc[0]:
                if vers is None:
                    vers = [0] * len(srcs)
                vers[i] = vc[0]
    if vers is not None:
        node.vers = vers


def adopt(node, t):
    """`node` saved its output, whose values tensor t now holds (an in-place op):
    t's counter is the one to watch, from t's current version."""
    if not _saves_output(node):
        return
    srcs = node.saved_src
    vc = node.out_vc = counter(t)
    vers = list(getattr(node, "vers", None) or [0] * len(srcs))
    node.vers = [vc[0] if s is OWN else v for s, v in zip(srcs, vers)]


def kept(node, i):
    """Whether PyTorch keeps saved value i of `node`: PyTorch does not save what no
    needed gradient uses (x * 2 keeps no x when only x needs a gradient)."""
    uses = node.saved_uses
    return uses is None or any(node.needs[j] for j in uses[i])


def check(node):
    """Raise PyTorch's error when a value `node` saved was modified in place since."""
    if getattr(node, "epoch", None) == state.epoch:
        return  # no in-place op since the node recorded its versions
    if type(node.saved) is not tuple and getattr(node.saved, "unchecked", False):
        return  # packed by saved-tensor hooks: PyTorch checks no versions then
    vers = False  # not looked up yet
    for i, s in enumerate(getattr(node, "saved_src", None) or ()):
        if s is None or not kept(node, i):
            continue
        vc = getattr(node, "out_vc", None) if s is OWN else s.vc
        if vc is None:
            continue
        if vers is False:
            vers = getattr(node, "vers", None)
        saved = vers[i] if vers else 0
        if vc[0] == saved:
            continue
        arr = node.saved[i]
        dt = getattr(arr, "dtype", None)
        what = (
            f"[torch.{type_word(dt) if dt is not None else 'Double'}Tensor "
            f"[{', '.join(str(n) for n in getattr(arr, 'shape', ()))}]]"
        )
        owner = node if s is OWN else s.grad_fn
        if owner is not None:
            what += f", which is output 0 of {re.sub(r'Backward[0-9]*$', '', owner.name)},"
        raise GradRuntimeError(
            "one of the variables needed for gradient computation has been modified by an "
            f"inplace operation: {what} is at version {vc[0]}; expected version {saved} "
            "instead. Hint: enable anomaly detection to find the operation that failed to "
            "compute its gradient, with torch.autograd.set_detect_anomaly(True, check_nan=False)."
        )


class _Views(list):
    __slots__ = ("limit",)

    def __init__(self):
        super().__init__()
        self.limit = 32


def _remember(base, view):
    """base keeps (weak) track of its views: an in-place op that changes base's graph
    gives each live view a new grad_fn (AsStridedBackward0), as PyTorch regenerates it."""
    views = getattr(base, "views", None)
    if views is None:
        views = base.views = _Views()
    elif len(views) >= views.limit:  # dead ones dropped when the list has doubled
        views[:] = [w for w in views if w() is not None]  # (amortised O(1) per view)
        views.limit = max(32, 2 * len(views))
    views.append(weakref.ref(view))


def live_views(base):
    return [v for v in (w() for w in getattr(base, "views", None) or ()) if v is not None]


def no_live_views(base) -> bool:
    """Whether no view of base is alive; when none is, the weak references to the views
    let go are dropped (a view an op made and let go, `t(w)` in a Linear's forward, leaves
    one), so that the next question costs nothing."""
    views = getattr(base, "views", None)
    if not views:
        return True
    for w in views:
        if w() is not None:
            return False
    del views[:]
    return True


#: [hook(view, x)] for a view of a tensor that requires grad (engine/nograd_views.py)
NO_GRAD_VIEW: list = []


def link_view(r, x, remake):
    """Record r as a view of x's storage (as `viewing` does), `remake(t)` making r from x."""
    via = getattr(x, "view_of", None)
    if via is None:
        base = x
        r.view_of = (x, remake)
    else:
        base, first = via
        r.view_of = (base, lambda t: remake(first(t)))
    r.vc = counter(x)
    _remember(base, r)


def viewing(fn):
    """Decorator for a view op `fn(x, ...)`: when NumPy gave a view of x's array, the
    result shares x's storage as in PyTorch: one version counter, and `view_of` =
    (the base tensor owning the storage, a function re-making this view from it), which
    an in-place op on the view uses to rebase the base's graph (CopySlices)."""

    def op(x, *args, **kw):
        r = fn(x, *args, **kw)
        if type(r) is Tensor and type(x) is Tensor and r is not x:
            b = r.data.base
            if b is not None and type(b).__name__ == "DummyArray":  # as_strided's wrapper
                b = b.base
            if b is not None and (b is x.data or b is x.data.base):
                via = getattr(x, "view_of", None)
                if via is None:
                    base = x
                    r.view_of = (x, lambda t: fn(t, *args, **kw))
                else:
                    base, first = via
                    r.view_of = (base, lambda t: fn(first(t), *args, **kw))
                r.vc = counter(x)
                _remember(base, r)
                if x.requires_grad and (not r.requires_grad or state.no_grad_views):
                    NO_GRAD_VIEW[0](r, x)  # engine/nograd_views.py
        return r

    op.__name__, op.__doc__, op.__wrapped__ = fn.__name__, fn.__doc__, fn
    return op
