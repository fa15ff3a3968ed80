"""The gradients of the pieces of one tensor cut by split, chunk or unbind, gathered into
one array during a backward pass, as PyTorch's one node for all the pieces writes them.

PyTorch's split (chunk, unbind) makes one node for all its outputs: its backward writes
each piece's gradient into one zero array of the input's shape and hands that on once.
gradcli's pieces are nodes of their own; each one padding its gradient into a zero array
of the whole input, the arrays then added, costs a whole array per piece (a GRU's input
gates unbound over 24 time steps: 24 zero arrays of all the steps, 23 sums of them).
Here, in a pass of the backward loop's common case (engine/autograd `_pass`: no
create_graph, hooks or tracer; a piece node with no hooks of its own), the loop gathers
the pieces (`gather`, for a node that says `cut_piece`) instead of running their
backward: the first piece of an input to run makes that array (a `PieceGrad`) with its
gradient written in and hands it on; the next pieces of that input write theirs into its
zeros (copied in: -0.0 stays, as in PyTorch's node) and hand on nothing, while the array
is still as it was handed on. A ufunc on it (the loop adding it to another gradient of
the input) gives a plain array and closes it: the next piece makes a new one, handed on
and added as before. The input's own step runs after all its pieces (its consumers), so
it sees every piece's gradient; the loop gives it the array as a plain one (`plain`).
The arrays open belong to one pass (a pass run inside a hook has its own); any other
loop runs the pieces' backward, each padding its own."""

from __future__ import annotations

import numpy as np

from .vjp_arrays import ArrayF

pad_into = ArrayF.pad_into


class PieceGrad(np.ndarray):
    """An array the pieces of one input write their gradients into (`gather`): open while
    no ufunc has read it; a ufunc's results on it are plain arrays."""

    open: bool

    def __array_ufunc__(self, ufunc, method, *inputs, out=None, **kw):
        args = []
        for a in inputs:
            if type(a) is PieceGrad:
                a.open = False
                a = a.view(np.ndarray)
            args.append(a)
        if out is not None:
            kw["out"] = tuple(o.view(np.ndarray) if type(o) is PieceGrad else o for o in out)
            for o in out:
                if type(o) is PieceGrad:
                    o.open = False
        return super().__array_ufunc__(ufunc, method, *args, **kw)  # (on plain arrays)


def plain(g):
    """A gradient a node's step gets: a PieceGrad as a plain array (the same values)."""
    return g.view(np.ndarray)


def gather(node, g, arrays):
    """The input gradients of the piece `node` (`cut_piece`: x[node.key] of an x of shape
    node.shape, the key full slices then an index or a slice of step 1) in a pass whose
    open arrays are `arrays` (id(x) -> (x, its open array, the axis cut, the (start,
    stop) written), the pass's own): (a PieceGrad of x with g written in,), or (None,)
    where g went into x's open one."""
    key = node.key
    last = key[-1]
    if type(g) is not np.ndarray:  # (a NumPy scalar: a 0-d piece's gradient)
        return (pad_into(g, node.shape, key),)
    if type(last) is int:
        lo, hi = last, last + 1
    else:
        lo, hi = last.start, last.stop
    axis = len(key) - 1
    x = node.parents[0]
    had = arrays.get(id(x))
    if had is not None:
        buf, cut, spans = had[1], had[2], had[3]
        if buf.open and cut == axis and buf.dtype == g.dtype:
            for a, b in spans:
                if lo < b and a < hi:
                    break
            else:
                buf[key] = g
                spans.append((lo, hi))
                return (None,)
    buf = np.zeros(node.shape, g.dtype).view(PieceGrad)
    buf.open = True
    buf[key] = g
    arrays[id(x)] = (x, buf, axis, [(lo, hi)])
    return (buf,)
