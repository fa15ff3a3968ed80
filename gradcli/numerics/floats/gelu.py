"""PyTorch's CPU GELU kernels (GeluKernelImpl, GeluBackwardKernelImpl), to the last bit
for float32 and float64, run as `cpu_kernel_vec` runs them (numerics/floats/tensor_iter.py:
the vector code on whole blocks of two vectors in each contiguous run, the scalar code
on the values after them); erf and tanh as each code calls them
(numerics/floats/erf_tanh.py), exp as SLEEF's (vector) or the C library's (scalar).

* approximate='none': x * 0.5 * (1 + erf(x / sqrt(2))); its backward
  g * (cdf + x * pdf) with cdf = 0.5 * (1 + erf(x / sqrt(2))), pdf = exp(-x^2 / 2) /
  sqrt(2 pi), the last multiply-add fused in the vector code (not in the scalar code);
* approximate='tanh': 0.5 * x * (1 + tanh(b * (x + k x^3))), b = sqrt(2 / pi),
  k = 0.044715, the inner multiply-add fused; its backward g * (l' + r') with
  l' = 0.5 * (1 + t), r' = 0.5 x (1 - t^2) b (1 + 3k x^2) (t the tanh; the compiler
  fuses 1 - t^2 and 1 + 3k x^2, not the final sum).

The forward's grain for at::parallel_for is numel / threads above 16,384 values.

A contiguous float32 tensor of more than one value with approximate='none' is not
ATen's kernel's: torch's build sends it to oneDNN (`onednn_gelu_erf`), whose AVX2 JIT
kernel computes erf by Abramowitz and Stegun's 7.1.26 with its own fast exp (2^n times
a degree-5 polynomial; ATen's `exp_u20` is the same) and the result as S + S * erf,
S = x / 2, fused.  (On AVX-512, oneDNN takes a minimax polynomial instead: the goldens
are recorded with ONEDNN_MAX_CPU_ISA=AVX2, as on the AVX2 machines gradcli stands for.)
"""

from __future__ import annotations

import math

import numpy as np

from .. import native
from ..parallel import GRAIN, THREADS
from .erf_tanh import exp_u20, f32fma, libm_erf, libm_tanh, sleef_tanh, vec_erf, vec_erf32
from .fma import fma
from .tensor_iter import VEC_BLOCK, split
from .torch_exp import _libm_exp, _sleef_exp

_SQRT1_2 = math.sqrt(0.5)
_BETA_TANH = math.sqrt(2) * (2 / math.sqrt(math.pi)) * 0.5  # M_SQRT2 * M_2_SQRTPI * 0.5
_BETA_ERF = (2 / math.sqrt(math.pi)) * _SQRT1_2 * 0.5  # M_2_SQRTPI * M_SQRT1_2 * 0.5
_KAPPA = 0.044715


class _Vector:
    vector = True
    erf, tanh, exp = staticmethod(vec_erf), staticmethod(sleef_tanh), staticmethod(_sleef_exp)


class _Scalar:
    vector = False
    erf, tanh, exp = staticmethod(libm_erf), staticmethod(libm_tanh), staticmethod(_libm_exp)


def _fma(a, b, c):
    t = np.asarray(a).dtype.type
    return np.asarray(fma(a, b, c, dtype=t), dtype=t)


def _run(fn, arrays, grain=GRAIN, kernel=None):
    """fn's vector and scalar code as tensor_iter.split runs them; the vector code's
    values the compiled `kernel` (native_act.py) where one is loaded for the dtype (its
    flagged values fn's)."""

    def vector(*v):
        out = None
        if kernel is not None and all(a.flags.c_contiguous for a in v):
            out = native.act(kernel, v[0].dtype, *v, exact=lambda *w: fn(_Vector, *w))
        return fn(_Vector, *v) if out is None else out

    with np.errstate(all="ignore"):
        return split(
            vector,
            lambda *v: fn(_Scalar, *v),
            arrays,
            VEC_BLOCK[arrays[0].dtype.type],
            grain,
        )


def _inner(x):
    t = x.dtype.type
    return t(_BETA_TANH) * _fma(t(_KAPPA), x * x * x, x)


def _forward(lib, x, tanh):
    t = x.dtype.type
    if tanh:
        return t(0.5) * x * (t(1) + lib.tanh(_inner(x)))
    return x * t(0.5) * (t(1) + lib.erf(x * t(_SQRT1_2)))


def _backward(lib, g, x, tanh):
    t = x.dtype.type
    if tanh:
        th = lib.tanh(_inner(x))
        left = t(0.5) * x
        dleft = t(0.5) * (t(1) + th)
        dtanh = _fma(-th, th, t(1))
        dinner = t(_BETA_TANH) * _fma(t(3) * t(_KAPPA), x * x, t(1))
        return g * (dleft + left * dtanh * dinner)
    cdf = t(0.5) * (t(1) + lib.erf(x * t(_SQRT1_2)))
    pdf = t(_BETA_ERF) * lib.exp(x * x * t(-0.5))
    return g * (_fma(x, pdf, cdf) if lib.vector else cdf + x * pdf)


def gelu(x, approximate):
    """GeluKernelImpl of a float32/float64 array."""
    x = np.asarray(x)
    grain = x.size // THREADS if x.size > 16384 else GRAIN
    tanh = approximate == "tanh"
    kernel = "gelu_tanh" if tanh else "gelu_erf_vec"
    return _run(lambda lib, v: _forward(lib, v, tanh), [x], grain, kernel)


def gelu_backward(g, x, approximate):
    """GeluBackwardKernelImpl: the gradient of gelu at x for the incoming gradient g."""
    g, x = np.broadcast_arrays(np.asarray(g, x.dtype), np.asarray(x))
    tanh = approximate == "tanh"
    kernel = "gelu_tanh_grad" if tanh else "gelu_erf_vec_grad"
    return _run(lambda lib, dy, v: _backward(lib, dy, v, tanh), [g, x], GRAIN, kernel)


def onednn_gelu_erf(x):
    """oneDNN's eltwise_gelu_erf forward (AVX2) of a float32 array."""
    out = native.act("gelu_erf", x.dtype, x, exact=_gelu_erf)  # (None: not loaded)
    return _gelu_erf(x) if out is None else out


def _gelu_erf(x):
    f = np.float32
    with np.errstate(all="ignore"):
        erf = vec_erf32(x * f(_SQRT1_2))  # (its steps are oneDNN's, exp_u20 too)
        half = x * f(0.5)
        return f32fma(erf, half, half)


_INV_SQRT_PI = np.array(0x3F106EBA, np.uint32).view(np.float32)  # (oneDNN's table: 1 ulp under)


def onednn_gelu_erf_backward(g, x):
    """oneDNN's eltwise_gelu_erf backward (AVX2) of float32 arrays: g times
    (1/2 + r e^(-r^2) / sqrt(pi)) + erf(r) / 2, r = x / sqrt(2), fused, with erf by
    Abramowitz and Stegun's 7.1.26 as in the forward and oneDNN's own exp."""
    if g.shape == x.shape and g.dtype == x.dtype and g.flags.c_contiguous:
        out = native.act("gelu_erf_grad", x.dtype, g, x, exact=_gelu_erf_backward)
        if out is not None:
            return out
    return _gelu_erf_backward(g, x)


def _gelu_erf_backward(g, x):
    f = np.float32
    with np.errstate(all="ignore"):
        r = x * f(_SQRT1_2)
        q = exp_u20(-(r * r), fused=False)
        slope = r * _INV_SQRT_PI * q
        erf = vec_erf32(r, q)
        return f32fma(erf, f(0.5), slope + f(0.5)) * g
