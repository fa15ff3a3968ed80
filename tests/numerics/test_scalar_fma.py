"""The fused multiply-add of three numbers (`fma.one_rounding`, the step `fma` takes for
0-d operands): the exact value rounded once, checked against exact rational arithmetic
(Fraction) on random doubles and float32 values across their ranges, on the float32 cases
where rounding the double again would differ, and on the signs of exact zeros."""

from __future__ import annotations

import math
import random
import struct
from fractions import Fraction

import numpy as np
import pytest

from gradcli.numerics.floats.fma import fma, one_rounding

F32_MAX = Fraction(float(np.finfo(np.float32).max))


def _zero(a, b, c):
    """IEEE's sum of an exact zero: -0.0 only from two zeros of the sign -0.0."""
    if c != 0 or (a != 0 and b != 0):
        return 0.0
    negative = math.copysign(1, a) * math.copysign(1, b) < 0
    return -0.0 if negative and math.copysign(1, c) < 0 else 0.0


def ref64(a, b, c):
    x = Fraction(a) * Fraction(b) + Fraction(c)
    if x == 0:
        return _zero(a, b, c)
    try:
        return float(x)
    except OverflowError:
        return math.inf if x > 0 else -math.inf


def ref32(a, b, c):
    """The float32 nearest the exact value (ties to the even one), by looking at the
    neighbours of a close candidate."""
    x = Fraction(a) * Fraction(b) + Fraction(c)
    if x == 0:
        return _zero(a, b, c)
    if abs(x) >= F32_MAX + Fraction(2) ** 103:  # (the midpoint below 2**128 and beyond)
        return math.inf if x > 0 else -math.inf
    f = np.float32(float(x))
    best = None
    for cand in (np.nextafter(f, np.float32(-np.inf)), f, np.nextafter(f, np.float32(np.inf))):
        if np.isfinite(cand):
            key = (abs(Fraction(float(cand)) - x), int(np.array(cand).view(np.uint32)) & 1)
            if best is None or key < best[0]:
                best = (key, float(cand))
    return best[1]


def _bits(v, fmt):
    return struct.pack(fmt, v)


def _double(rnd):
    k = rnd.random()
    if k < 0.3:
        return rnd.uniform(-2, 2)
    if k < 0.5:
        return rnd.choice([0.0, -0.0, 1.0, -1.0, 0.5, 2.0**-1074, 2.0**-1022, 1.7e308, 3.0])
    return math.ldexp(rnd.uniform(-1, 1), rnd.randint(-1074, 1023))


def _single(rnd):
    k = rnd.random()
    if k < 0.4:
        v = rnd.uniform(-2, 2)
    elif k < 0.5:
        v = rnd.choice([0.0, -0.0, 1.0, -1.0, 0.5])
    else:
        v = math.ldexp(rnd.uniform(-1, 1), rnd.randint(-149, 127))
    return float(np.float32(v))


def test_doubles_are_rounded_once():
    rnd = random.Random(5)
    for _ in range(20000):
        a, b, c = _double(rnd), _double(rnd), _double(rnd)
        assert _bits(one_rounding(a, b, c), "<d") == _bits(ref64(a, b, c), "<d"), (a, b, c)


def test_singles_of_moderate_size_from_any_doubles():
    # the quick way rounds the exact sum to odd before float32: operands that are not
    # float32 values, sums within a double of a float32 midpoint, cancellations
    rnd = random.Random(9)
    u = 2.0**-24
    for _ in range(30000):
        a = math.ldexp(rnd.uniform(-1, 1), rnd.randint(-60, 60)) or 1.0
        b = math.ldexp(rnd.uniform(-1, 1), rnd.randint(-60, 60)) or 1.0
        k = rnd.random()
        if k < 0.3:  # a float32 midpoint plus or minus a little
            mid = float(np.float32(rnd.uniform(1, 2))) + u
            c = mid * 2.0 ** rnd.randint(-30, 30) - a * b
        elif k < 0.5:
            c = -(a * b) * (1 + rnd.choice([0.0, 2.0**-52, -(2.0**-52), 2.0**-30]))
        elif k < 0.7:
            a, b = float(np.float32(a)), float(np.float32(b))
            c = float(np.float32(math.ldexp(rnd.uniform(-1, 1), rnd.randint(-140, 100))))
        else:
            c = math.ldexp(rnd.uniform(-1, 1), rnd.randint(-200, 119))
        got = one_rounding(a, b, c, True)
        assert _bits(got, "<f") == _bits(ref32(a, b, c), "<f"), (a, b, c)


def test_singles_are_rounded_once():
    rnd = random.Random(6)
    for _ in range(20000):
        a, b, c = _single(rnd), _single(rnd), _single(rnd)
        if rnd.random() < 0.3:  # tanh's backward: 1 - y*y
            b, c = -a, 1.0
        got = one_rounding(a, b, c, True)
        assert _bits(got, "<f") == _bits(ref32(a, b, c), "<f"), (a, b, c)


def test_singles_where_the_double_lands_on_a_midpoint():
    # c + a*b within a double's rounding of halfway between two float32 values: the
    # double is the midpoint, and the exact value's side decides
    rnd = random.Random(7)
    u = 2.0**-23
    again = 0
    for _ in range(3000):
        c = float(np.float32(rnd.uniform(1, 2))) * rnd.choice([1, -1])
        a = 2.0**-24 * (1 + u) * rnd.choice([1, 0.5, 2]) * rnd.choice([1, 1 + 2 * u])
        a = float(np.float32(a * rnd.choice([1, -1])))
        b = float(np.float32(rnd.choice([1 - u, 1 + u, 1 - 2 * u, 1.0])))
        want = ref32(a, b, c)
        again += float(np.float32(a * b + c)) != want
        assert _bits(one_rounding(a, b, c, True), "<f") == _bits(want, "<f"), (a, b, c)
    assert again > 20  # (the cases rounding twice gets wrong were among them)


@pytest.mark.parametrize("single", [False, True])
def test_exact_zeros_keep_ieee_signs(single):
    for a in (0.0, -0.0, 1.0, -1.0):
        for b in (0.0, -0.0, 2.0):
            for c in (0.0, -0.0, -a * b if a * b else 1.0):
                got = one_rounding(a, b, c, single)
                want = ref64(a, b, c)
                assert math.copysign(1, got) == math.copysign(1, want) and got == want


def test_fma_of_0d_arrays_takes_it():
    y = np.array(0.3)
    r = fma(y, -y, 1)
    assert type(r) is np.ndarray and r.shape == () and r.dtype == np.float64
    assert r.item() == ref64(0.3, -0.3, 1.0)
    y32 = np.array(0.3, np.float32)
    r = fma(y32, -y32, 1, dtype=np.float32)
    assert r.dtype == np.float32 and r.shape == ()
    assert r.item() == ref32(float(y32), -float(y32), 1.0)


def _moderate(rnd):
    """A double one_rounding's quick way (Dekker's product and fsum) takes."""
    return math.ldexp(rnd.uniform(-1, 1), rnd.randint(-400, 400)) or 1.0


def test_doubles_of_moderate_size_near_cancellation_and_ties():
    # the quick way's cases: c cancelling the product to within a few ulps, c of any size
    # beside it, products that are exact (a tie of `p + c` rounded once) and the bounds
    rnd = random.Random(8)
    for _ in range(30000):
        a, b = _moderate(rnd), _moderate(rnd)
        k = rnd.random()
        if k < 0.4:
            c = -(a * b) * (1 + rnd.choice([0.0, 2.0**-52, -(2.0**-52), 2.0**-30, 2.0**-80]))
        elif k < 0.6:  # a product of few bits, c a tie away
            a = float(rnd.randint(1, 1 << 20)) * 2.0 ** rnd.randint(-60, 60)
            b = float(rnd.randint(1, 1 << 20))
            c = math.ldexp(1.0, rnd.randint(-20, 120)) * rnd.choice([1, -1])
        elif k < 0.7:
            a = math.ldexp(1 + rnd.random(), rnd.choice([-880, -879, 959, 960, -300]))
            b = math.ldexp(1 + rnd.random(), rnd.choice([-1, 0, 40, -600]))
            c = math.ldexp(rnd.uniform(-1, 1), rnd.choice([999, 1000, 1023, 0, -1074]))
        else:
            c = math.ldexp(rnd.uniform(-1, 1), rnd.randint(-1074, 1023))
        assert _bits(one_rounding(a, b, c), "<d") == _bits(ref64(a, b, c), "<d"), (a, b, c)


def test_singles_of_moderate_size_from_any_doubles():
    # the quick way rounds the exact sum to odd before float32: operands that are not
    # float32 values, sums within a double of a float32 midpoint, cancellations
    rnd = random.Random(9)
    u = 2.0**-24
    for _ in range(30000):
        a = math.ldexp(rnd.uniform(-1, 1), rnd.randint(-60, 60)) or 1.0
        b = math.ldexp(rnd.uniform(-1, 1), rnd.randint(-60, 60)) or 1.0
        k = rnd.random()
        if k < 0.3:  # a float32 midpoint plus or minus a little
            mid = float(np.float32(rnd.uniform(1, 2))) + u
            c = mid * 2.0 ** rnd.randint(-30, 30) - a * b
        elif k < 0.5:
            c = -(a * b) * (1 + rnd.choice([0.0, 2.0**-52, -(2.0**-52), 2.0**-30]))
        elif k < 0.7:
            a, b = float(np.float32(a)), float(np.float32(b))
            c = float(np.float32(math.ldexp(rnd.uniform(-1, 1), rnd.randint(-140, 100))))
        else:
            c = math.ldexp(rnd.uniform(-1, 1), rnd.randint(-200, 119))
        got = one_rounding(a, b, c, True)
        assert _bits(got, "<f") == _bits(ref32(a, b, c), "<f"), (a, b, c)
