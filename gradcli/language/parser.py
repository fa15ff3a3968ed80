"""Parsing: the LALR parser for grammar/gradcli.lark, with Python-style
indentation, and its errors turned into gradcli syntax errors with a position.

Lark compiles the grammar; gradcli runs the tables with its own small runtime
(`lalr.py`), so that a program is parsed without importing Lark: the tables are
exported once per grammar, lark version and Python version into the user's cache
directory (`lalr_build.py`) and read back with marshal afterwards.  `Tree`,
`Token` and the parser's errors are taken from here by the rest of the package."""

from __future__ import annotations

import ast
import marshal
import os
import re
import sys
import warnings

from ..runtime.errors import GradSyntaxError
from . import lalr_build
from .brackets import bracket_problem
from .lalr import (
    Parser,
    Token,
    Tree,
    UnexpectedCharacters,
    UnexpectedEOF,
    UnexpectedInput,
    UnexpectedToken,
)

__all__ = [
    "Token",
    "Tree",
    "UnexpectedCharacters",
    "UnexpectedEOF",
    "UnexpectedInput",
    "UnexpectedToken",
    "parse",
    "parser",
    "grammar_text",
    "to_syntax_error",
]


class _Indenter:
    """The post-lexer for Python's indentation: _INDENT and _DEDENT tokens after a
    newline whose next line is indented more or less, none inside brackets."""

    NL_type = "_NEWLINE"
    OPEN_PAREN_types = ("LPAR", "LSQB", "LBRACE")
    CLOSE_PAREN_types = ("RPAR", "RSQB", "RBRACE")
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8
    always_accept = (NL_type,)

    def process(self, stream):
        self._cols = [(0, 0)]
        self.paren_level = 0
        self.indent_level = [0]
        return self._process(stream)

    def _process(self, stream):
        token = None
        for token in stream:
            if token.type == self.NL_type:
                yield from self.handle_NL(token)
            else:
                yield token
            if token.type in self.OPEN_PAREN_types:
                self.paren_level += 1
            elif token.type in self.CLOSE_PAREN_types:
                self.paren_level -= 1
                assert self.paren_level >= 0
        while len(self.indent_level) > 1:
            self.indent_level.pop()
            yield (
                type(token).new_borrow_pos(self.DEDENT_type, "", token)
                if token is not None
                else Token(self.DEDENT_type, "", 0, 0, 0, 0, 0, 0)
            )

    def handle_NL(self, token):
        if self.paren_level > 0:
            return
        self._check_tabs(token)
        yield token
        indent_str = token.rsplit("\n", 1)[1]
        indent = indent_str.count(" ") + indent_str.count("\t") * self.tab_len
        levels = self.indent_level
        if indent > levels[-1]:
            levels.append(indent)
            yield type(token).new_borrow_pos(self.INDENT_type, indent_str, token)
            return
        while indent < levels[-1]:
            levels.pop()
            yield type(token).new_borrow_pos(self.DEDENT_type, indent_str, token)
        if indent != levels[-1]:
            # the line is the one after the newline (the newline token spans up to it)
            raise GradSyntaxError(
                "unindent does not match any outer indentation level",
                getattr(token, "end_line", None) or token.line,
                1,
                type_name="IndentationError",
            )

    def _check_tabs(self, token):
        """Python's rule: an indentation must compare the same way with tabs as 8
        columns and as 1, else it depends on the tab size (TabError)."""
        text = token.rsplit("\n", 1)[-1]
        col = alt = 0
        for ch in text:
            if ch == " ":
                col, alt = col + 1, alt + 1
            elif ch == "\t":
                col, alt = (col // 8 + 1) * 8, alt + 1
            else:
                break
        cols = self._cols
        ok = True
        if col > cols[-1][0]:
            ok = alt > cols[-1][1]
            cols.append((col, alt))
        else:
            while len(cols) > 1 and col < cols[-1][0]:
                cols.pop()
            ok = col != cols[-1][0] or alt == cols[-1][1]
        if not ok:
            line = getattr(token, "end_line", None) or token.line
            raise GradSyntaxError(
                "inconsistent use of tabs and spaces in indentation",
                line,
                1,
                hint="indent with spaces only (or tabs only)",
                type_name="TabError",
            )


def grammar_text() -> str:
    """grammar/gradcli.lark: inside the installed package (gradcli/grammar/), or
    beside the package in a source tree or an editable install."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for path in (
        os.path.join(package, "grammar", "gradcli.lark"),
        os.path.join(os.path.dirname(package), "grammar", "gradcli.lark"),
    ):
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return f.read()
    from importlib import resources  # a zipped or otherwise unusual install

    return resources.files("gradcli.grammar").joinpath("gradcli.lark").read_text("utf-8")


def _lark_version() -> str:
    """lark's version, read from its source without importing it (start-up time)."""
    places = (os.path.join(d or ".", "lark", "__init__.py") for d in sys.path if isinstance(d, str))
    origin = next((p for p in places if os.path.isfile(p)), None)
    if origin is None:
        return "none"
    try:
        with open(origin, encoding="utf-8") as f:
            m = re.search(r"__version__[^=]*=\s*['\"]([^'\"]+)", f.read())
        if m:
            return m.group(1)
        st = os.stat(origin)
        return f"{st.st_size}-{st.st_mtime_ns}"
    except OSError:
        return "unknown"


def _cache_path(text: str) -> str:
    """The cache file, named by the grammar's length and a byte sum, lark's version, the
    export format and Python's version (marshal's format is Python's).  The file holds
    the grammar too, and is used only if that is the same text."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    key = (
        f"{_lark_version()}-{len(text)}-{sum(text.encode()):x}-f{lalr_build.FORMAT}"
        f"-py{sys.version_info[0]}{sys.version_info[1]}"
    )
    return os.path.join(base, "gradcli", f"tables-{key}.marshal")


_parser = None
# the basic lexer compiles one scanner (the contextual one compiles one per parser
# state, ~20 ms at start-up); the grammar is written so that it needs no context
_OPTIONS = dict(parser="lalr", lexer="basic", maybe_placeholders=True, propagate_positions=True)


def _read_tables(path, text):
    with open(path, "rb") as f:
        data = marshal.loads(f.read())
    if (
        not isinstance(data, dict)
        or data.get("format") != lalr_build.FORMAT
        or data.get("grammar") != text
    ):
        raise ValueError("not the tables of this grammar")
    return data


def parser() -> Parser:
    """The LALR parser, made once per process from the cached tables (exported
    from Lark and saved on the first run: ~150 ms; loading them takes ~2 ms).  A
    missing, corrupt or unwritable cache only costs the export again."""
    global _parser
    if _parser is None:
        text = grammar_text()
        path = _cache_path(text)
        try:
            _parser = Parser(_read_tables(path, text), postlex=_Indenter())
        except Exception:  # no cache yet, or an unreadable one: export and save
            data = lalr_build.export(text, _OPTIONS)
            _parser = Parser(data, postlex=_Indenter())
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                tmp = f"{path}.{os.getpid()}.tmp"
                with open(tmp, "wb") as f:
                    marshal.dump(data, f)
                os.replace(tmp, path)
            except (OSError, ValueError):
                pass
    return _parser


_TOKEN_WORDS = {
    "_NEWLINE": "end of line",
    "$END": "end of input",
    "_DEDENT": "end of block",
    "_INDENT": "indented block",
    "NAME": "name",
    "NUMBER": "number",
    "STRING": "string",
    "RPAR": "')'",
    "LPAR": "'('",
    "RSQB": "']'",
    "LSQB": "'['",
    "COLON": "':'",
    "COMMA": "','",
    "EQUAL": "'='",
}


def _describe(tok) -> str:
    if tok is None:
        return "end of input"
    t = tok.type
    if t in ("_NEWLINE",):
        return "end of line"
    if t in ("$END", "_DEDENT"):
        return "end of input"
    if t == "_INDENT":
        return "unexpected indent"
    return repr(str(tok))


def parse(source: str):
    """Parse a whole program; raises GradSyntaxError with line and column."""
    if not source.endswith("\n"):
        source += "\n"
    try:
        return parser().parse(source)
    except UnexpectedInput as e:
        raise to_syntax_error(e, source) from None
    except RecursionError:
        raise GradSyntaxError("expression nested too deeply", 1, 1)


def to_syntax_error(e: UnexpectedInput, source: str) -> GradSyntaxError:
    err = _to_syntax_error(e, source)
    if err.message.startswith(("unexpected", "unterminated", "expected")) and err.line is not None:
        found = bracket_problem(source)
        if found is not None:
            return GradSyntaxError(*found)
    return err


# Python's words for a block header without its block, by the header's first word
_BLOCK_OF = {"def": "function definition", "class": "class definition"}
_COMPOUND = ("if", "elif", "else", "for", "while", "try", "except", "finally", "with")


def _header(lines: list[str], before: int) -> tuple[str, int] | None:
    """The block header (its description and line) on the last line with code before
    line `before`, or None when that line is not a header's first line."""
    for ln in range(min(before, len(lines) + 1) - 1, 0, -1):
        code = lines[ln - 1].strip()
        if not code or code.startswith("#"):
            continue
        first = (re.findall(r"[A-Za-z_]\w*", code) or [""])[0]
        if first in _BLOCK_OF:
            return _BLOCK_OF[first], ln
        if first in _COMPOUND:
            return f"'{first}' statement", ln
        return None
    return None


def _expected_words(e: UnexpectedToken, source: str, line: int) -> GradSyntaxError | None:
    """Python's message where the parser wanted one thing: a block after a header,
    the ':' of a header, the 'else' of a conditional expression, an 'except'."""
    expected = set(getattr(e, "expected", None) or ())
    lines = source.splitlines()
    tok = e.token
    if expected == {"_INDENT"}:
        # at the end of the input the Indenter may close an outer block first (_DEDENT)
        end = tok.type in ("$END", "_DEDENT")
        if end:
            line = len(source.rstrip().splitlines()) or 1
        found = _header(lines, line + 1 if end else line)
        if found is not None:
            what, at = found
            return GradSyntaxError(
                f"expected an indented block after {what} on line {at}",
                line,
                len(lines[line - 1]) + 1 if end else 1,
                type_name="IndentationError",
            )
    if tok.type == "$END":
        if {"EXCEPT", "FINALLY"} <= expected:
            end = len(lines[line - 1]) + 1 if 0 < line <= len(lines) else 1
            return GradSyntaxError("expected 'except' or 'finally' block", line, end)
        return None
    text = lines[tok.line - 1] if 0 < tok.line <= len(lines) else ""
    first = (re.findall(r"[A-Za-z_]\w*", text) or [""])[0]
    if "COLON" in expected and (first in _BLOCK_OF or first in _COMPOUND):
        col = len(text.rstrip()) + 1 if tok.type == "_NEWLINE" else tok.column
        return GradSyntaxError("expected ':'", tok.line, col)
    if expected == {"ELSE"}:
        col = len(text.rstrip()) + 1 if tok.type == "_NEWLINE" else tok.column
        return GradSyntaxError("expected 'else' after 'if' expression", tok.line, col)
    if {"EXCEPT", "FINALLY"} <= expected and all(
        any(w in x.lower() for w in ("except", "finally", "try")) for x in expected
    ):
        return GradSyntaxError("expected 'except' or 'finally' block", tok.line, tok.column)
    return None


def _to_syntax_error(e: UnexpectedInput, source: str) -> GradSyntaxError:
    line, col = getattr(e, "line", None), getattr(e, "column", None)
    if isinstance(e, UnexpectedCharacters):
        ch = source[e.pos_in_stream] if e.pos_in_stream < len(source) else ""
        if ch in "\"'":
            triple = source.startswith(ch * 3, e.pos_in_stream)
            msg = (
                f"unterminated {'triple-quoted ' if triple else ''}string literal "
                f"(detected at line {line})"
            )
        elif ch == "\t" or ch == " ":
            msg = "unexpected indentation"
        else:
            msg = f"unexpected character {ch!r}"
        return GradSyntaxError(msg, line, col)
    if isinstance(e, UnexpectedToken):
        tok = e.token
        lines = source.rstrip("\n").splitlines() or [""]
        at = len(lines) if tok.type == "$END" or line in (None, -1) else tok.line
        worded = _expected_words(e, source, at)
        if worded is not None:
            return worded
        if tok.type == "$END" or line in (None, -1):
            return GradSyntaxError(
                "unexpected end of input (an unclosed bracket or block?)",
                len(lines),
                len(lines[-1]) + 1,
            )
        if tok.type in ("_INDENT", "_DEDENT"):
            # the token borrows the position of the newline before it: point at the
            # first character of the indented line instead
            ln = getattr(tok, "end_line", None) or tok.line
            cl = getattr(tok, "end_column", None) or tok.column
            if tok.type == "_INDENT":
                return GradSyntaxError("unexpected indent", ln, cl, type_name="IndentationError")
            return GradSyntaxError(
                "unindent does not match any outer indentation level",
                ln,
                cl,
                type_name="IndentationError",
            )
        if tok.type == "_NEWLINE":
            # report at the end of the line the newline ends
            ln = tok.line
            text = source.splitlines()[ln - 1] if ln - 1 < len(source.splitlines()) else ""
            return GradSyntaxError("unexpected end of line", ln, len(text.rstrip()) + 1)
        return GradSyntaxError(f"unexpected {_describe(tok)}", tok.line, tok.column)
    if isinstance(e, UnexpectedEOF):
        lines = source.rstrip("\n").splitlines() or [""]
        return GradSyntaxError("unexpected end of input", len(lines), len(lines[-1]) + 1)
    return GradSyntaxError(str(e).splitlines()[0], line, col)


def literal_value(text):
    """The value of a string literal's text (its quotes and any `r` prefix), as Python
    reads it (ast.literal_eval; SyntaxError or ValueError for one it refuses).  An
    invalid escape sequence (`"a\\o"`) keeps its backslash, as CPython 3.11 does, without
    the DeprecationWarning Python's compiler gives (shown only under -W, turned into an
    error by -W error): the program's text is the language's, not Python's source."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return ast.literal_eval(text)
