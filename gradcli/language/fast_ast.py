"""The Python trees of the fast tier (fast_tier.py): helpers that build them, and the
compilation of expressions, each node placed where the closure compiler places that
expression's errors, each operator guarded (see fast_tier.py)."""

from __future__ import annotations

import ast

from .parser import Token, Tree

from .arity import BareName
from .fast_types import SMALL
from .expressions import _BIT_LEVELS, _bound_around
from .fast_dispatch import plain_binary_op
from .fast_support import GLOBAL_READ
from . import runtime as rt


class Unsupported(Exception):
    """A construct this tier does not compile: the unit stays with the closure compiler."""


_ARITH = frozenset({"+", "-", "*"})
_CMP = {"<": ast.Lt, "<=": ast.LtE, ">": ast.Gt, ">=": ast.GtE, "==": ast.Eq, "!=": ast.NotEq}
_BIN = {
    "+": ast.Add,
    "-": ast.Sub,
    "*": ast.Mult,
    "/": ast.Div,
    "//": ast.FloorDiv,
    "%": ast.Mod,
}
_LITERALS = frozenset({"number", "string", "true", "false", "none"})
#: the values whose truth rt.truth gives as Python's own bool(v)
_TRUTHFUL = frozenset({float, str, list, tuple, dict, set, frozenset, range, type(None)})


def _pos(node):
    if isinstance(node, Token):
        return node.line, node.column
    return getattr(node.meta, "line", None), getattr(node.meta, "column", None)


#: the mark of a tree `at` placed whole (an attribute that compile() ignores)
PLACED = "_placed"


def at(node, line, col):
    """node and the parts of it not placed yet, placed at (line, col).

    Each part `at` walks is marked PLACED: every part below it has its place, so a later
    `at` of a tree holding it does not walk it again (trees are built bottom up, each
    part placed as it is made: walking each whole tree again made compiling quadratic).
    A placed tree is not given new parts afterwards (a new tree holds it instead)."""
    stack = [node]
    pop, push, extend = stack.pop, stack.append, stack.extend
    while stack:
        n = pop()
        if not isinstance(n, ast.AST):  # (None in a dict's keys, str in Global's names)
            continue
        d = n.__dict__
        if PLACED in d:
            continue
        d[PLACED] = True
        if "lineno" not in d and "lineno" in n._attributes:
            n.lineno = n.end_lineno = line
            n.col_offset = n.end_col_offset = col
        for f in n._fields:
            v = d.get(f)
            if isinstance(v, list):
                extend(v)
            elif isinstance(v, ast.AST):
                push(v)
    return node


def marked(node, line, col, mark):
    """node placed at (line, col), its end `mark` columns further (what fast_support.fail
    reads as that instruction's kind: OWN_ATTR, GLOBAL_READ)."""
    node.lineno = node.end_lineno = line
    node.col_offset, node.end_col_offset = col, col + mark
    return node


def _load_global(em, name, line, col):
    """The program's variable `name` read in the unit em builds (fast_tier.Emitter): as
    a dict's item when no built-in has its name (_global_read), else the variable if the
    program bound it, the built-in if not (or global_missing's NameError)."""
    if name not in em.comp.builtins:  # (no built-in of that name: _global_read)
        em.global_reads[(line, col)] = _names_around(em.info)
        return _global_read(name, line, col)
    # `name` if the program bound it, else the built-in (or NameError)
    missing = _call(
        _h("global_missing"),
        _h("gs"),
        _h("builtins"),
        ast.Constant(name),
        ast.Constant(line),
        ast.Constant(col),
        ast.Constant(_names_around(em.info)),
    )
    return at(
        ast.IfExp(
            test=ast.Compare(left=ast.Constant(name), ops=[ast.In()], comparators=[_h("gv")]),
            body=ast.Subscript(value=_h("gv"), slice=ast.Constant(name), ctx=ast.Load()),
            orelse=ast.IfExp(  # (global_missing's answer for a built-in, without a call)
                test=ast.Compare(
                    left=ast.Constant(name), ops=[ast.In()], comparators=[_h("builtins")]
                ),
                body=ast.Subscript(value=_h("builtins"), slice=ast.Constant(name), ctx=ast.Load()),
                orelse=missing,
            ),
        ),
        line,
        col,
    )


def _global_read(name, line, col):
    """The program's variable `name` (no built-in has that name) as Python reads a dict's
    item: its KeyError when the program has not bound it becomes the NameError that
    global_missing gives (fast_support.GLOBAL_READ; the hint's names around the read
    kept by the unit: `global_reads`)."""
    e = ast.Subscript(value=_h("gv"), slice=ast.Constant(name), ctx=ast.Load())
    return at(marked(e, line, col, GLOBAL_READ), line, col)


def _mixed(t, a, b, py, fallback):
    """`a op b` of an int and a float (t: the variable holding a's type): Python's
    operator, as _py_binary answers them (an int too large for a float: its
    OverflowError there too); anything else fallback(a, b)."""
    return ast.IfExp(
        test=_or(
            _and(_is(_name(t), _h("float")), _type_is(_copy(b), "int")),
            _and(_is(_name(t), _h("int")), _type_is(_copy(b), "float")),
        ),
        body=ast.BinOp(left=_copy(a), op=py(), right=_copy(b)),
        orelse=_call(fallback, a, b),
    )


def _truth_of(e1, e2, t, truthful):
    """`e1 is True or (e2 is not False and (e2 if type(e2) is int or type(e2) in truthful
    else truth(e2)))`: an int, and the values whose truth rt.truth takes as Python's own
    (a list's ...), tested as they are, no call (e1: e2's first use)."""
    plain = _or(
        _is(_type_of(t, e2), _h("int")),
        ast.Compare(left=_name(t), ops=[ast.In()], comparators=[truthful]),
    )
    rest = ast.IfExp(test=plain, body=_copy(e2), orelse=_call(_h("truth"), _copy(e2)))
    not_false = ast.Compare(left=e2, ops=[ast.IsNot()], comparators=[ast.Constant(False)])
    return _or(_is(e1, ast.Constant(True)), _and(not_false, rest))


def _name(id, ctx=None):
    return ast.Name(id=id, ctx=ctx or ast.Load())


def _h(name):
    return _name("@" + name)


def _call(fn, *args):
    return ast.Call(func=fn, args=list(args), keywords=[])


def _is(a, b):
    return ast.Compare(left=a, ops=[ast.Is()], comparators=[b])


def _type_is(v, tname):
    return _is(_call(_h("type"), v), _h(tname))


def _type_of(t, v):
    """`(t := type(v))`"""
    return ast.NamedExpr(target=_name(t, ast.Store()), value=_call(_h("type"), v))


def _and(*vs):
    return ast.BoolOp(op=ast.And(), values=list(vs))


def _or(*vs):
    return ast.BoolOp(op=ast.Or(), values=list(vs))


def small_check(v):
    """-SMALL <= v <= SMALL"""
    return ast.Compare(
        left=ast.Constant(-SMALL),
        ops=[ast.LtE(), ast.LtE()],
        comparators=[v, ast.Constant(SMALL)],
    )


def _bound(e):
    """The largest size e can have when it is an int expression of known size, else None."""
    if isinstance(e, ast.Constant):
        return abs(e.value) if type(e.value) is int else None
    return getattr(e, "gc_bound", None)


def _bounded(self, e, bound, *parts):
    """e, an int of at most `bound` in size: the small variables it relies on (of
    `parts`) are those whose size the specialized body's entry tests."""
    e.gc_int = True
    e.gc_bound = bound
    for p in parts:
        self.small_used.update(getattr(p, "gc_small", ()))
    e.gc_small = set().union(*(getattr(p, "gc_small", ()) for p in parts))
    return e


_NOT = object()


def _op_key(op):
    return {
        "+": "add",
        "-": "sub",
        "*": "mul",
        "/": "div",
        "//": "floordiv",
        "%": "mod",
        "^": "pow",
        "**": "pow2",
        "<": "lt",
        "<=": "le",
        ">": "gt",
        ">=": "ge",
        "==": "eq",
        "!=": "ne",
        "@": "matmul",
    }.get(op, "op" + str(abs(hash(op))))


def _copy(e):
    """A second use of an argument expression (it is evaluated in one branch only), or
    of a tree or list of trees: each node new, its other values (names, constants,
    places, PLACED) shared (copy.deepcopy of the same took much of a unit's compiling)."""
    if isinstance(e, list):
        return [_copy(x) for x in e]
    if not isinstance(e, ast.AST):
        return e
    c = e.__class__()
    d = c.__dict__
    for k, v in e.__dict__.items():
        d[k] = _copy(v) if isinstance(v, (ast.AST, list)) else v
    return c


def _known_int(e):
    """Whether e is an int of the specialized body, or an int literal (not a bool)."""
    if isinstance(e, ast.Constant):
        return type(e.value) is int
    return getattr(e, "gc_int", False)


#: an int result below this in size is the one runtime.binary_op gives for two ints
#: within the integer limit (a product's operands then have at most 65 bits together)
RESULT_BOUND = 1 << 64


def _below(v):
    """-RESULT_BOUND < v < RESULT_BOUND, `(r := ...)` tested first against SMALL
    (CPython's quickest comparison, two one-digit ints) then against RESULT_BOUND."""
    again = v
    if isinstance(v, ast.NamedExpr):
        again = _name(v.target.id)
    test = ast.Compare(
        left=ast.Constant(-RESULT_BOUND),
        ops=[ast.Lt(), ast.Lt()],
        comparators=[again, ast.Constant(RESULT_BOUND)],
    )
    return _or(small_check(v), test) if again is not v else test


def _int_binop(self, op, a, b, fallback, line, col):
    """`a op b` of two ints of the specialized body: the size test only (fast_types.py),
    or None when its result is not known to be an int."""
    ac = a.value if isinstance(a, ast.Constant) else _NOT
    bc = b.value if isinstance(b, ast.Constant) else _NOT
    if op in ("//", "%"):
        if type(bc) is not int or not bc:
            return None
        e = self._int(at(ast.BinOp(left=a, op=_BIN[op](), right=b), line, col))
        ba = _bound(a)
        if op == "%":  # (smaller than the divisor in size)
            e.gc_bound = abs(bc)
        elif ba is not None:
            _bounded(self, e, ba, a)
        return e
    if op not in _ARITH or (ac is not _NOT and bc is not _NOT):
        return None
    ba, bb = _bound(a), _bound(b)
    if ba is not None and bb is not None:
        # operands of known size: a result below RESULT_BOUND, no test
        bound = ba * bb if op == "*" else ba + bb
        if bound < RESULT_BOUND:
            e = at(ast.BinOp(left=a, op=_BIN[op](), right=b), line, col)
            return _bounded(self, e, bound, a, b)
    # the result's size tested, not the operands': a result below 2**64 is the one
    # runtime.binary_op gives (its operands are ints within the limit, or inf/nan
    # after an overflow, for which the test fails), anything else is recomputed by it
    a1, a2 = self._once(a)
    b1, b2 = self._once(b)
    r = self.tmp()
    e = ast.IfExp(
        test=_below(
            ast.NamedExpr(
                target=_name(r, ast.Store()), value=ast.BinOp(left=a1, op=_BIN[op](), right=b1)
            )
        ),
        body=_name(r),
        orelse=_call(fallback, a2, b2),
    )
    return self._int(at(e, line, col))


def _negated(self, node):
    """`-x`, guarded (e_unary: outside the class, for its size)."""
    op_tok, operand = node.children
    if op_tok.value == "~":  # (runtime.unary: an int's, a tensor's, an object's __invert__)
        e = _call(_h("unary"), ast.Constant("~"), self.expr(operand))
        return at(e, op_tok.line, op_tok.column)
    if op_tok.value != "-":
        raise Unsupported("unary")
    v = self.expr(operand)
    if isinstance(v, ast.Constant) and type(v.value) is float:  # (`-1.0`: Python's own)
        return at(ast.Constant(-v.value), op_tok.line, op_tok.column)
    if _known_int(v):
        e = self._int(at(ast.UnaryOp(op=ast.USub(), operand=v), op_tok.line, op_tok.column))
        b = _bound(v)
        return e if b is None else _bounded(self, e, b, v)
    v1, v2 = self._once(v)
    t = self.tmp()
    return at(
        ast.IfExp(
            test=_or(
                _is(
                    _type_of(t, v1),
                    _h("float"),
                ),
                _is(_name(t), _h("int")),
            ),
            body=ast.UnaryOp(op=ast.USub(), operand=v2),
            orelse=self.object_unary("-", v2, t, op_tok.line, op_tok.column),
        ),
        op_tok.line,
        op_tok.column,
    )


def _names_around(info):
    """The variables of the function `info` and of those around it, innermost first (the
    names a NameError's hint looks in before the program's and the built-ins)."""
    out, p = [], info
    while p is not None:
        if p.kind != "class":
            out += sorted(p.locals - set(out))
        p = p.parent
    return tuple(out)


class FastExpressions:
    """Builds the Python tree of one unit's expressions (fast_tier.Emitter: statements)."""

    def __init__(self, comp, info):
        self.comp = comp
        self.info = info  # scopes.FunctionInfo of the function; None: a top-level loop
        self.n = 0
        self.ints = frozenset()  # variables known to hold ints here (fast_types.py)
        self.small_vars = frozenset()  # ... and of these, ints of at most SMALL in size
        self.small_bound = SMALL  # (or of at most fast_types.DEEP)
        self.small_used = set()  # the small variables the sizes of expressions relied on
        self.enclosing = frozenset()  # the functions of the unit around this one
        self.suite, self.params = None, ()  # this function's body and parameters
        self.bound_at = {}  # each of those -> its names bound where this one is defined
        self.hoisted = []  # statements defining what the statement's lambdas run
        self.self_name = None  # the function, whose calls of itself give ints (fast_types.py)
        # (a nested function's name, its Python function's, its number of parameters) when
        # the variable of that name around it always holds it (fast_closures._own_calls)
        self.own_def = None
        self.consts = {}  # name -> value the generated code reads (operators' functions)
        # a top-level loop whose variables are Python locals while it runs (loop_unit)
        self.cached = False
        self.reads, self.writes = set(), set()
        self.given_items = None  # the outermost `for`'s items, computed before (loop_unit)
        self.loop_target = None  # the outermost `for`'s variable (loop_unit)
        self.global_reads = {}  # (line, col) of a _global_read -> the names around it

    def tmp(self):
        self.n += 1
        return f"@t{self.n}"

    def const(self, value, key):
        name = "@k_" + key
        self.consts[name] = value
        return _name(name)

    # ------------------------------------------------------------- names

    def _mode(self, name):
        info = self.info
        if info is None:
            return "global"
        mode = info.mode(name)
        if mode == "free" and info.kind != "class" and not _bound_around(name, info):
            return "global"
        if mode == "free":
            if self.free_ok(name):  # a Python variable of a function around (fast_closures)
                return "local"
            raise Unsupported("a closure's variable")
        return mode

    def load(self, tok):
        name, line, col = tok.value, tok.line, tok.column
        if self.cached:
            self.reads.add(name)
            return self._int(at(_name(name), line, col), name in self.ints)
        if self._mode(name) == "local":
            e = self._int(at(_name(name), line, col), name in self.ints)
            if name in self.small_vars:
                e.gc_bound, e.gc_small = self.small_bound, {name}
            return e
        return _load_global(self, name, line, col)

    def store_target(self, name):
        info = self.info
        if self.cached:
            self.writes.add(name)
            return _name(name, ast.Store())
        if info is None or name in info.globals:
            return ast.Subscript(value=_h("gv"), slice=ast.Constant(name), ctx=ast.Store())
        if name in info.nonlocals and not self.free_ok(name):
            raise Unsupported("nonlocal")
        return _name(name, ast.Store())

    # ------------------------------------------------------------- expressions

    def expr(self, node):
        if isinstance(node, Token):
            raise Unsupported("token")
        method = getattr(self, "e_" + node.data, None)
        if method is None:
            raise Unsupported(node.data)
        return method(node)

    def _literal(self, node):
        fn = self.comp.expr(node)
        if not hasattr(fn, "value"):
            raise Unsupported("literal")
        v = fn.value
        if type(v) not in (int, float, str, bool, type(None)):
            raise Unsupported("literal")
        line, col = _pos(node)
        return at(ast.Constant(v), line or 1, col or 1)

    e_number = e_string = e_true = e_false = e_none = _literal

    def e_name(self, node):
        return self.load(node.children[0])

    def _once(self, e):
        """(first use, later uses) of a value used more than once."""
        if isinstance(e, (ast.Name, ast.Constant)):
            return e, e
        t = self.tmp()
        return ast.NamedExpr(target=_name(t, ast.Store()), value=e), _name(t)

    @staticmethod
    def _int(e, known=True):
        """e, marked as an int of the specialized body (fast_types.py) when `known`."""
        if known:
            e.gc_int = True
        return e

    def binop(self, op, a, b, line, col, fallback=None, augmented=False):
        """`a op b` guarded, objects first (object_op), else `fallback` (op's function)."""
        if fallback is None:  # (objects of the program's classes first: fast_objects.py)
            fallback = self.const(plain_binary_op(op), "binary_" + _op_key(op))
        if _known_int(a) and _known_int(b):
            e = _int_binop(self, op, a, b, fallback, line, col)
            if e is not None:
                return e
        ac = a.value if isinstance(a, ast.Constant) else _NOT
        bc = b.value if isinstance(b, ast.Constant) else _NOT
        a1, a2 = self._once(a)
        b1, b2 = self._once(b)
        py = _BIN.get(op)
        guard = None
        if py is not None and ac is _NOT:
            same = t = None
            if bc is _NOT:  # both operands evaluated, in order, by the first test
                t = self.tmp()
                same = _is(
                    _type_of(t, a1),
                    _call(_h("type"), b1),
                )
            if op in _ARITH:
                # two floats: Python's operator; two ints: Python's, its result's size
                # tested (_int_binop); anything else: the operator's function
                r = self.tmp()
                int_result = ast.IfExp(
                    test=_below(
                        ast.NamedExpr(
                            target=_name(r, ast.Store()),
                            value=ast.BinOp(left=a2, op=py(), right=b2),
                        )
                    ),
                    body=_name(r),
                    orelse=_call(fallback, a2, b2),
                )
                if bc is _NOT:
                    e = ast.IfExp(
                        test=same,
                        body=ast.IfExp(
                            test=_is(_name(t), _h("float")),
                            body=ast.BinOp(left=a2, op=py(), right=b2),
                            orelse=ast.IfExp(
                                test=_is(_name(t), _h("int")),
                                body=int_result,
                                orelse=self.object_op(
                                    op, a2, b2, t, fallback, augmented, line, col
                                ),
                            ),
                        ),
                        orelse=_mixed(t, a2, b2, py, fallback),
                    )
                    return at(e, line, col)
                # a number and a constant: Python's operator, as _py_binary answers an
                # int and a float (an int result's size tested)
                t = self.tmp()
                is_float = _is(
                    _type_of(t, a1),
                    _h("float"),
                )
                if type(bc) is float:
                    guard = _or(is_float, _is(_name(t), _h("int")))
                elif type(bc) is int:
                    int_result.test = _and(_is(_name(t), _h("int")), int_result.test)
                    int_result.orelse = self.object_op(
                        op, a2, b2, t, fallback, augmented, line, col
                    )
                    e = ast.IfExp(
                        test=is_float, body=ast.BinOp(left=a2, op=py(), right=b2), orelse=int_result
                    )
                    return at(e, line, col)
            elif op in ("%", "//"):
                if bc is _NOT:
                    guard = _and(same, _is(_name(t), _h("int")), b2)
                elif type(bc) is int and bc:
                    guard = _type_is(a1, "int")
            elif op == "/":
                if bc is _NOT:
                    guard = _and(
                        same, _or(_is(_name(t), _h("int")), _is(_name(t), _h("float"))), b2
                    )
                elif type(bc) in (int, float) and bc:  # (an int and a float: a / b)
                    t = self.tmp()
                    guard = _or(
                        _is(
                            _type_of(t, a1),
                            _h("float"),
                        ),
                        _is(_name(t), _h("int")),
                    )
        if guard is None and op in ("**", "^") and ac is _NOT:  # (None: not such a case)
            guard = self.power_of_constant(a1, a2, b2, bc, fallback, augmented, line, col)
            if guard is not None:
                return at(guard, line, col)
        if guard is None:  # (a number constant and maybe an object: its reflected method)
            return at(self.left_constant(op, a, b, ac, fallback, augmented, line, col), line, col)
        other = self.right_constant(op, a2, b2, bc, t, fallback, augmented, line, col)
        e = ast.IfExp(test=guard, body=ast.BinOp(left=a2, op=py(), right=b2), orelse=other)
        return at(e, line, col)

    def e_binary(self, node):
        ch = node.children
        e = self.expr(ch[0])
        for t, r in zip(ch[1::2], ch[2::2]):
            e = self.binop(t.value, e, self.expr(r), t.line, t.column)
        return e

    def e_bitwise(self, node):
        """`a | b & c << d` (one grammar level): Python's precedence as the closure
        compiler applies it (expressions.e_bitwise), each operator binop's fallback."""
        ch = node.children
        operands, ops = list(ch[0::2]), list(ch[1::2])

        def build(lo, hi, level):  # operands[lo..hi], ops[lo..hi-1]
            if lo == hi or level == len(_BIT_LEVELS):
                return self.expr(operands[lo])
            for k in range(hi - 1, lo - 1, -1):  # the last (rightmost) op of this level
                t = ops[k]
                if t.value in _BIT_LEVELS[level]:
                    a, b = build(lo, k, level), build(k + 1, hi, level + 1)
                    return self.binop(t.value, a, b, t.line, t.column)
            return build(lo, hi, level + 1)

        return build(0, len(operands) - 1, 0)

    def e_power(self, node):
        base, op, exp = node.children
        if isinstance(exp, Tree) and exp.data == "power":
            raise Unsupported("a ^ b ^ c")
        return self.binop(op.value, self.expr(base), self.expr(exp), op.line, op.column)

    def e_unary(self, node):
        return _negated(self, node)

    def compare(self, op_node, a, b):
        """`a op b` of the comparison operator node op_node, guarded."""
        op = " ".join(tok.value for tok in op_node.children)
        line, col = op_node.children[0].line, op_node.children[0].column
        if op in ("is", "is not"):
            return at(
                ast.Compare(left=a, ops=[ast.Is() if op == "is" else ast.IsNot()], comparators=[b]),
                line,
                col,
            )
        if op not in _CMP:
            fn = self.const(rt.compare_op(op), "compare_" + op.replace(" ", "_"))
            e = self.membership(op, a, b, fn) if "in" in op else _call(fn, a, b)  # (fast_calls.py)
            return at(e, line, col)
        if _known_int(a) and _known_int(b):  # two ints of the specialized body
            return at(ast.Compare(left=a, ops=[_CMP[op]()], comparators=[b]), line, col)
        fallback = self.const(rt.compare_op(op), "compare_" + _op_key(op))
        bc = b.value if isinstance(b, ast.Constant) else _NOT
        a1, a2 = self._once(a)
        b1, b2 = self._once(b)
        t = self.tmp()
        if bc is not _NOT and type(bc) in (int, float):
            guard = _or(
                _is(
                    _type_of(t, a1),
                    _h("int"),
                ),
                _is(_name(t), _h("float")),
            )
        else:  # both evaluated, in order, by the first test; mixed kinds by the function
            guard = _and(
                _is(
                    _type_of(t, a1),
                    _call(_h("type"), b1),
                ),
                _or(_is(_name(t), _h("int")), _is(_name(t), _h("float"))),
            )
        e = ast.IfExp(
            test=guard,
            body=ast.Compare(left=a2, ops=[_CMP[op]()], comparators=[b2]),
            # (two objects of one class: fast_objects.object_compare)
            orelse=self.object_compare(op, a2, b2, t, fallback, line, col)
            if bc is _NOT
            else _call(fallback, a2, b2),
        )
        e.gc_compare = True  # (its guarded branch gives a bool: `truth` tests only the other)
        return at(e, line, col)

    def truth(self, e):
        """Python truth of e as rt.truth gives it (a bool as it is)."""
        if isinstance(e, ast.Compare):  # numbers compared, `is`: a bool
            return e
        if getattr(e, "gc_compare", False):
            return ast.IfExp(test=e.test, body=e.body, orelse=self.truth(e.orelse))
        e1, e2 = self._once(e)
        return _truth_of(e1, e2, self.tmp(), self.const(_TRUTHFUL, "truthful"))

    def e_not_(self, node):
        inner = node.children[0]
        line, col = _pos(node)
        self.escapes_in_not(inner, line, col)  # (fast_forms.py)
        return at(ast.UnaryOp(op=ast.Not(), operand=self.truth(self.expr(inner))), line, col)

    def _andor(self, node, is_and):
        line, col = _pos(node)
        self.place_escapes(node.children, line, col)
        items = [self.expr(c) for c in node.children]
        e = items[-1]
        for item in reversed(items[:-1]):
            t = self.tmp()
            test = self.truth(ast.NamedExpr(target=_name(t, ast.Store()), value=item))
            e = (
                ast.IfExp(test=test, body=e, orelse=_name(t))
                if is_and
                else ast.IfExp(test=test, body=_name(t), orelse=e)
            )
        return at(e, line, col)

    def e_and_(self, node):
        return self._andor(node, True)

    def e_or_(self, node):
        return self._andor(node, False)

    def e_ternary(self, node):
        line, col = _pos(node)
        self.place_escapes(node.children, line, col)
        a, cond, b = (self.expr(c) for c in node.children)
        return at(ast.IfExp(test=self.truth(cond), body=a, orelse=b), line, col)

    def e_call(self, node):
        func, args = node.children
        if isinstance(func, Tree) and func.data == "getattr":
            return self.method_call(node)  # (fast_objects.py)
        if not (isinstance(func, Tree) and func.data == "name"):
            raise Unsupported("call of a value")
        name = func.children[0].value
        if self.cached:
            raise Unsupported("a call in a loop whose variables are cached")
        if name == "super" and args is None:
            return self.zero_arg_super(node)  # (fast_forms.py)
        if name in ("locals", "globals", "vars", "eval", "exec", "currentframe"):
            raise Unsupported("call that reads its scope")
        if args is not None and any(
            isinstance(a, Tree) and a.data in ("kwarg", "star_arg", "kwstar_arg")
            for a in args.children
        ):
            return self.keyword_call(node)  # (fast_items.py; with `*`: fast_forms.py)
        parts = []
        for a in args.children if args is not None else ():
            if a is None:
                continue
            if not isinstance(a, Tree) or a.data in ("kwarg", "star_arg", "kwstar_arg", "starargs"):
                raise Unsupported("keyword or star argument")
            if a.data in ("argvalue",):
                raise Unsupported("argument")
            parts.append(self.expr(a))
        line, col = _pos(node)
        if name == self.self_name:  # the function itself (checked when the call started),
            # one call deeper: the calls left below the limit (fast_tier._self_fn_def)
            left = ast.BinOp(left=_name("@r"), op=ast.Sub(), right=ast.Constant(1))
            return self._int(at(_call(_name("@def " + name + " self"), *parts, left), line, col))
        own = self.own_def
        if own is not None and name == own[0] and len(parts) == own[2]:
            # the nested function itself, held by its variable (UserFunction.fast)
            return at(_call(_name(own[1]), *parts), line, col)
        fn = self.load(func.children[0])
        f, ft = self.tmp(), self.tmp()  # (the callee, its type)
        fname = self.const(BareName(name), "name_" + str(self.n))
        builtin, callee = self.builtin_form(name, f, fn, parts, fname, line, col, args)
        fast = ast.Call(
            func=ast.Attribute(value=_name(f), attr="fast", ctx=ast.Load()), args=parts, keywords=[]
        )
        pargs = ast.Tuple(elts=[_copy(p) for p in parts], ctx=ast.Load())
        if self.info is None:
            slow = _call(
                _h("plain_call"), _name(f), pargs, fname, ast.Constant(line), ast.Constant(col)
            )
        else:
            slow = _call(
                _h("frame_call"), _name(f), pargs, fname, ast.Constant(line), ast.Constant(col)
            )
        test = _and(
            _is(_type_of(ft, callee), _h("UserFunction")),
            ast.Compare(
                left=ast.Attribute(value=_name(f), attr="fastn", ctx=ast.Load()),
                ops=[ast.Eq()],
                comparators=[ast.Constant(len(parts))],
            ),
        )
        slow = self.class_call(f, ft, parts, slow, fname, line, col, test, fast)  # (fast_objects)
        e = self.builtin_first(builtin, f, fn, slow)
        return at(e, line, col)

    # ------------------------------------------------------------- statements
