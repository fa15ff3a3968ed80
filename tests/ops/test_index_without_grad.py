"""A slice of a tensor that requires no grad, and its unbind (`for row in x`), make no
node (what `Function.apply` would give without one): the same arrays, views of the
tensor's storage, the slice sharing its version counter and base, a step into it seen
by the tensor; a tensor that requires grad still gets its node."""

from __future__ import annotations

import numpy as np

from gradcli.core.tensor import Tensor
from gradcli.engine.versions import counter
from gradcli.ops import indexing


def _same(a, b):
    return (a.dtype, a.shape, a.strides, a.tobytes()) == (b.dtype, b.shape, b.strides, b.tobytes())


def test_slices_and_pieces_as_the_nodes_give_them():
    rng = np.random.default_rng(0)
    for data in (rng.integers(0, 9, 20), rng.standard_normal((6, 3)), np.arange(4.0)[::2]):
        x = Tensor(data)
        for key in (slice(1, 4), slice(None, None, 2), slice(-3, None), slice(5, 2)):
            got = indexing.index(x, key)
            k = (slice(*indexing.slice_bounds(key)),)
            ref = indexing._node_class("SliceBackward0").apply(x, key=k, adv=False)
            assert _same(got.data, ref.data)
            assert np.shares_memory(got.data, data) or not got.data.size
            assert got.grad_fn is None and not got.requires_grad
            assert got.view_of[0] is x and got.vc is counter(x)
        got = indexing.unbind(x)
        cls = indexing._node_class("UnbindBackward0", True)
        ref = [cls.apply(x, key=(i,), adv=False, given=(0, None)) for i in range(len(data))]
        assert type(got) is tuple and len(got) == len(ref)
        for a, b in zip(got, ref):
            assert _same(a.data, b.data) and np.shares_memory(a.data, data)
            assert a.grad_fn is None and not a.requires_grad
        if data.ndim == 2:
            cols = indexing.unbind(x, 1)
            assert [c.data.tolist() for c in cols] == [list(r) for r in data.T]


def test_a_step_into_a_slice_reaches_the_tensor():
    x = Tensor(np.arange(6.0))
    s = indexing.index(x, slice(Tensor(np.array(1)), Tensor(np.array(4))))
    s.data += 10
    assert x.data.tolist() == [0.0, 11.0, 12.0, 13.0, 4.0, 5.0]


def test_a_tensor_that_requires_grad_gets_its_nodes():
    x = Tensor(np.arange(6.0), True)
    assert indexing.index(x, slice(1, 3)).grad_fn.name == "SliceBackward0"
    assert indexing.unbind(x)[2].grad_fn.name == "UnbindBackward0"
