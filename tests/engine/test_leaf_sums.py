"""engine/passes.py `_add`: a leaf's gradients added up before they reach .grad (the
leaf's input buffer) give np.add's bits, type and payloads, also where two NumPy scalars
of one dtype are added as Python floats (the goldens' scalar networks check the .grad
their parameters get from several consumers)."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.engine import passes

KINDS = [(np.float64, np.uint64), (np.float32, np.uint32)]


def _specials(dt, it):
    info = np.iinfo(it)
    sign = info.max // 2 + 1
    bits = [0, sign, 1, sign | 1, info.max, info.max // 2]  # zeros, subnormals, NaNs
    if dt is np.float64:
        bits += [0x7FF8000000000001, 0xFFF8000000000002, 0x7FF0000000000003, 0x7FF0000000000000]
    else:
        bits += [0x7FC00001, 0xFFC00002, 0x7F800003, 0x7F800000]
    vals = np.array(bits, it).view(dt)
    return np.concatenate([vals, -vals, np.array([1.0, -1.0, 0.1, np.finfo(dt).max], dt)])


def _same(got, ref):
    return type(got) is type(ref) and np.asarray(got).tobytes() == np.asarray(ref).tobytes()


@pytest.mark.parametrize("dt,it", KINDS)
def test_sums_of_two_scalars_are_numpys(dt, it):
    rng = np.random.default_rng(7)
    rand = rng.integers(0, np.iinfo(it).max, size=20000, dtype=it, endpoint=True).view(dt)
    special = _specials(dt, it)
    pairs = [(x, y) for x in special for y in special]
    pairs += list(zip(rand, np.roll(rand, 1)))
    pairs += [(x, y) for x in special for y in rand[:50]] + [
        (y, x) for x in special for y in rand[:50]
    ]
    with np.errstate(all="ignore"):
        for x, y in pairs:
            ref = np.add(x, y)
            assert _same(passes._add(x, y), ref), (x, y)


def test_other_operands_go_to_numpy():
    a, b = np.float64(1.5), np.float32(2.25)
    assert _same(passes._add(a, b), np.add(a, b))
    x, y = np.array([1.0, 2.0]), np.array([0.5, -1.0])
    assert np.array_equal(passes._add(x, y), np.add(x, y))
    z = np.array(3.0)
    assert _same(passes._add(z, np.float64(1.0)), np.add(z, np.float64(1.0)))
