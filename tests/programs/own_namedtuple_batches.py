# A NamedTuple batch and a map-style Dataset of our own: typing.NamedTuple with defaults and _replace, __repr__/__len__/__getitem__, batching by hand with enumerate(zip(...)), f-string formats of losses, tolist (written for this test: code in the shape people bring, no adaptation).
import torch
from typing import NamedTuple, Optional


class Batch(NamedTuple):
    x: torch.Tensor
    y: torch.Tensor
    weight: Optional[torch.Tensor] = None


class Pairs:
    def __init__(self, n):
        g = torch.Generator().manual_seed(7)
        self.x = torch.randn(n, 3, generator=g)
        self.y = self.x @ torch.tensor([1.5, -2.0, 0.5]) + 0.1

    def __len__(self):
        return self.x.shape[0]

    def __getitem__(self, i):
        return self.x[i], self.y[i]

    def __repr__(self):
        return f"Pairs(n={len(self)}, dim={self.x.shape[1]})"


data = Pairs(10)
print(data, len(data))
x0, y0 = data[0]
print(x0.tolist(), round(y0.item(), 4))
b = Batch(*data[2:5])
print(type(b).__name__, b._fields, b.weight is None, len(b))
b2 = b._replace(weight=torch.ones(3))
print(b2.weight, b2._asdict().keys())
xs, ys, _ = b
print(xs.shape, ys.shape, isinstance(b, tuple))

torch.manual_seed(0)
w = torch.zeros(3, requires_grad=True)
bias = torch.zeros((), requires_grad=True)
opt = torch.optim.SGD([w, bias], lr=0.1)
starts = range(0, len(data), 4)
ends = [min(s + 4, len(data)) for s in starts]
for epoch in range(3):
    for step, (s, e) in enumerate(zip(starts, ends)):
        batch = Batch(*data[s:e])
        pred = batch.x @ w + bias
        loss = ((pred - batch.y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        if step == len(starts) - 1:
            print(f"epoch {epoch} step {step}: loss={loss.item():.4f} |w|={w.norm():.3f} {loss.item():>10.2e}")
print([round(v, 3) for v in w.detach().tolist()], f"{bias.item():+.5f}")
print(Batch(torch.tensor([1.0]), torch.tensor([2]))._asdict())
print(Batch(torch.tensor([1.0]), torch.tensor([2])))
