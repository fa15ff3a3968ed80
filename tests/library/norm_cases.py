"""Golden cases of the normalisation layers (F.layer_norm, torch.layer_norm,
nn.LayerNorm): values, grad_fn names and saved values, gradients, the modules'
parameters, printing and state_dict, a transformer block's use, and the errors, recorded
from real PyTorch by scripts/gen_golden.py norms into tests/golden/norms.json and
replayed by tests/library/test_norms.py.  The rules of tests/library/nn_cases.py apply
(float64 default; a case that sets float32 sets float64 back at its end)."""

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
    "layer_norm/functional",
    """
    import torch
    import torch.nn.functional as F
    _ = torch.manual_seed(0)
    x = torch.randn(2, 3, 5, requires_grad=True)
    w = torch.randn(5, requires_grad=True)
    b = torch.randn(5, requires_grad=True)
    y = F.layer_norm(x, (5,), w, b)
    print(y)
    fn = y.grad_fn
    print(fn.name(), fn._saved_normalized_shape, fn._saved_result1.shape)
    print(fn._saved_result1, fn._saved_result2)
    print(fn._saved_input is x, fn._saved_weight is w, fn._saved_bias is b)
    (y * torch.arange(30.0).reshape(2, 3, 5).cos()).sum().backward()
    print(x.grad, w.grad, b.grad)
    z = torch.layer_norm(x, [3, 5], None, None, 1e-3)
    print(z, z.grad_fn._saved_weight, z.grad_fn._saved_bias, z.grad_fn._saved_normalized_shape)
    print(F.layer_norm(torch.tensor([1.0, 2.0, 4.0]), [3]))
    print(F.layer_norm(x.detach(), (5,), eps=0.5).requires_grad)
    """,
)

case(
    "layer_norm/float32",
    """
    import torch
    import torch.nn.functional as F
    torch.set_default_dtype(torch.float32)
    _ = torch.manual_seed(1)
    x = (torch.randn(4, 37) * 3 + 10).requires_grad_()
    w = torch.rand(37).requires_grad_()
    y = F.layer_norm(x, (37,), w)
    print(y.dtype, y[:, :6].tolist())
    (y ** 3).sum().backward()
    print(x.grad[:, -5:].tolist(), w.grad.tolist()[:8])
    torch.set_default_dtype(torch.float64)
    """,
)

case(
    "layer_norm/create_graph",
    """
    import torch
    import torch.nn.functional as F
    _ = torch.manual_seed(2)
    x = torch.randn(3, 4, requires_grad=True)
    w = torch.randn(4, requires_grad=True)
    y = F.layer_norm(x, (4,), w)
    gx, gw = torch.autograd.grad((y ** 3).sum(), (x, w), create_graph=True)
    print(gx, gw)
    print(gx.grad_fn.name(), gw.grad_fn.name())
    (gx.pow(2).sum() + gw.sum()).backward()
    print(x.grad, w.grad)
    """,
)

case(
    "layer_norm/module",
    """
    import torch
    from torch import nn
    _ = torch.manual_seed(3)
    m = nn.LayerNorm(8)
    print(m)
    print(m.weight, m.bias, list(m.state_dict().keys()))
    print(m.normalized_shape, m.eps, m.elementwise_affine)
    print(nn.LayerNorm((4, 5), bias=False), nn.LayerNorm([3], eps=1e-3, elementwise_affine=False))
    n = nn.LayerNorm([3], elementwise_affine=False)
    print(n.weight, n.bias, list(n.parameters()), n.state_dict())
    print(nn.LayerNorm(6, bias=False).bias, list(nn.LayerNorm(6, bias=False).state_dict()))
    x = torch.randn(2, 5, 8, requires_grad=True)
    y = m(x)
    print(y[0, :2], y.grad_fn.name())
    (y ** 2 * torch.arange(8.0)).sum().backward()
    print(x.grad[1, 3], m.weight.grad, m.bias.grad)
    m2 = nn.LayerNorm((5, 8), elementwise_affine=False)
    print(m2(x)[1, 0])
    print(sum(p.numel() for p in m.parameters()))
    """,
)

case(
    "layer_norm/transformer_block",
    """
    import torch
    from torch import nn
    import torch.nn.functional as F
    torch.set_default_dtype(torch.float32)
    _ = torch.manual_seed(4)

    class Block(nn.Module):
        def __init__(self, d):
            super().__init__()
            self.ln_1 = nn.LayerNorm(d)
            self.fc = nn.Linear(d, 4 * d)
            self.proj = nn.Linear(4 * d, d)
            self.ln_2 = nn.LayerNorm(d, bias=False)

        def forward(self, x):
            x = x + self.proj(F.relu(self.fc(self.ln_1(x))))
            return self.ln_2(x)

    block = Block(16)
    print(block)
    opt = torch.optim.AdamW(block.parameters(), lr=1e-2)
    x = torch.randn(2, 7, 16)
    t = torch.randn(2, 7, 16)
    for step in range(5):
        loss = F.mse_loss(block(x), t)
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
    print(block.ln_1.weight.tolist()[:4], block.ln_2.weight.tolist()[:4])
    torch.set_default_dtype(torch.float64)
    """,
)

errors(
    "layer_norm/errors",
    "import torch\nfrom torch import nn\nimport torch.nn.functional as F\nx = torch.ones(2, 4)",
    [
        "F.layer_norm(x, (3,))",
        "F.layer_norm(x, (4,), torch.ones(3))",
        "F.layer_norm(x, (4,), None, torch.ones(3))",
        "F.layer_norm(x, ())",
        "F.layer_norm(x, 4)",
        "F.layer_norm(torch.ones(2, 4, dtype=torch.int64), (4,))",
        "F.layer_norm(x, (1, 2, 4))",
        "F.layer_norm(x.float(), (4,), torch.ones(4))",
        "nn.LayerNorm(3)(x)",
    ],
)

case(
    "rms_norm/functional",
    """
    import torch
    import torch.nn.functional as F
    _ = torch.manual_seed(5)
    for dt in (torch.float32, torch.float64):
        x = (torch.randn(3, 37, dtype=dt) * 3 + 1).requires_grad_()
        w = torch.randn(37, dtype=dt).requires_grad_()
        y = F.rms_norm(x, (37,), w)
        print(y[:, :5].tolist(), y.grad_fn.name())
        (y ** 3).sum().backward()
        print(x.grad[:, :4].tolist(), w.grad[:4].tolist())
        z = F.rms_norm(x, [3, 37], eps=0.1)
        f = z.grad_fn
        print(f.name(), f.next_functions[1][0].name(), f.next_functions[1][0].next_functions[0][0].name())
        print(f.next_functions[1][0].next_functions[0][0].next_functions[0][0]._saved_dim)
        print(z[0, :3].tolist())
    print(torch.rms_norm(torch.tensor([[1.0, 2.0, 3.0]]), [3]))
    """,
)

case(
    "rms_norm/module",
    """
    import torch
    from torch import nn
    _ = torch.manual_seed(6)
    m = nn.RMSNorm(8)
    print(m, nn.RMSNorm(8, eps=1e-6), nn.RMSNorm((2, 3), elementwise_affine=False))
    print(m.weight, list(m.state_dict().keys()), m.eps, m.normalized_shape)
    print(nn.RMSNorm([4], elementwise_affine=False).weight)
    x = torch.randn(2, 3, 8, requires_grad=True)
    y = m(x)
    print(y[1], y.grad_fn.name())
    (y * torch.arange(8.0)).sum().backward()
    print(x.grad[0, 1], m.weight.grad)
    """,
)

errors(
    "rms_norm/errors",
    "import torch\nimport torch.nn.functional as F\nx = torch.ones(2, 4)",
    [
        "F.rms_norm(x, (3,))",
        "F.rms_norm(x, (4,), torch.ones(3))",
        "F.rms_norm(x, ())",
        "F.rms_norm(x, 4)",
        "F.rms_norm(torch.ones(2, 4, dtype=torch.int64), (4,))",
    ],
)

case(
    "group_norm/functional",
    """
    import torch
    import torch.nn.functional as F
    _ = torch.manual_seed(7)
    x = torch.randn(2, 6, 5, requires_grad=True)
    w = torch.randn(6, requires_grad=True)
    b = torch.randn(6, requires_grad=True)
    y = F.group_norm(x, 3, w, b)
    print(y[0, :2], y.grad_fn.name())
    f = y.grad_fn
    print(f._saved_N, f._saved_C, f._saved_HxW, f._saved_group, f._saved_eps)
    print(f._saved_result1.shape, f._saved_weight is w, f._saved_input is x)
    (y * y.detach().cos()).sum().backward()
    print(x.grad[1], w.grad, b.grad)
    z = torch.group_norm(x, 2)
    print(z[1, 3], z.grad_fn._saved_weight, z.grad_fn._saved_HxW)
    print(F.group_norm(torch.randn(4, 6, 2, 3), 6, eps=0.1)[2, 1])
    """,
)

case(
    "group_norm/float32",
    """
    import torch
    from torch import nn
    torch.set_default_dtype(torch.float32)
    _ = torch.manual_seed(8)
    m = nn.GroupNorm(4, 16)
    x = (torch.randn(3, 16, 6, 5) * 2 + 3).requires_grad_()
    y = m(x)
    print(y.dtype, y[1, 5, 2].tolist())
    (y ** 3).sum().backward()
    print(x.grad[2, 7, :, 1].tolist(), m.weight.grad.tolist()[:6], m.bias.grad.tolist()[:6])
    torch.set_default_dtype(torch.float64)
    """,
)

case(
    "group_norm/module",
    """
    import torch
    from torch import nn
    _ = torch.manual_seed(9)
    m = nn.GroupNorm(2, 4)
    print(m, nn.GroupNorm(3, 6, eps=1e-3, affine=False), nn.GroupNorm(1, 3, bias=False))
    print(m.weight, m.bias, list(m.state_dict()), m.num_groups, m.num_channels, m.eps)
    print(nn.GroupNorm(3, 6, affine=False).weight, list(nn.GroupNorm(1, 3, bias=False).parameters()))
    x = torch.randn(3, 4, 2, 2, requires_grad=True)
    y = m(x)
    print(y[0, 0], y.grad_fn.name())
    (y * torch.arange(4.0).reshape(4, 1, 1)).sum().backward()
    print(x.grad[2], m.weight.grad, m.bias.grad)
    """,
)

errors(
    "group_norm/errors",
    "import torch\nfrom torch import nn\nimport torch.nn.functional as F\nx = torch.ones(2, 4, 3)",
    [
        "F.group_norm(x, 3)",
        "F.group_norm(x, 2, torch.ones(3))",
        "F.group_norm(torch.ones(4), 2)",
        "F.group_norm(x.long(), 2)",
        "nn.GroupNorm(3, 4)",
        "F.group_norm(x.float(), 2, torch.ones(4))",
        "F.group_norm(x.requires_grad_(), 2, None, torch.ones(4)).sum().backward()",
        "F.group_norm(x, 2, None, torch.ones(4, requires_grad=True)).sum().backward()",
        "F.group_norm(torch.ones(1, 4, 1), 4)",
    ],
)

case(
    "norms/forward_mode",
    """
    import torch
    import torch.nn.functional as F
    import torch.autograd.forward_ad as fwAD
    _ = torch.manual_seed(10)
    x = torch.randn(2, 4, 3)
    t = torch.randn(2, 4, 3)
    w = torch.randn(3)
    tw = torch.randn(3)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, t)
        dw = fwAD.make_dual(w, tw)
        print(fwAD.unpack_dual(F.layer_norm(d, (3,), dw)).tangent)
        print(fwAD.unpack_dual(F.layer_norm(d, (4, 3), eps=0.1)).tangent)
        print(fwAD.unpack_dual(F.rms_norm(d, (3,), dw)).tangent)
        print(fwAD.unpack_dual(F.group_norm(d, 2)).tangent)
    """,
)
