"""Generator bodies: in a function with `yield`, the statements that (directly or
in their blocks) yield become Python generator functions, so the body runs only as
far as its consumer asks (`next(g)`, a `for` loop, `zip` with an endless generator,
`any(...)`), as in Python.

In a generator body a block is a sequence of plain statement closures (those with
no `yield`: compiled as everywhere else) and generator closures, run with `yield
from`; either returns the same signals (None, BREAK, CONTINUE, a Return).  A
compound statement that yields is compiled by the same methods as everywhere else
(control.py), asked for its generator form; this module compiles the blocks and
the `yield` statements.  `yield` is a statement, or the right side of an assignment
(`x = yield v` binds None: gradcli has no `send`); inside any other expression it
is a syntax error.  Loops count --max-steps as everywhere, the generator's steps run
inside its consumer's call depth (functions.Generator), and an abandoned
generator's `finally` blocks do not run (docs/language.md)."""

from __future__ import annotations

from .parser import Token, Tree

from .functions import Generator
from .iteration import iterate
from .positions import located, pos, syntax_error
from .state import state

_OWN_SCOPE = frozenset(
    {"funcdef", "classdef", "decorated", "lambda_", "listcomp", "setcomp", "dictcomp", "genexp"}
)
_YIELDS = frozenset({"yield_", "yield_from"})
#: the compound statements that may yield: compiled by control.py in the generator form
_COMPOUND = frozenset({"if_stmt", "while_stmt", "for_stmt", "with_stmt", "try_stmt", "try_finally"})


def has_yield(node):
    """Whether a statement yields (not counting functions, classes and comprehensions
    it defines: their yields are their own)."""
    if not isinstance(node, Tree):
        return False
    if node.data in _YIELDS:
        return True
    if node.data in _OWN_SCOPE:
        return False
    return any(has_yield(c) for c in node.children)


def _yielded(node):
    """The yield node a statement is made of (`yield v`, `(yield v)`), or None."""
    if (
        isinstance(node, Tree)
        and node.data in ("yield_stmt", "expr_stmt")
        and len(node.children) == 1
    ):
        node = node.children[0]
    return node if isinstance(node, Tree) and node.data in _YIELDS else None


class GeneratorBodies:
    """Compiles the body of a function with `yield` (mixed into the Compiler)."""

    def gen_body(self, suite):
        """The generator function of a generator's body: gen(scope) yields its values
        and returns what the body returns."""
        b = self._gblock(suite)
        if b[0]:
            return b[1]
        plain = b[1]

        def run(s):  # a body whose yields are all in unreachable code? (still a generator)
            return plain(s)
            yield  # unreachable: makes this a generator function

        return run

    def _gblock(self, suite):
        """(is_generator, closure) of an indented block in a generator body."""
        if not has_yield(suite):
            return False, self.block(suite)
        stmts = []
        self.depth += 1
        try:
            for child in suite.children:
                if child is None or isinstance(child, Token):
                    continue
                if not has_yield(child):
                    stmts.extend((False, fn) for fn, _ in self.stmt_list(child))
                elif child.data == "simple_stmt":
                    for small in child.children:
                        if small is None:
                            continue
                        if has_yield(small):
                            stmts.append((True, self._gsmall(small)))
                        else:
                            stmts.append((False, self.small(small)))
                elif child.data in _COMPOUND:
                    stmts.append((True, getattr(self, "s_" + child.data)(child, gen=True)))
                else:
                    raise syntax_error("'yield' is not supported in this statement", child)
        finally:
            self.depth -= 1
        stmts = tuple(stmts)

        def run(s):
            for is_gen, st in stmts:
                r = (yield from st(s)) if is_gen else st(s)
                if r is not None:
                    return r

        return True, run

    def gen_suite(self, suite):
        """A block as a generator function (a plain block wrapped)."""
        is_gen, b = self._gblock(suite)
        if is_gen:
            return b

        def run(s):
            return b(s)
            yield  # unreachable: makes this a generator function

        return run

    # ------------------------------------------------------------ simple statements
    def _gsmall(self, node):
        fn = self._gsimple(node)
        line, col = pos(node)

        def stmt(s):
            state.line = line
            try:
                return (yield from fn(s))
            except Exception as e:
                raise located(e, line, col) from None

        return stmt

    def _gsimple(self, node):
        y = _yielded(node)
        if y is not None:
            return self._gyield(y)
        if node.data == "assign" and _yielded(node.children[-1]) is not None:
            setters = [self.target(t) for t in node.children[:-1]]
            produce = self._gyield(node.children[-1])

            def assign(s):
                v = yield from produce(s)
                for st in setters:
                    st(s, v)

            return assign
        first = next((c for c in node.iter_subtrees_topdown() if c.data in _YIELDS), node)
        raise syntax_error(
            "'yield' inside an expression is not supported: use it as a "
            "statement or as `x = yield value`",
            first,
        )

    def _gyield(self, node):
        """A generator function yielding what `yield v` / `yield from it` gives; it
        returns the value of the yield expression."""
        if node.data == "yield_":
            v = self.expr(node.children[0]) if node.children[0] is not None else None

            def one(s):
                yield v(s) if v is not None else None

            return one
        src = self.expr(node.children[0])

        def many(s):
            it = src(s)
            for item in iterate(it):  # noqa: UP028 (a generator over iterate(), not the source)
                yield item
            return it.result if type(it) is Generator else None

        return many
