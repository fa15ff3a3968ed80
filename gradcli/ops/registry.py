"""The op table: every built-in of the language is registered here, explicitly.

`register` records a built-in with its signature, one-line doc, whether it is
also a tensor method, and `checks`: sample arguments with which the gradient
tests (first and second order finite differences) exercise it.  The REPL's
completer and `:help` read `BUILTINS` too, so a new op is documented,
completed and gradient-checked by adding it in one place.

The op families (and the library of built-ins above them) import this module and
register into it; it fills the engine's tables of functions by name
(`engine.function.FUNCTIONS`, `TENSOR_F`), so the engine calls ops without
importing them.
"""

from __future__ import annotations

import warnings

from ..engine.function import FUNCTIONS, TENSOR_F  # noqa: F401  (the engine's tables, filled here)

# NumPy's RuntimeWarnings (degrees of freedom <= 0, empty slices) describe values that
# PyTorch returns as nan/inf without complaint; gradcli does the same.
warnings.filterwarnings("ignore", category=RuntimeWarning, module=r"numpy(\.|$)")


class Arg:
    """A sample tensor argument for gradient checks: float64, values in (lo, hi)."""

    __slots__ = ("shape", "lo", "hi", "grad")

    def __init__(self, shape=(), lo=-2.0, hi=2.0, grad=True):
        self.shape, self.lo, self.hi, self.grad = tuple(shape), lo, hi, grad

    def __repr__(self):
        return f"Arg({self.shape}, {self.lo}, {self.hi})"


class Builtin:
    """One built-in: `method` (also x.name(...)), `function` (name(...)), and
    `checks`: [(args, kwargs), ...] of sample arguments for the gradient tests."""

    __slots__ = ("name", "fn", "sig", "doc", "method", "function", "checks", "category")

    def __init__(self, name, fn, sig, doc, method=False, function=True, checks=(), category=""):
        self.name, self.fn, self.sig, self.doc = name, fn, sig, doc
        self.method, self.function, self.checks, self.category = (
            method,
            function,
            list(checks),
            category,
        )

    def __repr__(self):
        return f"<built-in {self.name}: {self.sig}>"


BUILTINS: dict[str, Builtin] = {}  # language name -> entry (functions, and methods too)
METHOD_ONLY: dict[str, Builtin] = {}  # x.name(...) that is not also a function name(...)
BATCH_RULES: dict = {}  # op name -> its vmap batching rule (ops/batch_rules.py, ops/batching.py)


def register(name, sig, doc, *, method=False, function=True, checks=(), category="", aliases=()):
    """Decorator: make `fn` the built-in `name` (and each alias)."""

    def deco(fn):
        entry = Builtin(name, fn, sig, doc, method, function, list(checks), category)
        table = BUILTINS if function else METHOD_ONLY
        for n in (name, *aliases):
            if n in table:
                raise RuntimeError(f"built-in {n!r} registered twice")
            table[n] = entry
        FUNCTIONS.setdefault(name, fn)
        return fn

    return deco


def internal(name):
    """Decorator: an op gradcli uses (operators, VJPs) that is not a named built-in."""

    def deco(fn):
        FUNCTIONS[name] = fn
        return fn

    return deco


def batch_rule(*names):
    """Decorator: the vmap batching rule of the ops `names`, rule(level, fn, args, kwargs)."""

    def deco(rule):
        for n in names:
            BATCH_RULES[n] = rule
        return rule

    return deco


def tensor_f(name):
    """Decorator: a differentiable helper for VJPs in create_graph mode."""

    def deco(fn):
        TENSOR_F[name] = fn
        return fn

    return deco
