"""Compound statements: `if`, `while`, `for`, `def` and `with`."""
from __future__ import annotations

from ..base.errors import GradError, GradSyntaxError, GradTypeError
from ..base.limits import limits
from . import runtime as rt
from ..library.values import GradModeContext
from .iteration import GO_ON, body, iterate, step
from .positions import pos
from .runtime import UserFunction
from .scopes import FunctionInfo
from .state import state


class Control:
    """Compiles the block statements (mixed into the Compiler)."""

    def s_if_stmt(self, node):
        cond, suite, *rest = node.children
        else_suite = rest.pop() if rest else None
        branches = [(self.expr(cond), self.block(suite), pos(cond))]
        for el in rest:
            c, b = el.children
            branches.append((self.expr(c), self.block(b), pos(c)))
        other = self.block(else_suite) if else_suite is not None else None
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

    def s_while_stmt(self, node):
        cond, suite = node.children
        c = self.expr(cond)
        b = self.block(suite)
        line, col = pos(cond)
        truth = rt.truth

        def run(s):
            max_steps = limits.max_steps
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
                    step(max_steps, line, col)
                r = body(b, s)
                if r is not GO_ON:
                    return r
        return run

    def s_for_stmt(self, node):
        target, iterable, suite = node.children
        store = self.target(target)
        it = self.expr(iterable)
        b = self.block(suite)
        line, col = pos(iterable)

        def run(s):
            try:
                items = iterate(it(s))
            except GradError as e:
                raise e.at(line, col)
            max_steps = limits.max_steps
            for item in items:
                store(s, item)
                if max_steps is not None:
                    step(max_steps, line, col)
                r = body(b, s)
                if r is not GO_ON:
                    return r
        return run

    def s_funcdef(self, node):
        name_tok, params, suite = node.children
        name = name_tok.value
        names, defaults = [], {}
        if params is not None:
            for p in params.children:
                if p is None:
                    continue
                pname, default = p.children
                if pname.value in names:
                    raise GradSyntaxError(f"duplicate argument '{pname.value}' in function "
                                          "definition", pname.line, pname.column)
                names.append(pname.value)
                if default is not None:
                    defaults[pname.value] = self.expr(default)
                elif defaults:
                    raise GradSyntaxError("non-default argument follows default argument",
                                          pname.line, pname.column)
        code = self.function_body(FunctionInfo(name), suite)

        def run(s):
            g = s if s.globals is None else s.globals
            d = {k: e(s) for k, e in defaults.items()}
            s.vars[name] = UserFunction(name, tuple(names), d, code, g, origin=state.origin)
        return run

    def s_with_stmt(self, node):
        ctx, alias, suite = node.children
        c = self.expr(ctx)
        b = self.block(suite)
        line, col = pos(ctx)
        bind = alias.value if alias is not None else None

        def run(s):
            try:
                m = c(s)
                if not isinstance(m, GradModeContext):
                    raise GradTypeError(
                        "with needs no_grad or enable_grad (with or without parentheses)")
            except GradError as e:
                raise e.at(line, col)
            if bind:
                s.vars[bind] = m
            with m:
                return b(s)
        return run
