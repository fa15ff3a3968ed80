"""Golden cases of code people bring that gradcli printed differently from PyTorch: an
op's alias called as a value, a tensor method's argument errors, NumPy's scalar types,
torch.default_generator.
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


_X = "import torch\nx = torch.tensor([1.0, 2.0, 3.0])"

errors(
    "fidelity/alias_values",
    _X,
    [
        "getattr(torch, 'greater')(x)",
        "f = torch.greater\nf(x)",
        "getattr(torch, 'gt')(x)",
        "f = torch.not_equal\nf(x)",
        "getattr(torch, 'multiply')(x)",
        "f = torch.less_equal\nprint(f(x, 2.0), torch.greater is torch.gt)\nf(x)",
    ],
)

errors(
    "fidelity/method_operands",
    _X,
    [
        "x.xlogy('a')",
        "x.xlogy_('a')",
        "x.fmod('a')",
        "x.fmod_('a')",
        "x.copysign('a')",
        "x.xlogy(None)",
        "torch.xlogy(x, 'a')",
        "torch.fmod(x, 'a')",
    ],
)

errors(
    "fidelity/dist_operands",
    _X,
    [
        "torch.dist(x, 'a')",
        "x.dist('a')",
        "torch.dist(x, 2.0)",
        "torch.dist(2.0, x)",
        "torch.dist(x, [1.0, 2.0, 3.0])",
        "x.dist(None)",
        "print(torch.dist(x, x * 2, 3), x.dist(x + 1))\ntorch.dist('a', x)",
    ],
)

case(
    "fidelity/numpy_scalar_types",
    """
    import torch
    import numpy as np
    print(np.bool_, np.float16, np.bool_ is np.bool)
    a = np.array([1.5, 2.25, -3.0], dtype=np.float16)
    print(a, a.dtype, type(a[0]), a.dtype == np.float16, a.dtype != np.float16)
    print(torch.tensor(np.float16(1.5)), torch.from_numpy(a), torch.tensor(a))
    b = np.array([1, 0, 2]).astype(np.bool_)
    print(b, b.dtype, torch.tensor(b), torch.tensor(np.bool_(True)), np.bool_(0))
    print(np.zeros(3, dtype=np.bool_), np.ones(2, dtype=np.float16) * 3)
    t = torch.tensor([0.1, 0.2], dtype=torch.float16)
    print(t.numpy(), t.numpy().dtype, t.numpy().dtype == np.float16)
    c = np.zeros(2, dtype=np.float32)
    print(c.dtype == np.float32, c.dtype == np.float64, np.float32 == c.dtype)
    print(np.float32 == np.float32, np.float32 == np.float64, {np.float32: 1}[np.float32])
    """,
)

case(
    "fidelity/default_generator",
    """
    import torch
    g = torch.default_generator
    print(type(g), isinstance(g, torch.Generator), g.device)
    _ = g.manual_seed(3)
    print(torch.initial_seed(), g.initial_seed(), torch.rand(2))
    _ = torch.manual_seed(7)
    print(g.initial_seed(), torch.randn(2, generator=torch.default_generator))
    s = torch.default_generator.get_state()
    a = torch.rand(3)
    _ = torch.default_generator.set_state(s)
    print(torch.equal(a, torch.rand(3)), s.shape, s.dtype)
    print(torch.default_generator.manual_seed(11).initial_seed(), torch.randint(0, 9, (4,)))
    print(torch.randn(2, 2, dtype=torch.float32, generator=torch.default_generator))
    """,
)

case(
    "fidelity/compare_in_place",
    """
    import torch
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    z = x * 1
    print(z.gt_(2.0), z.grad_fn.name(), z._version)
    z2 = x * 1
    print(z2.lt_(torch.tensor([2.0, 2.0, 2.0])), z2.grad_fn.name())
    z.sum().backward()
    print(x.grad)
    z3 = x * 1
    print(z3.eq_(torch.tensor(2.0)), z3.grad_fn.name())
    (z2 + z3).sum().backward()
    print(x.grad)
    i = torch.tensor([1, 5, 3])
    print(i.ge_(3), i.dtype)
    print(i.le_(0.5))
    print(i.ne_(1))
    b = torch.tensor([True, False])
    print(b.greater_equal_(torch.tensor([False, False])))
    print(b.not_equal_(True))
    print(b.less_(1))
    f = torch.tensor([1.0, 2.0], dtype=torch.float32)
    print(f.greater_(torch.tensor([0.5, 3.0])), f.dtype)
    print(f.less_equal_(1), f.dtype)
    i = torch.tensor([1, 5, 3])
    print(i.gt_(torch.tensor([1.5, 1.5, 1.5])))
    y = torch.tensor([1.0, 4.0])
    w = torch.tensor([2.0, 2.0], requires_grad=True)
    r = y.lt_(w)
    print(r, r.grad_fn.name(), r.requires_grad)
    r.sum().backward()
    print(w.grad)
    v = torch.tensor([0.5, 1.5, 2.5])
    for m in ["gt_", "ge_", "lt_", "le_", "eq_", "ne_", "greater_", "greater_equal_", "less_",
              "less_equal_", "not_equal_"]:
        u = v.clone()
        print(m, getattr(u, m)(1.5), u._version)
    a = torch.tensor([0.5, 1.5, 2.5], requires_grad=True)
    s = a.sin()
    t = s.ge_(0.9)
    g, = torch.autograd.grad((t * a).sum(), a, create_graph=True)
    print(g, g.requires_grad)
    """,
)

errors(
    "fidelity/compare_in_place/errors",
    "import torch\nx = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\ni = torch.tensor([1, 5, 3])",
    [
        "i.gt_(torch.tensor([1.0, 2.0]))",
        "x.gt_(1)",
        "torch.tensor([1.0, 2.0]).expand(2, 2).gt_(1)",
        "i.gt_('a')",
        "x.detach().gt_()",
        "x.detach().eq_(torch.zeros(2, 3))",
        "x.detach().greater_('a')",
        "i.lt_(None)",
        "x.detach().add_('a')",
        "x.detach().pow_('a')",
    ],
)

_BMM = """
import torch
_ = torch.manual_seed(0)
for dt in (torch.float64, torch.float32):
    c = torch.randn(3, 4, dtype=dt, requires_grad=True)
    a = torch.randn(2, 3, 5, dtype=dt, requires_grad=True)
    b = torch.randn(2, 5, 4, dtype=dt, requires_grad=True)
    y = torch.baddbmm(c, a, b, beta=0.5, alpha=2)
    print(y, y.grad_fn.name(), y.grad_fn._saved_alpha, y.grad_fn._saved_beta)
    y2 = torch.addbmm(c, a, b)
    print(y2, y2.grad_fn.name(), y2.grad_fn._saved_alpha, y2.grad_fn._saved_batch1_sym_argsize_0)
    g = torch.autograd.grad((y * y).sum(), (c, a, b), create_graph=True)
    print(g, [t.grad_fn.name() if t.grad_fn else None for t in g])
    g = torch.autograd.grad((y2.sin()).sum(), (c, a, b), create_graph=True)
    print(g, [t.grad_fn.name() if t.grad_fn else None for t in g])
    print(torch.autograd.grad(g[1].sum(), a)[0])
    A = torch.randn(4, 12, 10, dtype=dt)
    B = torch.randn(4, 10, 9, dtype=dt)
    C = torch.randn(12, 9, dtype=dt)
    print(torch.baddbmm(C, A, B, beta=-1, alpha=0.25), torch.zeros(4, 12, 9, dtype=dt).baddbmm(A, B))
    print(torch.addbmm(C, A, B, alpha=3), C.addbmm(A, B, beta=0))
    A2 = torch.randn(4, 10, 12, dtype=dt).transpose(1, 2)
    B2 = torch.randn(4, 9, 10, dtype=dt).transpose(1, 2)
    print(torch.baddbmm(C[:1], A2, B2), torch.addbmm(C, A2, B2, beta=0.5))
    x = torch.zeros(4, 12, 9, dtype=dt)
    print(x.baddbmm_(A, B), x._version)
    z = C.clone()
    print(z.addbmm_(A, B, beta=2))
    print(torch.baddbmm(torch.zeros(2, 3, 0, dtype=dt), torch.ones(2, 3, 2, dtype=dt), torch.ones(2, 2, 0, dtype=dt)).shape)
    print(torch.baddbmm(torch.ones(2, 3, 4, dtype=dt), torch.ones(2, 3, 0, dtype=dt), torch.ones(2, 0, 4, dtype=dt), beta=2))
    print(torch.addbmm(torch.ones(3, 4, dtype=dt), torch.ones(0, 3, 2, dtype=dt), torch.ones(0, 2, 4, dtype=dt), beta=3))
    w = torch.randn(1, 4, 6, dtype=dt, requires_grad=True)
    u = torch.baddbmm(torch.zeros(1, 1, 6, dtype=dt), torch.randn(1, 1, 4, dtype=dt), w)
    u.pow(2).sum().backward()
    print(u, w.grad)
"""
case("fidelity/baddbmm", _BMM)

errors(
    "fidelity/baddbmm/errors",
    "import torch\nc = torch.randn(3, 4)\na = torch.randn(2, 3, 5)\nb = torch.randn(2, 5, 4)",
    [
        "torch.baddbmm(c, a, a)",
        "torch.baddbmm(c, a[0], b)",
        "torch.baddbmm(torch.zeros(5, 5), a, b)",
        "torch.baddbmm(c, a, b.float())",
        "torch.addbmm(c, a, a)",
        "torch.addbmm(torch.zeros(4, 4), a, b)",
        "torch.baddbmm(c, a, 'b')",
        "a.baddbmm(1, b)",
        "torch.addbmm(c, a[0], b)",
        "torch.baddbmm(c, a, b[:1])",
        "torch.addbmm(c, a, b[:1])",
        "torch.baddbmm(c, a, b, beta='x')",
        "torch.baddbmm(c)",
        "a.addbmm_(a, b)",
        "torch.addbmm(c, a, b[:, :4])",
    ],
)

case(
    "fidelity/detect_anomaly",
    """
    import torch
    x = torch.tensor([0.0, 1.0], requires_grad=True)
    print(torch.is_anomaly_enabled())
    with torch.autograd.detect_anomaly():
        print(torch.is_anomaly_enabled())
        y = (x * 2).sqrt()
        y.sum().backward()
        print(x.grad)
    print(torch.is_anomaly_enabled())
    r = torch.autograd.set_detect_anomaly(True)
    print(torch.is_anomaly_enabled(), torch.is_anomaly_check_nan_enabled())
    _ = torch.autograd.set_detect_anomaly(False)
    with torch.autograd.set_detect_anomaly(True):
        print(torch.is_anomaly_enabled())
        g, = torch.autograd.grad((x * x).sum(), x, create_graph=True)
        print(g)
    print(torch.is_anomaly_enabled())
    with torch.autograd.detect_anomaly(check_nan=False):
        print(torch.is_anomaly_check_nan_enabled())
        z = (x * 0) / x
        z.sum().backward()
        print(x.grad)
    x.grad = None
    with torch.autograd.detect_anomaly():
        z = (x * 0) / x
        z.sum().backward()
    """,
)

case(
    "fidelity/detect_anomaly/grad",
    """
    import torch
    x = torch.tensor([0.0, 4.0], requires_grad=True)
    with torch.autograd.detect_anomaly():
        y = x.sqrt() * x.log()
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        print(g)
    """,
)

_LINALG = """
import torch
_ = torch.manual_seed(0)
for dt in (torch.float64, torch.float32):
    A = torch.randn(4, 4, dtype=dt)
    S = (A @ A.T + 4 * torch.eye(4, dtype=dt)).requires_grad_()
    L = torch.linalg.cholesky(S)
    print(L, L.grad_fn.name(), L.grad_fn._saved_upper)
    U = torch.linalg.cholesky(S, upper=True)
    print(U)
    (L.sin().sum() + U.pow(2).sum()).backward()
    print(S.grad)
    S.grad = None
    e = torch.linalg.eigvalsh(S)
    print(e, e.grad_fn.name())
    (e * torch.arange(4, dtype=dt)).sum().backward()
    print(S.grad)
    print(torch.linalg.eigvalsh(S.detach(), UPLO='U'), torch.linalg.eigvalsh(S.detach()))
    B = torch.randn(2, 3, 5, 5, dtype=dt)
    SB = (B @ B.transpose(-1, -2) + 5 * torch.eye(5, dtype=dt)).requires_grad_()
    LB = torch.linalg.cholesky(SB)
    eB = torch.linalg.eigvalsh(SB)
    (LB.sum() + eB.pow(2).sum()).backward()
    print(LB[1, 2], eB, SB.grad[0, 1])
    M = torch.randn(40, 40, dtype=dt)
    P = (M @ M.T + torch.eye(40, dtype=dt)).requires_grad_()
    (torch.linalg.cholesky(P).tril().sum() + torch.linalg.eigvalsh(P).sum()).backward()
    print(P.grad.sum(), P.grad[3, :4], P.grad[39, 30:])
"""
case("fidelity/linalg_cholesky_eigvalsh", _LINALG)

errors(
    "fidelity/linalg_cholesky_eigvalsh/errors",
    "import torch\nS = (torch.eye(3) * 2).requires_grad_()\nM = torch.ones(5, 3)",
    [
        "torch.linalg.cholesky(-S)",
        "torch.linalg.cholesky(M)",
        "torch.linalg.eigvalsh(M)",
        "torch.linalg.cholesky(torch.zeros(3, 3))",
        "torch.linalg.cholesky(torch.ones(2, 3, 3))",
        "torch.linalg.eigvalsh(S, UPLO='X')",
        "torch.linalg.cholesky(torch.ones(3))",
        "torch.linalg.cholesky([[1.0]])",
    ],
)
