"""`gradcli check NB.ipynb` (or `gradcli eval --check`): run a notebook and
compare what each code cell prints with the outputs stored in the notebook.

A cell's stored output is its stdout streams and the `text/plain` of its
`execute_result` / `display_data` outputs, in order (stderr streams, such as
warnings, are not compared).  Before comparing, object addresses are dropped
(`<AddBackward0 object at 0x7f3b...>` and IPython's `<AddBackward0 at 0x...>`
are both `<AddBackward0>`), and trailing spaces and blank lines are ignored.
Output recorded by an old PyTorch (`Variable containing:` ...
`[torch.FloatTensor of size 2x2]`) cannot be compared as text: its numbers are
compared with gradcli's, to the 4 digits that such output shows.  A cell that
was never run (no outputs, no execution count) is not compared.  A cell whose
stored output is an error passes when gradcli raises an error of the same type
there, and the run goes on; any other error stops the run.
"""

from __future__ import annotations

import difflib
import io
import json
import math
import re
import sys

from .runtime.errors import GradError, render
from .notebook import _text, cell_name, code_cells, note_skipped, report_failure, run_cell
from .output import TextOutput

_ADDRESS = re.compile(r"<([A-Za-z_][\w.]*)(?: object)? at 0x[0-9a-fA-F]+>")
_OBJECT = re.compile(r"<([A-Za-z_][\w.]*) object>")
_LEGACY = re.compile(
    r"Variable containing:|\[torch\.[\w.]*Tensor of size[^\]]*\]|"
    r"\[torch\.[\w.]*Tensor with no dimension\]"
)
_NUMBER = re.compile(r"(?<![\w.])[-+]?(?:(?:\d+\.?\d*|\.\d+)(?:e[-+]?\d+)?|nan|inf)(?![\w.])")
_SCALE = re.compile(r"\s*([-+]?\d+(?:\.\d*)?e[-+]?\d+)\s*\*\s*")
_NOT_VALUES = re.compile(
    r"<[^<>]*>|dtype=torch\.\w+|device='[^']*'|requires_grad=\w+|"
    r"^\(\d+ ,[ ,.\d]*\) =\s*$|\[torch\.[^\]]*\]|Variable containing:",
    re.MULTILINE,
)


def normalise(text: str) -> str:
    text = _OBJECT.sub(r"<\1>", _ADDRESS.sub(r"<\1>", text))
    return "\n".join(line.rstrip() for line in text.split("\n")).strip("\n")


def recorded(cell) -> tuple[str, tuple[str, str] | None]:
    """(the text the cell showed, (error type, message) or None)."""
    parts, error = [], None
    for o in cell.outputs:
        kind = o.get("output_type")
        if kind == "stream":
            if o.get("name", "stdout") == "stdout":
                parts.append(_text(o.get("text")))
        elif kind in ("execute_result", "display_data", "pyout"):
            data = o.get("data") or {}
            text = _text(data.get("text/plain", o.get("text")))
            if text:
                parts.append(text if text.endswith("\n") else text + "\n")
        elif kind in ("error", "pyerr"):
            error = (str(o.get("ename", "")), str(o.get("evalue", "")))
    return "".join(parts), error


def _numbers(text: str) -> list[float]:
    """The values printed in `text` (a tensor's numbers), with an old PyTorch's
    `1.0e+03 *` scale lines applied."""
    out, scale = [], 1.0
    for line in _NOT_VALUES.sub(" ", text).split("\n"):
        m = _SCALE.fullmatch(line)
        if m:
            scale = float(m.group(1))
            continue
        if not line.strip():
            scale = 1.0
        out += [float(n) * scale for n in _NUMBER.findall(line)]
    return out


def _close(a: float, b: float) -> bool:
    if math.isnan(a) or math.isnan(b):
        return math.isnan(a) and math.isnan(b)
    return math.isclose(a, b, rel_tol=1e-3, abs_tol=1e-4)


def same_output(want: str, got: str) -> tuple[bool, bool]:
    """(equal?, compared as legacy numbers?)"""
    want, got = normalise(want), normalise(got)
    if want == got:
        return True, False
    if _LEGACY.search(want):
        a, b = _numbers(want), _numbers(got)
        return len(a) == len(b) and all(map(_close, a, b)), True
    return False, False


def _diff(want: str, got: str) -> str:
    lines = difflib.unified_diff(
        normalise(want).split("\n"),
        normalise(got).split("\n"),
        "recorded",
        "gradcli",
        lineterm="",
        n=2,
    )
    return "\n".join("    " + ln for ln in lines)


class _Report:
    def __init__(self, name, as_json):
        self.name, self.as_json = name, as_json
        self.counts = {}

    def cell(self, number, status, detail="", want=None, got=None):
        self.counts[status] = self.counts.get(status, 0) + 1
        if self.as_json:
            rec = {"kind": "check", "file": self.name, "cell": number, "status": status}
            if want is not None:
                rec.update(recorded=normalise(want), output=normalise(got or ""))
            sys.stdout.write(json.dumps(rec) + "\n")
        else:
            sys.stdout.write(
                f"{cell_name(self.name, number)}: {status}"
                + (f"\n{detail}" if detail else "")
                + "\n"
            )
        sys.stdout.flush()

    def summary(self):
        n = sum(self.counts.values())
        parts = ", ".join(f"{v} {k}" for k, v in self.counts.items())
        if self.as_json:
            sys.stdout.write(
                json.dumps({"kind": "summary", "file": self.name, "cells": n, **self.counts}) + "\n"
            )
        else:
            sys.stdout.write(f"{self.name}: {n} code cell{'s' if n != 1 else ''}: {parts}\n")
        sys.stdout.flush()


def check_notebook(session, name: str, text: str, as_json=False, debug=False) -> int:
    """Run the notebook, comparing each cell; prints the report; exit code 0 when
    every compared cell is the same, 1 otherwise."""
    buf = io.StringIO()
    session.out = TextOutput(stream=buf)
    session.activate()
    report = _Report(name, as_json)
    cells = code_cells(name, text)
    failed = False
    for k, (cell, code, skipped) in enumerate(cells):
        where = cell_name(name, cell.number)
        note_skipped(where, skipped)
        buf.seek(0)
        buf.truncate()
        error = None
        try:
            run_cell(session, code, where)
        except GradError as e:
            error = e
        except (KeyboardInterrupt, Exception) as e:
            report_failure(session, e, code, debug)
            report.cell(cell.number, "error")
            failed = True
            break
        got = buf.getvalue()
        want, want_error = recorded(cell)
        if not cell.outputs and cell.execution_count is None:
            status, detail = "not recorded", ""
        else:
            same, legacy = same_output(want, got)
            status = (
                "same (old PyTorch output, values compared)"
                if same and legacy
                else "same"
                if same
                else "DIFFERENT"
            )
            detail = "" if same else _diff(want, got)
        if error is not None:
            err_text = render(error, *(error.origin or (where, code)))
            if want_error is not None and want_error[0] == error.type_name:
                status = (
                    "same error"
                    if status.startswith("same") or status == "not recorded"
                    else status
                )
                report.cell(cell.number, status, detail, want, got)
                failed |= status == "DIFFERENT"
                continue
            report.cell(cell.number, "error", "    " + err_text.replace("\n", "\n    "), want, got)
            failed = True
            if k + 1 < len(cells):
                report.counts["not run"] = len(cells) - k - 1
            break
        if want_error is not None:
            status = "DIFFERENT"
            detail = (
                detail + "\n" if detail else ""
            ) + f"    recorded an error ({want_error[0]}: {want_error[1]}); gradcli ran the cell"
        failed |= status == "DIFFERENT"
        report.cell(cell.number, status, detail, want, got)
    report.summary()
    return 1 if failed else 0
