"""The compiler: a Lark parse tree becomes nested Python closures, once.

Each expression node becomes `f(scope) -> value` and each statement
`f(scope) -> signal` (None, BREAK, CONTINUE or a Return).  Running a program
calls closures; the tree is never walked again.  Every closure that can fail
attaches its line and column to the error (positions.located), so messages
point at the place.

The node kinds are compiled by methods named after the grammar's aliases:
`s_<kind>` for statements (statements.py: simple ones; control.py: blocks, in
plain and generator form, and generator bodies),
`s_<kind>` for definitions (definitions.py: def, lambda, class, decorators,
yield), `e_<kind>` for expressions (expressions.py: names, literals, operators;
comprehensions.py: comprehensions and dict/set displays; calls.py: calls,
attributes, subscripts).  Scopes (which name is local, global or a closure's) are
worked out by scopes.py before a body is compiled.  Compile-time context -- whether the code is
inside a function, how deep in blocks -- is held on the Compiler, not passed
along.
"""

from __future__ import annotations

from .parser import Token

from ..runtime.errors import GradSyntaxError, LimitError
from .calls import Calls
from .comprehensions import Comprehensions
from .control import Control
from .definitions import Definitions
from . import abstract, enums, generator_contexts
from ..runtime import context
from .expressions import Expressions, name_loader, name_storer
from .positions import located, pos
from .prelude import install
from .state import state
from .statements import Statements
from . import stmtlines
from ..library import stdlib


def placed(fn, line, col):
    """A statement's closure wrapped in one that sets the current line and places its
    errors there."""

    def stmt(s):
        state.line = line
        try:
            return fn(s)
        except Exception as e:
            raise located(e, line, col) from None

    return stmt


def _either(loop, run, builtins):
    """A top-level loop's closure: its fast code (fast_tier.py), or the closure `run`
    when the run turned the fast tier off."""

    def either(s):
        if context.current.fast_tier:
            return loop(s.vars, s, builtins)()
        return run(s)

    return either


def _rest(rest, builtins):
    """A replayed top-level loop's iterations after it gave up making a plan (the names
    its statements make bound: replay.Run.iteration), run by its fast code: a `for`
    loop's over the items left, a `while` loop's from its condition on."""

    def run(s, items):
        rest(s.vars, s, builtins, items)()

    return run


class Compiler(Statements, Control, Definitions, Expressions, Comprehensions, Calls):
    def __init__(self, builtins: dict):
        install(builtins)
        self.builtins = builtins
        self.depth = 0  # block nesting while compiling (the REPL echoes top level only)
        self.fn = None  # scopes.FunctionInfo of the function, class body or
        #                         comprehension being compiled; None at top level
        self.stmt_at = None  # (line, col) of the simple statement being compiled
        self.silent = False  # compiling a statement that ends its line with ';': it shows nothing
        self.source = None  # the program's text (to see a trailing ';')
        self.replays = 0  # loops compiled so far that qualify for replay (fast_tier.py)
        self.draws = {}  # the globals read by the iterables of the `for` nodes of a forward's draws (replay_draws)

    @property
    def display(self):
        """The `backward` command shows gradients (not in functions), unless the statement
        ends in ';'."""
        return self.fn is None and not self.silent

    @property
    def display_value(self):
        """An expression statement shows its value at top level only (not inside a loop,
        an `if` or a function, as in Jupyter), and not when it ends in ';'."""
        return self.fn is None and self.depth == 0 and not self.silent

    def program(self, tree, source=None):
        """[(closure, line)] for each top-level statement (`source`: the text parsed, to
        see which statements end in ';')."""
        self.source = source
        out = []
        for node in tree.children:
            if node is None or isinstance(node, Token):
                continue
            try:
                items = self.stmt_list(node)
            except RecursionError:
                line, col = pos(node)
                raise LimitError(
                    "statement nested too deeply to compile",
                    line,
                    col,
                    hint="split it into smaller statements",
                ) from None
            out.extend(items)
        return out

    def stmt_list(self, node):
        """A statement node -> [(closure, line)] (a simple_stmt may hold several)."""
        if node.data == "simple_stmt":
            smalls = [s for s in node.children if s is not None]
            out = [(self.small(s), pos(s)[0]) for s in smalls[:-1]]
            self.silent = self._ends_in_semicolon(smalls[-1], node)
            try:
                out.append((self.small(smalls[-1]), pos(smalls[-1])[0]))
            finally:
                self.silent = False
            return out
        return [(self.compound(node), pos(node)[0])]

    def _ends_in_semicolon(self, last, line_node) -> bool:
        """Whether a ';' follows the line's last statement (IPython's and MATLAB's way to
        hide what a statement shows)."""
        end = getattr(last, "end_pos", None)
        if end is None:
            meta = getattr(last, "meta", None)
            end = None if meta is None or meta.empty else meta.end_pos
        if self.source is None or end is None or line_node.meta.empty:
            return False
        return self.source[end : line_node.meta.end_pos].lstrip(" \t\\\n").startswith(";")

    def block(self, suite):
        """The closure of an indented block: runs its statements until one signals."""
        stmts = []
        self.depth += 1
        try:
            for child in suite.children:
                if child is None or isinstance(child, Token):
                    continue
                stmts.extend(fn for fn, _ in self.stmt_list(child))
        finally:
            self.depth -= 1
        return stmtlines.sequence(stmts)

    def load_name(self, name, node):
        """The closure reading a variable here (a local, a closure's or a global)."""
        line, col = pos(node)
        return name_loader(name, self.fn, self.builtins, line, col)

    def store_name(self, name):
        """The closure binding a variable here (global/nonlocal declarations obeyed)."""
        return name_storer(name, self.fn)

    def small(self, node):
        """A simple statement: it sets the current line and places its errors (in its
        own closure, marked `located`, for the statements of loops: stmtlines.py)."""
        line, col = pos(node)
        self.stmt_at = (line, col)
        try:
            fn = getattr(self, "s_" + node.data)(node)
        finally:
            self.stmt_at = None
        if getattr(fn, "located", False):
            return fn
        return placed(fn, line, col)

    def compound(self, node):
        replays = self.replays
        run = getattr(self, "s_" + node.data)(node)
        if (
            self.fn is None
            and node.data in ("while_stmt", "for_stmt")
            and not getattr(run, "replays", False)
            and self.replays == replays  # (a loop in it qualifies for replay: kept for it)
        ):
            from .fast_tier import loop_unit

            loop = loop_unit(self, node)  # a loop of the program's own variables
            if loop is not None:
                return _either(loop, run, self.builtins)
        elif (
            self.fn is None
            and node.data in ("while_stmt", "for_stmt")
            and self.replays == replays + 1  # (no loop in it qualifies)
            and getattr(run, "body", None) is not None
        ):
            from .fast_tier import rest_unit

            rest = rest_unit(self, node)
            if rest is not None:
                run.body.rest = _rest(rest, self.builtins)
        return run

    def expr(self, node):
        """The closure of an expression node."""
        if isinstance(node, Token):
            raise GradSyntaxError(f"unexpected {node.value!r}", node.line, node.column)
        method = getattr(self, "e_" + node.data, None)
        if method is None:
            line, col = pos(node)
            raise GradSyntaxError("this is not an expression", line, col)
        return method(node)


def _methods_compiler():
    """The compiler of the methods @dataclass and total_ordering generate: over the running
    session's built-ins, whose `dict`, `tuple`, `type`... the methods' text names (a namespace
    of its own would install other type objects, and type({}) is dict would no longer hold)."""
    session = context.current.session
    return Compiler(session.builtins if session is not None else {})


def _dataclasses():
    """`import dataclasses`: made at a program's first import of it."""
    from .dataclass import make_module

    return make_module(_methods_compiler)


def _total_ordering():
    """functools.total_ordering, made with the program's first `import functools`."""
    from .ordering import total_ordering

    return {"total_ordering": total_ordering(_methods_compiler)}


def _logging():
    """`import logging`: made at a program's first import of it in a run."""
    from .pylogging import make_module

    return make_module()


stdlib.add_module("dataclasses", _dataclasses)

stdlib.add_module("enum", enums.make_module)  # (made at a program's first `import enum`)
stdlib.add_module("abc", abstract.make_module)
stdlib.add_module("logging", _logging)
stdlib.add_members("contextlib", generator_contexts.members)
stdlib.add_members("functools", _total_ordering)
