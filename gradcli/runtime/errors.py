"""gradcli's error classes and how an error is shown to a person.

Every error the language can raise is a `GradError`.  It carries a short
type name (shown in `--json` output), a one-line message, an optional hint,
and where it happened (line and column, 1-based).  `render` turns it into the
`file:line:col` + source line + caret form printed on stderr.
"""

from __future__ import annotations


class GradError(Exception):
    """Base of every error the user can see.  `exit_code` is what `eval` returns."""

    exit_code = 1
    type_name = "Error"
    origin = None  # (file, source) when raised in a function defined in another file
    calls = ()  # [[origin, line, column, callee, program]] of the user-function calls
    # it left, innermost first (origin None: at top level of `program`)
    pending_call = None  # (callee, program): the user function it has just come out of,
    # a step of `calls` at the place the caller gives it next (the call, the operator)
    line = column = hint = None  # (a program's exception class may skip __init__)

    def __init__(
        self,
        message: str,
        line: int | None = None,
        column: int | None = None,
        hint: str | None = None,
        type_name: str | None = None,
    ):
        super().__init__(message)
        self.message = message
        self.line = line
        self.column = column
        self.hint = hint
        if type_name:
            self.type_name = type_name

    def at(self, line, column):
        """Fill in the position if it is not known yet; returns self."""
        if self.line is None:
            self.line, self.column = line, column
        elif self.pending_call is not None:  # where the caller called the function it left
            callee, program = self.pending_call
            self.pending_call = None
            if not self.calls:
                self.calls = []
            self.calls.append([None, line, column, callee, program])
        return self

    def left(self, callee, program):
        """The error leaves the user function `callee` (its body placed it): the next
        place given to it is the call's, a step of the call chain named by `callee`,
        as Python's traceback names the frame of any function, method or special
        method (an error placed nowhere there is placed at the call instead)."""
        if self.line is not None and self.pending_call is None:
            self.pending_call = (callee, program)


class GradSyntaxError(GradError):
    exit_code = 2
    type_name = "SyntaxError"


class GradRuntimeError(GradError):
    type_name = "RuntimeError"


class GradTypeError(GradError):
    type_name = "TypeError"


class OperandTypeError(GradTypeError):
    """An operand of an element-wise op that is neither a tensor nor a number (`value`):
    the language words it as PyTorch's argument parser does for the op called
    (language/arity.py)."""

    value = None


class GradValueError(GradError):
    type_name = "ValueError"


class GradNameError(GradError):
    type_name = "NameError"


class GradAttributeError(GradError):
    type_name = "AttributeError"


class GradIndexError(GradError):
    type_name = "IndexError"


class ShapeError(GradError):
    type_name = "ShapeError"


def python_type_name(err) -> str:
    """The type a program sees for an error (`type(e).__name__`, `repr(e)`): its type
    name, a ShapeError being PyTorch's RuntimeError (the error report keeps ShapeError,
    SPEC section 7)."""
    name = getattr(err, "type_name", type(err).__name__)
    return "RuntimeError" if name == "ShapeError" else name


def broadcast_error(sa, sb) -> ShapeError:
    """PyTorch's message for two shapes that do not broadcast together."""
    sa, sb = list(sa), list(sb)
    n = max(len(sa), len(sb))
    pa, pb = [1] * (n - len(sa)) + sa, [1] * (n - len(sb)) + sb
    for i in range(n - 1, -1, -1):
        if pa[i] != pb[i] and pa[i] != 1 and pb[i] != 1:
            return ShapeError(
                f"The size of tensor a ({pa[i]}) must match the size of tensor b ({pb[i]}) "
                f"at non-singleton dimension {i}",
                hint=f"shapes {sa} and {sb}",
            )
    return ShapeError(f"shapes {sa} and {sb} cannot be broadcast together")


class GradAssertionError(GradError):
    type_name = "AssertionError"


class LimitError(GradError):
    type_name = "LimitError"


class Interrupted(GradError):
    exit_code = 130
    type_name = "KeyboardInterrupt"


#: Python's costs for its suggestions: a character inserted, deleted or replaced by
#: another, and one replaced by itself in the other case
_EDIT, _CASE = 2, 1
_LONGEST = 40  # (Python suggests nothing for a longer name)


def _edit_cost(a: str, b: str, limit: int) -> int:
    """The cost of editing `a` into `b` (Python's costs; two neighbours swapped count as
    one edit, as in `mena` for `mean`), or more than `limit` when it is more."""
    if len(a) < len(b):
        a, b = b, a
    if (len(a) - len(b)) * _EDIT > limit:
        return limit + 1
    prev2: list[int] = []
    prev = [j * _EDIT for j in range(len(b) + 1)]
    for i in range(1, len(a) + 1):
        row = [i * _EDIT] + [0] * len(b)
        ca = a[i - 1]
        for j in range(1, len(b) + 1):
            cb = b[j - 1]
            sub = 0 if ca == cb else _CASE if ca.lower() == cb.lower() else _EDIT
            best = min(prev[j] + _EDIT, row[j - 1] + _EDIT, prev[j - 1] + sub)
            if i > 1 and j > 1 and ca == b[j - 2] and a[i - 2] == cb and ca != cb:
                best = min(best, prev2[j - 2] + _EDIT)
            row[j] = best
        if min(row) > limit:
            return limit + 1
        prev2, prev = prev, row
    return prev[-1]


def did_you_mean(name: str, candidates) -> str | None:
    """A 'did you mean' hint with the nearest known name, or None: Python's rule (the
    first of the nearest names, by edit cost, no more than about a third of the
    characters of both changed), with a swap of two neighbours one edit."""
    if len(name) > _LONGEST:
        return None
    best, best_cost = None, len(name)
    for c in candidates:
        if c == name or not isinstance(c, str) or len(c) > _LONGEST:
            continue
        limit = min((len(c) + len(name) + 3) * _EDIT // 6, best_cost - 1)
        cost = _edit_cost(name, c, limit)
        if cost <= limit:
            best, best_cost = c, cost
    return f"did you mean '{best}'?" if best is not None else None


def fill_column(err: GradError, source: str | None) -> GradError:
    """An error known by line only points at the first character of that line."""
    if err.line is not None and err.column is None and source is not None:
        lines = source.splitlines()
        if 1 <= err.line <= len(lines):
            text = lines[err.line - 1]
            err.column = len(text) - len(text.lstrip()) + 1
        else:
            err.column = 1
    return err


def render(err: GradError, filename: str, source: str | None) -> str:
    """`file:line:col: Type: message`, the source line, a caret, then the hint."""
    where = filename
    if err.line is not None:
        where += f":{err.line}"
        if err.column is not None:
            where += f":{err.column}"
    # an exception raised without a message prints its type alone, as Python does
    out = [
        f"{where}: {err.type_name}: {err.message}" if err.message else f"{where}: {err.type_name}"
    ]
    if source is not None and err.line is not None:
        lines = source.splitlines()
        if 1 <= err.line <= len(lines):
            text = lines[err.line - 1].replace("\t", " ")
            out.append(f"    {text}")
            col = max(1, err.column or 1)
            out.append("    " + " " * (col - 1) + "^")
    if err.hint:
        out.append(f"hint: {err.hint}")
    if err.calls:
        out.extend(render_calls(err, filename, source))
    return "\n".join(out)


MAX_CALLS_SHOWN = 12


def render_calls(err, filename, source):
    """The chain of calls that led to the error, outermost first, innermost last."""
    frames = list(reversed(err.calls))  # outermost first
    rows = []
    for k, (origin, line, col, callee, program) in enumerate(frames):
        file, text = origin or program or (filename, source)
        caller = frames[k - 1][3] if k else None
        rows.append((file, line, col, caller, _line_of(text, line)))
    where, text = err.origin or (filename, source)
    rows.append((where, err.line, err.column, frames[-1][3], _line_of(text, err.line)))
    if len(rows) > MAX_CALLS_SHOWN:
        hidden = len(rows) - MAX_CALLS_SHOWN
        rows = rows[:4] + [None] + rows[4 + hidden :]
    out = ["call chain (innermost last):"]
    for row in rows:
        if row is None:
            out.append(f"  ... ({hidden} more calls)")
            continue
        file, line, col, caller, code = row
        place = f"{file}:{line}:{col}" if col else f"{file}:{line}"
        inside = f" in {caller}" if caller else ""
        out.append(f"  {place}{inside}: {code}")
    return out


def _line_of(source, line):
    if source is None or line is None:
        return ""
    lines = source.splitlines()
    return lines[line - 1].strip() if 1 <= line <= len(lines) else ""
