# torch.func of our own: functional_call, grad over a params dict, per-sample grads with vmap, grad_and_value, jacrev/jacfwd, hessian, vjp, jvp, has_aux, autograd.functional (written for this test: code in the shape people bring, no adaptation).
import torch
from torch.func import functional_call, grad, grad_and_value, vmap, jacrev, jacfwd, hessian, vjp, jvp
import torch.nn as nn
torch.manual_seed(0)
model = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))
params = {k: v.detach() for k, v in model.named_parameters()}
x = torch.randn(5, 3)
y = torch.randn(5, 1)
def loss_fn(p, xb, yb):
    out = functional_call(model, p, (xb,))
    return ((out - yb) ** 2).mean()
g = grad(loss_fn)(params, x, y)
print({k: v.shape for k, v in g.items()}, g['2.bias'])
per_sample = vmap(grad(loss_fn), in_dims=(None, 0, 0))(params, x.unsqueeze(1), y.unsqueeze(1))
print(per_sample['0.weight'].shape, per_sample['2.bias'][:3].flatten())
gv = grad_and_value(lambda w: (w.sin() * w).sum())(torch.tensor([0.5, 1.0]))
print(gv)
def f(v):
    return torch.stack([v[0] * v[1], v[1].exp(), v.norm()])
v = torch.tensor([1.0, 2.0])
print(jacrev(f)(v), jacfwd(f)(v))
print(hessian(lambda v: (v ** 3).sum() + v.prod())(v))
out, fn = vjp(f, v)
print(out, fn(torch.ones(3)))
print(jvp(f, (v,), (torch.tensor([1.0, 0.0]),)))
def with_aux(w):
    l = (w ** 2).sum()
    return l, {"norm": w.norm()}
print(grad(with_aux, has_aux=True)(torch.tensor([3.0, 4.0])))
print(torch.autograd.functional.hessian(lambda a, b: (a * b ** 2).sum(), (torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0]))))
print(torch.autograd.functional.vjp(lambda a: a ** 2, torch.tensor([1.0, 2.0]), torch.tensor([1.0, 1.0])))
batched = vmap(lambda a, b: a @ b)(torch.randn(4, 2, 3), torch.randn(4, 3))
print(batched.shape, vmap(torch.trace)(torch.randn(3, 2, 2)).shape)
