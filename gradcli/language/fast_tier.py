"""The fast tier: a program's `def`s and top-level loops compiled to Python's own
`ast`, run as CPython bytecode, where every construct in them is one this module
knows; anything else stays with the closure compiler (compiler.py), which compiles
every unit anyway (the fast code is used only when the fast tier is on).

What a unit may hold: numbers, strings (not f-strings), True/False/None, names, the
arithmetic, comparison and bitwise operators, `not`/`and`/`or`/`if-else`, calls of a name with
positional and keyword arguments, list, tuple, set and dict displays, subscripts and
slices (fast_items.py); assignments to names, subscripts and tuples of them, `op=` on
a name or a subscript, `if`, `while` and `for` (with `else`) over any iterable into
such targets, `break`, `continue`, `return`, `pass`, `global`, `nonlocal`, `try`,
`raise`, `assert` (fast_try.py), a `def` or lambda of plain parameters in a
function (fast_closures.py), method calls with keywords, `super()`, chained
comparisons, `with`, `*args`/`**kwargs` parameters and calls with `*`/`**`
(fast_forms.py).  Each operator is guarded:
two floats, two small ints (no result near the integer size limit), an int by a
nonzero int for `%` and `//` run as Python's operator, as `runtime.binary_op` would
answer them; any other operands go to the closure compiler's own operator function.
A function's variables are Python locals; globals and built-ins are read as
`name_loader` reads them (the program's variables, then the built-ins); a top-level
loop reads and writes the program's variables.  A call of a function of the program
compiled here calls its generated function directly (the depth limit counted as
UserFunction.run counts it); any other callee is called as callsites.py calls it.
Loops count --max-steps and look at the memory every SAMPLE iterations as the
closure compiler's loops do.

Every node of the generated tree carries the line and column the closure compiler
places its errors at (an operator's, a name's, a call's, a statement's), so the
position of the instruction that raised, read from the code's position table,
is where the error is reported (fast_support.fail)."""

from __future__ import annotations

import ast
import re
import warnings
from types import CodeType, FunctionType

from .parser import Token, Tree

from .fast_ast import (
    _NOT,
    FastExpressions,
    Unsupported,
    _and,
    _BIN,
    _call,
    _copy,
    _h,
    _is,
    _name,
    _op_key,
    _pos,
    at,
    small_check,
)
from .fast_calls import FastBuiltinCalls
from .fast_closures import FastClosures, nests_only_defs
from .fast_dispatch import plain_first
from .fast_forms import FastForms
from .fast_items import FastItems
from .fast_objects import FastObjects
from .fast_try import FastTry
from .fast_support import (
    FAST_DEF,
    FAST_FILE,
    GLOBAL_AROUND,
    SELF_CALLED,
    augmented_op,
    helpers,
)
from .fast_types import (
    DEEP,
    SMALL,
    assigned_names,
    int_function,
    int_variables,
    small_steps,
)


class Emitter(
    FastForms, FastObjects, FastBuiltinCalls, FastTry, FastClosures, FastItems, FastExpressions
):
    """Builds the Python tree of one unit (a function, or a loop of the program)."""

    def block(self, suite):
        out = []
        for child in suite.children:
            if child is None or isinstance(child, Token):
                continue
            out.extend(self.stmt(child))
        return out or [ast.Pass()]

    def stmt(self, node):
        if node.data == "simple_stmt":
            out = []
            for s in node.children:
                if s is None:
                    continue
                out.extend(self.small(s))
            return out
        method = getattr(self, "s_" + node.data, None)
        if method is None:
            raise Unsupported(node.data)
        return self._hoisting(method, node)

    @staticmethod
    def function_def(def_name, params, body):
        """_fn_def: a fast function's definition (for fast_closures.py)."""
        return _fn_def(def_name, params, body)

    def _hoisting(self, method, node):
        """method(node)'s statements, after the definitions its expressions' lambdas
        need (fast_closures.py)."""
        saved, self.hoisted = self.hoisted, []
        try:
            out = method(node)
            return [*self.hoisted, *out] if self.hoisted else out
        finally:
            self.hoisted = saved

    def _line(self, line):
        return ast.Assign(
            targets=[ast.Attribute(value=_h("state"), attr="line", ctx=ast.Store())],
            value=ast.Constant(line),
        )

    def small(self, node):
        method = getattr(self, "s_" + node.data, None)
        if method is None:
            raise Unsupported(node.data)
        line, col = _pos(node)
        self.stmt_pos = (line, col)  # (where a simple statement's own errors are placed)
        if node.data in ("assign", "return_stmt", "expr_stmt", "assert_stmt") and node.children:
            # (what escapes its value unplaced: placed at the statement, fast_forms.py)
            self.place_escapes(node.children[-1 if node.data == "assign" else 0], line, col)
        try:
            return [at(s, line, col) for s in self._hoisting(method, node)]
        finally:
            self.stmt_pos = None

    def s_pass_stmt(self, node):
        return [ast.Pass()]

    def s_break_stmt(self, node):
        return [ast.Break()]

    def s_continue_stmt(self, node):
        return [ast.Continue()]

    def s_expr_stmt(self, node):
        child = node.children[0]
        line, _ = _pos(node)
        if isinstance(child, Tree) and child.data == "string":
            return [ast.Pass()]
        return [self._line(line), ast.Expr(value=self.expr(child))]

    def s_assign(self, node):
        *targets, value = node.children
        line, _ = _pos(node)
        if not all(isinstance(t, Tree) and t.data == "name" for t in targets):
            return [self._line(line), *self.assign_to(targets, self.expr(value))]
        names = [t.children[0].value for t in targets]
        v = self.expr(value)
        return [
            self._line(line),
            ast.Assign(targets=[self.store_target(n) for n in names], value=v),
        ]

    def s_global_stmt(self, node):
        return []  # (scopes.py has read it)

    def s_augassign(self, node):
        target, op, value = node.children
        if isinstance(target, Tree) and target.data == "getattr":
            return self.attr_augassign(node)  # (fast_objects.py)
        op_sym = op.value[:-1]
        if op_sym not in _BIN and op_sym not in ("^", "**"):
            raise Unsupported("augmented operator")
        line, _ = _pos(node)
        if isinstance(target, Tree) and target.data == "getitem":  # (fast_items.py)
            aug = self.const(augmented_op(op_sym), "aug_" + _op_key(op_sym))
            return [self._line(line), *self.augmented_item(target, op, value, aug)]
        if not (isinstance(target, Tree) and target.data == "name"):
            raise Unsupported("augmented target")
        tok = target.children[0]
        cur = self.load(tok)
        v = self.expr(value)
        aug = self.const(plain_first(op_sym, augmented_op(op_sym), True), "aug_" + _op_key(op_sym))
        # the operator's guard as for `a op b`, its fallback the augmented operator's
        e = self.binop(op_sym, cur, v, op.line, op.column, fallback=aug, augmented=True)
        return [
            self._line(line),
            ast.Assign(targets=[self.store_target(tok.value)], value=e),
        ]

    def s_return_stmt(self, node):
        if self.info is None:
            raise Unsupported("return outside a function")
        v = node.children[0]
        line, col = _pos(node)
        e = self.expr(v) if v is not None else ast.Constant(None)
        return [self._line(line), ast.Return(value=e)]

    def test(self, cond):
        line, col = _pos(cond)
        self.place_escapes(cond, line, col)
        return at(self.truth(self.expr(cond)), line, col)

    def s_if_stmt(self, node):
        cond, suite, *rest = node.children
        else_suite = rest.pop() if rest else None
        branches = [(cond, suite)] + [tuple(el.children) for el in rest]
        orelse = self.block(else_suite) if else_suite is not None else []
        for c, b in reversed(branches):
            line, col = _pos(c)
            stmt = at(ast.If(test=self.test(c), body=self.block(b), orelse=orelse), line, col)
            orelse = [at(self._line(line), line, col), stmt]
        return orelse

    def _counting(self, line, col):
        """The statements counting one iteration (--max-steps, the memory look)."""
        ms, n = self.tmp(), self.tmp()
        init = [
            ast.Assign(
                targets=[_name(ms, ast.Store())],
                value=ast.Attribute(
                    value=ast.Attribute(
                        value=ast.Attribute(value=_h("context"), attr="current", ctx=ast.Load()),
                        attr="limits",
                        ctx=ast.Load(),
                    ),
                    attr="max_steps",
                    ctx=ast.Load(),
                ),
            ),
            ast.Assign(targets=[_name(n, ast.Store())], value=_h("SAMPLE")),
        ]
        each = [
            ast.If(
                test=ast.Compare(
                    left=_name(ms), ops=[ast.IsNot()], comparators=[ast.Constant(None)]
                ),
                body=[
                    ast.Expr(_call(_h("step"), _name(ms), ast.Constant(line), ast.Constant(col)))
                ],
                orelse=[],
            ),
            ast.AugAssign(target=_name(n, ast.Store()), op=ast.Sub(), value=ast.Constant(1)),
            ast.If(
                test=ast.UnaryOp(op=ast.Not(), operand=_name(n)),
                body=[
                    ast.Assign(
                        targets=[_name(n, ast.Store())],
                        value=_call(_h("sample"), ast.Constant(line), ast.Constant(col)),
                    )
                ],
                orelse=[],
            ),
        ]
        return [at(s, line, col) for s in init], [at(s, line, col) for s in each]

    def s_while_stmt(self, node):
        cond, suite, else_suite = node.children
        line, col = _pos(cond)
        init, each = self._counting(line, col)
        ended, after = [], []
        if else_suite is not None:  # (run when the condition ends the loop, not a break)
            flag = self.tmp()
            init.append(ast.Assign(targets=[_name(flag, ast.Store())], value=ast.Constant(False)))
            ended = [ast.Assign(targets=[_name(flag, ast.Store())], value=ast.Constant(True))]
            after = [ast.If(test=_name(flag), body=self.block(else_suite), orelse=[])]
        body = [
            at(self._line(line), line, col),
            at(
                ast.If(
                    test=ast.UnaryOp(op=ast.Not(), operand=self.test(cond)),
                    body=[*ended, ast.Break()],
                    orelse=[],
                ),
                line,
                col,
            ),
            *each,
            *self.block(suite),
        ]
        loop = at(ast.While(test=ast.Constant(True), body=body, orelse=[]), line, col)
        return [*init, loop, *after]

    def s_for_stmt(self, node):
        target, iterable, suite, else_suite = node.children
        line, col = _pos(iterable)
        init, each = self._counting(line, col)
        unpack = []
        if not (isinstance(target, Tree) and target.data == "name"):
            var = self.tmp()  # (the item, stored in the target first)
            unpack = self.stores(target, _name(var))
            store = _name(var, ast.Store())
        else:
            store = None
        if self.given_items is not None:
            if store is not None and self.cached:
                raise Unsupported("a loop target of the program's variables, cached")
            it, self.given_items = self.given_items, None
            if store is None:
                self.loop_target = target.children[0].value  # bound before the body reads it
            pre = []
        else:
            it = self.tmp()
            items = at(self.iterated(self.expr(iterable)), line, col)  # (fast_calls.py)
            pre = [at(ast.Assign(targets=[_name(it, ast.Store())], value=items), line, col)]
        loop = ast.For(
            target=store or self.store_target(target.children[0].value),
            iter=_name(it),
            body=[*unpack, *each, *self.block(suite)],
            orelse=self.block(else_suite) if else_suite is not None else [],
        )
        return [*init, *pre, at(loop, line, col)]


# ----------------------------------------------------------------- units


def _module(emitter, fn_def, factory_args, extra=()):
    """Compile `def @factory(<factory_args>): <fn_def>; return <fn_def name>`."""
    factory = ast.FunctionDef(
        name="@factory",
        args=ast.arguments(
            posonlyargs=[],
            args=[ast.arg(arg=a) for a in factory_args],
            kwonlyargs=[],
            kw_defaults=[],
            defaults=[],
        ),
        body=[*extra, fn_def, ast.Return(value=_name(fn_def.name))],
        decorator_list=[],
    )
    module_tree = ast.Module(body=[factory], type_ignores=[])
    at(module_tree, 1, 0)
    with warnings.catch_warnings():  # (`3 is True`: a literal's truth, not a mistake)
        warnings.simplefilter("ignore")
        # a tree built here, never a text: the program's own text is never compiled
        code = compile(module_tree, FAST_FILE, "exec")
    ns = helpers()
    ns.update(emitter.consts)
    (made,) = [c for c in code.co_consts if isinstance(c, CodeType)]
    if emitter.global_reads:  # (their NameError's hint: fast_support.GLOBAL_READ)
        todo = [made]
        while todo:
            c = todo.pop()
            GLOBAL_AROUND[c] = emitter.global_reads
            todo.extend(k for k in c.co_consts if isinstance(k, CodeType))
    return FunctionType(made, ns)


def _attrs(v, *names):
    for n in names:
        v = ast.Attribute(value=v, attr=n, ctx=ast.Load())
    return v


def _try_body(body, me):
    """body run inside try/except: errors through fast_support.fail."""
    return ast.Try(
        body=body,
        handlers=[
            ast.ExceptHandler(
                type=_name("@BaseException"),
                name="@e",
                body=[
                    # (read here, the function keeps them: fast_support._unbound)
                    ast.Expr(ast.Tuple(elts=[_h("gs"), _h("builtins")], ctx=ast.Load())),
                    ast.Raise(
                        exc=_call(_h("fail"), _name("@e"), _h("me") if me else ast.Constant(None)),
                        cause=ast.Constant(None),
                    ),
                ],
            )
        ],
        orelse=[],
        finalbody=[],
    )


def _set_depth(value):
    return ast.Assign(
        targets=[ast.Attribute(value=_h("call_depth"), attr="n", ctx=ast.Store())], value=value
    )


def _counted(body):
    """body run with the call depth `@d` counted in call_depth (restored after)."""
    return [
        _set_depth(_name("@d")),
        ast.Try(
            body=body,
            handlers=[],
            orelse=[],
            finalbody=[
                _set_depth(ast.BinOp(left=_name("@d"), op=ast.Sub(), right=ast.Constant(1)))
            ],
        ),
    ]


def _args(params):
    return ast.arguments(
        posonlyargs=[],
        args=[ast.arg(arg=p) for p in params],
        kwonlyargs=[],
        kw_defaults=[],
        defaults=[],
    )


def _max_depth():
    return _attrs(_h("context"), "current", "limits", "max_depth")


def _fn_def(def_name, params, body):
    """`def <def_name>(<params>): <body>`, with the call depth counted as
    UserFunction.run counts it and errors through fast_support.fail."""
    depth = ast.Attribute(value=_h("call_depth"), attr="n", ctx=ast.Load())
    return ast.FunctionDef(
        name=def_name,
        args=_args(params),
        body=[
            # as UserFunction.run: one call deeper, within the run's limit
            ast.Assign(
                targets=[_name("@d", ast.Store())],
                value=ast.BinOp(left=depth, op=ast.Add(), right=ast.Constant(1)),
            ),
            ast.If(
                test=ast.Compare(left=_name("@d"), ops=[ast.Gt()], comparators=[_max_depth()]),
                body=[ast.Raise(exc=_call(_h("depth_exceeded")), cause=None)],
                orelse=[],
            ),
            *_counted([_try_body([*body, ast.Return(value=ast.Constant(None))], True)]),
        ],
        decorator_list=[],
    )


def _self_fn_def(def_name, params, checks, spec, body):
    """The second function of a function that calls only itself (function_unit): its
    depth comes as a parameter, `@r` the calls left below the run's limit (the first
    function gives its own), not counted in call_depth while its specialized body runs
    (which calls nothing else, so nothing reads it there); its other body, for
    arguments the checks refuse, counts it as _fn_def does (no checks: none)."""
    if checks:
        d = ast.BinOp(left=_max_depth(), op=ast.Sub(), right=_name("@r"))
        other = [ast.Assign(targets=[_name("@d", ast.Store())], value=d), *_counted(body)]
        spec = _either_body(checks, spec, other)
    return ast.FunctionDef(
        name=def_name,
        args=_args([*params, "@r"]),
        body=[
            ast.If(  # as UserFunction.run: deeper than the run's limit
                test=ast.Compare(left=_name("@r"), ops=[ast.Lt()], comparators=[ast.Constant(0)]),
                body=[ast.Raise(exc=_call(_h("depth_exceeded")), cause=None)],
                orelse=[],
            ),
            _try_body([*spec, ast.Return(value=ast.Constant(None))], True),
        ],
        decorator_list=[],
    )


def _either_body(checks, spec, body):
    if not checks:
        return spec
    test = _and(*checks) if len(checks) > 1 else checks[0]
    return [ast.If(test=test, body=spec, orelse=body)]


def _same_code(a, b):
    """Whether the statements a and b are the same code but for the names of their
    temporaries and constants (a body specialized for ints in which no operator is an
    int's): their trees compared node by node, each value as `ast.dump` writes it, each
    temporary's name as the number of the temporaries named before it on its side (not
    the text of each whole body, which `ast.dump` writes slowly)."""
    names_a, names_b = {}, {}

    def numbered(text, names):
        return _TEMP.sub(lambda m: names.setdefault(m.group(), str(len(names))), text)

    def same(x, y):
        if type(x) is not type(y):
            return False
        if isinstance(x, list):
            return len(x) == len(y) and all(map(same, x, y))
        if isinstance(x, ast.AST):  # (same types: the same fields, in the same order)
            fx, fy = list(ast.iter_fields(x)), list(ast.iter_fields(y))
            return len(fx) == len(fy) and all(
                f == g and same(u, v) for (f, u), (g, v) in zip(fx, fy)
            )
        return x is None or numbered(repr(x), names_a) == numbered(repr(y), names_b)

    return same(a, b)


#: a temporary's or a constant's name in the trees of a unit
_TEMP = re.compile(r"@[a-z_]*\d+")


def function_unit(comp, info, name, params, suite, plain=True):
    """A factory `(me, gv, gs, builtins) -> fast function` for a `def` of plain
    positional parameters, or None when its body is not all this tier knows.

    A function that calls only itself, with ints, and returns ints (fast_types.py) has a
    second function for those calls: its body specialized for ints entered without
    looking up its name again (the call that entered the first one checked that the
    name is the function itself, and nothing it runs can bind the name again), its
    depth a parameter.  A parameter of the specialized body that it never binds again
    and whose size lets an operator skip its size test (`n - 1`) is checked to be a
    small int (fast_ast.SMALL) when the body is entered.

    A function with `*args`, keyword-only parameters or `**kwargs` (not `plain`): its
    fast function takes every parameter by position (Signature.all), bound by the
    call as the closure compiler binds them (UserFunction.run)."""
    if info.generator or info.nonlocals or info.nests and not nests_only_defs(suite):
        return None
    em = Emitter(comp, info)
    em.suite, em.params = suite, params
    try:
        em.unit(params, suite)  # (fast_objects.py)
        body = em.block(suite)
        local = [n for n in info.locals if info.mode(n) == "local"]
        local = [n for n in local if n not in em.objects]  # (fast_objects.py)
        ints, recursive = int_function(suite, local, name, len(params))
        if name in local or name in info.globals or not plain:  # (not plain: *args ...)
            ints, recursive = int_variables(suite, local), False
        if info.nests:  # (a nested def may bind its variables: fast_closures.py)
            ints, recursive = frozenset(), False
        extra = []
        if ints:  # a second body, for calls whose parameters in `ints` are ints
            em.ints = ints
            em.self_name = name if recursive else None
            small = frozenset(p for p in params if p in ints) - assigned_names(suite)
            em.small_vars = small
            spec = em.block(suite)
            checks = [_is(_call(_h("type"), _name(p)), _h("int")) for p in params if p in ints]
            # the second function's parameters unchecked: each an int of at most DEEP
            unchecked = (
                recursive
                and all(p in small for p in params if p in ints)
                and small_steps(suite, name, params, small)
            )
            if unchecked:
                em.small_bound = DEEP
                self_spec, self_checks = em.block(suite), []
                em.small_bound = SMALL
                em.small_used.update(small)
            em.ints, em.self_name, em.small_vars = frozenset(), None, frozenset()
            checks += [small_check(_name(p)) for p in params if p in em.small_used]
            if not recursive and _same_code(spec, body):  # (no int operator in it)
                checks, spec = [], body
            if recursive:  # (its calls of `name` call itself: it is the global `name`)
                if not unchecked:
                    self_spec, self_checks = _copy(spec), _copy(checks)
                extra.append(
                    _self_fn_def(
                        FAST_DEF + name + SELF_CALLED,
                        params,
                        self_checks,
                        self_spec,
                        _copy(body),
                    )
                )
                checks = checks + [
                    ast.Compare(left=ast.Constant(name), ops=[ast.In()], comparators=[_h("gv")]),
                    _is(
                        ast.Subscript(value=_h("gv"), slice=ast.Constant(name), ctx=ast.Load()),
                        _h("me"),
                    ),
                ]
                # the calls left below the limit, for its calls of the second function
                spec = [
                    ast.Assign(
                        targets=[_name("@r", ast.Store())],
                        value=ast.BinOp(left=_max_depth(), op=ast.Sub(), right=_name("@d")),
                    ),
                    *spec,
                ]
            body = _either_body(checks, spec, body)
        fn_def = _fn_def(FAST_DEF + name, params, [*em.prologue(), *body])
        em.consts["@BaseException"] = BaseException
        factory = _module(em, fn_def, ["@me", "@gv", "@gs", "@builtins"], extra)
    except (Unsupported, RecursionError, SyntaxError, ValueError, TypeError):
        return None

    def make(me, gs, builtins):
        return factory(me, gs.vars, gs, builtins)

    return make


def _cached(em, node, direct):
    """The statements running a top-level loop `node` with the program's variables as
    Python locals when they hold plain values (no program code can run in its body: no
    call, every operand a number or a string), else `direct` (variables read and
    written in the program's dict)."""
    pre = []
    if node.data == "for_stmt":  # its items first, as `direct` computes them
        pre = [direct[-2]]
        em.given_items = direct[-2].targets[0].id
        direct = direct[:-2] + direct[-1:]
    items = em.given_items
    em.cached = True
    body = em.stmt(node)
    target = em.loop_target  # (read in the body only after the loop bound it)
    reads = sorted(em.reads - {target})
    writes = sorted((em.writes | em.reads) - set(reads))
    ints = int_variables(node, [*reads, *writes], target)
    if ints:  # a second body, for when the variables it reads in `ints` hold ints
        em.given_items, em.ints = items, ints
        spec = em.stmt(node)
        em.ints = frozenset()
        checks = [
            _is(
                _call(
                    _h("type"), ast.Subscript(value=_h("gv"), slice=ast.Constant(n), ctx=ast.Load())
                ),
                _h("int"),
            )
            for n in reads
            if n in ints
        ]
        if checks:
            body = [
                ast.If(test=_and(*checks) if len(checks) > 1 else checks[0], body=spec, orelse=body)
            ]
        else:
            body = spec
    plain = ast.Tuple(
        elts=[_h(t) for t in ("int", "float", "bool", "str", "NoneType")], ctx=ast.Load()
    )
    ok = [ast.Compare(left=ast.Constant(n), ops=[ast.In()], comparators=[_h("gv")]) for n in reads]
    ok += [
        ast.Compare(
            left=_call(
                _h("type"), ast.Subscript(value=_h("gv"), slice=ast.Constant(n), ctx=ast.Load())
            ),
            ops=[ast.In()],
            comparators=[plain],
        )
        for n in reads
    ]
    if pre:
        ok.append(_is(_call(_h("type"), _name(pre[0].targets[0].id)), _h("range")))
    load = [
        ast.Assign(
            targets=[_name(n, ast.Store())],
            value=ast.Subscript(value=_h("gv"), slice=ast.Constant(n), ctx=ast.Load()),
        )
        for n in reads
    ] + [
        ast.Assign(
            targets=[_name(n, ast.Store())],
            value=ast.Call(
                func=ast.Attribute(value=_h("gv"), attr="get", ctx=ast.Load()),
                args=[ast.Constant(n), _h("M")],
                keywords=[],
            ),
        )
        for n in writes
    ]
    back = [
        ast.If(
            test=ast.Compare(left=_name(n), ops=[ast.IsNot()], comparators=[_h("M")]),
            body=[
                ast.Assign(
                    targets=[ast.Subscript(value=_h("gv"), slice=ast.Constant(n), ctx=ast.Store())],
                    value=_name(n),
                )
            ],
            orelse=[],
        )
        for n in [*reads, *writes]
    ]
    fast = [*load, ast.Try(body=body, handlers=[], orelse=[], finalbody=back)]
    test = _and(*ok) if len(ok) > 1 else ok[0] if ok else ast.Constant(True)
    return [*pre, ast.If(test=test, body=fast, orelse=direct)]


def loop_unit(comp, node):
    """A function `(scope, builtins) -> None` running a top-level loop, or None."""
    em = Emitter(comp, None)
    try:
        body = em.stmt(node)
        try:
            body = _cached(em, node, body)
        except Unsupported:
            pass
        factory = _loop_module(em, body, ["@gv", "@gs", "@builtins"])
    except (Unsupported, RecursionError, SyntaxError, ValueError, TypeError):
        return None
    return factory


def rest_unit(comp, node):
    """A function `(scope, builtins, items) -> None` running the rest of a top-level loop
    that replay left (control._looped): a `for` loop's over `items`, the iterator its
    items were being taken from, a `while` loop's from its condition on; or None."""
    em = Emitter(comp, None)
    try:
        if node.data == "for_stmt":
            em.given_items = "@items"
        body = em.stmt(node)
        return _loop_module(em, body, ["@gv", "@gs", "@builtins", "@items"])
    except (Unsupported, RecursionError, SyntaxError, ValueError, TypeError):
        return None


def _loop_module(em, body, params):
    """The factory of a top-level loop's compiled function `@loop` (loop_unit, rest_unit):
    its body in the tier's try, the constants it reads, `params` its factory's arguments."""
    em.consts["@BaseException"] = BaseException
    em.consts["@NoneType"] = type(None)
    em.consts["@range"] = range
    em.consts["@M"] = _NOT
    fn_def = ast.FunctionDef(
        name="@loop",
        args=ast.arguments(posonlyargs=[], args=[], kwonlyargs=[], kw_defaults=[], defaults=[]),
        body=[_try_body(body, False)],
        decorator_list=[],
    )
    return _module(em, fn_def, params)
