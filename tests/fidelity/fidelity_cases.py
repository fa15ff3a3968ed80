"""Fidelity leftovers checked against torch 2.13 (scripts/gen_golden.py fidelity
records tests/golden/fidelity.json; tests/fidelity/test_fidelity.py runs them):

- HALF_OPS x HALF_SCALARS: a float16 tensor and a Python number over all 65,536
  float16 values (`x` in each expression), results and gradients bit for bit
  (sha256 digests; numerics/floats/half.py);
- CASES: (name, source) programs whose output must be torch's."""

from __future__ import annotations

import numpy as np

HALF_SCALARS = (
    "1e5",
    "1e-5",
    "70000.0",
    "0.1",
    "1.1",
    "1e-8",
    "65519.0",
    "3",
    "70000",
    "-2.5",
    "0.5",
    "2.0",
    "1e-3",
    "0.3333333333333333",
)
#: expressions of x (float16) and S (a number); those in HALF_GRADS are also differentiated
HALF_OPS = (
    "x * S",
    "S * x",
    "x / S",
    "S / x",
    "x // S",
    "x ** S",
    "x.mul(S)",
    "x.div(S)",
    "torch.mul(x, S)",
    "x + S",
    "x - S",
    "S - x",
    "x.add(S, alpha=0.1)",
    "x.sub(S, alpha=3)",
    "x < S",
    "x == S",
    "x >= S",
    "x % S",
    "S ** x",
    "x.clamp(min=S)",
    "x.clamp(max=S)",
    "x * torch.tensor(S, dtype=torch.float64)",
    "torch.tensor(S, dtype=torch.float64) * x",
    "x / torch.tensor(S, dtype=torch.float32)",
    "torch.tensor(S, dtype=torch.float64) / x",
    "x + torch.tensor(S, dtype=torch.float64)",
    "torch.tensor(S, dtype=torch.float32) - x",
    "x - torch.tensor(S, dtype=torch.float32)",
)
HALF_GRADS = (
    "x * S",
    "x / S",
    "S / x",
    "x ** S",
    "x.add(S, alpha=0.1)",
    "x * torch.tensor(S, dtype=torch.float64)",
    "torch.tensor(S, dtype=torch.float64) / x",
    "torch.tensor(S, dtype=torch.float32) - x",
)


def half_input():
    """Every float16 value, in the order of their bits."""
    return np.arange(1 << 16, dtype=np.uint32).astype(np.uint16).view(np.float16)


def half_grad_input():
    """The gradient fed to backward: the finite float16 values, shuffled."""
    x = half_input().copy()
    x[~np.isfinite(x)] = 1.0
    return np.random.RandomState(0).permutation(x)


def half_leaf():
    """The leaf differentiated: the finite float16 values (inf and nan as 1)."""
    x = half_input().copy()
    x[~np.isfinite(x)] = 1.0
    return x


_H = "x = torch.tensor([1.0, 2.5, 0.1, 65504.0, -3.0, 0.0, 3e-5], dtype=torch.float16)\n"

CASES = [
    (
        "half/brief",
        _H
        + """print(x * 1e5)
print(x / 1e-5)
print(x.add(1e5))
print(x + 70000.0)
print(3.0 ** x)
print(x < 0.1, x == 0.1, x >= 65510.0)
print(1e5 * x, 1e5 / x)
""",
    ),
    (
        "half/digits",
        _H
        + """print((x * 0.1).tolist())
print((x / 3.0).tolist())
print((x // 0.1).tolist())
print((x ** 3).tolist(), (x ** 0.5).tolist())
print(x.add(0.1, alpha=0.1).tolist())
print(torch.mul(x, 1.1).tolist(), x.div(1.1).tolist())
""",
    ),
    (
        "half/inplace",
        _H
        + """y = x.clone()
y *= 0.1
print(y.tolist())
y /= 1e-5
print(y.tolist())
y.mul_(1e-3)
print(y.tolist())
z = x.clone()
z.pow_(2.5)
print(z)
""",
    ),
    (
        "half/grads",
        """x = torch.tensor([1.0, 2.5, 0.1, 3e-5, -3.0], dtype=torch.float16, requires_grad=True)
g = torch.full((5,), 0.3, dtype=torch.float16)
(x * 0.1).backward(g)
print(x.grad.tolist())
x.grad = None
(x / 0.3).backward(g)
print(x.grad.tolist())
x.grad = None
y = 0.3 / x
print(y, y.grad_fn)
y.backward(g)
print(x.grad.tolist())
x.grad = None
y = x ** 1.5
print(y.grad_fn)
y.backward(g)
print(x.grad.tolist())
""",
    ),
    ("half/pow_overflow", _H + "print(x ** 2)\nprint(x ** 70000.0)\n"),
    (
        "half/in_loop",
        """w = torch.tensor([0.5, -1.5], dtype=torch.float16)
for i in range(3):
    w = w * 1.1
    w = w / 0.7
print(w.tolist())
""",
    ),
]

_NG = """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 1
with torch.no_grad():
    w = y[:2]
    u = x[1:]
"""


def _try(expr):
    return f"try:\n    print({expr})\nexcept RuntimeError as e:\n    print('E', e)\n"


# views made under no_grad of a tensor that requires grad (engine/nograd_views.py)
CASES += [
    (
        "nograd_view/leaf_like",
        _NG
        + """print(w, u, w.requires_grad, w.is_leaf, w.grad_fn)
z = w * w
print(z, z.grad_fn)
z.sum().backward()
print(w.grad, x.grad)
print(w.view(2), w[1:], w.t())
""",
    ),
    (
        "nograd_view/inplace_refused",
        _NG
        + _try("w.mul_(2)")
        + _try("u.add_(1)")
        + "try:\n    u[0] = 5.\nexcept RuntimeError as e:\n    print('E', e)\n"
        + "try:\n    w += 1\nexcept RuntimeError as e:\n    print('E', e)\n"
        + _try("w[1:].mul_(2)")
        + _try("u.view(2).zero_()")
        + "print(w, u, x, y)\n",
    ),
    (
        "nograd_view/invalid",
        _NG
        + """with torch.no_grad():
    w.mul_(3)
    print(w + 1)
print(w)
print(y)
"""
        + _try("w.grad_fn")
        + _try("w.is_leaf")
        + "print(w.grad, w.requires_grad, w.detach())\n"
        + _try("w * 2")
        + _try("w[0]")
        + _try("w.sum()")
        + "y.sum().backward()\nprint(x.grad)\n",
    ),
    (
        "nograd_view/invalid_after_base_changed",
        _NG
        + """y.mul_(2)
print(w, y)
w.sum().backward()
""",
    ),
    (
        "nograd_view/view_of_view",
        """a = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True)
b = a * 2
with torch.no_grad():
    r = a.view(4)
    v = b[:1]
s = v[0]
print(r, v, s, s.grad_fn)
print(r.view(2, 2), r[1:])
"""
        + _try("r.view(2, 2).mul_(2)")
        + _try("s.mul_(2)")
        + _try("r.add_(1)")
        + """with torch.no_grad():
    s.mul_(2)
print(s, v, b)
"""
        + _try("s.grad_fn")
        + "(s * 1).sum().backward()\n",
    ),
    (
        "nograd_view/grad_mode_views_stay",
        """x = torch.tensor([1., 2., 3.], requires_grad=True)
y = x * 2
v = y[1:]
l = x[:2]
with torch.no_grad():
    v.mul_(2)
    l.mul_(2)
print(v, l, y, x)
v.sum().backward()
print(x.grad)
(l * 1).sum().backward()
print(x.grad)
""",
    ),
    (
        "nograd_view/no_grad_base",
        """x = torch.tensor([1., 2., 3.])
with torch.no_grad():
    w = x[:2]
print(w, w.requires_grad, w.is_leaf)
w.mul_(2)
print(w, x, w.grad_fn)
""",
    ),
]

_FW = """import torch.autograd.forward_ad as fwAD
P = torch.tensor([1., -2., 3.], requires_grad=True)
T = torch.tensor([0.5, 1., -1.], requires_grad=True)
"""

# forward-mode AD: the tangent after an in-place op (library/dual_inplace.py)
CASES += [
    (
        "fwad_inplace/tangent_grad_fns",
        _FW
        + """with fwAD.dual_level():
    d = fwAD.make_dual(P * 1, T * 1)
    for name in ["copy_", "fill_", "zero_", "relu_", "mul_", "add_", "sigmoid_", "clamp_",
                 "abs_", "masked_fill_", "fill_t", "neg_", "floor_", "sign_", "exp_", "pow_",
                 "index_add_", "div_", "sub_", "setitem", "masked_fill_t"]:
        e = d.clone()
        if name == "copy_":
            e.copy_(torch.tensor([4., 5., 6.]))
        elif name == "fill_":
            e.fill_(2.)
        elif name == "fill_t":
            e.fill_(torch.tensor(3.))
        elif name == "zero_":
            e.zero_()
        elif name == "clamp_":
            e.clamp_(min=0)
        elif name == "masked_fill_":
            e.masked_fill_(torch.tensor([True, False, True]), 0.)
        elif name == "masked_fill_t":
            e.masked_fill_(torch.tensor([True, False, True]), torch.tensor(2.))
        elif name in ("mul_", "add_", "pow_", "div_"):
            getattr(e, name)(2)
        elif name == "sub_":
            e.sub_(d, alpha=2)
        elif name == "index_add_":
            e.index_add_(0, torch.tensor([0, 0]), torch.tensor([1., 2.]))
        elif name == "setitem":
            e[0] = 7.
        else:
            getattr(e, name)()
        print(name, fwAD.unpack_dual(e))
    f = torch.zeros(3)
    f.copy_(d)
    print(fwAD.unpack_dual(f))
    f = torch.zeros(3)
    f.add_(d)
    print(fwAD.unpack_dual(f))
    f = torch.ones(3)
    f[1] = d[0]
    print(fwAD.unpack_dual(f))
""",
    ),
    (
        "fwad_inplace/leaf_tangent",
        _FW
        + """with fwAD.dual_level():
    d = fwAD.make_dual(P * 1, T)
    try:
        d.mul_(2)
    except RuntimeError as ex:
        print("E", ex)
    print(fwAD.unpack_dual(d), T)
""",
    ),
    (
        "fwad_inplace/views_and_values",
        _FW
        + """with fwAD.dual_level():
    e = fwAD.make_dual(P * 1, T * 1)
    v = e[:2]
    print(fwAD.unpack_dual(v))
    v.mul_(2)
    print(fwAD.unpack_dual(v))
    print(fwAD.unpack_dual(e))
    e.zero_()
    print(fwAD.unpack_dual(v), fwAD.unpack_dual(e))
    k = fwAD.make_dual(P * 1, T * 1)
    k.copy_(fwAD.make_dual(torch.ones(3), torch.ones(3)))
    print(fwAD.unpack_dual(k))
    k.fill_(fwAD.make_dual(torch.tensor(2.), torch.tensor(5.)))
    print(fwAD.unpack_dual(k))
    k.masked_fill_(torch.tensor([True, False, True]), fwAD.make_dual(torch.tensor(2.), torch.tensor(7.)))
    print(fwAD.unpack_dual(k))
    s = (fwAD.unpack_dual(k).tangent * torch.tensor([1., 2., 3.])).sum()
    s.backward()
    print(T.grad, P.grad)
    with torch.no_grad():
        k.mul_(3)
    print(fwAD.unpack_dual(k))
    h = fwAD.make_dual(torch.tensor([1., 2.]), torch.tensor([3., 4.]))
    h.mul_(2)
    h[0] = 5.
    print(fwAD.unpack_dual(h))
""",
    ),
    (
        "fwad_inplace/zero_signs",
        """import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    p = torch.tensor([1., -2., 3., -4., 0., -0.])
    t = torch.tensor([0.5, -1., -1., 1., -1., -1.])
    d = fwAD.make_dual(p, t)
    for name in ["floor", "sign", "round", "relu", "ceil", "abs", "neg", "sigmoid"]:
        o = getattr(torch, name)(d)
        e = d.clone()
        getattr(e, name + "_")()
        print(name, fwAD.unpack_dual(o).tangent.tolist(), fwAD.unpack_dual(e).tangent.tolist())
    e = d.clone()
    e.clamp_(max=-1)
    print(fwAD.unpack_dual(e).tangent.tolist())
x = torch.tensor([1.5, -2.5], requires_grad=True)
x.floor().backward(torch.tensor([-1., -2.]))
print(x.grad)
y = torch.tensor([1.5], requires_grad=True)
g, = torch.autograd.grad(y.sign(), y, torch.tensor([-1.]), create_graph=True)
print(g)
""",
    ),
    (
        "masked_fill/tensor_value",
        """x = torch.ones(3, requires_grad=True)
v = torch.tensor(2., requires_grad=True)
y = x.masked_fill(torch.tensor([True, False, True]), v)
print(y)
y.sum().backward()
print(v.grad, x.grad)
z = torch.zeros(3).masked_fill(torch.tensor([False, True, True]), v)
print(z)
""",
    ),
]

CASES += [
    (
        "fwad_inplace/mul_self",
        """import torch.autograd.forward_ad as fwAD
P = torch.tensor([1., -2., 3., 0.5], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(torch.tensor([1., -2., 3., 0.5]), torch.tensor([0.5, 1., -1., 2.]))
    e = d.clone()
    e.mul_(e)
    print(fwAD.unpack_dual(e))
    e = d.clone()
    e *= e
    print(fwAD.unpack_dual(e))
    e = d.clone()
    e.remainder_(e)
    print(fwAD.unpack_dual(e))
    e = d.clone()
    e.add_(e)
    print(fwAD.unpack_dual(e))
    f = fwAD.make_dual(P * 1, torch.tensor([0.5, 1., -1., 2.]))
    f.mul_(f)
    print(fwAD.unpack_dual(f))
""",
    ),
    (
        "python/unbound_str_methods",
        """names = ["Ab", "cD", "EF"]
print(list(map(str.lower, names)))
print(list(map(str.upper, names)), sorted(names, key=str.lower))
print(str.lower("ABC"), str.strip("  x "), str.split("a b"), str.join("-", ["a", "b"]))
print(str.replace("aab", "a", "c"), str.startswith("abc", "ab"))
f = str.lower
print(f("QQ"), f, str.upper)
l = []
list.append(l, 3)
print(l, list.append)
try:
    str.lower(3)
except TypeError as e:
    print("E", e)
""",
    ),
    (
        "python/pow_three_args",
        """print(pow(3, 4, 5), pow(2, 100, 7), pow(-3, 3, 7), pow(3, -1, 7), pow(5, 0, 1))
print(pow(2, 3, -5), pow(2, 3, None), pow(10**20, 3, 10**9 + 7), pow(True, 2, 3), pow(2, 3, mod=5))
for args in [(3, 2, 0), (2.0, 3, 5), (2, -1, 4), (2, 3, 5.0), (torch.ones(1), 2, 5)]:
    try:
        print(pow(*args))
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
""",
    ),
]

# forward mode: a missing tangent is a zero term of PyTorch's rule (engine/zero_terms.py)
CASES += [
    (
        "fwad_zero_terms/products",
        """import torch.autograd.forward_ad as fwAD
P = torch.tensor([1., 2.], requires_grad=True)
R = torch.tensor([5., 6.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(P, torch.tensor([3., -0.]))
    d2 = fwAD.make_dual(torch.tensor([1., float('inf')]), torch.tensor([3., -0.]))
    for e in [d * 2, 2 * d, d * R, d * torch.ones(2), d @ torch.ones(2), torch.ones(2) @ d,
              d2 * R, d2 * 2, d * d, torch.mv(torch.ones(2, 2), d)]:
        tg = fwAD.unpack_dual(e).tangent
        print(tg, tg.grad_fn and tg.grad_fn.next_functions)
    tg = fwAD.unpack_dual(d * 2).tangent
    tg.sum().backward()
    print(P.grad)
""",
    ),
    (
        "fwad_zero_terms/division",
        """import torch.autograd.forward_ad as fwAD
P = torch.tensor([1., 2.], requires_grad=True)
R = torch.tensor([5., 6.], requires_grad=True)
with fwAD.dual_level():
    d = fwAD.make_dual(P, torch.tensor([3., -0.]))
    d2 = fwAD.make_dual(torch.tensor([1., 4.]), torch.tensor([3., -0.]))
    for e in [d / 2, d / R, R / d2, d2 / R, d / d, d2 / 2, torch.ones(2) / d2, P / d2]:
        tg = fwAD.unpack_dual(e).tangent
        print(tg, tg.grad_fn, tg.grad_fn and tg.grad_fn.next_functions[0][0])
""",
    ),
]

CASES += [
    (
        "fwad_zero_terms/linear_and_sums",
        """import torch.autograd.forward_ad as fwAD
torch.manual_seed(0)
W = torch.randn(3, 2, requires_grad=True)
B = torch.randn(3, requires_grad=True)
x = torch.randn(4, 2)
with fwAD.dual_level():
    d = fwAD.make_dual(x, torch.ones(4, 2))
    for e in [torch.nn.functional.linear(d, W, B), torch.nn.functional.linear(d, W), d @ W.t(),
              torch.mm(d, W.t()), d.sum(), (d * W[0]).sum(1), torch.tanh(d @ W.t()), d ** 2]:
        tg = fwAD.unpack_dual(e).tangent
        print(tg, tg.grad_fn and tg.grad_fn.next_functions)
    P = torch.tensor(2., requires_grad=True)
    s = fwAD.make_dual(P * 1, torch.tensor(3.) * P)
    print(fwAD.unpack_dual(s.sum()), fwAD.unpack_dual(s.sum(0)))
""",
    ),
]

# torch ops tutorials use that gradcli lacked (fid8): trunc, addmm, div's rounding_mode,
# atan2_/hypot_/fmod_, linalg.vector_norm: values to 17 digits, grad_fn names, first and
# second derivatives, tangents and torch's errors
_ERR = """def err(f):
    try:
        print(f())
    except Exception as e:
        print(type(e).__name__, str(e).split('\\n')[0])
"""

CASES += [
    (
        "fid8/trunc",
        _ERR
        + """x = torch.tensor([1.5, -2.7, 3.0, -0.0, 0.3, -0.5, 1e300, float('inf'), float('nan')], requires_grad=True)
y = torch.trunc(x)
print(y, y.tolist(), x.trunc().grad_fn, torch.fix(x).grad_fn, x.fix())
print(torch.trunc(torch.tensor([7, -7, 5])), torch.trunc(x.float().detach()).tolist())
g, = torch.autograd.grad(y.sum(), x, create_graph=True)
print(g, g.requires_grad)
y.backward(torch.arange(9.))
print(x.grad)
a = x.detach().clone()
a.trunc_()
print(a)
b = x.clone()
b.trunc_()
print(b.grad_fn)
err(lambda: torch.trunc(torch.tensor([True])))
""",
    ),
    (
        "fid8/div_rounding_values",
        """torch.manual_seed(0)
for dt in [torch.float32, torch.float64]:
    a = torch.randn(40, dtype=dt) * 10
    b = torch.randn(40, dtype=dt)
    a[0], a[1], a[2], a[3] = 0.0, -0.0, float('inf'), float('nan')
    b[4], b[5], b[6] = 0.0, -0.0, float('inf')
    a[7], b[7] = 1e30, 1e-30
    a[8], b[8] = -3.0, 1.5
    a[9], b[9] = -0.5, 2.0
    for m in ['trunc', 'floor', None]:
        print(torch.div(a, b, rounding_mode=m).tolist())
        print(torch.div(a, 0.3, rounding_mode=m).tolist(), a.div(-7, rounding_mode=m).tolist())
        print(torch.div(5.5, b, rounding_mode=m).tolist())
        print(torch.div(a.reshape(8, 5), b[:5], rounding_mode=m).tolist())
i = torch.tensor([7, -7, 5, -5, 0, 9, -9, 100])
j = torch.tensor([2, 2, -3, -3, 4, -4, 4, 7])
for m in ['trunc', 'floor', None]:
    print(torch.div(i, j, rounding_mode=m), torch.div(i, -4, rounding_mode=m), torch.div(i, 2.5, rounding_mode=m))
h = torch.tensor([0.0, -0.0, 1.0, -1.0, 2.5, -2.5, 7.0, 65504.0, 0.1, 3e-5, 1000.5, -999.0, 33.3, float('inf')], dtype=torch.float16)
hb = torch.tensor([0.3, -0.3, 2.0, -3.0, 0.0, 7.0, 1e-4, 1000.0, -0.1, 3.0, 0.5, -0.5, 11.0, 2.5], dtype=torch.float16)
for m in ['trunc', 'floor']:
    print(torch.div(h, hb, rounding_mode=m).tolist(), torch.div(h, 0.3, rounding_mode=m).tolist())
""",
    ),
    (
        "fid8/div_rounding_grads",
        _ERR
        + """x = torch.tensor([1.5, -2.7, 3.0], requires_grad=True)
y = torch.tensor([0.5, 2.0, -1.0], requires_grad=True)
for m in ['trunc', 'floor', None]:
    r = torch.div(x, y, rounding_mode=m)
    print(r, torch.div(x, 2, rounding_mode=m).grad_fn, x.div(y, rounding_mode=m).grad_fn, torch.div(2, y, rounding_mode=m))
    print(r.grad_fn._saved_rounding_mode, r.grad_fn._saved_self, r.grad_fn._saved_other)
    gx, gy = torch.autograd.grad(r.sum(), [x, y], create_graph=True)
    print(gx, gy)
    if m is None:
        (gx.sum() + gy.sum()).backward()
        print(x.grad, y.grad)
print(torch.div(x, y).grad_fn, x.div(y).grad_fn, (x / y).grad_fn)
z = torch.tensor([[1.5], [-4.0]], requires_grad=True)
w = torch.tensor([0.3, -0.7, 2.0], requires_grad=True)
torch.div(z, w, rounding_mode=None).sum().backward()
print(z.grad, w.grad)
a = x.clone()
a.div_(y, rounding_mode='floor')
print(a)
a.sum().backward()
print(x.grad, y.grad)
c = torch.tensor([7, -7, 5])
c.div_(2, rounding_mode='trunc')
print(c)
err(lambda: torch.tensor([7, -7, 5]).div_(2))
err(lambda: torch.tensor([7, -7, 5]).div_(2, rounding_mode=None))
err(lambda: torch.div(x, y, rounding_mode='Floor'))
err(lambda: x.div(y, rounding_mode='round'))
err(lambda: torch.div(x, y, rounding_mode=1))
err(lambda: torch.div(torch.tensor([1, 2]), torch.tensor([0, 1]), rounding_mode='floor'))
err(lambda: torch.div(torch.tensor([1, 2]), 0, rounding_mode='trunc'))
print(torch.div(torch.tensor([1, 2]), 0, rounding_mode=None))
""",
    ),
    (
        "fid8/div_rounding_fwad",
        """import torch.autograd.forward_ad as fwAD
x = torch.tensor([1.5, -2.7, 3.0])
y = torch.tensor([0.5, 2.0, -1.0])
with fwAD.dual_level():
    dx = fwAD.make_dual(x, torch.tensor([1.0, 0.5, -2.0]))
    dy = fwAD.make_dual(y, torch.tensor([0.25, -1.0, 3.0]))
    for m in ['trunc', 'floor', None]:
        print(fwAD.unpack_dual(torch.div(dx, dy, rounding_mode=m)).tangent.tolist())
        print(fwAD.unpack_dual(torch.div(dx, y, rounding_mode=m)).tangent.tolist())
        print(fwAD.unpack_dual(torch.div(x, dy, rounding_mode=m)).tangent.tolist())
    print(fwAD.unpack_dual(torch.fmod(dx, dy)).tangent.tolist(), fwAD.unpack_dual(torch.fmod(dx, 0.7)).tangent.tolist())
    print(fwAD.unpack_dual(torch.fmod(x, dy)).tangent.tolist())
""",
    ),
    (
        "fid8/fmod",
        _ERR
        + """torch.manual_seed(1)
for dt in [torch.float32, torch.float64]:
    a = torch.randn(30, dtype=dt) * 10
    b = torch.randn(30, dtype=dt)
    a[0], a[1], a[2], a[3] = 0.0, -0.0, float('inf'), float('nan')
    b[4], b[5], b[6] = 0.0, -0.0, float('inf')
    print(torch.fmod(a, b).tolist(), torch.fmod(a, 0.3).tolist(), a.fmod(-2).tolist())
print(torch.fmod(torch.tensor([7, -7, 5]), torch.tensor([2, 2, -3])), torch.fmod(torch.tensor([7, -7]), 2.5))
x = torch.tensor([1.5, -2.7, 3.0], requires_grad=True)
y = torch.tensor([0.5, 2.0, -1.0], requires_grad=True)
r = torch.fmod(x, y)
print(r, torch.fmod(x, 2), x.fmod(y).grad_fn, x.fmod(torch.tensor(2.)).grad_fn)
gx, gy = torch.autograd.grad(r.sum(), [x, y], create_graph=True)
print(gx, gy)
gy.sum().backward()
print(x.grad, y.grad)
g, = torch.autograd.grad(torch.fmod(x, 0.7).sum(), x, create_graph=True)
print(g)
err(lambda: torch.fmod(2, x))
err(lambda: torch.fmod(torch.tensor([1, 2]), torch.tensor([0, 1])))
err(lambda: torch.fmod(torch.tensor([1, 2]), 0))
""",
    ),
    (
        "fid8/inplace_atan2_hypot_fmod",
        _ERR
        + """x = torch.tensor([1.5, -2.7, 3.0, 0.0], requires_grad=True)
y = torch.tensor([0.5, 2.0, -1.0, -0.0], requires_grad=True)
for name in ['atan2_', 'hypot_', 'fmod_']:
    a = x.clone()
    getattr(a, name)(y)
    print(name, a, a.tolist())
    a.sum().backward()
    print(x.grad, y.grad)
    x.grad = None
    y.grad = None
a = x.clone()
a.fmod_(2)
print(a)
a = x.float().clone()
a.atan2_(y.float())
print(a.tolist())
a = x.detach().clone()
a.hypot_(torch.tensor(2.))
print(a)
a = x.detach().clone()
a.atan2_(torch.ones(2, 4))
""",
    ),
    (
        "fid8/inplace_errors",
        _ERR
        + """x = torch.tensor([1.5, -2.7, 3.0])
err(lambda: x.clone().atan2_(2.0))
err(lambda: x.clone().hypot_([1.0, 2.0, 3.0]))
err(lambda: torch.tensor([1, 2, 3]).atan2_(torch.tensor([1, 2, 3])))
err(lambda: torch.tensor([1, 2, 3]).fmod_(2.5))
print(torch.tensor([7, -7, 3]).fmod_(2))
l = torch.tensor([1.5, -2.7], requires_grad=True)
err(lambda: l.atan2_(torch.ones(2)))
""",
    ),
]

CASES += [
    (
        "fid8/addmm_values",
        """torch.manual_seed(2)
for dt in [torch.float32, torch.float64]:
    x = torch.randn(5, 7, dtype=dt)
    m1 = torch.randn(5, 9, dtype=dt)
    m2 = torch.randn(9, 7, dtype=dt)
    print(torch.addmm(x, m1, m2).tolist())
    print(torch.addmm(x, m1, m2, beta=0.3, alpha=-1.7).tolist())
    print(torch.addmm(x[0], m1, m2, beta=2, alpha=0.1).tolist())
    print(torch.addmm(torch.tensor(1.5, dtype=dt), m1, m2, alpha=3).tolist())
    print(torch.addmm(x, m1, torch.randn(7, 9, dtype=dt).t(), alpha=3.3).tolist())
    print(torch.addmm(x, torch.randn(9, 5, dtype=dt).t(), m2, beta=-1.5).tolist())
    print(torch.addmm(x.t().contiguous().t(), m1, m2, beta=0.5).tolist())
    print(x.addmm(m1, m2, alpha=0.25).tolist(), x.addmm(m1, m2).tolist())
    print(torch.addmm(torch.full((5, 7), float('nan'), dtype=dt), m1, m2, beta=0).tolist())
    print(torch.addmm(torch.ones(2, 3, dtype=dt), torch.ones(2, 0, dtype=dt), torch.ones(0, 3, dtype=dt), beta=0.3))
    big = torch.randn(64, 100, dtype=dt)
    print(torch.addmm(torch.randn(100, dtype=dt), torch.randn(33, 64, dtype=dt), big, beta=0.7, alpha=1.3).tolist())
print(torch.addmm(torch.ones(2, 3, dtype=torch.long), torch.ones(2, 4, dtype=torch.long), torch.ones(4, 3, dtype=torch.long), beta=2, alpha=3))
""",
    ),
    (
        "fid8/addmm_grads",
        """torch.manual_seed(3)
b = torch.randn(3, requires_grad=True)
m1 = torch.randn(2, 4, requires_grad=True)
m2 = torch.randn(4, 3, requires_grad=True)
for kw in [{}, {'beta': 0.5, 'alpha': 2}, {'beta': 2, 'alpha': 1}, {'alpha': -0.3}]:
    r = torch.addmm(b, m1, m2, **kw)
    print(r, r.grad_fn._saved_alpha, r.grad_fn._saved_beta, r.grad_fn._saved_mat1_sym_sizes)
    gs = torch.autograd.grad((r * r).sum(), [b, m1, m2], create_graph=True)
    print(gs)
    sum(g.sum() for g in gs).backward()
    print(b.grad, m1.grad, m2.grad)
    b.grad = m1.grad = m2.grad = None
r = b.addmm(m1.detach(), m2, beta=3)
r.sum().backward()
print(r.grad_fn.next_functions, b.grad, m2.grad)
""",
    ),
    (
        "fid8/addmm_fwad",
        """import torch.autograd.forward_ad as fwAD
torch.manual_seed(4)
b = torch.randn(2, 3)
m1 = torch.randn(2, 4)
m2 = torch.randn(4, 3)
with fwAD.dual_level():
    db = fwAD.make_dual(b, torch.randn(2, 3))
    d1 = fwAD.make_dual(m1, torch.randn(2, 4))
    d2 = fwAD.make_dual(m2, torch.randn(4, 3))
    for kw in [{}, {'beta': 0.5, 'alpha': 2}]:
        print(fwAD.unpack_dual(torch.addmm(db, d1, d2, **kw)).tangent.tolist())
        print(fwAD.unpack_dual(torch.addmm(b, d1, m2, **kw)).tangent.tolist())
        print(fwAD.unpack_dual(torch.addmm(db, m1, m2, **kw)).tangent.tolist())
""",
    ),
    (
        "fid8/addmm_errors",
        _ERR
        + """b = torch.randn(2, 3)
m1 = torch.randn(2, 4)
m2 = torch.randn(4, 3)
err(lambda: torch.addmm(b, m1, m2.t()))
err(lambda: torch.addmm(b, m1[0], m2))
err(lambda: torch.addmm(b, m1, m2[0]))
err(lambda: torch.addmm(b, torch.tensor(1.), m2))
err(lambda: torch.addmm(torch.randn(4), m1, m2))
err(lambda: torch.addmm(torch.randn(2, 3, 1), m1, m2))
err(lambda: torch.addmm(b.float(), m1, m2))
err(lambda: torch.addmm(b, m1.float(), m2))
err(lambda: torch.addmm(b, m1, m2.float()))
err(lambda: torch.addmm(3, m1, m2))
err(lambda: torch.addmm(b, m1, [[1.0]]))
err(lambda: b.addmm(m1, 2))
err(lambda: torch.addmm(b, m1, m2, beta='a'))
err(lambda: torch.addmm(b, m1, m2, 1, 2))
""",
    ),
    (
        "fid8/vector_norm_values",
        """torch.manual_seed(5)
V = torch.linalg.vector_norm
for dt in [torch.float32, torch.float64]:
    for n in [1, 3, 4, 7, 8, 9, 12, 13, 16, 21, 64, 70, 129]:
        x = torch.randn(n, dtype=dt)
        print(n, V(x).tolist(), V(x, 1).tolist(), V(x, 3).tolist(), V(x, 0.5).tolist(), V(x, -1).tolist(), x.norm().tolist())
    x = torch.randn(6, 7, 13, dtype=dt)
    for ord in [2, 1, 3, 0, float('inf'), -float('inf'), 0.5, -2]:
        print(ord, V(x, ord).tolist(), V(x, ord, dim=-1).tolist(), V(x, ord, dim=0).tolist())
        print(V(x, ord, dim=(1, 2)).tolist(), V(x, ord, dim=(0, 2), keepdim=True).tolist(), V(x, ord, dim=1).tolist())
    print(V(x[:, :1, :], dim=1).tolist(), V(x[:1], dim=(0, 2)).tolist(), V(x.reshape(6, 91, 1), dim=(1, 2)).tolist())
    print(V(torch.tensor(-2.5, dtype=dt)), V(torch.tensor(-2.5, dtype=dt), 0), V(torch.zeros(0, dtype=dt)), V(torch.zeros(0, 3, dtype=dt), 3, dim=0), V(torch.zeros(0, 3, dtype=dt), -1, dim=1))
    y = torch.randn(40000, dtype=dt)
    print(V(y).tolist(), V(y, 1).tolist(), V(y, 3).tolist(), V(y.reshape(200, 200), dim=0).sum().tolist())
print(V(torch.randn(3, 4), dtype=torch.float64))
""",
    ),
    (
        "fid8/vector_norm_grads",
        _ERR
        + """torch.manual_seed(6)
V = torch.linalg.vector_norm
x = torch.randn(3, 4, requires_grad=True)
for ord, kw in [(2, {}), (1, {'dim': 1}), (3, {'dim': 0, 'keepdim': True}), (float('inf'), {'dim': 1}), (0.5, {}), (-1, {'dim': (0, 1)})]:
    r = V(x, ord, **kw)
    print(r, r.grad_fn)
    g, = torch.autograd.grad(r.sum(), x, create_graph=True)
    print(g.tolist())
    # (torch's second derivative for ord 1 and inf: a zero tensor; for ord -1 gradcli's
    # differs in the last bits: docs/developer/numerics.md)
    if ord not in (1, float('inf'), -1):
        g.pow(2).sum().backward()
        print(x.grad.tolist())
    x.grad = None
z = torch.tensor([0.0, 0.0], requires_grad=True)
V(z).backward()
print(z.grad)
err(lambda: V(x, 'fro'))
err(lambda: V(x, None))
err(lambda: V(torch.tensor([1, 2])))
err(lambda: V(x, dim=2))
err(lambda: V(x, dim=(0, 0)))
err(lambda: V([1.0, 2.0]))
err(lambda: V(torch.zeros(0), ord=float('inf')))
err(lambda: V(torch.zeros(0, 3), ord=-float('inf'), dim=0))
err(lambda: V(torch.zeros(0, 3), ord=-1, dim=0))
err(lambda: V(torch.zeros(2, 0), ord=-0.5))
err(lambda: x.norm(p=float('inf'), dim=0) if False else V(torch.zeros(0), 1))
""",
    ),
]

# the layout of a gradient a hook sees (a read-only broadcast view where torch's is an
# expanded tensor, dense where torch's is): what `is_contiguous()` and an in-place op in
# the hook tell apart, at sizes on both sides of vjp_arrays.DENSE_LIMIT
_LAYOUT = """def trial(tag, n, make, on_leaf):
    x = torch.ones(n, 3, requires_grad=True)
    y = x * 2
    def h(g):
        print(tag, n, g.is_contiguous(), tuple(g.shape))
        try:
            g.mul_(2)
            print(tag, n, "in place ok")
        except RuntimeError as e:
            print(tag, n, "in place refused:", str(e)[:60])
    if on_leaf:
        x.register_hook(h)
    else:
        y.register_hook(h)
    make(y).backward()
    print(tag, n, x.grad[0], x.grad.is_contiguous())
"""
CASES += [
    (
        "hook_layout/" + name,
        _LAYOUT + "for n in (2, 2000):\n    trial(%r, n, %s, %s)\n" % (name, make, leaf),
    )
    for name, make, leaf in (
        ("sum", "lambda y: y.sum()", False),
        ("mean", "lambda y: y.mean()", False),
        ("mean_dim", "lambda y: y.mean(1).sum()", False),
        ("mean_dim0", "lambda y: y.mean(0).sum()", False),
        ("sum_dim", "lambda y: y.sum(1).sum()", False),
        ("leaf_sum", "lambda y: y.sum()", True),
        ("leaf_mean", "lambda y: y.mean()", True),
        ("expand", "lambda y: y[0].expand(4, 3).sum()", False),
        ("times_const", "lambda y: (y * 3).sum()", False),
    )
] + [
    (
        "hook_layout/retain_grad",
        """z = torch.ones(3, requires_grad=True)
w = z * 3
w.retain_grad()
w.sum().backward()
print(w.grad, w.grad.is_contiguous())
w.grad.mul_(2)
print(w.grad, z.grad)
""",
    ),
]
