"""The command line's file of compiled code (gradcli/runtime/code_cache.py), end to end in
a copy of the package: written by a run that writes bytecode, read by the next, never
trusted for a module whose source changed, never written where Python writes no
bytecode."""

from __future__ import annotations

import marshal
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PROGRAM = "x = ones(2, 2, requires_grad=true)\nbackward mean(3*(x+2)^2)\nprint(x.grad)\n"
EXPECTED = "tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n"


@pytest.fixture(scope="module")
def tree(tmp_path_factory):
    """A copy of the package (and its grammar) without any cached bytecode."""
    base = tmp_path_factory.mktemp("copy")
    ignore = shutil.ignore_patterns("__pycache__")
    shutil.copytree(ROOT / "gradcli", base / "gradcli", ignore=ignore)
    shutil.copytree(ROOT / "grammar", base / "grammar", ignore=ignore)
    return base


def run(tree, *args, write=True):
    env = {
        k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE", "PYTHONPATH")
    }
    env["NO_COLOR"] = "1"
    if not write:
        env["PYTHONDONTWRITEBYTECODE"] = "1"
    return subprocess.run(
        [sys.executable, "-m", "gradcli", *args],
        capture_output=True,
        text=True,
        cwd=tree,
        env=env,
        timeout=120,
    )


def cache_file(tree):
    files = list((tree / "gradcli" / "__pycache__").glob("gradcli-code.*.bin"))
    assert len(files) <= 1, files
    return files[0] if files else None


def entries(tree):
    """The file's table of modules: (source, .pyc, is a package, mtime, size, (offset,
    length) of its code after the table); each module's code checked to be a module's."""
    data = cache_file(tree).read_bytes()
    size = int.from_bytes(data[:8], "little")
    layout, base, table = marshal.loads(data[8 : 8 + size])
    assert base == str(tree)
    code = data[8 + size :]
    for name, (*_, (offset, length)) in table.items():
        assert marshal.loads(code[offset : offset + length]).co_name == "<module>", name
    return table


def test_written_read_and_never_trusted_for_a_changed_source(tree):
    r = run(tree, "eval", "-q", "-e", PROGRAM, write=False)
    assert (r.returncode, r.stdout, r.stderr) == (0, EXPECTED, "")
    assert cache_file(tree) is None  # Python writes no bytecode: neither does gradcli

    r = run(tree, "eval", "-q", "-e", PROGRAM)
    assert (r.returncode, r.stdout, r.stderr) == (0, EXPECTED, "")
    table = entries(tree)
    assert "gradcli.cli" in table and "gradcli.ops.unary" in table
    assert all(name.startswith("gradcli.") for name in table)
    written = os.stat(cache_file(tree)).st_mtime_ns

    # read, with nothing to add: not written again
    r = run(tree, "eval", "-q", "-e", PROGRAM)
    assert (r.returncode, r.stdout, r.stderr) == (0, EXPECTED, "")
    assert os.stat(cache_file(tree)).st_mtime_ns == written

    # a module's source changes: its new code runs (not the recorded one), and the file
    # is written again with it
    cli = tree / "gradcli" / "cli.py"
    text = cli.read_text()
    assert 'EVAL_USAGE = "gradcli eval [options]' in text
    cli.write_text(text.replace('EVAL_USAGE = "gradcli eval [options]', 'EVAL_USAGE = "changed'))
    r = run(tree, "eval", "--help")
    assert r.returncode == 0 and "usage: changed" in r.stdout, r.stdout
    assert entries(tree)["gradcli.cli"][4] == cli.stat().st_size
    r = run(tree, "eval", "--help")
    assert r.returncode == 0 and "usage: changed" in r.stdout, r.stdout


def test_a_damaged_file_is_ignored(tree):
    run(tree, "eval", "-e", "1")
    cache_file(tree).write_bytes(b"not marshal data")
    r = run(tree, "eval", "-q", "-e", PROGRAM)
    assert (r.returncode, r.stdout, r.stderr) == (0, EXPECTED, "")
    assert "gradcli.cli" in entries(tree)  # and written again whole

    # cut short (its table whole, the modules' code not): ignored, and written again
    data = cache_file(tree).read_bytes()
    cache_file(tree).write_bytes(data[: len(data) // 2])
    r = run(tree, "eval", "-q", "-e", PROGRAM)
    assert (r.returncode, r.stdout, r.stderr) == (0, EXPECTED, "")
    assert len(cache_file(tree).read_bytes()) == len(data)

    # empty (a file that cannot be mapped is read instead): ignored, and written again
    cache_file(tree).write_bytes(b"")
    r = run(tree, "eval", "-q", "-e", PROGRAM)
    assert (r.returncode, r.stdout, r.stderr) == (0, EXPECTED, "")
    assert "gradcli.cli" in entries(tree)


def test_a_module_read_from_the_file_is_pythons_own(tree):
    """Its __file__, __cached__ and __spec__ as Python's import gives them."""
    run(tree, "eval", "-q", "-e", PROGRAM)
    assert "gradcli.ops.unary" in entries(tree)
    code = (
        "import sys; sys.argv[0] = 'gradcli'; import gradcli; import gradcli.ops.unary as m; "
        "from gradcli.runtime import code_cache as c; "
        "print(c._finder.missed == [], m.__file__, m.__cached__, m.__spec__.origin, "
        "m.__spec__.cached, m.__loader__ is m.__spec__.loader, m.__package__, m.__name__)"
    )
    env = {k: v for k, v in os.environ.items() if k not in ("PYTHONDONTWRITEBYTECODE",)}
    env["PYTHONPATH"] = str(tree)
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tree, env=env
    )
    source = tree / "gradcli" / "ops" / "unary.py"
    cached = tree / "gradcli" / "ops" / "__pycache__" / f"unary.{sys.implementation.cache_tag}.pyc"
    assert r.stdout.split() == [
        "True",
        str(source),
        str(cached),
        str(source),
        str(cached),
        "True",
        "gradcli.ops",
        "gradcli.ops.unary",
    ], r.stderr
