"""The REPL under hostile typing, in a real pseudo-terminal (as tests/repl/test_repl.py):
a NUL typed (Ctrl-Space), a very long line arriving at once, `:save ""`."""

from __future__ import annotations

import os
import time

import pytest

pexpect = pytest.importorskip("pexpect")

from test_repl import clean, term  # noqa: E402,F401  (term: the fixture, shared)


def test_typed_nul_does_not_stop_enter(term):
    """Ctrl-Space sends NUL, which sets the mark (a selection): Enter still runs."""
    t = term()
    t.line("1 + 2\x00")
    t.expect(r"^3$", timeout=10)
    t.line("x = 5\x00\x00")
    t.line("x * 2")
    t.expect(r"^10$", timeout=10)
    assert t.quit() == 0


def test_a_long_line_arrives_in_bounded_time(term):
    """20,000 characters sent at once (a paste the terminal does not mark) went in
    one key-binding lookup and one insertion each: 12 s; now one insertion per read."""
    t = term()
    t.prompt()
    line = "len('" + "ab" * 10000 + "')"
    t0 = time.monotonic()
    for i in range(0, len(line), 1000):
        t.send(line[i : i + 1000])
    t.send("\r")
    t.expect(r"^20000$", timeout=60)
    assert time.monotonic() - t0 < 6, "a 20,000-character line took too long"
    t.line("'a b' + 'c'")
    t.expect(r"^'a bc'$", timeout=10)
    assert t.quit() == 0


def test_save_and_load_take_quoted_names_and_refuse_empty_ones(term, tmp_path):
    t = term()
    t.line("y = 7")
    t.line(':save ""')
    t.expect(r"^usage: :save FILE$", timeout=10)
    t.line(":save ''")
    t.expect(r"^usage: :save FILE$", timeout=10)
    t.line(':load ""')
    t.expect(r"^usage: :load FILE$", timeout=10)
    t.line(':save "my prog.ag"')
    t.expect(r"^saved 1 statement to my prog\.ag", timeout=10)
    assert t.quit() == 0
    assert sorted(os.listdir(tmp_path)) == ["my prog.ag", "state"], os.listdir(tmp_path)
    assert (tmp_path / "my prog.ag").read_text().strip().endswith("y = 7")
