"""Expressions: names, literals (numbers, strings, f-strings, lists, tuples) and
operators (arithmetic, power, unary, comparisons, not/and/or, if-else, lambda)."""

from __future__ import annotations


from .parser import Tree

from ..runtime.errors import GradError, GradNameError, GradSyntaxError, did_you_mean
from ..runtime.limits import check_items
from ..core.printing import show, show_str
from . import runtime as rt
from .fastops import NUMBER_OPS, specialize
from .parser import literal_value, parse, parser
from .positions import guard, located, pos, syntax_error
from .runtime import SMALL_INT

_MISSING = object()


def constant(v):
    """The closure of a literal; operators read its value without calling it."""

    def const(s):
        return v

    const.value = v
    return const


_BIT_LEVELS = ({"|"}, {"&"}, {"<<", ">>"})  # lowest precedence first


def const_value(fn):
    """(True, value) if `fn` is a literal's closure, else (False, None)."""
    if hasattr(fn, "value"):
        return True, fn.value
    return False, None


def apply2(left, fn, right, line, col):
    """The closure of `left op right` for an operator function `fn` (arithmetic or
    comparison): literal operands read without a call, errors placed at the operator."""
    lconst, lv = const_value(left)
    rconst, rv = const_value(right)
    fast = specialize(left, fn, right, lconst, lv, rconst, rv, line, col)
    if fast is not None:  # plain numbers answered in the closure (fastops.py)
        return fast
    py = NUMBER_OPS.get(getattr(fn, "op", None))
    if py is not None and not lconst and not rconst:
        lname = getattr(left, "var_name", None)  # variables read in place (fastops.py)
        rname = getattr(right, "var_name", None)

        def run_numbers(s):
            v = s.vars
            a = v.get(lname, left)
            if a is left:
                a = left(s)
            b = v.get(rname, right)
            if b is right:
                b = right(s)
            ta = type(a)
            if ta is type(b) and (
                ta is float
                or (ta is int and -SMALL_INT < a < SMALL_INT and -SMALL_INT < b < SMALL_INT)
            ):  # two floats, two small ints: Python's operator, as binary_op answers them
                return py(a, b)
            try:
                return fn(a, b)
            except Exception as e:
                raise located(e, line, col) from None

        return run_numbers

    def run(s):
        a = lv if lconst else left(s)
        b = rv if rconst else right(s)
        try:
            return fn(a, b)
        except Exception as e:
            raise located(e, line, col) from None

    return run


def _joined_text(pieces):
    """The pieces of an f-string (or of adjacent literals) joined, refusing a text over the
    size limit before it is made (`t = f"{t}{t}"` in a loop)."""
    check_items(sum(map(len, pieces)), "the formatted string", "characters")
    return "".join(pieces)


def _fmt_piece(e, spec, conv):
    """One {field} of an f-string (`spec`: its text, or a function of the scope when it
    holds fields of its own, f"{x:{width}}")."""

    def piece(s):
        v = e(s)
        if conv == "r":
            v = show(v)
            if not spec:
                return v
        elif conv == "s":
            v = show_str(v)
        return rt.format_field(v, spec(s) if callable(spec) else spec)

    return piece


def fstring_fields(text):
    """[(literal, expression, spec, conversion)] of an f-string's text, as Python splits
    it: an expression ends at a `!`, `:` or `}` outside its brackets and strings (so
    `{a != b}`, `{f(x, key=lambda v: v)}`, `{d['k']}` and `{ {1: 2} }` are whole),
    `{{` and `}}` are braces; the last tuple's expression is None for trailing text."""
    out, lit, i, n = [], [], 0, len(text)
    while i < n:
        c = text[i]
        if c == "}":
            if not text.startswith("}}", i):
                raise ValueError("single '}' is not allowed")
            lit.append("}")
            i += 2
            continue
        if c != "{":
            lit.append(c)
            i += 1
            continue
        if text.startswith("{{", i):
            lit.append("{")
            i += 2
            continue
        j, depth, quote = i + 1, 0, None
        while j < n:
            ch = text[j]
            if quote is not None:
                if text.startswith(quote, j):
                    j += len(quote)
                    quote = None
                else:
                    j += 2 if ch == "\\" else 1
                continue
            if ch in "'\"":
                quote = ch * 3 if text.startswith(ch * 3, j) else ch
                j += len(quote)
                continue
            if ch in "([{":
                depth += 1
            elif ch in ")]}":
                if not depth:
                    break
                depth -= 1
            elif not depth and (ch == ":" or (ch == "!" and not text.startswith("!=", j))):
                break
            j += 1
        expr, conv, spec = text[i + 1 : j], None, ""
        if not expr.strip():
            raise ValueError("empty expression not allowed")
        if j < n and text[j] == "!":
            conv = text[j + 1 : j + 2]
            if conv not in ("r", "s", "a"):
                raise ValueError("invalid conversion character: expected 's', 'r', or 'a'")
            j += 2
        if j < n and text[j] == ":":
            k, depth = j + 1, 0
            while k < n and (text[k] != "}" or depth):
                depth += {"{": 1, "}": -1}.get(text[k], 0)
                k += 1
            spec, j = text[j + 1 : k], k
        if j >= n or text[j] != "}":
            raise ValueError("expecting '}'")
        out.append(("".join(lit), expr, spec, conv))
        lit, i = [], j + 1
    if lit:
        out.append(("".join(lit), None, None, None))
    return out


def _unknown(name, s, builtins, line, col, around=()):
    # the language's literals and keywords too: requires_grad=Ture -> True, whiel -> while;
    # not for a name of one or two letters (an unknown `f` is not a misspelt `if`)
    # (Python's order: the names of the scopes, innermost first, then the built-ins)
    words = ["True", "False", "None", *parser().lexer.keywords] if len(name) > 2 else []
    known = list(around)
    sc = s
    while sc is not None:
        known.extend(sc.vars)
        sc = sc.parent
    known += [*builtins, *words]
    return GradNameError(f"name '{name}' is not defined", line, col, hint=did_you_mean(name, known))


def _bound_around(name, info):
    """Does a function (or comprehension) around `info` bind `name` (a closure's
    variable)?  Class bodies are not looked in, as their functions do not see them."""
    p = info.parent
    while p is not None:
        if p.kind != "class" and (name in p.locals or name in p.nonlocals):
            return True
        p = p.parent
    return False


def name_loader(name, info, builtins, line, col):
    """The closure that reads a variable, compiled for where it is read (scopes.py)."""
    mode = "top" if info is None else info.mode(name)
    if mode == "free" and info.kind != "class" and not _bound_around(name, info):
        mode = "global"  # no enclosing function binds it: a global (or a built-in)
    if mode == "top":

        def load(s):
            v = s.vars.get(name, _MISSING)
            if v is _MISSING:
                v = builtins.get(name, _MISSING)
                if v is _MISSING:
                    raise _unknown(name, s, builtins, line, col)
            return v
    elif mode == "local":

        def load(s):
            v = s.vars.get(name, _MISSING)
            if v is _MISSING:
                raise GradNameError(
                    f"cannot access local variable '{name}' where it is not "
                    "associated with a value",
                    line,
                    col,
                    type_name="UnboundLocalError",
                )
            return v
    elif mode == "global":

        def load(s):
            g = s.globals if s.globals is not None else s
            v = g.vars.get(name, _MISSING)
            if v is _MISSING:
                v = builtins.get(name, _MISSING)
                if v is _MISSING:
                    raise _unknown(name, s, builtins, line, col)
            return v
    elif info.kind != "class":  # a variable of a function around this one

        def load(s):
            v = s.vars.get(name, _MISSING)
            sc, g = s.parent, s.globals
            while v is _MISSING and sc is not None and sc is not g:
                v = sc.vars.get(name, _MISSING)
                sc = sc.parent
            if v is _MISSING:
                if g is not None:  # not yet bound (or deleted) there: Python's NameError
                    raise GradNameError(
                        f"cannot access free variable '{name}' where it is not "
                        "associated with a value in enclosing scope",
                        line,
                        col,
                    )
                v = builtins.get(name, _MISSING)
                if v is _MISSING:
                    raise _unknown(name, s, builtins, line, col)
            return v
    else:

        def load(s):
            v = s.vars.get(name, _MISSING)
            sc = s.parent
            while v is _MISSING and sc is not None:
                v = sc.vars.get(name, _MISSING)
                sc = sc.parent
            if v is _MISSING:
                v = builtins.get(name, _MISSING)
                if v is _MISSING:
                    raise _unknown(name, s, builtins, line, col)
            return v

    if mode == "top" or mode == "local":
        load.var_name = name  # it reads s.vars[name] first (fastops.py reads that in place)
    elif mode == "global":
        load.global_name = name  # it reads the globals' vars[name] first (callsites.py)
    return load


def name_storer(name, info):
    """The closure that binds a variable, compiled for where it is bound."""
    mode = (
        "local"
        if info is None or info.kind == "class"
        else "global"
        if name in info.globals
        else "nonlocal"
        if name in info.nonlocals
        else "local"
    )
    if mode == "global":

        def store(s, v):
            (s.globals if s.globals is not None else s).vars[name] = v
    elif mode == "nonlocal":
        levels = info.nonlocals[name]

        def store(s, v):
            sc = s
            for _ in range(levels):
                sc = sc.parent
            sc.vars[name] = v
    else:

        def store(s, v):
            s.vars[name] = v

        store.local_name = name  # (stmtlines.assign stores it in place)
    return store


def walrus_storer(name, info, node):
    """The closure binding an assignment expression's target: in a comprehension (its
    scope made anew for each run), in the first scope around it that is not one."""
    levels = 0
    while info is not None and info.kind == "comprehension":
        if name in info.locals:
            raise syntax_error(
                f"assignment expression cannot rebind comprehension iteration variable '{name}'",
                node,
            )
        levels, info = levels + 1, info.parent
    if not levels:
        return name_storer(name, info)
    if info is None or name in info.globals:
        return _global_store(name)
    levels += info.nonlocals.get(name, 0)

    def store(s, v):
        sc = s
        for _ in range(levels):
            sc = sc.parent
        sc.vars[name] = v

    return store


def _global_store(name):
    def store(s, v):
        (s.globals if s.globals is not None else s).vars[name] = v

    return store


_PREFIXED = {"x": ("hexadecimal", 16), "o": ("octal", 8), "b": ("binary", 2)}


def number_value(text, line, column):
    """The value of a number literal, or Python's SyntaxError for a malformed one (the
    grammar's NUMBER is looser than Python's literals so that these get Python's words)."""
    low = text.lower()
    if low.endswith("j"):
        raise GradSyntaxError(
            "complex numbers are not supported (gradcli has no complex type)", line, column
        )
    kind = _PREFIXED.get(low[1:2]) if low[:1] == "0" else None
    if kind is not None:
        digits = low[2:].replace("_", "")
        bad = next((c for c in digits if c not in "0123456789abcdef"[: kind[1]]), None)
        if bad is not None and bad.isdigit():
            raise GradSyntaxError(f"invalid digit '{bad}' in {kind[0]} literal", line, column)
    try:
        if kind is not None:
            return _sized(int(text, 0), line, column)
        if any(c in low for c in ".e"):
            return float(text)
        if low[0] == "0" and low.strip("0_") and "__" not in low and not low.endswith("_"):
            raise GradSyntaxError(
                "leading zeros in decimal integer literals are not permitted; "
                "use an 0o prefix for octal integers",
                line,
                column,
            )
        if len(text) > 4000:
            raise GradSyntaxError("number literal too large", line, column)
        return int(text, 0)
    except ValueError:
        what = kind[0] if kind is not None else "decimal"
        raise GradSyntaxError(f"invalid {what} literal", line, column) from None


def _sized(v, line, column):
    if v.bit_length() > 13300:  # (as a decimal literal's 4000 digits)
        raise GradSyntaxError("number literal too large", line, column)
    return v


class Expressions:
    """Compiles names, literals and operators (mixed into the Compiler)."""

    def _guard(self, fn, node):
        """Attach node's position to errors raised by fn."""
        return guard(fn, *pos(node))

    def e_name(self, node):
        tok = node.children[0]
        return name_loader(tok.value, self.fn, self.builtins, tok.line, tok.column)

    def e_held(self, node):
        """The value a replayed body's split statement holds in its cell (language/
        loop_split.py: `correct += (pred == y).sum().item()`), let go there as it is read."""
        cell = node.children[0]

        def load(s):
            v = cell.value
            cell.value = None
            return v

        return load

    def e_walrus(self, node):
        """(name := value): binds name where the expression stands (in a comprehension:
        in the function or module around it, as Python's PEP 572) and gives the value."""
        tok, value = node.children
        name = tok.value
        val = self.expr(value)
        store = walrus_storer(name, self.fn, node)

        def run(s):
            v = val(s)
            store(s, v)
            return v

        return run

    def e_number(self, node):
        tok = node.children[0]
        return constant(number_value(tok.value, tok.line, tok.column))

    def e_string(self, node):
        parts = []
        for tok in node.children:
            text = tok.value
            prefix = ""
            while text[0] in "fFrRuUbB":
                prefix += text[0].lower()
                text = text[1:]
            if "b" in prefix:
                raise GradSyntaxError(
                    "bytes literals are not supported (a program's text is str: it reads no files)",
                    tok.line,
                    tok.column,
                )
            try:
                value = literal_value(("r" if "r" in prefix else "") + text)
            except (SyntaxError, ValueError):
                raise GradSyntaxError("invalid string literal", tok.line, tok.column)
            if "f" in prefix:
                parts.append(self._fstring(value, tok))
            else:
                parts.append(lambda s, v=value: v)
        if len(parts) == 1:
            return parts[0]
        return lambda s: _joined_text([p(s) for p in parts])

    def _fstring(self, text, tok):
        """f"...{expr}...{expr:spec}...": each field parsed as an expression."""
        pieces = []
        for lit, field, spec, conv in self.fstring_fields(text, tok):
            if field is None:
                pieces.append(lambda s, v=lit: v)
                continue
            if spec and "{" in spec:  # f"{x:{width}.{digits}f}": its fields first
                spec = self._fstring(spec, tok)
            pieces.append(_fmt_piece(field, spec, conv))
        return lambda s: _joined_text([p(s) for p in pieces])

    def fstring_fields(self, text, tok, compile_field=None):
        """The pieces of f"...": (text, None, None, None) for a literal part, (None,
        field, spec, conversion) for a {field}, its expression compiled by
        `compile_field` (self.expr: a closure) where it stands in the file."""
        compile_field = compile_field or self.expr
        out = []
        try:
            fields = fstring_fields(text)
        except ValueError as e:
            raise GradSyntaxError(f"f-string: {e}", tok.line, tok.column)
        raw, cursor = tok.value, 0
        for lit, field, spec, conv in fields:
            if lit:
                out.append((lit, None, None, None))
            if field is None:
                continue
            # parse the field where it stands in the file, so that its errors (and the
            # errors of its evaluation) name the file's line and column, not line 1
            at = raw.find("{" + field, cursor)
            if at < 0:
                line, col = tok.line, tok.column
            else:
                cursor = at + 1 + len(field)
                line = tok.line + raw.count("\n", 0, at + 1)
                nl = raw.rfind("\n", 0, at + 1)
                col = (tok.column + at + 1) if nl < 0 else at - nl
            bare = field.rstrip()
            if bare.endswith("=") and not bare.endswith(("==", "!=", "<=", ">=")):
                # f"{x=}", f"{x = :.3f}": the text as written, then the value (its repr
                # unless a format spec or a conversion is given), as Python 3.8+ does
                out.append((field, None, None, None))
                field = bare[:-1]
                if not spec and conv is None:
                    conv = "r"
            try:
                tree = parse("\n" * (line - 1) + "(" + " " * max(col - 2, 0) + field + ")\n")
                e = compile_field(tree.children[0].children[0].children[0])
            except GradError:
                raise GradSyntaxError(
                    f"f-string: invalid expression {field!r}", tok.line, tok.column
                )
            out.append((None, e, spec, conv))
        return out

    def e_true(self, node):
        return constant(True)

    def e_false(self, node):
        return constant(False)

    def e_none(self, node):
        return constant(None)

    def e_ellipsis(self, node):
        return lambda s: Ellipsis

    def e_empty_tuple(self, node):
        return lambda s: ()

    def e_binary(self, node):
        ch = node.children
        if len(ch) <= 9:  # up to four operators: nested closures (fastops.py specializes each)
            e = self.expr(ch[0])
            for t, r in zip(ch[1::2], ch[2::2]):
                e = self._binop(e, t, self.expr(r))
            return e
        # a long chain (1 + 2 + ... + n) runs in a loop, not in nested closures
        first = self.expr(ch[0])
        rest = tuple(
            (rt.binary_op(t.value), t.line, t.column, self.expr(r))
            for t, r in zip(ch[1::2], ch[2::2])
        )

        def run(s):
            a = first(s)
            for binary, line, col, right in rest:
                b = right(s)
                try:
                    a = binary(a, b)
                except Exception as e:
                    raise located(e, line, col) from None
            return a

        return run

    def e_bitwise(self, node):
        """`a | b & c << d`: one grammar level; Python's precedence applied here
        (shifts bind tighter than &, & tighter than |; each left-associative)."""
        ch = node.children
        operands, ops = list(ch[0::2]), list(ch[1::2])

        def build(lo, hi, level):  # operands[lo..hi], ops[lo..hi-1]
            if lo == hi:
                return self.expr(operands[lo])
            wanted = _BIT_LEVELS[level]
            for k in range(hi - 1, lo - 1, -1):  # the last (rightmost) op of this level
                if ops[k].value in wanted:
                    return self._binop(
                        build(lo, k, level),
                        ops[k],
                        build(k + 1, hi, level + 1)
                        if level + 1 < len(_BIT_LEVELS)
                        else self.expr(operands[k + 1]),
                    )
            return build(lo, hi, level + 1)

        return build(0, len(operands) - 1, 0)

    def _binop(self, left, op_tok, right):
        return apply2(left, rt.binary_op(op_tok.value), right, op_tok.line, op_tok.column)

    def e_power(self, node):
        base, op, exp = node.children
        if not (isinstance(exp, Tree) and exp.data == "power"):
            return self._binop(self.expr(base), op, self.expr(exp))
        # a ^ b ^ c ^ ...: bases evaluated left to right, folded from the right, in a loop
        links = []
        while isinstance(exp, Tree) and exp.data == "power":
            links.append((self.expr(base), rt.binary_op(op.value), op.line, op.column))
            base, op, exp = exp.children
        links.append((self.expr(base), rt.binary_op(op.value), op.line, op.column))
        last = self.expr(exp)
        links = tuple(links)

        def run(s):
            vals = [b(s) for b, _, _, _ in links]
            r = last(s)
            for v, (_, binary, line, col) in zip(reversed(vals), reversed(links)):
                try:
                    r = binary(v, r)
                except Exception as e:
                    raise located(e, line, col) from None
            return r

        return run

    def e_unary(self, node):
        op_tok, operand = node.children
        if isinstance(operand, Tree) and operand.data == "unary":
            # - - - x: one loop, however long the chain
            toks = [op_tok]
            while isinstance(operand, Tree) and operand.data == "unary":
                t, operand = operand.children
                toks.append(t)
            v = self.expr(operand)
            seq = tuple((t.value, t.line, t.column) for t in reversed(toks))
            unary = rt.unary

            def run(s):
                x = v(s)
                for o, line, col in seq:
                    try:
                        x = unary(o, x)
                    except Exception as e:
                        raise located(e, line, col) from None
                return x

            return run
        v = self.expr(operand)
        op = op_tok.value
        return self._guard(lambda s: rt.unary(op, v(s)), op_tok)

    def e_compare(self, node):
        ch = node.children
        operands = [self.expr(c) for c in ch[0::2]]
        ops = [
            (
                rt.compare_op(" ".join(tok.value for tok in t.children)),
                t.children[0].line,
                t.children[0].column,
            )
            for t in ch[1::2]
        ]
        if len(ops) == 1:
            ((compare, line, col),) = ops
            return apply2(operands[0], compare, operands[1], line, col)

        def run(s):
            a = operands[0](s)
            result = True
            for (compare, line, col), nxt in zip(ops, operands[1:]):
                b = nxt(s)
                try:
                    r = compare(a, b)
                except Exception as e:
                    raise located(e, line, col) from None
                if not rt.truth(r):
                    return r
                result = r
                a = b
            return result

        return run

    def e_not_(self, node):
        inner, n = node.children[0], 1
        while isinstance(inner, Tree) and inner.data == "not_":  # not not ... x
            inner, n = inner.children[0], n + 1
        v = self.expr(inner)
        if n % 2:
            return self._guard(lambda s: not rt.truth(v(s)), node)
        return self._guard(lambda s: bool(rt.truth(v(s))), node)

    def e_and_(self, node):
        items = [self.expr(c) for c in node.children]
        truth = rt.truth

        def run(s):
            v = None
            for i in items:
                v = i(s)
                if not truth(v):
                    return v
            return v

        return self._guard(run, node)

    def e_or_(self, node):
        items = [self.expr(c) for c in node.children]
        truth = rt.truth

        def run(s):
            v = None
            for i in items:
                v = i(s)
                if truth(v):
                    return v
            return v

        return self._guard(run, node)

    def e_ternary(self, node):
        a, cond, b = (self.expr(c) for c in node.children)
        truth = rt.truth
        return self._guard(lambda s: a(s) if truth(cond(s)) else b(s), node)
