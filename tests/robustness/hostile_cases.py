"""Programs where gradcli once differed from PyTorch in silence (an adversary's
findings), run by scripts/gen_golden.py hostile under torch 2.13 to record
tests/golden/hostile.json, and by tests/robustness/test_hostile.py under gradcli.  Each is
(name, source)."""

CASES = [
    (
        "no_grad_decorates_a_generator",
        """
@torch.no_grad()
def gen():
    yield torch.is_grad_enabled()
    yield torch.is_grad_enabled()
@torch.enable_grad()
def gen2():
    yield torch.is_grad_enabled()
print(list(gen()))
with torch.no_grad():
    print(list(gen2()))
g = gen()
print(next(g), torch.is_grad_enabled(), next(g))
def outer():
    yield from gen()
print(list(outer()))
""",
    ),
    (
        "func_grad_keeps_a_closed_over_parameter",
        """
w = torch.tensor([1., 2.], requires_grad=True)
def f(x):
    return (x * w).sum()
g = torch.func.grad(f)(torch.tensor([3., 4.]))
print(g, g.requires_grad)
g.sum().backward()
print(w.grad)
v = torch.tensor([1., 1.])
print(torch.func.grad(lambda x: (x * x * v).sum())(torch.tensor([3., 4.])))
out, fn = torch.func.vjp(lambda x: x * w, torch.tensor([3., 4.]))
print(out, fn(torch.ones(2)))
print(torch.func.jacrev(lambda x: x * w)(torch.tensor([3., 4.])))
""",
    ),
    (
        "func_transforms_of_dicts_and_lists",
        """
x = torch.tensor([1., 2.])
print(torch.func.jacrev(lambda x: {"a": x * 2, "b": x.sum()})(x))
print(torch.func.jacrev(lambda x: [x * 2, x.sum()])(x))
print(torch.func.jacrev(lambda x: (x * 2, {"c": x.sum()}))(x))
print(torch.func.jacfwd(lambda x: {"a": x * 2, "b": x.sum()})(x))
print(torch.func.grad(lambda d: (d["a"] * d["b"]).sum())({"a": x, "b": x * 3}))
print(torch.func.vjp(lambda x: {"a": x * 2}, x)[1]({"a": torch.ones(2)}))
""",
    ),
    (
        "hook_results_are_checked",
        """
x = torch.tensor([1., 2.], dtype=torch.float32, requires_grad=True)
h = x.register_hook(lambda g: [1, 2])
try:
    (x * 2).sum().backward()
except TypeError as e:
    print(type(e).__name__, e)
h.remove()
y = x * 2
h = y.register_hook(lambda g: g.double())
try:
    y.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
y = x * 2
h = y.register_hook(lambda g: g.sum())
try:
    y.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
y = x * 2
h = y.register_hook(lambda g: 3)
try:
    y.sum().backward()
except TypeError as e:
    print(type(e).__name__, e)
y = x * 2
h = y.register_hook(lambda g: g.to(torch.int64))
try:
    y.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
y = x * 2
h = y.register_hook(lambda g: g > 0)
try:
    y.sum().backward()
except RuntimeError as e:
    print(type(e).__name__, e)
print(x.grad)
""",
    ),
    (
        "saved_tensors_after_the_graph_is_freed",
        """
saved = []
class F(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        saved.append(ctx)
        return x * 2
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return g * 2
x = torch.tensor([1., 2.], requires_grad=True)
y = F.apply(x)
y.sum().backward()
try:
    print(saved[0].saved_tensors)
except RuntimeError as e:
    print(type(e).__name__, e)
y2 = F.apply(x)
y2.sum().backward(retain_graph=True)
print(saved[1].saved_tensors)
y2.sum().backward()
print(x.grad)
y3 = F.apply(x)
y3.backward(torch.ones(2))
y3.backward(torch.ones(2))
""",
    ),
    (
        "tensor_attributes_take_their_types",
        """
x = torch.tensor([1., 2.], requires_grad=True)
y = x * 2
for v in [None, 1.5, "s", (1,), 5, [1., 2.]]:
    try:
        x.data = v
    except TypeError as e:
        print(type(e).__name__, e)
for v in [0, "", None, "yes", 1]:
    try:
        y.requires_grad = v
    except RuntimeError as e:
        print(type(e).__name__, e)
z = torch.tensor([1., 2.])
z.data = torch.tensor([5., 6., 7.])
print(z)
z.requires_grad = True
print(z)
""",
    ),
    (
        "gradcheck_in_float32",
        """
x = torch.tensor([1., 2.], dtype=torch.float32, requires_grad=True)
try:
    print(torch.autograd.gradcheck(lambda v: v * 2, (x,)))
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.autograd.gradcheck(lambda v: v * 2, (x,), raise_exception=False))
y = torch.tensor([[1., 2.], [0.5, 3.]], dtype=torch.float32, requires_grad=True)
try:
    print(torch.autograd.gradcheck(lambda v: (v.exp() * v).sum(0), (y,)))
except RuntimeError as e:
    print(type(e).__name__, e)
print(torch.autograd.gradcheck(lambda v: v * 2, (x,), eps=1e-2, atol=1e-2))
x = torch.tensor([1., 2.], requires_grad=True)
print(torch.autograd.gradcheck(lambda v: v * 2, (x,)))
""",
    ),
    (
        "tensor_in_a_list",
        """
t = torch.tensor([1., 2.])
o = torch.tensor([3., 4.])
s = torch.tensor(1.)
print(t in [t], s in [torch.tensor(1.)], s in [torch.tensor(2.)], t in {"a": 1})
print(s in [None, "a"], s in [1.0], 1.0 in [s], None in [t], "a" in [t])
print([1.0, s].index(s))
for k in range(3):
    try:
        if k == 0:
            print(t in [o])
        elif k == 1:
            print(t in (o,))
        else:
            print(t in [1, 2])
    except RuntimeError as e:
        print(type(e).__name__, e)
""",
    ),
    (
        "parameter_repr_keeps_the_line_width",
        """
torch.set_printoptions(linewidth=40)
p = torch.nn.Parameter(torch.arange(12.).reshape(2, 6) / 7)
print(p)
p
torch.set_printoptions(linewidth=80)
""",
    ),
    (
        "max_pool2d_float32_overlapping_windows_gradient",
        """
torch.manual_seed(1)
x = torch.randn(4, 3, 9, 9, dtype=torch.float32, requires_grad=True)
w = torch.randn(4, 3, 9, 9, dtype=torch.float32)
y = torch.nn.functional.max_pool2d(x, 3, stride=1, padding=1)
(y * w).sum().backward()
print(x.grad[1, 2, 3].tolist())
print(x.grad.sum().item())
x.grad = None
y = torch.nn.functional.max_pool2d(x, (3, 2), stride=(2, 1), dilation=(1, 2))
(y * y * 1.1).sum().backward()
print(x.grad[0].sum(dim=(1, 2)).tolist(), x.grad[2, 1, 4].tolist())
""",
    ),
    (
        "split_pieces_gradients_as_one_node",
        """
# PyTorch's split/chunk/unbind is one node: the pieces' gradients are written into one
# zero array (-0.0 stays), whatever order the pieces' consumers run in
w = torch.zeros(4, requires_grad=True)
v0, v1 = (w * 1).chunk(2)
((v0 * -0.0).sum() + (v1 * -0.0).sum()).backward()
print(w.grad)
x = torch.arange(12.0, requires_grad=True)
h = x * 1.5
a, b, c = h.split([5, 3, 4])
rows = h.reshape(3, 4).unbind(0)
parts = torch.chunk(h, 4)
y = (a * a).sum() + rows[2].sum() * 3 + (parts[1] * c[:3]).sum() + h.sum() * -0.0
y = y + (rows[0][1:] * parts[3]).sum() + (b.exp() * 1e-3).sum()
y.backward(retain_graph=True)
print(x.grad)
x.grad = None
(c.sum() + rows[1].sum()).backward(retain_graph=True)
print(x.grad)
seen = []
rows[1].register_hook(lambda g: seen.append(g.sum().item()))
x.grad = None
(a.sum() * 2 + b.sum() + rows[1].sum()).backward(retain_graph=True)
print(x.grad, seen)
print(torch.autograd.grad(c.sum() * 3 + a.sum(), x, retain_graph=True))
print(torch.autograd.grad((b * b).sum(), b, create_graph=True))
u = torch.tensor([[1.0, -2.0], [3.0, 4.0]], requires_grad=True)
p, q = u.unbind(1)
(p * q).sum().backward()
print(u.grad)
""",
    ),
]
