"""Golden cases of the torch functions that PyTorch's own docstring examples use and that
gradcli lacked (torch.positive, msort, atleast_1d/2d/3d, argwhere, isposinf, isneginf,
signbit, broadcast_shapes, broadcast_tensors), the examples' calls and their edges.
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
    "docs/atleast",
    """
    import torch
    x = torch.tensor(0.5, requires_grad=True)
    y = torch.arange(4).view(2, 2)
    print(torch.atleast_1d(x), torch.atleast_2d(x), torch.atleast_3d(x))
    print(torch.atleast_3d(y), torch.atleast_3d(torch.arange(3.)), torch.atleast_2d(torch.arange(3.)))
    print(torch.atleast_2d((x, y)), torch.atleast_1d(), torch.atleast_3d(torch.zeros(1, 2, 3, 4)).shape)
    print(torch.atleast_1d(x, y), torch.atleast_2d([x, y]))
    z = torch.atleast_3d(x * 2)
    print(z.grad_fn.name(), torch.atleast_3d(torch.ones(2, requires_grad=True)).grad_fn.name())
    z.sum().backward()
    print(x.grad)
    """,
)

case(
    "docs/msort_positive_argwhere",
    """
    import torch
    torch.manual_seed(0)
    t = torch.randn(3, 4, requires_grad=True)
    m = torch.msort(t)
    print(m, t.msort(), m.grad_fn.name())
    m[0].sum().backward()
    print(t.grad)
    print(torch.positive(t) is t, t.positive() is t, torch.positive(torch.tensor([1, -2])))
    u = torch.tensor([[1.5, -0.0, 3.0], [0.0, -2.0, 1.0]])
    print(torch.argwhere(u), u.argwhere(), torch.argwhere(torch.tensor(3)), torch.argwhere(torch.tensor([0, 0])))
    print(torch.argwhere(torch.tensor([1, 0, 1])), torch.argwhere(torch.tensor([[1, 0, 1], [0, 1, 1]])))
    """,
)

case(
    "docs/sign_tests",
    """
    import torch
    a = torch.tensor([-float('inf'), float('inf'), 1.2, -0.0, 0.0, float('nan'), -3.0])
    print(torch.isposinf(a), torch.isneginf(a), torch.signbit(a))
    print(a.signbit(), a.isposinf(), a.isneginf(), torch.signbit(a.float()))
    print(torch.signbit(torch.tensor([-1, 0, 2])), torch.isposinf(torch.tensor([1, 2])))
    print(torch.signbit(torch.tensor([True, False])), torch.isneginf(torch.tensor(-float('inf'))))
    print(torch.signbit(torch.tensor([0.7, -1.2, 0., 2.3])), torch.signbit(torch.tensor([-0.0, 0.0])))
    """,
)

case(
    "docs/broadcast",
    """
    import torch
    print(torch.broadcast_shapes((2,), (3, 1), (1, 1, 1)), torch.broadcast_shapes(5, (2, 1)))
    print(torch.broadcast_shapes(), torch.broadcast_shapes([2, 3]), torch.broadcast_shapes((0,), (3, 1)))
    s = torch.broadcast_shapes((4, 1), (3,))
    print(type(s) is torch.Size, s)
    x = torch.arange(3.).view(1, 3).requires_grad_()
    p, q = torch.broadcast_tensors(x, torch.arange(2).view(2, 1))
    print(p, q, p.grad_fn.name(), q.grad_fn)
    (p * torch.tensor([[1.0], [2.0]])).sum().backward()
    print(x.grad)
    print([t.shape for t in torch.broadcast_tensors(torch.zeros(2, 1), torch.zeros(3), torch.zeros(1, 1, 1))])
    print(torch.broadcast_tensors(torch.ones(2)), len(torch.broadcast_tensors()))
    """,
)

errors(
    "docs/errors",
    "import torch",
    [
        "torch.positive(torch.tensor([True]))",
        "torch.msort(3)",
        "torch.argwhere([1])",
        "torch.broadcast_shapes((2,), (3,))",
        "torch.broadcast_shapes((2, 3), (3, 1), (4, 1, 3))",
        "torch.broadcast_shapes([2, 3], [4])",
        "torch.broadcast_shapes((2, -1))",
        "torch.broadcast_tensors(torch.zeros(2), torch.zeros(3))",
        "torch.broadcast_tensors(torch.zeros(2, 3), torch.zeros(4, 1, 3), torch.zeros(5, 1, 1))",
        "torch.broadcast_tensors(torch.zeros(2, 1), 3)",
        "torch.isposinf(1.5)",
        "torch.signbit([1.0])",
    ],
)

case(
    "docs/asinh_acosh",
    """
    import torch
    torch.manual_seed(0)
    for dt in (torch.float64, torch.float32):
        x = (torch.randn(7, dtype=dt) * 3).requires_grad_()
        y = torch.asinh(x)
        print(y, y.grad_fn.name(), x.arcsinh())
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        print(g, g.grad_fn.name())
        g.sum().backward()
        print(x.grad)
        z = (x.detach().abs() + 1).requires_grad_()
        w = z.acosh()
        print(w, w.grad_fn.name(), torch.arccosh(z))
        w.pow(2).sum().backward()
        print(z.grad)
    print(torch.acosh(torch.tensor([0.5, 1.0, float('inf')])), torch.asinh(torch.tensor([-0.0, float('-inf'), float('nan')])))
    print(torch.asinh(torch.arange(3)), torch.acosh(torch.tensor([1, 2])))
    a = torch.randn(4, dtype=torch.float32)
    print(a, torch.acosh(a.abs() + 1), torch.asinh(a))
    v = torch.linspace(-40, 40, 2001, dtype=torch.float32)
    print(torch.asinh(v).tolist() == [float(t) for t in torch.asinh(v)], torch.asinh(v).sum().item(), torch.acosh(v.abs() + 1).sum().item())
    """,
)
errors("docs/asinh_errors", "import torch", ["torch.asinh(1.0)", "torch.arccosh([2.0])"])

case(
    "docs/tensor_split_unflatten",
    """
    import torch
    x = torch.arange(8)
    print(torch.tensor_split(x, 3), torch.tensor_split(torch.arange(7), 3), torch.tensor_split(torch.arange(7), (1, 6)))
    y = torch.arange(14.).reshape(2, 7).requires_grad_()
    print(torch.tensor_split(y, 3, dim=1), y.tensor_split((1, 6), dim=1), torch.tensor_split(y, [1, 9, -2, 3], 1))
    print(torch.tensor_split(y, torch.tensor(2), dim=-1), torch.tensor_split(y, torch.tensor([3]), dim=1), torch.tensor_split(torch.arange(2), 4))
    ps = torch.tensor_split(y * 2, 3, 1)
    print(ps[0].grad_fn.name(), ps[1]._version)
    sum(p.sum() * (i + 1) for i, p in enumerate(ps)).backward()
    print(y.grad)
    t = torch.arange(16.0).reshape(4, 4)
    print(torch.hsplit(t, 2), torch.hsplit(t, [3, 6]), torch.vsplit(t, 2), torch.vsplit(t, [1]), t.hsplit(4))
    print(torch.hsplit(torch.arange(6), 3), torch.dsplit(torch.arange(16.0).reshape(2, 2, 4), [3, 6]), torch.dsplit(torch.arange(8).reshape(1, 2, 4), 2))
    print(torch.unflatten(torch.randn(3, 4, 1), 1, (2, 2)).shape, torch.unflatten(torch.randn(3, 4, 1), 1, (-1, 2)).shape, torch.unflatten(torch.randn(5, 12, 3), -2, (2, 2, 3, 1, 1)).shape)
    z = torch.arange(6.).requires_grad_().unflatten(0, [2, 3])
    print(z, z.grad_fn.name())
    print(torch.tensor([]).element_size(), torch.tensor([], dtype=torch.uint8).element_size(), torch.ones(2, dtype=torch.float64).element_size(), torch.ones(1, dtype=torch.int16).element_size(), torch.ones(1, dtype=torch.bool).element_size())
    w = torch.tensor([[1, 2, 3], [4, 5, 6], [7, 8, 9]])
    print(torch.narrow(w, -1, torch.tensor(-1), 1), w.narrow(0, torch.tensor(1), 2))
    """,
)
errors(
    "docs/split_errors",
    "import torch",
    [
        "torch.tensor_split(torch.tensor(1.), 2)",
        "torch.tensor_split(torch.arange(4), 0)",
        "torch.tensor_split(torch.arange(4), torch.tensor([1.0]))",
        "torch.tensor_split(torch.arange(4), torch.tensor([1], dtype=torch.int32))",
        "torch.tensor_split(torch.arange(4), torch.ones(1, 1, dtype=torch.long))",
        "torch.tensor_split(torch.arange(4), 2, dim=1)",
        "torch.hsplit(torch.tensor(1.), 2)",
        "torch.hsplit(torch.ones(4, 4), 3)",
        "torch.vsplit(torch.ones(4), 2)",
        "torch.dsplit(torch.ones(4, 4), [1])",
        "torch.vsplit(torch.ones(4, 2), 0)",
        "torch.unflatten(torch.ones(4), 0, ())",
        "torch.unflatten(torch.ones(2, 4), 1, (2, 3))",
        "torch.unflatten(torch.ones(4), 1, (2, 2))",
        "torch.unflatten(torch.ones(2, 6), -1, (-1, 4))",
        "torch.unflatten(torch.ones(2, 6), -1, (0, 4))",
        "torch.ones(3).narrow(0, torch.tensor(1.0), 1)",
        "torch.ones(3).narrow(0, torch.tensor([1]), 1)",
    ],
)

case(
    "docs/gcd_lcm_isin",
    """
    import torch
    a = torch.tensor([5, 10, 15, -12, 0, 0])
    b = torch.tensor([3, 4, 5, 8, 7, 0])
    print(torch.gcd(a, b), torch.lcm(a, b), a.gcd(b), a.lcm(torch.tensor([3])), torch.gcd(a, torch.tensor(6)))
    print(torch.gcd(torch.tensor([6], dtype=torch.int32), torch.tensor([4], dtype=torch.int32)), torch.lcm(torch.tensor([6, 4], dtype=torch.uint8), torch.tensor([4], dtype=torch.uint8)))
    print(torch.gcd(torch.tensor([6], dtype=torch.int32), torch.tensor([4])).dtype)
    print(torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3])), torch.isin(torch.tensor([[1, 2], [3, 4]]), torch.tensor([2, 3]), invert=True))
    print(torch.isin(torch.tensor([1.5, 2.0, float('nan')]), torch.tensor([2, 3])), torch.isin(torch.tensor([1, 2]), 2), torch.isin(3, torch.tensor([1, 3])))
    print(torch.isin(torch.tensor([1, 2, 3]), torch.tensor([3, 1]), assume_unique=True), torch.isin(torch.tensor(2), torch.tensor([2])))
    """,
)
errors(
    "docs/gcd_errors",
    "import torch",
    [
        "torch.gcd(torch.tensor([1.0]), torch.tensor([2]))",
        "torch.lcm(torch.tensor([True]), torch.tensor([True]))",
        "torch.gcd(torch.tensor([1]), 2)",
        "torch.gcd(torch.ones(2, dtype=torch.long), torch.ones(3, dtype=torch.long))",
    ],
)

case(
    "docs/dtype_rules",
    """
    import torch
    print(torch.promote_types(torch.int32, torch.float32), torch.promote_types(torch.uint8, torch.long), torch.promote_types(torch.uint8, torch.int8))
    print(torch.promote_types(torch.bool, torch.int16), torch.promote_types(torch.float16, torch.int64), torch.promote_types(torch.float32, torch.float64), torch.promote_types(torch.bool, torch.bool))
    print(torch.can_cast(torch.double, torch.float), torch.can_cast(torch.float, torch.int), torch.can_cast(torch.int, torch.bool), torch.can_cast(torch.bool, torch.int8))
    print(torch.can_cast(torch.bool, torch.bool), torch.can_cast(torch.float, torch.bool), torch.can_cast(torch.long, torch.float16), torch.can_cast(torch.uint8, torch.int8))
    print(torch.result_type(torch.tensor([1, 2], dtype=torch.int), 1.0), torch.result_type(torch.tensor([1, 2], dtype=torch.uint8), torch.tensor(1)))
    print(torch.result_type(torch.tensor([1.0], dtype=torch.float32), torch.tensor(1.0)), torch.result_type(3, torch.tensor([True])), torch.result_type(torch.tensor(2), 2.5))
    print(torch.result_type(torch.tensor([True]), False), torch.result_type(torch.tensor([1], dtype=torch.int8), torch.tensor([1], dtype=torch.int16)))
    """,
)
errors(
    "docs/dtype_rule_errors",
    "import torch",
    ["torch.promote_types(1, torch.float)", "torch.can_cast(torch.float, 'int')"],
)
