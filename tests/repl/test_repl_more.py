"""The REPL items, in a real pseudo-terminal (as tests/repl/test_repl.py):
help in the forms people type, `_`/`ans`, the call chain of an error inside nested
calls, errors in colour, work kept after an error and `:undo`, pasting code with
prompts, `:paste`, prefix history search, the terminal's width, `--help`."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest

pexpect = pytest.importorskip("pexpect")

from test_repl import ROOT, UP, clean, term  # noqa: E402,F401  (term: the fixture, shared)


def test_help_forms(term):
    t = term()
    t.line("help")
    t.expect(r"^meta-commands:")
    t.expect(r"^topics \(:help TOPIC\): undo")
    t.line("mean?")
    t.expect(r"^mean\(input, dim=None, keepdim=False\)$")
    t.expect(r"^    PyTorch: torch\.mean \(and Tensor\.mean\)$")
    t.expect(r"^example:$")
    t.expect(r"^    mean\(tensor\(\[-1\.4000,  0\.0000,  1\.4000\]\)\)$")
    t.expect(r"^    tensor\(0\.\)$")
    t.line("?exp")
    t.expect(r"^exp\(input\)$")
    t.line("help(backward)")
    t.expect(r"^    PyTorch: torch\.autograd\.backward")
    t.line("?")
    t.expect(r"^meta-commands:")
    t.line(":help undo")
    t.expect(r"^undo: an input keeps what it did")
    assert "NameError" not in clean(t.raw) and "SyntaxError" not in clean(t.raw)
    assert t.quit() == 0


def test_underscore_and_ans(term):
    t = term()
    t.line("2 + 3")
    t.expect(r"^5$")
    t.line("_ * 2")
    t.expect(r"^10$")
    t.line("ans + 1")
    t.expect(r"^11$")
    t.line("tensor([1., 2.]) * 2")
    t.expect(r"^tensor\(\[2\., 4\.\]\)$")
    t.line("_.sum()")
    t.expect(r"^tensor\(6\.\)$")
    assert t.quit() == 0


def test_call_chain_with_input_numbers(term):
    t = term()
    t.line("def g(a):\rreturn a + ones(3)\r")  # the REPL indents the body itself
    t.line("def f(x):\rreturn g(x * 2)\r")
    t.line("f(ones(2))")
    t.expect(r"^<input 1>:2:14: ShapeError: The size of tensor a \(2\) must match")
    t.expect(r"^call chain \(innermost last\):$")
    t.expect(r"^  <input 3>:1:1: f\(ones\(2\)\)$")
    t.expect(r"^  <input 2>:2:12 in f: return g\(x \* 2\)$")
    t.expect(r"^  <input 1>:2:14 in g: return a \+ ones\(3\)$")
    assert t.quit() == 0


def test_errors_in_colour_unless_no_color(term):
    t = term(env={"NO_COLOR": ""})
    t.line("ones(2) + ones(3)")
    t.expect(r"hint: shapes")
    assert "\x1b[1;31mShapeError: The size" in t.raw
    assert "\x1b[32mhint: shapes [2] and [3]\x1b[0m" in t.raw
    assert t.quit() == 0
    t2 = term()  # NO_COLOR=1
    t2.line("ones(2) + ones(3)")
    t2.expect(r"hint: shapes")
    assert "\x1b[1;31m" not in t2.raw and "\x1b[32m" not in t2.raw
    assert t2.quit() == 0


def test_error_keeps_work_and_undo(term):
    t = term("-q")
    t.line("n = 0")
    t.line('for i in range(10):\rn = i\rassert i < 3, "too far"\r')
    t.expect(r"AssertionError: too far")
    t.line("print(n)")
    t.expect(r"^3$")
    t.line(":undo")
    t.expect(r"^undone: for i in range\(10\): \.\.\.")
    t.line("print(n)")
    t.expect(r"^0$")
    t.line(":undo")
    t.expect(r"^undone: n = 0")
    t.line("print(n)")
    t.expect(r"NameError: name 'n' is not defined")
    assert t.quit() == 0


def test_pasted_prompts_are_stripped(term):
    t = term()
    t.prompt()
    t.send("\x1b[200~>>> v = 2\n>>> v * 3\n6\n\x1b[201~")
    t.send("\r")
    t.expect(r"^v = 2$")
    t.expect(r"^6$")
    t.line(">>> v + 1")  # typed (or pasted without bracketed paste)
    t.expect(r"^3$")
    assert t.quit() == 0


def test_an_unmarked_paste_of_an_indented_block_keeps_its_indentation(term):
    """Lines pasted without bracketed paste arrive with their own indentation; Enter's
    auto-indent gave each line that much again (4 + 4, then 8 + 8 ...), so the pasted
    def ran as broken pieces."""
    t = term()
    t.prompt()
    t.send("def h(a):\r    b = a + 1\r    if b > 1:\r        b = b * 10\r    return b * 2\r\r")
    t.line("print(h(1))")
    t.expect(r"^40$")
    assert "Error" not in clean(t.raw)
    t.line("for i in range(2):")  # typed: the auto-indent stays, a key typed alone adds
    t.send("print(i + 5)\r\r")
    t.expect(r"^5$")
    t.expect(r"^6$")
    assert t.quit() == 0


def test_own_indentation_rule():
    from gradcli.repl.keys import own_indentation

    assert own_indentation("    ", "    x = 1")  # a pasted line at an auto-indent
    assert own_indentation("        ", "    return x")  # a dedented pasted line
    assert not own_indentation("    ", " ")  # a space typed by hand adds to it
    assert not own_indentation("    ", "x = 1")  # no indentation of its own
    assert not own_indentation("", "    x")  # nothing to replace
    assert not own_indentation("    y", "    x")  # not at the line's start
    assert not own_indentation("    ", "    ")  # only spaces: added as they come


def test_paste_command(term):
    t = term()
    t.line(":paste")
    t.expect(r"^paste mode: ")
    for line in ("def h(a):", "    return a * 10", "", "print(h(4))", "--"):
        t.send(line + "\r")
    t.expect(r"^40$")
    assert t.quit() == 0


def test_up_searches_history_by_prefix(term):
    t = term()
    t.line("alpha = 1")
    t.expect(r"^alpha = 1$")
    t.line("beta = 2")
    t.expect(r"^beta = 2$")
    t.prompt()
    t.send("al")
    t.send(UP)
    t.send("\r")
    t.expect(r"^alpha = 1$")
    assert t.quit() == 0


def test_tensors_wrap_at_the_terminal_width(term):
    t = term()
    t.child.setwinsize(40, 50)
    t.line("arange(20.)")
    m = t.expect(r"^tensor\(\[[^\n]*(\n[^\n]*)*\]\)$")
    lines = m.group(0).split("\n")
    assert len(lines) > 1 and max(len(l) for l in lines) <= 50
    assert t.quit() == 0


def test_help_mentions_eval_and_json():
    env = dict(os.environ, PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""))
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.returncode == 0
    usage = r.stdout.split("\n\n")[0]
    assert "gradcli eval" in usage
    assert "--json: one JSON object per line" in r.stdout
    for kind in ("value", "grad", "print", "plot", "trace", "error"):
        assert f"\n  {kind} " in r.stdout
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", "eval", "--help"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.stdout.startswith("usage: gradcli eval") and "gradcli eval: run" in r.stdout


def test_no_color_suggestion_is_underlined(term):
    t = term()  # NO_COLOR=1
    t.line("gamma = 3")
    t.expect(r"^gamma = 3$")
    t.prompt()
    start = len(t.raw)
    t.send("gam")
    t.expect(r"ma = 3")
    # the part shown but not typed is underlined (SGR 4), so it differs from typed text
    assert re.search(r"\x1b\[[0-9;]*\b4m(\x1b\[[0-9;]*m)*ma = 3", t.raw[start:]), repr(
        t.raw[start:]
    )
    t.send("\r")  # Enter runs only what was typed: `gam`
    t.expect(r"NameError: name 'gam' is not defined")
    assert t.quit() == 0


def test_else_typed_at_the_block_indentation_is_moved_out(term):
    t = term("-q")
    t.line("x = 5")
    t.line("if x > 3:\ry = 1\relse:\ry = 2\r")  # the REPL indents; `else:` comes at 4
    t.line("print(y)")
    t.expect(r"^1$")
    assert "SyntaxError" not in clean(t.raw)
    assert t.quit() == 0


def test_fix_continuation_units():
    from gradcli.repl.validator import fix_continuation, is_complete

    assert fix_continuation("if 1:\n    y = 1\n    else:") == "if 1:\n    y = 1\nelse:"
    assert (
        fix_continuation("for i in x:\n    if i:\n        y = 1\n        elif i > 2:")
        == "for i in x:\n    if i:\n        y = 1\n    elif i > 2:"
    )
    assert fix_continuation("y = 1\n    else:") is None
    assert fix_continuation("y = 1") is None
    assert not is_complete("y = 1\n    else:")  # kept open for fixing
    assert is_complete("y = 1\n    else:\n        ")  # a second Enter runs (and reports) it


def test_dumb_terminal_shows_the_completion_it_runs(term):
    t = term(term="dumb")
    t.line("alphabet = 3")
    t.expect(r"^alphabet = 3$")
    t.prompt()
    t.send("alph\t")
    t.expect(r"alphabet")  # the whole completed word is on the screen
    t.send("\r")
    t.expect(r"^3$")
    assert ">>> alpht" not in clean(t.raw)
    assert t.quit() == 0


def test_f6_paste_mode(term):
    t = term()
    t.prompt()
    t.send("\x1b[17~")  # F6: Enter only adds lines now
    t.expect(r"paste mode")
    for line in ("def k(a):", "    return a + 1", "", "print(k(1))"):
        t.send(line + "\r")
    t.send("\x1b[17~")  # F6 again, then Enter runs it all
    t.send("\r")
    t.expect(r"^2$")
    assert t.quit() == 0
