"""`:save FILE`: the session's inputs as a program that replays, or as a notebook that
`gradcli check` accepts.

Two things the REPL has that a program does not:

- `_` and `ans` (the last value shown). When the inputs read them, the expression whose
  value an input showed last is written as `_ = ans = (EXPR)` and then `_`, so the program
  binds them as the REPL did and shows the same value.
- What the REPL shows for an input (assignment echoes, every expression's value) is not
  what a notebook shows for the same cell (its last expression's value). So a notebook's
  outputs are made by running its cells again in a fresh session, as `gradcli eval
  NB.ipynb` runs them; when that fails (a session begun with `gradcli eval -i`, whose
  program is not in the transcript), the outputs the REPL printed are kept.
"""

from __future__ import annotations

import io

from ..driver import make_session
from ..language.parser import parse
from ..notebook import run_cell
from ..runtime.errors import GradError
from .lexer import tokens

ANS = ("_", "ans")


def _reads_ans(items) -> bool:
    return any(t == "NAME" and v in ANS for text in items for t, v, _ in tokens(text))


def bare_expression(text: str) -> bool:
    """Whether the input is one expression statement that shows its value."""
    try:
        tree = parse(text)
    except GradError:
        return False
    stmts = [c for c in tree.children if c is not None and hasattr(c, "data")]
    if len(stmts) != 1 or stmts[0].data != "simple_stmt":
        return False
    smalls = [c for c in stmts[0].children if c is not None]
    return len(smalls) == 1 and smalls[0].data == "expr_stmt" and not text.rstrip().endswith(";")


def with_ans(items: list[str], shown) -> list[str]:
    """The statements, with `_` and `ans` bound where the REPL bound them (the items whose
    index is in `shown`), when any statement reads them."""
    if not _reads_ans(items):
        return list(items)
    return [f"_ = ans = ({t})\n_" if i in shown else t for i, t in enumerate(items)]


def notebook_outputs(args, sources: list[str]) -> list[str] | None:
    """What `gradcli eval NB.ipynb` prints for each cell, from a fresh session made from
    the REPL's options; None if a cell fails."""
    stream = io.StringIO()
    session = make_session(args)
    session.out.stream = stream
    outputs = []
    try:
        for i, code in enumerate(sources, 1):
            stream.seek(0)
            stream.truncate()
            run_cell(session, code, f"<cell {i}>")
            outputs.append(stream.getvalue())
    except (GradError, Exception):  # a cell that needs what the transcript lacks
        return None
    return outputs
