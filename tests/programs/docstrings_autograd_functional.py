# Published code: the examples of torch.autograd.functional's docstrings (vjp, jvp,
# jacobian, hessian, vhp, hvp), each with and without create_graph=True, on one
# function and on a function of two inputs.
# Source: PyTorch 2.13's torch/autograd/functional.py (the `Example:` sections of the
#         docstrings of vjp, jvp, jacobian, hessian, vhp and hvp, in that order).
# Adaptations:
#   - the examples are interactive sessions: each `>>> ` line is a statement here, and
#     each expression whose value the session shows is wrapped in print(...).
#   - added: `import torch`, `from torch.autograd.functional import ...` and
#     torch.manual_seed(0) at the top (the docstrings assume them and draw unseeded).
import torch
from torch.autograd.functional import vjp, jvp, jacobian, hessian, vhp, hvp

torch.manual_seed(0)

# --- vjp
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(4, 4)
v = torch.ones(4)
print(vjp(exp_reducer, inputs, v))

print(vjp(exp_reducer, inputs, v, create_graph=True))

def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.rand(2), torch.rand(2))
v = torch.ones(2)
print(vjp(adder, inputs, v))

# --- jvp
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(4, 4)
v = torch.ones(4, 4)
print(jvp(exp_reducer, inputs, v))

print(jvp(exp_reducer, inputs, v, create_graph=True))

def adder(x, y):
    return 2 * x + 3 * y
inputs = (torch.rand(2), torch.rand(2))
v = (torch.ones(2), torch.ones(2))
print(jvp(adder, inputs, v))

# --- jacobian
def exp_reducer(x):
    return x.exp().sum(dim=1)
inputs = torch.rand(2, 2)
print(jacobian(exp_reducer, inputs))

print(jacobian(exp_reducer, inputs, create_graph=True))

def exp_adder(x, y):
    return 2 * x.exp() + 3 * y
inputs = (torch.rand(2), torch.rand(2))
print(jacobian(exp_adder, inputs))

def linear_model(x):
    W = torch.tensor([[2.0, -1.0], [0.0, 1.0]])
    b = torch.tensor([1.0, 0.5])
    return x @ W.T + b

x = torch.randn(4, 2, requires_grad=True)
jac = jacobian(linear_model, x, vectorize=True)
print(jac.shape)

# --- hessian
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
print(hessian(pow_reducer, inputs))

print(hessian(pow_reducer, inputs, create_graph=True))

def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
print(hessian(pow_adder_reducer, inputs))

# --- vhp
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(vhp(pow_reducer, inputs, v))
print(vhp(pow_reducer, inputs, v, create_graph=True))
def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(vhp(pow_adder_reducer, inputs, v))

# --- hvp
def pow_reducer(x):
    return x.pow(3).sum()
inputs = torch.rand(2, 2)
v = torch.ones(2, 2)
print(hvp(pow_reducer, inputs, v))

print(hvp(pow_reducer, inputs, v, create_graph=True))

def pow_adder_reducer(x, y):
    return (2 * x.pow(2) + 3 * y.pow(2)).sum()
inputs = (torch.rand(2), torch.rand(2))
v = (torch.zeros(2), torch.ones(2))
print(hvp(pow_adder_reducer, inputs, v))
