"""library/nn/recurrent_layer.py: a GRU's, an LSTM's or an RNN's layer direction as one node gives
the bits of the layer as its cell's ops, step by step (recurrent.py's other path, which
tests/programs/recurrent_layers.py holds to PyTorch's): outputs, final states, every
gradient (an input's, an initial state's, the parameters'), whichever of the outputs
the loss reads (zero gradients' signs included), over layers, directions, batch_first,
no bias and float32; the grad_fn names of what the layer returns stay PyTorch's."""

from __future__ import annotations

import pytest

from tests.conftest import Run

SOURCE = """
import torch
from torch import nn
torch.set_default_dtype(torch.{dtype})
torch.manual_seed(3)
for kind in ("GRU", "RNN", "relu", "LSTM"):
    for kw in ({{}}, {{"num_layers": 2}}, {{"batch_first": True, "bias": False}},
               {{"bidirectional": True, "num_layers": 2}}):
        for use in ("out", "hn", "both", "zero"):
            if kind == "relu":
                m = nn.RNN(3, {hidden}, nonlinearity="relu", **kw)
            else:
                m = getattr(nn, kind)(3, {hidden}, **kw)
            shape = (2, 6, 3) if kw.get("batch_first") else (6, 2, 3)
            x = torch.randn(*shape, requires_grad=True)
            h0 = torch.randn(m.num_layers * (2 if m.bidirectional else 1), 2, {hidden}, requires_grad=True)
            c0 = torch.randn(h0.shape, requires_grad=True)
            hx = (h0, c0) if kind == "LSTM" else h0
            out, h = m(x, None if use == "out" else hx)
            c = None
            if kind == "LSTM":
                h, c = h
                print(c.grad_fn, c.grad_fn.next_functions[0][0])
            print(out.grad_fn, h.grad_fn, h.grad_fn.next_functions[0][0])
            if use == "out":
                loss = out.pow(2).sum()
            elif use == "hn":
                loss = (h * 3).sum()
            elif use == "zero":
                loss = (out * 0.0).sum() - (h * 0.0).sum()
            else:
                loss = out.tanh().sum() + h.pow(3).sum()
            if c is not None and use != "out":
                loss = loss + (c * 0.0 if use == "zero" else c.sin()).sum()
            loss.backward()
            grads = [x.grad, h0.grad, c0.grad, *[p.grad for p in m.parameters()]]
            for t in (out, h, c, *grads):
                print(None if t is None else t.tolist())
"""


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("hidden", [5, 16])
def test_one_node_gives_the_ops_bits(monkeypatch, dtype, hidden):
    """(16 hidden units: every gate value is the sigmoid's vector code, whose gates the
    layer computes in one kernel over the pieces' columns; 5: piece by piece)"""
    from gradcli.library.nn import recurrent

    source = SOURCE.format(dtype=dtype, hidden=hidden)
    fused = Run(source)
    monkeypatch.setattr(recurrent, "_fits", lambda mode, ig: False)
    ops = Run(source)
    assert fused.error is None and ops.error is None
    assert fused.out == ops.out
    assert "RecurrentLayerBackward" not in fused.out  # (names one or two nodes deep)
    for names in (
        "<TransposeBackward1> <StackBackward0> <AddBackward0>",  # GRU
        "<StackBackward0> <StackBackward0> <TanhBackward0>",  # RNN
        "<StackBackward0> <StackBackward0> <ReluBackward0>",
        "<TransposeBackward0> <StackBackward0> <MulBackward0>",  # LSTM's h_n
        "<StackBackward0> <AddBackward0>",  # and c_n
    ):
        assert names in fused.out
    assert "-0.0" in fused.out  # (the zero gradients' signs were compared)


def test_the_layer_is_one_node_behind_the_outputs_nodes():
    run = Run(
        """
import torch
from torch import nn
_ = torch.manual_seed(0)
for m in (nn.GRU(2, 3), nn.LSTM(2, 3)):
    out, h = m(torch.randn(4, 1, 2))
    node = out.grad_fn.next_functions[0][0]
    print(node.name(), len(node.next_functions))
"""
    )
    assert run.error is None, run.error
    assert run.out.split() == ["RecurrentLayerBackward", "5"] * 2
