"""torch_exp.sigmoid on layouts whose every value takes the vector code (a recurrent
cell's gates: column slices of one product, rows of whole blocks) runs the compiled
kernel on the values in C order (`tensor_iter.all_vector` says when): the bits of the
kernel's walk (`split`, the NumPy emulation) on every layout, whether or not it is all
vector code, and `all_vector` agrees with the walk's own mask."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.numerics import native
from gradcli.numerics.floats import tensor_iter, torch_exp
from gradcli.numerics.parallel import GRAIN


def _same(got, ref):
    got, ref = np.asarray(got), np.asarray(ref)
    assert got.shape == ref.shape and got.dtype == ref.dtype
    assert got.tobytes() == np.ascontiguousarray(ref).tobytes()


def _layouts(rng, dt):
    """Gate slices of (rows, chunks * width) arrays, transposed and stepped views, and
    contiguous arrays around the grain: widths that are and are not whole blocks."""
    for width in (1, 7, 8, 16, 20, 24, 40, 48, 50, 64):
        for rows in (1, 3, 16):
            for chunks in (1, 3, 4):
                big = (rng.standard_normal((rows, chunks * width)) * 6).astype(dt)
                for k in range(chunks):
                    yield big[:, k * width : (k + 1) * width]
                yield big.T
                yield big[::2]
    for n in (GRAIN - 16, GRAIN, GRAIN + 8, GRAIN + 16, 2 * GRAIN + 48):
        yield (rng.standard_normal(n) * 6).astype(dt)
        yield (rng.standard_normal((2, n // 2)) * 6).astype(dt)[:, 1:]


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_all_vector_layouts_give_the_walks_bits(dt, monkeypatch):
    if native._state["lib"] is False:  # (not loaded yet: load it now, not by the budget)
        monkeypatch.setitem(native._state, "cost", 0.0)
    if native.ready(1) is None:
        pytest.skip("the compiled loops are off")
    rng = np.random.default_rng(4 + (dt is np.float32))
    step = tensor_iter.VEC_BLOCK[dt]
    seen = {True: 0, False: 0}
    for x in _layouts(rng, dt):
        x.reshape(-1)[:1] = np.nan  # (a flagged value: NumPy's steps for it)
        whole = bool(tensor_iter.all_vector(x, step))
        _, vector, _ = tensor_iter.plan([x], step)
        assert whole == (vector is True), (x.shape, x.strides)
        seen[whole] += 1
        with np.errstate(all="ignore"):
            got = torch_exp.sigmoid(x)
            walked = tensor_iter.split(
                torch_exp._vector_sigmoid,
                lambda v: torch_exp._sigmoid(torch_exp._libm_exp, v),
                (x,),
                step,
            )
            with native.numpy_only():
                emulated = torch_exp.sigmoid(x)
        _same(got, walked)
        _same(got, emulated)
    assert seen[True] and seen[False]
