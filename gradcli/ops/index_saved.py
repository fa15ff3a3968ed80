"""`grad_fn._saved_*` of the nodes basic indexing makes (SelectBackward0, SliceBackward0,
UnbindBackward0, SplitBackward0, SplitWithSizesBackward0), as PyTorch shows them.

gradcli makes one node for a key over several dims where PyTorch applies the key one dim
at a time (x[1:2, 1] is a SelectBackward0 of a SliceBackward0), skipping the slices that
take a whole dim; the node PyTorch returns is the last step's, so its values are that
step's: its dim in the tensor it indexes, that tensor's sizes, and the index or the
slice's start, end and step as the key gave them (a negative one shown as an unsigned
64-bit number, an omitted end as the largest int64)."""

from __future__ import annotations

from ..engine.saved import saved_shape, shown_int

INT64_MAX = (1 << 63) - 1


def _last_step(node):
    """(dim, sizes, component) of the last step PyTorch takes for `node.key` on a tensor
    of `node.shape`: an int selects, a slice narrows, None adds a dim."""
    key, ndim = node.key, len(node.shape)
    n_real = sum(1 for k in key if k is not None and k is not Ellipsis)
    shape, d, last, whole = list(node.shape), 0, None, None
    for k in key:
        if k is Ellipsis:
            d += max(ndim - n_real, 0)
        elif k is None:
            shape.insert(d, 1)
            d += 1
        elif isinstance(k, int):
            last = (d, tuple(shape), k)
            del shape[d]
        else:
            n = shape[d]
            if k.indices(n) != (0, n, 1):
                last = (d, tuple(shape), k)
            elif whole is None or k != slice(None):
                # a slice of a whole dim: PyTorch's node only when nothing else is
                # (x[:], narrow over a whole dim)
                whole = (d, tuple(shape), k)
            shape[d] = len(range(*k.indices(n)))
            d += 1
    return last or whole


def _step(i):
    def get(self):  # self: the node
        return _last_step(self)[i]

    return get


def _dim(node):
    given = node.given
    return shown_int(given[0] if given else _last_step(node)[0])


def _index(node):
    return shown_int(_last_step(node)[2])


def _start(node):
    k = _last_step(node)[2]
    return 0 if k.start is None else shown_int(k.start)


def _end(node):
    k = _last_step(node)[2]
    return INT64_MAX if k.stop is None else shown_int(k.stop)


def _slice_step(node):
    k = _last_step(node)[2]
    return 1 if k.step is None else k.step


def _split(node):
    return node.given[1]


SELECT = {"dim": _dim, "index": _index, "self_sym_sizes": _step(1)}
SLICE = {
    "dim": _dim,
    "end": _end,
    "self_sym_sizes": _step(1),
    "start": _start,
    "step": _slice_step,
}
UNBIND = {"dim": _dim}
SPLIT = {"dim": _dim, "self_sym_sizes": saved_shape(), "split_size": _split}
SPLIT_SIZES = {"dim": _dim, "self_sym_sizes": saved_shape(), "split_sizes": _split}

#: the `_saved_*` of each basic-indexing node PyTorch makes (by grad_fn name)
EXTRA = {
    "SelectBackward0": SELECT,
    "SliceBackward0": SLICE,
    "UnbindBackward0": UNBIND,
    "SplitBackward0": SPLIT,
    "SplitWithSizesBackward0": SPLIT_SIZES,
}
