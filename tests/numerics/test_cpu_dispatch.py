"""gradcli computes as PyTorch's AVX2 kernels do on every machine: on a CPU with
AVX-512, importing gradcli turns NumPy's AVX-512 dispatch off before NumPy loads
(gradcli/__init__.py), since NumPy would send sinh, cosh, expm1, log1p ... to SVML,
whose last bits differ from glibc's (tests/numerics/test_exact_numerics.py failed 23 goldens so
on an AVX-512 machine).  Each check runs in a fresh interpreter: NumPy reads the
setting once, when it is first imported."""

from __future__ import annotations

import os
import subprocess
import sys

import numpy as np
import pytest

PROBE = (
    "import {first}; import numpy\n"
    "from numpy._core._multiarray_umath import __cpu_features__ as f\n"
    "import os; print(os.environ.get('NPY_DISABLE_CPU_FEATURES')); "
    "print(any(f.get(k) for k in ('X86_V4', 'AVX512_SKX', 'AVX512_ICL')))"
)


def _avx512():
    try:
        with open("/proc/cpuinfo", "rb") as f:
            return b" avx512f" in f.read(16384)
    except OSError:
        return False


def _probe(first, **env):
    e = {
        k: v
        for k, v in os.environ.items()
        if k not in ("NPY_DISABLE_CPU_FEATURES", "GRADCLI_NUMPY_AVX512")
    }
    e.update(env)
    r = subprocess.run(
        [sys.executable, "-W", "error::ImportWarning", "-c", PROBE.format(first=first)],
        capture_output=True,
        text=True,
        env=e,
    )
    assert r.returncode == 0, r.stderr
    setting, on = r.stdout.split("\n")[:2]
    return setting, on == "True"


needs_numpy2 = pytest.mark.skipif(not hasattr(np, "_core"), reason="NumPy 2's module layout")


@needs_numpy2
@pytest.mark.skipif(not _avx512(), reason="the CPU has no AVX-512")
def test_numpy_avx512_dispatch_is_off_after_importing_gradcli():
    setting, on = _probe("numpy")  # NumPy alone: AVX-512 on
    assert setting == "None" and on
    setting, on = _probe("gradcli")  # gradcli first: off, no warning
    assert "X86_V4" in setting and not on
    setting, on = _probe("gradcli", GRADCLI_NUMPY_AVX512="1")  # the opt-out
    assert setting == "None" and on
    setting, on = _probe("gradcli", NPY_DISABLE_CPU_FEATURES="AVX512_SPR")  # the user's own
    assert setting == "AVX512_SPR" and on


@needs_numpy2
@pytest.mark.skipif(_avx512(), reason="the CPU has AVX-512")
def test_numpy_is_left_alone_without_avx512():
    setting, _ = _probe("gradcli")
    assert setting == "None"


def test_mkl_is_kept_to_avx2():
    """MKL's kernels too (gradcli/numerics/mkl.py, set before MKL loads)."""
    from gradcli.numerics import mkl

    if not mkl.available():
        pytest.skip("the mkl package is not installed")
    r = subprocess.run(
        [
            sys.executable,
            "-c",
            "import os; from gradcli.numerics import mkl; "
            "mkl.available(); print(os.environ['MKL_ENABLE_INSTRUCTIONS'])",
        ],
        capture_output=True,
        text=True,
        env={k: v for k, v in os.environ.items() if k != "MKL_ENABLE_INSTRUCTIONS"},
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout.strip() == "AVX2"
