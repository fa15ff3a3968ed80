"""NumPy's memory handler compiled with the native loops (numerics/native_alloc.py): every
array NumPy makes lies on a 64-byte boundary, as PyTorch's storages do, its bytes are what
NumPy's own allocator would give (zeros zeroed, a resize keeping the old bytes), and MKL's
products need no copy of an operand while giving the same bits as with copies."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

from gradcli.numerics import mkl, native, native_alloc

pytestmark = pytest.mark.skipif(not native.available(), reason="llvmlite is not installed")


def test_handler_is_set():
    assert native._state["lib"].aligned
    assert np._core.multiarray.get_handler_name() == native_alloc._NAME.decode()
    assert np._core.multiarray.get_handler_name(np.empty(3)) == native_alloc._NAME.decode()


@pytest.mark.parametrize("n", [0, 1, 3, 7, 100, 1023, 4096, 100_003, 3_000_000])
@pytest.mark.parametrize("dtype", [np.float64, np.float32, np.int8, np.complex128])
def test_arrays_lie_on_64_byte_boundaries(n, dtype):
    for make in (np.empty, np.zeros, np.ones):
        a = make(n, dtype)
        assert a.ctypes.data % native_alloc.ALIGN == 0
    z = np.zeros(n, dtype)
    assert not z.any()
    assert np.arange(n).astype(dtype).ctypes.data % 64 == 0


def test_zeros_are_zero_after_dirty_blocks_are_reused():
    for _ in range(20):
        dirty = np.full(50_000, 7.0)
        del dirty
        assert not np.zeros(50_000).any()


@pytest.mark.parametrize("grow, shrink", [(1000, 3), (10, 100_000), (100_000, 50)])
def test_resize_keeps_the_bytes_it_had(grow, shrink):
    a = np.arange(10.0)
    a.resize(grow, refcheck=False)
    assert a.ctypes.data % 64 == 0
    assert (a[:10] == np.arange(10.0)).all() and not a[10:].any()
    a[:] = np.arange(grow)
    a.resize(shrink, refcheck=False)
    assert (a == np.arange(grow)[:shrink]).all() if shrink <= grow else True


def _kept():
    """The handler's table of kept blocks: (bytes kept, counts by class, their places)."""
    cache = native_alloc._state["handler"][2]
    c, keep = native_alloc.CLASSES, native_alloc.KEEP
    return cache[0], list(cache[1 : c + 1]), list(cache[c + 1 : c + 1 + c * keep])


def test_small_blocks_are_kept_and_given_again():
    """A freed block of up to CLASSES * 64 bytes is kept for its class (64-byte units) and
    the next array of that class gets it back; its bytes are NumPy's to set again."""
    a = np.full(1000, 3.0)  # 8,000 bytes: class 125
    at = a.ctypes.data
    del a
    total, counts, places = _kept()
    assert counts[124] >= 1 and at in places[124 * native_alloc.KEEP : 125 * native_alloc.KEEP]
    b = np.zeros(995)  # 7,960 bytes: the same class, zeroed
    assert b.ctypes.data == at and not b.any()
    c = np.empty(1000)
    c[:] = 1.0
    assert c.ctypes.data != at and (b == 0).all()


def test_the_kept_blocks_stay_within_their_bounds():
    """At most KEEP blocks a class and BUDGET bytes in all, whatever is freed; every array
    keeps its own bytes while others come and go."""
    rng = np.random.default_rng(11)
    live = []
    for i in range(20_000):
        n = int(rng.integers(0, 40_000))
        a = np.full(n, i % 251, np.uint8)
        live.append(a)
        if len(live) > 40:
            b = live.pop(int(rng.integers(0, len(live))))
            assert b.size == 0 or (b == b[0]).all()
        if i % 500 == 0:
            z = np.zeros(int(rng.integers(0, 6000)))
            assert not z.any()
    for a in live:
        assert a.size == 0 or (a == a[0]).all()
    del live, a
    total, counts, places = _kept()
    assert total <= native_alloc.BUDGET and max(counts) <= native_alloc.KEEP
    assert total == sum(64 * (c + 1) * n for c, n in enumerate(counts))
    for c, n in enumerate(counts):
        assert all(places[c * native_alloc.KEEP + j] % 64 == 0 for j in range(n))


def _off_boundary(a, skew):
    """a's values in a buffer NumPy did not make, `skew` bytes past a 64-byte boundary (a
    fresh storage to mkl.py, which copies it to one before a product)."""
    raw = bytearray(a.nbytes + 128)
    start = np.frombuffer(raw, np.uint8).ctypes.data
    off = (skew - start) % 64
    out = np.frombuffer(raw, a.dtype, a.size, off).reshape(a.shape)
    out[...] = a
    return out


def test_products_take_operands_in_place_with_the_copies_bits():
    rng = np.random.default_rng(5)
    for m, k, n in [(64, 10, 32), (200, 200, 1), (7, 300, 13), (128, 784, 256)]:
        a, b = rng.standard_normal((m, k)), rng.standard_normal((k, n))
        assert mkl._aligned(a)[0] is a  # no copy
        got = mkl.mm(a, b)
        for skew in (8, 24):
            moved = _off_boundary(a, skew)
            assert mkl.address(mkl._aligned(moved)[0]) % 64 == 0  # copied
            same = mkl.mm(moved, _off_boundary(b, skew))
            assert np.array_equal(same.view(np.uint64), got.view(np.uint64))


def test_memory_is_given_back():
    """Freed blocks return to libc: a loop of big arrays does not grow the process."""
    code = (
        "from gradcli.numerics import native; import numpy as np\n"
        "assert native.available() and native._state['lib'].aligned\n"
        "for i in range(200):\n"
        "    a = np.ones(2_000_000); b = a * 2; del a, b\n"
        # (this process's own peak: ru_maxrss would keep the pytest parent's from the fork)
        "print(next(l.split()[1] for l in open('/proc/self/status') if l.startswith('VmHWM')))\n"
    )
    env = dict(os.environ, GRADCLI_NATIVE="1")
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, out.stderr
    assert int(out.stdout) < 400_000  # KiB: two 16 MB arrays live at a time, not 200


def test_the_interpreter_ends_cleanly_with_arrays_it_made():
    """Arrays the handler made may be freed after the modules are torn down (a run in the
    process, as the tests and the kernel make them): the handler's code and tables stay.
    The run places the loops itself from the cache this process's compile wrote."""
    tests = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    code = (
        f"import sys; sys.path.insert(0, {tests!r})\n"
        "from conftest import run_inprocess\n"
        "run_inprocess('import torch\\nx = torch.ones(2, requires_grad=True)\\n"
        "print((x * 2).sum())\\n')\n"
        "import numpy as np\n"
        "print(np._core.multiarray.get_handler_name())\n"
    )
    env = {k: v for k, v in os.environ.items() if not k.startswith("GRADCLI_")}
    out = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True)
    assert out.returncode == 0, (out.returncode, out.stderr[-2000:])
    assert out.stdout.split("\n")[-2] == native_alloc._NAME.decode()
