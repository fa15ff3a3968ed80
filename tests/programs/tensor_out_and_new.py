# out= on the ops (the result written into out: cast, resized with PyTorch's warning,
# refused when autograd would be needed or the cast is not allowed) and the Tensor.new_*
# constructors (x's dtype unless dtype= says).
import torch

x = torch.tensor([1.5, 2.0, 3.0])
y = torch.tensor([0.5, 1.0, 2.0])
r = torch.empty(3)
print(torch.add(x, y, out=r), r)
r2 = torch.zeros(2)
q = torch.mul(x, y, out=r2)
print(q is r2, r2)
d = torch.zeros(3, dtype=torch.float64)
print(torch.sub(x, y, out=d))
print(torch.exp(x, out=torch.empty(0)))
print(torch.matmul(x, y, out=torch.empty(())))
v = torch.zeros(2, 3)
torch.add(x, 1, out=v[1])
print(v)
l = torch.zeros(3, dtype=torch.long)
try:
    torch.add(x, y, out=l)
except RuntimeError as e:
    print(e)
w = torch.ones(3, requires_grad=True)
try:
    torch.add(w, y, out=r)
except RuntimeError as e:
    print(e)
with torch.no_grad():
    print(torch.add(w, y, out=r))

print(x.new_ones(2, 3))
print(x.new_ones((2,), dtype=torch.double))
print(x.new_zeros(3, requires_grad=True))
print(x.new_full((2, 2), 7))
print(x.new_full((2,), 7, dtype=torch.int64))
print(x.new_empty(0).shape)
print(x.new_tensor([1, 2]))
i = torch.tensor([1, 2])
print(i.new_tensor([1.7, 2]))
print(i.new_ones(2), i.new_zeros(size=(1, 2)))
print(x.double().new_tensor(3))
print(x.new_tensor(x))
