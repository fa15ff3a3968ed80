"""Comprehensions in the fast tier (fast_tier.py): a list, set or dict comprehension
or a generator expression of one `for` (its target a name, or what fast_items.py
stores in) and at most one `if`,
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

from .parser import Tree

from ..runtime.limits import check_items
from ..library.stdlib import LazyIterator
from .fast_ast import Unsupported, _copy, _and, _call, _h, _is, _known_int, _name, _or, _pos, at
from .fast_items import hashable
from .fast_support import PASS_ON
from .fast_types import SMALL
from .fast_tier import Emitter, _module
from .iteration import iterate, sample
from .scopes import FunctionInfo

#: what each kind of comprehension adds its element to, and its length limit's words
#: ("sum": a generator expression summed as it goes, `sum(e for x in xs)`: no items kept)
_KINDS = {
    "listcomp": "the list",
    "setcomp": "the set",
    "dictcomp": "the dict",
    "genexp": None,
    "sum": None,
}
#: the kinds that keep no items (no length limit)
_LAZY = ("genexp", "sum")


def _attr(v, name):
    return ast.Attribute(value=v, attr=name, ctx=ast.Load())


def _hashable_check(em, e, where):
    """hashable(e), its error placed at the comprehension (where)."""
    return at(_call(em.const(hashable, "hashable"), e), *where)


def comprehension_unit(comp, node):
    """run(s, first_iter) -> the comprehension's value, or None when `node` (a
    listcomp, setcomp, dictcomp or genexp) is not one this tier compiles."""
    fn = comprehension_function(comp, node)
    if fn is None:
        return None
    builtins = comp.builtins

    if node.data == "genexp":

        def run(s, first_iter):
            g = s if s.globals is None else s.globals
            items = iterate(first_iter(s))
            return LazyIterator(fn(items, g.vars, g, builtins), "generator object <genexpr>")

    else:

        def run(s, first_iter):
            g = s if s.globals is None else s.globals
            return fn(iterate(first_iter(s)), g.vars, g, builtins)

    return run


def comprehension_function(comp, node, kind=None, call_at=None):
    """The Python function `(items, program's variables, program's scope, built-ins) ->
    the comprehension's value` (a generator expression's generator) of `node`, reading
    no variable of a function around it, or None when this tier does not compile it.
    kind "sum" (of a generator expression): `(items, plus, start, program's variables,
    program's scope, built-ins) -> the sum`, each item added by plus(total, item), the
    call `plus` at `call_at` (fast_builtins.summed)."""
    if node.data not in _KINDS or (kind is not None and node.data != "genexp"):
        return None
    kind = kind or node.data
    if kind == "dictcomp":
        key, value, clauses = node.children
        elts = (key, value)
    else:
        elt, clauses = node.children
        elts = (elt,)
    steps = clauses.children
    if not steps or steps[0].data != "comp_for":
        return None
    target = steps[0].children[0]
    if not isinstance(target, Tree):
        return None
    info = FunctionInfo("<comprehension>", "comprehension", comp.fn)
    for c in steps:
        if c.data == "comp_for":
            info._target(c.children[0])
    em = Emitter(comp, info)
    em.comp_steps = steps
    em.sum_at = call_at  # (a comprehension in it: fast_closures.bound_here)
    try:
        if target.data == "name":
            return _build(em, kind, elts, steps, target.children[0].value, _pos(node))
        # another target (`for a, b in ...`): the item stored in it first (fast_items.py)
        var = em.tmp()
        return _build(em, kind, elts, steps, var, _pos(node), target)
    except (Unsupported, RecursionError, SyntaxError, ValueError, TypeError):
        return None


def inline_comprehension(outer, node, kind=None, call_at=None):
    """(the definition of the comprehension's Python function, to be nested in the
    generated function of `outer`'s emitter, whose variables it reads as Python's
    cells; its kind) for `node`, or Unsupported: `outer`'s function calls it with the
    items of its first iterable, as `run` below does (kind "sum": as
    `comprehension_function`'s)."""
    if node.data not in _KINDS or (kind is not None and node.data != "genexp"):
        raise Unsupported(node.data)
    kind = kind or node.data
    if kind == "dictcomp":
        key, value, clauses = node.children
        elts = (key, value)
    else:
        elt, clauses = node.children
        elts = (elt,)
    steps = clauses.children
    if not steps or steps[0].data != "comp_for":
        raise Unsupported("comprehension clauses")
    target = steps[0].children[0]
    if not isinstance(target, Tree):
        raise Unsupported("comprehension target")
    info = FunctionInfo("<comprehension>", "comprehension", outer.info)
    for c in steps:
        if c.data == "comp_for":
            info._target(c.children[0])
    em = type(outer)(outer.comp, info)
    em.comp_steps = steps
    em.sum_at = call_at
    em.consts, em.n = outer.consts, outer.n  # (one namespace, as fast_closures does)
    em.enclosing = outer.enclosing | {outer.info}
    em.bound_at = {**outer.bound_at, outer.info: outer.bound_here(node)}
    if target.data == "name":
        fn_def = _build(em, kind, elts, steps, target.children[0].value, _pos(node), inline=True)
    else:
        var = em.tmp()
        fn_def = _build(em, kind, elts, steps, var, _pos(node), target, inline=True)
    outer.n = em.n + 1
    fn_def.name = "@comprehension" + str(outer.n)
    outer.consts["@LazyIterator"] = LazyIterator
    outer.consts["@iterate"] = iterate
    return fn_def, kind


def _iteration_at(loop, where, kind):
    """The loop with its own instructions (the next item taken) placed at the
    comprehension, where the closure compiler places what its iteration raises (a
    generator's error, a set changed); in a generator expression marked PASS_ON: an
    error out of a generator it goes through is placed by the call that asked for the
    item, as the closure compiler's lazy comprehension leaves it (fast_support.fail)."""
    loop.lineno = loop.end_lineno = where[0]
    loop.col_offset = where[1]
    loop.end_col_offset = where[1] + (PASS_ON if kind in _LAZY else 0)
    return loop


def small_range(items):
    """Whether every int of the range `items` is at most SMALL in size."""
    return not items or (-SMALL <= items[0] <= SMALL and -SMALL <= items[-1] <= SMALL)


def _chunked(em, kind, make, var, init, loop, line, col):
    """`loop` (the items one at a time, each counted), or, without --max-steps, over
    a range or a list whose length is within the items limit (no list, set or dict
    of its items can pass it): the items in slices between two looks at the memory,
    as many as the count of `loop` would take (SAMPLE - 1, then what each look
    gives), the body without counting nor the length's test; over a range of small
    ints, its variable a small int (no size tests: fast_ast._bound)."""
    max_steps, left = init[0].targets[0].id, init[1].targets[0].id
    pos, k = em.tmp(), em.tmp()

    def slices(body):
        part = ast.Subscript(
            value=_h("items"),
            slice=ast.Slice(
                lower=_name(pos),
                upper=ast.BinOp(left=_name(pos), op=ast.Add(), right=_name(left)),
            ),
            ctx=ast.Load(),
        )
        each = ast.For(target=_name(var, ast.Store()), iter=part, body=body, orelse=[])
        again = [
            ast.AugAssign(target=_name(pos, ast.Store()), op=ast.Add(), value=_name(left)),
            ast.If(
                test=ast.Compare(
                    left=_name(pos), ops=[ast.GtE()], comparators=[_call(_h("len"), _h("items"))]
                ),
                body=[ast.Break()],
                orelse=[],
            ),
            ast.Assign(
                targets=[_name(left, ast.Store())],
                value=_call(_h("sample"), ast.Constant(line), ast.Constant(col)),
            ),
        ]
        return [
            ast.Assign(targets=[_name(pos, ast.Store())], value=ast.Constant(0)),
            ast.AugAssign(target=_name(left, ast.Store()), op=ast.Sub(), value=ast.Constant(1)),
            ast.While(test=ast.Constant(True), body=[each, *again], orelse=[]),
        ]

    spec, _ = make(frozenset([var]), small=True, limited=False, counting=False)
    body, _ = make(frozenset(), limited=False, counting=False)
    kind_is = ast.NamedExpr(target=_name(k, ast.Store()), value=_call(_h("type"), _h("items")))
    # a list only when nothing in the comprehension calls the program's code, which may
    # change the list while it is gone through (fast_objects.py marks a call: `calls`)
    kinds = [_is(kind_is, _h("range"))]
    if not em.__dict__.get("calls"):
        kinds.append(_is(_name(k), _h("list")))
    test = [_is(_name(max_steps), ast.Constant(None)), _or(*kinds) if len(kinds) > 1 else kinds[0]]
    if kind not in _LAZY:
        test.append(
            ast.Compare(
                left=_call(_h("len"), _h("items")), ops=[ast.LtE()], comparators=[_name("@limit")]
            )
        )
    fast = ast.If(
        test=_and(_is(_name(k), _h("range")), _call(_h("small_range"), _h("items"))),
        body=slices(spec),
        orelse=slices(body),
    )
    return at(ast.If(test=_and(*test), body=[fast], orelse=[loop]), line, col)


def _nest(em, steps, inner, where):
    """The statements of the clauses `steps` (those after the first `for`), `inner` (the
    element's statements) in the innermost: an `if` goes on to
    the next item of the loop it is in when false, a `for` is a loop over its iterable
    (evaluated at each item of the loop around it, as comprehensions.py's `level`
    evaluates it; what iterating it raises placed at the comprehension, `where`, as
    there), each item stored in its target and counted as a loop's."""
    if not steps:
        return inner
    c = steps[0]
    if c.data == "comp_if":
        cond = c.children[0]
        cl, cc = _pos(cond)
        test = at(ast.UnaryOp(op=ast.Not(), operand=em.truth(em.expr(cond))), cl, cc)
        return [at(ast.If(test=test, body=[ast.Continue()], orelse=[]), cl, cc)] + _nest(
            em, steps[1:], inner, where
        )
    target, iterable = c.children[0], c.children[1]
    if not isinstance(target, Tree):
        raise Unsupported("comprehension target")
    il, ic = _pos(iterable)
    init, each = em._counting(il, ic)
    items = at(_call(_h("iterate"), em.expr(iterable)), *where)
    v = em.tmp()
    if target.data == "name":
        store, first = em.store_target(target.children[0].value), []
    else:
        store, first = _name(v, ast.Store()), em.stores(target, _name(v))
    loop = ast.For(
        target=store, iter=items, body=[*first, *each, *_nest(em, steps[1:], inner, where)]
    )
    loop.orelse = []
    return [*init, at(loop, il, ic)]


def _build(em, kind, elts, steps, var, where, target=None, inline=False):
    line, col = _pos(steps[0].children[1])
    init, each = em._counting(line, col)

    def make(ints, small=False, limited=True, counting=True):
        """The loop's body (`ints`: the variable known to be an int; `small`: an int
        of at most SMALL in size; `limited`: the length limit checked; `counting`:
        the steps and the memory's looks counted per item), and what comes before
        the loop."""
        if target is not None:  # (the item is not the variable: nothing known of it)
            ints, small = frozenset(), False
        em.ints = ints
        em.small_vars = ints if small else frozenset()
        head = em.stores(target, _name(var)) if target is not None else []
        head += _copy(each) if counting else []
        body = []  # (the element's statements: in the innermost clause, _nest)
        out = _name("@out")
        if kind == "genexp":
            e = em.expr(elts[0])
            body.append(ast.Expr(value=ast.Yield(value=e)))
            start = []
        elif kind == "sum":  # each item added as it comes (the step placed at the call)
            e = em.expr(elts[0])
            add = at(_call(_h("plus"), _name("@total"), e), *em.sum_at)
            body.append(ast.Assign(targets=[_name("@total", ast.Store())], value=add))
            start = [ast.Assign(targets=[_name("@total", ast.Store())], value=_h("start"))]
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
                e = em.expr(elts[0])
                body.append(
                    ast.Expr(
                        _call(_name("@add"), e if _known_int(e) else _hashable_check(em, e, where))
                    )
                )
            else:  # the value first, then the key (as `out[k(cs)] = v(cs)` computes them)
                v = em.expr(elts[1])
                k = em.expr(elts[0])
                body.append(ast.Assign(targets=[_name("@v", ast.Store())], value=v))
                body.append(
                    ast.Assign(
                        targets=[
                            ast.Subscript(
                                value=out,
                                slice=k if _known_int(k) else _hashable_check(em, k, where),
                                ctx=ast.Store(),
                            )
                        ],
                        value=_name("@v"),
                    )
                )
            if not limited:
                head += _nest(em, steps[1:], body, where)
                em.ints = em.small_vars = frozenset()
                return head, start
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
        head += _nest(em, steps[1:], body, where)
        em.ints = em.small_vars = frozenset()
        return head, start

    body, start = make(frozenset())
    out = _name("@out")
    # over a range, the variable is an int: a second loop specialized for it (fast_types.py)
    spec, _ = make(frozenset([var]))
    # a plain lazy iterator's own iterator (zip, enumerate or iter of lists, tuples,
    # ranges, strings or tensors: its __next__ is next(it.it), which runs no code of the
    # program), gone through without a call of __next__ per item
    plain = _and(
        _is(_call(_h("type"), _h("items")), _h("LazyIterator")), _attr(_h("items"), "plain")
    )
    inner = ast.IfExp(test=plain, body=_attr(_h("items"), "it"), orelse=_h("items"))
    loops = [
        at(
            _iteration_at(
                ast.For(target=_name(v, ast.Store()), iter=it, body=b, orelse=[]),
                where,
                kind,
            ),
            line,
            col,
        )
        for v, b, it in ((var, spec, _h("items")), (var, body, inner))
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
    if all(c.data == "comp_if" for c in steps[1:]):  # (one item of the output per item)
        loop = _chunked(em, kind, make, var, init, loop, line, col)
    ret = {"genexp": [], "sum": [ast.Return(value=_name("@total"))]}.get(
        kind, [ast.Return(value=out)]
    )
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
    # (the functions of the comprehensions in it, defined first: fast_closures.py)
    body = [*em.hoisted, *init, *start, loop, *ret]
    guarded = ast.Try(body=body, handlers=handlers, orelse=[], finalbody=[])
    params = ("@items", "@plus", "@start") if kind == "sum" else ("@items",)
    fn_def = ast.FunctionDef(
        name="@comprehension",
        args=ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg=a) for a in (*params, "@gv", "@gs", "@builtins")],
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
            "@list": list,
            "@small_range": small_range,
            "@sample": sample,
            "@iterate": iterate,
            "@LazyIterator": LazyIterator,
        }
    )
    if inline:
        return fn_def
    return _module(em, fn_def, [])()
