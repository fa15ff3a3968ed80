# Tensors among Python's built-ins: f-string conversions and format specs of tensors (and PyTorch's error for a spec on a 1-D tensor), a module's extra_repr, sorted/max/min/sum over a list of tensors with key= and default=, dict union, zip(strict=True), enumerate over a tensor's rows, list.sort with a key, a tensor's ambiguous truth, item/int/float/round, what `with torch.no_grad() as g` binds in a loop (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
t = torch.tensor([1.5, -2.25, 3.0])
print(f"{t!r}", f"{t[0]!s}", str(t[1:]), f"{t.sum():+.2e}", format(t[2], ".1f"))
try:
    print(f"{t:.2f}")
except TypeError as e:
    print("TypeError", e)
try:
    torch.tensor("abc")
except (TypeError, ValueError) as e:
    print(type(e).__name__, e)
class Scale(nn.Module):
    def __init__(self, k):
        super().__init__()
        self.k = k
        self.inner = nn.Sequential(nn.Linear(2, 2), nn.ReLU())
    def extra_repr(self):
        return f"k={self.k}"
    def forward(self, x):
        return self.inner(x) * self.k
print(Scale(3))
xs = [torch.tensor(3.0), torch.tensor(1.0), torch.tensor(2.0)]
print(sorted(xs), max(xs), sum(xs), min(xs, key=lambda v: -v))
ys = [torch.tensor([1.0, 5.0]), torch.tensor([3.0, 0.0])]
print(max(ys, key=lambda v: v.sum()), min(ys, key=lambda v: v[1]), max([], default=None), max(xs, default=5))
try:
    max(ys, key=lambda v: v)
except RuntimeError as e:
    print(e)
print({"a": 1} | {"b": 2}, list(zip([1, 2], "ab", strict=True)))
for i, row in enumerate(torch.arange(6).view(3, 2)):
    print(i, row, row.tolist(), str(i).rjust(3, "."))
ls = [(2, "b"), (1, "z"), (2, "a")]
ls.sort(key=lambda p: (p[0], p[1]), reverse=True)
print(ls, t > 0, (t > 0).any().item(), bool((t > 0).all()))
try:
    if t > 0:
        pass
except RuntimeError as e:
    print(e)
print(torch.tensor([[1, 2], [3, 4]]).sum(dim=0).tolist(), t.numpy().tolist(), int(t[0]), float(t[1]))
print(torch.tensor(2.5).item().__class__.__name__, torch.tensor(3).item() + 1, round(t[1].item()))
for step in range(4):
    with torch.no_grad() as g:
        t.mul_(1.5)
    print(step, g, t[0].item())
