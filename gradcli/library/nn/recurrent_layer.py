"""One node for a whole recurrent layer (one direction of one layer of nn.GRU or a tanh
nn.RNN) in a plain backward pass, instead of some fifteen nodes a time step.

PyTorch runs such a layer as its cell's ops, step after step, each op a node of the
graph; gradcli did the same (recurrent.py `_step`), and the per-op work of making and
running those nodes was most of a small recurrent network's time.  Here the layer's
forward runs the same ops on the same arrays with grad mode off (the values are the
ops' own), keeping what the steps' backward needs; one node (`RecurrentLayer`) stands
for all the steps, and its backward makes, step by step from the last, each op's
gradient with the same array functions the ops' nodes call (`mm_grads`, `sum_to`,
tanh's and sigmoid's backward kernels), added in the order PyTorch's engine adds them:
a step's output gradient first, then the next step's `h - n` (GRU) and last its
product with the hidden weights; the weights' and bias's per-step gradients summed
from the last step to the first, as their leaf's buffer takes them.

The node's output is the steps' outputs with the final state as one more row; the
layer's output and its final state are two views of it, nodes named as PyTorch's
(StackBackward0: the outputs stacked; the final state's node is the last op of its
cell's step, AddBackward0 for GRU, TanhBackward0 for RNN) whose backward pads its
gradient into an array of -0.0 (adding -0.0 changes no value, so the two views'
gradients add up to each one's own values where the other gave none).

A backward with create_graph runs the layer again as its ops and differentiates those:
the first gradients are the same, but a gradient of them reaches the inputs through that
graph and this node's own backward separately, so its sums may differ in the last bits
from the per-step ops' (whose GRU sums already differ from PyTorch's there).  The cell modules, LSTM, relu RNNs, other dtypes
and the active modes (forward-mode AD, saved-tensor hooks, a loop being recorded) keep
the ops of each step (recurrent.py)."""

from __future__ import annotations

import numpy as np

from ...engine.autograd import run_backward
from ...engine.declare import none
from ...engine.function import Function
from ...engine.modes import state as modes
from ...engine.vjp_arrays import sum_to
from ...core.tensor import Tensor
from ...numerics.mkl import mm_grads
from ...ops.registry import FUNCTIONS
from ...ops.fused_grads import sigmoid_backward_values, tanh_backward_values
from ...runtime import context

#: the cell modes one node runs, and the name of the last op of a step (the final
#: state's grad_fn)
MODES = {"GRU": "AddBackward0", "RNN_TANH": "TanhBackward0"}


def fits(mode, ig):
    """Whether a layer of `mode` on input gates `ig` (a Tensor) runs as one node."""
    return mode in MODES and ig.data.dtype.char in "fd" and not modes.on


class RecurrentLayer(Function):
    """The steps of one layer direction: inputs (input gates of all steps (T, B, G),
    initial state (B, H), hidden weights (G, H), their bias (G,) or None); output
    (T + 1, B, H), the steps' outputs in time order, then the final state."""

    name = "RecurrentLayerBackward"
    jvp = none("forward-mode AD runs the layer as its cell's ops (recurrent.py)")
    saved_names = none("PyTorch has no such node: its steps' nodes save their values")
    formula = none("no formula rule: the layer's steps are its cell's ops")

    def forward(self, ig, h0, w, b, mode, reverse, step):
        self.mode, self.reverse = mode, reverse
        steps = ig.shape[0]
        order = range(steps - 1, -1, -1) if reverse else range(steps)
        ctx = context.current
        prev = ctx.grad_enabled
        ctx.grad_enabled = False
        try:
            wt, bt = Tensor(w), None if b is None else Tensor(b)
            h = Tensor(h0)
            out = np.empty((steps + 1,) + h0.shape, h0.dtype)
            tape = []
            for t in order:
                kept: list = []
                h_new = step(mode, Tensor(ig[t]), h, wt, bt, kept)
                tape.append((t, h.data, *kept))
                out[t] = h_new.data
                h = h_new
            out[steps] = h.data
        finally:
            ctx.grad_enabled = prev
        # (the steps' values beside the saved inputs, which a backward with create_graph
        # sees as Tensors; held while the graph is)
        self.tape = tape
        self.save(w, h0, w.T)
        return out

    def backward(self, g, F, w, h0, wt):
        if F.tensor_mode:
            return self._again(g)
        tape = self.tape
        need_ig, need_h0, need_w, need_b = self.needs
        steps = len(tape)
        g_ig = np.empty((steps, g.shape[1], w.shape[0]), g.dtype)
        gw = gb = carry = None
        gru = self.mode == "GRU"
        for k in range(steps - 1, -1, -1):
            t, h, *kept = tape[k]
            gh = g[t]
            if k == steps - 1:
                gh = gh + g[steps]
            else:
                for c in carry:
                    gh = gh + c
            if gru:
                r, z, n, hnew, d = kept
                gd = gh * z
                gz = gh * d
                ga = tanh_backward_values(gh + -gd, n)
                ghnew = ga * r
                gr = ga * hnew
                size = z.shape[1]
                gs = np.zeros(g_ig.shape[1:], g.dtype)
                gs[:, :size] = sigmoid_backward_values(gr, r)
                gs[:, size : 2 * size] = sigmoid_backward_values(gz, z)
                pad = np.zeros(gs.shape, g.dtype)
                pad[:, 2 * size :] = ghnew
                ghg = pad + gs
                pad = np.zeros(gs.shape, g.dtype)
                pad[:, 2 * size :] = ga
                g_ig[t] = pad + gs
            else:
                ghg = tanh_backward_values(gh, kept[0])
                g_ig[t] = ghg
            if need_b:
                s = sum_to(ghg, w.shape[:1])
                gb = s if gb is None else gb + s
            first = k == 0
            g_h, g_wt = mm_grads(ghg, h, wt, need_h0 or not first, need_w, F)
            if need_w:
                gw = g_wt.T if gw is None else gw + g_wt.T
            carry = (gd, g_h) if gru else (g_h,)
        g_h0 = None
        if need_h0:
            g_h0 = carry[0]
            for c in carry[1:]:
                g_h0 = g_h0 + c
        return (g_ig if need_ig else None, g_h0, gw, gb)

    def _again(self, g):
        """The inputs' gradients under create_graph: the layer run again as its cell's
        ops (a graph of its own), differentiated with the graph made."""
        ig, h0, w, b = self.inputs
        out, final = self.ops(self.mode, ig, h0, w, b, self.reverse)
        steps = int(out.data.shape[0])
        heads = [FUNCTIONS["narrow"](g, 0, 0, steps), FUNCTIONS["select"](g, 0, steps)]
        wanted = [x for x, n in zip(self.inputs, self.needs) if n]
        got = iter(run_backward([out, final], heads, True, True, inputs=wanted, allow_unused=True))
        return tuple(next(got) if n else None for n in self.needs)


class _Part(Function):
    """A view of the layer node's output (its steps' rows, or the final state's row) as
    a node of PyTorch's name for that tensor's grad_fn; its gradient padded into -0.0."""

    __slots__ = ("shape", "key")
    jvp = none("forward-mode AD runs the layer as its cell's ops (recurrent.py)")
    saved_names = ()
    formula = none("no formula rule: the layer's steps are its cell's ops")
    zeros_through = False

    def forward(self, x, key):
        self.shape, self.key = x.shape, key
        return x[key]

    def backward(self, g, F):
        if F.tensor_mode:
            return (F.pad_into(g, self.shape, self.key),)
        out = np.full(self.shape, -0.0, g.dtype)
        out[self.key] = g
        return (out,)


_PARTS = {
    name: type(name, (_Part,), {"__slots__": (), "name": name})
    for name in {"StackBackward0", *MODES.values()}
}


def run(mode, ig, h0, w, b, reverse, step, ops):
    """(the layer's outputs (T, B, H), its final state (B, H)) as Tensors: one node for
    the steps (`fits` said so); `step` is the cell's step on Tensors, `ops` the layer as
    its cell's ops (for a backward with create_graph)."""
    ext = RecurrentLayer.apply(ig, h0, w, b, mode=mode, reverse=reverse, step=step)
    node = ext.grad_fn
    if node is not None:
        node.inputs = (ig, h0, w, b)
        node.ops = ops
    steps = ext.data.shape[0] - 1
    out = _PARTS["StackBackward0"].apply(ext, key=(slice(0, steps),))
    return out, _PARTS[MODES[mode]].apply(ext, key=(steps,))
