"""gradcli's own LALR runtime (gradcli/language/lalr.py) gives the trees, tokens,
positions and errors that Lark's own parser gives for the same grammar, on every
program of the golden files (tutorials included) and on programs made to fail;
and the parser's table cache survives a corrupt file and an unwritable directory."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from lark import Lark, Token as LarkToken, Tree as LarkTree
from lark.exceptions import UnexpectedInput as LarkUnexpectedInput

from gradcli.runtime.errors import GradSyntaxError
from gradcli.language import lalr, lalr_build, parser as P

ROOT = Path(__file__).resolve().parents[2]

_POS = ("start_pos", "line", "column", "end_line", "end_column", "end_pos")
_META = ("line", "column", "start_pos", "end_line", "end_column", "end_pos", "empty")


def _sources():
    out = set()

    def walk(o):
        if isinstance(o, dict):
            for k, v in o.items():
                if k == "source" and isinstance(v, str):
                    out.add(v)
                else:
                    walk(v)
        elif isinstance(o, list):
            for v in o:
                walk(v)

    for f in sorted((ROOT / "tests" / "golden").glob("*.json")):
        walk(json.loads(f.read_text()))
    for f in sorted((ROOT / "scripts").rglob("*.ag")) + sorted(
        (ROOT / "tests" / "tutorials").glob("*.py")
    ):
        out.add(f.read_text())
    return sorted(out)


SOURCES = _sources()

BROKEN = [
    "",
    "\n",
    "x = (1,\n",
    "def f(:\n",
    "if x:\ny = 1\n",
    "if x:\n    y = 1\n  z = 2\n",
    "x = 'abc\n",
    "x = 1 $ 2\n",
    "  x = 1\n",
    "f(x))\n",
    "for i in range(3):\n",
    "x = [1, 2\ny = 3\n",
    "if 1:\n\tx = 1\n        y = 2\n",
    "x = {1: 2, 3}\n",
    "lambda: \n",
    "x = 1 +\n",
    "print(1 if 2)\n",
    "def f():\n    return\n  x\n",
    "a.b.c(1, *d, **e)[1:2, ...]\n",
]


@pytest.fixture(scope="module")
def lark_parser():
    return Lark(P.grammar_text(), postlex=P._Indenter(), **P._OPTIONS)


def _same(a, b, where="tree"):
    if a is None or b is None:
        assert a is None and b is None, where
    elif isinstance(b, LarkToken):
        assert isinstance(a, lalr.Token), where
        assert (a.type, a.value) == (b.type, b.value), where
        assert [getattr(a, k) for k in _POS] == [getattr(b, k) for k in _POS], where
    else:
        assert isinstance(b, LarkTree) and isinstance(a, lalr.Tree), where
        assert a.data == b.data, where
        assert [getattr(a.meta, k, None) for k in _META] == [
            getattr(b.meta, k, None) for k in _META
        ], f"{where}.{a.data}"
        assert len(a.children) == len(b.children), f"{where}.{a.data}"
        for i, (x, y) in enumerate(zip(a.children, b.children)):
            _same(x, y, f"{where}.{a.data}[{i}]")


def _outcome(fn, source):
    try:
        return "ok", fn(source)
    except (lalr.UnexpectedInput, LarkUnexpectedInput) as e:
        tok = getattr(e, "token", None)
        return "error", (
            type(e).__name__,
            e.line,
            e.column,
            e.pos_in_stream,
            tok and (tok.type, str(tok)),
        )
    except GradSyntaxError as e:
        return "grad error", (e.message, e.line, e.column)


def test_the_corpus_is_large():
    assert len(SOURCES) > 1000


@pytest.mark.parametrize("chunk", range(8))
def test_same_trees_as_lark(lark_parser, chunk):
    ours = P.parser()
    for source in SOURCES[chunk::8] + (BROKEN if chunk == 0 else []):
        text = source if source.endswith("\n") else source + "\n"
        a, b = _outcome(ours.parse, text), _outcome(lark_parser.parse, text)
        assert a[0] == b[0], (source, a, b)
        if a[0] == "ok":
            _same(a[1], b[1])
        else:
            assert a[1] == b[1], source


def test_same_tokens_as_lark_with_the_ignored_ones(lark_parser):
    lexer = lark_parser._build_lexer(dont_ignore=True)
    from lark.lexer import LexerThread

    for source in SOURCES[::7] + ["x = 1  # a comment\n", "  \\\n y"]:
        ours = [
            (t.type, t.value, t.start_pos, t.line, t.column)
            for t in P.parser().lexer.lex(source, keep_ignored=True)
        ]
        theirs = [
            (t.type, t.value, t.start_pos, t.line, t.column)
            for t in LexerThread.from_text(lexer, source).lex(None)
        ]
        assert ours == theirs, source


def test_keywords_are_the_grammars(lark_parser):
    words = {
        t.pattern.value
        for t in lark_parser.terminals
        if type(t.pattern).__name__ == "PatternStr" and t.pattern.value.isidentifier()
    }
    assert P.parser().lexer.keywords == words
    assert {"def", "return", "lambda", "for", "in", "if"} <= words


def _run(tmp_path, cache_home):
    env = dict(os.environ, XDG_CACHE_HOME=str(cache_home))
    return subprocess.run(
        [sys.executable, "-m", "gradcli", "eval", "-e", "x = 1 + 2\nx"],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
    )


def test_cache_is_written_then_read(tmp_path):
    r = _run(tmp_path, tmp_path)
    assert (r.returncode, r.stdout) == (0, "3\n"), r.stderr
    files = list((tmp_path / "gradcli").glob("tables-*.marshal"))
    assert len(files) == 1
    r = _run(tmp_path, tmp_path)
    assert (r.returncode, r.stdout) == (0, "3\n"), r.stderr


def test_corrupt_cache_is_rebuilt(tmp_path):
    _run(tmp_path, tmp_path)
    (path,) = (tmp_path / "gradcli").glob("tables-*.marshal")
    for junk in (b"", b"\x00garbage", path.read_bytes()[:1000]):
        path.write_bytes(junk)
        r = _run(tmp_path, tmp_path)
        assert (r.returncode, r.stdout, r.stderr) == (0, "3\n", "")
    assert path.stat().st_size > 1000  # written again


def test_unwritable_cache_dir_still_runs(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("not a directory")
    r = _run(tmp_path, blocker)  # $XDG_CACHE_HOME/gradcli cannot be made
    assert (r.returncode, r.stdout, r.stderr) == (0, "3\n", "")


def test_eval_does_not_import_lark(tmp_path):
    code = (
        "import sys; from gradcli.cli import main; main(['eval', '-q', '-e', 'x = 1']); "
        "print('lark' in sys.modules)"
    )
    subprocess.run(
        [sys.executable, "-m", "gradcli", "eval", "-e", "1"], cwd=ROOT, capture_output=True
    )  # the cache exists
    r = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True)
    assert r.stdout.strip() == "False", r.stderr


def test_the_scanner_is_made_from_the_cached_programs_or_from_the_text():
    """The cached tables carry the scanner's patterns as `re` compiled them for this
    Python: the patterns made from them are re.compile's (same pattern, flags, groups,
    and the same matches on a program); another `_sre` form, or programs of other
    patterns, fall back to compiling the text."""
    import re

    text = P.grammar_text()
    data = lalr_build.export(text, P._OPTIONS)
    made = lalr._programs(data)
    assert made is not None
    want = [re.compile(p, f) for p, f in data["mres"]]
    assert [(m.pattern, m.flags, m.groups, m.groupindex) for m in made] == [
        (w.pattern, w.flags, w.groups, w.groupindex) for w in want
    ]
    src = "x = ones(2, 2, requires_grad=true)  # c\nfor i in range(3):\n    y = x ** 2.5e-1\n"
    for pos in range(len(src)):
        a, b = made[0].match(src, pos), want[0].match(src, pos)
        assert (a and (a.span(), a.lastgroup)) == (b and (b.span(), b.lastgroup))
    assert lalr._programs(dict(data, sre=dict(data["sre"], magic=-1))) is None
    other = [("x", *args[1:]) for args in data["sre"]["programs"]]
    assert lalr._programs(dict(data, sre=dict(data["sre"], programs=other))) is None
    assert lalr._programs(dict(data, sre=None)) is None
    assert lalr.Lexer(dict(data, sre=None)).mres[0].pattern == want[0].pattern
