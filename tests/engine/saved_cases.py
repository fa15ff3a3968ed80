"""Programs on saved tensors (grad_fn._saved_<name>, torch.autograd.graph's
saved_tensors_hooks, save_on_cpu, disable_saved_tensors_hooks), run by
scripts/gen_golden.py saved under torch 2.13 to record tests/golden/saved.json and by
tests/engine/test_saved_tensors.py under gradcli.  Each is (name, source)."""

_AB = """a = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
b = torch.tensor([4.0, 5.0, 6.0], requires_grad=True)
c = torch.tensor([0.5, -1.0, 2.0])
M = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
N = torch.tensor([[0.5, -1.0], [2.0, 1.5]], requires_grad=True)
"""

_HOOKS = (
    _AB
    + """def pk(x):
    print("Packing", x)
    return x
def up(x):
    print("Unpacking", x)
    return x
"""
)


def _attrs(expr, names):
    lines = ["y = " + expr]
    for n in names:
        lines.append("print(%r, y.grad_fn._saved_%s)" % (n, n))
    return _AB + "\n".join(lines) + "\n"


def _packs(expr):
    return _HOOKS + (
        "with torch.autograd.graph.saved_tensors_hooks(pk, up):\n"
        "    y = %s\nprint('backward')\ny.sum().backward()\n" % expr
    )


_ATTRS = {
    "mul": ("a * b", ["self", "other"]),
    "mul_const_tensor": ("a * c", ["self", "other"]),
    "mul_const_tensor_left": ("c * a", ["self", "other"]),
    "mul_number": ("a * 2", ["self", "other"]),
    "mul_float": ("a * 2.5", ["self", "other"]),
    "add": ("a + b", ["alpha"]),
    "sub": ("a - 2", ["alpha"]),
    "rsub": ("2 - a", ["alpha"]),
    "div": ("a / b", ["self", "other"]),
    "div_const": ("c / a", ["self", "other"]),
    "div_number": ("a / 2", ["self", "other"]),
    "pow_number": ("a ** 2", ["self", "exponent"]),
    "pow_float": ("a ** 2.5", ["self", "exponent"]),
    "pow_tensor": ("a ** b", ["self", "exponent", "result"]),
    "pow_const_exponent": ("a ** c", ["self", "exponent", "result"]),
    "rpow": ("2 ** a", ["self", "exponent", "result"]),
    "exp": ("torch.exp(a)", ["result"]),
    "log": ("torch.log(a)", ["self"]),
    "sin": ("torch.sin(a)", ["self"]),
    "cos": ("a.cos()", ["self"]),
    "tanh": ("a.tanh()", ["result"]),
    "sigmoid": ("torch.sigmoid(a)", ["result"]),
    "relu": ("torch.relu(a - 2)", ["result"]),
    "sqrt": ("a.sqrt()", ["result"]),
    "abs": ("a.abs()", ["self"]),
    "reciprocal": ("a.reciprocal()", ["result"]),
    "square": ("a.square()", ["self", "exponent"]),
    "sum": ("a.sum()", ["self_sym_sizes"]),
    "sum_dim": ("M.sum(0)", ["dim", "keepdim", "self_sym_sizes"]),
    "sum_keepdim": ("M.sum(1, keepdim=True)", ["dim", "keepdim", "self_sym_sizes"]),
    "mean": ("M.mean()", ["self_sym_sizes", "self_sym_numel"]),
    "mean_dim": ("M.mean(0)", ["dim", "keepdim", "self_sym_sizes", "self_sym_numel"]),
    "mm": (
        "M.mm(N)",
        [
            "self",
            "mat2",
            "self_sym_sizes",
            "mat2_sym_sizes",
            "self_sym_strides",
            "mat2_sym_strides",
        ],
    ),
    "mm_one_side": (
        "M.mm(N.detach())",
        ["self", "mat2", "self_sym_sizes", "mat2_sym_sizes", "mat2_sym_strides"],
    ),
    "matmul": ("M @ N", ["self", "mat2"]),
    "mv": ("M @ a[:2]", ["self", "vec"]),
    "dot": ("a @ b", ["self", "tensor"]),
    "softmax": ("torch.softmax(a, 0)", ["result", "dim"]),
    "log_softmax": ("torch.log_softmax(M, 1)", ["result", "dim"]),
    "max": ("a.max()", ["self", "result"]),
    "prod": ("a.prod()", ["self", "result"]),
    "clamp": ("a.clamp(1.5, 2.5)", ["self", "min", "max"]),
    "clamp_min": ("a.clamp(min=1.5)", ["min", "max"]),
    "maximum": ("torch.maximum(a, b)", ["self", "other"]),
    "leaky_relu": ("F.leaky_relu(a - 2)", ["self", "negative_slope"]),
    "mse_loss": ("F.mse_loss(a, b)", ["self", "target", "reduction"]),
    "mse_loss_sum": ("F.mse_loss(a, b, reduction='sum')", ["reduction"]),
}

CASES = [("attrs/" + k, _attrs(*v)) for k, v in _ATTRS.items()]

CASES += [
    (
        "attrs/identity",
        _AB
        + """y = a * b
print(y.grad_fn._saved_self is a, y.grad_fn._saved_other is b)
e = torch.exp(a)
r = e.grad_fn._saved_result
print(r.equal(e), r is e, r.requires_grad, r.grad_fn, r.is_leaf)
s = torch.sin(a * 2)
print(s.grad_fn._saved_self.grad_fn)
""",
    ),
    ("attrs/unknown_name", _AB + "y = a * b\ny.grad_fn._saved_result\n"),
    ("attrs/unknown_on_add", _AB + "y = a + b\ny.grad_fn._saved_self\n"),
    ("attrs/freed", _AB + "y = a * b\ny.sum().backward()\ny.grad_fn._saved_self\n"),
    ("attrs/freed_output", _AB + "y = a.exp()\ny.sum().backward()\ny.grad_fn._saved_result\n"),
    (
        "attrs/freed_keeps_sizes",
        _AB
        + """y = M.sum(0)
y.sum().backward()
print(y.grad_fn._saved_self_sym_sizes, y.grad_fn._saved_dim)
""",
    ),
    (
        "attrs/retained",
        _AB
        + """y = a * b
y.sum().backward(retain_graph=True)
print(y.grad_fn._saved_self)
""",
    ),
    (
        "attrs/after_autograd_grad",
        _AB
        + """y = torch.sin(a)
g = torch.autograd.grad(y.sum(), a)
y.grad_fn._saved_self
""",
    ),
    (
        "attrs/next_functions_saved",
        _AB
        + """y = (a * b).exp().sum()
e = y.grad_fn.next_functions[0][0]
print(e.name(), e._saved_result)
m = e.next_functions[0][0]
print(m.name(), m._saved_self, m._saved_other)
""",
    ),
]

_PACKS = [
    "a * b",
    "a * c",
    "c * a",
    "a * 2",
    "a * a",
    "a / b",
    "c / a",
    "a ** 2",
    "a ** b",
    "a ** c",
    "2 ** a",
    "torch.exp(a)",
    "torch.sin(a)",
    "torch.tanh(a)",
    "torch.sigmoid(a)",
    "a.sqrt()",
    "a + b",
    "a.sum()",
    "M.mm(N)",
    "M @ N",
    "M @ a[:2]",
    "a @ b",
    "torch.softmax(a, 0)",
    "a.max()",
    "a.prod()",
    "a.clamp(1.5, 2.5)",
    "torch.maximum(a, b)",
    "F.mse_loss(a, b)",
    "a.square()",
    "torch.log(a)",
]

CASES += [("packs/" + e.replace(" ", ""), _packs(e)) for e in _PACKS]

CASES += [
    (
        "hooks/chain",
        _HOOKS
        + """with torch.autograd.graph.saved_tensors_hooks(pk, up):
    y = (a * b).exp().sin()
print("backward")
y.sum().backward()
print(a.grad, b.grad)
""",
    ),
    (
        "hooks/access_unpacks",
        _HOOKS
        + """with torch.autograd.graph.saved_tensors_hooks(pk, up):
    y = a.exp()
r = y.grad_fn._saved_result
print(r, r is y)
s = y.grad_fn._saved_result
y.sum().backward(retain_graph=True)
y.sum().backward()
y.grad_fn._saved_result
""",
    ),
    (
        "hooks/access_input",
        _HOOKS
        + """with torch.autograd.graph.saved_tensors_hooks(pk, lambda x: x * 10):
    y = a.sin()
s = y.grad_fn._saved_self
print(s, s is a, s.requires_grad, s.is_leaf)
""",
    ),
    (
        "hooks/transform",
        _AB
        + """x = torch.tensor([0.5, -1.5, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda x: x * 4, lambda x: x / 4):
    y = torch.pow(x, 2)
y.sum().backward()
print(x.grad.equal(2 * x), x.grad)
""",
    ),
    (
        "hooks/any_object",
        _AB
        + """store = {}
def pack(x):
    k = len(store)
    store[k] = x
    return k
def unpack(k):
    print("unpack", k)
    return store[k]
with torch.autograd.graph.saved_tensors_hooks(pack, unpack):
    y = (a * b).sin()
y.sum().backward()
print(a.grad, len(store))
""",
    ),
    (
        "hooks/changes_values",
        _AB
        + """with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x * 0 + 1):
    y = a * b
y.sum().backward()
print(a.grad, b.grad)
""",
    ),
    (
        "hooks/nesting",
        _AB
        + """def hooks(tag):
    def p(x):
        print(tag, "pack")
        return x
    def u(x):
        print(tag, "unpack")
        return x
    return torch.autograd.graph.saved_tensors_hooks(p, u)
with hooks("outer"):
    y1 = a.sin()
    with hooks("inner"):
        y2 = a.cos()
    y3 = a.log()
y4 = a.exp()
(y1 + y2 + y3 + y4).sum().backward()
print(a.grad)
""",
    ),
    (
        "hooks/no_grad_inside_pack",
        _AB
        + """def pk(x):
    w = x * x
    print("pack made", w)
    return x
with torch.autograd.graph.saved_tensors_hooks(pk, lambda x: x):
    y = a.sin()
    with torch.no_grad():
        z = a.sin()
    z2 = c.sin()
print(y.grad_fn.name(), z.grad_fn, z2.grad_fn)
""",
    ),
    (
        "hooks/loop",
        _HOOKS
        + """w = torch.tensor([0.5, -1.0], requires_grad=True)
for i in range(3):
    with torch.autograd.graph.saved_tensors_hooks(pk, up):
        loss = (w * w).exp().sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad.zero_()
print(w)
""",
    ),
    (
        "hooks/autograd_grad",
        _HOOKS
        + """with torch.autograd.graph.saved_tensors_hooks(pk, up):
    y = (a * b).sum()
print(torch.autograd.grad(y, [a]))
""",
    ),
    (
        "hooks/create_graph",
        _HOOKS
        + """with torch.autograd.graph.saved_tensors_hooks(pk, up):
    y = (a ** 3).sum()
g, = torch.autograd.grad(y, a, create_graph=True)
print(g)
g.sum().backward()
print(a.grad)
""",
    ),
    (
        "hooks/save_on_cpu",
        _AB
        + """with torch.autograd.graph.save_on_cpu(pin_memory=True):
    y = a * b
print(y.grad_fn._saved_self is a, y.grad_fn._saved_self)
y.sum().backward()
print(a.grad)
with torch.autograd.graph.save_on_cpu():
    z = M.mm(N).exp().sum()
z.backward()
print(M.grad)
""",
    ),
    (
        "hooks/unpack_not_tensor",
        _AB
        + """with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: 3):
    y = a.sin()
y.sum().backward()
""",
    ),
    (
        "hooks/unpack_not_tensor_access",
        _AB
        + """with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: 3):
    y = a.sin()
y.grad_fn._saved_self
""",
    ),
    (
        "hooks/error_in_pack",
        _AB
        + """def pk(x):
    return x.foo
with torch.autograd.graph.saved_tensors_hooks(pk, lambda x: x):
    y = a.sin()
""",
    ),
    (
        "hooks/error_in_unpack",
        _AB
        + """def up(x):
    raise ValueError("cannot unpack")
with torch.autograd.graph.saved_tensors_hooks(lambda x: x, up):
    y = a.sin()
print("made")
y.sum().backward()
""",
    ),
    (
        "hooks/error_caught",
        _AB
        + """def up(x):
    raise ValueError("cannot unpack")
with torch.autograd.graph.saved_tensors_hooks(lambda x: x, up):
    y = a.sin()
try:
    y.sum().backward()
except ValueError as e:
    print("caught", e)
z = a.sin()
z.sum().backward()
print(a.grad)
""",
    ),
    (
        "hooks/disabled",
        _AB
        + """with torch.autograd.graph.disable_saved_tensors_hooks("no hooks here"):
    with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
        y = a.sin()
""",
    ),
    (
        "hooks/disable_inside",
        _AB
        + """with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
    try:
        with torch.autograd.graph.disable_saved_tensors_hooks("not now"):
            print("entered")
    except RuntimeError as e:
        print("RuntimeError", e)
with torch.autograd.graph.disable_saved_tensors_hooks("outer"):
    with torch.autograd.graph.disable_saved_tensors_hooks("inner"):
        pass
    try:
        with torch.autograd.graph.saved_tensors_hooks(lambda x: x, lambda x: x):
            print("in")
    except RuntimeError as e:
        print("RuntimeError", e)
y = a.sin()
print(y.grad_fn._saved_self)
""",
    ),
    (
        "hooks/forward_mode_inside",
        """import torch.autograd.forward_ad as fwAD
a = torch.tensor([1.0, 2.0], requires_grad=True)
n = []
def pk(x):
    n.append(1)
    return x
with torch.autograd.graph.saved_tensors_hooks(pk, lambda x: x):
    with fwAD.dual_level():
        d = fwAD.make_dual(a, torch.ones(2))
        t = fwAD.unpack_dual(d.sin()).tangent
    y = a.exp()
print(len(n), t)
y.sum().backward()
print(a.grad)
""",
    ),
    (
        "hooks/no_version_check",
        """x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    y = x.sin()
    z = x.exp()
with torch.no_grad():
    x.mul_(2)
y.sum().backward()
print(x.grad)
z.sum().backward()
print(x.grad)
with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
    w = x.exp()
with torch.no_grad():
    w.mul_(2)
w.sum().backward()
print(x.grad)
v = x.exp()
with torch.no_grad():
    v.mul_(2)
v.sum().backward()
""",
    ),
    (
        "hooks/custom_function",
        _HOOKS
        + """class Exp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, y):
        print("forward")
        r = x.exp() * y
        ctx.save_for_backward(r, x, y)
        return r
    @staticmethod
    def backward(ctx, g):
        print("backward")
        r, x, y = ctx.saved_tensors
        print("got")
        return g * r, g * x.exp()
with torch.autograd.graph.saved_tensors_hooks(pk, up):
    y = Exp.apply(a, c)
    z = Exp.apply(c, c)
print("made")
y.sum().backward()
print(a.grad)
""",
    ),
    (
        "nn/linear_packs",
        """def pk(x):
    print("Packing", tuple(x.shape), x.grad_fn)
    return x
def up(x):
    print("Unpacking", tuple(x.shape), x.grad_fn)
    return x
lin = torch.nn.Linear(3, 2)
x = torch.ones(4, 3)
x1 = torch.ones(3)
xr = torch.ones(4, 3, requires_grad=True)
for inp in (x, x1, xr):
    with torch.autograd.graph.saved_tensors_hooks(pk, up):
        y = lin(inp)
        print(y.grad_fn.name())
        l = y.relu().sum()
    l.backward()
lin2 = torch.nn.Linear(3, 2, bias=False)
with torch.autograd.graph.saved_tensors_hooks(pk, up):
    y = lin2(x)
    print(y.grad_fn.name())
y.sum().backward()
with torch.autograd.graph.saved_tensors_hooks(pk, up):
    l = torch.nn.functional.mse_loss(lin(x), torch.zeros(4, 2))
l.backward()
print(lin.weight.grad.shape)
""",
    ),
    (
        "nn/addmm_attrs",
        """lin = torch.nn.Linear(3, 2)
x = torch.ones(4, 3)
y = lin(x)
g = y.grad_fn
for n in ["alpha", "beta", "mat1", "mat1_sym_sizes", "mat1_sym_strides", "mat2",
          "mat2_sym_sizes", "mat2_sym_strides"]:
    print(n, getattr(g, "_saved_" + n))
xr = torch.ones(4, 3, requires_grad=True)
y = F.linear(xr, torch.ones(2, 3), torch.zeros(2))
g = y.grad_fn
for n in ["mat1", "mat1_sym_sizes", "mat1_sym_strides", "mat2", "mat2_sym_sizes",
          "mat2_sym_strides"]:
    print(n, getattr(g, "_saved_" + n))
""",
    ),
    (
        "nn/module_save_on_cpu",
        """class SaveToCpu(torch.nn.Module):
    def __init__(self, module):
        super().__init__()
        self.module = module

    def forward(self, *args, **kwargs):
        with torch.autograd.graph.save_on_cpu(pin_memory=True):
            return self.module(*args, **kwargs)

torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(4, 8), SaveToCpu(torch.nn.Linear(8, 8)),
                            torch.nn.Tanh(), torch.nn.Linear(8, 1))
x = torch.linspace(-1, 1, 4)
loss = model(x).sum()
loss.backward()
print(model[1].module.weight.grad.sum().item() == model[1].module.weight.grad.sum().item())
print(model[0].weight.grad.shape, loss.grad_fn)
""",
    ),
]


# the pack / unpack sequence (shapes; "o": an op's output) of more ops, one program
_SURVEY = [
    "torch.where(a > 2, a, b)",
    "a.var()",
    "a.std()",
    "a.norm()",
    "F.softplus(a)",
    "F.elu(a)",
    "F.silu(a)",
    "a.log_softmax(0)",
    "M.softmax(1)",
    "M.logsumexp(1)",
    "a[1]",
    "a[1:]",
    "torch.cat([a, b])",
    "torch.stack([a, b])",
    "M.t()",
    "M.view(3, 2)",
    "M.reshape(6)",
    "M.sum(1)",
    "M.mean(0, keepdim=True)",
    "M.min()",
    "M.prod(1)",
    "M.cumsum(1)",
    "a.abs()",
    "a.clamp(min=2)",
    "torch.minimum(a, b)",
    "a.sign()",
    "a.floor()",
    "a.log2()",
    "a.rsqrt()",
    "a.atan()",
    "torch.sinh(a)",
    "F.binary_cross_entropy(a.sigmoid(), torch.ones(3))",
    "F.binary_cross_entropy_with_logits(a, torch.ones(3))",
    "F.conv2d(img, w)",
    "F.dropout(a, 0.0)",
    "a.expand(2, 3)",
    "a.unsqueeze(0)",
    "M.squeeze()",
    "M.permute(1, 0)",
    "M.flatten()",
    "a.exp().exp()",
    "a @ b",
    "M @ a",
    "a.pow(3)",
    "a.tanh().tanh()",
    "a.remainder(2.0)",
    "a - b",
    "-a",
    "1 / a",
    "torch.flip(a, [0])",
    "a.double()",
    "a.clone()",
    "F.leaky_relu(a, 0.2)",
    "F.l1_loss(a, b)",
    "a.mean()",
]


def _survey():
    lines = [
        _AB
        + """img = torch.ones(1, 1, 4, 4, requires_grad=True)
w = torch.ones(1, 1, 2, 2, requires_grad=True)
log = []
def pk(x):
    log.append("P" + str(tuple(x.shape)) + ("o" if x.grad_fn is not None else ""))
    return x
def up(x):
    log.append("U" + str(tuple(x.shape)) + ("o" if x.grad_fn is not None else ""))
    return x
"""
    ]
    for e in _SURVEY:
        lines.append(
            "del log[:]\nwith torch.autograd.graph.saved_tensors_hooks(pk, up):\n"
            "    y = %s\ny.sum().backward()\nprint(%r, ' '.join(log))\n" % (e, e)
        )
    return "".join(lines)


CASES.append(("packs/survey", _survey()))
