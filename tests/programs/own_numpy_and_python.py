# NumPy beside torch and plain Python of our own: numpy random and math, from_numpy, namedtuple, itertools, a generator driven by send, a callable class with a property, format specs (written for this test: code in the shape people bring, no adaptation).
import numpy as np
import torch
import itertools, functools, math
from collections import OrderedDict, namedtuple

rng = np.random.default_rng(0)
np.random.seed(3)
a = np.random.randn(4, 3).astype(np.float32)
b = rng.normal(size=(3,))
t = torch.tensor(a, requires_grad=True)
u = torch.from_numpy(b)
out = (t.double() @ u).sum()
out.backward()
print(out.item(), t.grad.numpy().round(4), t.grad.dtype)
print(np.mean(a, axis=0), np.std(a), np.argmax(a, axis=1), np.linspace(0, 1, 5), np.eye(2))
print(np.concatenate([a, a]).shape, np.stack([b, b], axis=1).shape, np.where(a > 0, 1, -1))
print(np.exp(b), np.log1p(np.abs(b)), np.clip(a, -0.5, 0.5).sum(), np.cumsum(b), np.dot(b, b))
x = torch.linspace(-2, 2, 9, requires_grad=True)
y = torch.where(x > 0, x ** 2, torch.sin(x))
g, = torch.autograd.grad(y.sum(), x)
print(g.numpy(), np.allclose(g.detach().numpy(), np.where(x.detach().numpy() > 0, 2 * x.detach().numpy(), np.cos(x.detach().numpy()))))
Point = namedtuple("Point", ["x", "y"])
pts = [Point(i, i * i) for i in range(5)]
print(sorted(pts, key=lambda p: -p.y)[:2], functools.reduce(lambda s, p: s + p.y, pts, 0))
print(list(itertools.product([1, 2], "ab")), list(itertools.accumulate([1, 2, 3])), dict(zip("abc", range(3))))
def gen():
    total = 0
    while True:
        v = yield total
        if v is None:
            break
        total += v
g2 = gen(); next(g2)
print([g2.send(i) for i in range(4)])
class Poly:
    def __init__(self, *coef): self.coef = coef
    def __call__(self, x): return sum(c * x ** i for i, c in enumerate(self.coef))
    def __repr__(self): return " + ".join(f"{c}x^{i}" for i, c in enumerate(self.coef))
    @property
    def degree(self): return len(self.coef) - 1
p = Poly(1.0, -2.0, 0.5)
z = torch.tensor(3.0, requires_grad=True)
pz = p(z); pz.backward()
print(p, p.degree, pz, z.grad, p(2), f"{math.pi:.3f} {1e-5:e} {255:#x} {0.5:%} {'s':>4}|")
od = OrderedDict(w=torch.ones(2), b=torch.zeros(1))
print({k: v.shape for k, v in od.items()}, np.float32(1.5) * torch.ones(2), torch.tensor(np.int64(3)))
try:
    torch.ones(2) @ torch.ones(3)
except RuntimeError as e:
    print("err:", e)
