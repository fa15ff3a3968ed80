"""gradcli's own LALR(1) runtime: the lexer and the parser that run the tables Lark
builds from grammar/gradcli.lark, without importing Lark (start-up time: importing
lark and deserialising its parser took ~60 ms of every `gradcli eval`).

Lark stays the grammar compiler: `lalr_build.export` (run once per grammar and
lark version, its result cached on disk by `parser.py`) reads Lark's lexer
terminals, its LALR parse table and, for each rule, how Lark's parse-tree
builder shapes the rule's node (children filtered out, `_rule`s inlined, `?rule`s
collapsed to their one child, `[x]` placeholders, positions propagated).  This
module replays exactly that: the trees, tokens, positions and errors are those
Lark's `parser="lalr", lexer="basic", maybe_placeholders=True,
propagate_positions=True` gives (tests/language/test_parser_runtime.py compares them on
every program in the tests and tutorials).

`Tree`, `Token` and the `Unexpected*` errors are defined here, and every module
of the package takes them from here (through `parser.py`).
"""

from __future__ import annotations

import marshal
import re

import _sre

SHIFT, REDUCE = 0, 1


class Meta:
    """A node's position (line, column, start_pos, end_line, end_column, end_pos,
    set only when the node covers some text, as in Lark)."""

    empty = True


class Tree:
    __slots__ = ("data", "children", "_meta")

    def __init__(self, data, children, meta=None):
        self.data = data
        self.children = children
        self._meta = meta

    @property
    def meta(self):
        if self._meta is None:
            self._meta = Meta()
        return self._meta

    def __repr__(self):
        return f"Tree({self.data!r}, {self.children!r})"

    def __eq__(self, other):
        try:
            return self.data == other.data and self.children == other.children
        except AttributeError:
            return False

    def __ne__(self, other):
        return not self == other

    def __hash__(self):
        return hash((self.data, tuple(self.children)))

    def iter_subtrees_topdown(self):
        """This node and the trees under it, parents before their children, in order."""
        stack = [self]
        while stack:
            node = stack.pop()
            if not isinstance(node, Tree):
                continue
            yield node
            stack.extend(reversed(node.children))


class Token(str):
    """A piece of the source: the text, its terminal's name (`type`) and its place."""

    __slots__ = (
        "type",
        "value",
        "start_pos",
        "line",
        "column",
        "end_line",
        "end_column",
        "end_pos",
    )

    def __new__(
        cls,
        type,
        value,
        start_pos=None,
        line=None,
        column=None,
        end_line=None,
        end_column=None,
        end_pos=None,
    ):
        self = str.__new__(cls, value)
        self.type = type
        self.value = value
        self.start_pos = start_pos
        self.line = line
        self.column = column
        self.end_line = end_line
        self.end_column = end_column
        self.end_pos = end_pos
        return self

    @classmethod
    def new_borrow_pos(cls, type, value, borrow):
        return cls(
            type,
            value,
            borrow.start_pos,
            borrow.line,
            borrow.column,
            borrow.end_line,
            borrow.end_column,
            borrow.end_pos,
        )

    def __reduce__(self):
        return (self.__class__, (self.type, self.value, self.start_pos, self.line, self.column))

    def __repr__(self):
        return f"Token({self.type!r}, {self.value!r})"

    def __eq__(self, other):
        if isinstance(other, Token) and self.type != other.type:
            return False
        return str.__eq__(self, other)

    __hash__ = str.__hash__


class UnexpectedInput(Exception):
    """A syntax error found by the lexer or the parser."""

    line = column = pos_in_stream = None


class UnexpectedCharacters(UnexpectedInput):
    def __init__(self, text, pos, line, column, allowed=()):
        self.pos_in_stream = pos
        self.line, self.column = line, column
        self.allowed = set(allowed)
        super().__init__(f"No terminal matches {text[pos]!r} at line {line} col {column}")


class UnexpectedToken(UnexpectedInput):
    def __init__(self, token, expected):
        self.token = token
        self.expected = expected
        self.line = getattr(token, "line", None)
        self.column = getattr(token, "column", None)
        self.pos_in_stream = getattr(token, "start_pos", None)
        super().__init__(f"Unexpected token {token!r} at line {self.line}, column {self.column}")


class UnexpectedEOF(UnexpectedInput):
    """Not raised by this runtime (the end of the input is a `$END` token, as in
    Lark's LALR parser); kept so that callers can name it."""


class Lexer:
    """Lark's basic lexer: at each place the first terminal (in Lark's order) that
    matches; a name-like terminal whose text is a keyword becomes the keyword."""

    def __init__(self, data):
        self.mres = _programs(data) or [re.compile(p, flags) for p, flags in data["mres"]]
        self.unless = data["unless"]
        self.ignore = frozenset(data["ignore"])
        self.newline = frozenset(data["newline"])
        self.allowed = frozenset(data["allowed"])
        self.keywords = frozenset(data["keywords"])

    def lex(self, text, keep_ignored=False):
        mres, unless, newline = self.mres, self.unless, self.newline
        ignore = frozenset() if keep_ignored else self.ignore
        pos, line, line_start, end = 0, 1, 0, len(text)
        while pos < end:
            for mre in mres:
                m = mre.match(text, pos)
                if m:
                    break
            else:
                raise UnexpectedCharacters(
                    text,
                    pos,
                    line,
                    pos - line_start + 1,
                    self.allowed - self.ignore or {"<END-OF-FILE>"},
                )
            value, type_ = m.group(0), m.lastgroup
            start, start_line, start_col = pos, line, pos - line_start + 1
            if type_ in newline:
                n = value.count("\n")
                if n:
                    line += n
                    line_start = pos + value.rindex("\n") + 1
            pos += len(value)
            if type_ in ignore:
                continue
            if type_ in unless:
                type_ = unless[type_].get(value, type_)
            yield Token(type_, value, start, start_line, start_col, line, pos - line_start + 1, pos)


def _programs(data):
    """The scanner's patterns made from the programs `re` compiled them to when the tables
    were exported (lalr_build._sre_programs), where this Python's `_sre` reads that form
    and they are the patterns' own; else None (compiled from their text)."""
    sre = data.get("sre")
    if not sre or sre.get("magic") != _sre.MAGIC:
        return None
    programs = sre["programs"]
    if [args[0] for args in programs] != [p for p, _ in data["mres"]]:
        return None
    try:
        return [_sre.compile(*args) for args in programs]
    except (RuntimeError, TypeError, ValueError):  # (code _sre does not accept)
        return None


def _propagate(res, children):
    """Lark's propagate_positions: a node starts where the container of its first
    positioned child starts and ends where that of its last one ends (containers
    include the tokens filtered out of the tree and the inlined rules)."""
    meta = res.meta
    first = _first_meta(children)
    if first is not None:
        if not hasattr(meta, "line"):
            meta.line = getattr(first, "container_line", first.line)
            meta.column = getattr(first, "container_column", first.column)
            meta.start_pos = getattr(first, "container_start_pos", first.start_pos)
            meta.empty = False
        meta.container_line = getattr(first, "container_line", first.line)
        meta.container_column = getattr(first, "container_column", first.column)
        meta.container_start_pos = getattr(first, "container_start_pos", first.start_pos)
    last = _first_meta(reversed(children))
    if last is not None:
        if not hasattr(meta, "end_line"):
            meta.end_line = getattr(last, "container_end_line", last.end_line)
            meta.end_column = getattr(last, "container_end_column", last.end_column)
            meta.end_pos = getattr(last, "container_end_pos", last.end_pos)
            meta.empty = False
        meta.container_end_line = getattr(last, "container_end_line", last.end_line)
        meta.container_end_column = getattr(last, "container_end_column", last.end_column)
        meta.container_end_pos = getattr(last, "container_end_pos", last.end_pos)


def _first_meta(children):
    for c in children:
        if isinstance(c, Tree):
            if not c.meta.empty:
                return c.meta
        elif isinstance(c, Token):
            return c
    return None


def _builder(name, expand1, include, append_none, propagate):
    """The function that makes a rule's node from the values the rule reduced."""

    def build(children):
        if include is not None:
            filtered = []
            for i, expand, add_none in include:
                if add_none:
                    filtered += [None] * add_none
                if expand:
                    if filtered:
                        filtered += children[i].children
                    else:
                        filtered = children[i].children
                else:
                    filtered.append(children[i])
            if append_none:
                filtered += [None] * append_none
        else:
            filtered = children
        if expand1 and len(filtered) == 1:
            res = filtered[0]
        else:
            res = Tree(name, filtered)
        if propagate and isinstance(res, Tree):
            _propagate(res, children)
        return res

    return build


class _Rows(dict):
    """The parse table: state -> {terminal or rule name: (SHIFT, state) | (REDUCE, rule)},
    each row read from its marshal bytes (lalr_build.export) when first reached."""

    __slots__ = ("rows",)

    def __init__(self, rows):
        super().__init__()
        self.rows = rows

    def __missing__(self, state):
        row = self[state] = marshal.loads(self.rows[state])
        return row


class Parser:
    """The LALR(1) parser: Lark's table, the lexer, and a post-lexer (the Indenter)."""

    def __init__(self, data, postlex=None):
        self.lexer = Lexer(data)
        self.states = _Rows(data["states"])
        self.start, self.end = data["start"], data["end"]
        self.rules = [(origin, size, _builder(*shape)) for origin, size, shape in data["rules"]]
        self.postlex = postlex

    def lex(self, text):
        """The tokens the parser sees (after the post-lexer)."""
        stream = self.lexer.lex(text)
        return self.postlex.process(stream) if self.postlex is not None else stream

    def parse(self, text):
        states, rules, end = self.states, self.rules, self.end
        state_stack = [self.start]
        value_stack = []
        token = None
        for token in self.lex(text):
            self._feed(states, rules, state_stack, value_stack, token, end, False)
        if token is not None:
            eof = Token.new_borrow_pos("$END", "", token)
        else:
            eof = Token("$END", "", 0, 1, 1)
        return self._feed(states, rules, state_stack, value_stack, eof, end, True)

    @staticmethod
    def _feed(states, rules, state_stack, value_stack, token, end, is_end):
        type_ = token.type
        while True:
            actions = states[state_stack[-1]]
            try:
                action, arg = actions[type_]
            except KeyError:
                raise UnexpectedToken(token, set(actions)) from None
            if action == SHIFT:
                state_stack.append(arg)
                value_stack.append(token)
                return None
            origin, size, build = rules[arg]
            if size:
                children = value_stack[-size:]
                del state_stack[-size:]
                del value_stack[-size:]
            else:
                children = []
            value = build(children)
            _, new_state = states[state_stack[-1]][origin]
            state_stack.append(new_state)
            value_stack.append(value)
            if is_end and new_state == end:
                return value
