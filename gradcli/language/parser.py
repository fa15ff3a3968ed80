"""Parsing: the Lark LALR parser built from grammar/gradcli.lark, with Python-style
indentation, and its errors turned into gradcli syntax errors with a position."""
from __future__ import annotations

import os

from lark import Lark, UnexpectedCharacters, UnexpectedEOF, UnexpectedInput, UnexpectedToken
from lark.indenter import DedentError, Indenter

from ..base.errors import GradSyntaxError
from .brackets import bracket_problem


class _Indenter(Indenter):
    NL_type = "_NEWLINE"
    OPEN_PAREN_types = ["LPAR", "LSQB", "LBRACE"]
    CLOSE_PAREN_types = ["RPAR", "RSQB", "RBRACE"]
    INDENT_type = "_INDENT"
    DEDENT_type = "_DEDENT"
    tab_len = 8

    def process(self, stream):
        self._cols = [(0, 0)]
        return super().process(stream)

    def handle_NL(self, token):
        if self.paren_level == 0:
            self._check_tabs(token)
        try:
            yield from super().handle_NL(token)
        except DedentError:
            # the line is the one after the newline (the newline token spans up to it)
            raise GradSyntaxError("unindent does not match any outer indentation level",
                                  getattr(token, "end_line", None) or token.line, 1) from None

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
            raise GradSyntaxError("inconsistent use of tabs and spaces in indentation", line, 1,
                                  hint="indent with spaces only (or tabs only)")


def grammar_text() -> str:
    """grammar/gradcli.lark: inside the installed package (gradcli/grammar/), or
    beside the package in a source tree or an editable install."""
    package = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    for path in (os.path.join(package, "grammar", "gradcli.lark"),
                 os.path.join(os.path.dirname(package), "grammar", "gradcli.lark")):
        if os.path.exists(path):
            with open(path, encoding="utf-8") as f:
                return f.read()
    from importlib import resources      # a zipped or otherwise unusual install
    return resources.files("gradcli.grammar").joinpath("gradcli.lark").read_text("utf-8")


def _cache_path(text: str) -> str:
    """A cache file named by the grammar's length and a cheap checksum and lark's version."""
    import zlib
    import lark
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    key = f"{lark.__version__}-{len(text)}-{zlib.crc32(text.encode()):08x}"
    return os.path.join(base, "gradcli", f"parser-{key}.bin")


_parser = None
# the basic lexer compiles one scanner (the contextual one compiles one per parser
# state, ~20 ms at start-up); the grammar is written so that it needs no context
_OPTIONS = dict(parser="lalr", lexer="basic", maybe_placeholders=True, propagate_positions=True)


def parser() -> Lark:
    """The LALR parser, built once per process.  Its tables are saved on disk
    (Lark.save) the first time, and loaded from there afterwards (Lark.load):
    building them takes ~100 ms, loading ~10 ms."""
    global _parser
    if _parser is None:
        text = grammar_text()
        path = _cache_path(text)
        try:
            with open(path, "rb") as f:
                # Lark.load() takes no postlex; _load() is what Lark's own cache uses
                _parser = Lark.__new__(Lark)._load(f, postlex=_Indenter())
        except Exception:          # no cache yet, or an unreadable one: build and save
            _parser = Lark(text, postlex=_Indenter(), **_OPTIONS)
            try:
                os.makedirs(os.path.dirname(path), exist_ok=True)
                tmp = f"{path}.{os.getpid()}.tmp"
                with open(tmp, "wb") as f:
                    _parser.save(f)
                os.replace(tmp, path)
            except OSError:
                pass
    return _parser


_TOKEN_WORDS = {
    "_NEWLINE": "end of line", "$END": "end of input", "_DEDENT": "end of block",
    "_INDENT": "indented block", "NAME": "name", "NUMBER": "number", "STRING": "string",
    "RPAR": "')'", "LPAR": "'('", "RSQB": "']'", "LSQB": "'['", "COLON": "':'",
    "COMMA": "','", "EQUAL": "'='",
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
    except DedentError as e:
        line = _dedent_line(source, str(e))
        raise GradSyntaxError("unindent does not match any outer indentation level", line, 1) \
            from None
    except RecursionError:
        raise GradSyntaxError("expression nested too deeply", 1, 1)


def _dedent_line(source, message):
    """The first line whose indentation matches no enclosing block."""
    stack = [0]
    for n, text in enumerate(source.splitlines(), 1):
        if not text.strip() or text.lstrip().startswith("#"):
            continue
        width = len(text.expandtabs(8)) - len(text.expandtabs(8).lstrip())
        if width > stack[-1]:
            stack.append(width)
        else:
            while width < stack[-1]:
                stack.pop()
            if width != stack[-1]:
                return n
    return None


def to_syntax_error(e: UnexpectedInput, source: str) -> GradSyntaxError:
    err = _to_syntax_error(e, source)
    if err.message.startswith(("unexpected", "unterminated")) and err.line is not None:
        found = bracket_problem(source, err.line, err.column or 1,
                                at_end=err.message.startswith("unexpected end of input"))
        if found is not None:
            return GradSyntaxError(*found)
    return err


def _to_syntax_error(e: UnexpectedInput, source: str) -> GradSyntaxError:
    line, col = getattr(e, "line", None), getattr(e, "column", None)
    if isinstance(e, UnexpectedCharacters):
        ch = source[e.pos_in_stream] if e.pos_in_stream < len(source) else ""
        if ch in "\"'":
            msg = "unterminated string"
        elif ch == "\t" or ch == " ":
            msg = "unexpected indentation"
        else:
            msg = f"unexpected character {ch!r}"
        return GradSyntaxError(msg, line, col)
    if isinstance(e, UnexpectedToken):
        tok = e.token
        if tok.type == "$END" or line in (None, -1):
            lines = source.rstrip("\n").splitlines() or [""]
            return GradSyntaxError("unexpected end of input (an unclosed bracket or block?)",
                                   len(lines), len(lines[-1]) + 1)
        if tok.type in ("_INDENT", "_DEDENT"):
            # the token borrows the position of the newline before it: point at the
            # first character of the indented line instead
            ln = getattr(tok, "end_line", None) or tok.line
            cl = getattr(tok, "end_column", None) or tok.column
            if tok.type == "_INDENT":
                return GradSyntaxError("unexpected indent", ln, cl)
            return GradSyntaxError("unindent does not match any outer indentation level", ln, cl)
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
