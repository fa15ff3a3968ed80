# nn.RNN, nn.GRU, nn.LSTM and their cells: parameter names, shapes and initial draws, the
# module reprs, outputs and final states, the gradients of inputs and parameters, and the
# grad_fn names, printed exactly (tolist) in float64 and, for RNN and GRU, float32.
# (float32 LSTM is left out: PyTorch runs it through oneDNN on CPU, whose sums round
# differently from its native cell math.)
import torch
from torch import nn


def show(t):
    print(t.grad_fn, t.dtype, tuple(t.shape), t.tolist())


for seed, dtype in ((0, torch.float64), (1, torch.float32)):
    torch.manual_seed(seed)
    torch.set_default_dtype(dtype)
    kinds = (nn.RNN, nn.GRU, nn.LSTM) if dtype == torch.float64 else (nn.RNN, nn.GRU)
    for cls in kinds:
        for kw in (
            {},
            {"num_layers": 2},
            {"batch_first": True, "bias": False},
            {"bidirectional": True},
        ):
            m = cls(3, 5, **kw)
            print(m)
            for name, p in m.named_parameters():
                print(name, tuple(p.shape), p.sum().item())
            x = torch.randn(6, 2, 3, requires_grad=True)
            out, h = m(x)
            show(out)
            hn = h[0] if cls is nn.LSTM else h
            show(hn)
            if cls is nn.LSTM:
                show(h[1])
            (out.pow(2).sum() + hn.sum()).backward()
            show(x.grad)
            for name, p in m.named_parameters():
                print(name)
                show(p.grad)
    # unbatched input, a given initial state, relu
    m = nn.RNN(3, 4, nonlinearity="relu")
    print(m, m.nonlinearity)
    out, h = m(torch.randn(5, 3), torch.randn(1, 4))
    show(out)
    show(h)
    cells = (nn.RNNCell, nn.GRUCell, nn.LSTMCell) if dtype == torch.float64 else (nn.RNNCell, nn.GRUCell)
    for cls in cells:
        m = cls(3, 5)
        print(m, [(n, tuple(p.shape)) for n, p in m.named_parameters()])
        x = torch.randn(4, 3, requires_grad=True)
        h = m(x)
        h2 = m(x, h)
        h2 = h2[0] if cls is nn.LSTMCell else h2
        show(h2)
        h2.sum().backward()
        show(x.grad)
        show(m.weight_hh.grad)
        show(m.bias_ih.grad)
        u = m(torch.randn(3))
        show(u[1] if cls is nn.LSTMCell else u)

print(nn.RNNCell(2, 3, bias=False, nonlinearity="relu"))
print(nn.LSTM(4, 8, num_layers=3, batch_first=True, dropout=0.5, bidirectional=True))

# dropout between layers in training mode (PyTorch's draws), none in evaluation mode
torch.set_default_dtype(torch.float64)
torch.manual_seed(2)
for cls in (nn.RNN, nn.GRU, nn.LSTM):
    m = cls(3, 4, num_layers=3, dropout=0.5)
    x = torch.randn(5, 2, 3, requires_grad=True)
    out, h = m(x)
    show(out)
    out.sum().backward()
    show(x.grad)
    m.eval()
    show(m(x)[0])
