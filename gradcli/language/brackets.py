"""Python 3.10's messages for brackets: "'(' was never closed" at the bracket that
was opened, "closing parenthesis ']' does not match opening parenthesis '('" and
"unmatched ')'", instead of an "unexpected ..." at some later token."""
from __future__ import annotations

_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = {v: k for k, v in _OPEN.items()}


def bracket_problem(source: str, line: int, col: int, at_end: bool = False):
    """(message, line, col) for the bracket problem that explains a syntax error at
    (line, col) (`at_end`: the error is the end of the input), or None.  Strings and
    comments are skipped.  As in Python, a closing bracket that matches nothing is
    reported wherever it stands (Python's tokenizer reads on past the parser's
    error); a bracket still open where the error is, was never closed."""
    stack = []                       # (char, line, col) of each open bracket
    at_error = None                  # the open brackets where the error is
    ln, cl, i, n = 1, 1, 0, len(source)
    while i < n:
        if at_error is None and (ln, cl) > (line, col):
            at_error = list(stack)
        ch = source[i]
        if ch == "#":
            j = source.find("\n", i)
            j = n if j < 0 else j
            cl += j - i
            i = j
            continue
        if ch in "\"'":
            quote = source[i:i + 3] if source[i:i + 3] in ('"""', "'''") else ch
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
                return (f"closing parenthesis '{ch}' does not match opening parenthesis "
                        f"'{top}'{where}", ln, cl)
        ln, cl = (ln + 1, 1) if ch == "\n" else (ln, cl + 1)
        i += 1
    open_ = stack if at_error is None else at_error
    if open_ and (at_end or open_[-1][1] < line):
        ch, tl, tc = open_[-1]
        return f"'{ch}' was never closed", tl, tc
    return None
