"""The installed package (not the source tree) works: run the console script from
another directory, so that `import gradcli` finds what pip installed."""
import os
import shutil
import subprocess
import sys

import pytest


def _script():
    path = os.path.join(os.path.dirname(sys.executable), "gradcli")
    return path if os.path.exists(path) else shutil.which("gradcli")


@pytest.mark.skipif(_script() is None, reason="gradcli console script not installed")
def test_console_script_runs_from_elsewhere(tmp_path):
    code = ("import gradcli, gradcli.ops, gradcli.repl, gradcli.language.parser as p; "
            "print(len(p.grammar_text()) > 100, gradcli.__file__)")
    r = subprocess.run([sys.executable, "-c", code], cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout.startswith("True")
    r = subprocess.run([_script(), "eval", "-e",
                        "x = ones(2, 2, requires_grad=true); backward mean(3*(x+2)^2)"],
                       cwd=tmp_path, capture_output=True, text=True)
    assert r.returncode == 0, r.stderr
    assert r.stdout == "x.grad = tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n"
