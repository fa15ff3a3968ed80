"""The `def` bodies a custom autograd.Function's plan may stand for
(library/function_plans.py): checked on the parse tree once, when a method is compiled
(language/definitions.py), and entered in function_plans.BODIES with a reader of the
globals the body reads.

A body qualifies when, after a docstring, each statement is
  * `name = E`, `a, b = E1, E2` (names, or `ctx.attr` targets), `ctx.attr = E`;
  * `(x,) = ctx.saved_tensors` / `a, b = ctx.saved_tensors`;
  * `ctx.save_for_backward(names)`;
and a last `return E` or `return E1, None, ...`, where `ctx` is the first parameter
and each E is made of names, numbers, None/True/False, the arithmetic, comparison and
`&`/`|` operators, `ctx.attr` reads, and calls of ops that declare themselves pure or
quiet (`x.clamp(lo, hi)`, `torch.where(c, a, b)`, `torch.ones_like(x)`), their keyword
arguments such expressions or strings.  Such a body runs no code of the program but
its ops', whatever its globals and arguments hold, once the plan has checked that its
arguments are tensors and numbers and its globals gradcli's namespaces or numbers."""

from __future__ import annotations

from ..library.function_plans import BODIES
from ..ops.registry import BUILTINS, METHOD_ONLY
from .loop_shapes import _COMPARE, _def_statements, _dotted, _keywords, _string, names_in
from .parser import Tree

_OPS = frozenset({"+", "-", "*", "/", "//", "%", "@", "**"})
_BITS = frozenset({"&", "|"})
_CTX_OWN = frozenset({"saved_tensors", "needs_input_grad"})
UNBOUND = "\0unbound"  # what the reader gives for a global no variable holds


def _op(attr, method):
    """Whether `attr` names an op that declares itself pure or quiet (as a method too
    when `method`), not an in-place one."""
    if attr.endswith("_"):
        return False
    entry = (METHOD_ONLY.get(attr) if method else None) or BUILTINS.get(attr)
    if entry is None:
        return False
    return entry.pure is True or entry.pure == "quiet" or (method and entry.pure == "method")


def _expr(n, ctx) -> bool:
    if not isinstance(n, Tree):
        return False
    d, ch = n.data, n.children
    if d == "name":
        return ch[0].value != ctx
    if d in ("number", "none", "true", "false"):
        return True
    if d in ("binary", "bitwise"):
        ops = _OPS if d == "binary" else _BITS
        return all(t.value in ops for t in ch[1::2]) and all(_expr(c, ctx) for c in ch[0::2])
    if d == "power":
        return _expr(ch[0], ctx) and _expr(ch[2], ctx)
    if d == "unary":
        return ch[0].value in ("-", "+") and _expr(ch[1], ctx)
    if d == "compare":
        return (
            len(ch) == 3
            and ch[1].children[0].value in _COMPARE
            and _expr(ch[0], ctx)
            and _expr(ch[2], ctx)
        )
    if d == "getattr":  # ctx.lo
        return (
            _dotted(n) is not None
            and _dotted(n)[0] == ctx
            and len(_dotted(n)[1]) == 1
            and (ch[1].value not in _CTX_OWN)
        )
    if d == "call":
        return _call(n, ctx)
    return False


def _call(n, ctx) -> bool:
    fn, got = n.children[0], _keywords(n)
    if got is None or not isinstance(fn, Tree):
        return False
    args, options = got
    if not all(_expr(a, ctx) for a in args) or not all(
        _string(v) or _expr(v, ctx) for v in options
    ):
        return False
    if fn.data == "getattr":
        recv, attr = fn.children[0], fn.children[1].value
        dotted = _dotted(recv)
        if dotted is not None:  # torch.where(...), x.clamp(...): a namespace or a tensor
            return dotted[0] != ctx and _op(attr, not dotted[1])
        return _expr(recv, ctx) and _op(attr, True)  # (a+b).sum()
    if fn.data == "name":
        return _op(fn.children[0].value, False)
    return False


def _target(t, ctx, local) -> bool:
    if not isinstance(t, Tree):
        return False
    if t.data == "name":
        local.add(t.children[0].value)
        return True
    if t.data == "getattr":
        dotted = _dotted(t)
        return (
            dotted is not None
            and dotted[0] == ctx
            and len(dotted[1]) == 1
            and (dotted[1][0] not in _CTX_OWN)
        )
    return False


def _statement(n, ctx, local) -> bool:
    d, ch = n.data, n.children
    if d == "assign":
        if len(ch) != 2:
            return False
        target, value = ch
        if isinstance(target, Tree) and target.data == "tuple_items":
            if not all(_target(t, ctx, local) for t in target.children):
                return False
            if _dotted(value) == (ctx, ("saved_tensors",)):
                return all(t.data == "name" for t in target.children)
            return (
                isinstance(value, Tree)
                and value.data == "tuple_items"
                and len(value.children) == len(target.children)
                and all(_expr(v, ctx) for v in value.children)
            )
        return _expr(value, ctx) and _target(target, ctx, local)
    if d == "expr_stmt" and isinstance(ch[0], Tree) and ch[0].data == "call":
        call = ch[0]
        fn, args = call.children
        return (
            _dotted(fn) == (ctx, ("save_for_backward",))
            and args is not None
            and all(isinstance(a, Tree) and a.data in ("name", "none") for a in args.children)
        )
    return False


def ctx_body(params, suite):
    """The globals a body of the kind above reads (a sorted tuple), else None."""
    if len(params) < 2:
        return None
    ctx = params[0]
    nodes, ret = _def_statements(suite)
    if ret is None or not ret.children or ret.children[0] is None:
        return None
    local = set(params)
    if not all(_statement(n, ctx, local) for n in nodes):
        return None
    value = ret.children[0]
    items = value.children if value.data == "tuple_items" else [value]
    if not all(_expr(v, ctx) for v in items):
        return None
    reads = set().union(*(names_in(x) for x in nodes + [ret]))
    return tuple(sorted(reads - local))


def enter(code, params, suite):
    """Enter a method's body in function_plans.BODIES when it is of the kind above."""
    names = ctx_body(params, suite)
    if names is None:
        return

    unbound = (UNBOUND,) * len(names)

    def reader(fn):
        return tuple(map(fn.globals.vars.get, names, unbound))

    BODIES[code] = reader
