"""Is the input complete, or does the REPL go on with `... `?  Decided by the parser.

The text is parsed as a whole program by the same LALR parser `gradcli eval`
uses.  Where the parser stops at the end of the input (an open bracket, a line
ending in `:` before its block, a `\\` continuation), the input is incomplete.
A block that has begun (the Indenter produced an indent) goes on until a blank
line, as in Python's REPL, so that a `def` can have more than one line.  Any
other syntax error counts as complete: the input is run, and the error is
reported with its caret.
"""

from __future__ import annotations

import re

from ..language.parser import UnexpectedEOF, UnexpectedToken, parser

_OPEN = {"LPAR", "LSQB", "LBRACE"}
_CLOSE = {"RPAR", "RSQB", "RBRACE"}


def _source(text: str) -> str:
    return text if text.endswith("\n") else text + "\n"


def ends_early(text: str) -> bool | None:
    """True when the parser ran out of input (more is needed), False when the
    text parses, None on any other syntax error."""
    try:
        parser().parse(_source(text))
    except UnexpectedToken as e:
        if e.token.type == "$END":
            return True
        # the Indenter closes open blocks at the end of the input even inside a
        # bracket (where it makes no other indent tokens): that is the end too
        if e.token.type == "_DEDENT" and bracket_depth(text) > 0:
            return True
        # a header whose block has not begun, inside a block (`class P:` then `def f(self):`):
        # the Indenter closes the outer block before the end, where the parser wants the
        # inner block's indent
        if e.token.type == "_DEDENT" and set(e.expected) == {"_INDENT"}:
            return True
        return None
    except UnexpectedEOF:
        return True
    except Exception:  # other syntax errors (bad dedent, bad character, too deep)
        return None
    return False


def _tokens(text):
    """The postlexed token types (with the Indenter's _INDENT/_DEDENT), or None."""
    try:
        return [t.type for t in parser().lex(_source(text))]
    except Exception:  # lexer errors: the parse reports them
        return None


def bracket_depth(text: str) -> int:
    from .lexer import tokens

    depth = 0
    for kind, _value, _start in tokens(text):
        if kind in _OPEN:
            depth += 1
        elif kind in _CLOSE:
            depth = max(0, depth - 1)
    return depth


def is_meta(text: str) -> bool:
    return text.lstrip().startswith(":")


def is_complete(text: str) -> bool:
    """Whether the REPL should run `text` now (True) or continue with `... `."""
    if not text.strip() or is_meta(text):
        return True
    lines = text.split("\n")
    last_blank = len(lines) > 1 and not lines[-1].strip()
    state = ends_early(text)
    if state is None:
        if _CONTINUES.match(lines[-1]):
            return False  # a misplaced `else:`: keep the block open to fix it
        return True  # a syntax error: run it, it is reported
    if state:
        # more is needed; a blank line gives up unless a bracket is still open
        # (Python's REPL does the same: `def f():` then an empty line is an error)
        return last_blank and bracket_depth(text) == 0
    if len(lines) > 1 and not last_blank:
        toks = _tokens(text)
        if toks and "_INDENT" in toks:
            return False  # inside a block: a blank line ends it
    return True


_CONTINUES = re.compile(r"^(\s*)(else|elif\b.*|except\b.*|finally)\s*:\s*(#.*)?$")


def fix_continuation(text: str) -> str | None:
    """A last line `else:` / `elif ...:` indented as if inside the block it ends is a
    syntax error; the text with that line moved out to the first indentation at
    which it parses (as more to come), or None if there is none."""
    lines = text.split("\n")
    m = _CONTINUES.match(lines[-1])
    if not m or ends_early(text) is not None:
        return None
    indent = len(m.group(1).replace("\t", "    "))
    body = lines[-1].lstrip()
    for width in range(indent - 4, -1, -4):
        fixed = "\n".join(lines[:-1] + [" " * width + body])
        if ends_early(fixed + "\n" + " " * (width + 4) + "pass") is not None:
            return fixed
    return None
