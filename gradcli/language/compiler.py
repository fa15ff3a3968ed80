"""The compiler: a Lark parse tree becomes nested Python closures, once.

Each expression node becomes `f(scope) -> value` and each statement
`f(scope) -> signal` (None, BREAK, CONTINUE or a Return).  Running a program
calls closures; the tree is never walked again.  Every closure that can fail
attaches its line and column to the error, so messages point at the place.
"""
from __future__ import annotations

from lark import Token, Tree

from . import runtime as rt
from ..base.errors import GradAssertionError, GradError, GradNameError, GradRuntimeError, GradSyntaxError, GradTypeError, LimitError, did_you_mean
from ..library.values import GradModeContext
from .runtime import BREAK, CONTINUE, Return, UserFunction
from ..core.tensor import Tensor
from ..base import context
from ..base.errors import broadcast_error
from ..base.limits import check_format_spec
from ..core.printing import show, show_str
from ..ops.shape import unbind
from ..base.limits import check_items
from ..library.autograd_api import backward_leaves
from ..library.trace import traced
from .parser import parse
from ..ops.shape import index

_MISSING = object()


class State:
    """What the running program reports to: set by the session."""
    out = None            # output sink (gradcli.output)
    line = 0              # line of the statement being run
    steps = 0
    origin = None         # (file name, source text) of the program being run


state = State()


def _pos(node):
    if isinstance(node, Token):
        return node.line, node.column
    meta = node.meta
    return getattr(meta, "line", None), getattr(meta, "column", None)


def _wrap(exc, line, col):
    """Turn any exception raised while evaluating into a positioned GradError."""
    if isinstance(exc, GradError):
        return exc.at(line, col)
    if isinstance(exc, RecursionError):
        return LimitError("expression or recursion too deep", line, col)
    if isinstance(exc, MemoryError):
        return LimitError("out of memory", line, col)
    if isinstance(exc, (ValueError, TypeError, IndexError, ZeroDivisionError, OverflowError,
                        KeyError, AttributeError)):
        return translate_python_error(exc).at(line, col)
    return None


def translate_python_error(exc) -> GradError:
    """A Python/NumPy exception from inside an op, as a gradcli error."""
    msg = str(exc).split("\n")[0]
    import re
    m = re.search(r"operands could not be broadcast together with (?:shapes|remapped shapes "
                  r"\[original->remapped\]:) \(([\d, ]*)\)\s*(?:and requested shape )?"
                  r"\(([\d, ]*)\)", msg)
    if m:
        sa = [int(v) for v in m.group(1).replace(" ", "").split(",") if v]
        sb = [int(v) for v in m.group(2).replace(" ", "").split(",") if v]
        return broadcast_error(sa, sb)
    m = re.match(r"(?:[\w.<>]+\(\) )?got an unexpected keyword argument '(\w+)'", msg)
    if m:
        return GradTypeError(f"unexpected keyword argument '{m.group(1)}'")
    m = re.match(r"(\w+)\(\) (missing \d+ required positional argument.*|takes .*)", msg)
    if m:
        return GradTypeError(f"{m.group(1)}() {m.group(2)}")
    kind = {ValueError: "ValueError", TypeError: "TypeError", IndexError: "IndexError",
            ZeroDivisionError: "ZeroDivisionError", OverflowError: "OverflowError",
            KeyError: "KeyError"}.get(type(exc), "RuntimeError")
    return GradError(msg or kind, type_name=kind)


class Compiler:
    def __init__(self, builtins: dict):
        self.builtins = builtins
        self.depth = 0          # block nesting while compiling (the REPL echoes top level only)

    # ------------------------------------------------------------ statements
    def program(self, tree):
        """[(closure, line)] for each top-level statement."""
        out = []
        for node in tree.children:
            if node is None or isinstance(node, Token):
                continue
            try:
                items = self.stmt_list(node, display=True, in_function=False)
            except RecursionError:
                line, col = _pos(node)
                raise LimitError("statement nested too deeply to compile", line, col,
                                 hint="split it into smaller statements") from None
            out.extend(items)
        return out

    def stmt_list(self, node, display, in_function):
        """A statement node -> [(closure, line)] (a simple_stmt may hold several)."""
        if node.data == "simple_stmt":
            return [(self.small(s, display, in_function), _pos(s)[0])
                    for s in node.children if s is not None]
        return [(self.compound(node, display, in_function), _pos(node)[0])]

    def block(self, suite, display, in_function):
        stmts = []
        self.depth += 1
        try:
            for child in suite.children:
                if child is None or isinstance(child, Token):
                    continue
                stmts.extend(fn for fn, _ in self.stmt_list(child, display, in_function))
        finally:
            self.depth -= 1
        if len(stmts) == 1:
            return stmts[0]
        stmts = tuple(stmts)

        def run(s):
            for st in stmts:
                r = st(s)
                if r is not None:
                    return r
        return run

    def small(self, node, display, in_function):
        fn = getattr(self, "s_" + node.data)(node, display, in_function)
        line, col = _pos(node)

        def stmt(s):
            state.line = line
            try:
                return fn(s)
            except GradError as e:
                raise e.at(line, col)
            except Exception as e:
                w = _wrap(e, line, col)
                if w is None:
                    raise
                raise w from None
        return stmt

    def compound(self, node, display, in_function):
        return getattr(self, "s_" + node.data)(node, display, in_function)

    def s_expr_stmt(self, node, display, in_function):
        e = self.expr(node.children[0])
        line = _pos(node)[0]
        if display and not in_function:
            def run(s):
                v = e(s)
                if v is not None:
                    state.out.value(v, line)
        else:
            def run(s):
                e(s)
        return run

    def s_assign(self, node, display, in_function):
        *targets, value = node.children
        setters = [self.target(t) for t in targets]
        val = self.expr(value)
        echo = display and not in_function and self.depth == 0
        names = [t.children[0].value if isinstance(t, Tree) and t.data == "name" else None
                 for t in targets]
        line = _pos(node)[0]
        if len(setters) == 1:
            setter, name = setters[0], names[0]

            def run(s):
                v = val(s)
                setter(s, v)
                if echo and state.out.echo_assign and name is not None:
                    state.out.assign(name, v, line)
            return run

        def run_chain(s):
            v = val(s)
            for st in setters:
                st(s, v)
        return run_chain

    def target(self, t):
        """A closure that stores a value into an assignment target."""
        if isinstance(t, Tree) and t.data == "name":
            name = t.children[0].value

            def store(s, v):
                s.vars[name] = v
            return store
        if isinstance(t, Tree) and t.data == "getattr":
            obj = self.expr(t.children[0])
            attr = t.children[1].value
            line, col = _pos(t.children[1])

            def store_attr(s, v):
                try:
                    rt.set_attr(obj(s), attr, v)
                except GradError as e:
                    raise e.at(line, col)
            return store_attr
        if isinstance(t, Tree) and t.data in ("tuple_items", "exprlist_items"):
            subs = [self.target(c) for c in t.children if c is not None]
            n = len(subs)
            line, col = _pos(t)

            def unpack(s, v):
                try:
                    items = _iter_values(v)
                except GradError as e:
                    raise e.at(line, col)
                if len(items) != n:
                    raise GradRuntimeError(
                        f"cannot unpack {len(items)} values into {n} names" if len(items) > n else
                        f"not enough values to unpack (expected {n}, got {len(items)})",
                        line, col, type_name="ValueError")
                for st, item in zip(subs, items):
                    st(s, item)
            return unpack
        if isinstance(t, Tree) and t.data == "getitem":
            line, col = _pos(t)
            raise GradSyntaxError(
                "assigning to an element (x[i] = ...) is not supported: tensors are not changed "
                "in place", line, col, hint="build a new tensor, e.g. with where(...) or cat(...)")
        line, col = _pos(t)
        raise GradSyntaxError("cannot assign to this expression", line, col)

    def s_augassign(self, node, display, in_function):
        target, op, value = node.children
        op_sym = op.value[:-1]
        if not (isinstance(target, Tree) and target.data in ("name", "getattr")):
            line, col = _pos(target)
            raise GradSyntaxError("cannot assign to this expression", line, col)
        cur = self.expr(target)
        val = self.expr(value)
        store = self.target(target)
        line, col = op.line, op.column
        binary = rt.binary_op(op_sym)
        vconst, vv = _const_value(val)

        def run(s):
            old = cur(s)
            try:
                r = binary(old, vv if vconst else val(s))
                if type(old) is Tensor and old.requires_grad and old.grad_fn is None \
                        and not context.current.grad_enabled:
                    rt.update_leaf(old, r)     # `with no_grad: w -= lr * w.grad`, as PyTorch
                    return
            except GradError as e:
                raise e.at(line, col)
            store(s, r)
        return run

    def s_backward_stmt(self, node, display, in_function):
        _, target, *rest = node.children
        t = self.expr(target)
        pos, kw = self._arguments(Tree("arguments", rest))
        if len(pos) > 1:
            raise GradSyntaxError("backward takes one gradient after the tensor "
                                  "(then keywords: trace=, retain_graph=, create_graph=)",
                                  *_pos(rest[1]))
        g = pos[0] if pos else (lambda s: None)
        for name, _ in kw:
            if name not in BACKWARD_KEYWORDS:
                kw_node = next(a for a in rest if isinstance(a, Tree) and a.data == "kwarg"
                               and a.children[0].value == name)
                raise GradSyntaxError(f"backward got an unexpected keyword argument '{name}'",
                                      *_pos(kw_node.children[0]),
                                      hint=did_you_mean(name, BACKWARD_KEYWORDS))
        kw = dict(kw)
        trace_on = kw.pop("trace", None)
        show = display and not in_function
        tname = _plain_name(target)
        line = _pos(node)[0]

        def run(s):
            try:
                kwargs = {k: v(s) for k, v in kw.items()}
                if trace_on is not None and rt.truth(trace_on(s)):
                    touched = traced(state.out, backward_leaves, t(s), g(s), **kwargs)
                else:
                    touched = backward_leaves(t(s), g(s), **kwargs)
            except GradError as e:
                raise _backward_hint(e, tname, "command")
            if show and touched:
                names = _leaf_names(s, touched)
                for leaf in touched:
                    name = names.get(id(leaf))
                    if name is not None:
                        state.out.grad(name, leaf.grad, line)
        return run

    def s_del_stmt(self, node, display, in_function):
        targets = node.children[0]
        items = targets.children if isinstance(targets, Tree) and targets.data == "exprlist_items" \
            else [targets]
        names = []
        for t in items:
            if t is None:
                continue
            if not (isinstance(t, Tree) and t.data == "name"):
                line, col = _pos(t)
                raise GradSyntaxError("del takes variable names", line, col)
            names.append((t.children[0].value, _pos(t)))

        def run(s):
            for name, (line, col) in names:
                if name not in s.vars:
                    raise GradNameError(f"name '{name}' is not defined", line, col)
                del s.vars[name]
        return run

    def s_pass_stmt(self, node, display, in_function):
        return lambda s: None

    def s_break_stmt(self, node, display, in_function):
        return lambda s: BREAK

    def s_continue_stmt(self, node, display, in_function):
        return lambda s: CONTINUE

    def s_return_stmt(self, node, display, in_function):
        if not in_function:
            line, col = _pos(node)
            raise GradSyntaxError("'return' outside function", line, col)
        v = node.children[0]
        e = self.expr(v) if v is not None else (lambda s: None)
        return lambda s: Return(e(s))

    def s_assert_stmt(self, node, display, in_function):
        cond, msg = node.children
        c = self.expr(cond)
        m = self.expr(msg) if msg is not None else None
        line, col = _pos(cond)

        def run(s):
            if not rt.truth(c(s)):
                text = show_str(m(s)) if m is not None else "assertion failed"
                raise GradAssertionError(text, line, col)
        return run

    def s_import_name(self, node, display, in_function):
        dotted, alias = node.children
        parts = [t.value for t in dotted.children]
        module = self._module(parts, dotted)
        bind = alias.value if alias is not None else parts[0]
        value = module if alias is not None else self._module(parts[:1], dotted)

        def run(s):
            s.vars[bind] = value
        return run

    def s_import_from(self, node, display, in_function):
        dotted, *names = node.children
        parts = [t.value for t in dotted.children]
        module = self._module(parts, dotted)
        binds = []
        for n in names:
            try:
                binds.append((n.value, module.get(n.value, self.builtins)))
            except GradError as e:
                raise GradSyntaxError(e.message, n.line, n.column, hint=e.hint)

        def run(s):
            for name, v in binds:
                s.vars[name] = v
        return run

    def _module(self, parts, node):
        mod = self.builtins.get("torch")
        if parts[0] != "torch":
            line, col = _pos(node)
            raise GradSyntaxError(f"no module named '{'.'.join(parts)}': only torch (and its "
                                  "autograd and nn.functional parts) can be imported", line, col)
        for p in parts[1:]:
            nxt = mod.members.get(p) if isinstance(mod, rt.Module) else None
            if not isinstance(nxt, rt.Module):
                line, col = _pos(node)
                raise GradSyntaxError(f"no module named '{'.'.join(parts)}'", line, col)
            mod = nxt
        return mod

    def s_if_stmt(self, node, display, in_function):
        cond, body, *rest = node.children
        else_suite = rest.pop() if rest else None
        branches = [(self.expr(cond), self.block(body, display, in_function), _pos(cond))]
        for el in rest:
            c, b = el.children
            branches.append((self.expr(c), self.block(b, display, in_function), _pos(c)))
        other = self.block(else_suite, display, in_function) if else_suite is not None else None
        truth = rt.truth

        def run(s):
            for c, b, (line, col) in branches:
                state.line = line
                try:
                    ok = truth(c(s))
                except GradError as e:
                    raise e.at(line, col)
                if ok:
                    return b(s)
            if other is not None:
                return other(s)
        return run

    def s_while_stmt(self, node, display, in_function):
        cond, body = node.children
        c = self.expr(cond)
        b = self.block(body, display, in_function)
        line, col = _pos(cond)
        truth = rt.truth

        def run(s):
            max_steps = context.current.limits.max_steps
            while True:
                state.line = line
                try:
                    ok = c(s)
                    if ok is not True and ok is not False:
                        ok = truth(ok)
                except GradError as e:
                    raise e.at(line, col)
                if not ok:
                    return None
                if max_steps is not None:
                    _step(max_steps, line, col)
                r = _body(b, s)
                if r is not _GO_ON:
                    return r
        return run

    def s_for_stmt(self, node, display, in_function):
        target, iterable, body = node.children
        store = self.target(target)
        it = self.expr(iterable)
        b = self.block(body, display, in_function)
        line, col = _pos(iterable)

        def run(s):
            try:
                items = _iterate(it(s))
            except GradError as e:
                raise e.at(line, col)
            max_steps = context.current.limits.max_steps
            for item in items:
                store(s, item)
                if max_steps is not None:
                    _step(max_steps, line, col)
                r = _body(b, s)
                if r is not _GO_ON:
                    return r
        return run

    def s_funcdef(self, node, display, in_function):
        name_tok, params, body = node.children
        name = name_tok.value
        names, defaults = [], {}
        if params is not None:
            for p in params.children:
                if p is None:
                    continue
                pname, default = p.children
                if pname.value in names:
                    raise GradSyntaxError(f"duplicate argument '{pname.value}' in function definition",
                                          pname.line, pname.column)
                names.append(pname.value)
                if default is not None:
                    defaults[pname.value] = self.expr(default)
                elif defaults:
                    raise GradSyntaxError("non-default argument follows default argument",
                                          pname.line, pname.column)
        code = self.block(body, False, True)

        def run(s):
            g = s if s.globals is None else s.globals
            d = {k: e(s) for k, e in defaults.items()}
            s.vars[name] = UserFunction(name, tuple(names), d, code, g, origin=state.origin)
        return run

    def s_with_stmt(self, node, display, in_function):
        ctx, alias, body = node.children
        c = self.expr(ctx)
        b = self.block(body, display, in_function)
        line, col = _pos(ctx)
        bind = alias.value if alias is not None else None

        def run(s):
            try:
                m = c(s)
                if not (isinstance(m, GradModeContext)
                        or getattr(type(m), "language_context", False)):   # library contexts
                    raise GradTypeError(
                        "with needs no_grad or enable_grad (with or without parentheses)")
            except GradError as e:
                raise e.at(line, col)
            if bind:
                s.vars[bind] = m
            with m:
                return b(s)
        return run

    # ------------------------------------------------------------ expressions
    def expr(self, node):
        if isinstance(node, Token):
            raise GradSyntaxError(f"unexpected {node.value!r}", node.line, node.column)
        method = getattr(self, "e_" + node.data, None)
        if method is None:
            line, col = _pos(node)
            raise GradSyntaxError("this is not an expression", line, col)
        return method(node)

    def _guard(self, fn, node):
        """Attach node's position to errors raised by fn."""
        line, col = _pos(node)

        def run(s):
            try:
                return fn(s)
            except GradError as e:
                raise e.at(line, col)
            except Exception as e:
                w = _wrap(e, line, col)
                if w is None:
                    raise
                raise w from None
        return run

    def e_name(self, node):
        tok = node.children[0]
        name = tok.value
        builtins = self.builtins
        line, col = tok.line, tok.column

        def load(s):
            v = s.vars.get(name, _MISSING)
            if v is _MISSING:
                g = s.globals
                if g is not None:
                    v = g.vars.get(name, _MISSING)
                if v is _MISSING:
                    v = builtins.get(name, _MISSING)
                    if v is _MISSING:
                        known = list(s.vars) + (list(g.vars) if g is not None else []) + list(builtins)
                        raise GradNameError(f"name '{name}' is not defined", line, col,
                                            hint=did_you_mean(name, known))
            return v
        return load

    def e_number(self, node):
        tok = node.children[0]
        text = tok.value.replace("_", "")
        if text.lower().endswith("j"):
            raise GradSyntaxError("complex numbers are not supported", tok.line, tok.column)
        try:
            if any(c in text for c in ".eE"):
                v = float(text)
            else:
                if len(text) > 4000:
                    raise ValueError
                v = int(text)
        except ValueError:
            raise GradSyntaxError("number literal too large", tok.line, tok.column)
        return _constant(v)

    def e_string(self, node):
        import ast      # only programs with strings pay for it
        parts = []
        for tok in node.children:
            text = tok.value
            prefix = ""
            while text[0] in "fFrR":
                prefix += text[0].lower()
                text = text[1:]
            try:
                value = ast.literal_eval(("r" if "r" in prefix else "") + text)
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
        import string
        pieces = []
        try:
            fields = list(string.Formatter().parse(text))
        except ValueError as e:
            raise GradSyntaxError(f"f-string: {e}", tok.line, tok.column)
        raw, cursor = tok.value, 0
        for lit, field, spec, conv in fields:
            if lit:
                pieces.append(lambda s, v=lit: v)
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
            try:
                tree = parse("\n" * (line - 1) + "(" + " " * max(col - 2, 0) + field + ")\n")
                e = self.expr(tree.children[0].children[0].children[0])
            except GradError:
                raise GradSyntaxError(f"f-string: invalid expression {field!r}", tok.line, tok.column)
            pieces.append(_fmt_piece(e, spec, conv))
        return lambda s: _joined_text([p(s) for p in pieces])

    def e_true(self, node):
        return _constant(True)

    def e_false(self, node):
        return _constant(False)

    def e_none(self, node):
        return _constant(None)

    def e_ellipsis(self, node):
        return lambda s: Ellipsis

    def e_empty_tuple(self, node):
        return lambda s: ()

    def e_list_(self, node):
        items = [self.expr(c) for c in node.children if c is not None]
        return lambda s: [i(s) for i in items]

    def e_tuple_items(self, node):
        items = [self.expr(c) for c in node.children if c is not None]
        return lambda s: tuple(i(s) for i in items)

    e_exprlist_items = e_tuple_items

    def e_binary(self, node):
        ch = node.children
        if len(ch) == 3:
            return self._binop(self.expr(ch[0]), ch[1], self.expr(ch[2]))
        # a long chain (1 + 2 + ... + n) runs in a loop, not in nested closures
        first = self.expr(ch[0])
        rest = tuple((rt.binary_op(t.value), t.line, t.column, self.expr(r))
                     for t, r in zip(ch[1::2], ch[2::2]))

        def run(s):
            a = first(s)
            for binary, line, col, right in rest:
                b = right(s)
                try:
                    a = binary(a, b)
                except GradError as e:
                    raise e.at(line, col)
                except Exception as e:
                    w = _wrap(e, line, col)
                    if w is None:
                        raise
                    raise w from None
            return a
        return run

    def _binop(self, left, op_tok, right):
        return _apply2(left, rt.binary_op(op_tok.value), right, op_tok.line, op_tok.column)

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
                except GradError as e:
                    raise e.at(line, col)
                except Exception as e:
                    w = _wrap(e, line, col)
                    if w is None:
                        raise
                    raise w from None
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
                    except GradError as e:
                        raise e.at(line, col)
                    except Exception as e:
                        w = _wrap(e, line, col)
                        if w is None:
                            raise
                        raise w from None
                return x
            return run
        v = self.expr(operand)
        op = op_tok.value
        return self._guard(lambda s: rt.unary(op, v(s)), op_tok)

    def e_compare(self, node):
        ch = node.children
        operands = [self.expr(c) for c in ch[0::2]]
        ops = [(rt.compare_op(" ".join(tok.value for tok in t.children)), t.children[0].line,
                t.children[0].column) for t in ch[1::2]]
        if len(ops) == 1:
            (compare, line, col), = ops
            return _apply2(operands[0], compare, operands[1], line, col)

        def run(s):
            a = operands[0](s)
            result = True
            for (compare, line, col), nxt in zip(ops, operands[1:]):
                b = nxt(s)
                try:
                    r = compare(a, b)
                except GradError as e:
                    raise e.at(line, col)
                except Exception as e:
                    raise (_wrap(e, line, col) or e) from None
                if not rt.truth(r):
                    return r
                result = r
                a = b
            return result
        return run

    def e_not_(self, node):
        inner, n = node.children[0], 1
        while isinstance(inner, Tree) and inner.data == "not_":     # not not ... x
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

    def e_lambda_(self, node):
        params, body = node.children
        names = tuple(t.value for t in params.children) if params is not None else ()
        code = self.expr(body)

        def run(s):
            g = s if s.globals is None else s.globals
            return UserFunction("<lambda>", names, {}, code, g, is_lambda=True,
                                origin=state.origin)
        return run

    def _arguments(self, node):
        """(positional closures, [(name, closure)])."""
        pos, kw = [], []
        if node is None:
            return pos, kw
        for a in node.children:
            if a is None:
                continue
            if isinstance(a, Tree) and a.data == "kwarg":
                if any(n == a.children[0].value for n, _ in kw):
                    raise GradSyntaxError(f"keyword argument repeated: {a.children[0].value}",
                                          *_pos(a.children[0]))
                kw.append((a.children[0].value, self.expr(a.children[1])))
            else:
                if kw:
                    line, col = _pos(a)
                    raise GradSyntaxError("positional argument follows keyword argument",
                                          line, col)
                pos.append(self.expr(a))
        return pos, kw

    def e_call(self, node):
        func, args = node.children
        pos, kw = self._arguments(args)
        line, col = _pos(node)
        kwpos = {a.children[0].value: _pos(a.children[0]) for a in (args.children if args else ())
                 if isinstance(a, Tree) and a.data == "kwarg"}
        if isinstance(func, Tree) and func.data == "getattr":
            obj = self.expr(func.children[0])
            attr_tok = func.children[1]
            run = self._method_call(obj, attr_tok, pos, kw, line, col, kwpos)
            if attr_tok.value == "backward":
                return _with_backward_hint(run, _plain_name(func.children[0]), "method")
            return run
        f = self.expr(func)
        fname = _callee_name(func)

        def run(s):
            fn = f(s)
            a = [p(s) for p in pos] if pos else ()
            k = {n: e(s) for n, e in kw} if kw else {}
            state.line = line      # print(f(x)): the print's line, not f's last one
            return _call(fn, a, k, fname, line, col, kwpos)
        if fname == "backward" and args is not None and args.children:
            return _with_backward_hint(run, _plain_name(args.children[0]), "call")
        return run

    def _method_call(self, obj, attr_tok, pos, kw, line, col, kwpos=None):
        attr = attr_tok.value
        methods = rt.METHODS
        aline, acol = attr_tok.line, attr_tok.column

        def run(s):
            o = obj(s)
            a = [p(s) for p in pos] if pos else ()
            k = {n: e(s) for n, e in kw} if kw else {}
            if type(o) is Tensor:
                m = methods.get(attr)
                if m is not None:
                    return _call(m, (o, *a), k, attr, aline, acol, kwpos)
            try:
                fn = rt.get_attr(o, attr)
            except GradError as e:
                raise e.at(aline, acol)
            return _call(fn, a, k, attr, aline, acol, kwpos)
        return run

    def e_getattr(self, node):
        obj = self.expr(node.children[0])
        tok = node.children[1]
        attr = tok.value
        line, col = tok.line, tok.column
        get = rt.get_attr

        def run(s):
            o = obj(s)
            try:
                return get(o, attr)
            except GradError as e:
                raise e.at(line, col)
            except Exception as e:
                raise (_wrap(e, line, col) or e) from None
        return run

    def e_getitem(self, node):
        obj, subs = node.children
        o = self.expr(obj)
        items = [self.expr(c) for c in subs.children if c is not None]
        single = len(items) == 1 and len(subs.children) == 1
        line, col = _pos(subs)

        def run(s):
            v = o(s)
            key = items[0](s) if single else tuple(i(s) for i in items)
            try:
                if type(v) is Tensor:
                    return index(v, key)
                return _py_index(v, key)
            except GradError as e:
                raise e.at(line, col)
            except Exception as e:
                raise (_wrap(e, line, col) or e) from None
        return run

    def e_slice(self, node):
        parts = [self.expr(c) if c is not None else None for c in node.children]
        while len(parts) < 3:
            parts.append(None)
        a, b, c = parts
        return lambda s: slice(a(s) if a else None, b(s) if b else None, c(s) if c else None)

    def e_kwarg(self, node):
        line, col = _pos(node)
        raise GradSyntaxError("keyword argument outside a call", line, col)


def _joined_text(pieces):
    """The pieces of an f-string (or of adjacent literals) joined, refusing a text over the
    size limit before it is made (`t = f"{t}{t}"` in a loop)."""
    check_items(sum(map(len, pieces)), "the formatted string", "characters")
    return "".join(pieces)


def _fmt_piece(e, spec, conv):

    def piece(s):
        v = e(s)
        if conv == "r":
            return show(v)
        if spec:
            if type(v) is Tensor:
                v = v.item()
            check_format_spec(spec)
            return format(v, spec)
        return show_str(v)
    return piece


def _callee_name(func):
    if isinstance(func, Tree) and func.data == "name":
        return func.children[0].value
    if isinstance(func, Tree) and func.data == "getattr":
        return func.children[1].value
    return None


def _call(fn, args, kwargs, name, line, col, kwpos=None):
    if not callable(fn) or (isinstance(fn, type) and not hasattr(fn, "language_methods")):
        raise GradTypeError(f"'{rt._pyname(fn)}' object is not callable", line, col)
    try:
        return fn(*args, **kwargs)
    except GradError as e:
        if name and e.line is None and e.message.startswith("argument '"):
            e.message = f"{name}(): {e.message}"      # PyTorch names the function
        if e.line is not None and type(fn) is UserFunction:    # raised inside fn: a call chain
            if not e.calls:
                e.calls = []
            e.calls.append([None, line, col, fn.name, state.origin])
        raise e.at(*_kw_pos(e, kwpos, line, col))
    except TypeError as e:
        err = _call_type_error(e, fn, name, kwargs)
        raise err.at(*_kw_pos(err, kwpos, line, col)) from None
    except RecursionError:
        raise LimitError("maximum recursion depth exceeded", line, col,
                         hint="raise it with --max-depth") from None
    except Exception as e:
        w = _wrap(e, line, col)
        if w is None:
            raise
        raise w from None


def _kw_pos(err, kwpos, line, col):
    """An unexpected keyword argument is pointed at where it is written."""
    if kwpos and err.line is None and "keyword argument '" in err.message:
        k = err.message.rsplit("keyword argument '", 1)[1].split("'")[0]
        return kwpos.get(k, (line, col))
    return line, col


def _plain_name(node):
    """The variable name if node is just a name (for hints), else None."""
    if isinstance(node, Tree) and node.data == "name":
        return node.children[0].value
    return None


def _backward_hint(err, name, form):
    """The non-scalar backward error, with a hint that names the variable."""
    if "implicitly created only for scalar outputs" in err.message:
        if form == "method":
            n = name or "y"
            err.hint = (f"reduce it to a scalar first, {n}.sum().backward() or "
                        f"{n}.mean().backward(), or give a gradient of {n}'s shape: "
                        f"{n}.backward(ones_like({n}))")
        elif name:
            err.hint = (f"reduce it to a scalar first, backward sum({name}) or backward "
                        f"mean({name}), or give a gradient of {name}'s shape: "
                        f"backward {name}, ones_like({name})")
        else:
            err.hint = ("reduce it to a scalar first, backward sum(...) or backward mean(...), "
                        "or give a gradient of the same shape: backward ..., gradient")
    return err


def _with_backward_hint(run, name, form):
    def hinted(s):
        try:
            return run(s)
        except GradError as e:
            raise _backward_hint(e, name, form)
    return hinted


def _call_type_error(e, fn, name, kwargs):
    import inspect
    msg = str(e)
    target = getattr(fn, "fn", fn)
    try:
        params = list(inspect.signature(target).parameters)
    except (TypeError, ValueError):
        params = []
    for k in kwargs:
        if f"'{k}'" in msg and "unexpected keyword" in msg:
            return GradTypeError(f"{name}() got an unexpected keyword argument '{k}'",
                                 hint=did_you_mean(k, [p for p in params if p not in ("args", "kwargs")]))
    import re
    m = re.search(r"(missing \d+ required positional argument.*|takes .* given|"
                  r"got multiple values for argument .*)", msg)
    if m:
        return GradTypeError(f"{name}() {m.group(1)}")
    return translate_python_error(e)


_GO_ON = object()


def _constant(v):
    """The closure of a literal; operators read its value without calling it."""
    def const(s):
        return v
    const.value = v
    return const


def _apply2(left, fn, right, line, col):
    """The closure of `left op right` for an operator function `fn` (arithmetic or
    comparison): literal operands read without a call, errors placed at the operator."""
    lconst, lv = _const_value(left)
    rconst, rv = _const_value(right)

    def run(s):
        a = lv if lconst else left(s)
        b = rv if rconst else right(s)
        try:
            return fn(a, b)
        except GradError as e:
            raise e.at(line, col)
        except Exception as e:
            w = _wrap(e, line, col)
            if w is None:
                raise
            raise w from None
    return run


def _const_value(fn):
    """(True, value) if `fn` is a literal's closure, else (False, None)."""
    if hasattr(fn, "value"):
        return True, fn.value
    return False, None


def _body(b, s):
    """Run a loop body: _GO_ON to go on looping, else what the loop returns
    (None after `break`, a Return from inside a function)."""
    r = b(s)
    if r is None or r is CONTINUE:
        return _GO_ON
    return None if r is BREAK else r


def _step(max_steps, line, col):
    state.steps += 1
    if state.steps > max_steps:
        raise LimitError(f"the program ran more than --max-steps={max_steps} loop iterations",
                         line, col)


def _iterate(v):
    if isinstance(v, range):
        return v
    if isinstance(v, (list, tuple, str)):
        return list(v)
    if type(v) is Tensor:
        if v.data.ndim == 0:
            raise GradTypeError("iteration over a 0-d tensor")
        return unbind(v)
    it = getattr(type(v), "language_iter", None)          # library containers, DataLoader
    if it is not None:
        return it(v)
    raise GradTypeError(f"'{rt._pyname(v)}' object is not iterable")


def _iter_values(v):
    if isinstance(v, (tuple, list)):
        return list(v)
    if isinstance(v, range):
        check_items(len(v), "unpacking this range")
        return list(v)
    if type(v) is Tensor or hasattr(type(v), "language_iter"):
        return list(_iterate(v))
    raise GradTypeError(f"cannot unpack non-iterable {rt._pyname(v)} object")


def _py_index(v, key):
    if isinstance(v, (list, tuple, str, range)):
        if isinstance(key, bool) or not isinstance(key, (int, slice)):
            if type(key) is Tensor and key.data.size == 1 and key.data.dtype.kind in "iu":
                key = key.item()
            else:
                raise GradTypeError(f"{rt._tname(v)} indices must be integers or slices")
        try:
            r = v[key]
        except IndexError:
            raise GradRuntimeError(f"{rt._tname(v)} index out of range", type_name="IndexError")
        return r
    if isinstance(v, dict):
        return v[key]
    getitem = getattr(type(v), "language_getitem", None)  # Sequential, datasets
    if getitem is not None:
        return getitem(v, key)
    raise GradTypeError(f"'{rt._pyname(v)}' object is not subscriptable")


BACKWARD_KEYWORDS = ("trace", "retain_graph", "create_graph", "inputs")


def _leaf_names(scope, leaves):
    """id(tensor) -> the first variable name bound to it (locals, then globals)."""
    wanted = {id(t) for t in leaves}
    names = {}
    scopes = [scope.vars] + ([scope.globals.vars] if scope.globals is not None else [])
    for vars in scopes:
        for name, v in vars.items():
            if type(v) is Tensor and id(v) in wanted and id(v) not in names:
                names[id(v)] = name
    return names
