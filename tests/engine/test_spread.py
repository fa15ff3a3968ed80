"""vjp_arrays.spread: a whole reduction's gradient viewed at every place, made without
np.broadcast_to's layers, must be the array np.broadcast_to makes (values, dtype, shape,
zero strides, read-only: PyTorch's expand is a view that kernels see by its layout)."""

import numpy as np
import pytest

from gradcli.engine.vjp_arrays import ArrayF, spread
from gradcli.ops.reduce import Sum


@pytest.mark.parametrize("dtype", [np.float32, np.float64, ">f8", np.int64])
@pytest.mark.parametrize("shape", [(), (1,), (2000,), (3, 4), (2, 0, 5), (1, 1, 7)])
def test_spread_is_broadcast_to(dtype, shape):
    g = np.array(-0.0 if np.dtype(dtype).kind == "f" else 3, dtype)
    got, want = spread(g, shape), np.broadcast_to(g, shape)
    assert got.shape == want.shape and got.dtype == want.dtype
    assert got.strides == want.strides
    assert not got.flags.writeable
    assert got.tobytes() == want.tobytes()  # (-0.0's sign bit included)
    with pytest.raises(ValueError):
        got[...] = 1


def test_spread_of_an_array_with_dims_broadcasts():
    g = np.arange(3.0).reshape(3, 1)
    got = spread(g, (3, 4))
    assert got.strides == np.broadcast_to(g, (3, 4)).strides
    assert np.array_equal(got, np.broadcast_to(g, (3, 4)))


def test_the_gradient_of_a_whole_sum_is_one_value_viewed():
    op = Sum()
    op.forward(np.ones((2, 3)))
    (g,) = op.backward(np.array(2.0), ArrayF)
    assert g.shape == (2, 3) and g.strides == (0, 0) and (g == 2.0).all()
    assert not g.flags.writeable
