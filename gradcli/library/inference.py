"""torch.inference_mode and Tensor.is_inference: no graph is recorded in the block (as
no_grad), and the tensors made in it are inference tensors.  A tensor's creation number
(`Tensor.seq`, counted up as tensors are made) tells when it was made, so the spans of
creation numbers that ran in inference mode tell which tensors are: no tensor carries a
flag.  As in PyTorch, a view made in inference mode of a tensor made outside it is a
normal tensor, and inference_mode(False) inside the block makes normal tensors; a
detach() of an inference tensor is one too.

Outside inference mode an inference tensor refuses what PyTorch refuses: being saved
for backward by a node (engine/versions.py `check_saved`, switched on once a span
opens), an in-place update (after it is done, as torch: engine/versions.py `bump`),
requires_grad_()."""

from __future__ import annotations

from bisect import bisect_right

from ..core.tensor import Tensor, next_seq
from ..engine import versions
from ..runtime.errors import GradRuntimeError
from ..ops.registry import register
from ..engine.declare import none
from .values import Decorated, GradModeContext, truth


class _Spans:
    """[start, end) creation numbers made in inference mode (end None: still open), and
    the stack of the modes entered."""

    def __init__(self):
        self.starts: list = []
        self.ends: list = []
        self.modes: list = []
        self.marked: set = set()  # creation numbers made outside a span (detach())

    def active(self):
        return bool(self.modes) and self.modes[-1]

    def push(self, mode):
        was = self.active()
        self.modes.append(mode)
        self._switch(was)

    def pop(self):
        was = self.active()
        self.modes.pop()
        self._switch(was)

    def _switch(self, was):
        now = self.active()
        if now and not was:
            self.starts.append(next_seq())
            self.ends.append(None)
            versions.state.inference = _Checks
        elif was and not now:
            self.ends[-1] = next_seq()

    def holds(self, seq):
        i = bisect_right(self.starts, seq) - 1
        return (i >= 0 and (self.ends[i] is None or seq < self.ends[i])) or seq in self.marked


SPANS = _Spans()


def reset():
    """A fresh run's state: no spans, no modes entered, the engine's checks off (a run
    that ended inside a `with torch.inference_mode():` left its mode pushed, and every
    later run in the process paid for the checks)."""
    SPANS.__init__()
    versions.state.inference = None


class _Checks:
    """What the engine asks (engine/versions.py `state.inference`)."""

    @staticmethod
    def saved(t):
        return is_inference(t)

    @staticmethod
    def updated(t):
        return not SPANS.active() and is_inference(t)


class InferenceMode(GradModeContext):
    """`with torch.inference_mode():`, `inference_mode(False)`, and as a decorator."""

    __slots__ = ("inference",)

    def __init__(self, mode, label):
        super().__init__(not mode, label)
        self.inference = mode

    def __call__(self, fn=None):
        if fn is None:
            return self
        ctx = InferenceMode(self.inference, self.label)

        def decorated(*args, **kwargs):
            with ctx:
                return fn(*args, **kwargs)

        return Decorated(decorated, fn)

    def __enter__(self):
        super().__enter__()
        SPANS.push(self.inference)

    def __exit__(self, *exc):
        SPANS.pop()
        super().__exit__(*exc)

    def run(self, fn, arg):
        with self:
            return fn(arg)


def is_inference_mode_enabled():
    return SPANS.active()


def inference_mode(mode=True):
    """torch.inference_mode(mode=True), also as a decorator (with or without brackets)."""
    label = "torch.autograd.grad_mode.inference_mode object"
    if callable(mode) and not isinstance(mode, bool):  # @torch.inference_mode, no brackets
        return InferenceMode(True, label)(mode)
    return InferenceMode(truth(mode), label)


@register(
    "is_inference",
    "x.is_inference()",
    "whether x was made in torch.inference_mode (an inference tensor)",
    method=True,
    function=False,
    category="tensor",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("not a differentiable op"),
    parser=None,
)
def is_inference(x):
    if not isinstance(x, Tensor):
        return False
    via = getattr(x, "view_of", None)
    if via is not None:
        return is_inference(via[0])
    return SPANS.holds(x.seq)


def check_requires_grad(x):
    if SPANS.starts and not SPANS.active() and is_inference(x):
        raise GradRuntimeError(
            "Setting requires_grad=True on inference tensor outside InferenceMode is not allowed."
        )


def detached(x, r):
    """r, a detach() of x: an inference tensor when x is one."""
    if SPANS.starts and is_inference(x):
        SPANS.marked.add(r.seq)
    return r
