# Layers asked to work in place (nn.ReLU(inplace=True), nn.Dropout(inplace=True) and
# F.dropout(..., inplace=True), nn.Dropout2d/3d(inplace=True)): the input itself changed and
# returned, its version counted, the grad_fn names, the gradients, PyTorch's errors for a
# leaf and for a value a backward needs that a later in-place layer changed, and the
# torchvision-style stack of Linear, ReLU(inplace) and Dropout.  (Written for this suite;
# the output is torch's.)
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(4)
y = nn.ReLU(inplace=True)(x)
print(x, y, y is x, x._version)
x = torch.randn(6)
y = F.dropout(x, 0.5, inplace=True)
print(x, y is x, x._version)
x = torch.randn(6)
y = nn.Dropout(0.3, inplace=True)(x)
print(x, y is x)
a = torch.randn(5, requires_grad=True)
b = a * 2
c = nn.Dropout(0.5, inplace=True)(b)
print(c.grad_fn.name(), c is b)
c.sum().backward()
print(a.grad)
b = a * 2
c = nn.ReLU(inplace=True)(b)
print(c.grad_fn.name(), c is b)
c.sum().backward()
print(a.grad)
x = torch.randn(2, 3, 4, 4)
y = nn.Dropout2d(0.5, inplace=True)(x)
print(y is x, x[0, :, 0, 0], x[1, :, 1, 1])
x = torch.randn(2, 3, 2, 2, 2)
y = nn.Dropout3d(0.5, inplace=True)(x)
print(y is x, x[:, :, 0, 0, 0])
m = nn.Dropout(0.5, inplace=True)
m.eval()
x = torch.randn(3)
print(m(x) is x, x._version)
print(nn.Sequential(nn.ReLU(inplace=True), nn.Dropout(0.1, inplace=True)))
try:
    nn.ReLU(inplace=True)(a)
except RuntimeError as e:
    print("RuntimeError:", e)
net = nn.Sequential(nn.Linear(3, 4), nn.ReLU(inplace=True), nn.Dropout(0.2, inplace=True), nn.Linear(4, 1))
out = net(torch.randn(5, 3))
try:
    out.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
net = nn.Sequential(nn.Linear(3, 4), nn.Dropout(0.2), nn.ReLU(inplace=True), nn.Linear(4, 1))
out = net(torch.randn(5, 3))
out.sum().backward()
print(out, net[0].weight.grad)
