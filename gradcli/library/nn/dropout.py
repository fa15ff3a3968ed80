"""torch.nn's channel-wise dropout: F.dropout1d/2d/3d and the modules Dropout1d/2d/3d.
Each zeroes whole channels (input[i, j]) through ATen's feature_dropout, with the
checks, warnings and unbatched handling of PyTorch's Python functions.  And the other
random function of torch.nn.functional, F.gumbel_softmax (PyTorch's ops and draws)."""

from __future__ import annotations

from ...runtime import context
from ...runtime.errors import GradRuntimeError, GradValueError
from ...core.convert import tensor_arg
from ...ops.registry import FUNCTIONS
from ...ops.shape import squeeze, unsqueeze
from .module import Module


def _check_p(p):
    if p < 0.0 or p > 1.0:
        raise GradValueError(f"dropout probability has to be between 0 and 1, but got {p}")


def _deprecated(name, dims, spatial, dim):
    """PyTorch's warning when dropout2d/3d gets an input of another rank."""
    context.current.warn(
        f"{name}: Received a {dim}-D input to {name}, which is deprecated "
        "and will result in an error in a future release. To retain the behavior "
        f"and silence this warning, please use dropout instead. Note that {name} "
        f"exists to provide channel-wise dropout on inputs with {spatial} spatial dimensions, "
        f"a channel dimension, and an optional batch dimension (i.e. {dims[0]}D or {dims[1]}D "
        "inputs)."
    )


def _feature(x, p, training, batched, inplace=False):
    """feature_dropout of x (in place when asked), given one batch dimension first when it
    has none (then out of place: torch's in-place unsqueeze_ of the input is not gradcli's)."""
    if batched:
        return FUNCTIONS["feature_dropout"](x, p, training, inplace)
    return squeeze(FUNCTIONS["feature_dropout"](unsqueeze(x, 0), p, training), 0)


def dropout1d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    x = tensor_arg(input)
    dim = x.data.ndim
    if dim not in (2, 3):
        raise GradRuntimeError(
            f"dropout1d: Expected 2D or 3D input, but received a {dim}D input. "
            "Note that dropout1d exists to provide channel-wise dropout on inputs with 1 "
            "spatial dimension, a channel dimension, and an optional batch dimension "
            "(i.e. 2D or 3D inputs)."
        )
    return _feature(x, p, training, dim == 3, inplace)


def dropout2d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    x = tensor_arg(input)
    dim = x.data.ndim
    if dim not in (3, 4):
        _deprecated("dropout2d", (3, 4), 2, dim)
    if dim == 3:  # PyTorch keeps dropout1d's meaning for a 3-D input, and says so
        context.current.warn(
            "dropout2d: Received a 3D input to dropout2d and assuming that channel-wise "
            "1D dropout behavior is desired - input is interpreted as shape (N, C, L), where C "
            "is the channel dim. This behavior will change in a future release to interpret the "
            "input as one without a batch dimension, i.e. shape (C, H, W). To maintain the 1D "
            "channel-wise dropout behavior, please switch to using dropout1d instead."
        )
    return FUNCTIONS["feature_dropout"](x, p, training, inplace)


def dropout3d(input, p=0.5, training=True, inplace=False):
    _check_p(p)
    x = tensor_arg(input)
    dim = x.data.ndim
    if dim not in (4, 5):
        _deprecated("dropout3d", (4, 5), 3, dim)
    return _feature(x, p, training, dim == 5, inplace)


class _DropoutNd(Module):
    fn = staticmethod(dropout2d)
    replay_op = "feature_dropout"  # (its draws replayed in their place: ops/nn.py _Noise)
    replay_training = True  # (in eval() its forward runs no op)

    def replay_pure(self):
        """(Module.replay_pure) In place (`mul_` of the input), it is not replayed."""
        return not self.inplace and Module.replay_pure(self)

    def __init__(self, p=0.5, inplace=False):
        super().__init__()
        _check_p(p)
        self.p, self.inplace = p, inplace

    def forward(self, input):
        return self.fn(input, self.p, self.training, self.inplace)

    def extra_repr(self):
        return f"p={self.p}, inplace={self.inplace}"


class Dropout1d(_DropoutNd):
    fn = staticmethod(dropout1d)


class Dropout2d(_DropoutNd):
    fn = staticmethod(dropout2d)


class Dropout3d(_DropoutNd):
    fn = staticmethod(dropout3d)


def gumbel_softmax(logits, tau=1, hard=False, eps=1e-10, dim=-1):
    """Softmax of (logits + Gumbel noise) / tau, the noise -log of exponential draws; with
    `hard`, the one-hot of its argmax with the soft sample's gradient (straight through)."""
    f = FUNCTIONS
    logits = tensor_arg(logits)
    if eps != 1e-10:
        context.current.warn("`eps` parameter is deprecated and has no effect.")
    noise = f["neg"](f["log"](f["exponential_"](f["empty_like"](logits))))
    y_soft = f["softmax"](f["div"](f["add"](logits, noise), tau), dim)
    if not hard:
        return y_soft
    index = f["max"](y_soft, dim, keepdim=True)[1]
    y_hard = f["scatter_"](f["zeros_like"](logits), dim, index, 1.0)
    return f["add"](f["sub"](y_hard, f["detach"](y_soft)), y_soft)


FUNCTIONAL = {
    "dropout1d": dropout1d,
    "dropout2d": dropout2d,
    "dropout3d": dropout3d,
    "gumbel_softmax": gumbel_softmax,
}
LAYERS = {c.__name__: c for c in (Dropout1d, Dropout2d, Dropout3d)}
