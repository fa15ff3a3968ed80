"""gradcli/runtime/heap.py: glibc keeps big freed blocks for reuse during a run (the
1e7-element loop), gradcli's opt-out and glibc's own settings are respected, and it is
a no-op where the C library is not glibc."""

import os
import subprocess
import sys

import pytest

from gradcli.runtime import heap

GLIBC = heap.glibc() is not None

# faults of a second 80 MB array made after the first is freed (each page of a fresh
# mmap faults: up to ~20,000 4 KiB pages, 40 or more with 2 MiB pages; reused: none)
REUSE = """
import resource, sys
import numpy as np
from gradcli.runtime import heap
print(heap.tune() if sys.argv[1] == "tune" else False)
a = np.ones(10_000_000); del a
f = resource.getrusage(resource.RUSAGE_SELF).ru_minflt
b = np.ones(10_000_000)
print(resource.getrusage(resource.RUSAGE_SELF).ru_minflt - f)
"""


def _env(**extra):
    env = {
        k: v
        for k, v in os.environ.items()
        if k not in heap.GLIBC_VARS and k not in (heap.OPT_OUT, "GLIBC_TUNABLES")
    }
    env.update(extra)
    return env


def _reuse(mode, **extra):
    r = subprocess.run(
        [sys.executable, "-c", REUSE, mode],
        capture_output=True,
        text=True,
        env=_env(**extra),
        check=True,
    )
    tuned, faults = r.stdout.split()
    return tuned == "True", int(faults)


@pytest.mark.skipif(not GLIBC, reason="glibc only")
def test_tuned_heap_reuses_a_freed_big_array():
    tuned, faults = _reuse("tune")
    assert tuned
    assert faults < 20
    untuned, before = _reuse("plain")
    assert not untuned
    assert before >= 38  # glibc's default: a fresh mmap, 40 huge pages at least


@pytest.mark.skipif(not GLIBC, reason="glibc only")
@pytest.mark.parametrize(
    "extra",
    [
        {"GRADCLI_NO_MALLOPT": "1"},
        {"MALLOC_TRIM_THRESHOLD_": "131072"},
        {"GLIBC_TUNABLES": "glibc.malloc.mmap_threshold=131072"},
    ],
)
def test_opt_out_and_glibc_settings_leave_the_allocator_alone(extra):
    tuned, faults = _reuse("tune", **extra)
    assert not tuned
    assert faults >= 38


def test_wanted():
    assert heap.wanted({})
    assert heap.wanted({"GRADCLI_NO_MALLOPT": "0", "GLIBC_TUNABLES": "glibc.cpu.x86_ibt=on"})
    assert not heap.wanted({"GRADCLI_NO_MALLOPT": "1"})
    for k in heap.GLIBC_VARS:
        assert not heap.wanted({k: "1"})
    assert not heap.wanted({"GLIBC_TUNABLES": "glibc.malloc.trim_threshold=0"})


def test_no_op_without_glibc(monkeypatch):
    def no_confstr(name):
        raise ValueError(name)

    monkeypatch.setattr(heap, "_libc", [])
    monkeypatch.setattr(heap.os, "confstr", no_confstr)
    assert heap.glibc() is None
    assert heap.tune() is False
    heap.release()  # nothing set: nothing to do
    monkeypatch.setattr(heap.os, "confstr", lambda name: None)
    assert heap.glibc() is None


@pytest.mark.skipif(not GLIBC, reason="glibc only")
def test_a_run_tunes_the_heap_and_the_repl_releases_it():
    code = (
        "from gradcli.cli import main\nfrom gradcli.runtime import heap\n"
        "print(bool(heap._libc))\nmain(['eval', '-q', '-e', 'x = ones(3)'])\n"
        "print(bool(heap._libc))\nheap.release()\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, env=_env(), check=True
    )
    assert r.stdout.split() == ["False", "True"]
    r = subprocess.run(
        [sys.executable, "-c", code],
        capture_output=True,
        text=True,
        env=_env(GRADCLI_NO_MALLOPT="1"),
        check=True,
    )
    assert r.stdout.split() == ["False", "False"]


def test_the_repl_gives_freed_memory_back_after_each_input(monkeypatch, capsys):
    from gradcli.cli import _parser
    from gradcli.repl import app

    calls = []
    monkeypatch.setattr(app, "release_heap", lambda: calls.append(1))
    r = app.Repl(_parser("gradcli").parse_args([]))
    r.execute("a = ones(3)")
    r.execute("b = nosuch")  # an error: released all the same
    r.execute("   ")  # nothing ran: nothing to give back
    assert len(calls) == 2
    capsys.readouterr()


def test_heap_binds_only_mallopt_and_malloc_trim():
    """The sandbox allows ctypes in heap.py (tests/language/test_sandbox.py NATIVE) for these two
    C functions alone."""
    import ast
    import inspect

    tree = ast.parse(inspect.getsource(heap))
    bound = {
        n.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Attribute)
        and isinstance(n.value, (ast.Name, ast.Subscript))
        and (
            getattr(n.value, "id", None) == "libc"
            or isinstance(n.value, ast.Subscript)
            and getattr(n.value.value, "id", None) == "_libc"
        )
    }
    assert bound == {"mallopt", "malloc_trim"}
    calls = {
        n.func.attr
        for n in ast.walk(tree)
        if isinstance(n, ast.Call)
        and isinstance(n.func, ast.Attribute)
        and isinstance(n.func.value, ast.Name)
        and n.func.value.id == "ctypes"
    }
    assert calls == {"CDLL"}
