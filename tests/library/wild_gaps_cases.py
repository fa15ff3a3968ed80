"""Golden cases of torch API that published code uses and that gradcli lacked: the
activations' inplace=True (F.relu(x, inplace=True) ... and nn's inplace modules, with
PyTorch's in-place nodes and version-counter errors).
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


_ACTS = (
    ("relu", ""),
    ("leaky_relu", ", 0.2"),
    ("elu", ", alpha=0.7"),
    ("hardtanh", ", -0.5, 0.75"),
    ("relu6", ""),
    ("selu", ""),
    ("celu", ", 0.5"),
    ("threshold", ", 0.1, -2.0"),
    ("silu", ""),
    ("mish", ""),
    ("hardsigmoid", ""),
    ("hardswish", ""),
    ("rrelu", ", training=False"),
)

for _dt in ("float64", "float32"):
    for _name, _args in _ACTS:
        case(
            f"inplace_activations/{_name}/{_dt}",
            f"""
            import torch
            import torch.nn.functional as F
            torch.manual_seed(4)
            x = (torch.randn(2, 9, dtype=torch.{_dt}) * 3).requires_grad_()
            y = x * 1.5
            z = F.{_name}(y{_args}, inplace=True)
            print(z is y, z.grad_fn, y._version)
            print(z)
            z.pow(2).sum().backward()
            print(x.grad)
            w = (x * 2).sin()
            u = F.{_name}(w{_args}, inplace=True)
            g, = torch.autograd.grad(u.sum(), x, create_graph=True)
            print(g)
            print(g.grad_fn)
            """,
        )

case(
    "inplace_activations/threshold_value_above",
    """
    import torch
    import torch.nn.functional as F
    x = torch.tensor([-1.5, 0.25, 2.0], requires_grad=True)
    y = x * 1
    z = F.threshold(y, 0.5, 2.0, True)
    print(z, z.grad_fn)
    z.sum().backward()
    print(x.grad)
    """,
)

case(
    "inplace_activations/modules",
    """
    import torch
    from torch import nn
    torch.manual_seed(0)
    m = nn.Sequential(
        nn.Linear(3, 4), nn.SELU(inplace=True), nn.Linear(4, 4), nn.CELU(0.5, inplace=True),
        nn.Linear(4, 4), nn.ELU(inplace=True), nn.Linear(4, 4), nn.Hardtanh(-0.5, 0.5, inplace=True),
        nn.Linear(4, 4), nn.ReLU6(inplace=True), nn.Linear(4, 4), nn.SiLU(inplace=True),
        nn.Linear(4, 4), nn.Threshold(0.1, 0.0, inplace=True), nn.Linear(4, 4),
        nn.RReLU(inplace=True), nn.Linear(4, 2), nn.LeakyReLU(0.1, inplace=True),
    )
    print(m)
    m.eval()
    out = m(torch.tensor([[0.5, -1.0, 2.0], [1.0, 0.0, -3.0]]))
    print(out, out.grad_fn)
    out.sum().backward()
    print(m[0].weight.grad, m[2].weight.grad, m[16].weight.grad)
    """,
)

case(
    "inplace_activations/negative_slope",
    """
    import torch
    import torch.nn.functional as F
    x = torch.tensor([-1.5, 0.25, 2.0], requires_grad=True)
    y = x * 1
    z = F.leaky_relu(y, -0.5, inplace=True)
    print(z, z.grad_fn)
    z.sum().backward()
    """,
)

errors(
    "inplace_activations/errors",
    "import torch\nimport torch.nn.functional as F\n"
    "x = torch.tensor([-1.5, 0.25, 2.0], requires_grad=True)",
    [
        "F.relu(x, inplace=True)",
        "F.elu(x, inplace=True)",
        "s = x.sigmoid()\nF.relu(s, inplace=True)\ns.sum().backward()",
        "s = x.exp()\nF.silu(s, inplace=True)\ns.sum().backward()",
        "s = x.tanh()\nF.leaky_relu(s, 0.1, True)\ns.sum().backward()",
        "torch.relu(x, inplace=True)",
    ],
)

# ------------------------------------------- torch.cdist with other p (pdist_calc)
for _dt in ("float64", "float32"):
    case(
        f"cdist/general_p/{_dt}",
        f"""
        import torch
        torch.manual_seed(7)
        for p in (0.5, 1.5, 2.5, 3.0, 4.0):
            a = torch.randn(4, 6, dtype=torch.{_dt}, requires_grad=True)
            b = torch.randn(3, 6, dtype=torch.{_dt}, requires_grad=True)
            d = torch.cdist(a, b, p=p)
            print(p, d, d.grad_fn)
            d.pow(2).sum().backward()
            print(a.grad, b.grad)
        x = torch.randn(2, 3, 9, dtype=torch.{_dt}, requires_grad=True)
        y = torch.randn(1, 5, 9, dtype=torch.{_dt}, requires_grad=True)
        d = torch.cdist(x, y, p=3.5)
        print(d)
        d.sum().backward()
        print(x.grad, y.grad)
        z = torch.tensor([[1.0, 2.0], [1.0, 2.0]], dtype=torch.{_dt}, requires_grad=True)
        d = torch.cdist(z, z, p=1.5)
        print(d)
        d.sum().backward()
        print(z.grad)
        """,
    )

# ------------------------------------------- Python beside torch (compared with CPython)
case(
    "python_gaps/classes_and_floats",
    """
    import torch
    class D:
        pass
    class E(D):
        pass
    class G(E, D):
        pass
    class M(torch.nn.Module):
        pass
    print([c.__name__ for c in G.__mro__], [c.__name__ for c in G.__bases__])
    print(D.__mro__[1:], D.__bases__, object, G.__mro__[2] is D, len(E.__mro__))
    print(M.__mro__[1:], M.__bases__)
    print(float.fromhex("0x1.8p1"), (2.5).fromhex("0x1p-2"), (1.0).fromhex("-0x1.ffp3"))
    print(torch.tensor([2.0, 3.0]).pow(exponent=2), torch.pow(torch.tensor([2.0]), exponent=3))
    print(max(3, 4), max([1, 5]), min(2.5, 1))
    """,
)
case(
    "python_gaps/module_exceptions",
    """
    import json
    import statistics
    print(json.JSONDecodeError, statistics.StatisticsError)
    try:
        json.loads("{bad")
    except json.JSONDecodeError as e:
        print("caught", type(e).__name__, isinstance(e, ValueError))
    try:
        statistics.mean([])
    except statistics.StatisticsError as e:
        print("caught", e)
    """,
)
errors(
    "python_gaps/errors",
    "import torch\nxs = [1]",
    [
        "max(0)",
        "min(2.5)",
        "xs.append()",
        "xs.append(1, 2)",
        "xs.extend()",
        "xs.count()",
        "xs.remove()",
        "xs.index()",
        "JSONDecodeError",
        "StatisticsError",
        "(2.5).fromhex('zz')",
    ],
)

# torch.round(input, *, decimals) (RoundBackward1) and torch.NAME(input=...)
case(
    "round_decimals/values",
    """
    import torch
    torch.manual_seed(3)
    for dt in (torch.float64, torch.float32, torch.float16):
        x = (torch.randn(12, dtype=torch.float64) * torch.exp(torch.randn(12, dtype=torch.float64) * 4)).to(dt)
        for d in (-3, -1, 0, 1, 2, 5, 9, 40, 400):
            print(dt, d, torch.round(x, decimals=d).tolist())
    print(torch.round(torch.tensor([2.675, -0.125, 0.5, 1.5], dtype=torch.float64), decimals=2).tolist())
    print(torch.round(torch.tensor([1234.5678]), decimals=-2), torch.round(torch.tensor([-0.04]), decimals=1))
    print(torch.round(torch.tensor([float('inf'), float('nan'), -0.0]), decimals=3))
    """,
)
case(
    "round_decimals/grad",
    """
    import torch
    x = torch.tensor([1.2345, -2.5, 0.05], requires_grad=True)
    y = torch.round(x, decimals=2)
    print(y, torch.round(x, decimals=0).grad_fn.name(), torch.round(x).grad_fn.name())
    (y * 3).sum().backward()
    print(x.grad)
    z = x.round(decimals=1)
    print(z)
    w = torch.tensor([1.26, 3.14159, -7.25])
    w.round_(decimals=1)
    print(w)
    print(torch.round(input=torch.tensor([2.567]), decimals=1), torch.tanh(input=torch.tensor(0.5)))
    print(torch.abs(input=torch.tensor([-2.0, 3.0])), torch.abs(torch.tensor(-1.5)))
    from torch.func import jvp
    print(jvp(lambda t: torch.round(t, decimals=1), (torch.tensor([1.26]),), (torch.tensor([1.0]),)))
    """,
)
errors(
    "round_decimals/errors",
    "import torch\nx = torch.tensor([1.2345, 2.5])",
    [
        "torch.round(torch.tensor([1, 2]), decimals=1)",
        "torch.round(x, decimals=1.5)",
        "torch.round(x, decimals=None)",
        "torch.round(2.0)",
        "torch.abs(2.0)",
        "torch.abs(-2)",
        "torch.abs()",
        "torch.round()",
        "torch.tanh(input=2.0)",
        "torch.exp(inpt=x)",
        "torch.round(inpt=x)",
        "torch.round(x, decimal=1)",
        "torch.tanh(x, foo=1)",
    ],
)

# torch.det / torch.linalg.det (LinalgDetBackward0): LU's diagonal product, its gradient
case(
    "det/values_and_gradients",
    """
    import torch
    _ = torch.manual_seed(5)
    for dt in (torch.float64, torch.float32):
        # (float32 under a float32 default: PyTorch's backward adds a default-dtype
        # epsilon tensor to the LU, which fails for float32 under a float64 default)
        torch.set_default_dtype(dt)
        for n in (1, 2, 3, 5, 8, 13):
            A = (torch.randn(n, n, dtype=dt) * 1.5).requires_grad_()
            d = torch.det(A)
            g = torch.randn((), dtype=dt)
            d.backward(g)
            print(dt, n, d.item(), A.grad.flatten().tolist())
            B = torch.randn(n, n, dtype=dt).T.requires_grad_()
            e = torch.linalg.det(B)
            e.backward()
            print(e.item(), B.grad.flatten().tolist(), B.grad.is_contiguous())
    torch.set_default_dtype(torch.float64)
    C = torch.randn(3, 2, 4, 4, dtype=torch.float64, requires_grad=True)
    dc = C.det()
    (dc * torch.arange(6.0, dtype=torch.float64).reshape(3, 2)).sum().backward()
    print(dc.flatten().tolist(), C.grad.flatten().tolist())
    """,
)
case(
    "det/singular_and_edges",
    """
    import torch
    S = torch.tensor([[1., 2.], [2., 4.]], requires_grad=True)
    d = S.det()
    d.backward()
    print(d, S.grad)
    T = torch.tensor([[0., 1., 2.], [0., 3., 4.], [0., 5., 6.]], dtype=torch.float64, requires_grad=True)
    dt = torch.det(T)
    dt.backward()
    print(dt, T.grad)
    print(torch.det(torch.eye(3) * 2), torch.det(torch.ones(1, 1) * 5), torch.det(torch.zeros(0, 0)))
    print(torch.det(torch.zeros(2, 0, 0)), torch.det(torch.full((3, 3), float('nan'))))
    print(torch.det(torch.tensor([[1e30, 0.], [0., 1e30]])), torch.det(torch.tensor([[0., 1.], [1., 0.]])))
    """,
)
case(
    "det/higher_order",
    """
    import torch
    _ = torch.manual_seed(6)
    C = torch.randn(4, 4, dtype=torch.float64, requires_grad=True)
    g, = torch.autograd.grad(torch.det(C), C, create_graph=True)
    print(g.grad_fn is not None, round(g.sum().item(), 10))
    h, = torch.autograd.grad(g.sum(), C)
    print([round(v, 10) for v in h.flatten().tolist()])
    from torch.func import jvp
    print(jvp(torch.det, (C.detach(),), (torch.ones(4, 4, dtype=torch.float64),)))
    print(jvp(torch.linalg.det, (C.detach().T,), (torch.eye(4, dtype=torch.float64),)))
    """,
)
errors(
    "det/errors",
    "import torch",
    [
        "torch.det(torch.ones(2, 3))",
        "torch.det(torch.ones(3))",
        "torch.det(torch.ones(2, 2, dtype=torch.long))",
        "torch.det(2.0)",
        "torch.linalg.det([1.0])",
        "torch.ones(2, 3).det()",
    ],
)

# scatter_ and scatter_add_: the ops' in-place forms
case(
    "scatter_inplace/values_and_grads",
    """
    import torch
    _ = torch.manual_seed(0)
    b = torch.randint(0, 5, (3, 4))
    s = torch.zeros(3, 5).scatter_add_(1, b, torch.ones(3, 4))
    print(s)
    x = torch.randn(3, 5, requires_grad=True)
    src = torch.randn(3, 4, requires_grad=True)
    y = x * 2
    y.scatter_add_(1, b, src)
    print(y.grad_fn.name(), y._version)
    y.sum().backward()
    print(x.grad, src.grad)
    z = x.clone()
    z.scatter_(1, b[:, :2], src[:, :2])
    print(z.grad_fn.name())
    (z * z).sum().backward()
    print(x.grad, src.grad)
    w = torch.zeros(2, 4)
    w.scatter_(1, torch.tensor([[0, 1], [2, 3]]), 5.0)
    print(w)
    try:
        x.scatter_(1, b, src)
    except RuntimeError as e:
        print(e)
    """,
)

# attention masks: nn.MultiheadAttention, the Transformer layers and stacks
case(
    "masks/multihead_attention",
    """
    import torch
    from torch import nn
    _ = torch.manual_seed(11)
    B, T, C = 2, 5, 8
    x = torch.randn(B, T, C)
    mha = nn.MultiheadAttention(C, 2, batch_first=True)
    causal = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
    out, w = mha(x, x, x, attn_mask=causal)
    print(out.sum().item(), w[0].tolist())
    kpm = torch.tensor([[False, False, False, True, True], [False] * 5])
    out2, w2 = mha(x, x, x, key_padding_mask=kpm, average_attn_weights=False)
    print(out2[0, 0].tolist(), w2[0, 1, 2].tolist())
    out3, _ = mha(x, x, x, key_padding_mask=kpm, attn_mask=causal, need_weights=False)
    print(out3[1].tolist())
    fm = torch.randn(T, T) * 0.5
    out4, w4 = mha(x, x, x, attn_mask=fm)
    out5, _ = mha(x, x, x, attn_mask=fm, need_weights=False)
    print(out4[0, 1].tolist(), out5[0, 1].tolist())
    out6, _ = mha(x, x, x, attn_mask=causal, is_causal=True, need_weights=False)
    print(out6[1, 4].tolist())
    m3 = torch.zeros(B * 2, T, T).masked_fill(torch.rand(B * 2, T, T) > 0.7, float('-inf'))
    out7, w7 = mha(x, x, x, attn_mask=m3)
    print(w7[1].tolist())
    (out + out2 + out3 + out4 + out7).sum().backward()
    print(mha.in_proj_weight.grad.flatten()[:12].tolist(), mha.out_proj.bias.grad.tolist())
    kv = nn.MultiheadAttention(C, 2, add_bias_kv=True, add_zero_attn=True)
    o8, w8 = kv(x.transpose(0, 1), x.transpose(0, 1), x.transpose(0, 1), key_padding_mask=kpm, attn_mask=causal)
    print(o8[2, 0].tolist(), w8[0, 1].tolist())
    u, wu = mha(x[0], x[0], x[0], key_padding_mask=kpm[0], attn_mask=causal)
    print(u[3].tolist(), wu.shape)
    """,
)
case(
    "masks/transformer",
    """
    import torch
    from torch import nn
    _ = torch.manual_seed(12)
    S, T, B, E = 6, 4, 3, 8
    model = nn.Transformer(d_model=E, nhead=2, num_encoder_layers=2, num_decoder_layers=2,
                           dim_feedforward=16, dropout=0.0)
    src = torch.randn(S, B, E)
    tgt = torch.randn(T, B, E)
    tgt_mask = nn.Transformer.generate_square_subsequent_mask(T, dtype=torch.float64)
    print(tgt_mask, nn.Transformer.generate_square_subsequent_mask(2).dtype)
    spm = torch.zeros(B, S, dtype=torch.bool)
    spm[0, 4:] = True
    out = model(src, tgt, tgt_mask=tgt_mask, src_key_padding_mask=spm, memory_key_padding_mask=spm)
    print(out.shape, out[1, 2].tolist())
    opt = torch.optim.Adam(model.parameters(), lr=1e-3)
    for step in range(3):
        out = model(src, tgt, tgt_mask=tgt_mask)
        loss = (out ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
    layer = nn.TransformerEncoderLayer(E, 2, 16, dropout=0.0, batch_first=True, norm_first=True)
    enc = nn.TransformerEncoder(layer, 2, enable_nested_tensor=False)
    xb = torch.randn(B, S, E)
    causal = nn.Transformer.generate_square_subsequent_mask(S, dtype=torch.float64)
    y1 = enc(xb, mask=causal)
    y2 = enc(xb, mask=causal, is_causal=False)
    y3 = enc(xb, mask=torch.triu(torch.ones(S, S, dtype=torch.bool), 1), src_key_padding_mask=spm)
    print(y1[0, 2].tolist(), y2[0, 2].tolist(), y3[2, 5].tolist())
    dec_layer = nn.TransformerDecoderLayer(E, 2, 16, dropout=0.0, activation="gelu", batch_first=True)
    dec = nn.TransformerDecoder(dec_layer, 1, norm=nn.LayerNorm(E))
    z = dec(torch.randn(B, T, E), xb, tgt_mask=nn.Transformer.generate_square_subsequent_mask(T, dtype=torch.float64), tgt_is_causal=True)
    z.sum().backward()
    print(z[1, 1].tolist(), dec.layers[0].multihead_attn.in_proj_weight.grad.norm().item())
    print(enc.layers[0] is not enc.layers[1], torch.equal(enc.layers[0].linear1.weight, enc.layers[1].linear1.weight))
    """,
)
errors(
    "masks/errors",
    "import torch\nfrom torch import nn\nmha = nn.MultiheadAttention(4, 2)\nx = torch.randn(3, 2, 4)",
    [
        "mha(x, x, x, attn_mask=torch.ones(3, 3, dtype=torch.long))",
        "mha(x, x, x, attn_mask=torch.zeros(2, 3))",
        "mha(x, x, x, attn_mask=torch.zeros(3, 3, 3))",
        "mha(x, x, x, key_padding_mask=torch.zeros(2, 4, dtype=torch.bool))",
        "mha(x, x, x, key_padding_mask=torch.zeros(2, dtype=torch.bool))",
        "mha(x, x, x, is_causal=True)",
        "mha(x, x, x, attn_mask=torch.zeros(1, 3, 3, 3))",
        "nn.Transformer(d_model=4, nhead=2, num_encoder_layers=1, num_decoder_layers=1)(torch.randn(3, 2, 4), torch.randn(2, 3, 4))",
    ],
)

# the 1-d convolution and pools
case(
    "conv1d/values_and_gradients",
    """
    import torch
    import torch.nn.functional as F
    from torch import nn
    _ = torch.manual_seed(21)
    for dt in (torch.float64, torch.float32):
        torch.set_default_dtype(dt)
        x = torch.randn(3, 4, 17, requires_grad=True)
        w = torch.randn(6, 2, 3, requires_grad=True)
        b = torch.randn(6, requires_grad=True)
        # (groups, dilation and stride 2 in float64 only: float32 grouped, dilated and the
        # input gradient of strided convolutions are a known difference, conv2d's too)
        g = 2 if dt == torch.float64 else 1
        w = torch.randn(6, 4 // g, 3, requires_grad=True)
        y = F.conv1d(x, w, b, stride=g, padding=1, groups=g)
        z = F.conv1d(x, torch.randn(5, 4, 4), dilation=g, padding='same')
        print(dt, y.grad_fn.name(), y.shape, y[1, 2].tolist(), z.shape, z[0, 4, :5].tolist())
        (y.sin().sum() + z.sum()).backward()
        print(x.grad[2, 1].tolist(), w.grad.flatten().tolist(), b.grad.tolist())
        m = nn.Conv1d(4, 8, 5, padding=2, padding_mode='reflect')
        u = nn.Conv1d(4, 3, 3, bias=False)
        print(m, u, m(x).shape, u(x[0]).shape, m(x)[0, 0, :4].tolist())
        p1 = F.max_pool1d(x, 3, stride=2, padding=1)
        p2 = F.avg_pool1d(x, 4, count_include_pad=False, ceil_mode=True)
        p3 = F.adaptive_avg_pool1d(x, 5)
        print(p1.grad_fn.name(), p1[0, 0].tolist(), p2[1, 3].tolist(), p3[2, 2].tolist())
        x.grad = None
        (p1.sum() * 2 + (p2 ** 2).sum() + p3.exp().sum()).backward()
        print(x.grad[0, 0].tolist())
        print(nn.MaxPool1d(2), nn.AvgPool1d(3, stride=1), nn.AdaptiveAvgPool1d(4), nn.MaxPool1d(2)(x[0]).shape)
    torch.set_default_dtype(torch.float64)
    """,
)
case(
    "conv1d/training",
    """
    import torch
    from torch import nn
    _ = torch.manual_seed(22)
    net = nn.Sequential(nn.Conv1d(1, 4, 3, padding=1), nn.ReLU(), nn.MaxPool1d(2),
                        nn.Conv1d(4, 8, 3, padding=1), nn.AdaptiveAvgPool1d(4), nn.Flatten(),
                        nn.Linear(32, 16), nn.Sigmoid())
    x = torch.rand(8, 1, 16)
    opt = torch.optim.RMSprop(net.parameters(), lr=1e-2, alpha=0.9)
    for i in range(5):
        loss = ((net(x) - x.squeeze(1)) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(i, loss.item())
    print(net[0].weight.grad.flatten().tolist())
    """,
)
errors(
    "conv1d/errors",
    "import torch\nimport torch.nn.functional as F\nx = torch.randn(2, 3, 8)\nw = torch.randn(4, 3, 3)",
    [
        "F.conv1d(torch.randn(2, 3, 4, 5), w)",
        "F.conv1d(x, torch.randn(4, 3))",
        "F.conv1d(x, torch.randn(4, 2, 3))",
        "F.conv1d(torch.randn(1, 3, 2), w)",
        "torch.nn.Conv1d(3, 4, 3, padding='same', stride=2)",
        "F.conv1d(x, w, padding='full')",
        "F.max_pool1d(torch.randn(2, 3, 4, 5), 2)",
        "F.avg_pool1d(torch.randn(5), 2)",
        "F.adaptive_avg_pool1d(torch.randn(2, 3, 4, 5), 2)",
    ],
)

# F.interpolate(mode='nearest') and nn.Upsample
case(
    "interpolate/nearest",
    """
    import torch
    import torch.nn.functional as F
    from torch import nn
    _ = torch.manual_seed(31)
    for dt in (torch.float64, torch.float32):
        x = torch.randn(2, 2, 3, 4, dtype=dt, requires_grad=True)
        for kw in [dict(scale_factor=2), dict(size=(5, 7)), dict(scale_factor=1.5),
                   dict(size=4), dict(scale_factor=(2, 3)), dict(size=(2, 2)),
                   dict(scale_factor=0.7), dict(scale_factor=1.3, recompute_scale_factor=True)]:
            y = F.interpolate(x, mode='nearest', **kw)
            print(kw, y.shape, y.grad_fn.name(), y[1, 1].flatten().tolist())
            (y * torch.randn(y.shape, dtype=dt)).sum().backward()
            print(x.grad.flatten().tolist())
            x.grad = None
        x1 = torch.randn(2, 3, 5, dtype=dt, requires_grad=True)
        y1 = F.interpolate(x1, size=12)
        y1.pow(2).sum().backward()
        print(y1.grad_fn.name(), y1[1, 1].tolist(), x1.grad[0, 2].tolist())
        x3 = torch.randn(1, 1, 2, 3, 2, dtype=dt)
        print(F.interpolate(x3, scale_factor=(1, 2, 1.5)).flatten().tolist())
    up = nn.Upsample(scale_factor=2)
    print(up, nn.Upsample(size=(4, 4)), nn.Upsample(scale_factor=(2, 3)), up(torch.ones(1, 1, 2, 2)))
    net = nn.Sequential(nn.Conv2d(1, 2, 3, padding=1), nn.ReLU(), nn.Upsample(scale_factor=2), nn.Conv2d(2, 1, 3, padding=1))
    z = net(torch.randn(1, 1, 4, 4))
    z.mean().backward()
    print(z.shape, net[0].weight.grad.flatten().tolist())
    """,
)
errors(
    "interpolate/errors",
    "import torch\nimport torch.nn.functional as F\nx = torch.randn(1, 2, 3, 3)",
    [
        "F.interpolate(x)",
        "F.interpolate(x, size=3, scale_factor=2)",
        "F.interpolate(x, scale_factor=2, align_corners=True)",
        "F.interpolate(torch.randn(3), scale_factor=2)",
        "F.interpolate(x, mode='foo', scale_factor=2)",
        "F.interpolate(x, size=(2, 3, 4))",
    ],
)

# torch.clamp with tensor bounds (ClampBackward0)
case(
    "clamp_tensors/values_and_gradients",
    """
    import torch
    _ = torch.manual_seed(41)
    for dt in (torch.float64, torch.float32):
        x = torch.tensor([-2., -0.5, 0.3, 1.5, float('nan'), 0.0], dtype=dt, requires_grad=True)
        lo = torch.tensor([-1., -1., 0.5, 0., 0., 0.], dtype=dt, requires_grad=True)
        hi = torch.tensor([1., 0., 1., 1., 1., -1.], dtype=dt, requires_grad=True)
        for kw in [dict(min=lo, max=hi), dict(min=lo), dict(max=hi), dict(min=torch.tensor(0.2, dtype=dt))]:
            y = torch.clamp(x, **kw)
            print(y, y.grad_fn.name())
            y.backward(torch.arange(1., 7., dtype=dt))
            print(x.grad, lo.grad, hi.grad)
            x.grad = lo.grad = hi.grad = None
        a = torch.randn(4, 5, dtype=dt, requires_grad=True)
        b = torch.randn(5, dtype=dt, requires_grad=True)
        c = (b.detach() + 1).reshape(1, 5).expand(4, 5).clone().requires_grad_()
        r = a.clamp(min=b, max=c)
        (r * r).sum().backward()
        print(r, a.grad, b.grad, c.grad)
    print(torch.clamp(torch.tensor([1, 5, 9]), min=torch.tensor([2, 2, 2]), max=torch.tensor(6.5)))
    z = torch.tensor([-2., 0.5, 3.]); z.clamp_(min=torch.zeros(3), max=torch.ones(3)); print(z)
    print(torch.clip(torch.tensor([-3., 3.]), torch.tensor([-1., -1.]), torch.tensor([1., 2.])))
    """,
)
errors(
    "clamp_tensors/errors",
    "import torch\nx = torch.ones(3)\nt = torch.zeros(3)",
    [
        "torch.clamp(x, min=t, max=0.5)",
        "torch.clamp(x, min=-0.5, max=t)",
        "torch.clamp(x, min=torch.zeros(2))",
    ],
)
errors(
    "operand_words/errors",
    "import torch\nx = torch.tensor([1., 2.])",
    [
        "x.add('a')",
        "torch.add(x, 'a')",
        "torch.add('a', x)",
        "x.sub(None)",
        "torch.mul(x, 'a')",
        "x.div('a')",
        "torch.div(x, None)",
        "x.pow('a')",
        "torch.pow(x, 'a')",
        "x.eq('a')",
        "torch.gt(x, 'a')",
        "torch.remainder(x, 'a')",
        "x.true_divide('a')",
        "torch.subtract(x, 'a')",
        "x.multiply('a')",
        "torch.divide(x, 'a')",
        "torch.greater(x)",
        "x.less_equal()",
        "torch.multiply(x)",
        "f = x.add\nf('a')",
        "g = torch.mul\ng(x, 'b')",
        "getattr(x, 'mul')()",
    ],
)
case(
    "operand_words/aliases",
    """
    import torch
    x = torch.tensor([1., 2., 3.])
    y = torch.tensor([2., 2., 1.], requires_grad=True)
    print(torch.multiply(x, y), x.multiply(2), torch.divide(y, x), x.divide(y, rounding_mode='floor'))
    print(torch.greater(x, y), torch.greater_equal(x, 2), x.less(y), x.less_equal(2), torch.not_equal(x, y))
    z = x.clone(); z.multiply_(3); z.divide_(y.detach()); z.subtract_(1); print(z)
    (torch.multiply(y, y).sum() + torch.divide(y, 3).sum()).backward()
    print(y.grad)
    """,
)
case(
    "soft_margin_loss/kernels",
    """
    import torch
    import torch.nn.functional as F
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        x = torch.randn(40, 1, dtype=dt, requires_grad=True)
        y = torch.randn(40, 1, dtype=dt).sign()
        l = F.soft_margin_loss(x, y)
        l.backward()
        print(l.item(), x.grad.flatten().tolist())
        print(F.soft_margin_loss(x, y, reduction='none').flatten().tolist())
        print(torch.nn.SoftMarginLoss(reduction='sum')(x * 3, y).item())
    """,
)
case(
    "strided_matmul/small",
    """
    import torch
    from torch import nn
    torch.set_default_dtype(torch.float64)
    torch.manual_seed(11)
    net = nn.Sequential(nn.Linear(5, 7), nn.ReLU(), nn.Linear(7, 3))
    X = torch.randn(16, 5)
    Y = torch.randint(0, 3, (16,))
    parts = [net(X[i::2]) for i in range(2)]
    loss = sum(nn.functional.cross_entropy(p, Y[i::2]) for i, p in enumerate(parts))
    loss.backward()
    print(net[0].weight.grad.tolist())
    print(net[2].weight.grad.tolist(), net[0].bias.grad.tolist())
    Z = torch.randn(12, 12, dtype=torch.float32)
    print((Z[1::2, :5] @ Z[2:7, 3:9]).tolist())
    print(torch.mv(Z[2:10, 1:9].t(), Z[0, 1:9]).tolist())
    print((Z[3:9, 2:3].t() @ Z[1:7, 4:11]).tolist())
    print((Z[0::3, 1:] @ Z[1:12, 2:3]).tolist())
    """,
)
case(
    "strided_matmul/large",
    """
    import torch
    torch.manual_seed(5)
    for dt in (torch.float64, torch.float32):
        X = torch.randn(40, 24, dtype=dt)
        W = torch.randn(17, 24, dtype=dt)
        Z = torch.randn(64, 64, dtype=dt)
        A = torch.randn(400, 300, dtype=dt)
        B = torch.randn(300, 260, dtype=dt)
        outs = [
            X[1::2] @ W.t(),
            X[:, 2:22] @ W[:, 1:21].t(),
            Z[1:41, 3:27] @ W.t(),
            W @ X[0::2].t(),
            torch.mv(Z[2:26, :30].t(), X[0]),
            torch.addmm(torch.ones(17, dtype=dt), X[1::2], W.t()),
            X[1::2, 2:] @ Z[0:22, 1:2],
            A[1::2] @ B[:, :200],
            A[:, 7:207].t() @ A[:, 11:131],
            torch.mv(A[1::2, 5:205], B[:200, 7]),
            B[2:130, :].t() @ A[5:133, 1:290],
        ]
        for i, o in enumerate(outs):
            print(dt, i, tuple(o.shape), o.sum().item(), hash(tuple(o.flatten().tolist())))
    """,
)
case(
    "init/trunc_normal_eye_dirac",
    """
    import torch
    from torch import nn
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        w = torch.empty(5, 7, dtype=dt)
        nn.init.trunc_normal_(w)
        print(w.tolist(), w._version)
        w = torch.empty(40, 3, dtype=dt)
        nn.init.trunc_normal_(w, mean=0.5, std=2.0, a=-1.0, b=1.5)
        print(w[:3].tolist(), w._version, w.min().item() >= -1.0, w.max().item() <= 1.5)
        w = torch.empty(30, dtype=dt)
        nn.init.trunc_normal_(w, mean=0.0, std=1.0, a=1.0, b=1.5)
        print(w.tolist(), w._version)
        w = torch.empty(4, 4, dtype=dt)
        nn.init.trunc_normal_(w, mean=0.0, std=1.0, a=2.0, b=3.0)
        print(w.tolist(), w._version)
    g = torch.Generator().manual_seed(3)
    w = torch.empty(20)
    print(nn.init.trunc_normal_(w, std=0.02, generator=g).tolist())
    e = torch.empty(3, 5)
    print(nn.init.eye_(e), e._version)
    c = torch.empty(4, 2, 3)
    print(nn.init.dirac_(c, 2), c._version)
    c = torch.empty(2, 3, 3, 3)
    print(nn.init.dirac_(c)[:, :, 1], c._version)
    print(nn.init._calculate_fan_in_and_fan_out(torch.empty(8, 4, 3)))
    print(nn.init._calculate_correct_fan(torch.empty(8, 4, 3), "fan_out"))
    """,
)
errors(
    "init/errors",
    "import torch\nfrom torch import nn",
    [
        "nn.init.eye_(torch.empty(3))",
        "nn.init.dirac_(torch.empty(3, 3))",
        "nn.init.dirac_(torch.empty(3, 3, 3), 2)",
        "nn.init._calculate_fan_in_and_fan_out(torch.empty(3))",
        "nn.init._calculate_correct_fan(torch.empty(3, 3), 'fan')",
        "nn.init.kaiming_normal_(torch.empty(3, 3), mode='fan')",
    ],
)
case(
    "rnn_utils/pad_pack_unpack",
    """
    import torch
    from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence
    from torch.nn.utils.rnn import pack_sequence, PackedSequence
    a = torch.arange(6.).reshape(3, 2).requires_grad_()
    b = torch.ones(1, 2, requires_grad=True)
    c = torch.full((2, 2), 5.0, requires_grad=True)
    p = pad_sequence([a, b, c])
    print(p, p.shape)
    print(pad_sequence([a, b, c], batch_first=True, padding_value=-1.0, padding_side="left"))
    q = pack_padded_sequence(pad_sequence([a, c, b], batch_first=True), [3, 2, 1], batch_first=True)
    print(q)
    print(isinstance(q, PackedSequence), isinstance(q, tuple), q.batch_sizes, len(q))
    d, bs, si, ui = q
    print(d.shape, bs, si, ui)
    u, lens = pad_packed_sequence(q, batch_first=True, total_length=4)
    print(u, lens)
    (u * torch.arange(1., 5.).reshape(1, 4, 1)).sum().backward()
    print(a.grad, b.grad, c.grad)
    q2 = pack_sequence([b, a, c], enforce_sorted=False)
    print(q2)
    u2, l2 = pad_packed_sequence(q2)
    print(u2, l2, u2.grad_fn)
    print(pad_packed_sequence(q)[0].grad_fn)
    """,
)
errors(
    "rnn_utils/errors",
    "import torch\nfrom torch.nn.utils.rnn import *\np = torch.zeros(3, 3, 2)",
    [
        "pack_padded_sequence(p, [1, 3, 2])",
        "pack_padded_sequence(p, [3, 2])",
        "pack_padded_sequence(p, [3, 2, 0])",
        "pad_packed_sequence(pack_padded_sequence(p, [3, 2, 1]), total_length=2)",
        "pad_sequence([])",
    ],
)
case(
    "rnn_utils/packed_recurrent_layers",
    """
    import torch
    from torch import nn
    from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence
    from torch.nn.utils.rnn import pack_sequence
    torch.manual_seed(0)
    layers = [
        (nn.GRU, {}),
        (nn.LSTM, {}),
        (nn.RNN, {"nonlinearity": "relu"}),
        (nn.GRU, {"num_layers": 2, "bidirectional": True}),
        (nn.LSTM, {"bidirectional": True}),
        (nn.RNN, {"num_layers": 2}),
    ]
    for dt in (torch.float32, torch.float64):
        seqs = [torch.randn(n, 3, dtype=dt, requires_grad=True) for n in (2, 5, 3, 5)]
        for cls, kw in layers:
            m = cls(3, 4, **kw).to(dt)
            packed = pack_sequence(seqs, enforce_sorted=False)
            nd = m.num_layers * (2 if m.bidirectional else 1)
            h0 = torch.randn(nd, 4, 4, dtype=dt, requires_grad=True)
            hx = (h0, torch.randn(nd, 4, 4, dtype=dt)) if cls is nn.LSTM else h0
            out, h = m(packed, hx)
            padded, lens = pad_packed_sequence(out, batch_first=True)
            hn = h[0] if cls is nn.LSTM else h
            print(cls.__name__, kw, padded.shape, lens.tolist(), out.data.grad_fn, hn.grad_fn)
            print(padded[:, -1].tolist())
            print(hn.tolist())
            loss = padded.pow(2).sum() + hn.sum()
            loss.backward()
            print([s.grad.tolist() for s in seqs[:2]])
            print(h0.grad.tolist())
            print(m.weight_hh_l0.grad.tolist())
            for s in seqs:
                s.grad = None
            ordered = sorted(seqs, key=len, reverse=True)
            out2, h2 = m(pack_padded_sequence(pad_sequence(ordered), [5, 5, 3, 2]))
            print(out2.data.sum().item(), (h2[0] if cls is nn.LSTM else h2).sum().item())
    m = nn.GRU(3, 4)
    m(pack_sequence([torch.randn(2, 3)]), torch.zeros(1, 2, 4))
    """,
)
case(
    "data/concat_dataset",
    """
    import torch
    from torch.utils.data import Dataset, TensorDataset, ConcatDataset, DataLoader
    class Squares(Dataset):
        def __init__(self, n):
            self.n = n
        def __len__(self):
            return self.n
        def __getitem__(self, i):
            if i >= self.n:
                raise IndexError("out of range")
            return torch.tensor([float(i * i)]), i
    a = Squares(3)
    b = TensorDataset(torch.arange(4.).unsqueeze(1) + 10, torch.arange(4) + 100)
    c = ConcatDataset([a, b])
    print(len(c), c.cumulative_sizes, c[0], c[3], c[-1], c[-7])
    print([y for _, y in c])
    print(len(c.datasets), type(c).__name__)
    for x, y in DataLoader(c, batch_size=3):
        print(x.tolist(), y.tolist())
    both = a + b
    print(type(both).__name__, len(both), both[4][1])
    """,
)
errors(
    "data/concat_dataset_errors",
    "import torch\nfrom torch.utils.data import TensorDataset, ConcatDataset\n"
    "c = ConcatDataset([TensorDataset(torch.zeros(3)), TensorDataset(torch.ones(4))])",
    ["ConcatDataset([])", "c[-8]", "c[7]"],
)
case(
    "backends/flags_and_determinism",
    """
    import torch
    import torch.backends.cudnn as cudnn
    from torch.backends import cudnn as cd
    print(cudnn.is_available(), cudnn.enabled, cudnn.benchmark, cudnn.deterministic, cudnn.version())
    print(torch.backends.cuda.matmul.allow_tf32, torch.backends.mkldnn.is_available())
    cudnn.benchmark = True
    print(cd.benchmark, torch.backends.cudnn.benchmark)
    def seed_everything(seed=0):
        torch.manual_seed(seed)
        torch.backends.cudnn.deterministic = True
        torch.backends.cudnn.benchmark = False
    seed_everything(1)
    print(cudnn.deterministic, cudnn.benchmark, torch.backends.cuda.matmul.allow_tf32, torch.randn(2))
    torch.use_deterministic_algorithms(True, warn_only=True)
    print(torch.is_deterministic_algorithms_warn_only_enabled(), torch.are_deterministic_algorithms_enabled())
    torch.use_deterministic_algorithms(False)
    print(torch.are_deterministic_algorithms_enabled(), torch.get_float32_matmul_precision())
    torch.set_float32_matmul_precision("high")
    print(torch.get_float32_matmul_precision(), torch.backends.cuda.matmul.allow_tf32)
    torch.set_float32_matmul_precision("highest")  # (torch's state is its process's)
    cudnn.deterministic = False
    """,
)
errors(
    "backends/errors",
    "import torch",
    ["torch.backends.cudnn.foo", "torch.use_deterministic_algorithms(1)"],
)
case(
    "data/weighted_random_sampler",
    """
    import torch
    from torch.utils.data import WeightedRandomSampler, DataLoader, TensorDataset
    torch.manual_seed(0)
    s = WeightedRandomSampler([0.1, 0.9, 0.5], 7, replacement=True)
    print(list(s), list(s), len(s), s.weights, s.replacement)
    g = torch.Generator().manual_seed(3)
    s = WeightedRandomSampler(torch.tensor([1.0, 2.0, 3.0, 4.0]), 3, replacement=False, generator=g)
    print(list(s), list(s))
    labels = torch.tensor([0, 0, 0, 1, 0, 1])
    counts = torch.bincount(labels)
    weights = (1.0 / counts.float())[labels]
    ds = TensorDataset(torch.arange(6.0), labels)
    loader = DataLoader(ds, batch_size=4, sampler=WeightedRandomSampler(weights, 8))
    for x, y in loader:
        print(x.tolist(), y.tolist())
    """,
)
errors(
    "data/weighted_random_sampler_errors",
    "from torch.utils.data import WeightedRandomSampler",
    [
        "WeightedRandomSampler([0.5, 0.5], 0)",
        "WeightedRandomSampler([0.5, 0.5], 2, replacement=1)",
        "WeightedRandomSampler([[0.5], [0.5]], 2)",
    ],
)
case(
    "functional/gumbel_softmax",
    """
    import torch
    import torch.nn.functional as F
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        logits = torch.randn(3, 5, dtype=dt, requires_grad=True)
        y = F.gumbel_softmax(logits, tau=0.5)
        print(y, y.grad_fn)
        h = F.gumbel_softmax(logits, tau=1.0, hard=True, dim=0)
        print(h, h.grad_fn)
        (y * torch.arange(5.0, dtype=dt)).sum().backward(retain_graph=True)
        (h[:, 1] * 2).sum().backward()
        print(logits.grad)
    print(F.gumbel_softmax(torch.zeros(2, 3), hard=True).sum(1))
    """,
)
case(
    "checkpoint/both_variants",
    """
    import torch
    import torch.nn as nn
    from torch.utils.checkpoint import checkpoint, checkpoint_sequential
    torch.manual_seed(0)
    block = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 3))
    x = torch.randn(2, 3, requires_grad=True)
    y = checkpoint(block, x, use_reentrant=False)
    print(y, y.grad_fn)
    y.sum().backward()
    print(x.grad, block[0].weight.grad)
    block.zero_grad(); x.grad = None
    z = checkpoint(block, x, use_reentrant=True)
    print(z, z.grad_fn)
    (z ** 2).sum().backward()
    print(x.grad, block[2].bias.grad)
    w = checkpoint(block, torch.randn(2, 3), use_reentrant=True)
    print(w.requires_grad)
    def two(a, b):
        return a * b, a + b
    p, q = checkpoint(two, x, torch.ones(2, 3), use_reentrant=True)
    print(p.grad_fn, q.grad_fn)
    seq = nn.Sequential(nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 3), nn.ReLU(), nn.Linear(3, 1))
    out = checkpoint_sequential(seq, 2, x, use_reentrant=False)
    print(out, out.grad_fn)
    out2 = checkpoint_sequential(seq, 2, x, use_reentrant=True)
    out2.sum().backward()
    print(out2.grad_fn, seq[0].weight.grad)
    try:
        checkpoint(two, x, b=torch.ones(2, 3), use_reentrant=True)
    except ValueError as e:
        print(e)
    print(checkpoint(block, x).shape)
    """,
)
case(
    "threads/set_num_threads",
    """
    import torch
    n = torch.get_num_threads()
    torch.set_num_threads(3)
    print(torch.get_num_threads())
    torch.set_num_threads(n)  # (torch's threads are its process's)
    """,
)
errors(
    "threads/errors",
    "import torch",
    ["torch.set_num_threads(0)", "torch.set_num_threads(1.5)"],
)
case(
    "amp/autocast_off_and_grad_scaler",
    """
    import torch
    import torch.nn as nn
    torch.manual_seed(0)
    m = nn.Linear(3, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    x = torch.randn(4, 3)
    use_amp = False
    scaler = torch.amp.GradScaler("cpu", enabled=use_amp)
    print(scaler.is_enabled(), scaler.get_scale(), scaler.state_dict())
    for step in range(2):
        opt.zero_grad()
        with torch.autocast(device_type="cpu", dtype=torch.float16, enabled=use_amp):
            loss = m(x).pow(2).mean()
        print(torch.is_autocast_enabled(), loss)
        scaler.scale(loss).backward()
        scaler.unscale_(opt)
        print(scaler.step(opt))
        scaler.update()
    print(m.weight)
    s2 = torch.amp.GradScaler("cpu", init_scale=1024.0, growth_interval=2)
    print(s2.is_enabled(), s2.get_scale())
    for step in range(3):
        opt.zero_grad()
        loss = m(x).pow(2).mean()
        sl = s2.scale(loss)
        print(sl, sl.grad_fn)
        sl.backward()
        print(m.bias.grad)
        s2.unscale_(opt)
        print(m.bias.grad)
        s2.step(opt)
        s2.update()
        print(s2.get_scale(), s2.state_dict())
    opt.zero_grad()
    loss = m(x).pow(2).mean() * float("inf")
    s2.scale(loss).backward()
    s2.step(opt); s2.update()
    print(s2.get_scale(), m.bias)
    sc = torch.cuda.amp.GradScaler(enabled=False)
    print(sc.is_enabled())
    with torch.autocast("cuda", enabled=False):
        print("ok")
    with torch.cpu.amp.autocast(enabled=False):
        print("ok2")
    @torch.autocast("cpu", enabled=False)
    def forward(t):
        return m(t).sum()
    print(forward(x))
    """,
)
errors(
    "amp/scaler_errors",
    "import torch\nm = torch.nn.Linear(2, 1)\nopt = torch.optim.SGD(m.parameters(), lr=0.1)\n"
    "s = torch.amp.GradScaler('cpu')\ns.scale(m(torch.ones(1, 2)).sum()).backward()",
    [
        "s.unscale_(opt)\ns.unscale_(opt)",
        "s.step(opt)\ns.step(opt)",
        "s.step(opt)\ns.unscale_(opt)",
        "s.update()",
        "s.step(opt, closure=lambda: 0)",
    ],
)
case(
    "swa_utils/averaged_models_and_swalr",
    """
    import torch
    import torch.nn as nn
    from torch.optim.swa_utils import AveragedModel, SWALR, get_ema_multi_avg_fn, get_ema_avg_fn
    torch.manual_seed(0)
    model = nn.Sequential(nn.Linear(3, 4), nn.BatchNorm1d(4), nn.ReLU(), nn.Linear(4, 1))
    swa = AveragedModel(model)
    ema = AveragedModel(model, multi_avg_fn=get_ema_multi_avg_fn(0.9))
    ema2 = AveragedModel(model, avg_fn=get_ema_avg_fn(0.8), use_buffers=True)
    print(swa)
    opt = torch.optim.SGD(model.parameters(), lr=0.1)
    sched = SWALR(opt, swa_lr=0.05, anneal_epochs=3, anneal_strategy="cos")
    x, y = torch.randn(16, 3), torch.randn(16, 1)
    for epoch in range(5):
        loss = nn.functional.mse_loss(model(x), y)
        opt.zero_grad(); loss.backward(); opt.step()
        swa.update_parameters(model); ema.update_parameters(model); ema2.update_parameters(model)
        sched.step()
        print(epoch, round(loss.item(), 5), sched.get_last_lr(), swa.n_averaged)
    print(swa.module[0].weight)
    print(ema.module[3].bias, ema2.module[3].bias, ema2.module[1].running_mean)
    print(swa.module[1].running_mean, model[1].running_mean)
    swa.eval()
    print(swa(x[:2]))
    print([n for n, _ in swa.named_buffers()][:3], sorted(swa.state_dict())[:4])
    lin = SWALR(torch.optim.SGD([nn.Parameter(torch.ones(1))], lr=1.0), swa_lr=[0.1], anneal_epochs=2, anneal_strategy="linear")
    for _ in range(3):
        lin.optimizer.step(); lin.step(); print(lin.get_last_lr())
    for bad in [lambda: SWALR(opt, 0.1, anneal_strategy="exp"), lambda: SWALR(opt, 0.1, anneal_epochs=-1), lambda: get_ema_multi_avg_fn(2.0)]:
        try:
            bad()
        except ValueError as e:
            print(e)
    """,
)
case(
    "copy/deepcopy_keeps_parameters",
    """
    import copy
    import torch
    torch.manual_seed(0)
    m = torch.nn.Linear(2, 1)
    m2 = copy.deepcopy(m)
    print(m2.bias, isinstance(m2.weight, torch.nn.Parameter))
    sd = copy.deepcopy(m.state_dict())
    print(sd["bias"], isinstance(sd["bias"], torch.nn.Parameter))
    p = torch.nn.Parameter(torch.ones(2))
    q = copy.deepcopy([p, p])
    print(q[0], q[0] is q[1], type(q[0]).__name__)
    print(copy.deepcopy(m2.bias.detach()))
    """,
)
case(
    "embedding_bag/modes_module_and_text_classifier",
    """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        W = torch.randn(20, 8, dtype=dt, requires_grad=True)
        idx = torch.randint(0, 20, (120,))
        offs = torch.sort(torch.randint(0, 120, (25,))).values
        offs[0] = 0
        for mode in ("sum", "mean", "max"):
            W.grad = None
            out = F.embedding_bag(idx, W, offs, mode=mode)
            G = torch.randn_like(out)
            out.backward(G)
            print(dt, mode, out.grad_fn, out.sum().item(), hash(tuple(out.flatten().tolist())), hash(tuple(W.grad.flatten().tolist())))
        out = F.embedding_bag(idx.reshape(12, 10), W, mode="mean", padding_idx=3)
        print(out[:2], out.shape)
    bag = nn.EmbeddingBag(10, 4, mode="sum", padding_idx=0)
    print(bag, bag.weight[0])
    text = torch.tensor([1, 2, 4, 5, 4, 3, 2, 9])
    offsets = torch.tensor([0, 4])
    print(bag(text, offsets))
    print(nn.EmbeddingBag(10, 3)(text, torch.tensor([0, 3, 8]), ).shape)
    print(nn.EmbeddingBag(10, 3, include_last_offset=True)(text, torch.tensor([0, 3, 8])).shape)
    class TextClassificationModel(nn.Module):
        def __init__(self, vocab_size, embed_dim, num_class):
            super().__init__()
            self.embedding = nn.EmbeddingBag(vocab_size, embed_dim, sparse=False)
            self.fc = nn.Linear(embed_dim, num_class)
            self.init_weights()
        def init_weights(self):
            initrange = 0.5
            self.embedding.weight.data.uniform_(-initrange, initrange)
            self.fc.weight.data.uniform_(-initrange, initrange)
            self.fc.bias.data.zero_()
        def forward(self, text, offsets):
            embedded = self.embedding(text, offsets)
            return self.fc(embedded)
    model = TextClassificationModel(10, 6, 3)
    opt = torch.optim.SGD(model.parameters(), lr=5.0)
    labels = torch.tensor([0, 2])
    for _ in range(3):
        opt.zero_grad()
        loss = F.cross_entropy(model(text, offsets), labels)
        loss.backward()
        torch.nn.utils.clip_grad_norm_(model.parameters(), 0.1)
        opt.step()
        print(loss.item())
    print(model.embedding.weight.grad[:3], model)
    for bad in [lambda: F.embedding_bag(text, W, offsets, mode="median"), lambda: F.embedding_bag(text.reshape(2, 4), W, offsets), lambda: F.embedding_bag(text, W)]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, e)
    """,
)
case(
    "folding/unfold_fold",
    """
    import torch
    import torch.nn as nn
    import torch.nn.functional as F
    torch.manual_seed(0)
    for dt in (torch.float32, torch.float64):
        x = torch.randn(2, 3, 5, 6, dtype=dt, requires_grad=True)
        u = F.unfold(x, kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
        print(u.shape, u.grad_fn, u.sum().item(), u[0, :4, :5])
        f = F.fold(u, output_size=(5, 6), kernel_size=(2, 3), dilation=(1, 2), padding=1, stride=(2, 1))
        print(f.shape, f.grad_fn, f[1, 2])
        (f * torch.arange(f.numel(), dtype=dt).reshape(f.shape).sin()).sum().backward()
        print(x.grad[0, 0], hash(tuple(x.grad.flatten().tolist())))
        c = torch.randn(1, 3 * 4, 9, dtype=dt, requires_grad=True)
        y = nn.Fold(output_size=(4, 4), kernel_size=2, stride=1)(c)
        y.pow(2).sum().backward()
        print(y[0, 1], c.grad[0, :2], y.grad_fn)
        # patches of an image as a ViT does it
        img = torch.randn(1, 2, 4, 4, dtype=dt)
        patches = nn.Unfold(kernel_size=2, stride=2)(img).transpose(1, 2)
        print(patches.shape, torch.equal(patches[0, 0], img[0, :, :2, :2].reshape(-1)))
    print(nn.Unfold(kernel_size=(2, 3), stride=2), nn.Fold((4, 5), 2, dilation=1, padding=0, stride=1))
    print(F.unfold(torch.arange(12.).reshape(3, 4), 2).shape if False else "", F.unfold(torch.arange(24.).reshape(2, 3, 4), 2).shape)
    for bad in [lambda: F.unfold(torch.ones(2, 3), 2), lambda: F.fold(torch.ones(1, 5, 9), (4, 4), 2), lambda: F.fold(torch.ones(1, 4, 8), (4, 4), 2)]:
        try:
            bad()
        except Exception as e:
            print(type(e).__name__, str(e)[:150])
    """,
)
case(
    "random/torch_seed_returns_a_fresh_seed",
    """
    import torch
    s = torch.seed()
    print(isinstance(s, int), s == torch.initial_seed(), 0 <= s < 2 ** 64)
    torch.manual_seed(3)
    print(torch.initial_seed(), torch.randn(2))
    """,
)
