"""Python 3.10's messages for brackets: "'(' was never closed" at the bracket that
was opened, "closing parenthesis ']' does not match opening parenthesis '('" and
"unmatched ')'", instead of an "unexpected ..." at some later token."""

from __future__ import annotations

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}


def bracket_problem(source: str):
    """(message, line, col) of the first bracket problem in `source`, or None.  As
    Python does after a syntax error, the whole source is checked: a closing bracket
    that does not match (or has nothing to close) first, else a bracket still open at
    the end.  Strings and comments are skipped."""
    stack = []  # (char, line, col) of each open bracket
    ln, cl, i, n = 1, 1, 0, len(source)
    while i < n:
        ch = source[i]
        if ch == "#":
            j = source.find("\n", i)
            j = n if j < 0 else j
            cl += j - i
            i = j
            continue
        if ch in "\"'":
            quote = source[i : i + 3] if source[i : i + 3] in ('"""', "'''") else ch
            j = i + len(quote)
            while j < n and not source.startswith(quote, j):
                if source[j] == "\\":
                    j += 1
                elif source[j] == "\n" and len(quote) == 1:
                    break
                j += 1
            j = min(n, j + len(quote))
            for c in source[i:j]:
                ln, cl = (ln + 1, 1) if c == "\n" else (ln, cl + 1)
            i = j
            continue
        if ch in _OPEN:
            stack.append((ch, ln, cl))
        elif ch in _CLOSE:
            if not stack:
                return f"unmatched '{ch}'", ln, cl
            top, tl, tc = stack.pop()
            if _OPEN[top] != ch:
                where = "" if tl == ln else f" on line {tl}"
                return (
                    f"closing parenthesis '{ch}' does not match opening parenthesis '{top}'{where}",
                    ln,
                    cl,
                )
        ln, cl = (ln + 1, 1) if ch == "\n" else (ln, cl + 1)
        i += 1
    if stack:
        ch, tl, tc = stack[-1]
        return f"'{ch}' was never closed", tl, tc
    return None
