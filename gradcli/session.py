"""A session: the variables of a program or REPL, and running source text in it."""
from __future__ import annotations

import sys

from . import library  # noqa: F401  (registers the language built-ins)
from .language.compiler import Compiler
from .language.state import state
from .base.errors import GradError, LimitError, render
from .language.parser import parse
from .language.runtime import Scope

_current = None


def current() -> "Session":
    return _current


def warn(message: str):
    """A warning on stderr (PyTorch's UserWarning), once per message and session."""
    s = _current
    if s is not None:
        if message in s.warned:
            return
        s.warned.add(message)
    sys.stdout.flush()
    line = state.line
    where = f"{s.filename}:{line}: " if s is not None and line else ""
    sys.stderr.write(f"{where}UserWarning: {message}\n")
    sys.stderr.flush()


def reset_globals():
    """Put every process-wide setting back to its start-up value (for running many
    programs in one process, as the tests and the fuzzer do)."""
    from .core import dtypes, printing
    from .base import random
    from .language.state import state as st
    from .base.limits import limits
    from .language.functions import call_depth
    from .language.exceptions import Handling
    from .library.stdlib import reset_random
    from .core.tensor import GradMode
    GradMode.enabled = True
    dtypes.default.float = dtypes.float64
    printing.options.precision = 4
    random.default_generator.manual_seed(random.DEFAULT_SEED)
    limits.max_memory, limits.max_depth, limits.max_steps = 1 << 30, 200, None
    st.line = st.steps = 0
    call_depth.n = 0
    Handling.stack.clear()
    reset_random()


def _snapshot_tensors(vars):
    """What a statement may change in place on the tensors it can reach: .grad (which
    backward accumulates in place), .data (zero_), requires_grad."""
    from .core.tensor import Tensor
    snap = []
    for v in vars.values():
        if type(v) is Tensor:
            g = v.grad
            snap.append((v, v.data, v.requires_grad, g, None if g is None else g.data.copy()))
    return snap


def _restore_tensors(snap):
    for t, data, requires_grad, g, gdata in snap:
        t.data, t.requires_grad, t.grad = data, requires_grad, g
        if g is not None:
            g.data = gdata


class Session:
    def __init__(self, out, filename="<stdin>"):
        from .library.torch_ns import namespace
        self.out = out
        self.filename = filename
        self.builtins = namespace()
        self.scope = Scope()
        self.compiler = Compiler(self.builtins)
        self.warned = set()
        self.activate()

    def activate(self):
        global _current
        _current = self
        state.out = self.out
        if hasattr(self.out, "line"):
            self.out.line = lambda: state.line

    def compile(self, source):
        tree = parse(source)
        try:
            return self.compiler.program(tree)
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
        self.out.error(err, render(err, filename, source))
