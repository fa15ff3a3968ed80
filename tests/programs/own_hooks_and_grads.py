# hooks, retain_grad, autograd.grad with create_graph, jacobian, torch.func.grad with argnums, in-place on a clone, numpy() of a leaf (written for this test: code in the shape people bring, no adaptation).
import torch
torch.manual_seed(2)
x = torch.randn(4, 3, requires_grad=True)
W = torch.randn(3, 3, requires_grad=True)
seen = []
h = x @ W
h.register_hook(lambda g: seen.append(g.sum().item()))
y = torch.tanh(h).pow(3).sum(dim=1)
y.retain_grad()
loss = (y * torch.arange(4.0)).sum()
loss.backward(retain_graph=True)
print(seen, y.grad, x.grad.norm().item())
g1, = torch.autograd.grad(loss, W, create_graph=True)
g2 = torch.autograd.grad(g1.sum(), x)[0]
print(g1, g2)
print(torch.autograd.functional.jacobian(lambda v: v.sin() * v.sum(), torch.tensor([0.1, 0.2, 0.3])))
def f(a, b):
    return (a * b.exp()).sum()
print(torch.func.grad(f, argnums=(0, 1))(torch.tensor([1., 2.]), torch.tensor([0.5, -0.5])))
a = torch.tensor([1., 2., 3.], requires_grad=True)
b = a.clone()
b[1] = b[1] * 10
b.sum().backward()
print(a.grad, b.grad_fn)
with torch.no_grad():
    a.mul_(2)
print(a, a.requires_grad, a.is_leaf)
c = a.detach().numpy()
print(type(c).__name__, c.dtype, c.sum())
