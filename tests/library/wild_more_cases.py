"""More golden cases of the torch and Python API that published code uses (d2l's
package beside its class-based chapters and what they met): torch.meshgrid, the
optimizers as classes, in-place transposes, list and str methods, a library class's
constructor errors, inference tensors, allow_mutation_on_saved_tensors.
tests/library/wild_cases.py adds them to its CASES (recorded into tests/golden/wild.json
by scripts/gen_golden.py wild); its rules apply."""

import textwrap

CASES = []


def case(name, src):
    if any(n == name for n, _ in CASES):
        raise ValueError("duplicate case name: " + name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


def errors(prefix, setup, lines):
    """One case per line, each after `setup`: the error each one ends with."""
    for i, line in enumerate(lines):
        case(f"{prefix}/{i}", setup + "\n" + line + "\n")


case(
    "meshgrid/values",
    """
    import torch
    a = torch.tensor([1., 2, 3], requires_grad=True)
    b = torch.tensor([4., 5])
    x, y = torch.meshgrid(a, b, indexing='ij')
    print(x, y, x.shape)
    print(torch.meshgrid([a, b], indexing='xy'))
    print(torch.meshgrid((a,), indexing='ij'))
    print(torch.meshgrid(torch.tensor(2.), b, torch.arange(2.), indexing='xy'))
    (x * y).sum().backward()
    print(a.grad)
    print(torch.meshgrid(torch.arange(2), torch.arange(3), indexing='ij'))
    """,
)

case(
    "meshgrid/default_indexing_warns",
    """
    import torch
    x, y = torch.meshgrid(torch.arange(3.), torch.arange(2.))
    print(x, y)
    x, y = torch.meshgrid(torch.arange(2.), torch.arange(2.))
    print(x + y)
    """,
)

errors(
    "meshgrid/errors",
    "import torch\na = torch.tensor([1., 2, 3])",
    [
        "torch.meshgrid(indexing='ij')",
        "torch.meshgrid(a, a, indexing='ab')",
        "torch.meshgrid(a, torch.tensor([1, 2]), indexing='ij')",
        "torch.meshgrid(a, 3, indexing='ij')",
    ],
)

case(
    "optim/classes",
    """
    import torch
    from torch import nn
    m = nn.Linear(2, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    print(type(opt) == torch.optim.SGD, type(opt) is torch.optim.SGD, type(opt))
    print(torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.Optimizer)
    print(isinstance(opt, torch.optim.Optimizer), isinstance(opt, torch.optim.Adam))
    adamw = torch.optim.AdamW(m.parameters())
    print(isinstance(adamw, torch.optim.Adam), issubclass(torch.optim.AdamW, torch.optim.Adam))
    print(torch.optim.SGD.__name__, type(adamw).__name__, opt.__class__.__name__)
    for cls in (torch.optim.SGD, torch.optim.Adam, torch.optim.RMSprop, torch.optim.Adagrad,
                torch.optim.Adadelta, torch.optim.AdamW):
        o = cls(m.parameters(), lr=0.5)
        print(type(o) == cls, type(o).__name__, o.param_groups[0]['lr'])
    def init_weights(mod):
        if type(mod) == nn.Linear:
            nn.init.constant_(mod.weight, 0.25)
    net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
    net.apply(init_weights)
    print(net[0].weight, net[2].weight)
    """,
)

errors(
    "optim/constructor_errors",
    "import torch\nfrom torch import nn\nw = torch.ones(2, requires_grad=True)",
    [
        "torch.optim.SGD([w], lr=0.1, foo=1)",
        "torch.optim.SGD()",
        "torch.optim.Adam([w], 0.1, (0.9, 0.9), 1e-8, 0, False, 3)",
        "torch.optim.SGD([w], lr=0.1, momentum=-1)",
        "nn.Linear(2, 3, foo=1)",
        "nn.Linear(2)",
    ],
)

case(
    "inplace_transpose/values",
    """
    import torch
    x = torch.ones(2, 3, requires_grad=True)
    y = x * 2
    print(y.t_(), y.shape, y.grad_fn, y.grad_fn.next_functions)
    y.sum().backward()
    print(x.grad)
    z = torch.arange(6.).reshape(2, 3)
    print(z.transpose_(0, 1), z.is_contiguous(), z._version)
    w = torch.arange(24.).reshape(2, 3, 4)
    print(w.transpose_(0, -1).shape, w._version, w[1, 2])
    v = torch.tensor([1., 2.], requires_grad=True) * 3
    print(v.t_(), v.grad_fn, v._version)
    q = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    r = q * torch.tensor([[1., 0., 2.], [3., 1., 1.]])
    r.transpose_(1, 0)
    print(r.grad_fn, r.shape, r)
    (r * torch.arange(6.).reshape(3, 2)).sum().backward()
    print(q.grad)
    with torch.no_grad():
        s = torch.ones(2, 3, requires_grad=True)
        print(s.t_().shape, s.requires_grad, s.grad_fn, s.is_leaf)
    print(torch.ones(3).t_(), torch.tensor(5.).transpose_(0, -1))
    """,
)

case(
    "inplace_transpose/saved_output",
    """
    import torch
    q = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    r = q.exp()
    r.transpose_(1, 0)
    print(r.grad_fn, r._version)
    (r * 2).sum().backward()
    """,
)

errors(
    "inplace_transpose/errors",
    "import torch\nx = torch.ones(2, 3, requires_grad=True)\nz = torch.ones(2, 3)",
    [
        "x.t_()",
        "x.transpose_(0, 1)",
        "torch.ones(2, 3, 4).t_()",
        "z.transpose_(0, 5)",
    ],
)

case(
    "python/list_methods",
    """
    l = [3, 1, 2]
    l.extend((5, 4))
    l.insert(0, 9)
    l.remove(1)
    print(l, l.count(2), l.copy())
    l.sort()
    print(l)
    l.sort(key=lambda v: -v)
    print(l)
    l.sort(reverse=True)
    l.reverse()
    print(l)
    c = l.copy()
    l.clear()
    print(l, c, list.sort, list.extend)
    """,
)

case(
    "python/str_methods",
    """
    s = "ab\\ncd\\r\\nef"
    print(s.splitlines(), s.splitlines(True), "x-y-z".rsplit("-", 1), "  a ".lstrip() + "|")
    print("ab".center(6, "*"), "7".zfill(3), "abc".find("c"), "abc".rfind("z"), "a.b.c".count("."))
    print("key=value".partition("="), "a/b/c".rpartition("/"), "  x  ".rstrip() + "|")
    print("hello world".title(), "hello".capitalize(), "AbC".swapcase(), "ABC".casefold())
    print("12".isdigit(), "ab".isalpha(), "a1".isalnum(), " ".isspace(), "AB".isupper())
    print("ab".islower(), "x_1".isidentifier(), "ab".ljust(4, "-"), "ab".rjust(4))
    print("prefix_name".removeprefix("prefix_"), "file.py".removesuffix(".py"))
    print([line.split() for line in "a b\\nc d".splitlines()], str.splitlines("x\\ny"))
    """,
)

errors(
    "python/list_str_errors",
    "l = [1, 2]",
    [
        "l.remove(3)",
        "[1, 'a'].sort()",
        "'a'.center('x')",
        "l.insert()",
    ],
)


case(
    "inference/is_inference",
    """
    import torch
    x = torch.ones(2, requires_grad=True)
    print(torch.ones(2).is_inference(), x.is_inference(), torch.is_inference_mode_enabled())
    with torch.inference_mode():
        t = torch.ones(2)
        u = x * 2
        v = x[0:1]
        w = t[0:1]
        with torch.inference_mode(False):
            n = torch.zeros(1)
            print(torch.is_inference_mode_enabled())
        print(t.is_inference(), u.is_inference(), u.requires_grad, v.is_inference())
        print(w.is_inference(), n.is_inference(), torch.is_inference_mode_enabled())
    print(t.is_inference(), (t + 1).is_inference(), t.clone().is_inference())
    print(torch.zeros(1).is_inference(), torch.is_inference_mode_enabled())
    with torch.no_grad():
        print(torch.ones(2).is_inference())
    @torch.inference_mode()
    def f(a):
        return a * 3
    @torch.inference_mode
    def g(a):
        return a + 3
    print(f(x).is_inference(), g(x).is_inference(), f(x), g(x).requires_grad)
    with torch.inference_mode(mode=False):
        print(torch.ones(1).is_inference(), torch.is_grad_enabled())
    """,
)

case(
    "allow_mutation/saved_tensors",
    """
    import torch
    with torch.autograd.graph.allow_mutation_on_saved_tensors() as ctx:
        a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
        b = a.clone()
        out = (b**2).sum()
        b.sin_()
        print(b, b._version)
        out.backward()
        print(a.grad)
        c = a * 3
        y = (c * c).sum()
        v = c[1:]
        v.mul_(10)
        print(c, v, c._version)
        y.backward()
        print(a.grad)
        w = torch.tensor([1.0, 2.0], requires_grad=True)
        k = torch.tensor([3.0, 4.0])
        z = (w * k).sum()
        with torch.no_grad():
            k += 1
            k.mul_(2)
        z.backward()
        print(w.grad, k, k._version)
        s = torch.tensor(2.0)
        q = torch.tensor(1.5, requires_grad=True)
        r = q * s
        s += 1.0
        r.backward()
        print(q.grad, s)
        e = q.exp() * torch.ones(2)
        f = e.exp()
        e.mul_(2)
        e.add_(1)
        f.sum().backward()
        print(q.grad, e)
        m = torch.tensor([[1., 2.], [3., 4.]], requires_grad=True) * 1
        n = (m * m).sum()
        m.t_()
        n.backward()
        print(m)
    print(type(ctx).__name__, type(ctx))
    """,
)

case(
    "allow_mutation/outside",
    """
    import torch
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
        b = a.clone()
        out = (b**2).sum()
        b.sin_()
    out.backward()
    """,
)

case(
    "allow_mutation/not_inside",
    """
    import torch
    a = torch.tensor([0.5, 1.0, 2.0], requires_grad=True)
    b = a.clone()
    out = (b**2).sum()
    with torch.autograd.graph.allow_mutation_on_saved_tensors():
        b.sin_()
        out.backward()
    """,
)

case(
    "python/hasattr_dunders_of_arrays",
    """
    import numpy as np
    import torch
    a = np.ones(3)
    print(hasattr(a, "__len__"), hasattr(np.float32(1), "__len__"), hasattr(a[0], "__len__"))
    print(hasattr(torch.Size([2]), "__len__"), hasattr(a, "__array__"), hasattr(a, "ndim"))
    print(hasattr(torch.ones(2).numpy(), "__iter__"), hasattr(np.int64(3), "__index__"))
    """,
)

case(
    "graph/module_backward_hooks_several_inputs",
    """
    import torch
    from torch import nn
    class M(nn.Module):
        def forward(self, a, s, b, c):
            return a * s * b + c.sum(), c * 2, 7, b * 1
    m = M()
    def hook(mod, gi, go):
        print("hook", gi, go)
        return (gi[0] * 10, None, None, gi[3])
    def pre(mod, go):
        print("pre", go)
    m.register_full_backward_hook(hook)
    m.register_full_backward_pre_hook(pre)
    a = torch.ones(2, requires_grad=True)
    b = torch.full((2,), 3.)
    c = torch.tensor([1., 2.], requires_grad=True)
    o1, o2, n, o4 = m(a, 2.0, b, c)
    print(o1.grad_fn, o4.grad_fn, o4.requires_grad, n)
    o1.sum().backward()
    print(a.grad, c.grad)
    o1, o2, n, o4 = m(a, 2.0, b, c)
    (o1.sum() + (o2 * o2).sum()).backward()
    print(a.grad, c.grad)
    class Two(nn.Module):
        def forward(self, x, y):
            return x * y
    t = Two()
    t.register_full_backward_hook(lambda mod, gi, go: print("two", gi, go))
    x = torch.tensor([1., -2.], requires_grad=True)
    y = torch.tensor([3., 0.], requires_grad=True)
    t(x, y).sum().backward()
    print(x.grad, y.grad)
    t(x, torch.tensor([5., 6.])).sum().backward()
    u = Two()
    u.register_full_backward_hook(lambda mod, gi, go: print("u", gi, go))
    u(torch.ones(2), torch.ones(2, requires_grad=True) * 1).sum().backward()
    neg = Two()
    neg.register_full_backward_hook(lambda mod, gi, go: print("neg", gi))
    p = torch.tensor([0., 1.], requires_grad=True)
    q = torch.tensor([-0., 2.], requires_grad=True)
    (neg(p, q) * -1.0).sum().backward()
    print(p.grad, q.grad)
    pair = Two()
    pair.register_full_backward_pre_hook(lambda mod, go: (go[0] * 0.5,))
    pair.register_full_backward_hook(lambda mod, gi, go: (gi[0] + 1, gi[1] * 0))
    x.grad = None
    y.grad = None
    pair(x, y).sum().backward()
    print(x.grad, y.grad)
    class Split(nn.Module):
        def forward(self, x):
            return x[:1] * 2, x[1:] * 3
    sp = Split()
    sp.register_full_backward_pre_hook(lambda mod, go: print("split pre", go))
    sp.register_full_backward_hook(lambda mod, gi, go: print("split", gi, go))
    r1, r2 = sp(torch.tensor([1., 2., 3.], requires_grad=True))
    (r1.sum() * 5 + r2.sum()).backward()
    """,
)

case(
    "graph/module_backward_hook_wrong_length",
    """
    import torch
    from torch import nn
    class Two(nn.Module):
        def forward(self, x, y):
            return x * y
    t = Two()
    t.register_full_backward_hook(lambda mod, gi, go: (gi[0],))
    x = torch.ones(2, requires_grad=True)
    t(x, x * 2).sum().backward()
    """,
)

case(
    "as_tensor/shares_or_converts",
    """
    import torch
    import numpy as np
    x = torch.ones(2, requires_grad=True)
    y = torch.as_tensor(x)
    print(y is x, torch.as_tensor(x, dtype=torch.float32))
    a = np.array([1.0, 2.0])
    t = torch.as_tensor(a)
    a[0] = 5.0
    print(t, torch.as_tensor(a, dtype=torch.float32), torch.as_tensor(np.array([1, 2])))
    print(torch.as_tensor([1, 2]), torch.as_tensor([1.5, 2]), torch.as_tensor(3))
    print(torch.as_tensor((1.0,), dtype=torch.float16), torch.as_tensor([[1, 2]], dtype=torch.float64))
    """,
)


# F.gelu / nn.GELU: torch's CPU kernels (erf: SLEEF's and glibc's; tanh: SLEEF's and
# glibc's; a contiguous float32 'none' forward and backward: oneDNN's AVX2 kernels), the
# backward and double backward.
for _dt in ("torch.float64", "torch.float32"):
    for _ap in ("none", "tanh"):
        case(
            f"gelu/{_dt[6:]}/{_ap}",
            f"""
            import torch
            import torch.nn.functional as F
            x = torch.tensor([-7.5, -3.5, -1.25, -1e-5, 0.0, 0.5, 2.0, 3.75, 9.0],
                             dtype={_dt}, requires_grad=True)
            y = F.gelu(x, approximate="{_ap}")
            print(y)
            print(y.tolist())
            g, = torch.autograd.grad(y, x, torch.linspace(-1, 2, 9, dtype={_dt}),
                                     create_graph=True)
            print(g)
            print(g.tolist())
            g.sum().backward()
            print(x.grad.tolist())
            """,
        )
case(
    "gelu/float64/long",
    """
    import torch
    x = torch.linspace(-6, 6, 41, requires_grad=True)
    y = torch.nn.functional.gelu(x)
    print(y.tolist())
    y.sum().backward()
    print(x.grad.tolist())
    z = torch.nn.functional.gelu(x, approximate="tanh")
    print(z.tolist())
    """,
)
case(
    "gelu/float32/none_forward",
    """
    import torch
    import torch.nn.functional as F
    x = torch.tensor([-7.5, -3.5, -1.25, -1e-5, 0.0, 0.5, 2.0, 3.75, 9.0],
                     dtype=torch.float32, requires_grad=True)
    y = F.gelu(x)
    print(y)
    print(y.tolist())
    w = torch.linspace(-4, 4, 34, dtype=torch.float32, requires_grad=True)
    s = F.gelu(w[::2])  # (strided: ATen's kernel, forward and backward)
    print(s.tolist())
    s.sum().backward()
    print(w.grad.tolist())
    """,
)
case(
    "gelu/float32/onednn_backward",
    """
    import torch
    import torch.nn.functional as F
    f = torch.float32
    _ = torch.manual_seed(3)
    x = torch.cat([torch.randn(3000, dtype=f) * 2.5, torch.linspace(-11, 11, 1001, dtype=f)])
    x.requires_grad_()
    g = torch.randn(x.shape, dtype=f)
    F.gelu(x).backward(g)
    print(x.grad.dtype, x.grad[:6].tolist())
    print(x.grad.sum().item(), (x.grad * torch.arange(4001.0, dtype=f)).sum().item())
    h = torch.randn(20, 30, dtype=f).t().requires_grad_()  # (strided input: ATen's backward)
    F.gelu(h).backward(torch.randn(30, 20, dtype=f))
    print(h.grad.sum().item())
    m = torch.nn.Sequential(torch.nn.Linear(6, 24), torch.nn.GELU(), torch.nn.Linear(24, 1)).float()
    m(torch.randn(10, 6, dtype=f)).pow(2).mean().backward()
    print(m[0].weight.grad.dtype, m[0].weight.grad.sum().item(), m[0].bias.grad.tolist()[:4])
    """,
)
case(
    "gelu/float32/long",
    """
    import torch
    x = torch.linspace(-6, 6, 41, dtype=torch.float32, requires_grad=True)
    print(torch.nn.functional.gelu(x).tolist())
    print(torch.nn.functional.gelu(x[::2]).tolist())
    z = torch.nn.functional.gelu(x, approximate="tanh")
    print(z.tolist())
    z.sum().backward()
    print(x.grad.tolist())
    """,
)
case(
    "gelu/float32/one_value",
    """
    import torch
    x = torch.tensor([-2.75], dtype=torch.float32, requires_grad=True)
    y = torch.nn.functional.gelu(x)
    print(y.item())
    y.backward()
    print(x.grad.item())
    """,
)
case(
    "gelu/module",
    """
    import torch
    import torch.nn as nn
    m = nn.GELU()
    print(m, nn.GELU(approximate="tanh"))
    print(m(torch.tensor([[1.5, -0.5]])))
    print(torch.nn.functional.gelu(torch.tensor([1.0]), approximate="exact"))
    """,
)
case(
    "dist/values",
    """
    import torch
    a = torch.tensor([[1., 2, 3], [4, 5, 6]], requires_grad=True)
    b = torch.tensor([0.5, -1, 2], requires_grad=True)
    d = torch.dist(a, b)
    print(d, d.grad_fn._saved_p, d.grad_fn.next_functions)
    d.backward()
    print(a.grad, b.grad)
    print(a.dist(b, 3), a.dist(b, p=1), torch.dist(a, b, float("inf")), torch.dist(a, b, 0))
    print(torch.dist(a, b, 0.5).item(), torch.dist(a, a))
    af = torch.tensor([0.1, 0.2, 0.7], dtype=torch.float32, requires_grad=True)
    e = af.dist(torch.tensor([0.3, -0.25, 1.5], dtype=torch.float32))
    print(e.item())
    e.backward()
    print(af.grad.tolist())
    print(torch.dist(torch.tensor([1, 2]), torch.tensor([3., 4])))
    print(torch.dist(a, torch.ones(3, dtype=torch.float32)))
    t = (torch.ones(2, 3) * 0.5, torch.tensor([1., 2, 3]))
    print(torch.func.jvp(lambda x, y: torch.dist(x, y, 3), (a.detach(), b.detach()), t))
    """,
)
errors(
    "dist/errors",
    "import torch\na = torch.ones(2, 3)",
    [
        "torch.dist(a, torch.ones(2))",
        "torch.dist(torch.tensor([1, 2]), torch.tensor([3, 4]))",
        "torch.dist(a)",
    ],
)
case(
    "detach_/values",
    """
    import torch
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    print(y.detach_(), y.requires_grad, y.grad_fn, y.is_leaf)
    x.detach_()
    print(x.requires_grad, x.is_leaf)
    z = (y * 3).sum()
    print(z.requires_grad)
    """,
)
errors(
    "detach_/views",
    "import torch\nw = torch.ones(2, 3, requires_grad=True)",
    ["w[0].detach_()", "w.t().detach_()", "torch.ones(3).view(3).detach_()"],
)
case(
    "module_hooks/mixed_dtypes",
    """
    import torch
    import torch.nn as nn
    class M(nn.Module):
        def forward(self, a, b, k):
            return a * 2, b * 3, (a.sum() + b.double().sum()) * k
    m = M()
    m.register_forward_hook(lambda mod, inp, out: print("forward", len(inp), len(out)))
    m.register_full_backward_pre_hook(lambda mod, go: print("pre", go))
    def hook(mod, gi, go):
        print("hook", gi, go)
        return (gi[0] * 10, gi[1] * 100, None)
    m.register_full_backward_hook(hook)
    a = torch.ones(2, requires_grad=True)
    b = torch.ones(3, dtype=torch.float32, requires_grad=True)
    x, y, z = m(a, b, 0.5)
    (x.sum() + y.sum() + z).backward()
    print(a.grad, b.grad)
    x, y, z = m(a, b, 2.0)
    g = torch.autograd.grad(y.sum() * 2, [a, b], allow_unused=True)
    print(g)
    """,
)


_OPT_SETUP = """
import torch
class MyOpt(torch.optim.Optimizer):
    def __init__(self, params, lr):
        super().__init__(params, dict(lr=lr))
    def step(self):
        for group in self.param_groups:
            for p in group['params']:
                if p.grad is not None:
                    p.data.add_(p.grad, alpha=-group['lr'])
"""
case(
    "optimizer_subclass/docs_pattern",
    _OPT_SETUP
    + """
w = torch.tensor([1.0, 2.0], requires_grad=True)
opt = MyOpt([w], lr=0.1)
print(opt)
for i in range(3):
    opt.zero_grad()
    loss = (w ** 2).sum()
    loss.backward()
    opt.step()
print(w, opt.defaults, opt.state, len(opt.param_groups))
print(isinstance(opt, torch.optim.Optimizer), type(opt).__name__)
""",
)
case(
    "optimizer_subclass/sgd_step",
    """
    import torch
    class SGD2(torch.optim.SGD):
        def __init__(self, params, lr=0.01):
            super().__init__(params, lr=lr, momentum=0.5)
            self.count = 0
        @torch.no_grad()
        def step(self, closure=None):
            self.count += 1
            super().step()
            for group in self.param_groups:
                for p in group["params"]:
                    p.mul_(0.5)
    v = torch.tensor([3.0, -1.5], requires_grad=True)
    o = SGD2([v], lr=0.5)
    for i in range(3):
        o.zero_grad()
        (v * v * v).sum().backward()
        o.step()
    print(v, o.count, o)
    """,
)
case(
    "optimizer_subclass/state",
    """
    import torch
    class Momentum(torch.optim.Optimizer):
        def __init__(self, params, lr=0.1):
            defaults = dict(lr=lr, momentum=0.9)
            super(Momentum, self).__init__(params, defaults)
        def step(self, closure=None):
            loss = None
            if closure is not None:
                loss = closure()
            for group in self.param_groups:
                for p in group["params"]:
                    if p.grad is None:
                        continue
                    state = self.state[p]
                    if len(state) == 0:
                        state["buf"] = torch.zeros_like(p)
                    buf = state["buf"]
                    buf.mul_(group["momentum"]).add_(p.grad)
                    p.data.add_(buf, alpha=-group["lr"])
            return loss
    u = torch.tensor([1.0, -1.0], requires_grad=True)
    po = Momentum([u])
    def closure():
        po.zero_grad()
        loss = (u ** 3).sum()
        loss.backward()
        return loss
    for i in range(2):
        print(po.step(closure))
    print(u, po.state[u], len(po.state))
    """,
)
errors(
    "optimizer_subclass/errors",
    _OPT_SETUP
    + "class Bare(torch.optim.Optimizer):\n    pass\nw = torch.ones(2, requires_grad=True)",
    ["Bare([w], {'lr': 0.1}).step()", "MyOpt([w], lr=-1.0)", "MyOpt(w, lr=0.1)"],
)


# Inference tensors outside inference mode: what torch refuses (saving one for backward,
# an in-place update, done before torch's error, requires_grad_) and what it allows.
case(
    "inference/outside",
    """
    import torch
    with torch.inference_mode():
        x = torch.ones(2)
        w = torch.ones(2, requires_grad=True)
        inside = w * 2
    y = torch.ones(2, requires_grad=True)
    try:
        print('y * x', '->', y * x)
    except Exception as e:
        print('y * x', '!!', type(e).__name__, e)
    try:
        print('x * y', '->', x * y)
    except Exception as e:
        print('x * y', '!!', type(e).__name__, e)
    try:
        print('y + x', '->', y + x)
    except Exception as e:
        print('y + x', '!!', type(e).__name__, e)
    try:
        print('torch.sin(x)', '->', torch.sin(x))
    except Exception as e:
        print('torch.sin(x)', '!!', type(e).__name__, e)
    try:
        print('(y * 2) @ x', '->', (y * 2) @ x)
    except Exception as e:
        print('(y * 2) @ x', '!!', type(e).__name__, e)
    try:
        print('x.add_(1)', '->', x.add_(1))
    except Exception as e:
        print('x.add_(1)', '!!', type(e).__name__, e)
    try:
        print('x.zero_()', '->', x.zero_())
    except Exception as e:
        print('x.zero_()', '!!', type(e).__name__, e)
    try:
        print('x.requires_grad_()', '->', x.requires_grad_())
    except Exception as e:
        print('x.requires_grad_()', '!!', type(e).__name__, e)
    try:
        print('x.view(2).is_inference()', '->', x.view(2).is_inference())
    except Exception as e:
        print('x.view(2).is_inference()', '!!', type(e).__name__, e)
    try:
        print('x.clone().is_inference()', '->', x.clone().is_inference())
    except Exception as e:
        print('x.clone().is_inference()', '!!', type(e).__name__, e)
    try:
        print('torch.exp(y) * x', '->', torch.exp(y) * x)
    except Exception as e:
        print('torch.exp(y) * x', '!!', type(e).__name__, e)
    try:
        print('y.exp() + x', '->', y.exp() + x)
    except Exception as e:
        print('y.exp() + x', '!!', type(e).__name__, e)
    try:
        print('x.exp_()', '->', x.exp_())
    except Exception as e:
        print('x.exp_()', '!!', type(e).__name__, e)
    try:
        print('x.mul_(y)', '->', x.mul_(y))
    except Exception as e:
        print('x.mul_(y)', '!!', type(e).__name__, e)
    try:
        print('inside.requires_grad', '->', inside.requires_grad)
    except Exception as e:
        print('inside.requires_grad', '!!', type(e).__name__, e)
    try:
        print('w.requires_grad', '->', w.requires_grad)
    except Exception as e:
        print('w.requires_grad', '!!', type(e).__name__, e)
    try:
        print('w * y', '->', w * y)
    except Exception as e:
        print('w * y', '!!', type(e).__name__, e)
    try:
        print('x.detach().is_inference()', '->', x.detach().is_inference())
    except Exception as e:
        print('x.detach().is_inference()', '!!', type(e).__name__, e)
    try:
        print('torch.nn.functional.linear(y, x.view(1, 2))', '->', torch.nn.functional.linear(y, x.view(1, 2)))
    except Exception as e:
        print('torch.nn.functional.linear(y, x.view(1, 2))', '!!', type(e).__name__, e)
    try:
        print('(y * 1).mul_(x)', '->', (y * 1).mul_(x))
    except Exception as e:
        print('(y * 1).mul_(x)', '!!', type(e).__name__, e)
    try:
        print('x.t_()', '->', x.t_())
    except Exception as e:
        print('x.t_()', '!!', type(e).__name__, e)
    try:
        print('x.sum()', '->', x.sum())
    except Exception as e:
        print('x.sum()', '!!', type(e).__name__, e)
    try:
        print('x.pow(y)', '->', x.pow(y))
    except Exception as e:
        print('x.pow(y)', '!!', type(e).__name__, e)
    try:
        print('y.pow(x)', '->', y.pow(x))
    except Exception as e:
        print('y.pow(x)', '!!', type(e).__name__, e)
    try:
        print('x.grad', '->', x.grad)
    except Exception as e:
        print('x.grad', '!!', type(e).__name__, e)
    try:
        print('x.is_leaf', '->', x.is_leaf)
    except Exception as e:
        print('x.is_leaf', '!!', type(e).__name__, e)
    try:
        print('x.requires_grad', '->', x.requires_grad)
    except Exception as e:
        print('x.requires_grad', '!!', type(e).__name__, e)
    try:
        print('x.sin_()', '->', x.sin_())
    except Exception as e:
        print('x.sin_()', '!!', type(e).__name__, e)
    try:
        x += 1
        print('x += 1', '->', x)
    except Exception as e:
        print('x += 1', '!!', type(e).__name__, e)
    try:
        x[0] = 5.0
        print('x[0] = 5.0', '->', x)
    except Exception as e:
        print('x[0] = 5.0', '!!', type(e).__name__, e)
    print(x, y.grad)
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    with torch.inference_mode():
        k = torch.tensor([3.0, 4.0])
        k.mul_(2)
    print(k, (z + k).sum(), torch.no_grad()(lambda: z * k)())
    with torch.no_grad():
        print(z * k)
    """,
)


case(
    "size/operators",
    """
    import torch
    s = torch.Size([2, 3])
    x = torch.ones(2, 3)
    print((1, 1) + x.shape, s + (1,), (1,) + s, s * 2, 2 * s, 0 * s, s + s, s == (2, 3))
    def comp(X):
        return X.reshape((1, 1) + X.shape).reshape(X.shape + (1,)).shape
    print(comp(x))
    t = s
    t += (4,)
    t *= 2
    print(t, s, type(t), list(s) + [5])
    """,
)

errors(
    "size/operator_errors",
    "import torch\ns = torch.Size([2, 3])",
    ["s + [1]", "[1] + s", "s - 1", "s * 1.5", "(1,) - s"],
)


# A whole sum's gradient is an expanded view in torch: batch_norm's backward takes its
# general kernel for it (sequential sums), and its weight's gradient is rounding noise
# that only the same order reproduces.
case(
    "batch_norm/sum_backward",
    """
    import torch
    import torch.nn.functional as F
    _ = torch.manual_seed(0)
    for dt in (torch.float64, torch.float32):
        for n, c in ((32, 8), (7, 3)):
            z = torch.randn(n, c, dtype=dt, requires_grad=True)
            w = torch.randn(c, dtype=dt, requires_grad=True)
            b = torch.randn(c, dtype=dt, requires_grad=True)
            o = F.batch_norm(z * 1.5, torch.zeros(c, dtype=dt), torch.ones(c, dtype=dt), w, b,
                             training=True)
            o.sum().backward()
            print(dt, w.grad.tolist(), z.grad[0].tolist())
        x4 = torch.randn(4, 3, 5, 5, dtype=dt, requires_grad=True)
        bn = torch.nn.BatchNorm2d(3).to(dt)
        bn(x4).sum().backward()
        print(bn.weight.grad.tolist(), x4.grad[0, 0, 0].tolist())
    """,
)
