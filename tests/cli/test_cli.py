"""gradcli as a shell tool, end to end through subprocesses (SPEC sections 1, 5, 7, 8):
options, exit codes, --json records, error positions and carets, shebang scripts,
load/save round trips with NumPy.  Each check runs `python -m gradcli` from the
repository root, as a user's shell would."""

from __future__ import annotations

import json
import os
import signal
import stat
import subprocess
import sys
import time
from pathlib import Path

import numpy as np
import pytest

ROOT = Path(__file__).resolve().parents[2]
BIN = Path(sys.executable).parent
ENV = {**os.environ, "NO_COLOR": "1", "PYTHONIOENCODING": "utf-8"}


def gradcli(*args, input="", cwd=ROOT, env=None, timeout=60):
    """Run `python -m gradcli ARGS` with stdin = input (never a terminal)."""
    return subprocess.run(
        [sys.executable, "-m", "gradcli", *map(str, args)],
        input=input,
        capture_output=True,
        text=isinstance(input, str),
        cwd=cwd,
        env=env or ENV,
        timeout=timeout,
    )


def _no_constants(name):
    raise ValueError(f"not strict JSON: {name}")


def records(stdout: str) -> list[dict]:
    """Every stdout line as strict JSON (NaN/Infinity rejected)."""
    lines = stdout.splitlines()
    assert stdout.endswith("\n") and all(lines), repr(stdout)
    return [json.loads(ln, parse_constant=_no_constants) for ln in lines]


def caret(stderr: str, where: str, source_line: str, col: int):
    """The error starts `where: `, shows source_line, and a caret under column col."""
    lines = stderr.splitlines()
    assert lines[0].startswith(where + ": "), stderr
    assert lines[1] == "    " + source_line, stderr
    assert lines[2] == "    " + " " * (col - 1) + "^", stderr
    assert "Traceback" not in stderr
    return lines


# ---------------------------------------------------------------- help, version, usage


def test_help_lists_options_and_examples_and_version():
    for args in (["--help"], ["eval", "--help"]):
        r = gradcli(*args)
        assert r.returncode == 0 and r.stderr == ""
        for word in (
            "--json",
            "--set NAME=VALUE",
            "-q",
            "--precision",
            "--dtype",
            "--seed",
            "--version",
            "-e CODE",
            "examples:",
            "exit codes",
            "jq",
            "#!/usr/bin/env -S gradcli eval",
        ):
            assert word in r.stdout, word
    from gradcli import __version__

    for args in (["--version"], ["eval", "--version"]):
        r = gradcli(*args)
        assert (r.returncode, r.stdout) == (0, f"gradcli {__version__}\n")


def test_bad_usage_exits_2():
    for args in (
        ["--bogus"],
        ["eval", "--precision", "many", "-e", "1"],
        ["eval", "--dtype", "int8", "-e", "1"],
        ["eval", "--set", "nonsense", "-e", "1"],
        ["eval", "--set", "x=1; y=2", "-e", "1"],
        ["eval", "-", "-"],
        ["eval", str(ROOT / "no-such-file.ag")],
    ):
        r = gradcli(*args)
        assert r.returncode == 2, (args, r.stderr)
        assert r.stdout == "" and r.stderr.strip() and "Traceback" not in r.stderr, args
    r = gradcli("eval", "missing.ag")
    assert "cannot read missing.ag" in r.stderr


# ---------------------------------------------------------------- running programs


def test_e_with_semicolons_displays_values_grads_and_prints():
    r = gradcli(
        "eval",
        "-e",
        "x = tensor([1., 2.], requires_grad=true); y = (x*x).sum(); y; backward y; print(1)",
    )
    assert r.returncode == 0 and r.stderr == ""
    assert r.stdout == ("tensor(5., grad_fn=<SumBackward0>)\nx.grad = tensor([2., 4.])\n1\n")


def test_files_and_e_share_variables_in_command_line_order(tmp_path):
    a = tmp_path / "a.ag"
    a.write_text("a = 5\ndef f(x):\n    return x * a\n")
    b = tmp_path / "b.ag"
    b.write_text("print(f(2))\n")
    r = gradcli("eval", "-e", "print('first')", a, "-e", "a = 7", b, "-e", "print(a)")
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == "first\n14\n7\n"


def test_a_warning_shows_the_line_of_a_file_as_python_does(tmp_path):
    # Python's warnings print the stripped source line of a file after the message,
    # none for code that has no file (-e, as `python -c`'s '<string>')
    prog = tmp_path / "warn.py"
    prog.write_text(
        "import warnings\ndef f(t):\n    y = t * 2\n    return y.grad\n\n"
        "x = tensor([1.], requires_grad=true)\nf(x)\nwarnings.warn('careful')\n"
    )
    r = gradcli("eval", "-q", prog)
    assert r.returncode == 0, r.stderr
    lines = r.stderr.splitlines()
    assert len(lines) == 4, r.stderr
    assert lines[0].startswith(f"{prog}:4: UserWarning: The .grad attribute of a Tensor")
    assert lines[1:] == ["  return y.grad", f"{prog}:8: UserWarning: careful"] + [
        "  warnings.warn('careful')"
    ]
    r = gradcli("eval", "-q", "-e", "import warnings; warnings.warn('careful')")
    assert (r.returncode, r.stderr) == (0, "<-e>:1: UserWarning: careful\n")


def test_error_inside_a_function_names_the_file_it_was_defined_in(tmp_path):
    lib = tmp_path / "lib.ag"
    lib.write_text("def f(x):\n    y = x + 1\n    return y @ y\n")
    main = tmp_path / "main.ag"
    main.write_text("a = 1\nb = 2\nprint(f(3))\n")
    r = gradcli("eval", lib, main)
    assert r.returncode == 1
    caret(r.stderr, f"{lib}:3:14", "    return y @ y", 14)
    r = gradcli("eval", "--json", lib, main)
    (rec,) = records(r.stdout)
    assert (rec["file"], rec["line"], rec["column"]) == (str(lib), 3, 14)
    # a wrong call is the caller's error, in the caller's file
    main.write_text("print(f(1, 2))\n")
    r = gradcli("eval", lib, main)
    assert r.stderr.startswith(f"{main}:1:"), r.stderr


def test_stdin_dash_and_piped_stdin():
    prog = "x = tensor(3., requires_grad=true)\nbackward x^2\nprint(x.grad.item())\n"
    want = "x.grad = tensor(6.)\n6.0\n"
    for args in (["eval", "-"], ["eval"], []):
        r = gradcli(*args, input=prog)
        assert (r.returncode, r.stdout, r.stderr) == (0, want, ""), args
    # SPEC 1's example: a plain pipe, with the variable bound by --set
    r = gradcli("--set", "x=[1,2,3]", input="out = mean(3*(x+2)^2)\nout\n")
    assert (r.returncode, r.stdout) == (0, "tensor(50.)\n"), r.stderr


def test_newline_crlf_and_bom(tmp_path):
    files = {
        "no_newline.ag": b"print('no newline')",
        "newline.ag": b"print('newline')\n",
        "crlf.ag": b"if true:\r\n    print('crlf')\r\n",
        "bom.ag": b"\xef\xbb\xbfprint('bom')\r\n",
        "bom_only_code.ag": "\ufeffa = 'é'\nprint(a)".encode(),
    }
    for name, data in files.items():
        (tmp_path / name).write_bytes(data)
    r = gradcli("eval", *(tmp_path / n for n in files))
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == "no newline\nnewline\ncrlf\nbom\né\n"
    # and through stdin, as bytes
    r = gradcli("eval", "-", input=b"\xef\xbb\xbfx = 1\r\ny = x + 1\r\nprint(y)")
    assert (r.returncode, r.stdout) == (0, b"2\n")
    # an error in a CRLF file points at the right place, without the \r
    bad = tmp_path / "bad.ag"
    bad.write_bytes(b"x = 1\r\ny = x + undefined_nam\r\n")
    r = gradcli("eval", bad)
    assert r.returncode == 1
    caret(r.stderr, f"{bad}:2:9", "y = x + undefined_nam", 9)


# ---------------------------------------------------------------- options


def test_set_binds_values_in_the_language_syntax():
    r = gradcli(
        "eval",
        "--set",
        "x=[1,2,3]",
        "--set",
        "n=2",
        "--set",
        "s='hi'",
        "--set",
        "w=tensor([[1, 2]])",
        "--set",
        "f=lambda a: a * 10",
        "--set",
        "n=3",
        "-e",
        "x; n; s; w; f(n); x.requires_grad = true; backward sum(x^2)",
    )
    assert (r.returncode, r.stderr) == (0, "")
    assert r.stdout == (
        "tensor([1., 2., 3.])\n3\n'hi'\ntensor([[1, 2]])\n30\nx.grad = tensor([2., 4., 6.])\n"
    )


def test_set_errors():
    r = gradcli("eval", "--set", "x=[1,2", "-e", "x")
    assert r.returncode == 2
    caret(r.stderr, "--set:1:3", "x=[1,2", 3)  # where the bracket opened
    assert "'[' was never closed" in r.stderr
    r = gradcli("eval", "--set", "x=mena([1., 2.])", "-e", "x")
    assert r.returncode == 1
    lines = caret(r.stderr, "--set:1:3", "x=mena([1., 2.])", 3)
    assert "did you mean 'mean'?" in lines[-1]


def test_quiet_keeps_only_print_and_errors():
    r = gradcli(
        "eval",
        "-q",
        "-e",
        "x = tensor(2., requires_grad=true); x * 3; backward x^2; print('p', x.grad); undefined",
    )
    assert r.returncode == 1
    assert r.stdout == "p tensor(4.)\n"
    assert "name 'undefined' is not defined" in r.stderr
    r = gradcli(
        "eval",
        "--json",
        "-q",
        "-e",
        "x = tensor(2., requires_grad=true); x; backward x^2; print(7)",
    )
    assert [rec["kind"] for rec in records(r.stdout)] == ["print"]


def test_precision_dtype_and_seed():
    r = gradcli("eval", "--precision", "2", "-e", "tensor([1/3, 2.]); tensor(2/3)")
    assert r.stdout == "tensor([0.33, 2.00])\ntensor(0.67)\n"
    r = gradcli("eval", "--precision", "8", "-e", "tensor(1/3)")
    assert r.stdout == "tensor(0.33333333)\n"
    r = gradcli(
        "eval",
        "--dtype",
        "float32",
        "-e",
        "x = tensor([0.1, 2.]); x; x.dtype; tensor([1.], dtype=float64)",
    )
    assert (
        r.stdout == "tensor([0.1000, 2.0000])\ntorch.float32\ntensor([1.], dtype=torch.float64)\n"
    )
    r = gradcli("eval", "--json", "--dtype", "float32", "-e", "tensor([0.1, 2.])")
    (rec,) = records(r.stdout)
    assert rec["dtype"] == "float32" and rec["value"] == [0.1, 2.0]
    # --seed N is torch.manual_seed(N): torch.manual_seed(0); torch.randn(3) (float32)
    r = gradcli("eval", "--seed", "0", "--dtype", "float32", "-e", "randn(3); seed(0); randn(3)")
    assert r.stdout == "tensor([ 1.5410, -0.2934, -2.1788])\n" * 2
    r1 = gradcli("eval", "--seed", "1", "-e", "rand(2)")
    assert r1.stdout != gradcli("eval", "--seed", "2", "-e", "rand(2)").stdout


def test_max_steps_and_max_memory_are_clean_errors():
    r = gradcli("eval", "--max-steps", "10", "-e", "i = 0\nwhile true:\n    i += 1")
    assert r.returncode == 1 and "LimitError" in r.stderr and "--max-steps" in r.stderr
    r = gradcli("eval", "--max-memory", "1MiB", "-e", "zeros(1000, 1000)")
    assert r.returncode == 1 and "memory cap" in r.stderr


# ---------------------------------------------------------------- exit codes, flushing


@pytest.mark.parametrize(
    "code, status, kind",
    [
        ("print(1)", 0, None),
        ("undefined_name", 1, "NameError"),
        ("assert 1 + 1 == 3", 1, "AssertionError"),
        ("assert_close(tensor([1., 2.]), [1., 2.1], tol=1e-3)", 1, "AssertionError"),
        ("x = (1 +", 2, "SyntaxError"),
    ],
)
def test_exit_codes(code, status, kind):
    r = gradcli("eval", "--json", "-e", code)
    assert r.returncode == status, r.stderr
    recs = records(r.stdout)
    if kind is None:
        assert recs[-1]["kind"] != "error" and r.stderr == ""
    else:
        assert recs[-1]["kind"] == "error" and recs[-1]["type"] == kind
        assert r.stderr.startswith("<-e>:1:")


def test_asserts_pass_and_fail_with_messages():
    r = gradcli(
        "eval",
        "-e",
        "x = tensor(2., requires_grad=true); backward x^3; "
        "assert x.grad == 12; assert_close(x.grad, 12.0000001); "
        "assert_close([1., 2.], tensor([1., 2.05]), tol=0.1); print('ok')",
    )
    assert (r.returncode, r.stdout) == (0, "x.grad = tensor(12.)\nok\n"), r.stderr
    r = gradcli("eval", "-e", "x = 3\nassert x > 5, 'x is too small'")
    assert r.returncode == 1
    caret(r.stderr, "<-e>:2:8", "assert x > 5, 'x is too small'", 8)
    assert "AssertionError: x is too small" in r.stderr.splitlines()[0]
    r = gradcli("eval", "-e", "assert_close(tensor([1., 2.]), [1., 2.5])")
    assert r.returncode == 1 and "largest difference 0.5 at index [1]" in r.stderr


def test_output_before_an_error_is_flushed_first():
    r = gradcli(
        "eval",
        "-e",
        "print('a'); 1 + 1; x = tensor([1., 2.], requires_grad=true)\n"
        "backward sum(x)\nprint('b')\nx + tensor([1., 2., 3.])\nprint('never')",
    )
    assert r.returncode == 1
    assert r.stdout == "a\n2\nx.grad = tensor([1., 1.])\nb\n"
    assert r.stderr.startswith("<-e>:4:3: ShapeError")


def test_fast_exit_keeps_every_line_file_and_exit_code(tmp_path):
    """`eval` ends with os._exit (no teardown of the program's objects: cli.run): what
    was printed and written is all there, and the exit code is the program's."""
    out = tmp_path / "x.npy"
    prog = (
        f"x = ones(3)\nsave(x * 2, {str(out)!r})\ny = x\n"
        "for i in range(3000):\n    y = y * 1.0\n    print(i)\n"
    )
    r = gradcli("eval", "-e", prog)
    assert r.returncode == 0
    assert r.stdout.splitlines() == [f"saved {out}"] + [str(i) for i in range(3000)]
    assert np.load(out).tolist() == [2.0, 2.0, 2.0]
    r = gradcli("eval", "-e", prog + "z = x + ones(2)\n")
    assert r.returncode == 1 and r.stdout.count("\n") == 3001 and "ShapeError" in r.stderr


@pytest.mark.parametrize("closed", [">&-", "2>&-", ">&- 2>&-"])
def test_a_closed_stdout_or_stderr_drops_the_output_quietly(closed):
    """Started with a descriptor closed (`>&-`), gradcli writes nothing there, as
    Python's print does, and exits with the program's code, without a traceback."""
    import shlex

    cmd = f"{shlex.quote(sys.executable)} -m gradcli eval -e 'print(2)' {closed}; echo rc=$?"
    r = subprocess.run(
        ["sh", "-c", cmd], capture_output=True, text=True, cwd=ROOT, env=ENV, timeout=60
    )
    out = r.stdout + r.stderr
    assert "rc=0" in out and "Traceback" not in out


def _popen_with_sigint(args):
    # a shell may start background jobs with SIGINT ignored; a user's Ctrl-C is not
    return subprocess.Popen(
        [sys.executable, "-m", "gradcli", *args],
        cwd=ROOT,
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )


@pytest.mark.parametrize("json_mode", [False, True])
def test_sigint_exits_130(json_mode):
    prog = "print('started')\ni = 0\nwhile true:\n    i += 1\n"
    p = _popen_with_sigint(["eval", *(["--json"] if json_mode else []), "-e", prog])
    try:
        first = p.stdout.readline()
        time.sleep(0.3)  # the loop is running by now
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
    finally:
        p.kill()
    assert p.returncode == 130
    assert "Traceback" not in err
    if json_mode:
        recs = records(first + out)
        assert recs[0] == {"kind": "print", "line": 1, "text": "started"}
        assert recs[-1]["kind"] == "error" and recs[-1]["type"] == "KeyboardInterrupt"
        assert recs[-1]["line"] in (3, 4) and isinstance(recs[-1]["column"], int)
    else:
        assert first == "started\n" and out == ""
        assert "KeyboardInterrupt" in err and err.startswith("<-e>:")


def test_closed_pipe_is_quiet():
    p = subprocess.Popen(
        [sys.executable, "-m", "gradcli", "eval", "-e", "for i in range(100000): print(i)"],
        cwd=ROOT,
        env=ENV,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    assert p.stdout.readline() == b"0\n"
    p.stdout.close()
    err = p.stderr.read()
    p.wait(timeout=20)
    assert b"Traceback" not in err and b"Error" not in err


# ---------------------------------------------------------------- --json


def test_json_records_field_by_field():
    prog = "\n".join(
        [
            "x = tensor([[1., 2.], [3., 4.]], requires_grad=true)",  # 1
            "y = x * x",  # 2
            "y",  # 3
            "out = y.sum()",  # 4
            "backward out",  # 5
            "print('done', out.item())",  # 6
            "tensor([true, false]); 3; 2.5; 'str'",  # 7
            "tensor([nan, inf, -inf]); float('-inf'); -inf",  # 8
            "grad((x * x).sum(), x)",  # 9
            "tensor(7, dtype=int64); x.shape",  # 10
            "if true:",  # 11
            "    print('in', 'block')",  # 12
            "ones(2) @ ones(3)",  # 13
            "print('never')",
        ]
    )
    r = gradcli("eval", "--json", "-e", prog)
    assert r.returncode == 1
    recs = records(r.stdout)
    assert all("kind" in rec and "line" in rec for rec in recs)
    value_keys = {"kind", "line", "text", "value", "shape", "dtype", "requires_grad", "grad_fn"}
    v = recs.pop(0)
    assert v == {
        "kind": "value",
        "line": 3,
        "text": "tensor([[ 1.,  4.],\n        [ 9., 16.]], grad_fn=<MulBackward0>)",
        "value": [[1.0, 4.0], [9.0, 16.0]],
        "shape": [2, 2],
        "dtype": "float64",
        "requires_grad": True,
        "grad_fn": "MulBackward0",
    }
    g = recs.pop(0)
    assert set(g) >= {"kind", "line", "name", "value", "shape", "dtype"}
    assert (g["kind"], g["line"], g["name"], g["value"], g["shape"], g["dtype"]) == (
        "grad",
        5,
        "x",
        [[2.0, 4.0], [6.0, 8.0]],
        [2, 2],
        "float64",
    )
    assert recs.pop(0) == {"kind": "print", "line": 6, "text": "done 30.0"}
    vals = [recs.pop(0) for _ in range(4)]
    assert all(set(rec) == value_keys and rec["line"] == 7 for rec in vals)
    assert [rec["value"] for rec in vals] == [[True, False], 3, 2.5, "str"]
    assert vals[0]["dtype"] == "bool" and vals[0]["shape"] == [2] and vals[0]["grad_fn"] is None
    assert vals[1]["shape"] is vals[1]["dtype"] is vals[1]["requires_grad"] is None
    assert [rec["text"] for rec in vals[1:]] == ["3", "2.5", "'str'"]
    nonfinite = [recs.pop(0) for _ in range(3)]
    assert [rec["value"] for rec in nonfinite] == [["nan", "inf", "-inf"], "-inf", "-inf"]
    assert nonfinite[0]["text"] == "tensor([nan, inf, -inf])"
    tup = recs.pop(0)
    assert (tup["line"], tup["value"], tup["text"]) == (
        9,
        [[[2.0, 4.0], [6.0, 8.0]]],
        "(tensor([[2., 4.],\n        [6., 8.]]),)",
    )
    i, shape = recs.pop(0), recs.pop(0)
    assert (i["value"], i["dtype"], i["shape"], i["requires_grad"]) == (7, "int64", [], False)
    assert (shape["value"], shape["text"]) == ([2, 2], "torch.Size([2, 2])")
    assert recs.pop(0) == {"kind": "print", "line": 12, "text": "in block"}
    err = recs.pop(0)
    assert recs == []
    assert {k: err[k] for k in ("kind", "line", "column", "type")} == {
        "kind": "error",
        "line": 13,
        "column": 9,
        "type": "ShapeError",
    }
    assert "[2]" in err["message"] and "[3]" in err["message"] and err["file"] == "<-e>"
    # the error is also on stderr for people, with its caret
    caret(r.stderr, "<-e>:13:9", "ones(2) @ ones(3)", 9)


def test_json_syntax_error_and_usage_error_records():
    r = gradcli("eval", "--json", "-e", "print(1)\nx = [1, 2")
    assert r.returncode == 2
    (rec,) = records(r.stdout)  # nothing ran: a program is parsed before it runs
    assert {k: rec[k] for k in ("kind", "line", "column", "type")} == {
        "kind": "error",
        "line": 2,
        "column": 5,
        "type": "SyntaxError",
    }
    caret(r.stderr, "<-e>:2:5", "x = [1, 2", 5)  # where the bracket opened
    assert "'[' was never closed" in r.stderr
    r = gradcli("eval", "--json", "-e", "print(1)", "-e", "x = )")
    assert r.returncode == 2
    recs = records(r.stdout)
    assert recs[0] == {"kind": "print", "line": 1, "text": "1"}
    assert {k: recs[1][k] for k in ("kind", "line", "column", "type")} == {
        "kind": "error",
        "line": 1,
        "column": 5,
        "type": "SyntaxError",
    }
    r = gradcli("eval", "--json", "missing.ag")
    assert r.returncode == 2
    (rec,) = records(r.stdout)
    assert rec["kind"] == "error" and rec["type"] == "UsageError" and "line" in rec


# ---------------------------------------------------------------- error messages


@pytest.mark.parametrize(
    "code, where, line, col, message, hint",
    [
        (
            "x = ones(2)\ny = mena(x)",
            "2:5",
            "y = mena(x)",
            5,
            "NameError: name 'mena' is not defined",
            "did you mean 'mean'?",
        ),
        (
            "x = ones(2)\nx.sumn()",
            "2:3",
            "x.sumn()",
            3,
            "AttributeError: 'Tensor' object has no attribute 'sumn'",
            "did you mean 'sum'?",
        ),
        (
            "x = ones(2)\nx.requires_gard",
            "2:3",
            "x.requires_gard",
            3,
            "has no attribute 'requires_gard'",
            "did you mean 'requires_grad'?",
        ),
        (
            "x = ones(2, 3)\ns = sum(x, dimm=0)",
            "2:12",
            "s = sum(x, dimm=0)",
            12,
            "unexpected keyword argument 'dimm'",
            "did you mean 'dim'?",
        ),
        (
            "x = tensor([1., 2.], requries_grad=true)",
            "1:22",
            "x = tensor([1., 2.], requries_grad=true)",
            22,
            "unexpected keyword argument 'requries_grad'",
            "did you mean 'requires_grad'?",
        ),
        (
            "def f(alpha):\n    return alpha\nf(alpah=1)",
            "3:3",
            "f(alpah=1)",
            3,
            "unexpected keyword argument 'alpah'",
            "did you mean 'alpha'?",
        ),
        (
            "x = ones(3, requires_grad=true)\ny = x * 2\nbackward y",
            "3:1",
            "backward y",
            1,
            "grad can be implicitly created only for scalar outputs",
            "backward sum(y)",
        ),
        (
            "x = ones(3, requires_grad=true)\ny = x * 2\ny.backward()",
            "3:3",
            "y.backward()",
            3,
            "grad can be implicitly created only for scalar outputs",
            "y.sum().backward()",
        ),
        (
            "a = ones(2, 3)\nb = ones(4, 3)\nc = a + b",
            "3:7",
            "c = a + b",
            7,
            "ShapeError: The size of tensor a (2) must match the size of tensor b (4)",
            "shapes [2, 3] and [4, 3]",
        ),
        (
            "x = ones(2, requires_grad=true)\nbackward sum(x), 1\nbackward x * 2, ones(3)",
            "3:1",
            "backward x * 2, ones(3)",
            1,
            "[3]",
            None,
        ),
        (
            "if true:\n    x = ones(2)\n    y = x..sum()",
            "3:11",
            "    y = x..sum()",
            11,
            "SyntaxError",
            None,
        ),
    ],
)
def test_error_position_caret_and_hint(code, where, line, col, message, hint, tmp_path):
    prog = tmp_path / "prog.ag"
    prog.write_text(code + "\n")
    r = gradcli("eval", prog)
    assert r.returncode == (2 if "SyntaxError" in message else 1)
    lines = caret(r.stderr, f"{prog}:{where}", line, col)
    assert message in lines[0]
    if hint:
        assert lines[3].startswith("hint: ") and hint in lines[3], r.stderr
    if "scalar outputs" in message:
        assert "mean(" in lines[3] and "gradient" in lines[3]


# ---------------------------------------------------------------- shebang


def test_shebang_script_runs_directly(tmp_path):
    if not (BIN / "gradcli").exists():
        pytest.skip("gradcli is not installed next to this python")
    script = tmp_path / "cube.ag"
    script.write_text(
        "#!/usr/bin/env -S gradcli eval\n"
        "x = tensor(x, requires_grad=true)\nbackward x^3\nassert_close(x.grad, 3*x^2)\n"
    )
    script.chmod(script.stat().st_mode | stat.S_IXUSR)
    env = {**ENV, "PATH": f"{BIN}{os.pathsep}{ENV.get('PATH', '')}"}
    r = subprocess.run(
        [str(script), "--set", "x=2."],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert (r.returncode, r.stdout, r.stderr) == (0, "x.grad = tensor(12.)\n", "")
    r = subprocess.run(
        [str(script), "--json", "--set", "x=3."],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    (rec,) = records(r.stdout)
    assert (r.returncode, rec["kind"], rec["line"], rec["name"], rec["value"]) == (
        0,
        "grad",
        3,
        "x",
        27.0,
    )
    # a failing assert in the script: exit 1, the error names the script's own line
    r = subprocess.run(
        [str(script), "--set", "x=tensor([1., 2.])"],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=env,
        stdin=subprocess.DEVNULL,
        timeout=60,
    )
    assert r.returncode == 1
    caret(r.stderr, f"{script}:3:1", "backward x^3", 1)


# ---------------------------------------------------------------- load / save


def test_load_and_save_round_trip_with_numpy(tmp_path):
    rng = np.random.default_rng(0)
    a2 = rng.standard_normal((3, 4))
    a1 = rng.standard_normal(5) * 1e-7
    np.save(tmp_path / "a2.npy", a2)
    np.save(tmp_path / "ints.npy", np.arange(6).reshape(2, 3))
    np.savetxt(tmp_path / "a2.csv", a2, delimiter=",")
    np.savetxt(tmp_path / "a1.csv", a1, delimiter=",")
    (tmp_path / "header.csv").write_text("# weights\na,b\n1,2\n3,4\n")
    prog = "\n".join(
        [
            "a = load('a2.npy'); b = load('a2.csv'); c = load('a1.csv'); i = load('ints.npy')",
            "print(a.dtype, a.is_leaf, a.requires_grad, a.shape, c.shape, i.dtype, i.shape)",
            "assert_close(a, b, tol=0)",
            "h = load('header.csv'); print(h.tolist())",
            "w = load('a2.npy', requires_grad=true); print(w.is_leaf, w.requires_grad)",
            "backward sum(w^2)",
            "save(w.grad, 'g.npy'); save(w.grad, 'g.csv'); save(c, 'c.csv'); save(c, 'c.npy')",
            "save(tensor([[true, false]]), 'b.csv'); save(tensor(2.5), 's.csv')",
            "save(load('a2.npy', dtype=float32), 'f32.npy')",
            "print(save(tensor([1, 2]), 'i.npy'))",
        ]
    )
    r = gradcli("eval", "-q", "-e", prog, cwd=tmp_path)
    assert r.returncode == 0, r.stderr
    assert r.stdout.splitlines() == [
        "torch.float64 True False torch.Size([3, 4]) torch.Size([5]) torch.float64 torch.Size([2, 3])",
        "[[1.0, 2.0], [3.0, 4.0]]",
        "True True",
        "None",
    ]
    for name in ("g.npy", "c.npy"):
        got = np.load(tmp_path / name)
        assert got.dtype == np.float64
    np.testing.assert_array_equal(np.load(tmp_path / "g.npy"), 2 * a2)
    np.testing.assert_array_equal(np.loadtxt(tmp_path / "g.csv", delimiter=","), 2 * a2)
    np.testing.assert_array_equal(np.loadtxt(tmp_path / "c.csv", delimiter=","), a1)  # all digits
    np.testing.assert_array_equal(np.load(tmp_path / "c.npy"), a1)
    assert (tmp_path / "b.csv").read_text() == "1,0\n"
    assert np.loadtxt(tmp_path / "s.csv", delimiter=",") == 2.5
    assert np.load(tmp_path / "f32.npy").dtype == np.float32
    assert np.load(tmp_path / "i.npy").dtype == np.int64
    # load/save touch only the paths named
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(
        [
            "a2.npy",
            "ints.npy",
            "a2.csv",
            "a1.csv",
            "header.csv",
            "g.npy",
            "g.csv",
            "c.csv",
            "c.npy",
            "b.csv",
            "s.csv",
            "f32.npy",
            "i.npy",
        ]
    )


@pytest.mark.parametrize(
    "code, message",
    [
        ("load('prog.npy')", "is not a NumPy .npy file"),
        ("load('prog.csv')", "is not a CSV of numbers (line 1, column 1 is not a number)"),
        ("load('ragged.csv')", "line 2 has 3 values"),
        ("load('prog.ag')", "unknown file type '.ag'"),
        ("load('absent.npy')", "cannot read 'absent.npy'"),
        ("load('objects.npy')", "not numbers"),
        ("load(3)", "the path must be a string"),
        ("save(ones(2, 2, 2), 'cube.csv')", "1-D or 2-D"),
        ("save(ones(2), 'no_such_dir/x.npy')", "cannot write"),
    ],
)
def test_load_save_failures_are_clean(code, message, tmp_path):
    (tmp_path / "prog.npy").write_text("x = 1\n")
    (tmp_path / "prog.csv").write_text("x = 1\n")
    (tmp_path / "prog.ag").write_text("x = 1\n")
    (tmp_path / "ragged.csv").write_text("1,2\n3,4,5\n")
    np.save(tmp_path / "objects.npy", np.array(["a", "b"]))
    before = sorted(p.name for p in tmp_path.iterdir())
    r = gradcli("eval", "-e", f"print('before')\n{code}", cwd=tmp_path)
    assert r.returncode == 1
    assert r.stdout == "before\n"
    caret(r.stderr, "<-e>:2:1", code, 1)
    assert message in r.stderr
    assert sorted(p.name for p in tmp_path.iterdir()) == before


# ---------------------------------------------------------------- options


@pytest.mark.parametrize(
    "args,text",
    [
        (["--max-memory", "inf"], "--max-memory"),
        (["--max-memory", "1e400"], "--max-memory"),
        (["--max-memory", "nan"], "--max-memory"),
        (["--max-memory", "-5"], "--max-memory"),
        (["--max-memory", "0"], "--max-memory"),
        (["--max-memory", "infGiB"], "--max-memory"),
        (["--seed", "99999999999999999999999"], "--seed"),
        (["--seed", "-9223372036854775809"], "--seed"),
        (["--max-depth", "-1"], "--max-depth"),
        (["--max-depth", "0"], "--max-depth"),
        (["--max-steps", "-3"], "--max-steps"),
        (["--seed", "abc"], "--seed"),
        (["--bogus"], "--bogus"),
    ],
)
def test_bad_option_values_are_usage_errors(args, text):
    for json_mode in (False, True):
        r = gradcli("eval", *args, *(["--json"] if json_mode else []), "-e", "print(1)")
        assert r.returncode == 2, (args, r.stderr)
        assert "Traceback" not in r.stderr and text in r.stderr, r.stderr
        if json_mode:
            (rec,) = records(r.stdout)
            assert rec["kind"] == "error" and rec["type"] == "UsageError", rec
            assert text in rec["message"] and rec["line"] is None
        else:
            assert r.stdout == ""


def test_extreme_but_valid_option_values():
    r = gradcli(
        "eval",
        "--seed",
        "18446744073709551615",
        "--max-memory",
        "1e12",
        "--max-depth",
        "1",
        "--max-steps",
        "0",
        "-e",
        "print(1)",
    )
    assert (r.returncode, r.stdout) == (0, "1\n"), r.stderr
    r = gradcli("eval", "--seed", "-9223372036854775808", "-e", "print(1)")
    assert (r.returncode, r.stdout) == (0, "1\n"), r.stderr


def test_sigint_during_start_up_never_shows_gradcli_in_a_traceback():
    """Ctrl-C at any moment of start-up: exit 130 (or killed before Python's handler is
    installed, or done): never a traceback through gradcli's or NumPy's code, never
    NumPy's ImportError.  (Python's own start-up, before gradcli's first line, is not
    gradcli's to change.)"""
    import re

    seen = set()
    for i in range(30):
        p = _popen_with_sigint(["eval", "-e", "print(1)"])
        time.sleep(0.01 * i)
        p.send_signal(signal.SIGINT)
        try:
            out, err = p.communicate(timeout=30)
        finally:
            p.kill()
        assert not re.search(r'File "[^"]*[/\\](gradcli|numpy)[/\\][^"]*"', err), err
        assert "ImportError" not in err and "internal error" not in err, err
        assert p.returncode in (0, 130, -signal.SIGINT, 1), (p.returncode, err)
        seen.add(p.returncode)
        if p.returncode == 130:
            assert err.endswith("interrupted\n") or "KeyboardInterrupt" in err, err
    assert 130 in seen


# ---------------------------------------------------------------- error places


@pytest.mark.parametrize(
    "code, where, line, col, message",
    [
        ("x = 1\ny = (x + \nz = 3\nw = 4", "2:5", "y = (x + ", 5, "'(' was never closed"),
        ("x = foo(1,\n  2\nprint(x)", "1:8", "x = foo(1,", 8, "'(' was never closed"),
        (
            "y = [1,  # a ( in a comment\n  '(' + 2",
            "1:5",
            "y = [1,  # a ( in a comment",
            5,
            "'[' was never closed",
        ),
        (
            "x = (1]",
            "1:7",
            "x = (1]",
            7,
            "closing parenthesis ']' does not match opening parenthesis '('",
        ),
        (
            "x = [1,\n 2)",
            "2:3",
            " 2)",
            3,
            "closing parenthesis ')' does not match opening parenthesis '[' on line 1",
        ),
        ("x = 1)", "1:6", "x = 1)", 6, "unmatched ')'"),
        (
            "x = 1\ny = 2\nz = f'a{x}b{ones(2) + ones(3)}'",
            "3:21",
            "z = f'a{x}b{ones(2) + ones(3)}'",
            21,
            "must match the size",
        ),
        (
            "x = 1\nz = f'{x} and {undefined_name}'",
            "2:16",
            "z = f'{x} and {undefined_name}'",
            16,
            "name 'undefined_name' is not defined",
        ),
    ],
)
def test_brackets_and_f_string_fields_are_reported_where_they_are(
    code, where, line, col, message, tmp_path
):
    prog = tmp_path / "p.ag"
    prog.write_text(code + "\n")
    r = gradcli("eval", prog)
    caret(r.stderr, f"{prog}:{where}", line, col)
    assert message in r.stderr.splitlines()[0], r.stderr
    r = gradcli("eval", "--json", prog)
    rec = records(r.stdout)[-1]
    assert (rec["kind"], rec["line"], rec["column"]) == ("error", *map(int, where.split(":")))


@pytest.mark.parametrize(
    "orig_argv,quiet",
    [
        (["python", "-m", "gradcli", "eval"], True),
        (["python", "-m", "gradcli.kernel", "-f", "c.json"], False),  # Jupyter interrupts it
        (["python", "-m", "pytest"], False),
    ],
)
def test_only_the_command_line_exits_quietly_on_start_up_interrupts(orig_argv, quiet):
    code = (
        f"import sys; sys.orig_argv = {orig_argv!r}\n"
        "import signal, gradcli\n"
        "print(signal.getsignal(signal.SIGINT) is signal.default_int_handler)\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        cwd=ROOT,
        env=ENV,
        timeout=60,
        # (a child started with SIGINT ignored, as a shell's background job is, keeps it
        # ignored and Python installs no handler: start it as a terminal would)
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    assert r.stdout == f"{not quiet}\n", r.stderr


def test_an_exception_without_a_message_prints_its_type_alone(tmp_path):
    """As Python: `StopIteration`, not `StopIteration: ` (next() past a generator's end)."""
    p = tmp_path / "g.ag"
    p.write_text("def gen():\n    yield 1\nt = gen()\nnext(t)\nnext(t)\n")
    r = gradcli("eval", str(p))
    assert r.returncode == 1
    assert r.stderr.splitlines()[0] == f"{p}:5:1: StopIteration", r.stderr
