"""Members one part of gradcli adds to a standard module another part offers
(stdlib.add_members, stdlib.add_module) are there whichever part is imported first: the
kernel imports the language before the library's extra modules, the command line the
other way round (a `contextlib` added to before it was offered stopped the kernel)."""

import subprocess
import sys

import pytest

from conftest import ROOT
from gradcli.library import stdlib


def _module_with(name, order):
    stdlib._made.pop(name, None)
    try:
        for step in order:
            if step == "members":
                stdlib.add_members(name, lambda: {"extra": 1})
            else:
                stdlib.add_module(name, lambda: stdlib.StdModule(name, {"own": 2}))
        return stdlib.module(name)
    finally:
        stdlib._MODULES.pop(name, None)
        stdlib._PENDING.pop(name, None)
        stdlib._made.pop(name, None)


def test_members_added_before_or_after_the_module_is_offered():
    for order in (("module", "members"), ("members", "module")):
        m = _module_with("orderprobe", order)
        assert m.members["extra"] == 1 and m.members["own"] == 2, order


def test_the_kernel_imports_in_a_fresh_process():
    pytest.importorskip("ipykernel")
    r = subprocess.run(
        [sys.executable, "-c", "import gradcli.kernel.kernel"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert r.returncode == 0, r.stderr
