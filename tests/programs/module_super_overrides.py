# A Module of the program overriding the methods it inherits and calling the library's own
# through super() (named_parameters, parameters, train, state_dict, zero_grad, forward of a
# library layer), as real code does to filter, log or extend them; the library's methods
# that call an overridden one (parameters() calls named_parameters()) reach the override.
# (Written for this suite; the output is torch's.)
import torch
from torch import nn

torch.manual_seed(0)


class Tagged(nn.Module):
    def __init__(self):
        super().__init__()
        self.body = nn.Linear(3, 2)
        self.head = nn.Linear(2, 1)
        self.calls = []

    def named_parameters(self, *args, **kwargs):
        self.calls.append("named_parameters")
        return super().named_parameters(*args, **kwargs)

    def parameters(self, recurse=True):
        self.calls.append("parameters")
        return super().parameters(recurse)

    def train(self, mode=True):
        self.calls.append(f"train({mode})")
        return super().train(mode)

    def state_dict(self, *args, **kwargs):
        self.calls.append("state_dict")
        sd = super().state_dict(*args, **kwargs)
        return {k: v for k, v in sd.items() if k.startswith("body")}

    def zero_grad(self, set_to_none=True):
        self.calls.append("zero_grad")
        super().zero_grad(set_to_none)

    def forward(self, x):
        return self.head(torch.tanh(self.body(x)))


class Scaled(nn.Linear):
    def forward(self, x):
        return super().forward(x) * 2


m = Tagged()
print([n for n, p in m.named_parameters()])
print([tuple(p.shape) for p in m.parameters()])
print(m.eval() is m, m.training, m.body.training)
m.train()
print(m.training, m.body.training)
print(sorted(m.state_dict()))
x = torch.randn(4, 3)
loss = m(x).pow(2).sum()
loss.backward()
print(loss)
print(m.body.weight.grad)
m.zero_grad()
print(m.body.weight.grad)
print(m.calls)
s = Scaled(3, 2)
y = s(x)
print(y)
y.sum().backward()
print(s.weight.grad)
