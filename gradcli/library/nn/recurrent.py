"""torch.nn's recurrent layers: RNN, GRU and LSTM, and their cells RNNCell, GRUCell and
LSTMCell.  Parameters are named, shaped and drawn as PyTorch's (`weight_ih_l0`,
`weight_hh_l0`, `bias_ih_l0`, `bias_hh_l0`, `_reverse` for the backward direction, each
from uniform(-1/sqrt(hidden_size), 1/sqrt(hidden_size)) in that order), and the forward
pass is PyTorch's native CPU cell math, built from the ops so that autograd comes with
it: the input's linear map over the whole sequence first, then at each step the hidden
state's linear map added to it and the gates (RNN: tanh or relu; GRU: reset, update and
new gates; LSTM: input, forget, cell and output gates), the steps' outputs stacked.
A layer direction runs those ops as one graph node (recurrent_layer.py: the same
values and gradients, less work a step).
PyTorch runs float32 LSTM through oneDNN on CPU, whose sums round differently: that
case is computed the same way here, not bit for bit (docs/reference.md says so)."""

from __future__ import annotations

import math

from ...numerics.floats.tensor_iter import VEC_BLOCK, all_vector
from ...numerics.mkl import torch_mm
from ...ops.elementwise import Add, Mul, Sub
from ...ops.unary import forward_of
from ...runtime.errors import GradRuntimeError, GradValueError
from ...ops.registry import FUNCTIONS
from ..inplace_views import transpose_
from .init import uniform_
from .layers import _empty, _int
from .module import Module
from .recurrent_layer import fits as _fits, run as _run_layer
from .rnn_utils import PackedSequence

_GATES = {"RNN_TANH": 1, "RNN_RELU": 1, "GRU": 3, "LSTM": 4}


def _f(name, *args):
    return FUNCTIONS[name](*args)


def _step(mode, igates, hidden, w_hh, b_hh, kept=None):
    """One step of PyTorch's cell on precomputed input gates `igates` (linear_ih of the
    input): returns the new hidden state (for LSTM the pair (h, c)).  With a list `kept`
    (recurrent_layer.py, grad mode off): the step on arrays, each op's forward alone
    (`_ARRAYS`: the same values), the values a backward of the step needs appended to it
    (GRU: r, z, n, the hidden gates' new-gate piece and h - n; LSTM: its four gates,
    tanh(c) and the previous c; RNN: its output)."""
    o = _TENSORS if kept is None else _ARRAYS
    if mode == "LSTM":
        hx, cx = hidden
        gates = o.add(o.linear(hx, w_hh, b_hh), igates)
        if kept is None:
            i, fg, g, og = o.pieces(gates, 4, (0, 1, 2, 3))
            i, fg, g, og = o.sigmoid(i), o.sigmoid(fg), o.tanh(g), o.sigmoid(og)
        else:
            i, fg, og = o.sigmoids(gates, 4, (0, 1, 3))
            g = o.tanh(o.pieces(gates, 4, (2,))[0])
        cy = o.add(o.mul(fg, cx), o.mul(i, g))
        tc = o.tanh(cy)
        if kept is not None:
            kept += (i, fg, g, og, tc, cx)
        return o.mul(og, tc), cy
    hgates = o.linear(hidden, w_hh, b_hh)
    if mode == "GRU":
        # PyTorch adds the reset and update gates' inputs in place into column slices of
        # the hidden gates and applies sigmoid there: the kernels run along each row of a
        # strided slice, which decides which values take the vector path (of each chunk
        # only the pieces used are made: the others would be nodes no backward reaches)
        (inew,) = o.pieces(igates, 3, (2,))
        (hnew,) = o.pieces(hgates, 3, (2,))
        r, z = o.sigmoids(o.add(hgates, igates), 3, (0, 1))
        n = o.tanh(o.add(inew, o.mul(hnew, r)))
        d = o.sub(hidden, n)
        if kept is not None:
            kept += (r, z, n, hnew, d)
        return o.add(o.mul(d, z), n)
    pre = o.add(hgates, igates)
    out = o.tanh(pre) if mode == "RNN_TANH" else o.relu(pre)
    if kept is not None:
        kept.append(out)
    return out


class _TENSORS:
    """A cell step's ops on Tensors (each a node of the graph)."""

    add = staticmethod(lambda a, b: _f("add", a, b))
    sub = staticmethod(lambda a, b: _f("sub", a, b))
    mul = staticmethod(lambda a, b: _f("mul", a, b))
    sigmoid = staticmethod(lambda x: _f("sigmoid", x))
    tanh = staticmethod(lambda x: _f("tanh", x))
    relu = staticmethod(lambda x: _f("relu", x))
    linear = staticmethod(lambda h, w, b: _f("linear", h, w, b))

    @staticmethod
    def pieces(x, chunks, which):
        """chunk(x, chunks, 1)'s pieces numbered in `which` (all four of an LSTM's: its
        chunk, PyTorch's op; some: chunk_pieces)."""
        if len(which) == chunks:
            return _f("chunk", x, chunks, 1)
        return _f("chunk_pieces", x, chunks, 1, which)

    @staticmethod
    def sigmoids(x, chunks, which):
        """The sigmoids of chunk(x, chunks, 1)'s pieces numbered in `which`."""
        return tuple(_f("sigmoid", p) for p in _TENSORS.pieces(x, chunks, which))


def _arith(cls, a, b):
    dt = a.dtype
    if (
        dt is b.dtype
        and a.shape == b.shape
        and a.ndim == 2
        and a.strides[1] == b.strides[1] == dt.itemsize
        and a.strides[0] >= a.strides[1] * a.shape[1]
        and b.strides[0] >= b.strides[1] * b.shape[1]
    ):
        # (a cell's float operands, of one shape, whose rows are contiguous (a gate's
        # columns): the op's ufunc alone, its result C-contiguous as TensorIterator lays
        # out operands whose dimensions are in C's order)
        return cls.ufunc(a, b)
    node = cls.__new__(cls)
    node.saved = ()
    return node.forward(a, b, a.dtype)


class _ARRAYS:
    """The same ops on arrays of one float dtype: each op's forward alone (no node, no
    Tensor), as the op's node computes it."""

    add = staticmethod(lambda a, b: _arith(Add, a, b))
    sub = staticmethod(lambda a, b: _arith(Sub, a, b))
    mul = staticmethod(lambda a, b: _arith(Mul, a, b))
    sigmoid = staticmethod(lambda x: forward_of("sigmoid", x))
    tanh = staticmethod(lambda x: forward_of("tanh", x))
    relu = staticmethod(lambda x: forward_of("relu", x))

    @staticmethod
    def linear(h, w, b):
        """linear(h, w, b) of a 2-D h, as its addmm (or mm without b) computes it."""
        return torch_mm(h, w.T) if b is None else torch_mm(h, w.T, b)

    @staticmethod
    def pieces(x, chunks, which):
        """chunk(x, chunks, 1)'s pieces numbered in `which`: the same views."""
        size = int(x.shape[1]) // chunks
        return tuple(x[:, k * size : (k + 1) * size, ...] for k in which)

    @staticmethod
    def sigmoids(x, chunks, which):
        """The sigmoids of chunk(x, chunks, 1)'s pieces numbered in `which` (in order):
        one kernel over the columns from the first piece to the last where every value
        of a piece and of those columns takes the kernel's vector code (each value then
        the vector code's of that value alone: tensor_iter.all_vector), else each
        piece's own."""
        size = int(x.shape[1]) // chunks
        lo, hi = which[0] * size, (which[-1] + 1) * size
        step = VEC_BLOCK[x.dtype.type]
        span = x[:, lo:hi]
        if len(which) > 1 and all_vector(x[:, lo : lo + size], step) and all_vector(span, step):
            out = forward_of("sigmoid", span)
            return tuple(out[:, (k - which[0]) * size : (k - which[0] + 1) * size] for k in which)
        return tuple(forward_of("sigmoid", p) for p in _ARRAYS.pieces(x, chunks, which))


def _layer_ops(mode, igates, h, w_hh, b_hh, reverse):
    """(outputs, final state) of one layer direction on its input gates, as the cell's
    ops step by step (PyTorch's graph)."""
    steps = _f("unbind", igates, 0)
    if reverse:
        steps = steps[::-1]
    seq = []
    for x in steps:
        h = _step(mode, x, h, w_hh, b_hh)
        seq.append(h[0] if mode == "LSTM" else h)
    if reverse:
        seq = seq[::-1]
    return _f("stack", seq, 0), h


def _narrow(h, start, n):
    """Rows start..start+n of a state (an LSTM's: of both)."""
    if isinstance(h, tuple):
        return tuple(_f("narrow", x, 0, start, n) for x in h)
    return _f("narrow", h, 0, start, n)


def _joined(states):
    if isinstance(states[0], tuple):
        return tuple(_f("cat", list(parts), 0) for parts in zip(*states))
    return _f("cat", list(states), 0)


def _packed_layer(mode, igates, h, w_hh, b_hh, sizes, reverse):
    """(outputs, final state) of one layer direction on a PackedSequence's input gates
    (rows of each step's running sequences, one step after another), as PyTorch's
    packed layers run it: forward, the states of the sequences that ended are set
    aside as the batch shrinks and joined (longest last) at the end; reversed, the
    steps from the last, the state growing by the initial states of the sequences
    that start."""
    outs, ended = [], []
    if not reverse:
        offset, last = 0, sizes[0]
        for n in sizes:
            if n < last:
                ended.append(_narrow(h, n, last - n))
                h = _narrow(h, 0, n)
            h = _step(mode, _f("narrow", igates, 0, offset, n), h, w_hh, b_hh)
            outs.append(h[0] if mode == "LSTM" else h)
            offset, last = offset + n, n
        return _f("cat", outs, 0), _joined([h, *ended[::-1]])
    first = h
    offset, last = int(igates.data.shape[0]), sizes[-1]
    h = _narrow(first, 0, last)
    for n in sizes[::-1]:
        if n > last:
            h = _joined([h, _narrow(first, last, n - last)])
        offset -= n
        h = _step(mode, _f("narrow", igates, 0, offset, n), h, w_hh, b_hh)
        outs.append(h[0] if mode == "LSTM" else h)
        last = n
    return _f("cat", outs[::-1], 0), h


def _check_hx(hx, lstm, batched):
    want = 3 if batched else 2
    kind = "batched 3-D" if batched else "unbatched 2-D"
    if lstm:
        dims = tuple(int(h.data.ndim) for h in hx)
        if any(d != want for d in dims):
            raise GradRuntimeError(
                f"For {kind} input, hx and cx should also be {want}-D but got "
                f"({dims[0]}-D, {dims[1]}-D) tensors"
            )
    elif hx.data.ndim != want:
        raise GradRuntimeError(
            f"For {kind} input, hx should also be {want}-D but got {hx.data.ndim}-D tensor"
        )


def _check_cell(input, hx, input_size, hidden_size):
    got = int(input.data.shape[1])
    if got != input_size:
        raise GradRuntimeError(
            f"input has inconsistent input_size: got {got} expected {input_size}"
        )
    for i, h in enumerate(hx):
        hb, ib = int(h.data.shape[0]), int(input.data.shape[0])
        if hb != ib:
            raise GradRuntimeError(f"Input batch size {ib} doesn't match hidden{i} batch size {hb}")
        hs = int(h.data.shape[1]) if h.data.ndim > 1 else None
        if hs != hidden_size:
            raise GradRuntimeError(
                f"hidden{i} has inconsistent hidden_size: got {hs}, expected {hidden_size}"
            )


def _hidden_sizes(hx, lstm, expected):
    """PyTorch's check of the initial states' sizes (an LSTM's pair as hidden[0], [1])."""
    for i, h in enumerate(hx if lstm else (hx,)):
        if tuple(h.data.shape) != expected:
            which = f"hidden[{i}]" if lstm else "hidden"
            raise GradRuntimeError(f"Expected {which} size {expected}, got {list(h.data.shape)}")


def _layer_states(hx, lstm):
    """The initial states, one per layer and direction (an LSTM's as (h, c) pairs)."""
    if lstm:
        return list(zip(_f("unbind", hx[0], 0), _f("unbind", hx[1], 0)))
    return list(_f("unbind", hx, 0))


def _size_check(input, input_size):
    got = int(input.data.shape[-1])
    if got != input_size:
        raise GradRuntimeError(
            f"input.size(-1) must be equal to input_size. Expected {input_size}, got {got}"
        )


def _permuted(hx, order):
    if isinstance(hx, tuple):
        return tuple(_f("index_select", h, 1, order) for h in hx)
    return _f("index_select", hx, 1, order)


class RNNBase(Module):
    mode = "RNN_TANH"

    def __init__(
        self,
        mode,
        input_size,
        hidden_size,
        num_layers=1,
        bias=True,
        batch_first=False,
        dropout=0.0,
        bidirectional=False,
        proj_size=0,
        device=None,
        dtype=None,
    ):
        super().__init__()
        self.mode = mode
        self.input_size = _int(input_size, "size")
        self.hidden_size = _int(hidden_size, "size")
        self.num_layers = num_layers
        self.bias = bias
        self.batch_first = batch_first
        self.dropout = float(dropout)
        self.bidirectional = bidirectional
        self.proj_size = proj_size
        if not isinstance(num_layers, int) or isinstance(num_layers, bool) or num_layers <= 0:
            raise GradValueError("num_layers must be greater than or equal to 1")
        if not 0 <= self.dropout <= 1:
            raise GradValueError(
                "dropout should be a number in range [0, 1] representing the probability "
                "of an element being zeroed"
            )
        if proj_size:
            raise GradValueError("gradcli's LSTM has no proj_size (projections) yet")
        gate = _GATES[mode] * hidden_size
        self._flat_weights_names = []
        for layer in range(num_layers):
            for suffix in ("", "_reverse") if bidirectional else ("",):
                width = input_size if layer == 0 else hidden_size * (2 if bidirectional else 1)
                names = [f"weight_ih_l{layer}{suffix}", f"weight_hh_l{layer}{suffix}"]
                setattr(self, names[0], _empty(gate, width, dtype=dtype))
                setattr(self, names[1], _empty(gate, hidden_size, dtype=dtype))
                if bias:
                    names += [f"bias_ih_l{layer}{suffix}", f"bias_hh_l{layer}{suffix}"]
                    setattr(self, names[2], _empty(gate, dtype=dtype))
                    setattr(self, names[3], _empty(gate, dtype=dtype))
                self._flat_weights_names.extend(names)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            uniform_(weight, -stdv, stdv)

    def _layer_params(self, layer, suffix):
        get = lambda n: getattr(self, f"{n}_l{layer}{suffix}")  # noqa: E731
        if self.bias:
            return get("weight_ih"), get("weight_hh"), get("bias_ih"), get("bias_hh")
        return get("weight_ih"), get("weight_hh"), None, None

    def _run(self, input, hidden, sizes=None):
        """PyTorch's layer stack on a (seq, batch, feature) input, or a PackedSequence's
        data and its batch sizes `sizes`; `hidden` is one state per layer and direction.
        Returns (output, final states)."""
        finals = []
        layer_input = input
        dirs = ("", "_reverse") if self.bidirectional else ("",)
        for layer in range(self.num_layers):
            outs = []
            for d, suffix in enumerate(dirs):
                w_ih, w_hh, b_ih, b_hh = self._layer_params(layer, suffix)
                igates = _f("linear", layer_input, w_ih, b_ih)
                h = hidden[layer * len(dirs) + d]
                if sizes is not None:
                    out, h = _packed_layer(self.mode, igates, h, w_hh, b_hh, sizes, bool(suffix))
                elif _fits(self.mode, igates):
                    out, h = _run_layer(
                        self.mode, igates, h, w_hh, b_hh, bool(suffix), _step, _layer_ops
                    )
                else:
                    out, h = _layer_ops(self.mode, igates, h, w_hh, b_hh, bool(suffix))
                outs.append(out)
                finals.append(h)
            layer_input = outs[0] if len(outs) == 1 else _f("cat", outs, outs[0].data.ndim - 1)
            if self.dropout and self.training and layer < self.num_layers - 1:
                layer_input = FUNCTIONS["dropout"](layer_input, self.dropout, True)
        return layer_input, finals

    def forward(self, input, hx=None):
        if isinstance(input, PackedSequence):
            return self._forward_packed(input, hx)
        if input.data.ndim not in (2, 3):
            raise GradValueError(
                f"{type(self).__name__}: Expected input to be 2D or 3D, got "
                f"{input.data.ndim}D instead"
            )
        _size_check(input, self.input_size)
        batched = input.data.ndim == 3
        batch_dim = 0 if self.batch_first else 1
        if not batched:
            input = _f("unsqueeze", input, batch_dim)
        if self.batch_first:
            input = _f("transpose", input, 0, 1)
        batch = int(input.data.shape[1])
        n = self.num_layers * (2 if self.bidirectional else 1)
        lstm = self.mode == "LSTM"
        if hx is None:
            dt = input.data.dtype
            zeros = FUNCTIONS["zeros"](n, batch, self.hidden_size, dtype=dt)
            hx = (zeros, zeros) if lstm else zeros
        else:
            _check_hx(hx, lstm, batched)
            if not batched:
                if lstm:
                    hx = tuple(_f("unsqueeze", h, 1) for h in hx)
                else:
                    hx = _f("unsqueeze", hx, 1)
            expected = (n, batch, self.hidden_size)
            _hidden_sizes(hx, lstm, expected)
        hidden = _layer_states(hx, lstm)
        output, finals = self._run(input, hidden)
        if lstm:
            h_n = (_f("stack", [h for h, _ in finals], 0), _f("stack", [c for _, c in finals], 0))
        else:
            h_n = _f("stack", finals, 0)
        if self.batch_first:
            # (PyTorch's RNN and GRU transpose in place: TransposeBackward1; its LSTM not)
            lstm_t = _f("transpose", output, 0, 1) if lstm else None
            output = lstm_t if lstm else transpose_(output, 0, 1)
        if not batched:
            output = _f("squeeze", output, batch_dim)
            h_n = tuple(_f("squeeze", h, 1) for h in h_n) if lstm else _f("squeeze", h_n, 1)
        return output, h_n

    def _forward_packed(self, packed, hx):
        """A PackedSequence in, a PackedSequence out (in its order), and the final
        states in the order of the sequences given (PyTorch's permute_hidden)."""
        data, batch_sizes, sorted_indices, unsorted_indices = packed
        if data.data.ndim != 2:
            raise GradRuntimeError(f"input must have 2 dimensions, got {data.data.ndim}")
        _size_check(data, self.input_size)
        sizes = [int(n) for n in batch_sizes.data]
        n = self.num_layers * (2 if self.bidirectional else 1)
        lstm = self.mode == "LSTM"
        if hx is None:
            zeros = FUNCTIONS["zeros"](n, sizes[0], self.hidden_size, dtype=data.data.dtype)
            hx = (zeros, zeros) if lstm else zeros
        else:
            _check_hx(hx, lstm, True)
            if sorted_indices is not None:
                hx = _permuted(hx, sorted_indices)
            expected = (n, sizes[0], self.hidden_size)
            _hidden_sizes(hx, lstm, expected)
        hidden = _layer_states(hx, lstm)
        output, finals = self._run(data, hidden, sizes)
        if lstm:
            h_n = (_f("stack", [h for h, _ in finals], 0), _f("stack", [c for _, c in finals], 0))
        else:
            h_n = _f("stack", finals, 0)
        if unsorted_indices is not None:
            h_n = _permuted(h_n, unsorted_indices)
        return PackedSequence(output, batch_sizes, sorted_indices, unsorted_indices), h_n

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.num_layers != 1:
            s += f", num_layers={self.num_layers}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        if self.batch_first is not False:
            s += f", batch_first={self.batch_first}"
        if self.dropout != 0:
            s += f", dropout={self.dropout}"
        if self.bidirectional is not False:
            s += f", bidirectional={self.bidirectional}"
        return s


class RNN(RNNBase):
    def __init__(self, input_size, hidden_size, num_layers=1, nonlinearity="tanh", **kw):
        if nonlinearity not in ("tanh", "relu"):
            raise GradValueError(
                f"Unknown nonlinearity '{nonlinearity}'. Select from 'tanh' or 'relu'."
            )
        super().__init__(
            "RNN_TANH" if nonlinearity == "tanh" else "RNN_RELU",
            input_size,
            hidden_size,
            num_layers,
            **kw,
        )
        self.nonlinearity = nonlinearity  # (not in its repr, as in PyTorch)


class GRU(RNNBase):
    def __init__(self, *args, **kw):
        super().__init__("GRU", *args, **kw)


class LSTM(RNNBase):
    def __init__(self, *args, **kw):
        super().__init__("LSTM", *args, **kw)


class RNNCellBase(Module):
    mode = "RNN_TANH"

    def __init__(self, input_size, hidden_size, bias, gates, device=None, dtype=None):
        super().__init__()
        self.input_size = _int(input_size, "size")
        self.hidden_size = _int(hidden_size, "size")
        self.bias = bias
        self.weight_ih = _empty(gates * hidden_size, input_size, dtype=dtype)
        self.weight_hh = _empty(gates * hidden_size, hidden_size, dtype=dtype)
        if bias:
            self.bias_ih = _empty(gates * hidden_size, dtype=dtype)
            self.bias_hh = _empty(gates * hidden_size, dtype=dtype)
        else:
            self.register_parameter("bias_ih", None)
            self.register_parameter("bias_hh", None)
        self.reset_parameters()

    def reset_parameters(self):
        stdv = 1.0 / math.sqrt(self.hidden_size) if self.hidden_size > 0 else 0
        for weight in self.parameters():
            uniform_(weight, -stdv, stdv)

    def extra_repr(self):
        s = f"{self.input_size}, {self.hidden_size}"
        if self.bias is not True:
            s += f", bias={self.bias}"
        nl = getattr(self, "nonlinearity", "tanh")
        if nl != "tanh":
            s += f", nonlinearity={nl}"
        return s

    def forward(self, input, hx=None):
        name = type(self).__name__
        if input.data.ndim not in (1, 2):
            raise GradValueError(
                f"{name}: Expected input to be 1D or 2D, got {input.data.ndim}D instead"
            )
        batched = input.data.ndim == 2
        if not batched:
            input = _f("unsqueeze", input, 0)
        lstm = self.mode == "LSTM"
        if hx is None:
            zeros = FUNCTIONS["zeros"](
                int(input.data.shape[0]),
                self.hidden_size,
                dtype=input.data.dtype,
            )
            hx = (zeros, zeros) if lstm else zeros
        elif not batched:
            hx = tuple(_f("unsqueeze", h, 0) for h in hx) if lstm else _f("unsqueeze", hx, 0)
        if self.mode not in _GATES:
            raise GradRuntimeError(f"Unknown nonlinearity: {self.nonlinearity}")
        _check_cell(input, hx if lstm else (hx,), self.input_size, self.hidden_size)
        igates = _f("linear", input, self.weight_ih, self.bias_ih)
        out = _step(self.mode, igates, hx, self.weight_hh, self.bias_hh)
        if not batched:
            out = tuple(_f("squeeze", h, 0) for h in out) if lstm else _f("squeeze", out, 0)
        return out


class RNNCell(RNNCellBase):
    def __init__(self, input_size, hidden_size, bias=True, nonlinearity="tanh", **kw):
        super().__init__(input_size, hidden_size, bias, 1, **kw)
        self.nonlinearity = nonlinearity  # (checked when called, as in PyTorch)
        self.mode = {"tanh": "RNN_TANH", "relu": "RNN_RELU"}.get(nonlinearity, "")


class GRUCell(RNNCellBase):
    mode = "GRU"

    def __init__(self, input_size, hidden_size, bias=True, **kw):
        super().__init__(input_size, hidden_size, bias, 3, **kw)


class LSTMCell(RNNCellBase):
    mode = "LSTM"

    def __init__(self, input_size, hidden_size, bias=True, **kw):
        super().__init__(input_size, hidden_size, bias, 4, **kw)


RECURRENT = {c.__name__: c for c in (RNN, GRU, LSTM, RNNCell, GRUCell, LSTMCell)}
