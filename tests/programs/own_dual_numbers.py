# the Python data model of our own: a dual-number class with reflected operators beside autograd, a sequence class with __format__, an accumulator with __iadd__, __call__ and a context manager (written for this test: code in the shape people bring, no adaptation).
import torch
import math
class Dual:
    def __init__(self, a, b=0.0):
        self.a, self.b = a, b
    def __add__(self, o):
        o = o if isinstance(o, Dual) else Dual(o)
        return Dual(self.a + o.a, self.b + o.b)
    __radd__ = __add__
    def __mul__(self, o):
        o = o if isinstance(o, Dual) else Dual(o)
        return Dual(self.a * o.a, self.a * o.b + self.b * o.a)
    __rmul__ = __mul__
    def __neg__(self):
        return Dual(-self.a, -self.b)
    def __sub__(self, o):
        return self + (-o)
    def __rsub__(self, o):
        return (-self) + o
    def __truediv__(self, o):
        o = o if isinstance(o, Dual) else Dual(o)
        return Dual(self.a / o.a, (self.b * o.a - self.a * o.b) / (o.a * o.a))
    def __rtruediv__(self, o):
        return Dual(o) / self
    def __pow__(self, n):
        return Dual(self.a ** n, n * self.a ** (n - 1) * self.b)
    def __repr__(self):
        return f"Dual({self.a:.4f}, {self.b:.4f})"
    def __eq__(self, o):
        return isinstance(o, Dual) and (self.a, self.b) == (o.a, o.b)
    def __hash__(self):
        return hash((self.a, self.b))
    def __lt__(self, o):
        return self.a < o.a
    def __bool__(self):
        return self.a != 0
    def __float__(self):
        return float(self.a)
def f(x):
    return 3 * x ** 2 - 2 / x + 1 - x
d = f(Dual(2.0, 1.0))
print(d, float(d), bool(Dual(0.0)), sorted([Dual(3), Dual(1), Dual(2)]), len({Dual(1), Dual(1.0), Dual(2)}))
t = torch.tensor(2.0, requires_grad=True)
ft = f(t)
ft.backward()
print(ft, t.grad, math.isclose(t.grad.item(), d.b))
class Vec:
    def __init__(self, *xs): self.xs = list(xs)
    def __len__(self): return len(self.xs)
    def __getitem__(self, i): return self.xs[i]
    def __iter__(self): return iter(self.xs)
    def __contains__(self, v): return v in self.xs
    def __matmul__(self, o): return sum(a * b for a, b in zip(self, o))
    def __format__(self, spec): return "<" + ", ".join(format(x, spec) for x in self.xs) + ">"
    def __setitem__(self, i, v): self.xs[i] = v
v = Vec(1.0, 2.0, 3.0)
v[0] = 10.0
print(len(v), v[1:], 3.0 in v, v @ v, f"{v:.2f}", list(reversed(v)), max(v), torch.tensor(list(v)))
class Acc:
    def __init__(self): self.n = 0
    def __iadd__(self, k): self.n += k; return self
    def __call__(self, *a, **kw): return (len(a), sorted(kw))
    def __enter__(self): print("enter"); return self
    def __exit__(self, *exc): print("exit", exc[0] is None); return False
a = Acc()
a += 5
with a as b:
    print(b(1, 2, z=3, y=4), a.n)
print(getattr(a, "n"), hasattr(a, "m"), a.n, type(a).__name__, isinstance(a, Acc), callable(a))
