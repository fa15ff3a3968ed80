# Published code: PyTorch tutorials, "Deep Learning with PyTorch: A 60 Minute Blitz",
# "What is PyTorch?" (tensors: creation, new_ones, randn_like, the ways to add, out=,
# in-place add_, indexing, view, item, and the NumPy bridge whose memory is shared).
# Source: pytorch/tutorials at 08c4ec986e5eddc66264d3f00f256aafe22d2786:
#         beginner_source/blitz/tensor_tutorial.py (its code, in order).
# Adaptations:
#   - the prose (the module docstring and the comment-only blocks between the code) is left
#     out; the code and its own comments are unchanged.
#   - added: torch.manual_seed(0) first (torch seeds itself differently on every start).
#   - `print(x)` of `torch.empty(5, 3)` prints its shape instead: empty's values are
#     whatever the memory held (they differ between two runs of torch itself).
from __future__ import print_function
import torch

torch.manual_seed(0)  # added

x = torch.empty(5, 3)
print(x.shape)  # adapted: empty's values are whatever memory held

x = torch.rand(5, 3)
print(x)

x = torch.zeros(5, 3, dtype=torch.long)
print(x)

x = torch.tensor([5.5, 3])
print(x)

x = x.new_ones(5, 3, dtype=torch.double)      # new_* methods take in sizes
print(x)

x = torch.randn_like(x, dtype=torch.float)    # override dtype!
print(x)                                      # result has the same size

print(x.size())

y = torch.rand(5, 3)
print(x + y)

print(torch.add(x, y))

result = torch.empty(5, 3)
torch.add(x, y, out=result)
print(result)

# adds x to y
y.add_(x)
print(y)

print(x[:, 1])

x = torch.randn(4, 4)
y = x.view(16)
z = x.view(-1, 8)  # the size -1 is inferred from other dimensions
print(x.size(), y.size(), z.size())

x = torch.randn(1)
print(x)
print(x.item())

a = torch.ones(5)
print(a)

b = a.numpy()
print(b)

a.add_(1)
print(a)
print(b)

import numpy as np
a = np.ones(5)
b = torch.from_numpy(a)
np.add(a, 1, out=a)
print(a)
print(b)

if torch.cuda.is_available():
    device = torch.device("cuda")          # a CUDA device object
    y = torch.ones_like(x, device=device)  # directly create a tensor on GPU
    x = x.to(device)                       # or just use strings ``.to("cuda")``
    z = x + y
    print(z)
    print(z.to("cpu", torch.double))       # ``.to`` can also change dtype together!
