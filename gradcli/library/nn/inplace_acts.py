"""torch.nn.functional's activations with inplace=True (`F.relu(x, inplace=True)`,
`F.leaky_relu(x, 0.2, True)` ...) and the nn modules made with inplace=True: the op's
values written into its input as PyTorch's in-place op writes them (library/inplace.py:
the version counter bumped, a leaf that requires grad refused, the tensor's grad_fn the
in-place form's node: LeakyReluBackward1, EluBackward1 (elu_ and selu_), CeluBackward1,
ThresholdBackward1 and RreluWithNoiseBackward1 where PyTorch's in-place form has a node
of its own, the op's node otherwise).  The activations are the built-ins of the ops that
take an `inplace` argument (each picks its in-place node when it is true); F.relu's is
F's own (torch.relu has none)."""

from __future__ import annotations

from ...ops.registry import BUILTINS, FUNCTIONS
from ..inplace import inplace as write_in_place


def _arguments(fn):
    code = fn.__code__
    return code.co_varnames[: code.co_argcount]


def functional(fn, name, doc, at=None):
    """F.<name>: `fn`, or with inplace=True (argument `at`, fn's own `inplace` when it
    has one) its result written into the input."""
    own = "inplace" in _arguments(fn)
    if own:
        at = _arguments(fn).index("inplace")

    def wrapper(*args, **kw):
        flag = args[at] if len(args) > at else kw.get("inplace", False)
        if not own:
            kw.pop("inplace", None)
            args = args[:at]
        if not flag:
            return fn(*args, **kw)
        if args:
            x, rest = args[0], args[1:]
        elif "input" in kw:
            x, rest = kw.pop("input"), ()
        else:
            return fn(*args, **kw)  # (the op's own words for the missing input)
        return write_in_place(x, lambda t: fn(t, *rest, **kw))

    wrapper.__name__ = name
    wrapper.__doc__ = f"{doc}; with inplace=True, written into input"
    wrapper.__wrapped__ = fn  # (its signature, for help and the reference)
    # the op it calls without inplace (replay_checks.namespaces; a call passing inplace is
    # not one a replayed loop makes: loop_shapes._pure_call)
    wrapper.op_function = name
    return wrapper


def _activations():
    out = {}
    for name, entry in BUILTINS.items():
        fn = entry.fn
        if entry.category == "math" and hasattr(fn, "__code__") and "inplace" in _arguments(fn):
            out[name] = functional(fn, name, entry.doc)
    out["relu"] = functional(_relu, "relu", BUILTINS["relu"].doc)
    return out


def _relu(input, inplace=False):
    """F.relu's signature (torch.relu has no `inplace`): the op, `inplace` taken by the
    wrapper (`functional`)."""
    return FUNCTIONS["relu"](input)


#: F's activations that take inplace=
FUNCTIONAL = _activations()


def call(name, input, *args, inplace=False):
    """What an nn module made with `inplace` calls: F.<name>(input, *args, inplace=...)."""
    return FUNCTIONAL[name](input, *args, inplace=inplace)
