"""engine/piece_grads.py: the gradients of the pieces of one split/chunk/unbind gathered
into one array in the backward loop's common case, as PyTorch's one node writes them:
the same values as each piece padding its own (bar the sign of zeros, which PyTorch's
node keeps: tests/golden/hostile.json), a plain array handed to the input's step and its
.grad, and a new array where a ufunc read the open one or pieces overlap."""

from __future__ import annotations

import itertools

import numpy as np

from gradcli.core.tensor import Tensor
from gradcli.engine import autograd, piece_grads
from gradcli.library.methods import register_hook
from gradcli.ops.registry import FUNCTIONS as F


def _grads(make, data, create_graph, extra):
    """x.grad of the sum of make(x)'s pieces, each piece's gradient its own number, and
    what the hook of the pieces' input saw; extra: the input has another consumer
    (read before the pieces' array is complete); create_graph: each piece's backward runs
    (no gathering), on Tensors.  (Sums of whole numbers and halves: exact in any order.)"""
    x = Tensor(data.copy(), True)
    h = F["mul"](x, 1.5)
    seen = []
    register_hook(h, lambda g: seen.append(type(g.data)))
    total = F["sum"](h) if extra else None  # (another consumer of the input)
    for k, piece in enumerate(make(h)):
        term = F["sum"](F["mul"](piece, float(k + 2)))
        total = term if total is None else F["add"](total, term)
    autograd.run_backward([total], [None], create_graph=create_graph)
    return x.grad.data, seen


def test_pieces_gathered_give_each_piece_s_gradient():
    rng = np.random.default_rng(1)
    data = rng.standard_normal((6, 4, 5))
    makes = [
        lambda h: F["unbind"](h, 0),
        lambda h: F["unbind"](h, 2),
        lambda h: F["chunk"](h, 3, 1),
        lambda h: F["split"](h, [1, 3, 2], 0),
        lambda h: list(F["chunk"](h, 2, 0)) + list(F["unbind"](h, 1)),  # overlapping
        lambda h: F["chunk"](h, 3, 0)[1:],  # a piece unused
    ]
    for make, extra in itertools.product(makes, (False, True)):
        got, seen = _grads(make, data, False, extra)
        ref, _ = _grads(make, data, True, extra)
        assert type(got) is np.ndarray and seen == [np.ndarray]
        assert got.tobytes() == ref.tobytes()


def test_an_open_array_is_closed_by_a_ufunc():
    class Piece:  # (what gather reads of a piece's node)
        def __init__(self, x, key):
            self.parents, self.shape, self.key = (x,), (4, 3), key

    x, arrays = object(), {}
    g = np.ones(3)
    (first,) = piece_grads.gather(Piece(x, (0,)), g, arrays)
    assert type(first) is piece_grads.PieceGrad
    assert piece_grads.gather(Piece(x, (1,)), g * 2, arrays) == (None,)
    assert first.view(np.ndarray)[:2].tolist() == [[1.0] * 3, [2.0] * 3]
    assert first.view(np.ndarray)[2:].tolist() == [[0.0] * 3] * 2
    total = np.add(first, np.ones((4, 3)))
    assert type(total) is np.ndarray
    (second,) = piece_grads.gather(Piece(x, (2,)), g, arrays)  # a new one, handed on
    assert second is not first and second.view(np.ndarray)[2].tolist() == [1.0] * 3
    (third,) = piece_grads.gather(Piece(x, (slice(None), slice(0, 1))), np.ones((4, 1)), arrays)
    assert third is not second  # (another axis: a new array)
