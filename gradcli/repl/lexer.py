"""Syntax highlighting from the grammar's own lexer.

`tokens(text)` runs the parser's own lexer (the terminals of
grammar/gradcli.lark, with the ignored ones kept: spaces and comments) and
never fails: an unterminated string becomes an `ERROR_STRING` token to the end
of its line, any other character the grammar does not know an `ERROR` token.
The highlighter and the completer both read it.
"""

from __future__ import annotations

import re

from ..language.parser import UnexpectedInput, parser


def keywords() -> frozenset:
    """Words the grammar reserves: its string terminals that look like names."""
    return parser().lexer.keywords


def tokens(text: str):
    """(type, value, start) for every piece of `text`, error-tolerant."""
    out = []
    pos = 0
    n = len(text)
    while pos < n:
        try:
            for tok in parser().lexer.lex(text[pos:], keep_ignored=True):
                out.append((tok.type, tok.value, pos + tok.start_pos))
            break
        except UnexpectedInput as e:
            bad = pos + e.pos_in_stream
            ch = text[bad]
            if ch in "\"'" or (ch in "fFrR" and bad + 1 < n and text[bad + 1] in "\"'"):
                end = text.find("\n", bad)
                end = n if end < 0 else end
                out.append(("ERROR_STRING", text[bad:end], bad))
            else:
                end = bad + 1
                out.append(("ERROR", ch, bad))
            pos = end
    return out


# ---------------------------------------------------------------- highlighting

_CONSTANTS = {"True", "False", "None", "true", "false", "none"}
_OPERATOR_TYPES = {
    "AUGOP",
    "COMP_OP",
    "ADD_OP",
    "MUL_OP",
    "UNARY_OP",
    "POW_OP",
    "EQUAL",
    "BIT_OP",
    "SHIFT_OP",
    "TILDE",
}

STYLE = {
    "gc.keyword": "ansimagenta bold",
    "gc.constant": "ansimagenta",
    "gc.builtin": "ansicyan",
    "gc.number": "ansiblue",
    "gc.string": "ansigreen",
    "gc.comment": "ansibrightblack italic",
    "gc.operator": "ansiyellow",
    "gc.error": "ansired underline",
}


def classify(kind: str, value: str, builtin_names=()) -> str:
    """The style class of one token ('' for plain text)."""
    if kind == "NAME":
        return "gc.builtin" if value in builtin_names else ""
    if kind == "BACKWARD_CMD":
        return "gc.keyword"
    if kind == "NUMBER":
        return "gc.number"
    if kind == "STRING":
        return "gc.string"
    if kind == "ERROR_STRING":  # a string still being typed
        return "gc.string"
    if kind == "ERROR":
        return "gc.error"
    if kind == "COMMENT":
        return "gc.comment"
    if kind in _OPERATOR_TYPES:
        return "gc.operator"
    if value in _CONSTANTS:
        return "gc.constant"
    if value in keywords():
        return "gc.keyword"
    return ""


_COMMENT_IN_NEWLINE = re.compile(r"#[^\n]*")


def fragments(text: str, builtin_names=()):
    """[(style, text)] covering `text` exactly."""
    out = []
    for kind, value, _start in tokens(text):
        if kind == "_NEWLINE":  # newlines and the comments folded into them
            last = 0
            for m in _COMMENT_IN_NEWLINE.finditer(value):
                if m.start() > last:
                    out.append(("", value[last : m.start()]))
                out.append(("class:gc.comment", m.group()))
                last = m.end()
            if last < len(value):
                out.append(("", value[last:]))
            continue
        style = classify(kind, value, builtin_names)
        out.append((f"class:{style}" if style else "", value))
    return out


def split_lines(frags):
    """Fragments of a text -> one list of fragments per line."""
    lines = [[]]
    for style, text in frags:
        parts = text.split("\n")
        for i, part in enumerate(parts):
            if i:
                lines.append([])
            if part:
                lines[-1].append((style, part))
    return lines


def make_lexer(builtin_names):
    """A prompt_toolkit Lexer highlighting with `fragments`."""
    from prompt_toolkit.lexers import Lexer

    class GradLexer(Lexer):
        def lex_document(self, document):
            lines = split_lines(fragments(document.text, builtin_names))

            def get_line(i):
                return lines[i] if 0 <= i < len(lines) else []

            return get_line

    return GradLexer()
