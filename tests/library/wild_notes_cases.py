"""Golden cases of the torch API that PyTorch's own documentation notes use (nn's
parameter containers, item assignment into module containers, ...).
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


# ------------------------------------------------- nn's parameter containers

case(
    "parameter_containers/list",
    """
    import torch
    from torch import nn
    torch.manual_seed(0)
    pl = nn.ParameterList([nn.Parameter(torch.randn(2)) for i in range(3)])
    print(pl)
    print(len(pl), pl[0], pl[-1].shape, list(pl.named_parameters()))
    pl.append(torch.ones(2, dtype=torch.float64))
    print(type(pl[3]), pl[3], pl[3].requires_grad)
    pl.extend([torch.zeros(1, 2)])
    print(pl)
    print(pl[1:4], nn.ParameterList([torch.ones(1)]), nn.ParameterList())
    for p in pl:
        print(p.shape)
    pl[0] = torch.full((2,), 7.0)
    print(pl[0], [n for n, _ in pl.named_parameters()])
    print(nn.ParameterList([1, 'a', torch.ones(1)]))
    """,
)

case(
    "parameter_containers/dict",
    """
    import torch
    from torch import nn
    torch.manual_seed(0)
    pd = nn.ParameterDict({'foo': nn.Parameter(torch.randn(3)), 'bar': nn.Parameter(torch.randn(4))})
    print(pd)
    print(list(pd.keys()), pd['foo'], len(pd), 'foo' in pd, 'x' in pd, list(pd))
    pd['baz'] = torch.ones(1, dtype=torch.float64)
    print(pd, list(pd.items())[2], [v.shape for v in pd.values()])
    print(nn.ParameterDict([('b', torch.zeros(1)), ('a', torch.zeros(2))]))
    del pd['foo']
    print(pd, pd.get('x'), pd.get('bar').shape, pd.pop('baz').dtype, len(pd))
    pd.update({'z': torch.ones(2), 'y': torch.ones(3)})
    print(list(pd), [n for n, _ in pd.named_parameters()])
    print(nn.ParameterDict({'n': 3, 'p': torch.zeros(1)}))
    """,
)

case(
    "parameter_containers/in_a_module",
    """
    import torch
    from torch import nn
    torch.manual_seed(0)
    class M(nn.Module):
        def __init__(self):
            super().__init__()
            self.w = nn.Parameter(torch.randn(2))
            self.pl = nn.ParameterList([torch.randn(2) for i in range(2)])
            self.pd = nn.ParameterDict({'b': torch.randn(1), 'a': torch.randn(3)})
            self.lin = nn.Linear(2, 1)
        def forward(self, x):
            return self.lin(x * self.w + self.pl[0] + self.pl[1]) + self.pd['b'] + self.pd['a'].sum()
    m = M()
    print(m)
    print(list(m.state_dict()), [n for n, _ in m.named_parameters()])
    y = m(torch.tensor([[1.0, 2.0]]))
    y.sum().backward()
    print(y, m.pl[1].grad, m.pd['a'].grad, m.w.grad)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    opt.step()
    print(m.pd['b'], m.pl[0])
    m2 = M()
    print(m2.load_state_dict(m.state_dict()), torch.equal(m2.pd['a'], m.pd['a']))
    print(m.double().pl[0].dtype)
    """,
)

errors(
    "parameter_containers/errors",
    "import torch\nfrom torch import nn\npl = nn.ParameterList([torch.ones(2)])\n"
    "pd = nn.ParameterDict({'a': torch.ones(2)})",
    [
        "pl(torch.ones(2))",
        "pd(torch.ones(2))",
        "pl[1]",
        "pl[-2] = torch.ones(1)",
        "pl['0']",
        "pl.extend(torch.ones(2))",
        "pd['zz']",
        "pd[1]",
        "del pd['zz']",
        "pl.append(torch.ones(2, dtype=torch.int64))",
        "nn.ParameterDict([('a', torch.ones(1), 2)])",
    ],
)

# ------------------------------------------- item assignment into module containers

case(
    "module_containers/setitem_delitem",
    """
    import torch
    from torch import nn
    md = nn.ModuleDict({'a': nn.ReLU()})
    md['b'] = nn.Tanh()
    print(md, len(md), 'b' in md)
    del md['a']
    print(md)
    ml = nn.ModuleList([nn.ReLU(), nn.Tanh(), nn.Sigmoid()])
    ml[0] = nn.Identity()
    ml[-1] = nn.LeakyReLU()
    print(ml)
    del ml[0]
    print(ml, ml[0])
    seq = nn.Sequential(nn.ReLU(), nn.Tanh(), nn.Sigmoid())
    seq[1] = nn.Identity()
    del seq[0]
    print(seq, seq(torch.tensor([0.0])))
    """,
)

errors(
    "module_containers/errors",
    "import torch\nfrom torch import nn\nmd = nn.ModuleDict({'a': nn.ReLU()})\n"
    "ml = nn.ModuleList([nn.ReLU()])",
    [
        "md['b'] = 3",
        "del md['zz']",
        "ml[3] = nn.ReLU()",
        "md['a.b'] = nn.ReLU()",
        "md[''] = nn.ReLU()",
        "nn.Linear(1, 1).register_parameter('a.b', None)",
        "nn.Linear(1, 1).register_buffer('', None)",
    ],
)

# ------------------------------------------------------- legacy type names

case(
    "legacy_type_names",
    """
    import torch
    for dt in [torch.float64, torch.float32, torch.float16, torch.int64, torch.int32,
               torch.int16, torch.int8, torch.uint8, torch.bool]:
        print(torch.zeros(1, dtype=dt).type())
    """,
)

errors(
    "parameter_containers/replacing",
    "import torch\nfrom torch import nn\npl = nn.ParameterList([torch.ones(2), 5])\n"
    "pd = nn.ParameterDict({'a': torch.ones(2), 'b': 'x'})\n"
    "pl[1] = torch.zeros(1)\npd['b'] = torch.zeros(3)\nprint(pl, pd)",
    [
        "pl[0] = 3",
        "pd['a'] = None",
    ],
)

# ------------------------------------------------- hooks on one saved tensor

case(
    "raw_saved/register_hooks",
    """
    import torch
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = x.pow(2)
    r = y.grad_fn._raw_saved_self
    def pk(t):
        print('pack', t, t.requires_grad, t.grad_fn, t is x)
        return t * 1
    def up(t):
        print('unpack', t)
        return t
    r.register_hooks(pk, up)
    print(y.grad_fn._saved_self)
    y.sum().backward()
    print(x.grad)
    z = x.exp()
    z.grad_fn._raw_saved_result.register_hooks(pk, up)
    s = z.grad_fn._saved_result
    print(s, s.grad_fn.name(), s is z)
    z.backward(torch.ones(3))
    print(x.grad)
    w = x * torch.tensor([1.0, 2.0, 3.0])
    w.grad_fn._raw_saved_other.register_hooks(pk, up)
    w.sum().backward()
    print(x.grad)
    q = x.sin()
    with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):
        m = x * x
    m.grad_fn._raw_saved_self
    """,
)

errors(
    "raw_saved/errors",
    "import torch\nx = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)\ny = x.pow(2)",
    [
        "r = y.grad_fn._raw_saved_self\nr.register_hooks(lambda t: t, lambda t: t)\n"
        "r.register_hooks(lambda t: t, lambda t: t)",
        "r = y.grad_fn._raw_saved_self\ny.sum().backward()\nr.register_hooks(lambda t: t, lambda t: t)",
        "(x * 2).grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)",
        "q = x.sin()\nq.grad_fn._raw_saved_self.register_hooks(lambda t: 1, lambda t: 1)\n"
        "q.grad_fn._saved_self",
        "y.grad_fn._raw_saved_exponent",
        "y.grad_fn._raw_saved_nothing",
        "with torch.autograd.graph.saved_tensors_hooks(lambda t: t, lambda t: t):\n"
        "    m = x * x\nm.grad_fn._raw_saved_self.register_hooks(lambda t: t, lambda t: t)",
    ],
)

# ------------------------------------------------- torch.func.stack_module_state

case(
    "stack_module_state/ensemble",
    """
    import torch
    from torch import nn
    from torch.func import stack_module_state, functional_call, vmap
    torch.manual_seed(0)
    models = [nn.Sequential(nn.Linear(3, 2), nn.BatchNorm1d(2)) for _ in range(3)]
    params, buffers = stack_module_state(models)
    print({k: (v.shape, v.requires_grad, v.is_leaf) for k, v in params.items()})
    print({k: (v.shape, v.dtype) for k, v in buffers.items()})
    print(params['0.weight'][1], buffers['1.running_var'])
    print(torch.func.vmap is torch.vmap)
    lins = [nn.Linear(3, 2) for _ in range(3)]
    params, buffers = stack_module_state(lins)
    def f(p, b, x):
        return functional_call(lins[0], (p, b), (x,))
    x = torch.randn(4, 3)
    out = vmap(f, in_dims=(0, 0, None))(params, buffers, x)
    print(out.shape, torch.allclose(out[2], lins[2](x)), out.grad_fn.name())
    (out ** 2).sum().backward()
    print(params['bias'].grad, params['weight'].grad[1])
    frozen = [nn.Linear(2, 2).requires_grad_(False) for _ in range(2)]
    p2, _ = stack_module_state(frozen)
    print(p2['weight'].requires_grad)
    """,
)

errors(
    "stack_module_state/errors",
    "import torch\nfrom torch import nn\nfrom torch.func import stack_module_state",
    [
        "stack_module_state([])",
        "stack_module_state([nn.Linear(1, 1), nn.Linear(1, 1).eval()])",
        "stack_module_state([nn.Linear(1, 1), nn.Tanh()])",
        "a = nn.Linear(1, 1)\n_ = a.bias.requires_grad_(False)\nstack_module_state([a, nn.Linear(1, 1)])",
    ],
)

# ------------------------------------------- nn.init.orthogonal_ and nn.utils.skip_init

case(
    "orthogonal/values",
    """
    import torch
    from torch import nn
    torch.manual_seed(0)
    for shape in [(3, 5), (5, 3), (4, 4), (2, 3, 4), (6, 2, 2), (1, 7), (9, 1)]:
        for dt in (torch.float32, torch.float64):
            w = torch.empty(shape, dtype=dt)
            nn.init.orthogonal_(w)
            print(shape, dt, w.flatten().tolist())
    print(nn.init.orthogonal_(torch.empty(3, 3), gain=2.0).tolist())
    g = torch.Generator().manual_seed(3)
    print(nn.init.orthogonal_(torch.empty(2, 2), generator=g).tolist(), torch.rand(1))
    lin = nn.Linear(20, 8)
    nn.init.orthogonal_(lin.weight)
    print(lin.weight.requires_grad, lin.weight.grad_fn, (lin.weight @ lin.weight.T).diagonal())
    """,
)

case(
    "skip_init/modules",
    """
    import torch
    from torch import nn
    torch.manual_seed(0)
    m = torch.nn.utils.skip_init(nn.Linear, 5, 3)
    print(torch.rand(2), m, m.weight.shape, m.bias.shape, m.weight.requires_grad)
    nn.init.orthogonal_(m.weight)
    print(torch.rand(2))
    m = torch.nn.utils.skip_init(nn.Linear, 2, 2, bias=False, dtype=torch.float32)
    print(m, m.weight.dtype, torch.rand(1))
    """,
)

errors(
    "orthogonal/errors",
    "import torch\nfrom torch import nn",
    [
        "nn.init.orthogonal_(torch.empty(3))",
        "torch.nn.utils.skip_init(nn.ReLU)",
        "torch.nn.utils.skip_init(3)",
    ],
)

# ------------------------------------- torch.autograd.functional's double-backward trick

case(
    "functional/back_trick_graphs",
    """
    import torch
    from torch.autograd.functional import jvp, hvp, vjp, vhp
    x = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.25, -0.75]])
    def f(x):
        return x.exp().sum(dim=1)
    out, t = jvp(f, x, torch.ones(2, 3), create_graph=True)
    print(out, t, [n.name() for n, _ in t.grad_fn.next_functions])
    def g(x):
        return (x.sin() * x).mean(dim=(0, 1))
    print(jvp(g, x, torch.full((2, 3), 0.5), create_graph=True))
    def h(x):
        return x.pow(3).sum(-1)
    print(jvp(h, x, x, create_graph=True))
    def s(x):
        return (x.pow(3) * x.sin()).sum()
    v, r = hvp(s, x, torch.ones(2, 3), create_graph=True)
    print(v, r, [n.name() for n, _ in r.grad_fn.next_functions])
    print(hvp(s, x, x), vhp(s, x, x))
    def two(a, b):
        return (a * b).sum(0), a.tanh()
    print(jvp(two, (x, x.flip(0)), (torch.ones(2, 3), x), create_graph=True))
    print(jvp(lambda a: a * 0 + 1, x, x))
    y = x.clone().requires_grad_()
    z = (y.exp().sum(dim=-1) ** 2).sum()
    gy, = torch.autograd.grad(z, y, create_graph=True)
    print(gy)
    gy.sum().backward()
    print(y.grad)
    """,
)

# ------------------- a custom Function's boxed_grads_call, clear_saved_tensors_on_access

case(
    "custom_function/boxed_and_clearing",
    """
    import torch
    from torch.autograd.function import once_differentiable
    class G(torch.autograd.Function):
        boxed_grads_call = True
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x * 2
        @staticmethod
        def backward(ctx, grads):
            print(type(grads).__name__, len(grads), grads)
            g = grads[0]
            grads[0] = None
            return g * 2
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    (G.apply(x) ** 2).sum().backward()
    print(x.grad)
    class H(torch.autograd.Function):
        boxed_grads_call = True
        @staticmethod
        def forward(ctx, x):
            return x * 3
        @staticmethod
        @once_differentiable
        def backward(ctx, grads):
            return grads[0] * 3
    y = torch.tensor([0.5], requires_grad=True)
    H.apply(y).backward()
    print(y.grad)
    class C(torch.autograd.Function):
        clear_saved_tensors_on_access = True
        @staticmethod
        def forward(ctx, x, w):
            ctx.save_for_backward(x, w)
            return x * w
        @staticmethod
        def backward(ctx, g):
            x, w = ctx.saved_tensors
            return g * w, g * x
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    b = torch.tensor([3.0, 4.0], requires_grad=True)
    out = C.apply(a, b)
    out.sum().backward(retain_graph=True)
    out.sum().backward()
    print(a.grad, b.grad)
    """,
)

case(
    "custom_function/ctx_is_the_node",
    """
    import torch
    class Sq(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            print(ctx, type(ctx), type(ctx).__name__)
            ctx.scale = 2.0
            ctx.save_for_backward(x)
            return x * x
        @staticmethod
        def backward(ctx, g):
            print(type(ctx).__name__)
            try:
                del ctx.nothing
            except AttributeError as e:
                print(e)
            (x,) = ctx.saved_tensors
            return g * ctx.scale * x
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Sq.apply(x)
    print(y.grad_fn, type(y.grad_fn), y.grad_fn.scale, y.grad_fn.needs_input_grad)
    print(y.grad_fn.saved_tensors)
    try:
        y.grad_fn.scal
    except AttributeError as e:
        print(e)
    y.sum().backward()
    print(x.grad, y.grad_fn.scale)
    """,
)

errors(
    "custom_function/ctx_errors",
    "import torch\n"
    "class Sq(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, x):\n"
    "        ctx.scale = 2.0\n"
    "        return x * x\n"
    "    @staticmethod\n"
    "    def backward(ctx, g):\n"
    "        return g * ctx.scal\n"
    "x = torch.tensor([1.0, 2.0], requires_grad=True)",
    [
        "Sq.apply(x).sum().backward()",
        "Sq.apply(x).grad_fn.scal",
    ],
)

case(
    "tensor_class/unbound_methods",
    """
    import torch
    print(torch.Tensor.sum, torch.Tensor.add, torch.Tensor.item)
    print(torch.Tensor.add(torch.ones(2), torch.ones(2)))
    print(list(map(torch.Tensor.item, [torch.tensor(1.0), torch.tensor(2)])))
    print(sorted([torch.tensor(3.0), torch.tensor(1.0)], key=torch.Tensor.item))
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = torch.Tensor.sum(torch.Tensor.mul(x, x))
    torch.Tensor.backward(y)
    print(x.grad, hasattr(torch.Tensor, "add"), hasattr(torch.Tensor, "nope"))
    print(torch.Tensor.reshape(torch.arange(6), 2, 3), torch.Tensor.mean(torch.arange(4.0), dim=0))
    """,
)

errors(
    "tensor_class/unbound_errors",
    "import torch",
    [
        "torch.Tensor.add(1, 2)",
        "torch.Tensor.add()",
        "torch.Tensor.nope",
    ],
)

case(
    "tensor/base_of_views",
    """
    import torch
    a = torch.arange(6.0)
    x = a.reshape(2, 3)
    print(x._base is a, x._base)
    y = x[1:]
    print(y._base is a, y._base is x, x.t()._base is a, y.view(3)._base is a)
    print(x.detach()._base is None, x.clone()._base is None, a._base is None)
    print(x.unsqueeze(0)._base is a, x.expand(2, 2, 3)._base is a, x.diagonal()._base is a)
    p = torch.ones(3, requires_grad=True)
    print(p[:2]._base is p, torch.ones(2, 3).T.contiguous()._base is None)
    with torch.no_grad():
        n = p[1:]
    print(n._base is p)
    """,
)

case(
    "functional/relu_inplace_positional",
    """
    import torch
    import torch.nn.functional as F
    x = torch.tensor([-1.0, 2.0, -3.0])
    y = F.relu(x, True)
    print(y, x, y is x, x._version)
    z = torch.tensor([-0.5, 0.5], requires_grad=True) * 2
    print(F.relu(z, inplace=False), F.relu(z, True), z)
    """,
)

errors(
    "custom_function/clearing_errors",
    "import torch\n"
    "class C(torch.autograd.Function):\n"
    "    clear_saved_tensors_on_access = True\n"
    "    @staticmethod\n"
    "    def forward(ctx, x):\n"
    "        ctx.save_for_backward(x)\n"
    "        return x * 2\n"
    "    @staticmethod\n"
    "    def backward(ctx, g):\n"
    "        x, = ctx.saved_tensors\n"
    "        y, = ctx.saved_tensors\n"
    "        return g * 2\n"
    "x = torch.ones(2, requires_grad=True)",
    [
        "C.apply(x).sum().backward()",
    ],
)

# ------------------------------------------------- a batched tensor's device under vmap

case(
    "vmap/device",
    """
    import torch
    from torch.func import vmap
    def f(x):
        print(x.device, x.is_cuda, x.is_cpu)
        return torch.eye(x.numel(), dtype=x.dtype, device=x.device) * x.sum()
    print(vmap(f)(torch.arange(6.0).reshape(2, 3)))
    """,
)
