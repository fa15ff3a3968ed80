"""Random plain-Python programs for the differential test against CPython
(tests/differential/pyrun.py runs them; scripts/pydifftest.py and
tests/differential/test_plain_python_diff.py use both).

`program(seed)` is a deterministic function of the seed: a program that terminates,
is well-typed enough to run mostly without errors, and prints what it computes. It
draws on numbers (ints, floats, bools, with `//`, `%`, `**` on mixed operands),
strings and f-strings with format specs (str.format with indexed fields too), lists, tuples, dicts and sets, comparisons
(chained too), `if`/`while`/`for` with `break`/`continue`/`else`, functions with
defaults, `*args`, keyword-only parameters and `**kwargs`, bounded recursion,
closures and `nonlocal`, `lambda`, comprehensions (nested, with conditions),
generators, classes with operator and protocol methods, inheritance and `super()`,
`try`/`except`/`else`/`finally` with Python's built-in exceptions (whose messages are
printed), and the built-ins (`len`, `range`, `sorted`, `min`/`max` with `key`, `sum`,
`enumerate`, `zip`, `abs`, `round`, `int`/`float`/`str`, `isinstance` ...), hex, octal,
binary and underscored literals, numbers' attributes (`bit_length`, `real`, `hex` ...),
frozenset, iterators' `__next__`, `itertools.groupby`, `Counter.most_common`, a
namedtuple's `_replace`, and built-ins called with keywords Python refuses. Code is
generated both at the top level and inside functions (which the fast tier compiles).

Left out, because the language defines them otherwise (the README's "How gradcli
differs from Python and PyTorch", and SPEC.md's operators and edge values):

* `^`, which is power in gradcli (never exclusive or);
* numbers at the edges, which are values as in PyTorch, not Python's errors: `/` by
  zero is inf (every `/` here divides by `(d or 1)`), a float `//` or `%` by zero nan,
  an overflowing `**` inf, a negative number to a fractional power nan (bases of such
  powers are `abs(...)`), an int past the size limit inf; an int `//` or `%` by zero
  stays in (it raises as in Python);
* a list (or tuple) with a number or another kind of sequence under an operator, which
  is tensor arithmetic in gradcli (`[1, 2] * 2.5`, `[1] + (2,)`): a list meets only a
  list, `*` an int;
* a bare expression at the top level, which gradcli displays as Jupyter does (every
  result is printed with `print`);
* generators' `send`/`throw`/`close` and the other features the language lists as out
  (`__getattr__`, `__new__`, metaclasses, `:=`, `match`, `async`, `__dict__` ...);
* sets of strings printed unsorted (their order depends on the hash seed, in CPython
  itself from one run to the next).
"""

from __future__ import annotations

import random

from differential import pyblocks

TYPES = ("int", "float", "bool", "str", "list", "tuple", "dict", "set")
WORDS = ("a", "ab", "xyz", "hello", "Py", "", " pad ", "3", "42", "x-y", "a,b,c", "Zz", "b a")
KEYS = ("a", "b", "c", "k", "key", "x", "y")


class Gen(pyblocks.Blocks):
    """One program's generator: `self.r` is its random stream, `self.out` its lines."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.out = []
        self.ind = 0
        self.count = 0
        # scopes: a stack of layers {name: type}; a layer marked by "#fn" starts a
        # function (names above it are read, never assigned, inside)
        self.scopes = [{}]
        self.readonly = set()
        self.in_loop = 0
        self.in_fstring = False
        self.classes = []  # pyblocks.ClassInfo of the classes defined so far
        self.funcs = []  # (name, signature maker) of plain functions defined so far

    # ------------------------------------------------------------------ plumbing

    def emit(self, line):
        self.out.append("    " * self.ind + line)

    def fresh(self, prefix="v"):
        self.count += 1
        return f"{prefix}{self.count}"

    def chance(self, p):
        return self.r.random() < p

    def pick(self, seq):
        return seq[self.r.randrange(len(seq))]

    def visible(self, t=None):
        seen = {}
        for layer in self.scopes:
            for k, v in layer.items():
                if k != "#fn":
                    seen[k] = v
        return sorted(k for k, v in seen.items() if t is None or v == t)

    def assignable(self, t):
        names = []
        for layer in reversed(self.scopes):
            names += [k for k, v in layer.items() if v == t and k not in self.readonly]
            if "#fn" in layer:
                break
        return sorted(set(names))

    def declare(self, name, t):
        self.scopes[-1][name] = t

    def push(self, fn=False):
        self.scopes.append({"#fn": True} if fn else {})

    def pop(self):
        self.scopes.pop()

    def var(self, t):
        names = self.visible(t)
        return self.pick(names) if names else None

    # ------------------------------------------------------------------ expressions

    def expr(self, t, d=2):
        for _ in range(20):
            s = getattr(self, "e_" + t)(d)
            if s is not None:
                return s
        return getattr(self, "lit_" + t)()

    def num(self, d=2):
        return self.expr(self.pick(("int", "int", "float")), d)

    def lit_int(self):
        r = self.r.random()
        if r < 0.08:  # in another base, or with underscores
            v = self.r.randint(0, 300)
            return self.pick((hex(v), oct(v), bin(v), f"{v:_}", f"1_{v:03d}", hex(v).upper()))
        if r < 0.7:
            return str(self.r.randint(-9, 12))
        if r < 0.95:
            return str(self.r.randint(-1000, 100000))
        return str(self.pick((2**31 - 1, 2**40 + 3, -(2**62), 10**20 + 7)))

    def lit_float(self):
        return self.pick(
            ("0.5", "2.25", "-1.75", "3.0", "0.1", "1e-3", "1.5e3", "-0.0", "7.125", "0.3", "2.5")
        )

    def lit_bool(self):
        return self.pick(("True", "False"))

    def lit_str(self):
        return repr(self.pick(WORDS))

    def lit_list(self):
        return "[" + ", ".join(self.lit_int() for _ in range(self.r.randint(0, 5))) + "]"

    def lit_tuple(self):
        n = self.r.randint(0, 4)
        items = [self.lit_int() for _ in range(n)]
        return "(" + ", ".join(items) + ("," if n == 1 else "") + ")"

    def lit_dict(self):
        keys = self.r.sample(KEYS, self.r.randint(0, 4))
        return "{" + ", ".join(f"{k!r}: {self.lit_int()}" for k in keys) + "}"

    def lit_set(self):
        if self.chance(0.15):
            return "set()"
        return "{" + ", ".join(self.lit_int() for _ in range(self.r.randint(1, 5))) + "}"

    def nz(self, t, d):
        """A divisor that is never zero (`/` by zero is inf in gradcli)."""
        if self.chance(0.5):
            return self.pick(("3", "-2", "7", "2.5", "-0.5", "4")) if t == "num" else "3"
        e = self.expr(t if t != "num" else self.pick(("int", "float")), d)
        return f"({e} or {self.pick(('1', '2', '1.5'))})"

    def e_int(self, d):
        r = self.r.random()
        v = self.var("int")
        if d <= 0 or r < 0.15:
            return v if v and self.chance(0.6) else self.lit_int()
        a = lambda: self.expr("int", d - 1)  # noqa: E731
        choices = [
            lambda: f"({a()} {self.pick(('+', '-', '*'))} {a()})",
            lambda: f"({a()} {self.pick(('//', '%'))} {self.nz('int', d - 1)})",
            lambda: f"({a()} {self.pick(('//', '%'))} {self.pick(('3', '-4', '7'))})",
            lambda: f"({self.leaf('int')} ** {self.r.randint(0, 3)})",
            lambda: f"(-{a()})",
            lambda: f"abs({a()})",
            lambda: self.chain("int", d),
            lambda: f"len({self.expr(self.pick(('str', 'list', 'tuple', 'dict', 'set')), d - 1)})",
            lambda: f"int({self.expr('float', d - 1)})",
            lambda: f"round({self.expr('float', d - 1)})",
            lambda: f"sum({self.expr('list', d - 1)})",
            lambda: f"{self.pick(('min', 'max'))}({a()}, {a()})",
            lambda: f"{self.pick(('min', 'max'))}({self.expr('list', d - 1)}, default={a()})",
            lambda: f"({a()} if {self.expr('bool', d - 1)} else {a()})",
            lambda: f"({self.expr('bool', d - 1)} + {a()})",
            lambda: (
                f"pow({self.leaf('int')}, {self.r.randint(0, 5)}, {self.pick(('7', '10', '-3'))})"
            ),
            lambda: self.index_expr(d),
            lambda: f"{self.expr('dict', d - 1)}.get({self.lit_str_key()}, {a()})",
            lambda: f"{self.expr('str', d - 1)}.{self.pick(('find', 'count'))}({self.lit_str()})",
            lambda: f"int({self.pick(('1', '-7', '  12 ', '0', '+3'))!r})",
            lambda: f"divmod({a()}, {self.nz('int', d - 1)})[{self.r.randint(0, 1)}]",
            lambda: f"ord({self.pick('aZ3 ~')!r})",
            lambda: f"{self.expr('list', d - 1)}.count({a()})",
            lambda: f"({a()} {self.pick(('&', '|', '<<', '>>'))} {self.r.randint(0, 5)})",
            lambda: self.call_of("int", d),
        ]
        return self.pick(choices)()

    def e_float(self, d):
        v = self.var("float")
        if d <= 0 or self.chance(0.15):
            return v if v and self.chance(0.6) else self.lit_float()
        a = lambda: self.expr("float", d - 1)  # noqa: E731
        n = lambda: self.num(d - 1)  # noqa: E731
        choices = [
            lambda: f"({a()} {self.pick(('+', '-', '*'))} {n()})",
            lambda: f"({n()} {self.pick(('+', '-', '*'))} {a()})",
            lambda: f"({n()} / {self.nz('num', d - 1)})",
            lambda: f"({a()} {self.pick(('//', '%'))} {self.nz('num', d - 1)})",
            lambda: f"({self.leaf('float')} ** {self.r.randint(0, 3)})",
            lambda: f"(abs({n()}) ** {self.pick(('0.5', '1.5', '0.25', '2.0'))})",
            lambda: self.negpow(),
            lambda: f"(-{a()})",
            lambda: f"abs({a()})",
            lambda: f"float({self.expr('int', d - 1)})",
            lambda: f"float({self.pick(('1.5', '-2', ' 3.25 ', '1e3', 'inf', '-0'))!r})",
            lambda: f"round({a()}, {self.r.randint(0, 3)})",
            lambda: f"{self.pick(('min', 'max'))}({a()}, {n()}, {a()})",
            lambda: f"({a()} if {self.expr('bool', d - 1)} else {a()})",
            lambda: self.chain("float", d),
            lambda: f"sum([{a()}, {n()}], {a()})",
            lambda: (
                f"math.{self.pick(('sqrt', 'floor', 'fabs'))}(abs({n()}))" if self.math else None
            ),
            lambda: self.call_of("float", d),
        ]
        return self.pick(choices)()

    def negpow(self):
        b = self.leaf("int")
        return f"({b} ** -{self.r.randint(1, 2)} if {b} else 0.5)"

    def chain(self, t, d):
        """Leaves joined by operators without parentheses: Python's precedence decides."""
        parts = [self.leaf(t)]
        for _ in range(self.r.randint(1, 4)):
            op = self.pick(("+", "-", "*", "+", "//", "%", "*"))
            if op in ("//", "%"):
                parts += [
                    op,
                    self.pick(("3", "5", "-2", "2.5") if t == "float" else ("3", "5", "-2")),
                ]
            else:
                parts += [op, self.leaf(self.pick((t, "int")))]
        if self.chance(0.2):
            parts = ["-"] + parts
            return "(" + "".join(parts[:2]) + " " + " ".join(parts[2:]) + ")"
        return "(" + " ".join(parts) + ")"

    def leaf(self, t):
        v = self.var(t)
        return v if v and self.chance(0.6) else getattr(self, "lit_" + t)()

    def lit_str_key(self):
        return repr(self.pick(KEYS))

    def index_expr(self, d):
        t = self.pick(("list", "tuple"))
        c = self.expr(t, d - 1)
        i = self.expr("int", d - 1)
        if self.chance(0.5):
            return f"({c}[{i} % len({c})] if {c} else 0)"
        return f"({c}[{self.r.randint(-1, 0)}] if {c} else -1)"

    def e_bool(self, d):
        if d <= 0 or self.chance(0.1):
            v = self.var("bool")
            return v if v and self.chance(0.5) else self.lit_bool()
        cmp = ("<", "<=", ">", ">=", "==", "!=")
        n = lambda: self.num(d - 1)  # noqa: E731
        choices = [
            lambda: f"({n()} {self.pick(cmp)} {n()})",
            lambda: f"({n()} {self.pick(cmp)} {n()} {self.pick(cmp)} {n()})",
            lambda: f"({self.expr('str', d - 1)} {self.pick(cmp)} {self.expr('str', d - 1)})",
            lambda: f"({self.expr('list', d - 1)} {self.pick(cmp)} {self.expr('list', d - 1)})",
            lambda: f"({self.expr('tuple', d - 1)} {self.pick(cmp)} {self.expr('tuple', d - 1)})",
            lambda: f"(not {self.expr('bool', d - 1)})",
            lambda: (
                f"({self.expr('bool', d - 1)} {self.pick(('and', 'or'))} {self.expr('bool', d - 1)})"
            ),
            lambda: (
                f"({self.expr('int', d - 1)} {self.pick(('in', 'not in'))} {self.expr(self.pick(('list', 'set', 'tuple')), d - 1)})"
            ),
            lambda: f"({self.lit_str_key()} in {self.expr('dict', d - 1)})",
            lambda: f"({self.expr('str', d - 1)} in {self.expr('str', d - 1)})",
            lambda: (
                f"isinstance({self.expr(self.pick(TYPES[:5]), d - 1)}, {self.pick(('int', 'float', 'str', 'list', 'bool', '(int, float)', 'tuple', 'dict'))})"
            ),
            lambda: f"bool({self.expr(self.pick(TYPES), d - 1)})",
            lambda: f"{self.pick(('any', 'all'))}({self.expr('list', d - 1)})",
            lambda: (
                f"{self.pick(('any', 'all'))}(x > {self.lit_int()} for x in {self.expr('list', d - 1)})"
            ),
            lambda: (
                f"{self.expr('str', d - 1)}.{self.pick(('startswith', 'endswith'))}({self.lit_str()})"
            ),
            lambda: (
                f"{self.expr('str', d - 1)}.{self.pick(('isdigit', 'isalpha', 'isupper', 'islower', 'isspace'))}()"
            ),
            lambda: (
                f"({self.expr('set', d - 1)} {self.pick(('<=', '<', '>=', '=='))} {self.expr('set', d - 1)})"
            ),
            lambda: f"({self.expr(self.pick(TYPES), d - 1)} is None)",
            lambda: f"({self.expr('dict', d - 1)} == {self.expr('dict', d - 1)})",
        ]
        return self.pick(choices)()

    def e_str(self, d):
        if d <= 0 or self.chance(0.15):
            v = self.var("str")
            return v if v and self.chance(0.6) else self.lit_str()
        s = lambda: self.expr("str", d - 1)  # noqa: E731
        choices = [
            lambda: f"({s()} + {s()})",
            lambda: f"({s()} * {self.r.randint(-1, 3)})",
            lambda: f"{s()}[{self.r.randint(-4, 4)}:{self.pick(('', '2', '-1', '5'))}]",
            lambda: f"{s()}[::{self.pick(('-1', '2', '-2'))}]",
            lambda: (
                f"{s()}.{self.pick(('upper', 'lower', 'strip', 'title', 'capitalize', 'swapcase', 'lstrip'))}()"
            ),
            lambda: f"{s()}.replace({self.lit_str()}, {self.lit_str()})",
            lambda: f"str({self.expr(self.pick(TYPES), d - 1)})",
            lambda: f"repr({self.expr(self.pick(TYPES), d - 1)})",
            lambda: None if self.in_fstring else self.fstring(d),
            lambda: (
                f"{self.pick((repr(','), repr(' '), repr('-'), repr('')))}.join({self.strs(d - 1)})"
            ),
            lambda: self.str_index(d),
            lambda: f"chr(65 + {self.expr('int', d - 1)} % 26)",
            lambda: (
                f"format({self.expr('float', d - 1)}, {self.pick(('.2f', '>8.1f', 'e', '.3g', '+.1f'))!r})"
            ),
            lambda: (
                f"('%d-%s|%.2f' % ({self.expr('int', d - 1)}, {s()}, {self.expr('float', d - 1)}))"
            ),
            lambda: f"{s()}.{self.pick(('center', 'ljust', 'rjust'))}({self.r.randint(0, 9)}, '*')",
            lambda: f"{s()}.zfill({self.r.randint(0, 6)})",
            lambda: f"({s()} if {self.expr('bool', d - 1)} else {s()})",
            lambda: self.call_of("str", d),
        ]
        return self.pick(choices)()

    def str_index(self, d):
        s = self.expr("str", d - 1)
        return f"({s}[{self.expr('int', d - 1)} % len({s})] if {s} else '?')"

    def strs(self, d):
        """An expression for a list of strings."""
        return self.pick(
            (
                lambda: f"[str(x) for x in {self.expr('list', d)}]",
                lambda: f"{self.expr('str', d)}.split({self.pick(('', repr(','), repr(' ')))})",
                lambda: f"sorted({self.expr('dict', d)})",
                lambda: f"list({self.expr('str', d)})",
                lambda: "[" + ", ".join(self.lit_str() for _ in range(self.r.randint(0, 3))) + "]",
            )
        )()

    def fstring(self, d):
        self.in_fstring = True
        try:
            parts = []
            for _ in range(self.r.randint(1, 3)):
                parts.append(self.pick(("", "x=", " | ", "{{", "}}", "a b ")))
                t = self.pick(("int", "float", "str", "bool", "list"))
                e = self.expr(t, d - 1)
                spec = ""
                if t == "int":
                    spec = self.pick(
                        ("", ":05d", ":+d", ":x", ":>6", ":,", ":<4", ":b", ":.2f", ":^7")
                    )
                elif t == "float":
                    spec = self.pick(
                        ("", ":.3f", ":10.2e", ":.1%", ":g", ":>9.2f", ":+.0f", ":,.2f")
                    )
                elif t == "str":
                    spec = self.pick(("", ":^9", ":>5", ":<6", "!r", ":.2"))
                if self.chance(0.1) and e.isidentifier():
                    parts.append("{" + e + "=}")
                else:
                    parts.append("{" + (" " if e.startswith("{") else "") + e + spec + "}")
            return 'f"' + "".join(parts) + '"'
        finally:
            self.in_fstring = False

    def e_list(self, d):
        if d <= 0 or self.chance(0.15):
            v = self.var("list")
            return v if v and self.chance(0.6) else self.lit_list()
        lst = lambda: self.expr("list", d - 1)  # noqa: E731
        x = "x"
        choices = [
            lambda: f"({lst()} + {lst()})",
            lambda: (
                f"sorted({lst()}{self.pick(('', ', reverse=True', ', key=abs', ', key=lambda x: (x % 3, -x)', ', key=lambda x: -x'))})"
            ),
            lambda: f"[{self.sub_expr('int', x, d)} for {x} in {lst()}{self.cond_for(x, d)}]",
            lambda: f"[{self.sub_expr('int', x, d)} for {x} in range({self.r.randint(0, 6)})]",
            lambda: (
                f"[x * y for x in {lst()} for y in range({self.r.randint(0, 3)}) if (x + y) % 2]"
            ),
            lambda: (
                f"list(range({self.r.randint(-3, 3)}, {self.r.randint(-2, 9)}, {self.pick(('1', '2', '-1', '3'))}))"
            ),
            lambda: f"{lst()}[{self.pick(('1', '-2', '', '0'))}:{self.pick(('', '3', '-1'))}]",
            lambda: f"{lst()}[::{self.pick(('-1', '2'))}]",
            lambda: f"list(reversed({lst()}))",
            lambda: f"list(map(lambda x: {self.sub_expr('int', x, d)}, {lst()}))",
            lambda: f"list(filter(lambda x: {self.sub_expr('bool', x, d)}, {lst()}))",
            lambda: f"([{self.expr('int', d - 1)}] * {self.r.randint(0, 3)})",
            lambda: f"sorted({self.expr('set', d - 1)})",
            lambda: f"list({self.expr('tuple', d - 1)})",
            lambda: f"[i + v for i, v in enumerate({lst()}{self.pick(('', ', 1', ', start=-2'))})]",
            lambda: f"[a - b for a, b in zip({lst()}, {lst()})]",
            lambda: f"list({self.expr('dict', d - 1)}.values())",
            lambda: f"[len(w) for w in {self.strs(d - 1)}]",
            lambda: self.call_of("list", d),
        ]
        return self.pick(choices)()

    def sub_expr(self, t, x, d):
        """An expression of type t over the int `x` (a comprehension's or lambda's)."""
        self.push()
        self.declare(x, "int")
        self.readonly.add(x)
        try:
            return self.expr(t, max(d - 1, 1))
        finally:
            self.readonly.discard(x)
            self.pop()

    def cond_for(self, x, d):
        if self.chance(0.5):
            return ""
        return f" if {self.sub_expr('bool', x, d)}"

    def e_tuple(self, d):
        if d <= 0 or self.chance(0.2):
            v = self.var("tuple")
            return v if v and self.chance(0.6) else self.lit_tuple()
        choices = [
            lambda: f"tuple({self.expr('list', d - 1)})",
            lambda: f"({self.expr('int', d - 1)}, {self.expr('int', d - 1)})",
            lambda: f"({self.expr('tuple', d - 1)} + {self.expr('tuple', d - 1)})",
            lambda: (
                f"{self.expr('tuple', d - 1)}[{self.pick(('1', '-2', ''))}:{self.pick(('', '2'))}]"
            ),
            lambda: f"divmod({self.expr('int', d - 1)}, {self.nz('int', d - 1)})",
            lambda: f"tuple(sorted({self.expr('set', d - 1)}))",
            lambda: f"tuple(x % 5 for x in {self.expr('list', d - 1)})",
        ]
        return self.pick(choices)()

    def e_dict(self, d):
        if d <= 0 or self.chance(0.2):
            v = self.var("dict")
            return v if v and self.chance(0.6) else self.lit_dict()
        choices = [
            lambda: (
                f"{{k: {self.sub_expr('int', 'v', d)} for k, v in {self.expr('dict', d - 1)}.items()}}"
            ),
            lambda: (
                f"dict(zip({self.pick([repr(KEYS[:n]) for n in range(1, 6)])}, {self.expr('list', d - 1)}))"
            ),
            lambda: (
                f"{{**{self.expr('dict', d - 1)}, {self.lit_str_key()}: {self.expr('int', d - 1)}}}"
            ),
            lambda: f"{{str(x): x for x in {self.expr('list', d - 1)}}}",
            lambda: f"({self.expr('dict', d - 1)} | {self.expr('dict', d - 1)})",
            lambda: f"dict(sorted({self.expr('dict', d - 1)}.items()))",
        ]
        return self.pick(choices)()

    def e_set(self, d):
        if d <= 0 or self.chance(0.2):
            v = self.var("set")
            return v if v and self.chance(0.6) else self.lit_set()
        s = lambda: self.expr("set", d - 1)  # noqa: E731
        choices = [
            lambda: f"set({self.expr('list', d - 1)})",
            lambda: f"({s()} {self.pick(('|', '&', '-'))} {s()})",
            lambda: f"{{x % 4 for x in {self.expr('list', d - 1)}}}",
            lambda: (
                f"{s()}.{self.pick(('union', 'intersection', 'difference'))}({self.expr('list', d - 1)})"
            ),
        ]
        return self.pick(choices)()

    def call_of(self, t, d):
        """A call of a function of the program that returns t, with arguments it takes."""
        fs = [f for f in self.funcs if f[1] == t]
        if not fs or d <= 0:
            return None
        name, _, make = self.pick(fs)
        return make(d - 1)

    # ------------------------------------------------------------------ statements

    def program(self):
        self.math = self.chance(0.4)
        if self.math:
            self.emit("import math")
        for t in self.r.sample(TYPES, 5):
            name = self.fresh(t[0])
            self.emit(f"{name} = {self.expr(t, 1)}")
            self.declare(name, t)
        for _ in range(self.r.randint(4, 9)):
            self.top_item()
        self.emit(f"print('end', {', '.join(self.visible()[:6])})")
        if self.chance(0.05):
            self.emit(self.pick(pyblocks.UNCAUGHT))
        return "\n".join(self.out) + "\n"

    def top_item(self):
        kind = self.r.choices(
            ("stmts", "func", "class", "try", "gen", "closure", "rec", "wrapped", "misc", "more")
            + ("gaps",),
            (3, 3, 2, 2, 2, 1.5, 1, 2, 1.5, 2, 2),
        )[0]
        getattr(self, "b_" + kind)()

    def b_stmts(self):
        for _ in range(self.r.randint(1, 4)):
            self.stmt(2)

    def b_wrapped(self):
        """Statements inside a function that is then called (the fast tier's ground)."""
        name = self.fresh("run")
        self.emit(f"def {name}():")
        self.ind += 1
        self.push(fn=True)
        for t in self.r.sample(TYPES, 3):
            v = self.fresh(t[0])
            self.emit(f"{v} = {self.expr(t, 1)}")
            self.declare(v, t)
        for _ in range(self.r.randint(2, 5)):
            self.stmt(2)
        ret = self.pick(self.assignable(self.pick(TYPES)) or ["None"])
        self.emit(f"return {ret}")
        self.pop()
        self.ind -= 1
        self.emit(f"print({name}())")

    def stmt(self, depth):
        kinds = ["assign", "assign", "print", "print", "aug", "mutate"]
        if depth > 0:
            kinds += ["if", "for", "while", "for"]
        getattr(self, "s_" + self.pick(kinds))(depth)

    def body(self, depth, n=None):
        self.ind += 1
        self.push()
        for _ in range(n or self.r.randint(1, 3)):
            self.stmt(depth - 1)
        self.pop()
        self.ind -= 1

    def tame(self, t, e):
        """An expression kept small where a loop may apply it again and again."""
        if not self.in_loop:
            return e
        if t == "int":
            return f"({e}) % 1009"
        if t == "float":
            return f"({e}) % 97.5"
        if t in ("str", "list", "tuple"):
            return f"({e})[:12]"
        return e

    def s_assign(self, depth):
        t = self.pick(TYPES)
        old = self.assignable(t)
        if old and self.chance(0.5):
            name = self.pick(old)
            self.emit(f"{name} = {self.tame(t, self.expr(t))}")
        else:
            name = self.fresh(t[0])
            self.emit(f"{name} = {self.expr(t)}")
            self.declare(name, t)
        if self.chance(0.3):
            if t in ("list", "tuple") and self.chance(0.5):
                a, b = self.fresh("u"), self.fresh("u")
                self.emit(f"{a}, *{b} = {name} or [0]")
                self.emit(f"print({a}, {b})")

    def s_print(self, depth):
        items = [self.expr(self.pick(TYPES)) for _ in range(self.r.randint(1, 3))]
        extra = self.pick(("", "", "", ", sep=':'", ", end='!\\n'", ", sep=''"))
        self.emit(f"print({', '.join(items)}{extra})")

    def s_aug(self, depth):
        t = self.pick(("int", "int", "float", "str", "list"))
        names = self.assignable(t)
        if not names:
            return self.s_assign(depth)
        name = self.pick(names)
        if t == "int":
            op = self.pick(("+=", "-=", "*=", "//=", "%=", "|=", "&="))
            rhs = self.nz("int", 1) if op in ("//=", "%=") else self.expr("int", 1)
            if op == "*=" and self.in_loop:
                rhs = "2"
        elif t == "float":
            op = self.pick(("+=", "-=", "*=", "/=", "//=", "%="))
            rhs = self.nz("num", 1) if op in ("/=", "//=", "%=") else self.num(1)
            if op == "*=" and self.in_loop:
                rhs = "0.5"
        elif t == "str":
            op, rhs = "+=", self.expr("str", 1)
        else:
            op, rhs = "+=", self.expr("list", 1)
        self.emit(f"{name} {op} {rhs}")
        if self.in_loop and t in ("str", "list", "int", "float"):
            self.emit(f"{name} = {self.tame(t, name)}")

    def s_mutate(self, depth):
        t = self.pick(("list", "dict", "set"))
        names = self.visible(t)
        if not names:
            return self.s_assign(depth)
        n = self.pick(names)
        i = self.expr("int", 1)
        if t == "list":
            stmt = self.pick(
                (
                    f"{n}.append({i})",
                    f"{n}.extend({self.expr('list', 1)})",
                    f"{n}.insert({self.r.randint(-2, 3)}, {i})",
                    f"{n}.sort({self.pick(('', 'reverse=True', 'key=lambda x: x % 4'))})",
                    f"{n}.reverse()",
                    f"if {n}:\n{'    ' * (self.ind + 1)}{n}[{i} % len({n})] = {self.expr('int', 1)}",
                    f"if {n}:\n{'    ' * (self.ind + 1)}print({n}.pop())",
                    f"{n}[1:3] = {self.expr('list', 1)}",
                    f"if {n}:\n{'    ' * (self.ind + 1)}del {n}[0]",
                )
            )
            if self.in_loop:
                stmt += f"\n{'    ' * self.ind}del {n}[12:]"
        elif t == "dict":
            k = self.lit_str_key()
            stmt = self.pick(
                (
                    f"{n}[{k}] = {i}",
                    f"{n}[{k}] = {n}.get({k}, 0) + {i}",
                    f"print({n}.setdefault({k}, {i}))",
                    f"{n}.update({self.expr('dict', 1)})",
                    f"print({n}.pop({k}, None))",
                    f"if {k} in {n}:\n{'    ' * (self.ind + 1)}del {n}[{k}]",
                )
            )
        else:
            stmt = self.pick(
                (f"{n}.add({i})", f"{n}.discard({i})", f"{n}.update({self.expr('list', 1)})")
            )
            if n in self.assignable("set") and self.chance(0.3):
                stmt = f"{n} |= {self.expr('set', 1)}"
        for line in stmt.split("\n"):
            self.out.append(line if line.startswith(" ") else "    " * self.ind + line)

    def s_if(self, depth):
        self.emit(f"if {self.expr('bool')}:")
        self.body(depth)
        for _ in range(self.r.randint(0, 2)):
            self.emit(f"elif {self.expr('bool')}:")
            self.body(depth)
        if self.chance(0.5):
            self.emit("else:")
            self.body(depth)

    def loop_body(self, depth):
        self.in_loop += 1
        self.ind += 1
        self.push()
        n = self.r.randint(1, 3)
        for k in range(n):
            if self.chance(0.25):
                kw = self.pick(("break", "continue"))
                self.emit(f"if {self.expr('bool', 1)}:")
                self.emit(f"    {kw}")
            self.stmt(depth - 1)
        self.pop()
        self.ind -= 1
        self.in_loop -= 1

    def s_for(self, depth):
        x = self.fresh("i")
        r = self.r.random()
        if r < 0.3:
            self.emit(f"for {x} in range({self.r.randint(-1, 2)}, {self.r.randint(0, 6)}):")
            t = "int"
        elif r < 0.5:
            self.emit(f"for {x} in {self.expr('list', 1)}:")
            t = "int"
        elif r < 0.6:
            self.emit(f"for {x} in {self.expr('str', 1)}:")
            t = "str"
        elif r < 0.75:
            k = self.fresh("k")
            self.emit(f"for {k}, {x} in enumerate({self.expr('list', 1)}):")
            self.push()
            self.declare(k, "int")
            self.readonly.add(k)
            t = "int"
        elif r < 0.9:
            k = self.fresh("k")
            self.emit(f"for {k}, {x} in {self.expr('dict', 1)}.items():")
            self.push()
            self.declare(k, "str")
            self.readonly.add(k)
            t = "int"
        else:
            k = self.fresh("k")
            self.emit(f"for {k}, {x} in zip({self.expr('str', 1)}, {self.expr('list', 1)}):")
            self.push()
            self.declare(k, "str")
            self.readonly.add(k)
            t = "int"
        self.push()
        self.declare(x, t)
        self.readonly.add(x)
        self.loop_body(depth)
        self.pop()
        if r >= 0.6:
            self.pop()
        if self.chance(0.3):
            self.emit("else:")
            self.body(depth, 1)

    def s_while(self, depth):
        c = self.fresh("w")
        self.emit(f"{c} = 0")
        self.emit(f"while {c} < {self.r.randint(0, 6)}:")
        self.ind += 1
        self.emit(f"{c} += 1")
        self.ind -= 1
        self.push()
        self.declare(c, "int")
        self.readonly.add(c)
        self.loop_body(depth)
        self.pop()
        if self.chance(0.3):
            self.emit("else:")
            self.body(depth, 1)


def program(seed):
    """The program of one seed (its source text)."""
    return Gen(seed).program()
