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
