"""numerics/floats/libm_log.py: glibc's logf re-implemented in NumPy, compared with the C
library's own logf (what PyTorch's scalar kernels call) value by value."""

from __future__ import annotations

import ctypes
import ctypes.util
import sys

import numpy as np
import pytest

from gradcli.numerics.floats.libm_log import libm_log, libm_logf

pytestmark = pytest.mark.skipif(
    not sys.platform.startswith("linux") or not ctypes.util.find_library("m"),
    reason="compares with the C library's logf (glibc)",
)


def _c_logf():
    lib = ctypes.CDLL(ctypes.util.find_library("m"))
    lib.logf.restype = ctypes.c_float
    lib.logf.argtypes = [ctypes.c_float]
    return lib.logf


def _values():
    rng = np.random.default_rng(7)
    edges = [0.0, -0.0, 1.0, np.inf, -np.inf, np.nan, -1.0, 1e-45, 1.1754942e-38, 1.17549435e-38]
    edges += [3.4028235e38, 0.5, 2.0, 1 - 2**-24, 1 + 2**-23, 0.7, 0.69921875, 1.40625]
    return np.concatenate(
        [
            np.asarray(edges, np.float32),
            rng.random(8000).astype(np.float32),
            (1 - rng.random(2000) * 1e-5).astype(np.float32),
            (rng.random(2000) * 1e-40).astype(np.float32),  # subnormals
            np.exp(rng.uniform(-87, 88, 4000)).astype(np.float32),
        ]
    )


def test_logf_is_the_c_librarys_bit_for_bit():
    c_logf = _c_logf()
    x = _values()
    want = np.array([c_logf(float(v)) for v in x], np.float32)
    got = libm_logf(x)
    assert got.dtype == np.float32
    assert np.array_equal(got.view(np.uint32), want.view(np.uint32))


def test_float64_log_is_numpys():
    d = _values().astype(np.float64) * (1 + 2**-40)
    with np.errstate(divide="ignore", invalid="ignore"):
        assert np.array_equal(libm_log(d), np.log(d), equal_nan=True)
