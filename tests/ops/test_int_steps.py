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


def test_a_slice_by_numbers_or_index_tensors_is_norm_keys():
    """x[a:b] takes the slice's own path (indexing.index): the key, node and view
    `_norm_key` gives, and its errors."""
    from gradcli.ops.indexing import _norm_key, index
    from gradcli.runtime.errors import GradError

    x = Tensor(np.arange(24.0).reshape(6, 4))
    i, j = Tensor(np.array(2, np.int64)), Tensor(np.array(-1, np.int64))
    keys = [slice(1, 4), slice(None), slice(i, j), slice(-3, None), slice(0, 6, 2)]
    keys += [slice(i, None, 2), slice(10, 20), slice(-100, 2), slice(j, i)]
    for key in keys:
        got = index(x, key)
        k, name, adv = _norm_key(key, x.data.shape, True, [])
        assert np.shares_memory(got.data, x.data) or not got.data.size
        assert not adv and name == "SliceBackward0"
        assert got.data.tobytes() == x.data[k].tobytes() and got.data.shape == x.data[k].shape
        assert got.view_of[0] is x
    for key in (slice(1, 3, 0), slice(1.5, 3), slice(1, 3, -1), slice(Tensor(np.array(1.0)), 3)):
        with pytest.raises(GradError) as a:
            index(x, key)
        with pytest.raises(GradError) as b:
            _norm_key(key, x.data.shape, True, [])
        assert a.value.message == b.value.message
