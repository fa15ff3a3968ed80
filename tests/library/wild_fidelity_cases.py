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
