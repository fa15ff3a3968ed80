"""Golden cases of torch API that published code uses and that gradcli lacked: the
padding layers, the fused pointwise ops (addcmul, addcdiv and their in-place forms that
hand-written optimizers use), the matrix-vector forms of addmm, and torch.* functions
that tutorials and PyTorch's docstrings call.  tests/library/wild_cases.py adds them to
its CASES (recorded into tests/golden/wild.json by scripts/gen_golden.py wild); its rules
apply."""

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


# ---------------------------------------------------------------- padding layers

case(
    "padding_layers/reprs",
    """
    import torch
    import torch.nn as nn
    for m in [nn.ZeroPad1d(1), nn.ZeroPad2d(1), nn.ZeroPad2d((1, 2, 0, 1)), nn.ZeroPad3d(1),
              nn.ConstantPad1d(2, 3.5), nn.ConstantPad2d((1, 0, 2, 1), -1),
              nn.ConstantPad3d(1, 0), nn.ReflectionPad1d(2), nn.ReflectionPad2d((1, 1, 2, 0)),
              nn.ReflectionPad3d(1), nn.ReplicationPad1d(1), nn.ReplicationPad2d(1),
              nn.ReplicationPad3d(1), nn.CircularPad1d(1), nn.CircularPad2d(1),
              nn.CircularPad3d(1)]:
        print(m, m.padding, type(m))
    print(nn.ZeroPad2d(1).value, nn.ConstantPad1d(2, 3.5).value)
    """,
)

for _kind, _args in (
    ("Zero", "(1, 2, 0, 1)"),
    ("Constant", "(2, 1, 1, 0), -0.5"),
    ("Reflection", "(1, 2, 2, 1)"),
    ("Replication", "(3, 0, 1, 2)"),
    ("Circular", "(1, 2, 2, 1)"),
):
    case(
        f"padding_layers/{_kind}2d",
        f"""
        import torch
        import torch.nn as nn
        torch.manual_seed(0)
        net = nn.Sequential(nn.{_kind}Pad2d({_args}), nn.Conv2d(2, 3, 3), nn.Tanh())
        print(net)
        x = torch.randn(2, 2, 4, 5, requires_grad=True)
        p = net[0](x)
        print(p.shape, p.grad_fn)
        print(p[0, 0])
        y = net(x)
        y.pow(2).sum().backward()
        print(y.sum().item())
        print(x.grad[1])
        print(net[1].weight.grad.sum())
        """,
    )

case(
    "padding_layers/one_and_three_d",
    """
    import torch
    import torch.nn as nn
    x = torch.arange(24.0).reshape(1, 2, 3, 4).requires_grad_()
    for m in [nn.ReflectionPad1d((2, 1)), nn.ReplicationPad1d(2), nn.ConstantPad1d(1, 9.0),
              nn.ZeroPad1d((0, 2)), nn.CircularPad1d((1, 3))]:
        y = m(x[0])
        print(m, y.grad_fn)
        print(y)
    v = torch.arange(16.0).reshape(1, 1, 2, 2, 4).requires_grad_()
    for m in [nn.ReflectionPad3d(1), nn.ReplicationPad3d((1, 0, 0, 1, 1, 0)),
              nn.ZeroPad3d((0, 1, 1, 0, 0, 1)), nn.ConstantPad3d(1, -1.0)]:
        y = m(v)
        print(m, y.shape, y.grad_fn)
        (y * torch.arange(y.numel()).reshape(y.shape)).sum().backward()
        print(v.grad)
        v.grad = None
    """,
)

errors(
    "padding_layers/errors",
    "import torch\nimport torch.nn as nn",
    [
        "nn.CircularPad1d(1)(torch.randn(1, 1, 2, 2))",
        "nn.CircularPad2d(1)(torch.randn(2, 2))",
        "nn.ReflectionPad1d(3)(torch.randn(1, 2, 3))",
        "nn.ZeroPad2d((1, 2, 3))(torch.randn(2, 2))",
    ],
)


# ---------------------------------------------------------------- addcmul, addcdiv

for _dt in ("float64", "float32"):
    case(
        f"pointwise/values/{_dt}",
        f"""
        import torch
        torch.manual_seed(1)
        a, b, c = (torch.randn(3, 70, dtype=torch.{_dt}) for _ in range(3))
        for v in (1, 0.3, -2.5):
            y = torch.addcmul(a, b, c, value=v)
            z = torch.addcdiv(a, b, c, value=v)
            print(v, y.dtype, y.sum().item(), z.sum().item())
            print(y[0, :6].tolist(), z[1, :6].tolist())
        print(torch.addcmul(a[:, :1], b[0], c[:, :5].T.unsqueeze(1)).shape)
        """,
    )

case(
    "pointwise/grads",
    """
    import torch
    torch.manual_seed(2)
    a = torch.randn(2, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    c = (torch.rand(2, 1) + 0.5).requires_grad_()
    y = torch.addcmul(a, b, c, value=0.3)
    print(y, y.grad_fn, y.grad_fn._saved_value)
    print(y.grad_fn._saved_tensor1, y.grad_fn._saved_tensor2)
    (y * y).sum().backward()
    print(a.grad, b.grad, c.grad, sep="\\n")
    a.grad = b.grad = c.grad = None
    z = a.addcdiv(b, c, value=-2)
    print(z, z.grad_fn, z.grad_fn._saved_value)
    (z * z).sum().backward()
    print(a.grad, b.grad, c.grad, sep="\\n")
    for f in (torch.addcmul, torch.addcdiv):
        g = torch.autograd.grad(f(a, b, c, value=1.5).sin().sum(), (a, b, c), create_graph=True)
        print([t.grad_fn for t in g])
        print(g[2])
        h, = torch.autograd.grad(g[2].sum(), c)
        print(h)
    """,
)

case(
    "pointwise/forward_mode",
    """
    import torch
    torch.manual_seed(3)
    a, b = torch.randn(4), torch.randn(4)
    c = torch.rand(4) + 0.5
    ta, tb, tc = torch.randn(4), torch.randn(4), torch.randn(4)
    for f in (torch.addcmul, torch.addcdiv):
        for v in (1, -0.5):
            out, t = torch.func.jvp(lambda x, y, z: f(x, y, z, value=v), (a, b, c), (ta, tb, tc))
            print(out, t, sep="\\n")
    """,
)

case(
    "pointwise/handwritten_adam",
    """
    import torch
    torch.manual_seed(0)
    X = torch.randn(32, 3)
    Y = X @ torch.tensor([[1.5], [-2.0], [0.5]]) + 0.1 * torch.randn(32, 1)
    w = torch.zeros(3, 1, requires_grad=True)
    m = torch.zeros_like(w)
    v = torch.zeros_like(w)
    lr, b1, b2, eps = 0.1, 0.9, 0.999, 1e-8
    for step in range(1, 31):
        loss = ((X @ w - Y) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            g = w.grad
            m.mul_(b1).add_(g, alpha=1 - b1)
            v.mul_(b2).addcmul_(g, g, value=1 - b2)
            denom = (v.sqrt() / (1 - b2 ** step) ** 0.5).add_(eps)
            w.addcdiv_(m, denom, value=-lr / (1 - b1 ** step))
        w.grad.zero_()
        if step % 10 == 0:
            print(step, loss.item())
    print(w)
    print(w.flatten().tolist())
    """,
)

case(
    "pointwise/inplace_and_ints",
    """
    import torch
    p = torch.zeros(3)
    q = p.addcmul_(torch.ones(3), torch.tensor([1.0, 2.0, 3.0]), value=0.5)
    print(q is p, p)
    p.addcdiv_(torch.ones(3), torch.tensor([1.0, 2.0, 3.0]), value=-1)
    print(p)
    i = torch.ones(2, dtype=torch.long)
    print(torch.addcmul(i, i, i, value=0.5), torch.addcmul(i, i, i, value=2))
    print(torch.addcmul(torch.ones(2), i, i).dtype)
    print(torch.addcmul(torch.ones(2), torch.ones(2), torch.ones(2), value=torch.tensor(2.0)))
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    y.addcmul_(x, x)
    print(y, y.grad_fn)
    y.sum().backward()
    print(x.grad)
    """,
)

errors(
    "pointwise/errors",
    "import torch\nt = torch.ones(2)\ni = torch.ones(2, dtype=torch.long)",
    [
        "torch.addcdiv(i, i, i)",
        "torch.addcmul(t, t)",
        "torch.addcmul(1.0, t, t)",
        "torch.addcmul(t, t, 2.0)",
        "torch.addcmul(t, t, t, value='a')",
        "torch.addcmul(t, t, torch.ones(3))",
        "t.addcmul(t)",
        "t.addcmul_(torch.ones(3, 2), t)",
        "torch.addcmul(t, t, t, 2)",
        "t.addcdiv_(t, t, value=torch.tensor([2.0, 3.0]))",
        "x = torch.ones(2, requires_grad=True)\nx.addcmul_(t, t)",
    ],
)


# ---------------------------------------------------------------- logaddexp2, xlogy, atanh

for _dt in ("float64", "float32"):
    case(
        f"log_math/values/{_dt}",
        f"""
        import torch
        torch.manual_seed(4)
        a = torch.randn(2, 40, dtype=torch.{_dt}) * 4
        b = torch.randn(40, dtype=torch.{_dt}) * 4
        y = torch.logaddexp2(a, b)
        print(y.dtype, y.sum().item(), y[1, :5].tolist())
        print(torch.logaddexp2(torch.tensor([float("inf"), float("-inf"), 1.0], dtype=torch.{_dt}),
                               torch.tensor([float("inf"), float("-inf"), float("-inf")], dtype=torch.{_dt})))
        x = torch.randn(50, dtype=torch.{_dt})
        x[::7] = 0
        w = torch.rand(50, dtype=torch.{_dt}) * 5
        w[::11] = float("nan")
        w[::13] = 0
        print(torch.xlogy(x, w).nansum().item(), torch.xlogy(x, w)[:14].tolist())
        print(torch.xlogy(2.5, w)[:6].tolist(), torch.xlogy(x, 3.0)[:6].tolist())
        print(x.xlogy(w).dtype, torch.xlogy(torch.arange(3), torch.arange(3)))
        print(torch.atanh(torch.tensor([-0.75, -0.1, 0.0, 0.3, 0.99, 1.0, 1.5], dtype=torch.{_dt})))
        """,
    )

case(
    "log_math/grads",
    """
    import torch
    torch.manual_seed(5)
    a = torch.randn(2, 3, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    y = torch.logaddexp2(a, b)
    print(y, y.grad_fn)
    y.sum().backward()
    print(a.grad, b.grad, sep="\\n")
    g = torch.autograd.grad(torch.logaddexp2(a, b).sum(), (a, b), create_graph=True)
    print(g[0], g[1].grad_fn)
    x = torch.tensor([0.0, 1.5, -2.0, 0.0], requires_grad=True)
    w = torch.tensor([0.0, 2.0, 0.5, 3.0], requires_grad=True)
    z = torch.xlogy(x, w)
    print(z, z.grad_fn, torch.xlogy(2.0, w).grad_fn, torch.xlogy(x, 2.0).grad_fn)
    (z * z).sum().backward()
    print(x.grad, w.grad)
    t = torch.tensor([-0.5, 0.25, 0.8], requires_grad=True)
    u = torch.atanh(t)
    print(u, u.grad_fn)
    u.sum().backward()
    print(t.grad)
    h, = torch.autograd.grad(torch.atanh(t).sum(), t, create_graph=True)
    print(h, h.grad_fn)
    print(torch.func.jvp(torch.logaddexp2, (a, b), (torch.ones(2, 3), torch.ones(3)))[1])
    print(torch.func.jvp(torch.xlogy, (x, w), (torch.ones(4), torch.ones(4)))[1])
    """,
)

case(
    "log_math/entropy",
    """
    import torch
    import torch.nn.functional as F
    p = F.softmax(torch.tensor([[2.0, 0.5, -1.0], [0.0, 0.0, -50.0]]), dim=1)
    p[1, 2] = 0.0
    print(-torch.xlogy(p, p).sum(1))
    q = torch.tensor([[0.25, 0.25, 0.5], [0.5, 0.5, 0.0]])
    print((torch.xlogy(p, p) - torch.xlogy(p, q)).sum(1))
    lp = torch.log2(torch.tensor([0.125, 0.5]))
    print(torch.logaddexp2(lp[0], lp[1]), torch.log2(torch.tensor(0.625)))
    """,
)

errors(
    "log_math/errors",
    "import torch\nt = torch.ones(2)",
    [
        "torch.logaddexp2(t, 1.0)",
        "torch.logaddexp2(torch.ones(2, dtype=torch.long), torch.ones(2, dtype=torch.long))",
        "torch.logaddexp2(t, torch.ones(3))",
        "torch.xlogy(t, torch.ones(3))",
        "torch.xlogy(1.0, 2.0)",
        "torch.xlogy(t)",
    ],
)


# ---------------------------------------------------------------- slogdet, logdet, solve

for _dt in ("float64", "float32"):
    case(
        f"linalg_solve/values/{_dt}",
        f"""
        import torch
        torch.manual_seed(6)
        for n in (1, 2, 3, 5, 8, 13, 30):
            A = torch.randn(n, n, dtype=torch.{_dt})
            for M in (A, A.T):
                M = M.clone().requires_grad_() if M.is_contiguous() else M.detach().requires_grad_()
                s, l = torch.linalg.slogdet(M)
                l.backward(torch.tensor(0.75, dtype=torch.{_dt}))
                print(n, M.is_contiguous(), s.item(), l.item(), M.grad.sum().item(), M.grad[0].tolist()[:3])
                B = torch.randn(n, 2, dtype=torch.{_dt}, requires_grad=True)
                N = M.detach().clone().requires_grad_() if M.is_contiguous() else M.detach().T.clone().T.requires_grad_()
                X = torch.linalg.solve(N, B)
                X.backward(torch.ones_like(X))
                print(X.flatten().tolist()[:4], N.grad.sum().item(), B.grad.flatten().tolist()[:4])
        """,
    )

case(
    "linalg_solve/docs",
    """
    import torch
    torch.manual_seed(7)
    A = torch.randn(3, 3)
    b = torch.randn(3)
    x = torch.linalg.solve(A, b)
    print(x, torch.allclose(A @ x, b))
    A = torch.randn(2, 3, 3)
    B = torch.randn(2, 3, 4)
    X = torch.linalg.solve(A, B)
    print(X.shape, torch.allclose(A @ X, B))
    B = torch.randn(3, 1)
    print(torch.linalg.solve(A, B).shape)
    b = torch.randn(2, 3)
    print(torch.linalg.solve(A, b))
    A = torch.randn(3, 3)
    print(torch.linalg.det(A))
    print(torch.linalg.slogdet(A))
    r = torch.slogdet(A)
    print(r.sign, r.logabsdet, r[0] * torch.exp(r[1]))
    print(torch.logdet(A), torch.logdet(A @ A.T), A.logdet())
    print(torch.linalg.slogdet(torch.zeros(2, 2)), torch.logdet(-torch.eye(3)), torch.logdet(torch.zeros(2, 2)))
    print(torch.linalg.slogdet(torch.randn(2, 4, 4)))
    """,
)

case(
    "linalg_solve/grads",
    """
    import torch
    torch.manual_seed(8)
    A = (torch.randn(3, 3) + 3 * torch.eye(3)).requires_grad_()
    b = torch.randn(3, requires_grad=True)
    x = torch.linalg.solve(A, b)
    print(x, x.grad_fn, x.grad_fn._saved_left)
    (x * torch.arange(1.0, 4.0)).sum().backward()
    print(A.grad, b.grad, sep="\\n")
    sign, lad = torch.linalg.slogdet(A)
    print(sign.grad_fn, lad.grad_fn)
    A.grad = None
    (2 * lad).backward()
    print(A.grad)
    print(torch.linalg.inv(A).T * 2)
    A.grad = None
    torch.logdet(A).backward()
    print(A.grad)
    g, = torch.autograd.grad(torch.linalg.solve(A, b).pow(2).sum(), b, create_graph=True)
    print(g, g.grad_fn is not None)
    h, = torch.autograd.grad(g.sum(), A)
    print(h)
    K = torch.randn(2, 3, 3, requires_grad=True)
    s, l = torch.linalg.slogdet(K)
    l.sum().backward()
    print(K.grad)
    print(torch.func.jvp(lambda M: torch.linalg.slogdet(M)[1], (A.detach(),), (torch.ones(3, 3),)))
    """,
)

errors(
    "linalg_solve/errors",
    "import torch\nA = torch.randn(3, 3)",
    [
        "torch.linalg.solve(torch.zeros(3, 3), torch.ones(3))",
        "torch.linalg.solve(A, torch.ones(4))",
        "torch.linalg.solve(A, torch.ones(4, 2))",
        "torch.linalg.solve(torch.ones(2, 3), torch.ones(2))",
        "torch.linalg.slogdet(torch.ones(2, 3))",
        "torch.linalg.slogdet(torch.ones(3))",
        "torch.logdet(torch.ones(2, 3))",
        "torch.linalg.solve(A, 2.0)",
        "torch.linalg.slogdet(torch.ones(2, 2, dtype=torch.long))",
        "torch.linalg.solve(A, torch.ones(3, dtype=torch.float32))",
        "torch.linalg.solve(torch.zeros(2, 3, 3), torch.ones(2, 3))",
    ],
)


# ---------------------------------------------------------------- rot90, block_diag, trapezoid

case(
    "rot90/values_and_grads",
    """
    import torch
    torch.manual_seed(9)
    x = torch.arange(6.0).reshape(2, 3).requires_grad_()
    for k, dims in ((1, [0, 1]), (2, [0, 1]), (3, [1, 0]), (-1, [0, 1]), (4, [0, 1]), (5, [1, 0])):
        r = torch.rot90(x, k, dims)
        print(k, dims, r, r.stride(), r.is_contiguous(), r.grad_fn._saved_k, r.grad_fn._saved_dims)
    r = x.rot90()
    (r * torch.arange(6.0).reshape(3, 2)).sum().backward()
    print(x.grad)
    v = torch.randn(2, 3, 4, requires_grad=True)
    w = torch.rot90(v, 1, [0, 2])
    print(w.shape, w.sum(1))
    g, = torch.autograd.grad((w * w).sum(), v, create_graph=True)
    print(g.grad_fn, torch.allclose(g, 2 * v))
    print(torch.func.jvp(lambda t: torch.rot90(t, 3), (x.detach(),), (torch.ones(2, 3),))[1])
    """,
)

case(
    "block_diag/values_and_grads",
    """
    import torch
    torch.manual_seed(10)
    A = torch.randn(2, 3, requires_grad=True)
    b = torch.tensor(2.5, requires_grad=True)
    c = torch.randn(3, requires_grad=True)
    D = torch.block_diag(A, b, c)
    print(D, D.grad_fn)
    (D * torch.arange(28.0).reshape(4, 7)).sum().backward()
    print(A.grad, b.grad, c.grad, sep="\\n")
    print(torch.block_diag(torch.ones(2, dtype=torch.long), torch.ones(1, 2)).dtype)
    print(torch.block_diag(torch.ones(2, 2, dtype=torch.long), torch.tensor([[5]])))
    print(torch.block_diag())
    E = torch.block_diag(*[torch.full((2, 2), float(i)) for i in range(3)])
    print(E)
    """,
)

case(
    "trapezoid/values_and_grads",
    """
    import torch
    torch.manual_seed(11)
    y = torch.randn(3, 5, requires_grad=True)
    x = torch.tensor([0.0, 0.5, 1.5, 2.0, 4.0])
    for r in (torch.trapezoid(y), torch.trapezoid(y, dx=0.25), torch.trapezoid(y, dim=0),
              torch.trapezoid(y, x), torch.trapz(y, x), torch.trapz(y, dx=2),
              torch.trapezoid(y, torch.stack([x, x * 2, x + 1]))):
        print(r, r.grad_fn)
    torch.trapezoid(y, x).sum().backward()
    print(y.grad)
    print(torch.trapezoid(torch.arange(5)), torch.trapezoid(torch.ones(0)), torch.trapezoid(torch.ones(2, 0)))
    print(torch.trapezoid(torch.ones(3), dx=torch.tensor(0.5)))
    t = torch.linspace(0, 3.141592653589793, 101)
    print(torch.trapezoid(torch.sin(t), t), torch.trapezoid(torch.sin(t), dx=t[1] - t[0]))
    print(torch.trapezoid(y, x, dim=-1).dtype, torch.trapezoid(y.float(), dx=0.1))
    """,
)

errors(
    "rot90/errors",
    "import torch\nx = torch.ones(2, 3)",
    [
        "torch.rot90(x, 1, [0])",
        "torch.rot90(torch.ones(3))",
        "torch.rot90(x, 1, [0, 0])",
        "torch.rot90(x, 1, [0, 2])",
        "torch.block_diag(torch.ones(2, 2, 2))",
        "torch.trapezoid(torch.ones(3, 2), torch.ones(3))",
    ],
)


# ---------------------------------------------------------------- torch.special

case(
    "special/aliases",
    """
    import torch
    torch.manual_seed(12)
    x = torch.randn(2, 3, requires_grad=True)
    p = torch.rand(4)
    for y in (torch.special.expit(x), torch.special.exp2(x), torch.special.expm1(x),
              torch.special.log1p(x.abs()), torch.special.erf(x), torch.special.erfc(x),
              torch.special.erfinv(x.tanh()), torch.special.logsumexp(x, 1),
              torch.special.softmax(x, 0), torch.special.log_softmax(x, dim=1),
              torch.special.round(x), torch.special.round(x * 10, decimals=-1),
              torch.special.xlogy(x, x.abs()), torch.special.xlogy(2.0, p)):
        print(y, y.grad_fn)
    torch.special.expit(x).sum().backward()
    print(x.grad)
    print(-torch.special.xlogy(p, p).sum())
    """,
)


# ---------------------------------------------------------------- addr

for _dt in ("float64", "float32"):
    case(
        f"addr/values/{_dt}",
        f"""
        import torch
        torch.manual_seed(13)
        M = torch.randn(37, 41, dtype=torch.{_dt})
        a = torch.randn(37, dtype=torch.{_dt})
        b = torch.randn(41, dtype=torch.{_dt})
        for beta, alpha in ((1, 1), (0.5, 2.0), (0, 1.5), (1, 0.3)):
            r = torch.addr(M, a, b, beta=beta, alpha=alpha)
            print(beta, alpha, r.sum().item(), r[3, 30:].tolist())
        print(torch.addr(M[0], a, b)[5, :4].tolist(), M.addr(a, b, alpha=-1)[36, 38:].tolist())
        """,
    )

case(
    "addr/grads",
    """
    import torch
    torch.manual_seed(14)
    M = torch.randn(2, 3, requires_grad=True)
    a = torch.randn(2, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    r = torch.addr(M, a, b, beta=0.5, alpha=2)
    g = r.grad_fn
    print(r, g, g._saved_alpha, g._saved_beta, g._saved_vec1, g._saved_vec2)
    (r * r).sum().backward()
    print(M.grad, a.grad, b.grad, sep="\\n")
    h = torch.autograd.grad(torch.addr(M, a, b, alpha=3.0).pow(2).sum(), (M, a, b), create_graph=True)
    print(h[1], h[2].grad_fn)
    print(torch.addr(torch.ones(3), a, b), M.addr(a, b).grad_fn)
    z = torch.zeros(2, 3)
    print(z.addr_(a.detach(), b.detach(), alpha=2) is z, z)
    print(torch.addr(torch.ones(2, 3, dtype=torch.long), torch.arange(2), torch.arange(3), beta=2))
    print(torch.func.jvp(lambda m, x, y: torch.addr(m, x, y, beta=0.5), (M.detach(), a.detach(), b.detach()), (torch.ones(2, 3), torch.ones(2), torch.ones(3)))[1])
    """,
)

errors(
    "addr/errors",
    "import torch\nM = torch.randn(2, 3)\na = torch.randn(2)\nb = torch.randn(3)",
    [
        "torch.addr(M, a, M)",
        "torch.addr(M, a)",
        "torch.addr(torch.ones(3, 3), a, b)",
        "torch.addr(torch.ones(2, 3, dtype=torch.long), torch.ones(2, dtype=torch.long), torch.ones(3, dtype=torch.long), alpha=0.5)",
        "torch.addr(M, a, 2.0)",
    ],
)


# ---------------------------------------------------------------- cov, corrcoef

for _dt in ("float64", "float32"):
    case(
        f"cov/values/{_dt}",
        f"""
        import torch
        torch.manual_seed(15)
        x = torch.randn(4, 30, dtype=torch.{_dt}, requires_grad=True)
        c = torch.cov(x)
        print(c, c.grad_fn)
        print(c.flatten().tolist()[:6])
        r = torch.corrcoef(x)
        print(r, r.grad_fn)
        print(r.flatten().tolist()[:6])
        (c.sum() + r.sum()).backward()
        print(x.grad[:, :4])
        print(x.cov(correction=0)[0].tolist(), torch.cov(x[1]).item(), torch.corrcoef(x[2]))
        print(torch.cov(torch.arange(6).reshape(2, 3)))
        """,
    )

case(
    "cov/docs",
    """
    import torch
    x = torch.tensor([[0, 1, 2], [2, 1, 0]])
    print(torch.cov(x))
    print(torch.cov(x, correction=0))
    print(torch.corrcoef(x))
    torch.manual_seed(16)
    y = torch.randn(2, 4)
    print(y, torch.corrcoef(y), torch.corrcoef(y[0]), sep="\\n")
    print(torch.cov(torch.ones(3, 1)))
    """,
)

errors(
    "cov/errors",
    "import torch",
    [
        "torch.cov(torch.ones(2, 2, 2))",
        "torch.corrcoef(torch.ones(2, 2, 2))",
        "torch.cov(torch.ones(2, 2, dtype=torch.bool))",
    ],
)


# ------------------------------------- empty_like, reshape_as, F.normalize, copysign, logit, sinc

case(
    "empty_like/shape_dtype",
    """
    import torch
    x = torch.randn(2, 3)
    e = torch.empty_like(x)  # (torch's values are whatever memory held: not printed)
    print(e.shape, e.dtype, e.requires_grad)
    f = torch.empty_like(x, dtype=torch.float16, requires_grad=True)
    print(f.shape, f.dtype, f.requires_grad, f.is_leaf, f.grad_fn)
    print(torch.empty_like(torch.arange(4)).dtype, torch.empty_like(torch.ones(0, 2)).shape)
    """,
)

case(
    "reshape_as/views_and_copies",
    """
    import torch
    x = torch.arange(6.0).requires_grad_()
    y = x.reshape_as(torch.zeros(2, 3))
    print(y, y.grad_fn)
    z = y.t().reshape_as(torch.zeros(6))
    print(z, z.grad_fn)
    (z * torch.arange(6.0)).sum().backward()
    print(x.grad)
    print(y.t().reshape_as(torch.zeros(3, 2)).grad_fn, x.reshape_as(x).grad_fn)
    """,
)

errors(
    "reshape_as/errors",
    "import torch",
    ["torch.arange(6.0).reshape_as(torch.zeros(4))"],
)

case(
    "normalize/functional",
    """
    import torch
    import torch.nn.functional as F
    torch.manual_seed(17)
    x = torch.randn(3, 4, requires_grad=True)
    y = F.normalize(x)
    print(y, y.grad_fn)
    node = y.grad_fn.next_functions[1][0]
    print(node.name(), node.next_functions[0][0].name(),
          node.next_functions[0][0].next_functions[0][0].name())
    (y * torch.arange(4.0)).sum().backward()
    print(x.grad)
    z = F.normalize(x, p=1, dim=0, eps=1e-3)
    print(z)
    print(F.normalize(x, dim=-1).norm(dim=-1))
    print(F.normalize(torch.tensor([0.0, 0.0, 1e-20]), dim=0))
    print(F.normalize(torch.tensor([[3.0, 4.0]]), p=float("inf")))
    w = torch.randn(2, 3, 5, dtype=torch.float32)
    print(F.normalize(w, dim=2), F.normalize(w, dim=1).dtype)
    """,
)

case(
    "copysign/tensor_and_number",
    """
    import torch
    a = torch.tensor([1.0, -2.0, 0.0, -0.0, 3.5, -1.25], requires_grad=True)
    b = torch.tensor([-1.0, 2.0, -3.0, 0.5, -0.0, 2.0], requires_grad=True)
    y = torch.copysign(a, b)
    print(y, y.grad_fn, y.grad_fn._saved_self, y.grad_fn._saved_result)
    y.pow(2).sum().backward()
    print(a.grad, b.grad)
    z = a.copysign(-2)
    print(z, z.grad_fn)
    z.sum().backward()
    print(a.grad)
    print(torch.copysign(torch.tensor([1, 2]), -1), torch.copysign(torch.tensor([1, 2]), 0.5))
    print(torch.copysign(torch.tensor([1, -2]), torch.tensor([-1])).dtype)
    print(torch.copysign(torch.tensor([1.0, 2.0], dtype=torch.float16), -1))
    print(torch.copysign(torch.tensor([1.0, -2.0], dtype=torch.float32), torch.tensor([-1.0])))
    torch.manual_seed(18)
    m = torch.randn(2, 3, requires_grad=True)
    s = torch.tensor([1.0, -1.0, -0.0], requires_grad=True)
    w = torch.copysign(m, s)
    (w * w).sum().backward()
    print(w, m.grad, s.grad)
    """,
)

errors(
    "copysign/errors",
    "import torch",
    [
        "torch.copysign(torch.ones(2), torch.ones(3))",
        "torch.copysign(1.0, torch.ones(3))",
        "torch.copysign(torch.ones(2), 'a')",
    ],
)

case(
    "logit/eps",
    """
    import torch
    x = torch.tensor([0.0, 0.1, 0.5, 0.93, 1.0, -0.2, 1.3, 1e-8], requires_grad=True)
    for e in (None, 1e-6, 0.2):
        l = torch.logit(x, eps=e) if e is not None else x.logit()
        print(l, l.grad_fn, l.grad_fn._saved_eps)
        g, = torch.autograd.grad(l.sum(), x)
        print(g)
    print(torch.special.logit(torch.tensor([0.25, 0.75])), torch.logit(torch.tensor([1, 0])))
    print(torch.logit(torch.tensor([0.3, 0.6], dtype=torch.float32), 0.4))
    torch.manual_seed(19)
    p = torch.rand(5, 7)
    print(torch.logit(p).tolist()[0], torch.logit(p.t(), 1e-3).sum())
    q = torch.rand(300, dtype=torch.float32)
    print(torch.logit(q).tolist()[-6:], torch.logit(q, eps=0.01).sum())
    """,
)

case(
    "sinc/values_and_grads",
    """
    import torch
    s = torch.tensor([0.0, 0.5, -1.5, 2.0, 1e-5, 3.3], requires_grad=True)
    q = torch.sinc(s)
    print(q, q.grad_fn, q.grad_fn._saved_self)
    q.sum().backward()
    print(s.grad)
    print(torch.special.sinc(torch.tensor([1, 0])), s.sinc())
    g2, = torch.autograd.grad(torch.sinc(s).sum(), s, create_graph=True)
    print(g2)
    g2.sum().backward()
    print(s.grad)
    torch.manual_seed(20)
    r = torch.randn(200) * 4
    print(torch.sinc(r).tolist()[:8], torch.sinc(r).sum())
    """,
)

case(
    "unfold/windows",
    """
    import torch
    x = torch.arange(7.0, requires_grad=True)
    y = x.unfold(0, 3, 2)
    g = y.grad_fn
    print(y, g, g._saved_dimension, g._saved_size, g._saved_step, g._saved_self_sym_sizes)
    print(y.is_contiguous(), y.stride())
    y.sum().backward()
    print(x.grad)
    z = torch.arange(24.0).reshape(2, 3, 4)
    print(z.unfold(-1, 2, 1).shape, z.unfold(1, 2, 2).shape, z.unfold(1, 2, 2).stride())
    print(z.unfold(-1, 3, 1)[1], z.unfold(-1, 2, 1).grad_fn)
    print(torch.arange(6.0).unfold(-1, 2, 2).grad_fn)
    h, = torch.autograd.grad((x.unfold(0, 3, 1) ** 2).sum(), x, create_graph=True)
    print(h)
    h.sum().backward()
    print(x.grad)
    print(torch.tensor(5.0).unfold(0, 1, 1), torch.tensor(5.0).unfold(-1, 1, 3), x.unfold(0, 0, 1))
    w = torch.zeros(6)
    v = w.unfold(0, 2, 2)
    v[1, 0] = 3.0
    print(w, w._version, v._version)
    q = torch.arange(10.0).reshape(2, 5).t().unfold(0, 2, 2)
    print(q, q.stride())
    torch.manual_seed(21)
    r = torch.randn(3, 8, requires_grad=True)
    u = r.unfold(1, 3, 2)
    (u * torch.randn(u.shape)).sum().backward()
    print(r.grad)
    """,
)

errors(
    "unfold/errors",
    "import torch\nx = torch.arange(7.0)",
    [
        "x.unfold(0, 8, 1)",
        "x.unfold(0, 2, 0)",
        "x.unfold(1, 2, 1)",
        "torch.tensor(5.0).unfold(0, 2, 1)",
        "x.unfold(0, -1, 1)",
        "x.unfold(0, 1.5, 1)",
    ],
)

case(
    "masked_scatter/forms",
    """
    import torch
    x = torch.zeros(2, 3, requires_grad=True)
    m = torch.tensor([[True, False, True], [False, True, False]])
    s = torch.arange(1.0, 7.0).reshape(2, 3).requires_grad_()
    y = x.masked_scatter(m, s)
    print(y, y.grad_fn, y.grad_fn._saved_mask, y.grad_fn._saved_source_sym_sizes)
    (y * torch.arange(6.0).reshape(2, 3)).sum().backward()
    print(x.grad, s.grad)
    print(torch.masked_scatter(torch.zeros(3), torch.tensor([True, False, True]),
                               torch.tensor([5.0, 6.0])))
    print(torch.zeros(2, 3).masked_scatter(torch.tensor([True, False, True]), s))
    z = torch.zeros(2, 3)
    r = z.masked_scatter_(m, s.detach())
    print(r is z, z, z._version)
    b = torch.ones(3, requires_grad=True)
    y3 = b.masked_scatter(torch.tensor([[True, False, True], [False, False, True]]), s)
    y3.pow(2).sum().backward()
    print(y3, b.grad, s.grad)
    h = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    src = torch.tensor([4.0, 5.0, 6.0, 7.0], requires_grad=True)
    out = h.masked_scatter(torch.tensor([True, False, True]), src)
    gh = torch.autograd.grad((out ** 2).sum(), (h, src), create_graph=True)
    print(gh, gh[1].grad_fn._saved_mask)
    gh[1].sum().backward()
    print(h.grad, src.grad)
    """,
)

errors(
    "masked_scatter/errors",
    "import torch",
    [
        "torch.zeros(3).masked_scatter(torch.tensor([1, 0, 1]), torch.ones(3))",
        "torch.zeros(3).masked_scatter(torch.tensor([True, True, True]), torch.ones(2))",
        "torch.zeros(3).masked_scatter(torch.tensor([True, False]), torch.ones(3))",
        "torch.zeros(3).masked_scatter(torch.tensor([True, False, True]), "
        "torch.ones(3, dtype=torch.float32))",
    ],
)

case(
    "index_put/forms",
    """
    import torch
    x = torch.zeros(5, requires_grad=True)
    v = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    i = torch.tensor([0, 2, 0])
    y = x.index_put((i,), v, accumulate=True)
    print(y, y.grad_fn, y.grad_fn._saved_accumulate, y.grad_fn._saved_indices)
    (y * torch.arange(5.0)).sum().backward()
    print(x.grad, v.grad)
    x = torch.zeros(5, requires_grad=True)
    y = x.index_put((torch.tensor([0, 2]),), v[:2])
    print(y, y.grad_fn, y.grad_fn.next_functions[1][0].name())
    (y * torch.arange(5.0)).sum().backward()
    print(x.grad, v.grad)
    z = torch.zeros(2, 3)
    r = z.index_put_((torch.tensor([0, 1]), torch.tensor([2, 0])), torch.tensor(7.0))
    print(r is z, z, z._version)
    w = torch.zeros(2, 3).requires_grad_()
    u = w * 1
    _ = u.index_put_((torch.tensor([1]),), torch.tensor([1.0, 2.0, 3.0]))
    print(u.grad_fn, u)
    print(torch.index_put(torch.zeros(2, 3), (torch.tensor([True, False]),), torch.tensor(5.0)))
    print(torch.zeros(3, 2).index_put((torch.tensor([0, 0]), torch.tensor([1, 1])),
                                      torch.tensor([1.0, 2.0]), accumulate=True))
    a = torch.ones(3, 4, requires_grad=True)
    b = torch.tensor([2.0, 3.0], requires_grad=True)
    c = a.index_put((torch.tensor([0, 2]), torch.tensor([1, 3])), b)
    ga = torch.autograd.grad((c ** 2).sum(), (a, b), create_graph=True)
    print(ga)
    """,
)

errors(
    "index_put/errors",
    "import torch",
    [
        "torch.zeros(3).index_put((torch.tensor([5]),), torch.tensor([1.0]))",
        "torch.zeros(3).index_put((torch.tensor([1, 2]),), torch.tensor([1.0, 2.0, 3.0]))",
        "torch.zeros(3).index_put((torch.tensor([1]),), torch.tensor([1]))",
    ],
)

case(
    "put/forms",
    """
    import torch
    x = torch.zeros(2, 3, requires_grad=True)
    s = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    i = torch.tensor([0, 4, -1])
    y = x.put(i, s)
    g = y.grad_fn
    print(y, g, g._saved_accumulate, g._saved_index, g._saved_source)
    (y * torch.arange(6.0).reshape(2, 3)).sum().backward()
    print(x.grad, s.grad)
    print(torch.zeros(2, 3).put(torch.tensor([[0, 0], [1, 1]]),
                                torch.tensor([[1.0, 2.0], [3.0, 4.0]]), accumulate=True))
    z = torch.zeros(2, 3)
    print(z.put_(torch.tensor([1]), torch.tensor([9.0])) is z, z, z._version)
    h = torch.zeros(3, requires_grad=True)
    q = torch.tensor([1.0, 2.0], requires_grad=True)
    gq = torch.autograd.grad((h.put(torch.tensor([0, 2]), q) ** 2).sum(), (h, q), create_graph=True)
    print(gq)
    print(torch.put(torch.ones(2, 2), torch.tensor([3]), torch.tensor([5.0])))
    """,
)

errors(
    "put/errors",
    "import torch",
    [
        "torch.zeros(3).put(torch.tensor([3]), torch.tensor([1.0]))",
        "torch.zeros(3).put(torch.tensor([1, 2]), torch.tensor([1.0]))",
        "torch.zeros(3).put(torch.tensor([1.0]), torch.tensor([1.0]))",
        "torch.zeros(3).put(torch.tensor([1]), torch.tensor([1], dtype=torch.int64))",
    ],
)
