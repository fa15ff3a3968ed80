"""Golden cases for in-place tensor operations: version counters and
PyTorch's errors, the graph rebased by an in-place op, views sharing storage
(CopySlices / AsStridedBackward0), recorded from real PyTorch by
scripts/gen_golden.py inplace into tests/golden/inplace.json and replayed by
tests/ops/test_inplace.py.  The rules of tests/fidelity/golden_cases.py apply.

Cases named `pending/...` use `x[i] = v` and `x op= y` on tensors, which the
compiler turns into calls of gradcli.library.inplace (setitem, AUGMENTED) once the
language work lands; until then tests/ops/test_inplace.py skips them."""

import textwrap

CASES = []


def case(name, src):
    if any(n == name for n, _ in CASES):
        raise ValueError("duplicate case name: " + name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


HEAD = "import torch\nx = torch.tensor([1., 2., 3.], requires_grad=True)\n"

# ---------------------------------------------------------------- version counters

case(
    "version/saved_output_modified",
    HEAD
    + """
y = x.exp()
y._version
y.add_(1)
print(y.grad_fn)
y._version
y.sum().backward()
""",
)

case(
    "version/saved_input_modified",
    HEAD
    + """
y = x * 2
z = y * y
y.mul_(2)
y._version
z.sum().backward()
""",
)

case(
    "version/saved_constant_modified",
    HEAD
    + """
w = torch.ones(3)
z = x * w
w.add_(1)
z.sum().backward()
""",
)

case(
    "version/leaf_modified_under_no_grad",
    HEAD
    + """
z = x * x
with torch.no_grad():
    x.add_(1)
x._version
x.is_leaf
z.sum().backward()
""",
)

case(
    "version/tanh_output_zeroed",
    HEAD
    + """
y = x.tanh()
z = y + 1
y.zero_()
z.sum().backward()
""",
)

case(
    "version/sin_input_exp_",
    HEAD
    + """
y = x * 2
z = y.sin()
y.exp_()
z.sum().backward()
""",
)

case(
    "version/view_of_graph_modified",
    HEAD
    + """
y = (x * 1).view(3, 1)
z = y * y
y.add_(1)
print(y.grad_fn)
z.sum().backward()
""",
)

case(
    "version/float32",
    """
import torch
x = torch.tensor([1., 2., 3.], dtype=torch.float32, requires_grad=True)
y = x.sigmoid()
y.mul_(2)
y.sum().backward()
""",
)

case(
    "version/unchanged_is_fine",
    HEAD
    + """
y = x * 2
z = y * y
w = y + 1
w.add_(1)
z.sum().backward()
x.grad
""",
)

case(
    "version/detach_shares_counter",
    HEAD
    + """
y = x.exp()
d = y.detach()
d.zero_()
y._version
y
y.sum().backward()
""",
)

# ---------------------------------------------------------------- leaves

case("leaf/add_", HEAD + "x.add_(1)\n")
case("leaf/zero_", HEAD + "x.zero_()\n")
case("leaf/view_select", HEAD + "v = x[0]\nv.add_(1)\n")
case("leaf/view_view", HEAD + "v = x.view(3)\nv.mul_(2)\n")
case(
    "leaf/no_grad_step",
    HEAD
    + """
loss = (x * x).sum()
loss.backward()
with torch.no_grad():
    x.sub_(0.1 * x.grad)
x
x.grad
x.is_leaf
x._version
x.grad.zero_()
x.grad
""",
)

# ---------------------------------------------------------------- rebased graphs

case(
    "rebase/arith",
    HEAD
    + """
y = x * 1
y.add_(1)
y.sub_(0.5)
y.mul_(x)
y.div_(2)
y.pow_(2)
print(y.grad_fn, y._version)
y.sum().backward()
x.grad
""",
)

case(
    "rebase/add_alpha",
    HEAD
    + """
y = x * 1
y.add_(x, alpha=2)
y.sub_(torch.ones(3), alpha=3)
y
y.sum().backward()
x.grad
""",
)

case(
    "rebase/unary",
    HEAD
    + """
z = x * 1
print(z.exp_().grad_fn, z._version)
z = x * 1
print(z.neg_().grad_fn, z._version)
z = x * 1
print(z.sqrt_().grad_fn, z._version)
z = x * 1
print(z.abs_().grad_fn, z._version)
z = x * 1
print(z.relu_().grad_fn, z._version)
z = x * 1
print(z.sigmoid_().grad_fn, z._version)
z = x * 1
print(z.tanh_().grad_fn, z._version)
z = x * 1
print(z.log_().grad_fn, z._version)
z = x * 1
print(z.sin_().grad_fn, z._version)
z = x * 1
print(z.cos_().grad_fn, z._version)
""",
)

case(
    "rebase/unary_values",
    HEAD
    + """
y = x * 1
y.exp_()
y.neg_()
y.abs_()
y.sqrt_()
y.log_()
y.sum().backward()
x.grad
""",
)

case(
    "rebase/clamp",
    HEAD
    + """
y = x * 1
y.clamp_(1.5, 2.5)
print(y.grad_fn)
y.sum().backward()
x.grad
""",
)

case(
    "rebase/mul_twice",
    HEAD
    + """
y = x * 1
y.mul_(x)
y.mul_(x)
y.sum().backward()
x.grad
""",
)

case(
    "rebase/zero_fill",
    HEAD
    + """
y = x * 1
y.zero_()
print(y.grad_fn)
y.fill_(2)
print(y.grad_fn)
y.fill_(torch.tensor(3.))
print(y.grad_fn)
y.fill_(x[0])
print(y.grad_fn)
y
y.sum().backward()
x.grad
""",
)

case(
    "rebase/zero_gives_zero_grad",
    HEAD
    + """
y = x * 1
y.zero_()
y.sum().backward()
x.grad
""",
)

case(
    "rebase/copy_",
    HEAD
    + """
y = x * 1
w = x * 2
y.copy_(w)
print(y.grad_fn)
y.sum().backward()
x.grad
""",
)

case(
    "rebase/masked_fill_",
    HEAD
    + """
y = x * 2
y.masked_fill_(torch.tensor([True, False, True]), 0.)
print(y.grad_fn)
y
y.sum().backward()
x.grad
""",
)

case(
    "rebase/index_add_",
    HEAD
    + """
y = x * 1
y.index_add_(0, torch.tensor([0, 0, 2]), x * x)
print(y.grad_fn)
y
y.sum().backward()
x.grad
""",
)

case(
    "rebase/into_plain_tensor",
    HEAD
    + """
a = torch.zeros(3)
a.add_(x)
print(a.grad_fn)
a.is_leaf
a.requires_grad
a.sum().backward()
x.grad
""",
)

case(
    "rebase/no_grad_keeps_graph",
    HEAD
    + """
y = x * 2
with torch.no_grad():
    y.add_(1)
print(y.grad_fn)
y._version
y.sum().backward()
x.grad
""",
)

# ---------------------------------------------------------------- values and errors

case(
    "values/plain",
    """
import torch
a = torch.ones(3)
a.add_(1, alpha=2)
a.sub_(torch.ones(3), alpha=3)
a.clamp_(min=0)
a.masked_fill_(a == 0, 5)
a.index_add_(0, torch.tensor([0, 2]), torch.ones(2), alpha=2)
a.mul_(2).div_(4)
a
a._version
b = torch.ones(2, 3)
b.index_add_(1, torch.tensor([2, 0]), torch.tensor([[1., 2.], [3., 4.]]))
b.copy_(torch.tensor([1, 2, 3]))
b.pow_(2)
""",
)

case(
    "values/returns_self",
    """
import torch
a = torch.ones(3)
b = a.add_(1)
b.mul_(3)
a
""",
)

case("errors/long_add_float", "import torch\na = torch.zeros(3, dtype=torch.long)\na.add_(1.5)\n")
case("errors/long_div", "import torch\na = torch.ones(3, dtype=torch.long)\na.div_(2)\n")
case("errors/long_exp", "import torch\na = torch.ones(3, dtype=torch.long)\na.exp_()\n")
case("errors/long_mul_int_ok", "import torch\na = torch.ones(3, dtype=torch.long)\na.mul_(3)\na\n")
case("errors/broadcast_bigger", "import torch\na = torch.zeros(3)\na.add_(torch.ones(2, 3))\n")
case(
    "errors/broadcast_smaller_ok",
    "import torch\na = torch.zeros(2, 3)\na.add_(torch.tensor([1., 2., 3.]))\na\n",
)
case("errors/copy_shape", "import torch\na = torch.ones(3)\na.copy_(torch.ones(2))\n")
case(
    "errors/expand_write", "import torch\na = torch.zeros(2, 3)\ne = a.expand(4, 2, 3)\ne.add_(1)\n"
)

# ---------------------------------------------------------------- views

case(
    "views/share_storage",
    """
import torch
a = torch.zeros(2, 3)
y = a[0]
y.fill_(1)
a
t = a.t()
t[0, 1].fill_(7)
a
r = a.reshape(6)
r[0].fill_(9)
a
a.view(3, 2)[2].zero_()
a
a.unsqueeze(0).squeeze(0).permute(1, 0)[2, 0].fill_(4)
a
a.transpose(0, 1)[1:].mul_(10)
a
a._version
y._version
a.detach().zero_()
a
a._version
""",
)

case(
    "views/element_of_vector",
    """
import torch
v = torch.tensor([1., 2., 3.])
v[1].add_(10)
v
v[-1].zero_()
v
v[::2].mul_(2)
v
""",
)

case(
    "views/copy_not_view",
    """
import torch
a = torch.tensor([1., 2., 3.])
b = a[torch.tensor([0, 1])]
b.zero_()
a
c = a.clone()
c.zero_()
a
""",
)

case(
    "views/select_of_graph",
    HEAD
    + """
y = x * 1
v = y[0]
v.mul_(2)
print(y.grad_fn, v.grad_fn)
y._version
v._version
y
y.sum().backward()
x.grad
""",
)

case(
    "views/slice_of_graph",
    HEAD
    + """
y = x * 1
v = y[1:]
v.mul_(2)
print(v.grad_fn, y.grad_fn)
v._version
y._version
v.sum().backward()
x.grad
""",
)

case(
    "views/plain_base_gets_graph",
    HEAD
    + """
a = torch.zeros(3)
a[0].add_(x[1] * 3)
print(a.grad_fn)
a.requires_grad
a.is_leaf
a.sum().backward()
x.grad
""",
)

case(
    "views/view_of_view",
    HEAD
    + """
y = (x * 1).view(3, 1)
y[1:].mul_(3)
y
y.sum().backward()
x.grad
""",
)

case(
    "views/transposed_matrix",
    """
import torch
w = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
m = w * 1
m.t()[0].mul_(5)
m
print(m.grad_fn)
(m * m).sum().backward()
w.grad
""",
)

# ---------------------------------------------------------------- pending: x[i] = v, x op= y

case(
    "pending/setitem_basic",
    """
import torch
a = torch.zeros(2, 3)
a[0] = torch.tensor([1., 2., 3.])
a[:, 1] = 7
a[1][2] = 5
a
a._version
""",
)

case(
    "pending/setitem_graph",
    HEAD
    + """
y = x * 1
y[0] = 5
print(y.grad_fn)
y._version
y[1:] = x[:2]
print(y.grad_fn)
y += 1
print(y.grad_fn)
y *= x
print(y.grad_fn)
y.sum().backward()
x.grad
""",
)

case(
    "pending/setitem_into_plain",
    HEAD
    + """
a = torch.zeros(3)
a[0] = x[1] * 3
print(a.grad_fn)
a.is_leaf
a.sum().backward()
x.grad
""",
)

case(
    "pending/setitem_advanced",
    HEAD
    + """
y = x * 1
y[y > 1] = 0
print(y.grad_fn)
y[[0, 1]] = x[:2]
print(y.grad_fn)
y.sum().backward()
x.grad
b = torch.zeros(3)
b[torch.tensor([0, 0])] = torch.tensor([1., 2.])
b
b[b > 0] = 5
b
""",
)

case(
    "pending/setitem_cast",
    """
import torch
a = torch.zeros(3, dtype=torch.long)
a[0] = 2.7
a
a[:] = torch.tensor([1.5, 2.5, 3.5])
a
""",
)

case("pending/setitem_leaf", HEAD + "x[0] = 1\n")
case("pending/setitem_str", "import torch\na = torch.zeros(3)\na[0] = 'a'\n")
case("pending/setitem_out_of_range", "import torch\na = torch.zeros(3)\na[5] = 1\n")
case("pending/setitem_shape", "import torch\na = torch.zeros(3)\na[0:2] = torch.ones(3)\n")

case(
    "pending/iadd_aliases",
    """
import torch
a = torch.zeros(3)
b = a
b += 1
a
b -= 0.5
b *= 4
b /= 2
a
a._version
""",
)

case(
    "pending/iadd_plain_gets_graph",
    HEAD
    + """
y = torch.zeros(3)
y += x
print(y.grad_fn)
y.is_leaf
y.sum().backward()
x.grad
""",
)

case("pending/iadd_leaf", HEAD + "x += 1\n")
case("pending/iadd_long_float", "import torch\ny = torch.zeros(3, dtype=torch.long)\ny += 1.5\n")
case("pending/iadd_shape", "import torch\ny = torch.zeros(3)\ny += torch.ones(2, 3)\n")

case(
    "pending/sgd_step",
    """
import torch
w = torch.tensor([1., -2., 3.], requires_grad=True)
w_same = w
for step in range(3):
    loss = (w * w).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.25 * w.grad
    w.grad.zero_()
w
w_same
w.is_leaf
w._version
""",
)

case(
    "views/regenerated_after_base_changes",
    HEAD
    + """
y = x * 1
v = y[0]
w = y[1:]
y.mul_(2)
print(v.grad_fn, w.grad_fn)
v
(v + w.sum()).backward()
x.grad
""",
)

case(
    "views/plain_view_joins_graph",
    HEAD
    + """
a = torch.zeros(3)
v = a[2]
a[0].add_(x[1])
print(v.grad_fn)
v.requires_grad
""",
)
case(
    "views/expand_without_overlap",
    """
import torch
p = torch.tensor([1.0, 2.0])
c = p.expand(2)
_ = c.mul_(3)
print(p, c)
q = torch.tensor([1.0, 2.0])
_ = q.expand_as(q).add_(1)
q
r = torch.tensor([1.0, 2.0])
_ = r.unsqueeze(0).expand(1, 2).mul_(2)
r
s = torch.tensor([[1.0], [2.0]])
e = s.expand(2, 1)
e[1] = 7.0
s
w = torch.tensor([1.0, 2.0], requires_grad=True)
v = w * 1
u = v.expand(2)
_ = u.mul_(2)
v
v.grad_fn.name()
u.grad_fn.name()
v.sum().backward()
w.grad
t = torch.tensor([1.0, 2.0], requires_grad=True) * 1
t.expand(2, 2).add_(1)
""",
)

# ---------------------------------------------------------------- a convolution's saved input
# (the weight's gradient is made from the input it saved, as it is when backward runs)

CONV = """import torch
import torch.nn.functional as F
torch.manual_seed(0)
x = torch.randn(3, 2, 6, 5)
w = torch.randn(4, 2, 3, 2, requires_grad=True)
b = torch.randn(4, requires_grad=True)
"""

case(
    "conv/input_changed_through_data",
    CONV
    + """
y = F.conv2d(x, w, b)
x.data.mul_(-2.0)
y.pow(2).sum().backward()
w.grad
b.grad
""",
)

case(
    "conv/input_changed_in_place",
    CONV
    + """
y = F.conv2d(x, w, b, stride=(2, 1))
with torch.no_grad():
    x.add_(1.0)
y.sum().backward()
""",
)

case(
    "conv/input_changed_between_backwards",
    CONV
    + """
y = F.conv2d(x, w, b, dilation=(1, 2))
z = (y * y).sum()
z.backward(retain_graph=True)
w.grad
x.data.add_(0.25)
w.grad = None
z.backward()
w.grad
""",
)

case(
    "conv/input_unpacked_changed",
    CONV
    + """
def pk(t):
    return t
def up(t):
    return t * 3 if t.dim() == 4 and not t.requires_grad else t
with torch.autograd.graph.saved_tensors_hooks(pk, up):
    y = F.conv2d(x, w, b)
y.sum().backward()
w.grad
""",
)
