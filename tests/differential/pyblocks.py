"""The larger pieces of tests/differential/pygen.py's programs: functions with every kind
of parameter, classes with operator methods, inheritance, exceptions, generators,
closures and recursion (each filled with pygen's random expressions)."""

from __future__ import annotations

from dataclasses import dataclass, field

# statements that end a program with an error nothing catches (its type and message
# are compared)
UNCAUGHT = (
    "raise ValueError('the end')",
    "print([1, 2][5])",
    "print({'a': 1}['b'])",
    "print(int('x1'))",
    "print(1 // 0)",
    "print(undefined_name)",
    "raise RuntimeError(f'stop {1 + 1}')",
    "print(None + 1)",
    "assert 1 > 2, 'assertion text'",
)

# a statement that raises, and the exception types an `except` may name for it
RISKY = (
    ("int({s})", ("ValueError",)),
    ("float({s})", ("ValueError",)),
    ("[1, 2, 3][{i}]", ("IndexError", "LookupError")),
    ("(1, 2)[{i}]", ("IndexError",)),
    ("'abc'[{i}]", ("IndexError",)),
    ("{{'a': 1, 'b': 2}}[{s}]", ("KeyError", "LookupError")),
    ("{n} // {z}", ("ZeroDivisionError", "ArithmeticError")),
    ("{n} % {z}", ("ZeroDivisionError",)),
    ("divmod({n}, {z})", ("ZeroDivisionError",)),
    ("None + {n}", ("TypeError",)),
    ("{s} + {n}", ("TypeError",)),
    ("{n} + {s}", ("TypeError",)),
    ("[1] * {s}", ("TypeError",)),
    ("len({n})", ("TypeError",)),
    ("sorted([1, {s}])", ("TypeError",)),
    ("{{[1]: 2}}", ("TypeError",)),
    ("{s}.nope", ("AttributeError",)),
    ("[3, 4].index({n})", ("ValueError",)),
    ("[3, 4].remove({n})", ("ValueError",)),
    ("[].pop()", ("IndexError",)),
    ("{{}}.pop({s})", ("KeyError",)),
    ("min([])", ("ValueError",)),
    ("max(x for x in [])", ("ValueError",)),
    ("next(iter([]))", ("StopIteration",)),
    ("int(float('inf'))", ("OverflowError",)),
    ("int(float('nan'))", ("ValueError",)),
    ("round(float('nan'))", ("ValueError",)),
    ("ord('ab')", ("TypeError",)),
    ("chr(-1)", ("ValueError",)),
    ('f"{{{s}:d}}"', ("ValueError",)),
    ('f"{{{f}:d}}"', ("ValueError",)),
    ("(1, 2).count()", ("TypeError",)),
    ("'a,b'.split(',', 1, 2)", ("TypeError",)),
    ("{s}.index('q')", ("ValueError",)),
    ("list(range({f}))", ("TypeError",)),
    ("'x' * {f}", ("TypeError",)),
    ("[1, 2][{f}]", ("TypeError",)),
    ("abs('x')", ("TypeError",)),
    ("int([1])", ("TypeError",)),
    ("float(None)", ("TypeError",)),
    ("dict([1, 2])", ("TypeError",)),
    ("set(5)", ("TypeError",)),
    ("tuple(5)", ("TypeError",)),
    ("'%d' % 'x'", ("TypeError",)),
    ("'{{}} {{}}'.format(1)", ("IndexError",)),
    ("math.sqrt(-1)", ("ValueError",)),
    ("math.log(0)", ("ValueError",)),
    ("pow(2, -1, 0)", ("ValueError",)),
    ("[1, 2, 3][::0]", ("ValueError",)),
    ("(lambda a, b: a)(1)", ("TypeError",)),
    ("(lambda a: a)(1, 2)", ("TypeError",)),
    ("(lambda a: a)(b=1)", ("TypeError",)),
    ("sum(['a', 'b'])", ("TypeError",)),
    ("sum([[1], [2]])", ("TypeError",)),
    ("'abc' < 3", ("TypeError",)),
    ("[1] < (1,)", ("TypeError",)),
    ("None < None", ("TypeError",)),
    ("-{s}", ("TypeError",)),
    ("{s} - 'a'", ("TypeError",)),
    ("{{1, 2}}[0]", ("TypeError",)),
    ("int('12', 2)", ("ValueError",)),
    ("isinstance(1, 2)", ("TypeError",)),
    ("zip(1, 2)", ("TypeError",)),
    ("enumerate(5)", ("TypeError",)),
    ("iter(5)", ("TypeError",)),
    ("{n}()", ("TypeError",)),
    ("{s}()", ("TypeError",)),
)


@dataclass
class ClassInfo:
    name: str
    ops: set = field(default_factory=set)
    base: ClassInfo | None = None
    ftype: str = "int"  # the type of the second field, b


class Blocks:
    """pygen.Gen's larger pieces (mixed into it; uses its expressions and statements)."""

    # ------------------------------------------------------------------ functions

    def b_func(self):
        name = self.fresh("f")
        params, calls = [], []  # calls: how to fill each parameter
        scope = {}
        for _ in range(self.r.randint(1, 3)):
            p, t = self.fresh("p"), self.pick(("int", "int", "float", "str", "list"))
            if calls and calls[-1][0] == "default" or self.chance(0.35):
                default = self.expr(t, 0) if t != "list" else self.pick(("[]", "[1]", "None"))
                if default == "None":
                    params.append(f"{p}=None")
                    scope[p] = "list?"
                else:
                    params.append(f"{p}={default}")
                    scope[p] = t
                calls.append(("default", p, t))
            else:
                params.append(p)
                scope[p] = t
                calls.append(("pos", p, t))
        star = self.chance(0.4)
        if star:
            params.append("*args")
            scope["args"] = "tuple"
        kwonly = []
        if self.chance(0.4):
            if not star:
                params.append("*")
            for _ in range(self.r.randint(1, 2)):
                p, t = self.fresh("q"), self.pick(("int", "float", "str"))
                if self.chance(0.7):
                    params.append(f"{p}={self.expr(t, 0)}")
                    kwonly.append((p, t, True))
                else:
                    params.append(p)
                    kwonly.append((p, t, False))
                scope[p] = t
        kw = self.chance(0.3)
        if kw:
            params.append("**kw")
            scope["kw"] = "dict"
        ret = self.pick(("int", "float", "str", "list", "bool"))
        self.emit(f"def {name}({', '.join(params)}):")
        self.ind += 1
        self.push(fn=True)
        for p, t in scope.items():
            if t == "list?":
                self.emit(f"if {p} is None:")
                self.emit(f"    {p} = []")
                t = "list"
            self.declare(p, t)
        if any(t == "list" for t in scope.values()) and self.chance(0.5):
            p = self.pick([p for p, t in scope.items() if t in ("list", "list?")])
            self.emit(f"{p}.append(len({p}))")
        for _ in range(self.r.randint(0, 3)):
            self.stmt(2)
        self.emit(f"return {self.expr(ret)}")
        self.pop()
        self.ind -= 1

        def make(d):
            args = []
            named = False
            for how, p, t in calls:
                if how == "default" and self.chance(0.4):
                    named = True  # (the parameters after a skipped one go by name)
                    continue
                if named or (self.chance(0.2) and not star):
                    named = True
                    args.append(f"{p}={self.expr(t, d)}")
                else:
                    args.append(self.expr(t, d))
            if star and not named:
                args += [self.expr("int", d) for _ in range(self.r.randint(0, 2))]
            for p, t, opt in kwonly:
                if not opt or self.chance(0.5):
                    args.append(f"{p}={self.expr(t, d)}")
            if kw:
                for k in self.r.sample(("x", "y", "zed"), self.r.randint(0, 2)):
                    args.append(f"{k}={self.expr('int', d)}")
            if star and self.chance(0.15) and not named:
                args.append(f"*{self.expr('list', d)}")
            return f"{name}({', '.join(args)})"

        self.funcs.append((name, ret, make))
        for _ in range(self.r.randint(1, 2)):
            self.emit(f"print({make(1)})")

    def b_rec(self):
        n = self.fresh("rec")
        k = self.r.randint(0, 12)
        tpl = self.pick(
            (
                f"def {n}(k):\n    if k < 2:\n        return k\n    return {n}(k - 1) + {n}(k - 2)\n"
                f"print({n}({min(k, 14)}))",
                f"def {n}(k, acc=1):\n    return acc if k <= 1 else {n}(k - 1, acc * k)\n"
                f"print({n}({k * 2}), {n}(3, acc=2))",
                f"def {n}(a, b):\n    while b:\n        a, b = b, a % b\n    return abs(a)\n"
                f"print({n}({self.lit_int()}, {self.lit_int()}))",
                f"def {n}(xs):\n    if not xs:\n        return []\n    head, *tail = xs\n"
                f"    return {n}([x for x in tail if x < head]) + [head] + {n}([x for x in tail if x >= head])\n"
                f"print({n}({self.lit_list()}))",
                f"def {n}(xs):\n    out = []\n    for x in xs:\n        if isinstance(x, list):\n"
                f"            out.extend({n}(x))\n        else:\n            out.append(x)\n    return out\n"
                f"print({n}([1, [2, [3, [4]], 5], [], [[{k}]]]))",
                f"def {n}(s):\n    if len(s) <= 1:\n        return [s]\n"
                f"    return [c + p for i, c in enumerate(s) for p in {n}(s[:i] + s[i + 1:])]\n"
                f"print({n}({self.pick(('ab', 'abc', 'xyz', 'a'))!r}))",
                f"def {n}(m, k):\n    if m == 0:\n        return k + 1\n    if k == 0:\n"
                f"        return {n}(m - 1, 1)\n    return {n}(m - 1, {n}(m, k - 1))\n"
                f"print({n}({self.r.randint(0, 2)}, {self.r.randint(0, 3)}))",
                f"def {n}(k):\n    return 1 if k == 0 else k * {n}(k - 1)\n"
                f"print([{n}(j) for j in range({k})], {n}(25))",
                f"def {n}(xs):\n    return [[]] if not xs else [r + p for r in {n}(xs[1:]) for p in ([], [xs[0]])]\n"
                f"print(sorted({n}({self.lit_list()}[:4])))",
            )
        )
        for line in tpl.split("\n"):
            self.emit(line)

    def b_closure(self):
        mk, inner = self.fresh("make"), self.fresh("inner")
        t = self.pick(("int", "float"))
        start = self.expr(t, 1)
        self.emit(f"def {mk}(start, step={self.lit_int()}):")
        self.emit("    total = start")
        self.emit("    seen = []")
        self.emit(f"    def {inner}(x=1):")
        self.emit("        nonlocal total")
        op = self.pick(("+", "-", "*"))
        self.emit(f"        total = (total {op} x + step) % 1000")
        self.emit("        seen.append(total)")
        self.emit("        return total")
        self.emit(f"    return {inner}, (lambda: len(seen)), (lambda k=2: [s * k for s in seen])")
        c, n, m = self.fresh("c"), self.fresh("c"), self.fresh("c")
        self.emit(f"{c}, {n}, {m} = {mk}({start})")
        self.emit(
            f"print({c}(), {c}({self.expr(t, 1)}), {c}(x={self.lit_int()}), {n}(), {m}(), {m}(k=-1))"
        )
        fs = self.fresh("fs")
        r = self.r.randint(1, 4)
        self.emit(
            self.pick(
                (
                    f"{fs} = [lambda: i * 2 for i in range({r})]\nprint([g() for g in {fs}])",
                    f"{fs} = [lambda v, i=i: v + i for i in range({r})]\nprint([g(10) for g in {fs}])",
                    f"{fs} = {{}}\nfor j in range({r}):\n    {fs}[j] = lambda a, j=j: a ** j\n"
                    f"print({{k: g(3) for k, g in {fs}.items()}})",
                    f"def {fs}():\n    x = {self.lit_int()}\n    def g():\n        return x * 2\n"
                    f"    x = x + 1\n    return g\nprint({fs}()())",
                    f"{fs} = lambda *a, **k: (len(a), sorted(k))\nprint({fs}(1, 2, z=3, a=4), {fs}())",
                )
            )
        )

    def b_gen(self):
        g = self.fresh("gen")
        self.emit(f"def {g}(n, k={self.r.randint(1, 3)}):")
        self.ind += 1
        self.push(fn=True)
        self.declare("n", "int")
        self.declare("k", "int")
        self.readonly |= {"n", "k"}
        self.emit("i = 0")
        self.emit("while i < n:")
        self.emit("    i += 1")
        self.push()
        self.declare("i", "int")
        self.readonly.add("i")
        self.emit(f"    if {self.expr('bool', 1)}:")
        self.emit("        continue")
        self.emit(f"    yield {self.expr('int', 2)}")
        self.pop()
        if self.chance(0.5):
            self.emit(f"yield from {self.expr('list', 1)}")
        if self.chance(0.3):
            self.emit("return")
        self.emit("yield k")
        self.readonly -= {"n", "k", "i"}
        self.pop()
        self.ind -= 1
        n = lambda: self.r.randint(0, 6)  # noqa: E731
        uses = [
            f"print(list({g}({n()})))",
            f"print(sum({g}({n()}, k=2)), max({g}({n()}), default=None))",
            f"print([x * 2 for x in {g}({n()}) if x % 2 == 0])",
            f"it = {g}({n()})\nprint(next(it), next(it, 'done'), list(it), next(it, 'done'))",
            f"print(sorted({g}({n()}), reverse=True), tuple({g}(2)))",
            f"for x in {g}({n()}):\n    if x > {self.lit_int()}:\n        print('big', x)\n"
            f"        break\nelse:\n    print('none big')",
            f"print(list(zip({g}({n()}), 'abcdef')), dict(enumerate({g}(3))))",
            f"print(sum(x * x for x in {g}({n()}) if x), list(x for x in range(5) if x in {g}(4)))",
            f"def {g}_inf():\n    j = 0\n    while True:\n        yield j\n        j += 3\n"
            f"print(list(zip({g}_inf(), range(4))), [v for v, _ in zip({g}_inf(), 'ab')])",
        ]
        for _ in range(self.r.randint(1, 3)):
            for line in self.pick(uses).split("\n"):
                self.emit(line)

    # ------------------------------------------------------------------ exceptions

    def risky(self):
        tpl, types = self.pick(RISKY)
        if "math." in tpl and not self.math:
            tpl, types = "int('q')", ("ValueError",)
        text = tpl.format(
            s=repr(self.pick(("x", "1.5", " 7 ", "", "3e2", "a", "-4"))),
            i=self.pick(("3", "-4", "10", "1")),
            n=self.lit_int(),
            z=self.pick(("0", "0", "1 - 1", "-0")),
            f=self.lit_float(),
            zf=self.pick(("0.0", "-0.0", "0")),
        )
        return text, types

    def b_try(self):
        kind = self.r.random()
        if kind < 0.35:
            text, types = self.risky()
            self.try_stmt(f"print({text})", types)
        elif kind < 0.55:
            exc = self.pick(
                (
                    "ValueError",
                    "TypeError",
                    "KeyError",
                    "RuntimeError",
                    "IndexError",
                    "ZeroDivisionError",
                    "NotImplementedError",
                    "Exception",
                )
            )
            msg = self.fresh("msg")
            self.emit(f"def {msg}(v):")
            self.emit(f"    if v > {self.lit_int()}:")
            self.emit(f"        raise {exc}(f'too big: {{v}}')")
            self.emit("    return v * 2")
            self.try_stmt(f"print({msg}({self.lit_int()}))", (exc, "Exception"))
        elif kind < 0.7:
            err = self.fresh("Err")
            base = self.pick(("Exception", "ValueError", "LookupError"))
            self.emit(f"class {err}({base}):")
            if self.chance(0.5):
                self.emit("    pass")
            else:
                self.emit("    def __init__(self, code):")
                self.emit("        super().__init__(f'code {code}')")
                self.emit("        self.code = code")
            arg = (
                self.lit_int() if "__init__" in self.out[-2] else repr(self.pick(("oops", "", "m")))
            )
            self.try_stmt(f"raise {err}({arg})", (err, base))
        elif kind < 0.85:
            f = self.fresh("tf")
            text, types = self.risky()
            self.emit(f"def {f}(x):")
            self.emit("    try:")
            self.emit(f"        if x > {self.lit_int()}:")
            self.emit(f"            print({text})")
            self.emit("        return 'body'")
            self.emit(f"    except {types[0]} as e:")
            self.emit("        print('inner', type(e).__name__, e)")
            if self.chance(0.5):
                self.emit("        raise")
            self.emit("        return 'handler'")
            self.emit("    finally:")
            self.emit("        print('finally', x)")
            if self.chance(0.2):
                self.emit("        return 'from finally'")
            self.try_stmt(f"print({f}({self.lit_int()}))", types)
        else:
            text, types = self.risky()
            self.emit("try:")
            self.emit("    try:")
            self.emit(f"        print({text})")
            self.emit("    except Exception as e:")
            self.emit("        raise RuntimeError('wrapped') from e")
            self.emit("except RuntimeError as e:")
            self.emit("    print(e)")

    def try_stmt(self, body, types):
        self.emit("try:")
        self.emit("    " + body.replace("\n", "\n" + "    " * (self.ind + 1)))
        caught = self.pick(types) if self.chance(0.8) else "Exception"
        if self.chance(0.2):
            caught = f"({caught}, {self.pick(('TypeError', 'KeyError', 'ValueError'))})"
        self.emit(f"except {caught} as e:")
        self.emit(
            f"    print({self.pick(('type(e).__name__', repr('caught')))}, e, repr(e) if {self.lit_bool()} else '')"
        )
        if self.chance(0.4):
            self.emit("else:")
            self.emit("    print('no error')")
        if self.chance(0.4):
            self.emit("finally:")
            self.emit("    print('cleanup')")

    # ------------------------------------------------------------------ misc

    def b_misc(self):
        l1, l2 = self.expr("list", 1), self.expr("list", 1)
        uses = (
            f"print(sorted({l1}, key=lambda x: (abs(x), x)), min({l1} or [0], key=lambda x: -x))",
            "print(max(['ab', 'c', 'dde', 'xy'], key=len), min('hello world'.split(), key=len))",
            f"print(list(enumerate({self.expr('str', 1)}, start=1)), list(zip({l1}, {l2}, 'abcde')))",
            f"print(sum({l1}, 10), sum([0.1] * 10), sum(range({self.r.randint(0, 20)})))",
            f"print(round({self.lit_float()} * {self.lit_int()}, 1), round(-2.5), round(0.125, 2), round(7, -1))",
            "print([[i * j for j in range(i)] for i in range(4)], [(a, b) for a in range(3) for b in range(a)])",
            "print({i: [j for j in range(i) if j % 2] for i in range(5)})",
            "print(abs(-3), abs(-2.5), abs(True), int(-3.9), int('  -12 '), float('1e-2'), str(1.0), str(-0.0))",
            "print(int(True) + True, True * 3.5, 7 // 2.0, -7 // 2, 7 % -3, -7.5 % 2, 2 ** 0.5, (-8) ** 2, 2 ** -2)",
            "print(1 < 2 < 3 > 2, 1 == 1.0, 'a' < 'b' <= 'b', (1, 2) < (1, 2, 0), [] == [], 0.1 + 0.2 == 0.3)",
            "print(isinstance(True, int), isinstance(1, float), isinstance(1.0, (int, float)), type(1) is int)",
            "print(str(12).zfill(5), 'abc'.upper().center(9, '-'), 'a-b-c'.split('-', 1), ' x '.strip() + '!')",
            "print(f'{3.14159:8.3f}|{-42:+06d}|{255:#x}|{0.000123:.2e}|{1e20}|{123456789:_}|{True}')",
            "print(repr('it\\'s'), repr(\"q\"), str([1, 'a', None, 2.0]), repr((1,)), {1: 'x', 'y': (2,)})",
            "print(1e16, 1e15, 123456789.0 * 10, 0.1 * 3, 1/3, 2.0 ** 62, float(2 ** 53 + 1), -0.0, 1e-7)",
            "print(divmod(-7, 2), divmod(7.5, 2), pow(2, 10), pow(2.0, -1), pow(-2, 3), pow(3, 2, 5))",
            "print(bool([]), bool(''), bool(0.0), bool('0'), not None, None is None, [] or 'alt', 0 and 1, 2 and 3)",
            f"print(list(map(str, {l1})), list(filter(None, [0, 1, '', 'a', None, 2])), list(map(lambda a, b: a * b, [1, 2], [3, 4, 5])))",
            f"x_ = {l1}\nx_[::2] = x_[::2]\nprint(x_[1:-1], x_[-3:], x_[::-2], x_[5:1], x_[-100:100])",
            "a_, b_, *c_ = range(5)\nprint(a_, b_, c_)\n(p_, q_), r_ = (1, 2), 3\nprint(p_, q_, r_)",
            f"print(any([]), all([]), any(x > 2 for x in {l1}), all(isinstance(x, int) for x in {l1}))",
            "print(sorted('hello'), sorted([(2, 'b'), (1, 'z'), (2, 'a')]), sorted({'b': 1, 'a': 2}.items(), key=lambda kv: kv[1]))",
            "d_ = {}\nfor w in 'the cat the hat the end'.split():\n    d_[w] = d_.get(w, 0) + 1\nprint(d_, max(d_, key=d_.get), sorted(d_.values()))",
            "print(chr(97), ord('A'), hex(255), oct(8), bin(5), int('ff', 16), int('0b101', 0), float('-inf'), abs(float('-inf')))",
            "print(len(range(3, 20, 4)), list(range(10, 0, -3)), range(5)[2], 3 in range(5), range(0, 10, 2)[-1])",
            "print(' '.join(reversed('abc')), ''.join(sorted('hello')), 'abc'[::-1], 'a' * 3 + 'b' * 0, 'ab' in 'cab')",
            "print(str(1/3), repr(2.0), 2.5e-5, 100.0, 1.5e300 * 1e10, -1e400, int(1e6), round(1e6 + 0.5))",
        )
        for line in self.pick(uses).split("\n"):
            self.emit(line)

    def b_gaps(self):
        """What Python has beyond the basics: literals in every base, numbers' attributes,
        frozenset, str.format's fields, iterators' __next__, the standard modules' extras,
        and built-ins refusing keywords (at the top level or inside a function)."""
        i, j, l1 = self.expr("int", 1), self.expr("int", 1), self.expr("list", 1)
        f, s1 = self.expr("float", 1), self.expr("str", 1)
        k = self.r.randint(0, 6)
        uses = (
            f"print(0x{k}f, 0o{k}7, 0b1{k % 2}1, 1_{k}00, {k}_0.5, 1e-{k}_0, -0X_{k}A, 0B_1)",
            f"print(({i}).bit_length(), ({i}).real, ({i}).imag, ({i}).as_integer_ratio(), ({i}).bit_count(), ({i}).conjugate())",
            f"print(({f}).is_integer(), ({f}).hex(), float.fromhex(({f}).hex()), ({f}).real, ({f}).imag)",
            f"print(({f}).as_integer_ratio() if math.isfinite({f}) else None)"
            if self.math
            else "print(1)",
            f"print(sorted(frozenset({l1})), frozenset({l1}) == set({l1}), {i} in frozenset({l1}), len(frozenset({l1}) | {{{j}}}))",
            f"print(dict.fromkeys({l1}, {j}), dict.fromkeys({s1}), isinstance(int, type), isinstance({i}, type))",
            f"print('{{0[0]}}|{{0[1]!r:>6}}|{{k[a]}}'.format(({i}, {s1}), k={{'a': {j}}}), '{{x.real}}/{{x.imag}}'.format(x={f}))",
            f"print('{{:{{}}}}|{{:>{{w}}.{{p}}f}}'.format({s1}, {k + 1}, {f}, w={k + 4}, p={k % 3}), '{{a}}'.format_map({{'a': {i}}}))",
            f"print(({s1} + '\\t' + {s1}).expandtabs({k}), ascii({s1} + '\\u00e9'), (lambda v: id(v) == id(v))({l1}))",
            f"e_ = enumerate({l1} or [0], {j})\nprint(e_.__next__(), next(e_, None), type(e_), type(iter({l1})))",
            f"it_ = iter({s1} or 'z')\nprint(it_.__next__(), list(it_), type(zip()), type(map(abs, [])))",
            f"import itertools\nprint([(k_, list(g_)) for k_, g_ in itertools.groupby(sorted({l1}), key=lambda v: v % 3)])",
            f"import collections\nc_ = collections.Counter({s1} + {s1})\nprint(c_.most_common({k % 3}), sorted(c_.elements()), c_.total())",
            f"def pos_(a, b={k}, /, c=0, **kw):\n    return (a, b, c, kw)\nprint(pos_({i}), pos_({i}, {j}, c={k}), pos_(1, a={j}), Ellipsis)",
            f"print({s1}.translate(str.maketrans('ab', 'xy')), {s1}.isascii(), {s1}.istitle(), u'{k}' + {s1}, type(print), type(len))",
            f"import collections\nP_ = collections.namedtuple('P_', 'x y')\np_ = P_({i}, {j})\nprint(p_._replace(y={k}), p_._asdict(), P_._fields, P_._make([{k}, {i}]))",
        )
        refusals = (
            "abs(x=1)",
            "len(obj=[1])",
            "sorted(iterable=[1])",
            "sorted([1], cmp=1)",
            "sum([1], zzz=1)",
            "min(key=len)",
            "enumerate([1], begin=1)",
            "list(x=[1])",
            "chr(i=65)",
            "next(iterator=iter([1]))",
            "isinstance(obj=1, class_or_tuple=int)",
            "'{0.nope}'.format(1)",
            "'{0[9]}'.format([1])",
            "'{0[}'.format([1])",
            "'{}{1}'.format(1, 2)",
            "frozenset([[1]])",
            "dict.fromkeys([[1]])",
            "(1.5).bit_length()",
            "'{!x}'.format(1)",
            "iter([]).__next__()",
            "[1].append(x=1)",
            "{1: 2}.get(key=1)",
            "'ab'.replace(old='a', new='b')",
            "'a'.split(x=1)",
            "int(x='1')",
            "divmod(a=1, b=2)",
            "max()",
            "list(zip([1, 2], [3], strict=True))",
            "list(zip([1], [2], [3, 4], strict=True))",
            "(lambda a, /: a)(a=1)",
            "(lambda a, /, **k: k)(1, a=2)['b']",
        )
        lines = self.pick(uses).split("\n")
        if self.chance(0.3):
            err = self.pick(
                (
                    "TypeError",
                    "ValueError",
                    "AttributeError",
                    "IndexError",
                    "StopIteration",
                    "Exception",
                )
            )
            lines = [
                "try:",
                f"    {self.pick(refusals)}",
                f"except {err} as e_:",
                "    print(type(e_).__name__, e_)",
            ]
        if self.chance(0.5):  # inside a function: the fast tier's ground
            name = self.fresh("gap")
            self.emit(f"def {name}():")
            for line in lines:
                self.emit("    " + line)
            self.emit(f"{name}()")
        else:
            for line in lines:
                self.emit(line)

    def b_more(self):
        """Decorators, `global`, properties and class/static methods, calls with `*` and
        `**`, `while True`, exceptions raised inside generators and loops."""
        n, k = self.fresh("m"), self.r.randint(1, 5)
        i, f = self.lit_int(), self.lit_float()
        tpl = self.pick(
            (
                f"def deco_{n}(fn):\n    def wrapper(*a, **kw):\n        r = fn(*a, **kw)\n"
                f"        return ('wrapped', r)\n    return wrapper\n@deco_{n}\n"
                f"def {n}(x, y={k}):\n    return x * y\nprint({n}({i}), {n}(y=2, x={f}))",
                f"count_{n} = 0\ndef {n}():\n    global count_{n}\n    count_{n} += {k}\n"
                f"    return count_{n}\nprint({n}(), {n}(), count_{n})",
                f"class {n}:\n    unit = {k}\n    def __init__(self, v):\n        self._v = v\n"
                f"    @property\n    def v(self):\n        return self._v * self.unit\n"
                f"    @v.setter\n    def v(self, x):\n        self._v = x\n"
                f"    @classmethod\n    def make(cls, x):\n        return cls(x + 1)\n"
                f"    @staticmethod\n    def twice(x):\n        return 2 * x\n"
                f"o_{n} = {n}.make({i})\no_{n}.v = o_{n}.v + 1\nprint(o_{n}.v, {n}.twice({f}), o_{n}.twice(3))",
                f"def {n}(a, b, *rest, sep='-', **kw):\n"
                f"    return sep.join(str(x) for x in (a, b) + rest) + str(sorted(kw.items()))\n"
                f"args_{n} = [{i}, {k}, 3]\nopts_{n} = {{'sep': ':', 'z': {k}}}\n"
                f"print({n}(*args_{n}), {n}(*args_{n}[:2], **opts_{n}), {n}(1, *[2], q=5))",
                f"j_{n} = 0\nwhile True:\n    j_{n} += {k}\n    if j_{n} % 3 == 1:\n        continue\n"
                f"    if j_{n} > {k * 4}:\n        break\nprint(j_{n})",
                f"def {n}(limit):\n    for v in range(limit):\n        if v == {k}:\n"
                f"            raise ValueError(f'stop at {{v}}')\n        yield v * v\n"
                f"try:\n    print(list({n}({k + 2})))\nexcept ValueError as e:\n    print('caught', e)\n"
                f"print(list({n}({k})))",
                f"out_{n} = []\nfor v in [{i}, 0, {k}, -1]:\n    try:\n        out_{n}.append(100 // v)\n"
                f"    except ZeroDivisionError:\n        out_{n}.append('zero')\n        continue\n"
                f"    finally:\n        out_{n}.append('f')\nprint(out_{n})",
                f"def {n}(*fs):\n    def composed(x):\n        for g in reversed(fs):\n            x = g(x)\n"
                f"        return x\n    return composed\n"
                f"print({n}(lambda x: x + {k}, abs, lambda x: x * 2)({i}), {n}()({f}))",
                f"words_{n} = 'the quick brown fox jumps over the lazy dog'.split()\n"
                f"print(sorted(words_{n}, key=lambda w: (len(w), w))[:{k}], "
                f"{{w: len(w) for w in words_{n} if len(w) > {k % 4 + 1}}}, "
                f"' '.join(w.capitalize() for w in words_{n}[:{k}]), 'fox' in words_{n})",
                f"m_{n} = [[r * {k} + c for c in range(3)] for r in range(3)]\n"
                f"print(m_{n}, [list(col) for col in zip(*m_{n})], sum(sum(row) for row in m_{n}), "
                f"[m_{n}[r][r] for r in range(3)], max(max(m_{n})))",
            )
        )
        for line in tpl.split("\n"):
            self.emit(line)

    # ------------------------------------------------------------------ classes

    def b_class(self):
        name = self.fresh("C")
        info = ClassInfo(name, ftype=self.pick(("int", "float")))
        ops = {"repr"} if self.chance(0.85) else set()
        for op in (
            "add",
            "radd",
            "mul",
            "eq",
            "lt",
            "len",
            "getitem",
            "iter",
            "neg",
            "str",
            "bool",
            "contains",
            "call",
            "hash",
        ):
            if self.chance(0.45):
                ops.add(op)
        info.ops = ops
        fb = info.ftype
        self.emit(f"class {name}:")
        self.ind += 1
        self.emit("made = 0")
        self.emit(
            f"def __init__(self, a, b={self.lit_int() if fb == 'int' else self.lit_float()}):"
        )
        self.emit("    self.a = a")
        self.emit("    self.b = b")
        self.emit(f"    {name}.made += 1")
        self.push(fn=True)
        self.declare("self.a", "int")
        self.declare("self.b", fb)
        self.readonly |= {"self.a", "self.b"}
        if "repr" in ops:
            spec = (
                self.pick(("", ":.2f", ":>4", "!r"))
                if fb == "float"
                else self.pick(("", ":>3", ":+d"))
            )
            self.emit("def __repr__(self):")
            self.emit(f"    return f'{name}({{self.a}}, {{self.b{spec}}})'")
        if "str" in ops:
            self.emit("def __str__(self):")
            self.emit("    return '<' + str(self.a) + '>'")
        if "add" in ops:
            self.emit("def __add__(self, other):")
            self.emit(f"    if isinstance(other, {name}):")
            self.emit(
                f"        return {name}(self.a + other.a, self.b {self.pick(('+', '-', '*'))} other.b)"
            )
            if self.chance(0.7):
                self.emit("    if isinstance(other, (int, float)):")
                self.emit(f"        return {name}(int(self.a + other), self.b)")
            self.emit("    return NotImplemented")
        if "radd" in ops:
            self.emit("def __radd__(self, other):")
            self.emit(f"    if isinstance(other, {name}):")
            self.emit("        other = other.a")
            self.emit(f"    return {name}(self.a + other, self.b)")
        if "mul" in ops:
            self.emit("def __mul__(self, k):")
            self.emit(f"    return {name}(self.a * k, self.b * k)")
        if "eq" in ops:
            self.emit("def __eq__(self, other):")
            self.emit(f"    if not isinstance(other, {name}):")
            self.emit("        return NotImplemented")
            self.emit("    return self.a == other.a and self.b == other.b")
        if "lt" in ops:
            self.emit("def __lt__(self, other):")
            self.emit(
                self.pick(
                    (
                        "    return (self.a, self.b) < (other.a, other.b)",
                        "    return self.b < other.b",
                        f"    return {self.expr('int', 1)} < other.a",
                    )
                )
            )
        if "len" in ops:
            self.emit("def __len__(self):")
            self.emit(f"    return abs({self.expr('int', 1)}) % 5")
        if "getitem" in ops:
            self.emit("def __getitem__(self, i):")
            self.emit("    return (self.a, self.b, self.a + self.b)[i]")
        if "iter" in ops:
            self.emit("def __iter__(self):")
            self.emit(
                self.pick(
                    (
                        "    yield self.a\n    yield self.b",
                        "    return iter([self.a, self.b])",
                        "    for j in range(abs(self.a) % 4):\n        yield j * self.b",
                    )
                ).replace("\n", "\n" + "    " * self.ind)
            )
        if "neg" in ops:
            self.emit("def __neg__(self):")
            self.emit(f"    return {name}(-self.a, -self.b)")
        if "bool" in ops:
            self.emit("def __bool__(self):")
            self.emit("    return self.a > 0")
        if "contains" in ops:
            self.emit("def __contains__(self, v):")
            self.emit("    return v == self.a or v == self.b")
        if "call" in ops:
            self.emit("def __call__(self, x, *rest):")
            self.emit("    return self.a * x + len(rest)")
        if "hash" in ops:
            self.emit("def __hash__(self):")
            self.emit("    return hash((self.a, self.b))")
        self.emit("def total(self, scale=1):")
        self.emit(f"    return ({self.expr(fb, 2)}) * scale")
        self.readonly -= {"self.a", "self.b"}
        self.pop()
        self.ind -= 1
        self.classes.append(info)
        sub = None
        if self.chance(0.5):
            sub = self.fresh("D")
            self.emit(f"class {sub}({name}):")
            self.emit("    def __init__(self, a, b, c=2):")
            self.emit("        super().__init__(a, b)")
            self.emit("        self.c = c")
            self.emit("    def total(self, scale=1):")
            self.emit("        return super().total(scale) + self.c")
            if self.chance(0.6):
                self.emit("    def __repr__(self):")
                self.emit(
                    f"        return '{sub}:' + super().__repr__() + str(self.c)"
                    if "repr" in ops
                    else f"        return '{sub}(' + str(self.c) + ')'"
                )
            if self.chance(0.4) and "add" in ops:
                self.emit("    def __add__(self, other):")
                self.emit("        r = super().__add__(other)")
                self.emit(
                    "        return r if r is NotImplemented else " + f"{sub}(r.a, r.b, self.c)"
                )
        self.class_uses(info, sub)

    def class_uses(self, info, sub):
        name, ops = info.name, info.ops
        fb = info.ftype
        b = lambda: self.lit_int() if fb == "int" else self.lit_float()  # noqa: E731
        objs = []
        for _ in range(3):
            o = self.fresh("o")
            self.emit(f"{o} = {name}({self.lit_int()}, {b()})")
            objs.append(o)
        if sub:
            o = self.fresh("o")
            self.emit(
                f"{o} = {sub}({self.lit_int()}, {b()}{', c=' + self.lit_int() if self.chance(0.5) else ''})"
            )
            objs.append(o)
        p, q = objs[0], objs[1]
        r = objs[-1]
        show = "repr" in ops
        lines = [
            f"print({p}.a, {q}.b, {r}.total(), {r}.total(scale=2), {name}.made, type({r}).__name__)"
        ]
        if show:
            lines += [f"print({p}, [{q}, {r}], f'{{{r}}}', str({p}), repr({q}))"]
        elif "str" in ops:
            lines += [f"print({p}, str({q}), f'{{{q}}}')"]
        if "add" in ops:
            lines += [f"print(({p} + {q}).a, ({p} + {r}).b, ({r} + {p}).a)"]
            if show:
                lines += [f"print({p} + {q}, {r} + {p})"]
            lines += [self.wrap(f"print(({p} + {self.lit_int()}).a)")]
        if "radd" in ops:
            lines += [self.wrap(f"print(({self.lit_int()} + {p}).a, sum([{p}, {q}]).a)")]
        else:
            lines += [self.wrap(f"print(1 + {p})")]
        if "mul" in ops:
            lines += [f"print(({p} * 3).b, ({q} * 0.5).a)", self.wrap(f"print((2 * {p}).a)")]
        if "eq" in ops:
            lines += [
                f"print({p} == {q}, {p} == {name}({p}.a, {p}.b), {p} != {r}, {p} == 3, {p} in [{q}, {r}])"
            ]
            if "hash" not in ops:
                lines += [self.wrap(f"print(len({{{p}, {q}}}))")]
        else:
            lines += [f"print({p} == {p}, {p} == {q}, {p} != {q})"]
        if "lt" in ops:
            lines += [f"print({p} < {q}, {q} > {r}, [o.a for o in sorted([{', '.join(objs)}])])"]
            lines += [
                f"print(max([{p}, {q}]).a, min({p}, {q}, {r}).a)",
                self.wrap(f"print({p} <= {q})"),
            ]
        else:
            lines += [self.wrap(f"print({p} < {q})")]
        lines += [
            f"print(sorted([{', '.join(objs)}], key=lambda o: (o.b, o.a))[0].a, max([{p}, {q}], key=lambda o: o.a).a)"
        ]
        if "len" in ops:
            lines += [f"print(len({p}), len({r}), bool({q}))"]
        if "getitem" in ops:
            lines += [f"print({p}[0], {p}[-1], {q}[1:])"]
            if "iter" not in ops:
                lines += [f"print(list({p}), [x for x in {q}], {p}.a in {p})"]
        if "iter" in ops:
            lines += [f"print(list({p}), [x * 2 for x in {q}], sum({r}), {p}.a in {p}, tuple({q}))"]
            lines += [
                f"x1_, *x2_ = {r}\nprint(x1_, x2_)" if self.chance(0.3) else f"print(sorted({p}))"
            ]
        if "neg" in ops:
            lines += [f"print((-{p}).a, (-{q}).b)"]
        else:
            lines += [self.wrap(f"print(-{p})")]
        if "bool" in ops:
            lines += [f"print(bool({p}), not {q}, [o.a for o in [{', '.join(objs)}] if o])"]
        if "contains" in ops:
            lines += [f"print({p}.a in {p}, 99 in {q}, 99 not in {q})"]
        if "call" in ops:
            lines += [f"print({p}(2), {q}(3, 4, 5), list(map({r}, [1, 2])))"]
        if "hash" in ops:
            lines += [f"print(len({{{p}, {q}, {p}}}), {{{p}: 1}}[{p}])"]
        lines += [
            f"print(isinstance({r}, {name}), {'isinstance(' + objs[0] + ', ' + sub + ')' if sub else 'True'}, hasattr({p}, 'a'), hasattr({p}, 'zz'), getattr({p}, 'b', None))"
        ]
        lines += [self.wrap(f"print({p}.missing)")]
        for s in lines:
            for line in s.split("\n"):
                self.emit(line)

    def wrap(self, stmt):
        return f"try:\n    {stmt}\nexcept (TypeError, AttributeError, IndexError) as e:\n    print(type(e).__name__, e)"
