# torch.nn's activations beyond ReLU to the last bit: each function's values and
# gradients on 70 values (edge values first; whole vector blocks and the values after
# them) in float32 and float64, -0.0 and NaN, their grad_fn names with create_graph,
# integer inputs, the modules' reprs, PReLU's weight gradient, RReLU's draws, and
# MultiheadAttention (self-attention, kdim/vdim, batch_first, bias_k/v, zero attention,
# dropout, unbatched, eval).  (Written for this suite; the output is torch's.)
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
EDGE = [0.0, -0.0, 3.0, -3.0, 0.5, -0.5, 1.0, -1.0, 6.0, -6.0, float("nan"), float("inf"),
        -float("inf"), 0.1, -0.1, 20.0]
FUNCTIONS = [
    ("threshold", lambda x: F.threshold(x, 0.1, 20.0)),
    ("hardtanh", F.hardtanh),
    ("relu6", F.relu6),
    ("hardshrink", F.hardshrink),
    ("softshrink", F.softshrink),
    ("hardsigmoid", F.hardsigmoid),
    ("hardswish", F.hardswish),
    ("mish", F.mish),
    ("selu", F.selu),
    ("celu", F.celu),
    ("celu(0.3)", lambda x: F.celu(x, 0.3)),
    ("elu", F.elu),
    ("glu", F.glu),
    ("glu(dim=0)", lambda x: F.glu(x.view(10, -1), 0)),
    ("prelu", lambda x: F.prelu(x, torch.tensor([0.25], dtype=x.dtype))),
    ("rrelu", F.rrelu),
    ("softsign", F.softsign),
    ("tanhshrink", F.tanhshrink),
    ("softmin", lambda x: F.softmin(x, 0)),
]
for dt in (torch.float32, torch.float64):
    x = torch.randn(70, dtype=dt) * 3
    x[: len(EDGE)] = torch.tensor(EDGE, dtype=dt)
    x[-len(EDGE) :] = torch.tensor(EDGE, dtype=dt)
    g = torch.randn(70, dtype=dt)
    for name, f in FUNCTIONS:
        xx = x.clone().requires_grad_()
        y = f(xx)
        y.backward(g[: y.numel()].view(y.shape))
        print(name, dt, y.grad_fn.name())
        print(y.flatten().tolist())
        print(xx.grad.tolist())

# gradients of gradients
x = torch.tensor([1.5, -0.3, -2.0, 0.7, -0.9, 2.5, 0.2, -3.5, 4.0, -0.05], requires_grad=True)
for name, f in FUNCTIONS[:-3]:
    y = f(x)
    (d,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    print(name, d.grad_fn.name(), d)
    if name != "hardsigmoid":
        (d2,) = torch.autograd.grad(d.sum(), x, allow_unused=True)
        print(d2)
    else:
        try:
            d.sum().backward()
        except RuntimeError as e:
            print("RuntimeError:", e)
print(F.selu(x).grad_fn._saved_alpha, F.selu(x).grad_fn._saved_scale)
print(F.celu(x, 0.5).grad_fn._saved_alpha, F.glu(x, -1).grad_fn._saved_dim)

# integers
print(F.hardtanh(torch.arange(-3, 3)), F.relu6(torch.arange(5, 9)))
print(F.threshold(torch.arange(3), 1, 5))
for f in (F.hardshrink, F.hardsigmoid, F.hardswish, F.mish, F.softshrink):
    try:
        f(torch.arange(3))
    except NotImplementedError as e:
        print("NotImplementedError:", e)
for bad in (lambda: F.glu(torch.randn(3)), lambda: F.glu(torch.tensor(1.0)),
            lambda: F.prelu(torch.randn(2, 3), torch.randn(4)),
            lambda: F.softshrink(torch.randn(2), -1.0)):
    try:
        bad()
    except RuntimeError as e:
        print("RuntimeError:", e)

# the modules
modules = [nn.Threshold(0.1, 20.0), nn.Threshold(0.1, 20, inplace=True), nn.RReLU(),
           nn.RReLU(0.1, 0.3, inplace=True), nn.Hardtanh(), nn.Hardtanh(-2, 2), nn.ReLU6(),
           nn.ReLU6(True), nn.Hardsigmoid(True), nn.SiLU(), nn.SiLU(True), nn.Mish(),
           nn.Hardswish(), nn.ELU(), nn.ELU(0.5, True), nn.CELU(2), nn.SELU(True), nn.GLU(0),
           nn.Hardshrink(), nn.Hardshrink(1), nn.Softplus(), nn.Softplus(2, 10),
           nn.Softshrink(0.3), nn.PReLU(), nn.PReLU(3, 0.1), nn.Softsign(), nn.Tanhshrink(),
           nn.Softmin(1), nn.Softmin(), nn.Softmax2d()]
print(nn.Sequential(*modules))
m = nn.PReLU(3)
x = torch.randn(2, 3, 4, requires_grad=True)
y = m(x)
y.sum().backward()
print(y.grad_fn.name(), m.weight.grad, x.grad)
r = nn.RReLU()
y = r(x)
print(y)
y.sum().backward()
print(x.grad)
r.eval()
print(r(x))

# MultiheadAttention
mha = nn.MultiheadAttention(8, 2)
print(mha)
print([n for n, p in mha.named_parameters()])
x = torch.randn(3, 2, 8, requires_grad=True)
o, w = mha(x, x, x)
print(o, w)
o.sum().backward()
print(x.grad, mha.in_proj_weight.grad[:3], mha.out_proj.bias.grad)
kv = torch.randn(5, 2, 8)
o, w = mha(x, kv, kv, average_attn_weights=False)
print(o.grad_fn.name(), w.shape, w.grad_fn.name())
mha2 = nn.MultiheadAttention(4, 1, batch_first=True, kdim=3, vdim=5, bias=False)
print(mha2, [n for n, p in mha2.named_parameters()])
q, k, v = torch.randn(2, 3, 4), torch.randn(2, 6, 3), torch.randn(2, 6, 5)
print(mha2(q, k, v))
mha3 = nn.MultiheadAttention(4, 2, add_bias_kv=True, add_zero_attn=True, dropout=0.5)
q = torch.randn(3, 4)
print(mha3(q, q, q))
mha3.eval()
print(mha3(q, q, q))
print(type(mha.out_proj))
