# A custom torch.autograd.Function (a leaky clamp with its own backward, saving its input)
# and a small wrapper class with __add__/__mul__/__matmul__ used in the training loop.
import time

import torch


class LeakyClamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi) + 0.01 * (x - x.clamp(lo, hi))

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        inside = (x >= ctx.lo) & (x <= ctx.hi)
        scale = torch.where(inside, torch.ones_like(x), torch.full_like(x, 0.01))
        return grad_out * scale, None, None


class Var:
    """A tensor with operators, as a hand-written layer library keeps them."""

    def __init__(self, t):
        self.t = t

    def __add__(self, other):
        return Var(self.t + (other.t if isinstance(other, Var) else other))

    def __mul__(self, other):
        return Var(self.t * (other.t if isinstance(other, Var) else other))

    def __matmul__(self, other):
        return Var(self.t @ other.t)

    def act(self):
        return Var(LeakyClamp.apply(self.t, -1.0, 1.0))


torch.manual_seed(0)
X = torch.randn(128, 8)
y = torch.sin(X.sum(dim=1, keepdim=True))
W1 = torch.randn(8, 16, requires_grad=True)
b1 = torch.zeros(16, requires_grad=True)
W2 = torch.randn(16, 1, requires_grad=True)
params = [W1, b1, W2]
lr = 0.01
t0 = time.process_time()
for it in range(400):
    h = (Var(X) @ Var(W1) + Var(b1)).act()
    out = h @ Var(W2) * 0.5
    loss = ((out.t - y) ** 2).mean()
    for p in params:
        p.grad = None
    loss.backward()
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
    if it % 100 == 0:
        print(it, loss.item())
t1 = time.process_time()
print(loss.item())
print(W1.grad.abs().sum().item(), b1.sum().item(), W2.sum().item())
print("loop", t1 - t0)
