# Tutorial: Dive into Deep Learning, section "Automatic Differentiation" (pytorch tab)
# Source: d2l-ai/d2l-en chapter_preliminaries/autograd.md
#         (the search index's file id 54625959317, a recent version with the "Turning Off
#         Gradient Tracking" and "Higher-Order Derivatives" cells; the index reported no
#         commit for it)
# The `%%tab pytorch` code cells, in order (prose and the other frameworks' tabs left out).
# Adaptations:
#   - torch.manual_seed(0) added at the top (the chapter does not seed).
#   - The chapter is a notebook: the last line of a cell, when it is a bare expression,
#     is shown by Jupyter. Run as a script it would print nothing, so each such line is
#     wrapped in print(...) (marked "# print added"); `print(x.grad)` shows `None`
#     where the notebook shows nothing. Tensors, bools and tuples of tensors print the
#     same through print() as through Jupyter's repr.

import torch
torch.manual_seed(0)  # added

import torch

x = torch.arange(4.0)
print(x)  # print added

# Can also create x = torch.arange(4.0, requires_grad=True)
x.requires_grad_(True)
print(x.grad)  # The gradient is None by default  # print added

y = 2 * torch.dot(x, x)
print(y)  # print added

y.backward()
print(x.grad)  # print added

print(x.grad == 4 * x)  # print added

x.grad.zero_()  # Reset the gradient
y = x.sum()
y.backward()
print(x.grad)  # print added

x.grad.zero_()
y = x * x
y.backward(gradient=torch.ones(len(y)))  # Equivalently: y.sum().backward()
print(x.grad)  # print added

x.grad.zero_()
y = x * x
u = y.detach()
z = u * x

z.sum().backward()
print(x.grad == u)  # print added

x.grad.zero_()
y.sum().backward()
print(x.grad == 2 * x)  # print added

with torch.no_grad():
    y = 2 * torch.dot(x, x)
print(y.requires_grad)  # False: y is detached from the graph  # print added

def f(a):
    b = a * 2
    while b.norm() < 1000:
        b = b * 2
    if b.sum() > 0:
        c = b
    else:
        c = 100 * b
    return c

a = torch.randn(size=(), requires_grad=True)
d = f(a)
d.backward()

print(a.grad == d / a)  # print added

x3 = torch.tensor(2.0, requires_grad=True)
dy = torch.autograd.grad(x3 ** 3, x3, create_graph=True)[0]  # 3x^2 = 12
d2y = torch.autograd.grad(dy, x3)[0]                          # 6x  = 12
print((dy, d2y))  # print added
