"""`try`, `raise` and `assert` in the fast tier (fast_tier.py), as statements.py and
control.py run them.  A `try` runs as control._plain_try runs it: what the body raises becomes the error the closure compiler would have raised
there (fast_support.fail: placed at the instruction that raised it, a fast callee's
call chained), and when it is one a program may catch (exceptions.catchable), the
`except` clauses are tried in order, each one's class evaluated then (errors placed at
it) and matched by exceptions.matches; the clause's block runs with the error the one
being handled (Handling.stack: a bare `raise`, a new error's context) and bound to the
clause's name, unbound after.  An error no clause takes goes on as it was; `else` and
`finally` are Python's own, as the closure compiler's are."""

from __future__ import annotations

import ast

from .parser import Tree

from ..runtime.errors import GradAssertionError, GradError
from ..core.printing import show_str
from .exceptions import Handling, catchable, matches, reraise, to_raise
from .fast_ast import Unsupported, _call, _h, _name, _pos, at
from .fast_support import fail


def caught(e):
    """The error the closure compiler's `except` would see for `e`, raised by the
    body of a generated `try`; None when no clause may catch it (it goes on as it is,
    placed where the function's own handler places it)."""
    if isinstance(e, GradError) and not catchable(e):
        return None
    if isinstance(e, (RecursionError, MemoryError)):  # (the limits: not catchable)
        return None
    err = fail(e, None)
    return err if catchable(err) else None


def fresh(err):
    """err, raised again from here with no traceback of the body (placed already)."""
    err.__traceback__ = None
    return err


def raised(v):
    """What `raise v` raises (exceptions.to_raise), without the traceback of an earlier
    raise of it (fail reads the one from here on)."""
    return fresh(to_raise(v))


def raised_again():
    """What a bare `raise` raises (exceptions.reraise)."""
    if not Handling.stack:
        reraise()
    return fresh(Handling.stack[-1])


def assertion(cond, message, has_message, line, col):
    """The AssertionError of a false `assert` (its message shown as str shows it)."""
    text = show_str(message) if has_message else "assertion failed"
    return GradAssertionError(text, line, col)


class FastTry:
    """`try`, `raise` and `assert` statements (mixed into fast_tier.Emitter)."""

    def s_raise_stmt(self, node):
        exc, _cause = node.children  # (the cause is not evaluated: statements.py)
        line, _ = _pos(node)
        if exc is None:
            self.consts["@raised_again"] = raised_again
            return [self._line(line), ast.Raise(exc=_call(_h("raised_again")), cause=None)]
        self.consts["@raised"] = raised
        return [self._line(line), ast.Raise(exc=_call(_h("raised"), self.expr(exc)), cause=None)]

    def s_assert_stmt(self, node):
        cond, msg = node.children
        line, _ = _pos(node)
        cl, cc = _pos(cond)
        self.consts["@assertion"] = assertion
        m = self.expr(msg) if msg is not None else ast.Constant(None)
        fail_ = ast.Raise(
            exc=_call(
                _h("assertion"),
                ast.Constant(None),
                m,
                ast.Constant(msg is not None),
                ast.Constant(cl),
                ast.Constant(cc),
            ),
            cause=None,
        )
        test = ast.UnaryOp(op=ast.Not(), operand=self.truth(self.expr(cond)))
        return [self._line(line), ast.If(test=test, body=[fail_], orelse=[])]

    def s_try_finally(self, node):
        suite, final = node.children
        return self._try(suite, [], None, final)

    def s_try_stmt(self, node):
        suite, *rest = node.children
        handlers = [c for c in rest if isinstance(c, Tree) and c.data == "except_clause"]
        else_suite, final = rest[len(handlers) :]
        return self._try(suite, handlers, else_suite, final)

    def _try(self, suite, handlers, else_suite, final):
        if self.cached:  # (an error's handling binds and reads outside the locals)
            raise Unsupported("a try in a loop whose variables are cached")
        body = self.block(suite)
        out = body
        if handlers:
            self.consts.update(
                {
                    "@caught": caught,
                    "@fresh": fresh,
                    "@matches": matches,
                    "@handling": Handling.stack,
                    "@BaseException": BaseException,
                }
            )
            e, err = self.tmp(), self.tmp()
            chain = [ast.Raise(exc=_call(_h("fresh"), _name(err)), cause=None)]
            for h in reversed(handlers):
                typ, alias, hsuite = h.children
                chain = self._clause(typ, alias, hsuite, h, err, chain)
            handler = ast.ExceptHandler(
                type=_h("BaseException"),
                name=e,
                body=[
                    ast.Assign(
                        targets=[_name(err, ast.Store())], value=_call(_h("caught"), _name(e))
                    ),
                    ast.If(
                        test=ast.Compare(
                            left=_name(err), ops=[ast.Is()], comparators=[ast.Constant(None)]
                        ),
                        body=[ast.Raise(exc=None, cause=None)],
                        orelse=[],
                    ),
                    # (the error let go when its handling ends, as Python unbinds `e`:
                    # its traceback holds this frame, which held it in a cycle)
                    ast.Try(
                        body=chain,
                        handlers=[],
                        orelse=[],
                        finalbody=[
                            ast.Assign(targets=[_name(err, ast.Store())], value=ast.Constant(None))
                        ],
                    ),
                ],
            )
            orelse = self.block(else_suite) if else_suite is not None else []
            out = [ast.Try(body=body, handlers=[handler], orelse=orelse, finalbody=[])]
        if final is not None:
            out = [ast.Try(body=out, handlers=[], orelse=[], finalbody=self.block(final))]
        return out

    def _clause(self, typ, alias, hsuite, h, err, rest):
        """The statements trying one `except` clause, then (`rest`) the ones after it."""
        push = ast.Expr(
            _call(ast.Attribute(value=_h("handling"), attr="append", ctx=ast.Load()), _name(err))
        )
        pop = ast.Expr(_call(ast.Attribute(value=_h("handling"), attr="pop", ctx=ast.Load())))
        before, after = [push], [pop]
        if alias is not None:
            name = alias.value
            before.append(ast.Assign(targets=[self.store_target(name)], value=_name(err)))
            # unbound when the block ends, as control._alias_binding unbinds it
            after.append(ast.Assign(targets=[self.store_target(name)], value=ast.Constant(None)))
            target = self.store_target(name)
            if isinstance(target, ast.Name):
                after.append(ast.Delete(targets=[_name(name, ast.Del())]))
            else:  # (a global)
                after.append(
                    ast.Expr(
                        _call(
                            ast.Attribute(value=_h("gv"), attr="pop", ctx=ast.Load()),
                            ast.Constant(name),
                            ast.Constant(None),
                        )
                    )
                )
        run = [
            *before,
            ast.Try(body=self.block(hsuite), handlers=[], orelse=[], finalbody=after),
        ]
        if typ is None:
            return run
        test = at(_call(_h("matches"), _name(err), self.expr(typ)), *_pos(typ))
        return [ast.If(test=test, body=run, orelse=rest)]
