"""`super(C).__init__()`: the unbound super's own __init__, as CPython runs it: nothing in
a method of C, "super(): no arguments" at the top level (compared with CPython here)."""

import subprocess
import sys

import pytest

from conftest import run_inprocess

SOURCE = (
    "class A:\n"
    "    def __init__(self):\n"
    "        super(A).__init__()\n"
    "        print('A init')\n"
    "a = A()\n"
    "print(super(A))\n"
    "super(A).__init__()\n"
    "print('after')\n"
)


@pytest.mark.parametrize("tier", [(), ("--no-fast-tier",)])
def test_unbound_super_init_as_cpython(tier):
    py = subprocess.run([sys.executable, "-c", SOURCE], capture_output=True, text=True)
    r = run_inprocess(SOURCE, ("eval", *tier, "-"))
    assert r.stdout == py.stdout
    last = py.stderr.strip().splitlines()[-1]  # RuntimeError: super(): no arguments
    assert r.returncode != 0 and f"{last}\n" in r.stderr, r.stderr
