"""The op table: every built-in of the language is registered here, explicitly.

`register` records a built-in with its declarations (engine/declare.py): its
signature, one-line doc, whether it is also a tensor method, `checks` (sample
arguments with which the gradient tests, first and second order finite differences,
exercise it), `batch` (its vmap batching rule, or the name of a kind of rule that
ops/batch_rules.py defines, or None: sample by sample), `inplace` (the name of its
in-place method, or None), `pure` (whether a replayed loop may run it) and, for the
few that are, `operators` (the language's operators that are the op: `+` is add).  The
REPL's completer and `:help` read `BUILTINS`, vmap reads `BATCH_RULES`, the in-place
methods and the loop replay read the entries: every table about built-ins is derived
from these declarations, so a new op is documented, completed, batched and
gradient-checked by adding it in one place.

The op families (and the library of built-ins above them) import this module and
register into it; it fills the engine's tables of functions by name
(`engine.function.FUNCTIONS`, `TENSOR_F`), so the engine calls ops without
importing them.
"""

from __future__ import annotations

import warnings
from typing import NamedTuple

from ..engine.declare import UNDECLARED, Without, facet, none
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
    `checks`: [(args, kwargs), ...] of sample arguments for the gradient tests; `batch`,
    `inplace` and `pure` as `register` says."""

    __slots__ = (
        "name",
        "fn",
        "sig",
        "doc",
        "method",
        "function",
        "checks",
        "category",
        "aliases",
        "batch",
        "inplace",
        "pure",
        "parser",
        "operators",
    )

    def __init__(self, name, fn, sig, doc, method=False, function=True, checks=(), category=""):
        self.name, self.fn, self.sig, self.doc = name, fn, sig, doc
        self.method, self.function, self.category = method, function, category
        # the samples, or the op's none(why) (False, as an empty list), or UNDECLARED
        self.checks = (
            checks if checks is UNDECLARED or isinstance(checks, Without) else list(checks)
        )
        self.aliases = self.operators = ()
        self.batch = self.inplace = self.pure = self.parser = UNDECLARED

    def __repr__(self):
        return f"<built-in {self.name}: {self.sig}>"


class Inplace(NamedTuple):
    """An op's in-place method `x.name(...)` (`register(inplace=...)`; library/inplace.py
    makes it from the op, unless it writes one by hand): `reads_argument`, its
    forward-mode tangent reads an argument that is x itself, after the update, as
    PyTorch's formula does (`x.mul_(x)`); `tensors_only`, its other operand must be a
    tensor (a number gets PyTorch's error naming the method)."""

    name: str
    reads_argument: bool = False
    tensors_only: bool = False


class Operator(NamedTuple):
    """A language operator that is an op (`register(operators=...)`): `a symbol b` on a
    tensor calls the op's function (FUNCTIONS by the op's name); `a symbol= b` on a tensor
    target runs the op's in-place method (its `inplace`) unless `in_place` is False, and
    then rebinds `a` to `a symbol b`."""

    symbol: str
    in_place: bool = True


class Parser(NamedTuple):
    """How PyTorch's Python argument parser words a call of the op with too few
    arguments (`register(parser=...)`, language/arity.py): `params`, its parameters
    after `input` when it has one signature (`mul() missing 1 required positional
    arguments: "other"`); `overloaded`, when it has several (`received an invalid
    combination of arguments - got (Tensor), but expected one of:`); `method_params`, the
    method form's parameters where only the function is overloaded; `expected`, the one
    signature printed in full after "but expected", (function form, method form);
    `tensor_operands`, an overloaded op whose PyTorch parser still names a bad operand
    (neither a tensor nor a number) by its parameter, `div(): argument 'other' (position
    1) must be Tensor, not str` (its Number overloads are hidden), where other overloaded
    ops say `received an invalid combination of arguments`."""

    params: tuple | None = None
    overloaded: bool = False
    method_params: tuple | None = None
    expected: tuple | None = None
    tensor_operands: bool = False


BUILTINS: dict[str, Builtin] = {}  # language name -> entry (functions, and methods too)
METHOD_ONLY: dict[str, Builtin] = {}  # x.name(...) that is not also a function name(...)
BATCH_KINDS: dict = {}  # kind of batching rule -> the rule (ops/batch_rules.py, library/vmap.py)
BATCH_RULES: dict = {}  # op name -> its vmap batching rule: derived from the declarations
#: the language's operator symbol -> (Operator, the built-in that declares it): derived
#: from the declarations (register(operators=...))
OPERATORS: dict[str, tuple[Operator, Builtin]] = {}
_BATCH_WAITING: dict = {}  # kind -> names of ops declared before the kind's rule was defined

facet(
    "batch",
    "builtin",
    "the vmap batching rule, or the name of a kind of rule (ops/batch_rules.py), "
    "or None: the per-sample loop",
)
facet(
    "checks",
    "builtin",
    "sample arguments [(args, kwargs), ...] the gradient tests differentiate it at "
    "(first and second order, forward mode, vmap), or none(why)",
)
facet("inplace", "builtin", "the name of its in-place method (as exp_; or an Inplace), or None")
facet(
    "parser",
    "builtin",
    "how PyTorch's argument parser words a call with too few arguments: a Parser, or "
    "{name or alias: Parser} where its aliases differ; None: Python's words",
)
facet(
    "pure",
    "builtin",
    "True: a replayed loop may run it, as f(x) and x.f(numbers) (its value depends on its "
    "arguments alone and it changes nothing); 'method': only as x.f(numbers); 'quiet': a "
    "loop that calls it is not replayed, but it runs no code of the program and changes "
    "nothing (the fast tier calls it directly); False: a loop that calls it is not replayed",
)


def _batched(names, batch):
    """Enter the ops `names` in BATCH_RULES by their declared `batch`."""
    if batch is None or batch is UNDECLARED:
        return
    if isinstance(batch, str):
        rule = BATCH_KINDS.get(batch)
        if rule is None:  # the kind's rule comes later (batch_kind fills these in)
            _BATCH_WAITING.setdefault(batch, []).extend(names)
            return
    else:
        rule = batch
    for n in names:
        BATCH_RULES[n] = rule


def register(
    name,
    sig,
    doc,
    *,
    method=False,
    function=True,
    checks=UNDECLARED,
    category="",
    aliases=(),
    batch=UNDECLARED,
    inplace=UNDECLARED,
    pure=UNDECLARED,
    parser=UNDECLARED,
    operators=(),
):
    """Decorator: make `fn` the built-in `name` (and each alias), with its declarations;
    `operators`: the language's operators that are this op (a symbol, or an Operator)."""

    def deco(fn):
        entry = Builtin(name, fn, sig, doc, method, function, checks, category)
        entry.aliases = tuple(aliases)
        entry.batch, entry.pure, entry.parser = batch, pure, parser
        entry.inplace = Inplace(inplace) if isinstance(inplace, str) else inplace
        table = BUILTINS if function else METHOD_ONLY
        for n in (name, *aliases):
            if n in table:
                raise RuntimeError(f"built-in {n!r} registered twice")
            table[n] = entry
        FUNCTIONS.setdefault(name, fn)
        _batched((name, *aliases), batch)
        entry.operators = tuple(Operator(o) if isinstance(o, str) else o for o in operators)
        for o in entry.operators:
            if o.symbol in OPERATORS:
                raise RuntimeError(f"operator {o.symbol!r} declared twice")
            OPERATORS[o.symbol] = (o, entry)
        return fn

    return deco


OPERATOR_NODES: dict = {}  # the language's operator -> (node class, tensor_operand, swaps)


def operator_function(symbol):
    """The function `a symbol b` calls when an operand is a tensor: the op that declares
    the operator (register(operators=...)), by its name in FUNCTIONS (an op's own
    function where it has one beside its built-in, as `+`'s add without alpha)."""
    return FUNCTIONS[OPERATORS[symbol][1].name]


def not_a_tensor_op(name, sig, doc, why="not a tensor op", *, batch=None, **kw):
    """register() for a built-in that is not a tensor op: it declares no gradient samples
    (`why`), no in-place form, no argument parser of its own and is not replayed; vmap
    runs it sample by sample unless `batch` says otherwise."""
    return register(
        name, sig, doc, batch=batch, inplace=None, pure=False, checks=none(why), parser=None, **kw
    )


def operator_node(*symbols, tensor_operand, swaps):
    """Class decorator: the node the language's arithmetic operators `symbols` make
    directly for a floating tensor and a number (or, when `tensor_operand`, a tensor of
    the same dtype and shape, or 0-d): the node the operator's op would make, with the
    tensor's dtype (language/runtime.py's binary_op and fastops apply it: the same node,
    two Python calls fewer).  `swaps`: `number op tensor` is the same node with the
    operands swapped (+ and *)."""

    def deco(cls):
        for s in symbols:
            if s in OPERATOR_NODES:
                raise RuntimeError(f"operator {s!r} declared twice")
            OPERATOR_NODES[s] = (cls, tensor_operand, swaps)
        return cls

    return deco


def internal(name, batch=None):
    """Decorator: an op gradcli uses (operators, VJPs) that is not a named built-in, and
    its batching rule or kind (None: the per-sample loop)."""

    def deco(fn):
        FUNCTIONS[name] = fn
        _batched((name,), batch)
        return fn

    return deco


def batch_kind(kind):
    """Decorator: the vmap batching rule rule(level, fn, args, kwargs) of the kind `kind`,
    for every op that declares `batch=kind`."""

    def deco(rule):
        if kind in BATCH_KINDS:
            raise RuntimeError(f"batching kind {kind!r} defined twice")
        BATCH_KINDS[kind] = rule
        for n in _BATCH_WAITING.pop(kind, ()):
            BATCH_RULES[n] = rule
        return rule

    return deco


def tensor_f(name):
    """Decorator: a differentiable helper for VJPs in create_graph mode."""

    def deco(fn):
        TENSOR_F[name] = fn
        return fn

    return deco
