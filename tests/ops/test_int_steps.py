"""A 0-d int64 tensor and a Python int under `+`, `-` and `*` (an index drawn from a
tensor plus an offset: `data[s : s + n]`) are computed on Python's ints
(elementwise._int_step): the values, dtype and shape of the ufunc's path, wrap-around
at int64's limits included, and a recorder (a loop body noted for replay) still sees
the op; the embedding's gradient summed on the flat result is the
row-by-row sum in the indices' order."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.engine import modes
from gradcli.ops import elementwise as ew
from gradcli.ops.norm_pool import _embedding_grad

LIMIT = 2**63
VALUES = [0, 1, -1, 7, -300, 2**31, LIMIT - 1, -LIMIT, LIMIT - 5, -LIMIT + 3]
OFFSETS = [0, 1, -1, 24, -7, 2**40, LIMIT - 1, -LIMIT, 3]


@pytest.mark.parametrize("name", ["add", "sub", "mul"])
def test_int_steps_are_the_ufuncs(name):
    op = getattr(ew, name)
    cls = {"add": ew.Add, "sub": ew.Sub, "mul": ew.Mul}[name]
    for v in VALUES:
        for k in OFFSETS:
            a = Tensor(np.array(v, np.int64))
            got = op(a, k)
            ref = cls.apply2(a, k, ew.I64)  # (the node's path)
            assert got.data.dtype == np.int64 and got.data.shape == ()
            assert int(got.data) == int(ref.data), (name, v, k)
            assert not got.requires_grad and got.grad_fn is None


def test_a_recorder_notes_the_op():
    """Under a mode (a loop body being recorded for replay) the op is the node's, so
    the recorder sees it."""
    noted = []

    class Recorder:
        spoiled = False

        def note(self, cls, args, params, out):
            noted.append(cls)

    a = Tensor(np.array(5, np.int64))
    modes.set_recorder(Recorder())
    try:
        got = ew.add(a, 3)
    finally:
        modes.set_recorder(None)
    assert noted == [ew.Add] and int(got.data) == 8


def _rows(g, idx, rows, padding_idx):
    """The gradient row by row in the indices' order (NumPy's add.at on rows)."""
    d = g.shape[-1]
    out = np.zeros((rows, d), g.dtype)
    flat, gf = idx.reshape(-1), g.reshape(-1, d)
    if padding_idx is not None:
        keep = flat != padding_idx
        flat, gf = flat[keep], gf[keep]
    for i, r in enumerate(flat):
        out[r] = out[r] + gf[i]
    return out


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_embedding_grad_sums_in_the_indices_order(dt):
    rng = np.random.default_rng(2)
    for shape, rows, d, pad in (((16, 24), 30, 16, None), ((5, 7), 4, 3, 2), ((9,), 6, 1, 0)):
        g = rng.standard_normal(shape + (d,)) * 10.0 ** rng.integers(-8, 8, shape + (d,))
        g = g.astype(dt)
        g.reshape(-1)[:4] = [-0.0, np.nan, np.inf, -0.0]
        idx = rng.integers(0, rows, shape).astype(rng.choice([np.int64, np.int32]))
        got = _embedding_grad(g, idx, rows, pad)
        ref = _rows(g, idx, rows, pad)
        assert got.dtype == ref.dtype and got.shape == ref.shape
        assert got.tobytes() == ref.tobytes()
