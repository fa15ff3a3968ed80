"""The tables `lalr.Parser` runs, read from the parser Lark builds for the grammar.

Run once per grammar and lark version (parser.py caches the result on disk): this
is the only place gradcli imports Lark, and it does so inside `export`, so that
running a program never imports it.  Every piece read here is checked to be of
the form `lalr.py` replays; anything else (a new Lark that builds its parser
differently) is an error here rather than a silently different tree.  Why not
Lark's standalone generator: docs/developer/architecture.md, The parser.
"""

from __future__ import annotations

import marshal

#: bumped when the exported form changes (it is part of the cache file's name)
FORMAT = 4


def export(text: str, options: dict) -> dict:
    """Plain data (dicts, lists, tuples, strings, ints: marshal can store it) for
    `lalr.Parser`: the lexer's patterns, the LALR table and each rule's shaping."""
    from functools import partial

    from lark import Lark, Tree
    from lark.lexer import PatternStr, UnlessCallback
    from lark.parse_tree_builder import (
        ChildFilterLALR,
        ChildFilterLALR_NoPlaceholders,
        ExpandSingleChild,
        PropagatePositions,
    )
    from lark.parsers.lalr_analysis import Shift

    lark = Lark(text, **options)
    lexer = lark._build_lexer()
    scanner = lexer.scanner  # builds lexer.callback too
    unless = {}
    for type_, cb in lexer.callback.items():
        if not isinstance(cb, UnlessCallback):
            raise ValueError(f"lexer callback of an unknown kind for {type_}: {cb!r}")
        words = {}
        for t in cb.scanner.terminals:
            if not isinstance(t.pattern, PatternStr) or t.pattern.flags:
                raise ValueError(f"keyword terminal of an unknown kind: {t!r}")
            words[t.pattern.value] = t.name
        unless[type_] = words
    keywords = sorted(
        {
            t.pattern.value
            for t in lark.terminals
            if isinstance(t.pattern, PatternStr) and t.pattern.value.isidentifier()
        }
    )

    rules = list(lark.rules)
    index = {r: i for i, r in enumerate(rules)}
    shapes = []
    for rule in rules:
        cb = lark._callbacks[rule]
        propagate = isinstance(cb, PropagatePositions)
        if propagate:
            if cb.node_filter is not None:
                raise ValueError("propagate_positions with a filter is not supported")
            cb = cb.node_builder
        include, append_none = None, 0
        if type(cb) is ChildFilterLALR:
            include = [tuple(x) for x in cb.to_include]
            append_none = cb.append_none
            cb = cb.node_builder
        elif type(cb) is ChildFilterLALR_NoPlaceholders:
            include = [(i, expand, 0) for i, expand in cb.to_include]
            cb = cb.node_builder
        expand1 = type(cb) is ExpandSingleChild
        if expand1:
            cb = cb.node_builder
        if not (
            isinstance(cb, partial) and cb.func is Tree and len(cb.args) == 1 and not cb.keywords
        ):
            raise ValueError(f"rule {rule} is built by an unknown callback {cb!r}")
        shapes.append(
            (
                rule.origin.name,
                len(rule.expansion),
                (cb.args[0], expand1, include, append_none, propagate),
            )
        )

    table = lark.parser.parser._parse_table
    states = {}
    for state, actions in table.states.items():
        row = {}
        for term, (action, arg) in actions.items():
            row[term] = (0, arg) if action is Shift else (1, index[arg])
        states[state] = row
    if not all(isinstance(s, int) for s in states):
        raise ValueError("the parse table's states are not numbered")
    if sorted(states) != list(range(len(states))):
        raise ValueError("the parse table's states are not numbered 0, 1, ...")
    (start,) = table.start_states.values()
    (end,) = table.end_states.values()
    data = _plain(
        {
            "format": FORMAT,
            "grammar": text,
            "mres": [(m.pattern, m.flags) for m in scanner._mres],
            "sre": _sre_programs(scanner._mres),
            "unless": unless,
            "ignore": sorted(lexer.ignore_types),
            "newline": sorted(lexer.newline_types),
            "allowed": sorted(scanner.allowed_types),
            "keywords": keywords,
            "states": states,
            "start": start,
            "end": end,
            "rules": shapes,
        }
    )
    # each state's row stored by itself, read when the parser first reaches that state (a
    # program visits a few of the 500; reading them all was 1% of a small program's start)
    data["states"] = [marshal.dumps(data["states"][i]) for i in range(len(states))]
    return data


def _sre_programs(mres):
    """The scanner's patterns as `re` compiles them for this Python (`_sre.compile`'s
    arguments, with `_sre.MAGIC`, the version of their form): `lalr.Lexer` makes its
    patterns from these without parsing and compiling them again at every start (about 1%
    of a small program's start-up), and from their text where the form is another."""
    import _sre
    from re import _compiler, _parser

    out = []
    for m in mres:
        p = _parser.parse(m.pattern, m.flags)
        code = _compiler._code(p, m.flags)
        groups = [None] * p.state.groups
        for name, i in p.state.groupdict.items():
            groups[i] = name
        args = (m.pattern, m.flags | p.state.flags, code, p.state.groups - 1)
        out.append((*args, dict(p.state.groupdict), tuple(groups)))
        if _sre.compile(*out[-1]).groupindex != m.groupindex:
            return None
    return {"magic": _sre.MAGIC, "programs": out}


def _plain(o, shared=None):
    """`o` made of exactly dict, list, tuple, str, int, bool and None (Lark's names are
    str subclasses, which marshal does not store); equal strings and tuples are made
    one object, which marshal stores once (a smaller file, read faster)."""
    if shared is None:
        shared = {}
    if isinstance(o, dict):
        return {_plain(k, shared): _plain(v, shared) for k, v in o.items()}
    if isinstance(o, list):
        return [_plain(x, shared) for x in o]
    if isinstance(o, tuple):
        t = tuple(_plain(x, shared) for x in o)
        try:
            return shared.setdefault((tuple, t), t)
        except TypeError:  # holds a list
            return t
    if isinstance(o, bool) or o is None:
        return o
    if isinstance(o, int):
        return int(o)
    if isinstance(o, str):
        return shared.setdefault(str(o), str(o))
    raise ValueError(f"cannot store {o!r}")
