"""Notebooks: `gradcli eval NB.ipynb`, `gradcli check NB.ipynb`.

tests/golden/notebooks/seed_00N.ipynb are the seed tutorials as notebooks,
with outputs recorded from real PyTorch by scripts/gen_golden.py notebooks
(object addresses and all)."""

from __future__ import annotations

import json
import re

import pytest

try:
    from conftest import ROOT, run_gradcli, run_inprocess
except ImportError:  # tests/ became a package
    from tests.conftest import ROOT, run_gradcli, run_inprocess

NOTEBOOKS = ROOT / "tests" / "golden" / "notebooks"
SEEDS = sorted(p.name[:-6] for p in NOTEBOOKS.glob("seed_*.ipynb"))


def load(name):
    return json.loads((NOTEBOOKS / f"{name}.ipynb").read_text(encoding="utf-8"))


def seed_of(nb):
    return str(nb["metadata"]["gradcli"]["seed"])


def make_nb(*cells, outputs=None):
    """A notebook of code cells (a str) and Markdown cells (("md", text)) as plain JSON."""
    out = []
    for i, c in enumerate(cells):
        if isinstance(c, tuple):
            out.append({"cell_type": "markdown", "metadata": {}, "source": c[1]})
        else:
            recorded = (outputs or {}).get(i, [])
            out.append(
                {
                    "cell_type": "code",
                    "execution_count": i + 1,
                    "metadata": {},
                    "source": c,
                    "outputs": recorded,
                }
            )
    return json.dumps({"cells": out, "metadata": {}, "nbformat": 4, "nbformat_minor": 5})


def stream(text):
    return {"output_type": "stream", "name": "stdout", "text": text}


def result(text):
    return {
        "output_type": "execute_result",
        "execution_count": 1,
        "metadata": {},
        "data": {"text/plain": text},
    }


def recorded_text(nb):
    """What the notebook's stored outputs show, addresses dropped."""
    parts = []
    for c in nb["cells"]:
        for o in c.get("outputs", []):
            if o["output_type"] == "stream" and o["name"] == "stdout":
                parts.append("".join(o["text"]))
            elif o["output_type"] in ("execute_result", "display_data"):
                parts.append("".join(o["data"]["text/plain"]) + "\n")
    text = "".join(parts)
    return re.sub(r"<(\w+) object at 0x[0-9a-f]+>", r"<\1>", text)


# ------------------------------------------------------------------ eval


@pytest.mark.parametrize("name", SEEDS)
def test_eval_seed_notebook_prints_what_pytorch_recorded(name):
    nb = load(name)
    path = f"tests/golden/notebooks/{name}.ipynb"
    r = run_gradcli(args=("eval", "--seed", seed_of(nb), path))
    assert r.returncode == 0, r.stderr
    assert r.stdout == recorded_text(nb)
    if name == "seed_001":  # the notebook's %matplotlib inline is skipped with a note
        assert "cell 2:1: note: skipped IPython magic '%matplotlib inline'" in r.stderr


def test_eval_shows_only_the_last_value_of_a_cell():
    src = make_nb(
        "x = tensor(2.)\nx\nx + 1",
        ("md", "# words"),
        "print(1)\nx * 3\n",
        "x;",
        "y = x",
        "if true:\n    x\n    print(x)\n",
    )
    r = run_inprocess(src, ("eval", "-"))
    # as in IPython: a value inside a block is not the cell's value; print prints
    assert r.stdout == "tensor(3.)\n1\ntensor(6.)\ntensor(2.)\n", r.stdout
    assert r.returncode == 0


def test_magics_and_shell_lines_are_skipped_with_a_note():
    src = make_nb(
        "%matplotlib inline\n!pip install torch\nx = 1\nx", "%%time\nx + 1", "%%bash\nls -l"
    )
    r = run_inprocess(src, ("eval", "-"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "1\n2\n"
    notes = r.stderr.splitlines()
    assert notes == [
        "<stdin>:cell 1:1: note: skipped IPython magic '%matplotlib inline' (not gradcli)",
        "<stdin>:cell 1:2: note: skipped shell command '!pip install torch' (not gradcli)",
        "<stdin>:cell 2:1: note: skipped IPython magic '%%time' (not gradcli)",
        "<stdin>:cell 3:1: note: skipped IPython magic '%%bash' (not gradcli)",
    ]


def test_error_names_the_cell_line_and_column(tmp_path):
    path = tmp_path / "nb.ipynb"
    path.write_text(
        make_nb(
            ("md", "# title"), "x = ones(2)", "y = 2\nz = x + foo\nprint(z)", "print('not reached')"
        )
    )
    r = run_gradcli(args=("eval", str(path)))
    assert r.returncode == 1
    assert r.stdout == ""
    first = r.stderr.splitlines()[0]
    assert first == f"{path}:cell 3:2:9: NameError: name 'foo' is not defined"
    assert "    z = x + foo\n            ^" in r.stderr
    # a syntax error in a cell is exit code 2, at the cell's line
    bad = run_inprocess(make_nb("x = 1", "y = (1,\nz = ]"), ("eval", "-"))
    assert bad.returncode == 2
    assert bad.stderr.startswith("<stdin>:cell 2:2:")


def test_json_records_carry_the_cell():
    src = make_nb(
        ("md", "# m"),
        "x = tensor([1., 2.], requires_grad=true)\nx",
        "print(7)",
        "backward sum(x * x)",
        "nope",
    )
    r = run_inprocess(src, ("eval", "--json", "-"))
    recs = [json.loads(ln) for ln in r.stdout.splitlines()]
    assert [(rec["kind"], rec["cell"], rec["line"]) for rec in recs] == [
        ("value", 2, 2),
        ("print", 3, 1),
        ("grad", 4, 1),
        ("error", 5, 1),
    ]
    assert recs[2]["value"] == [2.0, 4.0]
    assert recs[3]["type"] == "NameError"
    assert r.returncode == 1


def test_variables_are_shared_with_later_files_and_code():
    r = run_inprocess(make_nb("a = 5"), ("eval", "-", "-e", "a * 2"))
    assert r.stdout == "10\n", r.stderr


def test_not_a_notebook_is_a_usage_error(tmp_path):
    p = tmp_path / "broken.ipynb"
    p.write_text('{"cells": [')
    r = run_gradcli(args=("eval", str(p)))
    assert r.returncode == 2
    assert "not a notebook (invalid JSON" in r.stderr


def test_ctrl_c_in_a_notebook_is_exit_code_130_at_the_cell(tmp_path):
    import signal
    import subprocess
    import sys
    import time

    path = tmp_path / "loop.ipynb"
    path.write_text(make_nb("print('started')", "i = 0\nwhile true:\n    i = i + 1"))
    p = subprocess.Popen(
        [sys.executable, "-m", "gradcli", "eval", str(path)],
        cwd=ROOT,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL),
    )
    try:
        assert p.stdout.readline() == "started\n"
        time.sleep(0.3)
        p.send_signal(signal.SIGINT)
        out, err = p.communicate(timeout=20)
    finally:
        p.kill()
    assert p.returncode == 130
    assert err.startswith(f"{path}:cell 2:") and "KeyboardInterrupt: interrupted" in err
    assert "Traceback" not in err


def test_step_limit_in_a_notebook_names_the_cell():
    r = run_inprocess(
        make_nb("x = 1", "i = 0\nwhile true:\n    i = i + 1"), ("eval", "--max-steps", "1000", "-")
    )
    assert r.returncode == 1 and r.stderr.startswith("<stdin>:cell 2:")


# ------------------------------------------------------------------ check


@pytest.mark.parametrize("name", SEEDS)
def test_check_seed_notebook_passes(name):
    nb = load(name)
    r = run_gradcli(args=("check", "--seed", seed_of(nb), f"tests/golden/notebooks/{name}.ipynb"))
    assert r.returncode == 0, r.stdout + r.stderr
    n_code = sum(c["cell_type"] == "code" for c in nb["cells"])
    assert r.stdout.splitlines()[-1].endswith(f": {n_code} code cells: {n_code} same")


def test_check_catches_a_changed_output(tmp_path):
    nb = load("seed_002")
    changed = None
    for c in nb["cells"]:
        for o in c.get("outputs", []):
            if o["output_type"] == "display_data" and "4.5000" in "".join(o["data"]["text/plain"]):
                o["data"]["text/plain"] = "".join(o["data"]["text/plain"]).replace(
                    "4.5000", "4.2500"
                )
                changed = c
    assert changed is not None
    path = tmp_path / "seed_002.ipynb"
    path.write_text(json.dumps(nb))
    number = nb["cells"].index(changed) + 1
    r = run_gradcli(args=("check", "--seed", seed_of(nb), str(path)))
    assert r.returncode == 1
    assert f"{path}:cell {number}: DIFFERENT" in r.stdout
    assert "-tensor([[4.2500, 4.2500]," in r.stdout and "+tensor([[4.5000, 4.5000]," in r.stdout
    assert r.stdout.splitlines()[-1].endswith("1 DIFFERENT") or "1 DIFFERENT" in r.stdout
    # eval --check is the same command
    r2 = run_gradcli(args=("eval", "--check", "--seed", seed_of(nb), str(path)))
    assert r2.returncode == 1 and r2.stdout == r.stdout


def test_check_ignores_addresses_and_compares_old_pytorch_output_by_value():
    legacy = "Variable containing:\n 1  1\n 1  1\n[torch.FloatTensor of size 2x2]\n"
    src = make_nb(
        "x = ones(2, 2, requires_grad=true)\nx",
        "x.sum().grad_fn",
        "print(x * 1000)",
        outputs={
            0: [result(legacy)],
            1: [result("<SumBackward0 at 0x7f3b2c1d0e50>")],
            2: [
                stream(
                    "Variable containing:\n 1.0000e+03  1.0000e+03\n"
                    " 1.0000e+03  1.0000e+03\n[torch.FloatTensor of size 2x2]\n\n"
                )
            ],
        },
    )
    r = run_inprocess(src, ("check", "-"))
    assert r.returncode == 0, r.stdout
    assert "cell 1: same (old PyTorch output, values compared)" in r.stdout
    assert "cell 2: same\n" in r.stdout
    wrong = make_nb(
        "x = ones(2, 2)\nx", outputs={0: [result(legacy.replace(" 1  1\n [", " 1  2\n ["))]}
    )
    wrong = wrong.replace(" 1  1\\n 1  1", " 1  1\\n 1  2")
    r = run_inprocess(wrong, ("check", "-"))
    assert r.returncode == 1 and "cell 1: DIFFERENT" in r.stdout


def test_check_expected_errors_unrecorded_cells_and_stray_errors():
    err = {
        "output_type": "error",
        "ename": "NameError",
        "evalue": "name 'q' is not defined",
        "traceback": [],
    }
    src = make_nb("q", "1 + 1", "2 + 2", outputs={0: [err], 2: [result("4")]})
    doc = json.loads(src)
    doc["cells"][1]["execution_count"] = None  # never run: not compared
    r = run_inprocess(json.dumps(doc), ("check", "--json", "-"))
    recs = [json.loads(ln) for ln in r.stdout.splitlines()]
    assert [(x.get("cell"), x["status"]) for x in recs[:-1]] == [
        (1, "same error"),
        (2, "not recorded"),
        (3, "same"),
    ]
    assert r.returncode == 0
    # an error that was not recorded stops the run: exit 1, later cells not run
    r = run_inprocess(
        make_nb("1", "q", "3", outputs={0: [result("1")], 2: [result("3")]}), ("check", "-")
    )
    assert r.returncode == 1
    assert "cell 2: error" in r.stdout and "NameError: name 'q' is not defined" in r.stdout
    assert r.stdout.splitlines()[-1] == "<stdin>: 3 code cells: 1 same, 1 error, 1 not run"


def test_check_wants_a_notebook():
    r = run_inprocess("", ("check", "-e", "1"))
    assert r.returncode == 2 and "check runs notebooks" in r.stderr


# ------------------------------------------------------------------ REPL :save


def test_repl_save_writes_a_notebook_that_replays(tmp_path, capsys):
    from gradcli.cli import _parser
    from gradcli.repl import meta
    from gradcli.repl.app import Repl
    from gradcli.session import reset_globals

    reset_globals()
    args = _parser("gradcli").parse_args(["--seed", "3"])
    r = Repl(args)
    r.execute("x = randn(2, requires_grad=true)")
    r.execute("y = (x * x).sum(); y")
    r.execute("z = nosuch")  # failed: not in the notebook
    r.execute("backward y\nprint(x.grad.shape)")
    path = tmp_path / "s.ipynb"
    meta.run(r, f":save {path}")
    out = capsys.readouterr().out
    assert "saved 5 statements" in out
    nb = json.loads(path.read_text())
    cells = [
        ("".join(c["source"]), "".join(o for out in c["outputs"] for o in out["text"]))
        for c in nb["cells"]
    ]
    # the outputs are what a notebook shows (the last value of each cell, no `name = value`
    # echo), so gradcli check accepts the notebook
    assert cells[0] == ("seed(3)", "")
    assert cells[1] == ("x = randn(2, requires_grad=true)", "")
    assert cells[2][0] == "y = (x * x).sum()\ny"
    assert cells[2][1].startswith("tensor(") and cells[2][1].count("tensor(") == 1
    assert cells[3][0] == "backward y\nprint(x.grad.shape)"
    assert cells[3][1].startswith("x.grad = tensor([") and cells[3][1].endswith("torch.Size([2])\n")
    assert len(cells) == 4
    r = run_gradcli(args=("eval", str(path)))
    assert r.returncode == 0, r.stderr
    assert r.stdout == cells[2][1] + cells[3][1]
    r = run_gradcli(args=("check", str(path)))
    assert r.returncode == 0 and "4 code cells: 4 same" in r.stdout, r.stdout
    reset_globals()


def test_check_of_a_program_file_is_a_usage_error():
    r = run_gradcli(args=("check", "scripts/examples/seed_000.ag"))
    assert r.returncode == 2 and "is not one (run a program with gradcli eval)" in r.stderr


def test_a_program_that_starts_with_a_brace_is_a_program():
    """Only a .ipynb FILE, or a notebook's JSON on stdin, runs as a notebook: a dict
    literal or comprehension may start a program too."""
    r = run_inprocess("", ("eval", "-e", "{k: k * 2 for k in range(3)}"))
    assert (r.returncode, r.stdout) == (0, "{0: 0, 1: 2, 2: 4}\n"), r.stderr
    r = run_inprocess("{1: 2}\n", ("eval", "-"))
    assert (r.returncode, r.stdout) == (0, "{1: 2}\n"), r.stderr
    r = run_inprocess(make_nb("x = 3", "x * 2"), ("eval", "-"))
    assert (r.returncode, r.stdout) == (0, "6\n"), r.stderr
