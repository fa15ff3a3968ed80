# An abstract encoder and loss with abc, and a context manager of our own: nn.Module beside ABC with an @abstractmethod pooling, Python's error for the abstract class, contextlib.contextmanager switching to eval mode and back (its finally runs when the block raises), a function attribute counting calls (written for this test: code in the shape people bring, no adaptation).
import contextlib
from abc import ABC, abstractmethod

import torch
import torch.nn as nn


class Encoder(nn.Module, ABC):
    def __init__(self, d):
        super().__init__()
        self.lin = nn.Linear(d, d)
        self.drop = nn.Dropout(0.5)

    @abstractmethod
    def pool(self, h): ...

    def forward(self, x):
        return self.pool(self.drop(torch.tanh(self.lin(x))))


class MeanEncoder(Encoder):
    def pool(self, h):
        return h.mean(0)


class Loss(ABC):
    @abstractmethod
    def __call__(self, pred, target): ...

    def name(self):
        return type(self).__name__


class L2(Loss):
    def __call__(self, pred, target):
        L2.calls += 1
        return ((pred - target) ** 2).mean()


L2.calls = 0


@contextlib.contextmanager
def evaluating(model):
    was = model.training
    model.eval()
    try:
        yield model
    finally:
        model.train(was)


for cls in (Encoder, Loss):
    try:
        cls(2) if cls is Encoder else cls()
    except TypeError as e:
        print(e)
torch.manual_seed(0)
enc, loss_fn = MeanEncoder(3), L2()
opt = torch.optim.SGD(enc.parameters(), lr=0.1)
x, target = torch.randn(5, 3), torch.tensor([0.5, -0.5, 0.0])
for step in range(3):
    loss = loss_fn(enc(x), target)
    opt.zero_grad()
    loss.backward()
    opt.step()
    with evaluating(enc) as m:
        print(step, m.training, f"{loss.item():.4f}", f"{loss_fn(m(x), target).item():.4f}")
print(enc.training, loss_fn.name(), L2.calls, isinstance(enc, Encoder), isinstance(loss_fn, Loss))
try:
    with evaluating(enc):
        raise ValueError("inside")
except ValueError as e:
    print("raised", e, enc.training)
