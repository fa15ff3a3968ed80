"""Comprehensions in the fast tier (fast_tier.py): a list, set or dict comprehension
or a generator expression of one `for` over a name target and at most one `if`,
whose other names are the program's variables or built-ins, compiled to a Python
function of its items (its first iterable, evaluated by the closure compiler in the
enclosing scope, as comprehensions.py evaluates it).

It runs as comprehensions._flat runs it: the variable bound for each item, one step
of --max-steps and the memory looked at every SAMPLE items, the condition's truth as
runtime.truth gives it, the list's, set's or dict's length within the items limit
(the value of a dict's entry computed before its key, as `out[k] = v` computes
them), a generator expression's items one at a time as its consumer asks. Errors are
placed by fast_support.fail at the instruction that raised them."""

from __future__ import annotations

import ast
import copy

from .parser import Tree

from ..runtime.errors import GradTypeError
from ..runtime.limits import check_items
from ..core.convert import type_name
from ..library.stdlib import LazyIterator
from .fast_ast import Unsupported, _call, _h, _is, _name, _pos, at
from .fast_tier import Emitter, _module
from .iteration import iterate
from .scopes import FunctionInfo

#: what each kind of comprehension adds its element to, and its length limit's words
_KINDS = {"listcomp": "the list", "setcomp": "the set", "dictcomp": "the dict", "genexp": None}


def _attr(v, name):
    return ast.Attribute(value=v, attr=name, ctx=ast.Load())


def hashable(k):
    """k, when it can be a key of a dict or an item of a set; else Python's TypeError."""
    try:
        hash(k)
    except TypeError:
        raise GradTypeError(f"unhashable type: '{type_name(k)}'") from None
    return k


def _hashable_check(em, e, where):
    """hashable(e), its error placed at the comprehension (where)."""
    return at(_call(em.const(hashable, "hashable"), e), *where)


def comprehension_unit(comp, node):
    """run(s, first_iter) -> the comprehension's value, or None when `node` (a
    listcomp, setcomp, dictcomp or genexp) is not one this tier compiles."""
    kind = node.data
    if kind not in _KINDS:
        return None
    if kind == "dictcomp":
        key, value, clauses = node.children
        elts = (key, value)
    else:
        elt, clauses = node.children
        elts = (elt,)
    steps = clauses.children
    if not steps or steps[0].data != "comp_for" or len(steps) > 2:
        return None
    if len(steps) == 2 and steps[1].data != "comp_if":
        return None
    target = steps[0].children[0]
    if not (isinstance(target, Tree) and target.data == "name"):
        return None
    info = FunctionInfo("<comprehension>", "comprehension", comp.fn)
    info._target(target)
    em = Emitter(comp, info)
    try:
        return _build(em, kind, elts, steps, target.children[0].value, _pos(node))
    except (Unsupported, RecursionError, SyntaxError, ValueError, TypeError):
        return None


def _build(em, kind, elts, steps, var, where):
    line, col = _pos(steps[0].children[1])
    init, each = em._counting(line, col)

    def make(ints):
        """The loop's body (`ints`: the variable known to be an int), and what
        comes before the loop."""
        em.ints = ints
        body = copy.deepcopy(each)
        if len(steps) == 2:
            cond = steps[1].children[0]
            cl, cc = _pos(cond)
            test = at(ast.UnaryOp(op=ast.Not(), operand=em.truth(em.expr(cond))), cl, cc)
            body.append(at(ast.If(test=test, body=[ast.Continue()], orelse=[]), cl, cc))
        out = _name("@out")
        if kind == "genexp":
            e = em.expr(elts[0])
            body.append(ast.Expr(value=ast.Yield(value=e)))
            start = []
        else:
            limit = _attr(_attr(_attr(_h("context"), "current"), "limits"), "max_items")
            empty = {"listcomp": ast.List(elts=[], ctx=ast.Load()), "setcomp": _call(_h("set"))}
            start = [
                ast.Assign(
                    targets=[_name("@out", ast.Store())],
                    value=empty.get(kind, ast.Dict(keys=[], values=[])),
                ),
                ast.Assign(targets=[_name("@limit", ast.Store())], value=limit),
            ]
            if kind == "listcomp":
                start.append(
                    ast.Assign(targets=[_name("@add", ast.Store())], value=_attr(out, "append"))
                )
                body.append(ast.Expr(_call(_name("@add"), em.expr(elts[0]))))
            elif kind == "setcomp":
                start.append(
                    ast.Assign(targets=[_name("@add", ast.Store())], value=_attr(out, "add"))
                )
                body.append(
                    ast.Expr(_call(_name("@add"), _hashable_check(em, em.expr(elts[0]), where)))
                )
            else:  # the value first, then the key (as `out[k(cs)] = v(cs)` computes them)
                v = em.expr(elts[1])
                k = em.expr(elts[0])
                body.append(ast.Assign(targets=[_name("@v", ast.Store())], value=v))
                body.append(
                    ast.Assign(
                        targets=[
                            ast.Subscript(
                                value=out, slice=_hashable_check(em, k, where), ctx=ast.Store()
                            )
                        ],
                        value=_name("@v"),
                    )
                )
            n = _call(_h("len"), out)
            over = ast.Compare(left=n, ops=[ast.Gt()], comparators=[_name("@limit")])
            if kind == "listcomp":  # (one item more each time: the room left, counted down)
                body.append(
                    ast.AugAssign(
                        target=_name("@limit", ast.Store()), op=ast.Sub(), value=ast.Constant(1)
                    )
                )
                over = ast.Compare(
                    left=_name("@limit"), ops=[ast.Lt()], comparators=[ast.Constant(0)]
                )
            body.append(
                at(
                    ast.If(
                        test=over,
                        body=[
                            ast.Expr(
                                _call(
                                    _h("check_items"),
                                    _call(_h("len"), out),
                                    ast.Constant(_KINDS[kind]),
                                )
                            )
                        ],
                        orelse=[],
                    ),
                    *where,
                )
            )
        em.ints = frozenset()
        return body, start

    body, start = make(frozenset())
    out = _name("@out")
    # over a range, the variable is an int: a second loop specialized for it (fast_types.py)
    spec, _ = make(frozenset([var]))
    loops = [
        at(ast.For(target=_name(v, ast.Store()), iter=_h("items"), body=b, orelse=[]), line, col)
        for v, b in ((var, spec), (var, body))
    ]
    loop = at(
        ast.If(
            test=_is(_call(_h("type"), _h("items")), _h("range")),
            body=[loops[0]],
            orelse=[loops[1]],
        ),
        line,
        col,
    )
    ret = [] if kind == "genexp" else [ast.Return(value=out)]
    handlers = []
    if kind == "genexp":  # (a generator closed early is not an error)
        handlers.append(
            ast.ExceptHandler(
                type=_h("GeneratorExit"), name=None, body=[ast.Raise(exc=None, cause=None)]
            )
        )
    handlers.append(
        ast.ExceptHandler(
            type=_h("Exception"),
            name="@e",
            body=[
                ast.Raise(
                    exc=_call(_h("fail"), _name("@e"), ast.Constant(None)), cause=ast.Constant(None)
                )
            ],
        )
    )
    guarded = ast.Try(body=[*init, *start, loop, *ret], handlers=handlers, orelse=[], finalbody=[])
    fn_def = ast.FunctionDef(
        name="@comprehension",
        args=ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg=a) for a in ("@items", "@gv", "@gs", "@builtins")],
            kwonlyargs=[],
            kw_defaults=[],
            defaults=[],
        ),
        body=[at(guarded, line, col)],
        decorator_list=[],
    )
    em.consts.update(
        {
            "@set": set,
            "@len": len,
            "@check_items": check_items,
            "@Exception": Exception,
            "@GeneratorExit": GeneratorExit,
            "@range": range,
        }
    )
    fn = _module(em, fn_def, [])()
    builtins = em.comp.builtins

    if kind == "genexp":

        def run(s, first_iter):
            g = s if s.globals is None else s.globals
            items = iterate(first_iter(s))
            return LazyIterator(fn(items, g.vars, g, builtins), "generator object <genexpr>")

    else:

        def run(s, first_iter):
            g = s if s.globals is None else s.globals
            return fn(iterate(first_iter(s)), g.vars, g, builtins)

    return run
