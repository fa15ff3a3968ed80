# torch.cdist on batches: broadcast batch dims on both paths (the kernel batch by batch,
# the matrix path on the expanded inputs as ATen's cdist_impl), p = 2, 1, 0 and inf, values
# and gradients (summed back over a broadcast batch) to the last bit in float32 and
# float64, the grad_fn chain of the matrix path, and a second derivative through it.
# (Written for this suite; the output is torch's.)
import torch
torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    for sa, sb in (((2, 3, 5), (2, 4, 5)), ((3, 1, 4, 6), (2, 7, 6)), ((2, 30, 4), (2, 28, 4)), ((2, 1, 30, 3), (4, 20, 3)), ((1, 30, 4), (40, 4))):
        for p in (2.0, 1.0, 0.0, float("inf")):
            a = torch.randn(*sa, dtype=dt, requires_grad=True)
            b = torch.randn(*sb, dtype=dt, requires_grad=True)
            d = torch.cdist(a, b, p=p)
            g = torch.randn(d.shape, dtype=dt)
            d.backward(g)
            print(sa, sb, p, dt, d.grad_fn.name(), d.shape, d.flatten()[::7].tolist())
            print(a.grad.flatten()[::5].tolist(), b.grad.flatten()[::5].tolist())
a = torch.randn(2, 30, 4, requires_grad=True)
d = torch.cdist(a, torch.randn(2, 28, 4))
fn = d.grad_fn
while fn is not None:
    print(fn.name())
    fn = fn.next_functions[0][0] if fn.next_functions else None
x = torch.randn(2, 30, 3, dtype=torch.float64, requires_grad=True)
y = torch.randn(1, 27, 3, dtype=torch.float64, requires_grad=True)
d = torch.cdist(x, y)
(gx,) = torch.autograd.grad(d.sum(), x, create_graph=True)
print(gx.grad_fn.name(), gx.flatten()[::11].tolist())
(gy,) = torch.autograd.grad(gx.pow(2).sum(), y)
print(gy.flatten()[::5].tolist())
try:
    torch.cdist(torch.randn(2, 3, 4), torch.randn(3, 5, 4))
except RuntimeError as e:
    print("RuntimeError:", e)
