"""Golden cases of torch functions that lectures, books and PyTorch's documentation use:
order statistics (median, nanmedian, kthvalue, mode), nan-reductions and moments, index
updates and the like; each its values (float32 and float64, ties and NaN where the kernel
decides which index), grad_fn, gradient (also under create_graph) and errors in PyTorch's
words.  Recorded from real PyTorch by scripts/gen_golden.py ops_more into
tests/golden/ops_more.json and replayed by tests/ops/test_ops_more.py.  The common subset
of Python and the language; float64 default."""

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


# ---------------------------------------------------------------- order statistics

case(
    "order/median",
    """
    import torch
    x = torch.tensor([[1., 2., 2., 0.5, 2., -0.0], [3., -1., 3., 3., float('nan'), 0.0]], requires_grad=True)
    r = torch.median(x, 1)
    print(r)
    g = r.values.grad_fn
    print(g.name(), g._saved_dim, g._saved_keepdim, g._saved_self_sym_sizes, g._saved_indices)
    r.values.sum().backward()
    print(x.grad)
    print(x.median(), x[:, :4].median(), torch.median(x, -1, keepdim=True), x.median(dim=0))
    y = torch.tensor([[0.25, -1.5, 0.25, 2.0, 0.25], [1.0, 1.0, -1.0, -1.0, 0.0]], dtype=torch.float32, requires_grad=True)
    m = y.median()
    m.backward()
    print(m, m.grad_fn, y.grad)
    print(torch.median(torch.tensor([4, 1, 3, 2])), torch.median(torch.tensor([4, 1, 3, 2]), 0))
    print(torch.median(torch.tensor([])), torch.median(torch.tensor(2.5), 0), torch.median(torch.ones(0, 3), 1))
    g2, = torch.autograd.grad(torch.median(x * x, 0).values.sum(), x, create_graph=True)
    print(g2, g2.grad_fn)
    print(torch.func.jvp(lambda v: torch.median(v, 1).values, (x.detach(),), (torch.ones(2, 6),)))
    """,
)
case(
    "order/nanmedian",
    """
    import torch
    nan = float('nan')
    x = torch.tensor([[nan, 2., 1., nan, 5.], [nan, nan, nan, nan, nan], [3., 3., 3., 1., nan]], requires_grad=True)
    r = torch.nanmedian(x, 1)
    print(r, r.values.grad_fn)
    r.values.sum().backward()
    print(x.grad)
    a = x.nanmedian()
    print(a, a.grad_fn, torch.nanmedian(torch.tensor([nan, nan])), torch.nanmedian(x[0], 0, True))
    print(torch.nanmedian(torch.full((20,), nan), 0))
    z = torch.tensor([0.0, -0.0, 1.0, -0.0, 0.0, -1.0, 0.0])
    print(z.median(), z.nanmedian(), torch.median(z, 0))
    """,
)
case(
    "order/kthvalue",
    """
    import torch
    x = torch.tensor([[2., 1., 2., 2., 0., 2., 1., 2.], [float('nan'), 1., float('nan'), 0., 1., 1., 1., 3.]], requires_grad=True)
    for k in range(1, 9):
        print(k, torch.kthvalue(x, k))
    r = x.kthvalue(3, 0, keepdim=True)
    print(r.values.grad_fn, r.values.grad_fn._saved_indices)
    r.values.sum().backward()
    print(x.grad)
    f = torch.tensor([1.5, 1.5, -2.5, 1.5, 0.25], dtype=torch.float32, requires_grad=True)
    v, i = torch.kthvalue(f, 3)
    print(v, i, torch.kthvalue(torch.tensor(2.), 1), torch.kthvalue(torch.tensor([3, 1, 2]), 2))
    """,
)
case(
    "order/mode",
    """
    import torch
    x = torch.tensor([[1., 2., 2., 1., 3., 1., 2.], [0., 5., 5., 0., 7., 7., 7.], [4., 3., 2., 1., 0., -1., 9.]], requires_grad=True)
    r = torch.mode(x)
    print(r, r.values.grad_fn)
    r.values.sum().backward()
    print(x.grad)
    print(x.mode(0), torch.mode(x, 1, True), torch.mode(torch.tensor([1, 1, 2, 2])), torch.mode(torch.tensor(3.)))
    print(torch.mode(torch.tensor([float('nan'), 1., float('nan'), 1., 2.])))
    print(torch.mode(torch.tensor([True, False, True])))
    """,
)
errors(
    "order/errors",
    "import torch\nx = torch.ones(2, 3)",
    [
        "torch.median(torch.ones(2, 0), 1)",
        "torch.median(torch.tensor([True, False]))",
        "torch.median(x, 1.5)",
        "torch.median(x, (0, 1))",
        "torch.median(x, 2)",
        "torch.median(x, keepdim=True)",
        "torch.kthvalue(x, 4)",
        "torch.kthvalue(x, 0)",
        "torch.kthvalue(x, 2.0)",
        "torch.kthvalue(x, 1, 2)",
        "torch.mode(torch.tensor([]))",
        "torch.mode(x, 2)",
        "torch.median([1, 2])",
        "torch.kthvalue(x)",
    ],
)


# ---------------------------------------------------------------- nan-reductions and moments

case(
    "nan/nansum",
    """
    import torch
    nan = float('nan')
    x = torch.tensor([[1.5, nan, 3.25], [4.0, -0.0, nan]], requires_grad=True)
    y = torch.nansum(x)
    print(y, y.grad_fn, y.grad_fn._saved_dim, y.grad_fn._saved_keepdim)
    y.backward()
    print(x.grad)
    print(torch.nansum(x, 1), x.nansum(0, keepdim=True), torch.nansum(x, (0, 1)), torch.nansum(torch.tensor([1, 2, 3])))
    f = torch.linspace(-1, 1, 1001, dtype=torch.float32)
    f[::7] = nan
    print(f.nansum().item(), f.reshape(7, 143).nansum(1).tolist())
    g, = torch.autograd.grad(torch.nansum(x * x, 1).sum(), x, create_graph=True)
    print(g, g.grad_fn)
    """,
)
case(
    "nan/nanmean",
    """
    import torch
    nan = float('nan')
    x = torch.tensor([[1.5, nan, 3.25], [4.0, 2.0, nan], [nan, nan, nan]], requires_grad=True)
    m = torch.nanmean(x, 1)
    print(m, m.grad_fn, m.grad_fn.next_functions[0][0])
    m.sum().backward()
    print(x.grad)
    print(x.nanmean(), torch.nanmean(x, 0, True), torch.nanmean(x[:2], (0, 1)))
    f = torch.linspace(-1, 1, 1001, dtype=torch.float32)
    f[::3] = nan
    print(f.nanmean().item(), f[:1000].reshape(10, 100).nanmean(1).tolist())
    try:
        torch.nanmean(torch.tensor([1, 2]))
    except Exception as e:
        print(type(e).__name__, e)
    """,
)
case(
    "moments/var_mean",
    """
    import torch
    torch.manual_seed(0)
    x = torch.randn(4, 5, requires_grad=True)
    v, m = torch.var_mean(x, 1)
    print(v, m, v.grad_fn, m.grad_fn)
    g = v.grad_fn
    print(g._saved_correction, g._saved_dim, g._saved_keepdim)
    (v.sum() * 2 + m.sum()).backward()
    print(x.grad)
    print(torch.var_mean(x), torch.var_mean(x, 0, keepdim=True, correction=0), torch.var_mean(x, (0, 1)), torch.var_mean(x, False))
    f = torch.randn(70001, dtype=torch.float32)
    print([t.item() for t in torch.var_mean(f)], [t.item() for t in torch.var_mean(f.double(), 0)])
    print([t.tolist() for t in torch.var_mean(torch.randn(3, 40, 7).transpose(0, 2), (0, 1))])
    """,
)
case(
    "moments/std_mean",
    """
    import torch
    torch.manual_seed(1)
    x = torch.randn(3, 6, dtype=torch.float32, requires_grad=True)
    s, m = torch.std_mean(x, 0)
    print(s, m, s.grad_fn, s.grad_fn._saved_result0)
    (s.sum() + m.sum()).backward()
    print(x.grad)
    print(torch.std_mean(x), torch.std_mean(x, -1, unbiased=False, keepdim=True))
    y = torch.tensor([[1.0, 2.0]], requires_grad=True)
    v, m = torch.var_mean(y, 0, correction=2)
    print(v, m)
    (v.sum() + m.sum()).backward()
    print(y.grad)
    for bad in (lambda: torch.var_mean(torch.tensor([1, 2])),):
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
    """,
)


# ---------------------------------------------------------------- composites

case(
    "composite/diff",
    """
    import torch
    x = torch.tensor([[1., 4., 9., 16.], [2., 3., 5., 7.]], requires_grad=True)
    for r in [torch.diff(x), x.diff(n=2), x.diff(dim=0), torch.diff(x, n=0), torch.diff(x, n=5), torch.diff(x, prepend=torch.zeros(2, 1), append=x[:, :1])]:
        print(r, r.grad_fn)
    print(torch.diff(torch.tensor([True, False, False])), torch.diff(torch.tensor([1, 5, 2])))
    torch.diff(x, n=2, prepend=x[:, :1] * 2).sum().backward()
    print(x.grad)
    f = torch.linspace(0, 1, 7, dtype=torch.float32) ** 2
    print(f.diff().tolist(), f.diff(2).tolist())
    """,
)
errors(
    "composite/diff_errors",
    "import torch\nx = torch.ones(2, 4)",
    [
        "torch.diff(torch.tensor(1.))",
        "torch.diff(x, n=-1)",
        "torch.diff(x, 1, 2)",
        "torch.diff(x, prepend=torch.zeros(3, 1))",
        "torch.diff(x, prepend=torch.zeros(2))",
    ],
)
case(
    "composite/tensordot_inner",
    """
    import torch
    def chain(t):
        out = []
        f = t.grad_fn
        while f is not None:
            out.append(f.name())
            f = f.next_functions[0][0] if f.next_functions else None
        return out
    x = torch.tensor([[1., 4., 9., 16.], [2., 3., 5., 7.]], requires_grad=True)
    for r in [torch.inner(x, x), torch.inner(x[0], x[1]), torch.inner(x, torch.tensor(2.)), x.inner(x[:1]), torch.tensordot(x, x, dims=([1], [1])), torch.tensordot(x, x.t(), dims=1), torch.tensordot(x, x, dims=2)]:
        print(r, chain(r))
    print(torch.tensordot(x, x, dims=0).shape)
    torch.manual_seed(0)
    a = torch.randn(3, 4, 5).float().requires_grad_()
    b = torch.randn(4, 5, 2).float().requires_grad_()
    r = torch.tensordot(a, b, dims=([1, 2], [0, 1]))
    print(r.tolist())
    r.sum().backward()
    print(a.grad.tolist(), b.grad.tolist())
    print(torch.tensordot(torch.ones(2, 1, 3), torch.ones(5, 3, 4), dims=([1, 2], [0, 1])).shape)
    for bad in [lambda: torch.inner(x, torch.ones(3)), lambda: torch.tensordot(x, torch.ones(3, 2), dims=([1], [0])), lambda: torch.tensordot(x, x, dims=3), lambda: torch.tensordot(x, x, dims=-1)]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
    """,
)
case(
    "composite/logspace",
    """
    import torch
    for args in [(0, 2, 5), (0, 2, 5, 2), (0, 1, 1), (-1, 1, 4), (0.5, 7.25, 101), (-3, 3, 17, 2.5)]:
        print(torch.logspace(*args).tolist(), torch.logspace(*args, dtype=torch.float32).tolist())
    print(torch.logspace(0, 3, 4, dtype=torch.int64), torch.logspace(0, 2, 0), torch.logspace(0., 1., 3, requires_grad=True))
    print(torch.logspace(start=-2, end=2, steps=5, base=3))
    try:
        torch.logspace(0, 2, -1)
    except Exception as e:
        print(type(e).__name__, e)
    """,
)


# ---------------------------------------------------------------- index updates

case(
    "index/add_copy_fill",
    """
    import torch
    x = torch.zeros(3, 4, requires_grad=True)
    src = torch.arange(8.).reshape(2, 4).requires_grad_()
    i = torch.tensor([2, 0])
    for r in [x.index_add(0, i, src), torch.index_add(x, 0, i, src, alpha=2), x.index_add(0, torch.tensor([1, 1]), src), x.index_add(1, torch.tensor([0]), torch.ones(3, 1)), x.index_copy(0, i, src), x.index_fill(1, torch.tensor([0, 2]), -1.0), x.index_fill(1, torch.tensor([0, 2]), torch.tensor(2.0, requires_grad=True)), x.index_fill(1, torch.tensor([-1]), 1.0)]:
        print(r, r.grad_fn)
    g = x.index_add(0, i, src, alpha=1.5).grad_fn
    print(g._saved_alpha, g._saved_dim, g._saved_index, g._saved_source, g._saved_source_dim)
    y = x * 2
    r = y.index_add(0, torch.tensor([1, 1]), src * src, alpha=0.5)
    r.backward(torch.arange(12.).reshape(3, 4))
    print(x.grad, src.grad)
    v = torch.tensor(3.0, requires_grad=True)
    r = (x * 1).index_fill(1, torch.tensor([0, 2, 0]), v)
    r.backward(torch.arange(12.).reshape(3, 4))
    print(x.grad, v.grad)
    r = (x * 1).index_copy(1, torch.tensor([3, 1]), src.t()[:3])
    r.backward(torch.arange(12.).reshape(3, 4))
    print(x.grad, src.grad)
    z = torch.zeros(3)
    print(z.index_add_(0, torch.tensor([0, 0]), torch.tensor([1., 2.])), z)
    print(torch.tensor(1.).index_add(0, torch.tensor([0]), torch.tensor(2.)), torch.tensor(1.).index_fill(0, torch.tensor(0), 3.))
    w = torch.ones(2, 3)
    _ = w.index_fill_(1, torch.tensor([1]), 7)
    _ = w.index_copy_(0, torch.tensor([1]), torch.full((1, 3), 5.))
    print(w)
    g2, = torch.autograd.grad(((x * x).index_add(0, i, src) ** 2).sum(), x, create_graph=True)
    print(g2, g2.grad_fn)
    f = torch.linspace(-1, 1, 12, dtype=torch.float32).reshape(3, 4)
    print(f.index_add(0, torch.tensor([0, 2, 0]), torch.linspace(0.1, 3, 12, dtype=torch.float32).reshape(3, 4), alpha=0.37).tolist())
    print(f.index_add(1, torch.tensor([0, 2, 0]), torch.linspace(0.1, 3, 9, dtype=torch.float32).reshape(3, 3), alpha=-1.3).tolist())
    print(torch.func.jvp(lambda a, b: a.index_add(0, i, b, alpha=2), (x.detach(), src.detach()), (torch.ones(3, 4), torch.ones(2, 4))))
    """,
)
errors(
    "index/errors",
    "import torch\nx = torch.zeros(3, 4, requires_grad=True)\nsrc = torch.ones(2, 4)\ni = torch.tensor([2, 0])",
    [
        "x.index_add(0, torch.tensor([3, 0]), src)",
        "x.index_add(0, torch.tensor([2.0, 0]), src)",
        "x.index_add(0, i, src[:, :3])",
        "x.index_add(0, i, src.float())",
        "x.index_add(0, torch.tensor([[0]]), src)",
        "x.index_add(0, i, torch.ones(3, 4))",
        "x.index_add(0, torch.tensor([-1, 0]), src)",
        "x.index_copy(0, torch.tensor([5, 0]), src)",
        "x.index_copy(0, i, src[:1])",
        "x.index_copy(1, torch.tensor([0]), torch.ones(2, 1))",
        "x.index_copy(0, i, torch.ones(2, 4, dtype=torch.float32))",
        "x.index_copy(0, torch.tensor([-1, 0]), src)",
        "x.index_fill(1, torch.tensor([4]), 1.0)",
        "x.index_fill(1, torch.tensor([0]), torch.tensor([1.0]))",
        "x.index_fill(2, torch.tensor([0]), 1.)",
        "x.index_fill(1, torch.tensor([0.]), 1.0)",
        "x.index_add_(0, i, src)",
    ],
)


# ---------------------------------------------------------------- logcumsumexp

case(
    "cumulative/logcumsumexp",
    """
    import torch
    nan, inf = float('nan'), float('inf')
    x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    r = torch.logcumsumexp(x, 1)
    print(r, r.grad_fn, r.grad_fn._saved_dim)
    r.backward(torch.tensor([[1., -2., 0.5], [0., 3., -1.]]))
    print(x.grad)
    print(x.logcumsumexp(0), torch.logcumsumexp(torch.tensor([-inf, -inf, 1., inf, inf, -inf, nan, 2.]), 0), torch.logcumsumexp(torch.tensor(2.5), 0))
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        a = (torch.randn(3, 17) * 20).to(dt).requires_grad_()
        r = torch.logcumsumexp(a, -1)
        print(r.tolist())
        g, = torch.autograd.grad(r, a, torch.randn(3, 17).to(dt))
        print(g.tolist())
        print(torch.logcumsumexp(a.t(), 0).tolist())
    g2, = torch.autograd.grad(torch.logcumsumexp(x * x, 1).sum(), x, create_graph=True)
    print(g2, g2.grad_fn)
    print(torch.func.jvp(lambda v: torch.logcumsumexp(v, 1), (x.detach(),), (torch.tensor([[1., 2., 3.], [-1., 0.5, 2.]]),)))
    try:
        torch.logcumsumexp(torch.tensor([1, 2]), 0)
    except Exception as e:
        print(type(e).__name__, e)
    """,
)


# ---------------------------------------------------------------- cross

case(
    "linalg/cross",
    """
    import torch
    a = torch.tensor([[1., 2., 3.], [-1., 0.5, 2.]], requires_grad=True)
    b = torch.tensor([0.5, -2., 4.], requires_grad=True)
    r = torch.linalg.cross(a, b.expand(2, 3))
    print(r, r.grad_fn, r.grad_fn._saved_dim)
    r.backward(torch.tensor([[1., 2., 3.], [4., 5., 6.]]))
    print(a.grad, b.grad)
    print(torch.cross(a, b.expand(2, 3), dim=1), a.cross(b.expand(2, 3), 1), torch.linalg.cross(a.t(), torch.ones(3, 2), dim=0))
    print(torch.linalg.cross(torch.tensor([1, 2, 3]), torch.tensor([4, 5, 6])))
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        p = torch.randn(20, 3).to(dt).requires_grad_()
        q = torch.randn(20, 3).to(dt).requires_grad_()
        r = torch.linalg.cross(p, q)
        print(r.tolist())
        gp, gq = torch.autograd.grad(r, (p, q), torch.randn(20, 3).to(dt))
        print(gp.tolist(), gq.tolist())
    g2, = torch.autograd.grad(torch.linalg.cross(a * a, b.expand(2, 3)).sum(), a, create_graph=True)
    print(g2, g2.grad_fn)
    print(torch.func.jvp(lambda u, v: torch.linalg.cross(u, v), (a.detach(), torch.ones(2, 3)), (torch.ones(2, 3), a.detach())))
    for bad in [lambda: torch.linalg.cross(a, b), lambda: torch.linalg.cross(a, torch.ones(2, 4)), lambda: torch.linalg.cross(torch.ones(4, 2), torch.ones(4, 2)), lambda: torch.cross(torch.ones(2, 4), torch.ones(2, 4)), lambda: torch.linalg.cross(a, torch.ones(2, 3, dtype=torch.float32)), lambda: torch.linalg.cross(torch.ones(2, 3), torch.ones(3, 3))]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
    """,
)
case(
    "linalg/cross_without_dim",
    """
    import torch
    print(torch.cross(torch.ones(3, 2), torch.arange(6.).reshape(3, 2)))
    """,
)


# ---------------------------------------------------------------- histc

case(
    "count/histc",
    """
    import torch
    x = torch.tensor([1., 2., 1., 2.5, 0., -1., 4.], requires_grad=True)
    for r in [torch.histc(x, bins=4, min=0, max=3), torch.histc(x), x.histc(5), torch.histc(torch.tensor([1., 1.]), 3), torch.histc(torch.tensor([float('nan'), 1.]), 3, 0, 2), torch.histc(torch.tensor([]), 3)]:
        print(r, r.requires_grad)
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        a = torch.randn(10000).to(dt)
        print(torch.histc(a, 37).tolist(), torch.histc(a, 50, -1.3, 0.7).tolist(), torch.histc(a * 3, 7, -0.1, 0.1).tolist())
        b = torch.linspace(0, 1, 1001).to(dt)
        print(torch.histc(b, 10, 0, 1).tolist(), torch.histc(b, 3, 0, 1).tolist(), torch.histc(b, 7).tolist())
    for bad in [lambda: torch.histc(torch.tensor([1, 2]), 3), lambda: torch.histc(x, bins=0), lambda: torch.histc(x, 3, 2, 1), lambda: torch.histc(torch.tensor([float('inf'), 1.]), 3), lambda: torch.histc(torch.tensor([float('nan'), 1.]), 3)]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
    """,
)


# ---------------------------------------------------------------- quantile

case(
    "order/quantile",
    """
    import torch
    nan = float('nan')
    def chain(t):
        out = []
        f = t.grad_fn
        while f is not None:
            out.append(f.name())
            f = f.next_functions[0][0] if f.next_functions else None
        return out
    x = torch.tensor([[1., nan, 3., 0.5, 2.], [4., 5., -1., 2., 2.]], requires_grad=True)
    for r in [torch.quantile(x, 0.3, dim=1), torch.nanquantile(x, 0.3, dim=1), torch.quantile(x[1], 0.5), x[1].quantile(torch.tensor([0.25, 0.5, 1.0])), torch.nanquantile(x, torch.tensor([0.1, 0.9]), dim=0, keepdim=True), torch.nanquantile(x, 0.4), torch.quantile(x[1:], 0.4, dim=0, keepdim=True)]:
        print(r, chain(r))
    for mode in ('lower', 'higher', 'nearest', 'midpoint'):
        print(mode, torch.nanquantile(x, 0.45, 1, True, interpolation=mode))
    r = torch.nanquantile(x, torch.tensor([0.2, 0.7]), dim=1)
    r.backward(torch.tensor([[1., 2.], [3., 4.]]))
    print(x.grad)
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        a = torch.randn(4, 33).to(dt).requires_grad_()
        for q in (0.1, 0.5, 0.77, 0.999):
            print(torch.quantile(a, q, dim=1).tolist(), torch.quantile(a, q).item(), torch.quantile(a.t(), q, dim=0).tolist())
        r = torch.quantile(a, torch.tensor([0.13, 0.6]).to(dt), dim=0)
        g, = torch.autograd.grad(r.sum(), a)
        print(r.tolist(), g.sum(0).tolist())
    for bad in [lambda: torch.quantile(x, 1.5), lambda: torch.quantile(x, torch.tensor([0.5, 1.5])), lambda: torch.quantile(torch.tensor([]), 0.5), lambda: torch.quantile(torch.tensor([1, 2]), 0.5), lambda: torch.quantile(x, torch.tensor([0.5], dtype=torch.float32)), lambda: torch.quantile(x, 0.5, interpolation='cubic'), lambda: torch.quantile(x, torch.ones(2, 2) / 2)]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
    """,
)


# ---------------------------------------------------------------- scatter_reduce

case(
    "index/scatter_reduce",
    """
    import torch
    nan = float('nan')
    x = torch.tensor([[1., 2., 3., 4.], [5., 6., 7., 8.], [-1., 0., 2., 2.]], requires_grad=True)
    src = torch.tensor([[0.5, 9., 2.], [3., 3., -4.], [2., 2., 7.]], requires_grad=True)
    idx = torch.tensor([[0, 0, 2], [1, 3, 1], [2, 2, 2]])
    for red in ("sum", "mean", "amax", "amin"):
        for inc in (True, False):
            r = x.scatter_reduce(1, idx, src, red, include_self=inc)
            print(red, inc, r, r.grad_fn)
            gx, gs = torch.autograd.grad(r, (x, src), torch.arange(12.).reshape(3, 4) + 1)
            print(gx, gs)
    g = x.scatter_reduce(1, idx, src, "amax").grad_fn
    print(g._saved_dim, g._saved_include_self, g._saved_reduce, g._saved_index, g._saved_result)
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        a = torch.randn(5, 6).to(dt)
        b = torch.randn(7, 6).to(dt)
        i = torch.randint(0, 5, (7, 6))
        for red in ("sum", "mean", "amax", "amin"):
            print(torch.scatter_reduce(a, 0, i, b, red).tolist(), a.scatter_reduce(0, i, b, red, include_self=False).tolist())
    print(torch.tensor([1., nan, 3.]).scatter_reduce(0, torch.tensor([0, 0, 1]), torch.tensor([nan, 2., 5.]), "amax"))
    print(torch.tensor([1., 2.]).scatter_reduce(0, torch.tensor([0, 0]), torch.tensor([5., -1.]), "max"))
    g2, = torch.autograd.grad((x * x).scatter_reduce(1, idx, src, "mean").sum(), x, create_graph=True)
    print(g2, g2.grad_fn)
    y = torch.zeros(3, 4)
    _ = y.scatter_reduce_(1, idx, src.detach(), "sum")
    print(y)
    for bad in [lambda: x.scatter_reduce(1, idx, src, "foo"), lambda: x.scatter_reduce(1, idx, src.float(), "sum"), lambda: x.scatter_reduce(1, idx.float(), src, "sum"), lambda: x.scatter_reduce(1, torch.tensor([[4]]), src, "sum")]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
    """,
)
case(
    "index/scatter_reduce_jvp",
    """
    import torch
    x = torch.tensor([[1., 2., 3., 4.], [5., 6., 7., 8.]])
    s = torch.tensor([[5., -1., 2.], [6., 6., 0.5]])
    i = torch.tensor([[0, 0, 3], [1, 1, 1]])
    for red in ("sum", "mean", "amax", "amin"):
        print(red, torch.func.jvp(lambda a, b: a.scatter_reduce(1, i, b, red), (x, s), (torch.ones(2, 4), torch.arange(6.).reshape(2, 3))))
    """,
)
case(
    "index/scatter_reduce_prod",
    """
    import torch
    x = torch.tensor([[1., 2., 0., 4.], [5., 6., 7., 8.], [-1., 0., 2., 2.]], requires_grad=True)
    src = torch.tensor([[0.5, 0., 2.], [3., 3., -4.], [0., 2., 0.]], requires_grad=True)
    idx = torch.tensor([[0, 0, 2], [1, 3, 1], [2, 2, 1]])
    for inc in (True, False):
        r = x.scatter_reduce(1, idx, src, "prod", include_self=inc)
        print(inc, r, r.grad_fn)
        gx, gs = torch.autograd.grad(r, (x, src), torch.arange(12.).reshape(3, 4) + 1)
        print(gx, gs)
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        a = torch.randn(5, 6).to(dt).requires_grad_()
        b = torch.randn(7, 6).to(dt).requires_grad_()
        i = torch.randint(0, 5, (7, 6))
        for inc in (True, False):
            r = torch.scatter_reduce(a, 0, i, b, "prod", include_self=inc)
            ga, gb = torch.autograd.grad(r, (a, b), torch.randn(5, 6).to(dt))
            print(r.tolist(), ga.tolist(), gb.tolist())
    for inc in (True, False):
        print(torch.func.jvp(lambda u, v: u.scatter_reduce(1, idx, v, "prod", include_self=inc), (x.detach(), src.detach()), (torch.ones(3, 4), torch.arange(9.).reshape(3, 3))))
    """,
)

# ---------------------------------------------------------------- cdist

case(
    "cdist/kernel",
    """
    import torch
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        for r1, r2, m in ((3, 4, 5), (1, 6, 7), (8, 2, 9), (25, 25, 13)):
            for p in (2.0, 1.0):
                a = torch.randn(r1, m).to(dt).requires_grad_()
                b = torch.randn(r2, m).to(dt).requires_grad_()
                d = torch.cdist(a, b, p=p)
                ga, gb = torch.autograd.grad(d, (a, b), torch.randn(r1, r2).to(dt))
                print(d.grad_fn.name(), d.tolist(), ga.tolist(), gb.tolist())
    x = torch.tensor([[0., 1.], [2., 3.]], requires_grad=True)
    d = torch.cdist(x, x.detach())
    print(d)
    d.sum().backward()
    print(x.grad)
    """,
)

case(
    "cdist/matmul_path",
    """
    import torch
    torch.manual_seed(1)
    for dt in (torch.float32, torch.float64):
        for r1, r2, m in ((26, 3, 4), (2, 30, 6), (40, 1, 5), (4, 3, 6)):
            mode = 'use_mm_for_euclid_dist' if r1 < 25 and r2 < 25 else 'use_mm_for_euclid_dist_if_necessary'
            a = torch.randn(r1, m).to(dt).requires_grad_()
            b = torch.randn(r2, m).to(dt).requires_grad_()
            d = torch.cdist(a, b, compute_mode=mode)
            ga, gb = torch.autograd.grad(d, (a, b), torch.randn(r1, r2).to(dt))
            print(d.grad_fn.name(), d.grad_fn.next_functions[0][0].name(), d.tolist(), ga.tolist(), gb.tolist())
    a = torch.randn(30, 3, requires_grad=True)
    d = torch.cdist(a, a.detach(), compute_mode='donot_use_mm_for_euclid_dist')
    print(d.grad_fn.name(), d[:2, :3])
    """,
)

errors(
    "cdist/errors",
    "import torch\na = torch.ones(3, 2)",
    [
        "torch.cdist(torch.ones(3), a)",
        "torch.cdist(a, torch.ones(2))",
        "torch.cdist(a, torch.ones(3, 3))",
        "torch.cdist(torch.ones(3, 2, dtype=torch.long), a)",
        "torch.cdist(a, a, p=-1.)",
        "torch.cdist(a, a, compute_mode='fast')",
    ],
)

case(
    "cdist/create_graph",
    """
    import torch
    a = torch.tensor([[0., 1., 2.], [1., 0., 1.], [2., 2., 0.]], requires_grad=True)
    b = torch.tensor([[1., 1., 1.], [0., 2., 1.]], requires_grad=True)
    d = torch.cdist(a, b, compute_mode='use_mm_for_euclid_dist')
    ga, = torch.autograd.grad(d.sum(), a, create_graph=True)
    print(ga, torch.autograd.grad(ga.sum(), (a, b)))
    d = torch.cdist(a, b)
    ga, = torch.autograd.grad(d.sum(), a, create_graph=True)
    print(ga)
    ga.sum().backward()
    """,
)

case(
    "cdist/p0_inf",
    """
    import torch
    torch.manual_seed(2)
    a = torch.tensor([[0., 1., 3.], [2., 2., 0.], [1., 1., 1.]], requires_grad=True)
    b = torch.tensor([[2., 1., 1.], [1., 1., 1.]], requires_grad=True)
    for p in (0.0, float('inf')):
        d = torch.cdist(a, b, p=p)
        print(d, d.grad_fn.name(), torch.autograd.grad(d, (a, b), torch.tensor([[1., 2.], [3., 4.], [5., 6.]])))
    for dt in (torch.float32, torch.float64):
        for p in (0.0, float('inf')):
            x = torch.randn(6, 5).to(dt).requires_grad_()
            y = torch.randn(30, 5).to(dt).requires_grad_()
            d = torch.cdist(x, y, p=p)
            gx, gy = torch.autograd.grad(d, (x, y), torch.randn(6, 30).to(dt))
            print(d.grad_fn.name(), d.tolist(), gx.tolist(), gy.tolist())
    """,
)

case(
    "nll/signed_zero_gradient",
    """
    import torch
    import torch.nn.functional as F
    x = torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -2.0]], requires_grad=True)
    for t, w in ((torch.tensor([2, 0]), None), (torch.tensor([2, -100]), None), (torch.tensor([2, 1]), torch.tensor([1.0, 0.0, 2.0]))):
        for k in (0.0, 1.0):
            x.grad = None
            (F.nll_loss(x, t, weight=w, reduction="sum") * k).backward()
            print(x.grad)
            x.grad = None
            (F.cross_entropy(x, t, weight=w) * k).backward()
            print(x.grad)
    x.grad = None
    (F.nll_loss(x[0], torch.tensor(1)) * 0).backward()
    print(x.grad)
    """,
)

case(
    "creation/like_own_shape_and_dtype",
    """
    import torch
    for x in (torch.tensor([[1.5, -2.0], [0.0, 3.0]]), torch.tensor([1.0, 2.0]).to(torch.float32),
              torch.tensor([1.0, 2.0]).to(torch.float16), torch.tensor([3, -4]), torch.tensor([True, False]),
              torch.tensor(2.5), torch.ones(0, 3)):
        print(torch.ones_like(x), torch.zeros_like(x), torch.empty_like(x).shape, torch.empty_like(x).dtype)
        print(torch.full_like(x, 0.7), torch.full_like(x, -3), torch.full_like(x, True))
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    o = torch.ones_like(w, requires_grad=True)
    f = torch.full_like(w, 0.25, requires_grad=True)
    (o * f * w).sum().backward()
    print(o.requires_grad, torch.ones_like(w).requires_grad, o.grad, f.grad, w.grad)
    print(torch.full_like(w.t(), 2.0), torch.zeros_like(w[::2]))
    torch.full_like(torch.tensor([1, 2]), 0.5, requires_grad=True)
    """,
)
