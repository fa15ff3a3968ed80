"""What a program shows: bare expressions at top level only, a trailing `;` hides a
statement's display (values, the REPL's echo, the backward command's gradients), and the
REPL's assignment echo is one summary line for a value longer than six lines."""

from __future__ import annotations

import io

import pytest

from conftest import run_gradcli


def _repl_run(source):
    from gradcli.cli import _parser
    from gradcli.driver import make_session

    s = make_session(_parser("gradcli").parse_args([]), echo_assign=True)
    s.out.stream = io.StringIO()
    s.run(source)
    return s.out.stream.getvalue()


@pytest.mark.parametrize(
    "source,shown",
    [
        ("x = 2\nx * 3\n", "6\n"),
        ("x = 2\nx * 3;\n", ""),
        ("x = 2\nx * 3 ;  # hidden\n", ""),
        ("x = 2\nx * 3  # a comment; with a semicolon\n", "6\n"),
        ("x = 2\nx; x * 3\n", "2\n6\n"),
        ("x = 2\nx; x * 3;\n", "2\n"),
        ("for i in range(3):\n    i\n", ""),
        ("if True:\n    5\n", ""),
        ("def f():\n    7\n    return 1\nf()\n", "1\n"),
        ("x = tensor(3., requires_grad=true)\nbackward x^2;\n", ""),
        ("x = tensor(3., requires_grad=true)\nbackward x^2\n", "x.grad = tensor(6.)\n"),
        ("print(1);\n", "1\n"),
    ],
)
def test_eval_display(source, shown):
    r = run_gradcli(source)
    assert r.returncode == 0, r.stderr
    assert r.stdout == shown


def test_repl_echo_short_values():
    out = _repl_run("x = torch.ones(2, 2, requires_grad=True)\nn = 3\n")
    assert out == "x = tensor([[1., 1.],\n        [1., 1.]], requires_grad=True)\nn = 3\n"


def test_repl_echo_summarises_long_values():
    out = _repl_run(
        "X = torch.randn(100, 3)\n"
        "W = torch.randn(10, 10, requires_grad=True)\n"
        "Y = W * 2\n"
        "Z = torch.ones(6, 1)\n"
        "L = list(range(1000))\n"
    ).split("\n")
    assert out[0] == "X = tensor of shape [100, 3], dtype=torch.float64"
    assert out[1] == "W = tensor of shape [10, 10], dtype=torch.float64, requires_grad=True"
    assert out[2] == "Y = tensor of shape [10, 10], dtype=torch.float64, grad_fn=<MulBackward0>"
    assert out[3].startswith("Z = tensor([[1.],") and len(out) == 11  # 6 lines: shown whole
    assert out[9] == "L = list of 1000 items"


def test_repl_semicolon_hides_the_echo_and_loops_echo_nothing():
    assert _repl_run("X = torch.randn(3);\nfor i in range(2):\n    y = i\n") == ""
