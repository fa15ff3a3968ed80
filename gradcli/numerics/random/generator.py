"""Bit-exact NumPy re-implementation of PyTorch's CPU random generator.

This module reproduces, value for value, what ``torch.rand``, ``torch.randn``,
``torch.randint`` (and the ``*_like`` variants) return on the CPU for a given
seed, so that tutorial output printed by gradcli matches PyTorch's.  It was
written from the documented/observable behaviour of torch 2.13 (CPU build,
AVX2 kernels) and is verified against values recorded from real torch in
``tests/golden/random.json`` (see ``scripts/gen_golden.py random``); during
development 30M float32 and 5M float64 normals were also compared bitwise.

How the torch CPU generator behaves (and what we implement)
-----------------------------------------------------------
* Engine: a standard 32-bit Mersenne Twister (mt19937).  ``manual_seed(s)``
  stores the full 64-bit seed (``initial_seed()`` returns it; negative seeds
  wrap modulo 2**64) but initialises the twister with ``init_genrand(s mod
  2**32)``.  It also discards any cached normal sample.  We keep the 624-word
  state in ``numpy.random.MT19937`` (whose state array we set ourselves) and
  draw the raw 32-bit stream from it in bulk.
* ``random64()`` is two consecutive 32-bit draws, the first one being the
  high word.
* Uniform floats (``rand``):
    - float32: ``(u32 & (2**24 - 1)) * 2**-24``  (one 32-bit draw each);
    - float64: ``(u64 & (2**53 - 1)) * 2**-53``  (one 64-bit draw each).
  Elements are filled serially in C order.
* Normals (``randn``), three code paths chosen by the number of elements n:
    - n < 16 (including 0-d): a scalar Box-Muller, always in double
      precision whatever the dtype: ``u1, u2`` = two float64 uniforms,
      ``r = sqrt(-2*log1p(-u2))``, ``theta = 2*pi*u1``; it returns
      ``r*cos(theta)`` and *caches* ``r*sin(theta)`` in the generator; the
      next scalar normal (in this or any later call, float32 or float64)
      consumes the cache first.  float32 results are the rounded doubles.
      The cache survives calls to other functions (rand, large randn, ...)
      and is cleared only by ``manual_seed``.
    - n >= 16, float64: fill n float64 uniforms, then transform each
      complete block of 16 as 8 Box-Muller pairs: ``u1 = 1 - d[j]``,
      ``u2 = d[j+8]`` (j < 8), ``r = sqrt(-2*log(u1))``,
      ``theta = 2*pi*u2``, ``d[j] = r*cos(theta)``, ``d[j+8] = r*sin(theta)``.
      If n is not a multiple of 16, 16 *fresh* uniforms are drawn and
      transformed into the last 16 slots (overwriting normals already
      produced there).  Uses glibc-accurate ``log``/``sin``/``cos``.
    - n >= 16, float32: the same block structure over float32 uniforms, but
      torch's AVX2 kernel computes log/sin/cos with the vectorised
      single-precision polynomial approximations of "avx_mathfun" (cephes
      constants) and the compiler fused many multiply-adds into FMA
      instructions.  ``_box_muller16_f32`` replays that exact sequence of
      float32 operations (FMAs emulated exactly in float64, see ``_fma32``).
* ``randint(low, high)``: ``(draw % (high - low)) + low`` (wrapping like C
  uint64 arithmetic) with one 32-bit draw per element, or one 64-bit draw
  when ``high - low >= 2**28`` (this threshold was measured on torch 2.13).

Known limits of exactness
-------------------------
* Torch's *process-wide* default CPU generator is seeded from
  ``/dev/urandom`` at start-up, so unseeded ``torch.randn`` is not
  reproducible in PyTorch itself.  67280421310721 is the seed of a freshly
  constructed ``torch.Generator()``; our ``default_generator`` uses it, which
  equals torch after ``torch.manual_seed(67280421310721)``.
* float32 ``randn`` with >= 16 elements reproduces torch's **AVX2** kernel
  (what torch selects on x86-64 CPUs with AVX2, including this machine;
  ``torch.backends.cpu.get_cpu_capability() == "AVX2"``).  Under
  ``ATEN_CPU_CAPABILITY=default`` or on non-x86 CPUs torch uses the C
  library's ``logf``/``sincosf`` instead; those results differ from the AVX2 ones in the
  last bit of some elements and are not reproduced here.  AVX-512 builds
  were not available to check.
* float64 paths rely on NumPy's float64 ``log``/``sin``/``cos`` giving the
  same (correctly rounded in practice) results as glibc's.  This is checked
  once at first use on a fixed sample; if NumPy's SIMD versions disagree,
  we fall back to Python's ``math`` functions (which call the C library).
* Tensors torch fills through a non-contiguous view (e.g. ``randn_like`` of a
  transposed tensor) use the scalar path for every element; we always
  produce fresh C-contiguous arrays (the common case).
"""

from __future__ import annotations

import math
import os
from typing import Union
from collections.abc import Iterable

import numpy as np

from ..floats.fma import fma32

#: Seed of a freshly constructed ``torch.Generator()`` (c10's default_rng_seed_val).
DEFAULT_SEED = 67280421310721

__all__ = [
    "DEFAULT_SEED",
    "Generator",
]

#: Seed of a freshly constructed ``torch.Generator()`` (c10's default_rng_seed_val).

_U64_MASK = (1 << 64) - 1
_MT_N = 624
_TWO_PI = 2.0 * math.pi  # 2.0 * c10::pi<double>, exactly 6.283185307179586

ShapeLike = Union[int, Iterable[int]]  # noqa: UP007 (a runtime alias)

# torch 2.13 switches randint to 64-bit draws from this range size on (found
# empirically: 2**28 - 1 uses one 32-bit draw per element, 2**28 two), whatever the dtype.
_RANDINT_64BIT_RANGE = 1 << 28

_CHUNK_BLOCKS = 4096  # Box-Muller blocks of 16 transformed per vectorised pass


def _normalize_shape(shape: ShapeLike) -> tuple[int, ...]:
    if isinstance(shape, (int, np.integer)):
        shape = (int(shape),)
    shape = tuple(int(s) for s in shape)
    for s in shape:
        if s < 0:
            raise ValueError(f"negative dimension {s} in shape {shape}")
    return shape


def _numel(shape: tuple[int, ...]) -> int:
    n = 1
    for s in shape:
        n *= s
    return n


def _float_dtype(dtype) -> np.dtype:
    dt = np.dtype(dtype)
    if dt not in (np.dtype(np.float32), np.dtype(np.float64)):
        raise TypeError(f"unsupported dtype {dt} (only float32 and float64)")
    return dt


def _init_genrand(s: int) -> np.ndarray:
    """Knuth/Matsumoto initialisation of the 624-word mt19937 state from a 32-bit seed."""
    key = [0] * _MT_N
    x = s & 0xFFFFFFFF
    key[0] = x
    for i in range(1, _MT_N):
        x = (1812433253 * (x ^ (x >> 30)) + i) & 0xFFFFFFFF
        key[i] = x
    return np.array(key, dtype=np.uint32)


# ----------------------------------------------------------------------------
# float64 transcendental functions (must agree with glibc's log/log1p/sin/cos)
# ----------------------------------------------------------------------------

_np_f64_ok: bool | None = None


def _numpy_f64_matches_libm() -> bool:
    """Check once that NumPy's vectorised float64 log/sin/cos equal the C library's."""
    global _np_f64_ok
    if _np_f64_ok is None:
        rs = np.random.RandomState(12345)
        u = rs.random_sample(4096)
        u = np.concatenate([u, u * 1e-9, 1.0 - u * 1e-12, [0.0, 0.5, 0.25]])
        x = 1.0 - u
        th = _TWO_PI * u
        ok = True
        for npf, mf, arg in (
            (np.log, math.log, x[x > 0]),
            (np.sin, math.sin, th),
            (np.cos, math.cos, th),
        ):
            ref = np.array([mf(float(v)) for v in arg])
            if not np.array_equal(npf(arg).view(np.uint64), ref.view(np.uint64)):
                ok = False
                break
        _np_f64_ok = ok
    return _np_f64_ok


def _vlog(x: np.ndarray) -> np.ndarray:
    if _numpy_f64_matches_libm():
        return np.log(x)
    return np.fromiter((math.log(v) for v in x.ravel().tolist()), np.float64, x.size).reshape(
        x.shape
    )


def _vsin(x: np.ndarray) -> np.ndarray:
    if _numpy_f64_matches_libm():
        return np.sin(x)
    return np.fromiter((math.sin(v) for v in x.ravel().tolist()), np.float64, x.size).reshape(
        x.shape
    )


def _vcos(x: np.ndarray) -> np.ndarray:
    if _numpy_f64_matches_libm():
        return np.cos(x)
    return np.fromiter((math.cos(v) for v in x.ravel().tolist()), np.float64, x.size).reshape(
        x.shape
    )


# ----------------------------------------------------------------------------
# float32 helpers for the AVX2 Box-Muller kernel
# ----------------------------------------------------------------------------

_f32 = np.float32
_fma32 = fma32  # correctly rounded float32 a*b + c (gradcli/fma.py)


def _mask32(mask: np.ndarray) -> np.ndarray:
    """Boolean array -> uint32 all-ones / all-zeros lanes (like a SIMD compare result)."""
    return (-(mask.astype(np.int32))).view(np.uint32)


def _bits(x: np.ndarray) -> np.ndarray:
    return x.view(np.uint32)


def _from_bits(b: np.ndarray) -> np.ndarray:
    return b.view(np.float32)


# avx_mathfun / cephes single-precision constants (values as float32)
_C_ONE = _f32(1.0)
_C_HALF = _f32(0.5)
_C_MINUS_TWO = _f32(-2.0)
_C_TWO_PI_F = _f32(_TWO_PI)  # 6.2831854820251465
_C_SQRTHF = _f32(0.707106781186547524)
_LOG_P = [
    _f32(v)
    for v in (
        7.0376836292e-2,
        -1.1514610310e-1,
        1.1676998740e-1,
        -1.2420140846e-1,
        1.4249322787e-1,
        -1.6668057665e-1,
        2.0000714765e-1,
        -2.4999993993e-1,
        3.3333331174e-1,
    )
]
_LOG_Q1 = _f32(-2.12194440e-4)
_LOG_Q2 = _f32(0.693359375)
_FOPI = _f32(1.27323954473516)  # 4/pi
_M_DP1 = _f32(-0.78515625)
_M_DP2 = _f32(-2.4187564849853515625e-4)
_M_DP3 = _f32(-3.77489497744594108e-8)
_SINCOF = [_f32(v) for v in (-1.9515295891e-4, 8.3321608736e-3, -1.6666654611e-1)]
_COSCOF = [_f32(v) for v in (2.443315711809948e-5, -1.388731625493765e-3, 4.166664568298827e-2)]


def _log_avx2(u: np.ndarray) -> np.ndarray:
    """float32 natural log exactly as torch's AVX2 kernel evaluates it (1-D, u > 0)."""
    x = np.maximum(u, _f32(1.1754943508222875e-38))  # clamp denormals to FLT_MIN
    xb = _bits(x)
    e = ((xb >> np.uint32(23)).view(np.int32) - np.int32(127)).astype(np.float32)
    e = e + _C_ONE
    x = _from_bits((xb & np.uint32(0x807FFFFF)) | np.uint32(0x3F000000))  # mantissa in [0.5, 1)
    maskf = (x < _C_SQRTHF).astype(np.float32)  # 1.0 / 0.0 == "one & mask"
    tmp = x * maskf  # "x & mask" (x > 0, so x * 0.0 == +0.0)
    e = e - maskf
    x = x + _f32(-1.0)
    x = x + tmp
    z = x * x
    x64 = x.astype(np.float64)
    y = _fma32(x64, _LOG_P[0], _LOG_P[1])
    for p in _LOG_P[2:]:
        y = _fma32(x64, y, p)
    eq1 = e * _LOG_Q1
    y = y * x
    y = _fma32(y.astype(np.float64), z, eq1)
    y = y - z * _C_HALF  # fnmadd; z*0.5 is exact so this single rounding is identical
    x = x + y
    # fma(e, q2, x): e*q2 is exact in float32 (small integer times a 9-bit constant)
    x = x + e * _LOG_Q2
    invalid = u <= _f32(0.0)
    if invalid.any():
        x[invalid] = np.nan
    return x


def _sincos_avx2(theta: np.ndarray):
    """float32 (sin, cos) exactly as torch's AVX2 kernel evaluates them (1-D)."""
    tb = _bits(theta)
    sign_sin = tb & np.uint32(0x80000000)
    x = _from_bits(tb & np.uint32(0x7FFFFFFF))
    y = x * _FOPI
    j = y.astype(np.int32)  # truncation, like cvttps2dq (values are small)
    j = (j + np.int32(1)) & np.int32(~1)
    yf = j.astype(np.float32)
    ju = j.view(np.uint32)
    swap_sin = (ju & np.uint32(4)) << np.uint32(29)
    poly = _mask32((ju & np.uint32(2)) == 0)
    # extended precision modular arithmetic; the DP1/DP2 products are exact
    x = x + yf * _M_DP1
    x = x + yf * _M_DP2
    x = _fma32(yf.astype(np.float64), _M_DP3, x)
    sign_cos = (~(ju - np.uint32(2)) & np.uint32(4)) << np.uint32(29)
    sign_sin = sign_sin ^ swap_sin
    z = x * x
    z64 = z.astype(np.float64)
    tmp = z * _C_HALF
    yc = _fma32(z64, _COSCOF[0], _COSCOF[1])
    yc = _fma32(z64, yc, _COSCOF[2])
    yc = z * yc
    yc = _fma32(z64, yc, -tmp)
    yc = yc + _C_ONE
    ys = _fma32(z64, _SINCOF[0], _SINCOF[1])
    ys = _fma32(z64, ys, _SINCOF[2])
    ys = z * ys
    ys = _fma32(x.astype(np.float64), ys, x)
    ysb = _bits(ys)
    ycb = _bits(yc)
    ysin2 = _from_bits(ysb & poly)
    ysin1 = _from_bits(ycb & ~poly)
    ys = ys - ysin2
    yc = yc - ysin1
    s = ysin2 + ysin1
    c = ys + yc
    s = _from_bits(_bits(s) ^ sign_sin)
    c = _from_bits(_bits(c) ^ sign_cos)
    return s, c


def _box_muller16_f32(d: np.ndarray) -> np.ndarray:
    """Transform float32 uniforms of shape (k, 16) into normals, AVX2-kernel exact."""
    k = d.shape[0]
    u1 = (_C_ONE - d[:, :8]).ravel()
    theta = (_C_TWO_PI_F * d[:, 8:]).ravel()
    radius = np.sqrt(_log_avx2(u1) * _C_MINUS_TWO)
    s, c = _sincos_avx2(theta)
    out = np.empty_like(d)
    # fma(n, std=1, mean=0) == n + 0 (turns -0.0 into +0.0, as torch does)
    out[:, :8] = (radius * c + _f32(0.0)).reshape(k, 8)
    out[:, 8:] = (radius * s + _f32(0.0)).reshape(k, 8)
    return out


def _box_muller16_f64(d: np.ndarray) -> np.ndarray:
    """Transform float64 uniforms of shape (k, 16) into normals (glibc log/sin/cos)."""
    u1 = 1.0 - d[:, :8]
    theta = _TWO_PI * d[:, 8:]
    radius = np.sqrt(-2.0 * _vlog(u1))
    out = np.empty_like(d)
    out[:, :8] = radius * _vcos(theta) + 0.0
    out[:, 8:] = radius * _vsin(theta) + 0.0
    return out


# ----------------------------------------------------------------------------
# Generator
# ----------------------------------------------------------------------------


class Generator:
    """A PyTorch-compatible CPU random number generator (mt19937 based).

    ``Generator()`` behaves like a fresh ``torch.Generator()`` (seed
    67280421310721).  All sampling methods advance the same stream that torch
    would, in the same order, so interleaved calls stay in sync with torch.
    """

    def __init__(self, seed: int = DEFAULT_SEED):
        self._mt = np.random.MT19937(0)
        self._seed = 0
        self._next_double_normal: float | None = None
        self.manual_seed(seed)

    # --- seeding / state ---------------------------------------------------------------
    def manual_seed(self, seed: int) -> Generator:
        """Seed like ``torch.Generator.manual_seed`` (also drops any cached normal)."""
        if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)):
            try:
                seed = int(seed)
            except (TypeError, ValueError):
                raise TypeError(f"seed must be an integer, got {type(seed).__name__}")
        seed = int(seed)
        if seed < -(1 << 63) or seed > _U64_MASK:
            raise OverflowError(f"seed {seed} does not fit in 64 bits")
        seed &= _U64_MASK
        self._seed = seed
        self._mt.state = {
            "bit_generator": "MT19937",
            "state": {"key": _init_genrand(seed & 0xFFFFFFFF), "pos": _MT_N},
        }
        self._next_double_normal = None
        return self

    def initial_seed(self) -> int:
        """The (64-bit, unsigned) seed last given to ``manual_seed``."""
        return self._seed

    def seed(self) -> int:
        """Reseed from a non-deterministic source and return the new seed (like torch)."""
        s = int.from_bytes(os.urandom(8), "little")
        self.manual_seed(s)
        return s

    def get_state(self) -> dict:
        """An opaque snapshot of the full generator state (for ``set_state``)."""
        st = self._mt.state
        return {
            "seed": self._seed,
            "key": np.array(st["state"]["key"], dtype=np.uint32, copy=True),
            "pos": int(st["state"]["pos"]),
            "next_double_normal": self._next_double_normal,
        }

    def torch_state(self) -> np.ndarray:
        """The 5,056 bytes of torch's `Generator.get_state()` (CPUGeneratorImplState:
        the seed, mt19937's `left` and `next` and its 624 words, the cached normal)."""
        st = self._mt.state["state"]
        key, pos = np.asarray(st["key"], dtype=np.uint32), int(st["pos"])
        if pos == _MT_N:  # a twist before the next draw: freshly seeded, or a round done
            fresh = np.array_equal(key, _init_genrand(self._seed & 0xFFFFFFFF))
            nxt, left = (0 if fresh else _MT_N), 1
        else:
            nxt, left = pos, _MT_N + 1 - pos
        out = np.zeros(5056, dtype=np.uint8)
        head = np.array([self._seed], dtype="<u8").view(np.uint8)
        out[0:8] = head
        out[8:16] = np.array([left, 1], dtype="<i4").view(np.uint8)
        out[16:24] = np.array([nxt], dtype="<u8").view(np.uint8)
        out[24:5016] = key.astype("<u8").view(np.uint8)
        if self._next_double_normal is not None:
            out[5024:5032] = np.array([self._next_double_normal], dtype="<f8").view(np.uint8)
            out[5040:5044] = np.array([1], dtype="<i4").view(np.uint8)
        return out

    def set_torch_state(self, data: np.ndarray) -> Generator:
        """The state `torch_state` gives (torch's layout), set."""
        b = np.ascontiguousarray(data, dtype=np.uint8)
        self._seed = int(b[0:8].view("<u8")[0])
        left = int(b[8:12].view("<i4")[0])
        nxt = int(b[16:24].view("<u8")[0])
        key = b[24:5016].view("<u8").astype(np.uint32)
        pos = _MT_N if left == 1 else nxt
        self._mt.state = {"bit_generator": "MT19937", "state": {"key": key, "pos": pos}}
        valid = int(b[5040:5044].view("<i4")[0])
        self._next_double_normal = float(b[5024:5032].view("<f8")[0]) if valid else None
        return self

    def set_state(self, state: dict) -> Generator:
        self._seed = int(state["seed"])
        self._mt.state = {
            "bit_generator": "MT19937",
            "state": {"key": np.array(state["key"], dtype=np.uint32), "pos": int(state["pos"])},
        }
        self._next_double_normal = state["next_double_normal"]
        return self

    def clone(self) -> Generator:
        g = Generator.__new__(Generator)
        g._mt = np.random.MT19937(0)
        g._seed = 0
        g._next_double_normal = None
        g.set_state(self.get_state())
        return g

    # --- raw draws ---------------------------------------------------------------------
    def _raw32(self, n: int) -> np.ndarray:
        """n consecutive 32-bit outputs of mt19937 (as uint64)."""
        if n <= 0:
            return np.zeros(0, dtype=np.uint64)
        return self._mt.random_raw(n)

    def _raw64(self, n: int) -> np.ndarray:
        """n draws of torch's random64(): (first 32-bit draw << 32) | second."""
        r = self._raw32(2 * n)
        return (r[0::2] << np.uint64(32)) | r[1::2]

    def _uniform32(self, n: int) -> np.ndarray:
        r = self._raw32(n)
        return (r & np.uint64(0xFFFFFF)).astype(np.float32) * _f32(2.0**-24)

    def _uniform64(self, n: int) -> np.ndarray:
        r = self._raw32(2 * n)
        hi = (r[0::2] & np.uint64(0x1FFFFF)).astype(np.float64)
        lo = r[1::2].astype(np.float64)
        return (hi * 4294967296.0 + lo) * (2.0**-53)

    def _normal_scalar(self) -> float:
        """One sample of torch's scalar normal_distribution<double> (with its cache)."""
        cached = self._next_double_normal
        if cached is not None:
            self._next_double_normal = None
            return cached + 0.0
        u = self._uniform64(2)
        u1 = float(u[0])
        u2 = float(u[1])
        r = math.sqrt(-2.0 * math.log1p(-u2))
        theta = _TWO_PI * u1
        self._next_double_normal = r * math.sin(theta)
        return r * math.cos(theta) + 0.0

    # --- public sampling API -------------------------------------------------------------
    def rand(self, shape: ShapeLike = (), dtype=np.float32) -> np.ndarray:
        """Uniform [0, 1) samples like ``torch.rand(*shape, dtype=...)``."""
        shape = _normalize_shape(shape)
        dt = _float_dtype(dtype)
        n = _numel(shape)
        if dt == np.float32:
            flat = self._uniform32(n)
        else:
            flat = self._uniform64(n)
        return flat.reshape(shape)

    def randn(self, shape: ShapeLike = (), dtype=np.float32) -> np.ndarray:
        """Standard normal samples like ``torch.randn(*shape, dtype=...)``."""
        shape = _normalize_shape(shape)
        dt = _float_dtype(dtype)
        n = _numel(shape)
        if n < 16:
            flat = np.array([self._normal_scalar() for _ in range(n)], dtype=np.float64).astype(dt)
            return flat.reshape(shape)
        if dt == np.float32:
            uniform, transform = self._uniform32, _box_muller16_f32
        else:
            uniform, transform = self._uniform64, _box_muller16_f64
        out = uniform(n)
        k = n // 16
        blocks = out[: k * 16].reshape(k, 16)
        # chunked so that temporaries stay small (much faster than whole-array passes)
        for i in range(0, k, _CHUNK_BLOCKS):
            blocks[i : i + _CHUNK_BLOCKS] = transform(blocks[i : i + _CHUNK_BLOCKS])
        if n % 16:
            # torch redraws 16 fresh uniforms for the last 16 slots
            out[n - 16 :] = transform(uniform(16).reshape(1, 16)).ravel()
        return out.reshape(shape)

    def randint(
        self, low: int, high: int | None = None, shape: ShapeLike = (), dtype=np.int64
    ) -> np.ndarray:
        """Integers in [low, high) like ``torch.randint(low, high, shape)``.

        ``randint(high, shape=...)`` (high only) is also accepted.
        """
        if high is None:
            low, high = 0, low
        low = int(low)
        high = int(high)
        if high <= low:
            raise ValueError(
                f"random_ expects 'from' to be less than 'to', but got from={low} >= to={high}"
            )
        shape = _normalize_shape(shape)
        dt = np.dtype(dtype)
        n = _numel(shape)
        rng = high - low
        if rng >= _RANDINT_64BIT_RANGE:
            raw = self._raw64(n)
        else:
            raw = self._raw32(n)
        vals = (raw % np.uint64(rng)) + np.uint64(low & _U64_MASK)  # wraps modulo 2**64 like C
        vals = vals.view(np.int64)
        return vals.astype(dt).reshape(shape)

    def rand_like(self, x: np.ndarray, dtype=None) -> np.ndarray:
        return self.rand(np.shape(x), dtype if dtype is not None else np.asarray(x).dtype)

    def randn_like(self, x: np.ndarray, dtype=None) -> np.ndarray:
        return self.randn(np.shape(x), dtype if dtype is not None else np.asarray(x).dtype)

    def __repr__(self) -> str:
        return f"<gradcli.random.Generator initial_seed={self._seed}>"
