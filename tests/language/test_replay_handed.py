"""A top-level loop that qualifies for replay but whose noted iterations give no plan
(its statements call the program's classes and apply no op) hands the iterations after
them to its fast code (replay.Run.iteration, control._looped): each program prints
the same, errors too, as with `--no-replay` and `--no-fast-tier`, and as CPython."""

from __future__ import annotations

import contextlib
import io

import pytest

from conftest import run_inprocess
from gradcli.language import loop_shapes, replay

_CLASS = """class P:
    def __init__(self, x, y):
        self.x = x
        self.y = y
    def __add__(self, o):
        return P(self.x + o.x, self.y + o.y)
    def shifted(self, k):
        return P(self.x + k, self.y) if k != 7 else None
    def __repr__(self):
        return f"P({self.x}, {self.y})"
a = P(1, 2)
"""

PROGRAMS = {
    "for_else": "for i in range(10):\n    c = a + P(i, i)\nelse:\n    print('else', i, c)\n",
    "tuple_target": "pairs = [(k, k * 2) for k in range(8)]\n"
    "for u, v in pairs:\n    d = P(u, v) + a\nprint(u, v, d)\n",
    "while_else": "n = 0\nwhile n < 7:\n    e = P(1, 2) + a\n    n += 1\n"
    "else:\n    print('while else', n, e)\n",
    "break_after": "for i in range(20):\n    f = P(i, 0) + a\n    if i == 12:\n        break\n"
    "print('broke', i, f)\n",
    "error_after": "for i in range(9):\n    g = P(i, 1) + a.shifted(i)\nprint(g)\n",
    "exact_end": "for i in range(4):\n    h = P(i, i) + a\nelse:\n    print('end', h)\n",
    "three": "for i in range(3):\n    h = P(i, i) + a\nprint(h)\n",
    "list_grows": "xs = [1, 2, 3, 4, 5]\nfor x in xs:\n    k = P(x, 0) + a\n"
    "    if x < 5 and len(xs) < 9:\n        xs.append(x + 10)\nprint(xs, k)\n",
}


def _python(source):
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        try:
            exec(compile(source, "<program>", "exec"), {})
        except AttributeError as e:
            print("error", e)
    return out.getvalue()


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_loop_handed_to_the_fast_tier_prints_what_the_compiled_loop_prints(name):
    source = _CLASS + PROGRAMS[name]
    got = run_inprocess(source, ("eval", "-"))
    for flag in ("--no-replay", "--no-fast-tier"):
        other = run_inprocess(source, ("eval", flag, "-"))
        assert (got.stdout, got.stderr) == (other.stdout, other.stderr), flag
    python = _python(source)
    printed = python.split("error ")[0]
    assert got.stdout == printed
    if "error " in python:
        assert "AttributeError: 'NoneType' object has no attribute 'x'" in got.stderr


@pytest.mark.parametrize(
    "name, handed", [("for_else", True), ("while_else", True), ("three", False)]
)
def test_the_report_says_the_fast_tier_ran_the_others(name, handed, monkeypatch):
    monkeypatch.setattr(loop_shapes, "REPORT", True)
    monkeypatch.setattr(replay, "REPORT", True)
    r = run_inprocess(_CLASS + PROGRAMS[name])
    (line,) = [x for x in r.stderr.splitlines() if "iterations replayed" in x]
    assert ("replayed, the others run by the fast tier" in line) == handed
    assert "no plan" in line


def test_a_loop_that_replays_is_not_handed(monkeypatch):
    """A loop with a plan replays as before: nothing is handed."""
    monkeypatch.setattr(loop_shapes, "REPORT", True)
    monkeypatch.setattr(replay, "REPORT", True)
    source = (
        "w = torch.ones(3, requires_grad=True)\n"
        "for i in range(20):\n    loss = (w * 2.0).sum()\n    loss.backward()\n"
        "print(w.grad)\n"
    )
    r = run_inprocess(source)
    assert "tensor([40., 40., 40.])" in r.stdout
    (line,) = [x for x in r.stderr.splitlines() if "iterations replayed" in x]
    assert "fast tier" not in line and "of 20 iterations replayed" in line
