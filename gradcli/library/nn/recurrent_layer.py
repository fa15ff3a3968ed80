"""One node for a whole recurrent layer (one direction of one layer of nn.RNN, nn.GRU or
nn.LSTM) in a plain backward pass, instead of four to fifteen nodes a time step.

PyTorch runs such a layer as its cell's ops, step after step, each op a node of the
graph; gradcli did the same (recurrent.py `_step`), and the per-op work of making and
running those nodes was most of a small recurrent network's time.  Here the layer's
forward runs each op's forward alone on the same arrays (recurrent.py `_step` on arrays:
the values are the ops' own), keeping what the steps' backward needs; one node (`RecurrentLayer`) stands
for all the steps, and its backward makes, step by step from the last, each op's
gradient with the same array functions the ops' nodes call (`mm_grads`, `sum_to`,
tanh's, sigmoid's and relu's backward kernels, a chunk's pieces written into zeros),
added in the order PyTorch's engine adds them: a step's output gradient first, then the
next step's `h - n` (GRU) and last its product with the hidden weights; the weights' and
bias's per-step gradients summed from the last step to the first, as their leaf's buffer
takes them.

The node's output is the steps' outputs with the final state (an LSTM's: then its final
cell state) as more rows; what the layer returns are views of it, nodes named as
PyTorch's (StackBackward0: the outputs stacked; a final state's node is the op of its
cell's step that made it: AddBackward0 for GRU's h and LSTM's c, MulBackward0 for LSTM's
h, TanhBackward0 or ReluBackward0 for RNN's) whose backward pads its gradient into an
array of -0.0 (adding -0.0 changes no value, so the views' gradients add up to each
one's own values where the others gave none).

A backward with create_graph runs the layer again as its ops and differentiates those:
the first gradients are the same, but a gradient of them reaches the inputs through that
graph and this node's own backward separately, so its sums may differ in the last bits
from the per-step ops' (whose GRU sums already differ from PyTorch's there).  The cell
modules, other dtypes and the active modes (forward-mode AD, saved-tensor hooks, a loop
being recorded) keep the ops of each step (recurrent.py)."""

from __future__ import annotations

import numpy as np

from ...engine.autograd import run_backward
from ...engine.declare import none
from ...engine.function import Function
from ...engine.modes import state as modes
from ...engine.vjp_arrays import sum_to
from ...numerics.mkl import mm_grads, torch_mm
from ...numerics.native_layers import gru_backward, gru_forward, lstm_backward, lstm_forward
from ...ops.registry import FUNCTIONS
from ...ops.fused_grads import sigmoid_backward_values, tanh_backward_values
from ...ops.unary import masked_grad

#: the cell modes one node runs, and the names of the last ops of a step (the final
#: states' grad_fn: h, and an LSTM's c)
MODES = {
    "GRU": ("AddBackward0",),
    "RNN_TANH": ("TanhBackward0",),
    "RNN_RELU": ("ReluBackward0",),
    "LSTM": ("MulBackward0", "AddBackward0"),
}


def fits(mode, ig):
    """Whether a layer of `mode` on input gates `ig` (a Tensor) runs as one node."""
    return mode in MODES and ig.data.dtype.char in "fd" and not modes.on


class RecurrentLayer(Function):
    """The steps of one layer direction: inputs (input gates of all steps (T, B, G),
    initial state (B, H), an LSTM's initial cell state (B, H) or None, hidden weights
    (G, H), their bias (G,) or None); output (T + 1, B, H), the steps' outputs in time
    order, then the final state (an LSTM's: (T + 2, B, H), the final cell state last)."""

    name = "RecurrentLayerBackward"
    jvp = none("forward-mode AD runs the layer as its cell's ops (recurrent.py)")
    saved_names = none("PyTorch has no such node: its steps' nodes save their values")
    formula = none("no formula rule: the layer's steps are its cell's ops")

    def forward(self, ig, h0, c0, w, b, mode, reverse, step):
        self.mode, self.reverse = mode, reverse
        steps = ig.shape[0]
        order = range(steps - 1, -1, -1) if reverse else range(steps)
        lstm = mode == "LSTM"
        h = (h0, c0) if lstm else h0
        out = np.empty((steps + 1 + lstm,) + h0.shape, h0.dtype)
        tape = []
        for t in order:
            kept: list = []
            h_new = None
            if mode == "GRU":
                h_new = _gru_fused(ig[t], h, w, b, kept, out[t])
            elif lstm:
                h_new = _lstm_fused(ig[t], h, w, b, kept, out[t])
            if h_new is None:
                kept = []
                h_new = step(mode, ig[t], h, w, b, kept)
            tape.append((t, h[0] if lstm else h, *kept))
            out[t] = h_new[0] if lstm else h_new
            h = h_new
        if lstm:
            out[steps], out[steps + 1] = h
        else:
            out[steps] = h
        # (the steps' values beside the saved inputs, which a backward with create_graph
        # sees as Tensors; held while the graph is)
        self.tape = tape
        self.save(w, h0, w.T)
        return out

    def backward(self, g, F, w, h0, wt):
        if F.tensor_mode:
            return self._again(g)
        tape = self.tape
        need_ig, need_h0, need_c0, need_w, need_b = self.needs
        steps = len(tape)
        g_ig = np.empty((steps, g.shape[1], w.shape[0]), g.dtype)
        gw = gb = carry = g_c = None
        mode = self.mode
        for k in range(steps - 1, -1, -1):
            t, h, *kept = tape[k]
            adds = (g[steps],) if k == steps - 1 else carry
            if mode == "LSTM" and k == steps - 1:
                g_c = g[steps + 1]
            got = None
            if mode == "GRU":
                got = gru_backward(g[t], adds, kept, g_ig[t])
            elif mode == "LSTM":
                got = lstm_backward(g[t], adds, g_c, kept, g_ig[t])
            gh = g[t]
            if got is None:
                for c in adds:
                    gh = gh + c
            if got is not None:  # (one compiled loop: the same values)
                if mode == "GRU":
                    gd, ghg = got
                else:
                    g_c, ghg = got
            elif mode == "GRU":
                gd, ghg, g_ig[t] = _gru_step(gh, *kept)
            elif mode == "LSTM":
                g_c, ghg = _lstm_step(gh, g_c, *kept)
                g_ig[t] = ghg
            elif mode == "RNN_TANH":
                ghg = g_ig[t] = tanh_backward_values(gh, kept[0])
            else:
                ghg = g_ig[t] = masked_grad(F, gh, kept[0])
            if need_b:
                s = sum_to(ghg, w.shape[:1])
                gb = s if gb is None else gb + s
            first = k == 0
            g_h, g_wt = mm_grads(ghg, h, wt, need_h0 or not first, need_w, F)
            if need_w:
                gw = g_wt.T if gw is None else gw + g_wt.T
            carry = (gd, g_h) if mode == "GRU" else (g_h,)
        g_h0 = None
        if need_h0:
            g_h0 = carry[0]
            for c in carry[1:]:
                g_h0 = g_h0 + c
        return (g_ig if need_ig else None, g_h0, g_c if need_c0 else None, gw, gb)

    def _again(self, g):
        """The inputs' gradients under create_graph: the layer run again as its cell's
        ops (a graph of its own), differentiated with the graph made."""
        ig, h0, c0, w, b = self.inputs
        lstm = self.mode == "LSTM"
        out, final = self.ops(self.mode, ig, (h0, c0) if lstm else h0, w, b, self.reverse)
        steps = int(out.data.shape[0])
        outs = [out, *final] if lstm else [out, final]
        heads = [FUNCTIONS["narrow"](g, 0, 0, steps)]
        heads += [FUNCTIONS["select"](g, 0, steps + k) for k in range(len(outs) - 1)]
        wanted = [x for x, n in zip(self.inputs, self.needs) if n]
        got = iter(run_backward(outs, heads, True, True, inputs=wanted, allow_unused=True))
        return tuple(next(got) if n else None for n in self.needs)


def _gru_fused(ig, h, w, b, kept, out):
    """A GRU step (recurrent.py `_step` on arrays) as its hidden gates' product and one
    compiled loop for the rest (native_layers.gru_forward: the same values), its new
    state written into out (and returned), what its backward reads appended to kept; None
    where the loop does not apply."""
    hg = torch_mm(h, w.T) if b is None else torch_mm(h, w.T, b)
    got = gru_forward(ig, h, hg, out)
    if got is None:
        return None
    r, z, n, d = got
    size = h.shape[1]
    kept += (r, z, n, hg[:, 2 * size :], d)
    return out


def _lstm_fused(ig, h, w, b, kept, out):
    """An LSTM step (recurrent.py `_step` on arrays) as its hidden gates' product and one
    compiled loop for the rest (native_layers.lstm_forward: the same values): (its new
    state, written into out, and its cell state), what its backward reads appended to
    kept; None where the loop does not apply."""
    hx, cx = h
    hg = torch_mm(hx, w.T) if b is None else torch_mm(hx, w.T, b)
    got = lstm_forward(ig, cx, hg, out)
    if got is None:
        return None
    i, f, gt, o, tc, cy = got
    kept += (i, f, gt, o, tc, cx)
    return out, cy


def _gru_step(gh, r, z, n, hnew, d):
    """(the gradient of h - n's h, of the hidden gates, of the input gates) of a GRU step
    whose output's gradient is gh, as the step's nodes make them: the chunk pieces'
    gradients written into zeros and those arrays added (the same values)."""
    gd = gh * z
    gz = gh * d
    ga = tanh_backward_values(gh + -gd, n)
    ghnew = ga * r
    gr = ga * hnew
    size = z.shape[1]
    two = 2 * size
    # (each array its pieces' zeros added to the other pieces': a piece's values plus
    # +0.0, which only turns a -0.0 into +0.0, written into one array)
    ghg = np.empty((gh.shape[0], 3 * size), gh.dtype)
    np.add(sigmoid_backward_values(gr, r), 0.0, out=ghg[:, :size])
    np.add(sigmoid_backward_values(gz, z), 0.0, out=ghg[:, size:two])
    gig = np.empty_like(ghg)
    gig[:, :two] = ghg[:, :two]
    np.add(ghnew, 0.0, out=ghg[:, two:])
    np.add(ga, 0.0, out=gig[:, two:])
    return gd, ghg, gig


def _lstm_step(gh, g_c, i, f, gg, o, tc, cx):
    """(the gradient of the step's input cell state, of its gates) of an LSTM step whose
    output's gradient is gh and whose cell state's (from the next step or the final
    state) is g_c: the gates' four pieces written into one array, as their chunk's."""
    g_o = gh * tc
    g_c = g_c + tanh_backward_values(gh * o, tc)
    size = i.shape[1]
    gates = np.empty((gh.shape[0], 4 * size), gh.dtype)
    gates[:, :size] = sigmoid_backward_values(g_c * gg, i)
    gates[:, size : 2 * size] = sigmoid_backward_values(g_c * cx, f)
    gates[:, 2 * size : 3 * size] = tanh_backward_values(g_c * i, gg)
    gates[:, 3 * size :] = sigmoid_backward_values(g_o, o)
    return g_c * f, gates


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
    for name in {"StackBackward0", *(n for names in MODES.values() for n in names)}
}


def run(mode, ig, h0, w, b, reverse, step, ops):
    """(the layer's outputs (T, B, H), its final state (B, H); an LSTM's: the pair (h,
    c)) as Tensors: one node for the steps (`fits` said so); h0 the initial state (an
    LSTM's: the pair), `step` the cell's step (on arrays, given a list), `ops` the layer as its cell's
    ops (for a backward with create_graph)."""
    h0, c0 = h0 if mode == "LSTM" else (h0, None)
    ext = RecurrentLayer.apply(ig, h0, c0, w, b, mode=mode, reverse=reverse, step=step)
    node = ext.grad_fn
    if node is not None:
        node.inputs = (ig, h0, c0, w, b)
        node.ops = ops
    steps = int(ig.data.shape[0])
    out = _PARTS["StackBackward0"].apply(ext, key=(slice(0, steps),))
    finals = [_PARTS[name].apply(ext, key=(steps + k,)) for k, name in enumerate(MODES[mode])]
    return out, (tuple(finals) if mode == "LSTM" else finals[0])
