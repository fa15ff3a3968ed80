# Published code: the examples of torch.func's docstrings: vmap (batched dot products,
# a model over examples, a Jacobian from autograd.grad under vmap, nesting, in_dims,
# dicts, out_dims, kwargs), grad (second order, per-example gradients, has_aux), vjp
# (tuples, dicts, two inputs), jacrev, jvp, jacfwd, hessian and linearize.
# Source: PyTorch 2.13's torch/_functorch/apis.py (the examples of vmap's and grad's
#         docstrings) and torch/_functorch/eager_transforms.py (those of vjp, jacrev, jvp,
#         jacfwd, hessian and linearize), in that order; the notes on torch.no_grad inside
#         and around the transforms, which reuse an `x` from elsewhere, are left out.
# Adaptations:
#   - the examples are interactive sessions: each `>>> ` and `... ` line is a line here;
#     an expression whose value the session shows is wrapped in print(...) (marked
#     "# print added"), except `torch.dot`, which only names the function.
#   - added: `import torch` and torch.manual_seed(0) at the top (the docstrings assume
#     torch and draw unseeded), and after each example a print of what it computed.
import torch

torch.manual_seed(0)  # added

# --- vmap (torch/_functorch/apis.py)
torch.dot  # [D], [D] -> []
batched_dot = torch.func.vmap(torch.dot)  # [N, D], [N, D] -> [N]
x, y = torch.randn(2, 5), torch.randn(2, 5)
print(batched_dot(x, y))  # print added

batch_size, feature_size = 3, 5
weights = torch.randn(feature_size, requires_grad=True)

def model(feature_vec):
# Very simple linear model with activation
    return feature_vec.dot(weights).relu()

examples = torch.randn(batch_size, feature_size)
result = torch.vmap(model)(examples)
print(result)  # added

# Setup
N = 5
f = lambda x: x**2
x = torch.randn(N, requires_grad=True)
y = f(x)
I_N = torch.eye(N)

# Sequential approach
jacobian_rows = [torch.autograd.grad(y, x, v, retain_graph=True)[0]
                 for v in I_N.unbind()]
jacobian = torch.stack(jacobian_rows)
print(jacobian)  # added

# vectorized gradient computation
def get_vjp(v):
    return torch.autograd.grad(y, x, v)
jacobian = torch.vmap(get_vjp)(I_N)
print(jacobian)  # added

torch.dot  # [D], [D] -> []
batched_dot = torch.vmap(
    torch.vmap(torch.dot)
)  # [N1, N0, D], [N1, N0, D] -> [N1, N0]
x, y = torch.randn(2, 3, 5), torch.randn(2, 3, 5)
print(batched_dot(x, y))  # tensor of size [2, 3]  # print added

torch.dot  # [N], [N] -> []
batched_dot = torch.vmap(torch.dot, in_dims=1)  # [N, D], [N, D] -> [D]
x, y = torch.randn(2, 5), torch.randn(2, 5)
print(batched_dot(
    x, y
))  # output is [5] instead of [2] if batched along the 0th dimension  # print added

torch.dot  # [D], [D] -> []
batched_dot = torch.vmap(torch.dot, in_dims=(0, None))  # [N, D], [D] -> [N]
x, y = torch.randn(2, 5), torch.randn(5)
print(batched_dot(
    x, y
))  # second arg doesn't have a batch dim because in_dim[1] was None  # print added

f = lambda dict: torch.dot(dict["x"], dict["y"])
x, y = torch.randn(2, 5), torch.randn(5)
input = {"x": x, "y": y}
batched_dot = torch.vmap(f, in_dims=({"x": 0, "y": None},))
print(batched_dot(input))  # print added

f = lambda x: x**2
x = torch.randn(2, 5)
batched_pow = torch.vmap(f, out_dims=1)
print(batched_pow(x))  # [5, 2]  # print added

x = torch.randn([2, 5])
def fn(x, scale=4.):
  return x * scale

batched_pow = torch.vmap(fn)
assert torch.allclose(batched_pow(x), x * 4)
print(batched_pow(x, scale=x))  # scale is not batched, output has shape [2, 2, 5]  # print added

# --- grad (torch/_functorch/apis.py)
from torch.func import grad
x = torch.randn([])
cos_x = grad(lambda x: torch.sin(x))(x)
assert torch.allclose(cos_x, x.cos())

# Second-order gradients
neg_sin_x = grad(grad(lambda x: torch.sin(x)))(x)
assert torch.allclose(neg_sin_x, -x.sin())
print(cos_x, neg_sin_x)  # added

from torch.func import grad, vmap
batch_size, feature_size = 3, 5

def model(weights, feature_vec):
# Very simple linear model with activation
    assert feature_vec.dim() == 1
    return feature_vec.dot(weights).relu()

def compute_loss(weights, example, target):
    y = model(weights, example)
    return ((y - target) ** 2).mean()  # MSELoss

weights = torch.randn(feature_size, requires_grad=True)
examples = torch.randn(batch_size, feature_size)
targets = torch.randn(batch_size)
inputs = (weights, examples, targets)
grad_weight_per_example = vmap(grad(compute_loss), in_dims=(None, 0, 0))(
    *inputs
)
print(grad_weight_per_example)  # added

from torch.func import grad
def my_loss_func(y, y_pred):
   loss_per_sample = (0.5 * y_pred - y) ** 2
   loss = loss_per_sample.mean()
   return loss, (y_pred, loss_per_sample)

fn = grad(my_loss_func, argnums=(0, 1), has_aux=True)
y_true = torch.rand(4)
y_preds = torch.rand(4, requires_grad=True)
out = fn(y_true, y_preds)
# > output is ((grads w.r.t y_true, grads w.r.t y_preds), (y_pred, loss_per_sample))
print(out)  # added

# --- vjp (torch/_functorch/eager_transforms.py)
x = torch.randn([5])
f = lambda x: x.sin().sum()
(_, vjpfunc) = torch.func.vjp(f, x)
grad = vjpfunc(torch.tensor(1.0))[0]
assert torch.allclose(grad, torch.func.grad(f)(x))
print(_, grad)  # added

x = torch.randn([5])
f = lambda x: (x.sin(), x.cos())
(_, vjpfunc) = torch.func.vjp(f, x)
vjps = vjpfunc((torch.ones([5]), torch.ones([5])))
assert torch.allclose(vjps[0], x.cos() + -x.sin())
print(vjps)  # added

x = torch.randn([5])
f = lambda x: {"first": x.sin(), "second": x.cos()}
(_, vjpfunc) = torch.func.vjp(f, x)
cotangents = {"first": torch.ones([5]), "second": torch.ones([5])}
vjps = vjpfunc(cotangents)
assert torch.allclose(vjps[0], x.cos() + -x.sin())
print(_, vjps)  # added

x, y = torch.randn([5, 4]), torch.randn([4, 5])
(_, vjpfunc) = torch.func.vjp(torch.matmul, x, y)
cotangents = torch.randn([5, 5])
vjps = vjpfunc(cotangents)
assert len(vjps) == 2
assert torch.allclose(vjps[0], torch.matmul(cotangents, y.transpose(0, 1)))
assert torch.allclose(vjps[1], torch.matmul(x.transpose(0, 1), cotangents))

x = torch.randn([5])
def f(x, scale=4.):
  return x * scale
(_, vjpfunc) = torch.func.vjp(f, x)
vjps = vjpfunc(torch.ones_like(x))
assert torch.allclose(vjps[0], torch.full(x.shape, 4.0))
print(vjps)  # added

# --- jacrev
from torch.func import jacrev
x = torch.randn(5)
jacobian = jacrev(torch.sin)(x)
expected = torch.diag(torch.cos(x))
assert torch.allclose(jacobian, expected)
print(jacobian)  # added

from torch.func import jacrev
x = torch.randn(5)
def f(x):
  return x.sin()
def g(x):
  result = f(x)
  return result, result
jacobian_f, f_x = jacrev(g, has_aux=True)(x)
assert torch.allclose(f_x, f(x))
print(jacobian_f, f_x)  # added

from torch.func import jacrev, vmap
x = torch.randn(64, 5)
jacobian = vmap(jacrev(torch.sin))(x)
assert jacobian.shape == (64, 5, 5)
print(jacobian[3])  # added

from torch.func import jacrev
def f(x):
  return x.sin().sum()
x = torch.randn(5)
hessian = jacrev(jacrev(f))(x)
assert torch.allclose(hessian, torch.diag(-x.sin()))
print(hessian)  # added

from torch.func import jacrev
def f(x, y):
  return x + y ** 2
x, y = torch.randn(5), torch.randn(5)
jacobian = jacrev(f, argnums=1)(x, y)
expected = torch.diag(2 * y)
assert torch.allclose(jacobian, expected)

from torch.func import jacrev
def f(x, y):
  return x + y ** 2
x, y = torch.randn(5), torch.randn(5)
jacobian = jacrev(f, argnums=(0, 1))(x, y)
expectedX = torch.diag(torch.ones_like(x))
expectedY = torch.diag(2 * y)
assert torch.allclose(jacobian[0], expectedX)
assert torch.allclose(jacobian[1], expectedY)
print(jacobian)  # added

# --- jvp
from torch.func import jvp
x = torch.randn([])
f = lambda x: x * torch.tensor([1.0, 2.0, 3])
value, grad = jvp(f, (x,), (torch.tensor(1.0),))
assert torch.allclose(value, f(x))
assert torch.allclose(grad, torch.tensor([1.0, 2, 3]))
print(value, grad)  # added

from torch.func import jvp
x = torch.randn(5)
y = torch.randn(5)
f = lambda x, y: (x * y)
_, output = jvp(f, (x, y), (torch.ones(5), torch.ones(5)))
assert torch.allclose(output, x + y)
print(_, output)  # added

# --- jacfwd
from torch.func import jacfwd
x = torch.randn(5)
jacobian = jacfwd(torch.sin)(x)
expected = torch.diag(torch.cos(x))
assert torch.allclose(jacobian, expected)

from torch.func import jacfwd, vmap
x = torch.randn(64, 5)
jacobian = vmap(jacfwd(torch.sin))(x)
assert jacobian.shape == (64, 5, 5)

from torch.func import jacfwd
x = torch.randn(5)
def f(x):
  return x.sin()
def g(x):
  result = f(x)
  return result, result
jacobian_f, f_x = jacfwd(g, has_aux=True)(x)
assert torch.allclose(f_x, f(x))
print(jacobian_f, f_x)  # added

from torch.func import jacfwd, jacrev
def f(x):
  return x.sin().sum()
x = torch.randn(5)
hessian = jacfwd(jacrev(f))(x)
assert torch.allclose(hessian, torch.diag(-x.sin()))
print(hessian)  # added

from torch.func import jacfwd
def f(x, y):
  return x + y ** 2
x, y = torch.randn(5), torch.randn(5)
jacobian = jacfwd(f, argnums=1)(x, y)
expected = torch.diag(2 * y)
assert torch.allclose(jacobian, expected)

from torch.func import jacfwd
def f(x, y):
  return x + y ** 2
x, y = torch.randn(5), torch.randn(5)
jacobian = jacfwd(f, argnums=(0, 1))(x, y)
expectedX = torch.diag(torch.ones_like(x))
expectedY = torch.diag(2 * y)
assert torch.allclose(jacobian[0], expectedX)
assert torch.allclose(jacobian[1], expectedY)
print(jacobian)  # added

# --- hessian
from torch.func import hessian
def f(x):
  return x.sin().sum()
x = torch.randn(5)
hess = hessian(f)(x)  # equivalent to jacfwd(jacrev(f))(x)
assert torch.allclose(hess, torch.diag(-x.sin()))
print(hess.tolist())  # added

# --- linearize
import torch
from torch.func import linearize
def fn(x):
    return x.sin()
output, jvp_fn = linearize(fn, torch.zeros(3, 3))
print(jvp_fn(torch.ones(3, 3)))  # print added
print(output)  # added
