"""nll_loss's classes found once for the same target values (`loss._nll_index` keeps the
last ones without a weight): a target changed in place, another target, an ignored
sample or a class out of bounds are each found again, with the results of a run that
kept nothing."""

from __future__ import annotations

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.ops import loss
from gradcli.runtime.errors import GradIndexError


def _loss(x, t, **kw):
    out = loss.nll_loss(Tensor(x), Tensor(t), **kw)
    return out.data.tobytes()


def _fresh(x, t, **kw):
    loss._NLL_LAST.clear()
    got = _loss(x, t, **kw)
    loss._NLL_LAST.clear()
    return got


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_kept_classes_follow_the_target(dtype):
    rng = np.random.default_rng(1)
    x = rng.standard_normal((6, 4)).astype(dtype)
    t = np.array([0, 3, 1, 1, 2, 0])
    for reduction in ("mean", "sum", "none"):
        assert _loss(x, t, reduction=reduction) == _fresh(x, t, reduction=reduction)
        assert _loss(x, t, reduction=reduction) == _fresh(x, t, reduction=reduction)
    kept = loss._nll_index(x, t, None, -100)
    assert loss._nll_index(x, t, None, -100) is kept
    assert not any(a.flags.writeable for a in kept[:5]) and kept[5] is True
    t[2] = 3  # the same array, changed in place
    assert _loss(x, t) == _fresh(x, t)
    t[4] = -100  # an ignored sample
    assert _loss(x, t) == _fresh(x, t)
    t[4] = 1
    assert _loss(x, t, ignore_index=3) == _fresh(x, t, ignore_index=3)
    assert _loss(x[:, :3], t.clip(0, 2)) == _fresh(x[:, :3], t.clip(0, 2))
    assert _loss(x[0], t[0]) == _fresh(x[0], t[0])


def test_a_class_out_of_bounds_after_kept_ones():
    x = np.zeros((3, 4))
    t = np.array([1, 2, 3])
    _loss(x, t)
    t[1] = 4
    with pytest.raises(GradIndexError, match="Target 4 is out of bounds."):
        _loss(x, t)
    with pytest.raises(GradIndexError, match="Target 3 is out of bounds."):
        _loss(x[:, :3], np.array([1, 2, 3]))


@pytest.mark.parametrize("dtype", [np.float64, np.float32])
def test_targets_in_bounds_find_what_a_unit_weight_finds(dtype):
    # (every class in bounds and the ignored index out of them: the arrays of the shape,
    # made once and read-only, and the flat positions of these targets)
    rng = np.random.default_rng(3)
    for n, c in ((32, 27), (5, 2), (1, 7), (64, 10)):
        x = rng.standard_normal((n, c)).astype(dtype)
        for ignore_index in (-100, c, 10**6):
            for _ in range(4):
                t = rng.integers(0, c, n)
                got = loss._nll_found(x, t, None, ignore_index)
                ref = loss._nll_found(x, t, np.ones(c, dtype), ignore_index)
                assert got[5] is ref[5] is True
                for a, b in zip(got[:5], ref[:5]):
                    assert a.dtype == b.dtype and a.shape == b.shape
                    assert a.tobytes() == b.tobytes()
                assert not any(a.flags.writeable for a in (got[0], got[2], got[3]))
                again = loss._nll_found(x, rng.integers(0, c, n), None, ignore_index)
                assert again[2] is got[2] and again[1] is not got[1]
    x = rng.standard_normal((4, 3)).astype(dtype)
    got = loss._nll_found(x, np.array([0, 2, 1, 2]), None, 2)  # (an ignored class)
    assert got[3].tolist() == [True, False, True, False] and got[5] is False
    for bad in (-1, 3):
        with pytest.raises(GradIndexError, match=f"Target {bad} is out of bounds."):
            loss._nll_found(x, np.array([0, bad, 1, 2]), None, -100)
    got = loss._nll_found(x[0], np.array(1), None, -100)  # (one sample: no rows)
    assert got[4].tolist() == [1] and got[1].tolist() == [1]
