# The recurrent layers' errors, in PyTorch's words: input and hidden sizes, dimensions,
# batch sizes and nonlinearities, caught and printed one by one.
import torch
from torch import nn

cases = [
    lambda: nn.LSTM(3, 4)(torch.randn(5, 2, 2)),
    lambda: nn.GRU(3, 4)(torch.randn(5, 2, 2, 3)),
    lambda: nn.RNN(3, 4)(torch.randn(5, 2, 3), torch.randn(2, 2, 4)),
    lambda: nn.RNN(3, 4)(torch.randn(5, 3), torch.randn(1, 1, 4)),
    lambda: nn.LSTM(3, 4)(torch.randn(5, 2, 3), (torch.randn(1, 2, 4), torch.randn(1, 2, 5))),
    lambda: nn.LSTM(3, 4)(torch.randn(5, 2, 3), (torch.randn(1, 2, 4), torch.randn(2, 4))),
    lambda: nn.RNN(3, 4, nonlinearity="sigmoid"),
    lambda: nn.RNNCell(3, 4)(torch.randn(5, 2)),
    lambda: nn.RNNCell(3, 4)(torch.randn(2, 3, 1)),
    lambda: nn.RNNCell(3, 4)(torch.randn(2, 3), torch.randn(4)),
    lambda: nn.GRUCell(3, 4)(torch.randn(2, 3), torch.randn(3, 4)),
    lambda: nn.LSTMCell(3, 4)(torch.randn(2, 3), (torch.randn(2, 5), torch.randn(2, 4))),
    lambda: nn.RNNCell(3, 4, nonlinearity="sigmoid")(torch.randn(3)),
]
for case in cases:
    try:
        case()
        print("no error")
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__, e)
