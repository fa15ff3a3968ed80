"""Jupyter notebooks (.ipynb): reading their code cells, running them as a
notebook does, and writing one (the REPL's `:save x.ipynb`).

A notebook runs in one session, cell after cell.  Within a cell only the last
statement's value is shown (if it is a bare expression), as IPython's
`last_expr` rule does; `print`, `display` and the `backward` command print as
they always do.  IPython magics and shell escapes (`%matplotlib inline`,
`!pip install torch`, a `%%time` first line) are not gradcli: they are skipped
with a note on stderr.  Errors name the cell: `nb.ipynb:cell 7:2:5` is line 2,
column 5 of the notebook's 7th cell (counting every cell, Markdown too, from 1).

Checking a notebook against its stored outputs is in `notebook_check`.
"""

from __future__ import annotations

import json
import re
import sys
from dataclasses import dataclass, field

from .language.parser import Tree

from .runtime.errors import GradError, Interrupted, fill_column
from .language.compiler import state
from .language.parser import parse


class NotebookError(Exception):
    """The file is not a notebook gradcli can read (a usage error, exit code 2)."""


@dataclass
class Cell:
    number: int  # 1-based position among all the notebook's cells
    kind: str  # "code", "markdown", "raw"
    source: str
    outputs: list = field(default_factory=list)
    execution_count: int | None = None


def _text(v) -> str:
    return "".join(v) if isinstance(v, list) else (v or "")


def read(name: str, text: str) -> list[Cell]:
    """The cells of a notebook (nbformat 4, or 3 with worksheets)."""
    try:
        doc = json.loads(text)
    except ValueError as e:
        raise NotebookError(f"{name}: not a notebook (invalid JSON: {e})") from None
    if not isinstance(doc, dict):
        raise NotebookError(f"{name}: not a notebook (no cells)")
    raw = doc.get("cells")
    if raw is None and isinstance(doc.get("worksheets"), list):  # nbformat 3
        raw = [c for ws in doc["worksheets"] if isinstance(ws, dict) for c in ws.get("cells", [])]
    if not isinstance(raw, list):
        raise NotebookError(f"{name}: not a notebook (no cells)")
    cells = []
    for i, c in enumerate(raw, 1):
        if not isinstance(c, dict):
            raise NotebookError(f"{name}: cell {i} is not an object")
        src = c.get("source", c.get("input", ""))
        cells.append(
            Cell(
                i,
                str(c.get("cell_type", "code")),
                _text(src).replace("\r\n", "\n"),
                [o for o in c.get("outputs") or [] if isinstance(o, dict)],
                c.get("execution_count", c.get("prompt_number")),
            )
        )
    return cells


# ------------------------------------------------------------------ magics

# cell magics whose body is still the cell's code (the magic only measures or captures it)
_CODE_CELL_MAGICS = {"time", "timeit", "capture", "prun", "debug"}
_MAGIC = re.compile(r"^[ \t]*([%!].*)$")


def strip_magics(source: str) -> tuple[str, list[tuple[int, str]]]:
    """The cell's gradcli code (each magic or shell line made blank, so that line
    numbers stay those of the cell) and the skipped [(line, text)]."""
    lines = source.split("\n")
    skipped = []
    first = lines[0].strip() if lines else ""
    if first.startswith("%%"):
        skipped.append((1, first))
        if first[2:].split()[0:1] and first[2:].split()[0] not in _CODE_CELL_MAGICS:
            return "", skipped  # %%bash, %%html, %%writefile: not code
        lines[0] = ""
    for i, line in enumerate(lines):
        m = _MAGIC.match(line)
        if m:
            skipped.append((i + 1, m.group(1).strip()))
            lines[i] = ""
    return "\n".join(lines), skipped


def note_skipped(where: str, skipped):
    for line, text in skipped:
        kind = "shell command" if text.startswith("!") else "IPython magic"
        sys.stdout.flush()
        sys.stderr.write(f"{where}:{line}: note: skipped {kind} {text!r} (not gradcli)\n")
        sys.stderr.flush()


# ------------------------------------------------------------------ running


def _statements(tree) -> tuple[int, bool]:
    """How many top-level statements the program has, and whether the last one
    is a bare expression (the one a notebook shows)."""
    n, last_expr = 0, False
    for node in tree.children:
        if not isinstance(node, Tree):
            continue
        if node.data == "simple_stmt":
            smalls = [s for s in node.children if isinstance(s, Tree)]
            n += len(smalls)
            last_expr = bool(smalls) and smalls[-1].data == "expr_stmt"
        else:
            n += 1
            last_expr = False
    return n, last_expr


def _silenced(code: str) -> bool:
    """IPython's rule: a trailing ';' on the last line hides the cell's value."""
    for line in reversed(code.split("\n")):
        s = line.strip()
        if s and not s.startswith("#"):
            return s.endswith(";")
    return False


class LastValueOnly:
    """Wraps a session's output: a value is shown only while `open` (the last
    statement of a cell runs); everything else passes through (named one by
    one: no computed attribute access)."""

    def __init__(self, inner):
        self.inner = inner
        self.open = False

    @property
    def line(self):
        return self.inner.line

    @line.setter
    def line(self, fn):
        self.inner.line = fn

    @property
    def echo_assign(self):
        return self.inner.echo_assign

    @echo_assign.setter
    def echo_assign(self, on):
        self.inner.echo_assign = on

    def value(self, v, line):
        if self.open:
            self.inner.value(v, line)

    def assign(self, name, v, line):
        self.inner.assign(name, v, line)

    def grad(self, name, g, line):
        self.inner.grad(name, g, line)

    def print(self, text):
        self.inner.print(text)

    def record(self, kind, fields, text):
        self.inner.record(kind, fields, text)

    def figure(self, kind, fig, file):
        self.inner.figure(kind, fig, file)

    def error(self, err, rendered):
        self.inner.error(err, rendered)


def gate(session) -> LastValueOnly:
    """Put (once) the last-value-only wrapper around the session's output."""
    if not isinstance(session.out, LastValueOnly):
        session.out = LastValueOnly(session.out)
        session.activate()
    return session.out


def run_cell(session, code: str, filename: str):
    """Run one cell's code in the session, showing only its last value.
    GradError and KeyboardInterrupt propagate (the session keeps what ran)."""
    out = gate(session)
    session.filename = filename
    n, last_expr = _statements(parse(code))
    show = last_expr and not _silenced(code)
    out.open = show and n == 1

    def done(i):
        out.open = show and i + 2 == n

    try:
        session.run(code, filename=filename, done=done)
    finally:
        out.open = False


def cell_name(name: str, number: int) -> str:
    return f"{name}:cell {number}"


def report_failure(session, exc, code, debug=False) -> int:
    """Report an error (or Ctrl-C, or a bug) of a cell as `gradcli eval` does; the exit code."""
    if isinstance(exc, GradError):
        err = exc
        fill_column(err, err.origin[1] if err.origin else code)
    elif isinstance(exc, KeyboardInterrupt):
        err = fill_column(Interrupted("interrupted", state.line or None), code)
    else:
        if debug:
            raise exc
        err = fill_column(
            GradError(
                f"internal error: {type(exc).__name__}: {exc}",
                state.line or None,
                type_name="InternalError",
            ),
            code,
        )
    session.report(err, code)
    return 130 if isinstance(exc, KeyboardInterrupt) else err.exit_code


def code_cells(name: str, text: str):
    """[(cell, code, skipped)] for the notebook's code cells."""
    return [(c, *strip_magics(c.source)) for c in read(name, text) if c.kind == "code"]


def run_notebook(session, name: str, text: str, debug=False) -> int:
    """`gradcli eval NB.ipynb`: every code cell in order; the exit code.  Later
    files and -e code in the same run see the variables, and display as usual."""
    cells = code_cells(name, text)
    out = gate(session)
    fields = getattr(out.inner, "fields", None)
    try:
        for cell, code, skipped in cells:
            where = cell_name(name, cell.number)
            note_skipped(where, skipped)
            if fields is not None:
                fields["cell"] = cell.number
            try:
                run_cell(session, code, where)
            except (GradError, KeyboardInterrupt, Exception) as e:
                return report_failure(session, e, code, debug)
    finally:
        if fields is not None:
            fields.pop("cell", None)
        session.out = out.inner
        session.activate()
    return 0


# ------------------------------------------------------------------ writing


def notebook_json(cells) -> str:
    """An nbformat 4 notebook of code cells: [(source, [output text, ...])]; each
    output is a stdout stream (what gradcli printed for that input)."""
    out = []
    for i, (source, outputs) in enumerate(cells, 1):
        lines = source.split("\n")
        out.append(
            {
                "cell_type": "code",
                "execution_count": i,
                "id": f"cell-{i}",
                "metadata": {},
                "source": [ln + "\n" for ln in lines[:-1]] + [lines[-1]],
                "outputs": [
                    {
                        "output_type": "stream",
                        "name": "stdout",
                        "text": [ln for ln in text.splitlines(keepends=True)],
                    }
                    for text in outputs
                    if text
                ],
            }
        )
    doc = {
        "cells": out,
        "metadata": {
            "kernelspec": {"display_name": "gradcli", "language": "gradcli", "name": "gradcli"},
            "language_info": {
                "name": "gradcli",
                "file_extension": ".ag",
                "mimetype": "text/x-python",
            },
        },
        "nbformat": 4,
        "nbformat_minor": 5,
    }
    return json.dumps(doc, indent=1, ensure_ascii=False) + "\n"
