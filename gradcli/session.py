"""A session: the variables of a program or REPL, and running source text in it."""

from __future__ import annotations

import numpy as np

from .library import catalog  # noqa: F401  (loads and registers the language's built-ins)
from .language.compiler import Compiler
from .language.state import state
from .runtime.errors import GradError, LimitError, fill_column, render
from .language.parser import parse
from .language.exceptions import Handling
from .language.functions import Scope, call_depth, frames
from .library.stdlib import reset_random
from .library import inference
from .library.torch_ns import namespace
from .runtime import context
from .runtime.limits import not_the_programs, resident
from .runtime.stack import in_room, touch
from .core.tensor import Tensor
from .engine import saved, versions


def reset_globals():
    """Start a fresh run's state (for running many programs in one process, as the
    tests and the fuzzer do): a new context, and the language's run state."""
    context.activate(context.Context())
    state.reset()
    call_depth.n = 0
    frames.clear()
    Handling.stack.clear()
    reset_random()
    saved.reset()
    inference.reset()


_ROLLBACK_SIZE = 1 << 20  # values kept for undoing in-place changes, per tensor


def _snapshot_tensors(vars):
    """What a statement may change in place on the tensors it can reach: .grad (which
    backward accumulates in place), the values (in-place ops, `x[i] = v`: kept for
    tensors up to 2^20 elements), grad_fn (an in-place op rebases it), requires_grad."""
    snap = []
    for v in vars.values():
        if type(v) is Tensor:
            g = v.grad
            d = v.data
            keep = d.copy() if d.size <= _ROLLBACK_SIZE else None
            snap.append(
                (
                    v,
                    d,
                    keep,
                    versions.version(v),
                    v.grad_fn,
                    v.requires_grad,
                    g,
                    None if g is None else g.data.copy(),
                )
            )
    return snap


def _restore_tensors(snap):
    for t, data, keep, version, grad_fn, requires_grad, g, gdata in snap:
        if keep is not None and versions.version(t) != version and data.flags.writeable:
            np.copyto(data, keep)  # into the array, so its views are put back too
        t.data, t.grad_fn, t.requires_grad, t.grad = data, grad_fn, requires_grad, g
        if g is not None:
            g.data = gdata


def _source_line(line: int) -> str:
    """The text of line `line` of the program being run ('' if it has none)."""
    lines = state.origin[1].splitlines() if state.origin is not None else ()
    return lines[line - 1] if 0 < line <= len(lines) else ""


class Session:
    """A program's (or a REPL's) variables and the run context it owns: settings
    given before (`ctx`, e.g. from the command line) or a fresh one."""

    def __init__(self, out, filename="<stdin>", ctx: context.Context | None = None):
        self.out = out
        self.filename = filename
        self.builtins = namespace()
        self.scope = Scope()
        self.compiler = Compiler(self.builtins)
        self.use_context(ctx if ctx is not None else context.Context())

    def use_context(self, ctx: context.Context):
        """Run from now on in `ctx` (a reset is a new context) and make it active."""
        self.context = ctx
        ctx.session = self
        ctx.where = lambda: (self.filename, state.line)
        ctx.source_line = _source_line
        self.activate()

    def activate(self):
        ctx = context.activate(self.context)
        ctx.out = self.out  # (a caller may have swapped session.out)
        ctx.variables = self.scope.vars
        state.out = self.out
        if hasattr(self.out, "line"):
            self.out.line = lambda: state.line

    def compile(self, source):
        tree = parse(source)
        try:
            return self.compiler.program(tree, source)
        except RecursionError:
            raise LimitError("program nested too deeply to compile", 1, 1)

    def run(self, source: str, filename: str | None = None, atomic=False, done=None):
        """Run source text; GradErrors propagate with positions.  With `atomic`,
        a statement that fails leaves the variables as they were before it.
        `done(i)`, if given, is called after the i-th top-level statement has
        run (the REPL's `:save` keeps only the statements that ran)."""
        if filename is not None:
            self.filename = filename
        self.activate()
        state.origin = (self.filename, source)
        program = self.compile(source)
        in_room(self._run_program, program, atomic, done, resident())

    def _run_program(self, program, atomic, done, before):
        touch()  # the frame chunk's first pages are not the program's
        not_the_programs(self.context.limits, before)
        scope = self.scope
        for i, (stmt, line) in enumerate(program):
            state.line = line
            if atomic:
                saved = dict(scope.vars)
                tensors = _snapshot_tensors(saved)
                try:
                    stmt(scope)
                except BaseException:
                    scope.vars.clear()
                    scope.vars.update(saved)
                    _restore_tensors(tensors)
                    raise
            else:
                stmt(scope)
            if done is not None:
                done(i)

    def report(self, err: GradError, source: str | None):
        filename, source = err.origin or (self.filename, source)
        fill_column(err, source)  # one known by its line alone points at the statement
        self.out.error(err, render(err, filename, source))
