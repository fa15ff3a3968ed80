"""The first hour without friction: did-you-mean for literals and keywords, pictures on a
terminal saved to a file, every written file announced, and `:save` output that replays
(`gradcli eval`) and checks clean (`gradcli check`)."""

from __future__ import annotations

import io
import json
import os

import pytest

from conftest import run_gradcli


@pytest.mark.parametrize(
    "source,hint",
    [
        ("x = ones(2, requires_grad=Ture)\n", "did you mean 'True'?"),
        ("x = Flase\n", "did you mean 'False'?"),
        ("x = nonee\n", "did you mean 'none'?"),
        ("whiel\n", "did you mean 'while'?"),
        ("y = tensr(1.)\n", "did you mean 'tensor'?"),
    ],
)
def test_did_you_mean_knows_literals_and_keywords(source, hint):
    r = run_gradcli(source)
    assert r.returncode == 1 and r.stderr.rstrip().endswith("hint: " + hint), r.stderr


class _Tty(io.StringIO):
    def isatty(self):
        return True


def test_svg_on_a_terminal_is_saved_to_a_file():
    from gradcli.cli import _parser
    from gradcli.driver import make_session

    s = make_session(_parser("gradcli").parse_args([]), echo_assign=True)
    s.out.stream = _Tty()
    s.run(
        'x = ones(2, requires_grad=true)\ny = (x * 2).sum()\ngraph(y, "svg")\ng = graph(y, "svg")\n'
    )
    lines = s.out.stream.getvalue().splitlines()[2:]  # after the echoes of x and y
    assert len(lines) == 2 and "<svg" not in s.out.stream.getvalue()
    for line in lines:
        path = line.split("saved to ", 1)[1].split(":", 1)[0]
        with open(path, encoding="utf-8") as f:
            assert "<svg" in f.read()
    assert lines[1].startswith("g = <an SVG picture, saved to ")


def test_svg_into_a_pipe_is_the_markup():
    r = run_gradcli('x = ones(2, requires_grad=true)\ngraph((x * 2).sum(), "svg")\n')
    assert r.returncode == 0 and r.stdout.lstrip().startswith("<svg")


def test_written_files_are_announced(tmp_path):
    src = f'save(ones(2), "{tmp_path}/a.npy")\nplot(sin, 0, 1, "{tmp_path}/p.svg")\n'
    r = run_gradcli(src)
    assert r.stdout == f"saved {tmp_path}/a.npy\nsaved {tmp_path}/p.svg\n"
    r = run_gradcli(src, args=("eval", "-q", "-"))
    assert r.stdout == ""
    r = run_gradcli(src, args=("eval", "--json", "-"))
    kinds = [(d["kind"], d.get("path")) for d in map(json.loads, r.stdout.splitlines())]
    assert ("file", f"{tmp_path}/a.npy") in kinds and ("file", f"{tmp_path}/p.svg") in kinds


INPUTS = [
    "x = torch.ones(2, 2, requires_grad=True)",
    "y = x + 2",
    "y",
    "z = _ * 3",
    "out = z.mean()\nout",
    "backward out",
    "print(out.item())",
    "ans + 1",
    "x * 7;",
]


@pytest.fixture
def repl(tmp_path):
    from gradcli.cli import _parser
    from gradcli.repl.app import Repl
    from gradcli.session import reset_globals

    reset_globals()
    r = Repl(_parser("gradcli").parse_args([]))
    r.session.out.stream = io.StringIO()
    for i, text in enumerate(INPUTS, 1):
        assert r.run_source(text, f"<input {i}>")
    shown = r.session.out.stream.getvalue()
    yield r, shown
    reset_globals()


def test_save_ag_replays(repl, tmp_path, capsys):
    from gradcli.repl import meta

    r, _ = repl
    path = tmp_path / "s.ag"
    meta.run(r, f":save {path}")
    text = path.read_text()
    assert "_ = ans = (y)\n_\n" in text and "x * 7;\n" in text
    res = run_gradcli(args=("eval", str(path)))
    assert res.returncode == 0, res.stderr
    # what the REPL showed for the expressions, the gradients and print, in order
    assert res.stdout.splitlines()[-2:] == ["9.0", "tensor(10., grad_fn=<AddBackward0>)"]


def test_save_ipynb_checks_clean(repl, tmp_path):
    from gradcli.repl import meta

    r, _ = repl
    path = tmp_path / "s.ipynb"
    meta.run(r, f":save {path}")
    res = run_gradcli(args=("check", str(path)))
    assert res.returncode == 0, res.stdout + res.stderr
    assert f"{len(INPUTS)} code cells: {len(INPUTS)} same" in res.stdout
    assert os.path.exists(path)


def test_an_error_known_by_its_line_points_at_the_statement(capsys):
    """An interrupt (or a limit) knows the line it stopped at: the report gives the
    column of the statement's first character too, and the caret under it."""
    from gradcli.output import TextOutput
    from gradcli.runtime.errors import Interrupted
    from gradcli.session import Session

    session = Session(TextOutput(io.StringIO()), filename="<input 3>")
    session.report(Interrupted("stopped at line 2", 2), "for i in range(9):\n    x = i\n")
    err = capsys.readouterr().err.splitlines()
    assert err[0] == "<input 3>:2:5: KeyboardInterrupt: stopped at line 2", err
    assert err[1:3] == ["        x = i", "        ^"], err
