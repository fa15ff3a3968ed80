"""The REPL, used as a person uses it: gradcli in a real pseudo-terminal (pexpect),
keys typed, the screen output read back with the terminal's escape sequences
taken out.  Plus fast unit tests of the pieces (no terminal).

prompt_toolkit redraws the input line as it is typed, so the patterns below
match what only the program's *output* contains (anchored lines, values).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import time

import pytest

pexpect = pytest.importorskip("pexpect")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

# ---------------------------------------------------------------- driving a terminal

_CUF = re.compile(r"\x1b\[(\d*)C")  # cursor forward: spaces
_ANSI = re.compile(r"\x1b\[[0-9;?]*[ -/]*[@-~]|\x1b\][^\x07\x1b]*(\x07|\x1b\\)|\x1b[=>()][0-9A-B]?")

UP, RIGHT, CTRL_C, CTRL_D, TAB = "\x1b[A", "\x1b[C", "\x03", "\x04", "\t"


def clean(raw: str) -> str:
    text = _CUF.sub(lambda m: " " * int(m.group(1) or 1), raw)
    return _ANSI.sub("", text).replace("\r", "")


class Term:
    """gradcli in a pty; `expect` searches the cleaned output not yet consumed."""

    def __init__(self, tmp_path, *args, term="xterm", env=None, cwd=None):
        full_env = dict(os.environ)
        full_env.update(
            {
                "TERM": term,
                "NO_COLOR": "1",
                "XDG_STATE_HOME": str(tmp_path / "state"),
                "PROMPT_TOOLKIT_NO_CPR": "1",
                "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
            }
        )
        full_env.update(env or {})
        self.child = pexpect.spawn(
            sys.executable,
            ["-m", "gradcli", *args],
            env=full_env,
            cwd=str(cwd or tmp_path),
            dimensions=(50, 160),
            encoding="utf-8",
            codec_errors="replace",
        )
        self.raw = ""
        self.pos = 0

    def _read(self, timeout):
        try:
            self.raw += self.child.read_nonblocking(65536, timeout=timeout)
            return True
        except pexpect.TIMEOUT:
            return True
        except pexpect.EOF:
            return False

    def expect(self, pattern, timeout=20.0):
        """Wait until `pattern` (a regex, MULTILINE) appears; consume up to its end."""
        rx = re.compile(pattern, re.M)
        deadline = time.monotonic() + timeout
        while True:
            text = clean(self.raw)
            m = rx.search(text, self.pos)
            if m:
                self.pos = m.end()
                return m
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"timed out waiting for {pattern!r}; output so far:\n"
                    f"{text[max(0, self.pos - 400) :]}"
                )
            if not self._read(0.1) and not rx.search(clean(self.raw), self.pos):
                raise AssertionError(
                    f"gradcli exited before {pattern!r}; output:\n{clean(self.raw)[-1500:]}"
                )

    def prompt(self):
        return self.expect(r">>>")

    def send(self, keys):
        self.child.send(keys)

    def line(self, text):
        """Wait for a prompt, then type a line and Enter."""
        self.prompt()
        self.child.send(text + "\r")

    def quit(self):
        self.prompt()
        self.child.send(CTRL_D)
        self.child.expect(pexpect.EOF, timeout=20)
        self.child.close()
        return self.child.exitstatus

    def close(self):
        if self.child.isalive():
            self.child.terminate(force=True)


@pytest.fixture
def term(tmp_path):
    made = []

    def make(*args, **kw):
        t = Term(tmp_path, *args, **kw)
        made.append(t)
        return t

    yield make
    for t in made:
        t.close()


def m(tensor_text: str) -> str:
    """A regex for printed text: escaped, any run of spaces after a newline."""
    return r"\n\s*".join(re.escape(line.strip()) for line in tensor_text.split("\n"))


X = "tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)"
Y = "tensor([[3., 3.],\n        [3., 3.]], grad_fn=<AddBackward0>)"
Z = "tensor([[27., 27.],\n        [27., 27.]], grad_fn=<MulBackward0>)"
OUT = "tensor(27., grad_fn=<MeanBackward0>)"
XGRAD = "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])"


def tutorial(t):
    t.line("import torch")
    t.line("x = torch.ones(2, 2, requires_grad=True)")
    t.expect("^x = " + m(X))
    t.line("y = x + 2")
    t.expect("^y = " + m(Y))
    t.line("z = y * y * 3")
    t.expect("^z = " + m(Z))
    t.line("out = z.mean()")
    t.expect("^out = " + m(OUT))
    t.line("out.backward()")
    t.line("x.grad")
    t.expect("^" + m(XGRAD))


# ---------------------------------------------------------------- in a terminal


def test_seed_tutorial_vars_help_save_replay(term, tmp_path):
    t = term()
    t.expect(r":help for help")
    tutorial(t)
    t.line(":vars")
    t.expect(r"^name\s+shape\s+dtype\s+requires_grad\s+grad_fn\s+\.grad$")
    t.expect(r"^x\s+\(2, 2\)\s+float64\s+True\s+-\s+yes$")
    t.expect(r"^y\s+\(2, 2\)\s+float64\s+True\s+AddBackward0\s+no$")
    t.expect(r"^out\s+\(\)\s+float64\s+True\s+MeanBackward0\s+no$")
    t.line(":help mean")
    t.expect(r"^mean\(input, dim=None, keepdim=False\)$")
    t.expect(r"mean of all elements")
    # an error: message and caret, no traceback, nothing lost
    t.line("y = x + nosuchname")
    t.expect(r"NameError: name 'nosuchname' is not defined")
    t.expect(r"^\s+\^$")
    t.line("y")
    t.expect("^" + m(Y))
    saved = tmp_path / "session.ag"
    t.line(f":save {saved}")
    t.expect(r"saved 8 statements")
    assert t.quit() == 0
    assert "Traceback" not in clean(t.raw)
    text = saved.read_text()
    assert "nosuchname" not in text and "x = torch.ones(2, 2, requires_grad=True)" in text
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", "eval", str(saved)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == XGRAD + "\n" + Y + "\n"  # `x.grad` and `y` display, as in the REPL


def test_tab_completion_builtin_attribute_keyword(term):
    t = term()
    t.line("x = torch.ones(2, 2, requires_grad=True)")
    t.expect("^x = " + m(X))
    t.prompt()
    t.send("line")  # fuzzy: the only built-in with l-i-n-e in order
    t.send(TAB)
    t.expect(r"linspace")
    t.send("(0, 1, 3)\r")
    t.expect(r"^tensor\(\[0\.0000, 0\.5000, 1\.0000\]\)$")
    t.prompt()
    t.send("x.requires_")
    t.send(TAB)  # requires_grad and requires_grad_: common part, then a menu
    t.expect(r"x\.requires_grad")
    t.send("\r")
    t.expect(r"^True$")
    t.prompt()
    t.send("zeros(2, requires_")
    t.send(TAB)  # a keyword argument of the function being called
    t.expect(r"requires_grad=")
    t.send("True)\r")
    t.expect(r"^tensor\(\[0\., 0\.\], requires_grad=True\)$")
    assert t.quit() == 0


def test_multiline_def_with_continuation_prompts(term):
    t = term()
    t.line("def f(a):")
    t.expect(r"\.\.\.")  # block opened: continue
    t.send("return a * 2\r")  # auto-indented
    t.expect(r"\.\.\.")
    t.send("\r")  # an empty line ends the block
    t.line("f(tensor([1., 2.]))")
    t.expect(r"^tensor\(\[2\., 4\.\]\)$")
    t.line("w = [1,")  # an open bracket continues too
    t.expect(r"\.\.\.")
    t.send("2]\r")
    t.expect(r"^w = \[1, 2\]$")
    assert t.quit() == 0


def test_a_header_inside_a_block_continues(term):
    """`class P:` then `def __init__(self, v):` waits for the method's body (it ran the
    class, a syntax error, when a header inside a block ended the input)."""
    t = term()
    t.line("class P:")
    t.expect(r"\.\.\.")
    t.send("def __init__(self, v):\r")  # auto-indented
    t.expect(r"\.\.\.")
    t.send("self.v = v * 2\r")
    t.expect(r"\.\.\.")
    t.send("\r")
    t.line("print(P(3).v)")
    t.expect(r"^6$")
    assert "Error" not in clean(t.raw)
    assert t.quit() == 0


def test_multiline_on_a_dumb_terminal(term):
    t = term(term="dumb")
    t.line("def g(a):")
    t.expect(r"^\.\.\. ")
    t.send("    return a + 1\r")
    t.expect(r"^\.\.\. ")
    t.send("\r")
    t.line("g(1)")
    t.expect(r"^2$")
    assert t.quit() == 0


def test_ctrl_c_interrupts_a_loop_and_keeps_variables(term):
    t = term("-q")  # -q: the loop's assignments are not echoed
    t.line("n = 7")
    t.line("x = tensor([1., 2.], requires_grad=True)")
    t.line("while true: n = n + 1; x = x * 1")
    time.sleep(1.0)
    started = time.monotonic()
    t.send(CTRL_C)
    # file, line and column (the statement's first character), as every error has
    t.expect(r"<input \d+>:1:1: KeyboardInterrupt: stopped at line 1; the work done so far is kept")
    t.prompt()
    assert time.monotonic() - started < 5.0
    t.send("print(n > 7, x.grad_fn)\r")  # the iterations done are kept, as in Python
    t.expect(r"^True <MulBackward0>$")
    t.line(":undo")  # back to before the loop
    t.expect(r"^undone: while true")
    t.line("print(n, x)")
    t.expect(r"^7 tensor\(\[1\., 2\.\], requires_grad=True\)$")
    # Ctrl-C at the prompt clears the line
    t.prompt()
    t.send("this is not run")
    t.expect(r"this is not run")
    t.send(CTRL_C)
    t.send("print(n + 1)\r")
    t.expect(r"^8$")
    assert "not defined" not in clean(t.raw)
    assert t.quit() == 0


def test_history_across_sessions_and_suggestion(term, tmp_path):
    t = term()
    t.line("a = 41 + 1")
    t.expect(r"^a = 42$")
    assert t.quit() == 0
    hist = tmp_path / "state" / "gradcli" / "history"
    assert "a = 41 + 1" in hist.read_text()

    t = term()
    t.prompt()
    t.send(UP)  # recalled from the first session
    t.expect(r"a = 41 \+ 1")
    t.send("\r")
    t.expect(r"^a = 42$")
    t.prompt()
    t.send("a = 4")  # suggestion from history; Right arrow takes it
    t.expect(r"1 \+ 1")
    t.send(RIGHT + "\r")
    t.expect(r"^a = 42$")
    t.line(":quit")
    t.child.expect(pexpect.EOF, timeout=20)
    t.child.close()
    assert t.child.exitstatus == 0


def test_eval_i_keeps_variables_and_load(term, tmp_path):
    prog = tmp_path / "prog.ag"
    prog.write_text("p = tensor(3., requires_grad=true)\nq = p ** 2\n")
    more = tmp_path / "more.ag"
    more.write_text("backward q\n")
    t = term("eval", "-i", str(prog))
    t.line("q")
    t.expect(r"^tensor\(9\., grad_fn=<PowBackward0>\)$")
    t.line(f":load {more}")
    t.expect(r"^p\.grad = tensor\(6\.\)$")
    saved = tmp_path / "again.ag"
    t.line(f":save {saved}")
    t.expect(r"saved")
    assert t.quit() == 0
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", "eval", str(saved)],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert r.returncode == 0, r.stderr
    assert "p.grad = tensor(6.)" in r.stdout


# ---------------------------------------------------------------- without a terminal


def test_piped_stdin_is_a_script_without_prompts():
    r = subprocess.run(
        [sys.executable, "-m", "gradcli"],
        input="x = tensor(3., requires_grad=true)\nbackward x^2\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert r.returncode == 0
    assert r.stdout == "x.grad = tensor(6.)\n"


def test_eval_does_not_import_prompt_toolkit():
    code = (
        "import sys; from gradcli.cli import main; main(['eval', '-e', '1 + 1']); "
        "assert not [m for m in sys.modules if m.startswith('prompt_toolkit')], 'imported'"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, cwd=ROOT
    )
    assert r.returncode == 0, r.stderr


@pytest.fixture
def session():
    from gradcli.cli import _parser
    from gradcli.driver import make_session

    s = make_session(_parser("gradcli").parse_args([]), echo_assign=True)
    s.out.stream = open(os.devnull, "w")
    s.run("x = ones(2, 2, requires_grad=true)\ny = x + 2\ndef f(a, b=1):\n    return a\n")
    yield s
    s.out.stream.close()


@pytest.mark.parametrize(
    "text,complete",
    [
        ("x = 1", True),
        ("x = (1,", False),
        ("x = (1,\n 2)", True),
        ("if x:", False),
        ("if x:\n    y = 1", False),
        ("if x:\n    y = 1\n    ", True),
        ("if x:\n    ", True),
        ("x = 1 + \\", False),
        ("x = [\n\n", False),
        ("x = 1 +", True),
        ("if x: y = 1", True),
        ("def f(x):\n  return (x,\n  \n", False),
        (":vars", True),
        ("", True),
        ('x = "abc', True),
        ("a = 1\nb = 2", True),
    ],
)
def test_is_complete_from_the_parser(text, complete):
    from gradcli.repl.validator import is_complete

    assert is_complete(text) is complete


@pytest.mark.parametrize(
    "text,expected",
    [
        ("lins", ["linspace"]),
        ("line", ["linspace"]),
        ("x.requires_", ["requires_grad", "requires_grad_"]),
        ("y.grad_", ["grad_fn"]),
        ("torch.on", ["ones", "ones_like"]),
        ("ones(2, req", ["requires_grad="]),
        ("f(1, ", ["a=", "b="]),
        ("x.sum(", ["dim=", "keepdim="]),
        ("ones(2, dtype=float32, ", ["requires_grad="]),
        ('print("x.', []),
        ("# x.", []),
        ("f(x).", []),
        ("1.", []),
        (":he", [":help"]),
        (":help linsp", ["linspace"]),
    ],
)
def test_completions(session, text, expected):
    from gradcli.repl.completer import complete

    got = [c.text for c in complete(text, session)]
    assert got[: len(expected)] == expected if expected else got == []


def test_completion_never_calls(session):
    from gradcli.repl.completer import complete

    session.run("def boom():\n    assert false\nz = y.sum()\n")
    assert complete("boom().", session) == []
    names = [c.text for c in complete("z.", session)]  # a non-leaf: reading .grad warns
    assert "grad" in names and not session.context.warned


def test_highlighting_covers_the_text():
    from gradcli.repl.lexer import fragments

    src = 'def f(a):  # c\n    return a ** 2 if a else "s\n$'
    frags = fragments(src, {"print"})
    assert "".join(t for _, t in frags) == src
    styles = dict((t, s) for s, t in frags)
    assert styles["def"] == "class:gc.keyword" and styles["# c"] == "class:gc.comment"
    assert styles["2"] == "class:gc.number" and styles["$"] == "class:gc.error"


def test_statement_texts_and_vars_table(session):
    from gradcli.repl.history import statement_texts
    from gradcli.repl.meta import vars_table

    assert statement_texts("a = 1; b = 2\nif a:\n    c = 3\n# end\n") == [
        "a = 1",
        "b = 2",
        "if a:\n    c = 3",
    ]
    table = vars_table(session.scope.vars).splitlines()
    assert table[0].split() == ["name", "shape", "dtype", "requires_grad", "grad_fn", ".grad"]
    assert table[2].split() == ["y", "(2,", "2)", "float64", "True", "AddBackward0", "no"]


def test_graph_meta_command_uses_the_builtin(session, capsys):
    from gradcli.repl import meta

    class FakeRepl:
        pass

    r = FakeRepl()
    r.session = session
    session.builtins = dict(session.builtins)
    session.builtins.pop("graph", None)
    meta.run(r, ":graph y")
    assert "not available" in capsys.readouterr().err
    session.builtins["graph"] = lambda t: f"graph of {t.grad_fn.name}"
    meta.run(r, ":graph y")
    assert capsys.readouterr().out == "graph of AddBackward0\n"


def test_transcript_keeps_what_ran_and_reset(capsys):
    from gradcli.cli import _parser
    from gradcli.repl.app import Repl

    args = _parser("gradcli").parse_args(["--seed", "3", "--set", "k=2"])
    r = Repl(args)
    assert r.apply_sets() == 0
    r.execute("a = k * 2; b = nosuch; c = 3")  # a ran, b failed, c never ran
    r.execute("def f(t):\n    return t + a\n")
    r.execute("print(f(1))")
    out = capsys.readouterr()
    assert "NameError" in out.err and "^" in out.err and "Traceback" not in out.err
    assert r.transcript.text().splitlines()[1:] == [
        "seed(3)",
        "k = (2)",
        "a = k * 2",
        "def f(t):",
        "    return t + a",
        "print(f(1))",
    ]
    assert set(r.session.scope.vars) == {"k", "a", "f"}
    r.reset()
    assert set(r.session.scope.vars) == {"k"} and r.transcript.items == []
