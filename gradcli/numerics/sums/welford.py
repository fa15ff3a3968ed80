"""var and std over some dims (not all) as PyTorch's CPU kernel computes them
(ATen's std_var_kernel: `binary_kernel_reduce` with `WelfordOps`, in double).

Each output's values are taken one after the other (one reduced dim: along it; several:
in memory order, C order for a contiguous array) with Welford's update in double,
nothing fused:  n += 1; delta = x - mean; mean += delta / n; m2 += delta * (x - mean).
The compiled loop (numerics/native_norms.var_rows_ir) takes the same steps in the same
IEEE doubles once the loops are loaded.  Then var = m2 / (n - correction) (divided by 0 when n <= correction), std its square
root, both rounded once to the input's dtype.  Torch splits no output's values between
threads here (it parallelises over outputs); a reduction of every dim is another
kernel (ops/moments.py's var_all).  Checked bit for bit against torch 2.13
(tests/golden/var_dims.json).
"""

from __future__ import annotations

import numpy as np

from .. import native, native_layers

#: at most this many outputs are computed on Python floats (each value about 0.1 us);
#: more, one NumPy step per reduced value for all of them
PYTHON_ROWS = 64


def welford_var(x, axes, correction, root, keepdim):
    """var (std when `root`) of the float32/float64 array x over `axes` (sorted, not
    all of x's dims; several only for a C-contiguous x)."""
    keep = [i for i in range(x.ndim) if i not in axes]
    rows = np.transpose(x, keep + list(axes)).reshape(
        int(np.prod([x.shape[i] for i in keep], dtype=np.int64)), -1
    )
    m, n = rows.shape
    m2 = (
        native_layers.var_rows(np.ascontiguousarray(rows, np.float64))
        if native.ready(m * n)
        else None
    )
    if m2 is None:
        t0 = native.start(m * n)  # (the emulation's time: the compiled loops pay, once)
        try:
            if m <= PYTHON_ROWS:
                m2 = np.array([_m2(r) for r in rows.astype(np.float64).tolist()], np.float64)
            else:
                m2 = _m2_columns(rows)
        finally:
            native.spent(t0)
    div = float(n - correction) if n > correction else 0.0
    with np.errstate(divide="ignore", invalid="ignore"):
        var = m2 / div
        out = np.sqrt(var) if root else var
    shape = (
        tuple(1 if i in axes else s for i, s in enumerate(x.shape))
        if keepdim
        else tuple(x.shape[i] for i in keep)
    )
    return out.astype(x.dtype).reshape(shape)


def _m2(values):
    """Welford's m2 of a list of Python floats (IEEE doubles, no fused operation)."""
    mean = m2 = 0.0
    for i, v in enumerate(values, 1):
        delta = v - mean
        mean += delta / i
        m2 += delta * (v - mean)
    return m2


def _m2_columns(rows):
    """_m2 of each row of a 2-D array, the rows side by side."""
    mean = np.zeros(rows.shape[0])
    m2 = np.zeros(rows.shape[0])
    with np.errstate(invalid="ignore", over="ignore"):
        for i in range(rows.shape[1]):
            v = rows[:, i].astype(np.float64)
            delta = v - mean
            mean = mean + delta / float(i + 1)
            m2 = m2 + delta * (v - mean)
    return m2
