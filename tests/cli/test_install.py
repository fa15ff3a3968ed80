"""The installed package (not the source tree) works: run the console script from
another directory, so that `import gradcli` finds what pip installed."""

import os
import shutil
import subprocess
import sys

from pathlib import Path

import pytest

SOURCE = Path(__file__).resolve().parents[2] / "gradcli"


def _script():
    path = os.path.join(os.path.dirname(sys.executable), "gradcli")
    return path if os.path.exists(path) else shutil.which("gradcli")


@pytest.mark.skipif(_script() is None, reason="gradcli console script not installed")
def test_console_script_runs_from_elsewhere(tmp_path):
    code = (
        "import gradcli, gradcli.ops, gradcli.repl, gradcli.language.parser as p; "
        "print(len(p.grammar_text()) > 100, gradcli.__file__)"
    )
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("True")
    r = subprocess.run(
        [_script(), "eval", "-e", "x = ones(2, 2, requires_grad=true); backward mean(3*(x+2)^2)"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == "x.grad = tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n"


def test_every_module_is_installed(tmp_path):
    """A new package folder must be listed in pyproject.toml, or pip leaves it out."""
    r = subprocess.run(
        [sys.executable, "-c", "import gradcli, os; print(os.path.dirname(gradcli.__file__))"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert r.returncode == 0, r.stderr
    installed = Path(r.stdout.strip())
    if installed.resolve() == SOURCE.resolve():
        pytest.skip("gradcli is installed in editable mode (the source tree itself)")
    missing = sorted(
        str(p.relative_to(SOURCE))
        for p in SOURCE.rglob("*.py")
        if not (installed / p.relative_to(SOURCE)).exists()
    )
    assert not missing, f"not installed (add their package to pyproject.toml): {missing}"
