"""Golden cases of scaled dot-product attention (F.scaled_dot_product_attention on its
two CPU paths, the flash kernel for 4-D inputs and the math path otherwise, and
nn.MultiheadAttention with need_weights=False, which runs it).
tests/library/wild_cases.py adds them to its CASES (recorded into tests/golden/wild.json
by scripts/gen_golden.py wild); its rules apply."""

import textwrap

CASES = []


def case(name, src):
    if any(n == name for n, _ in CASES):
        raise ValueError("duplicate case name: " + name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


_QKV = """
import torch
import torch.nn.functional as F
torch.manual_seed({seed})
q = torch.randn({q}, dtype=torch.{dt}, requires_grad=True)
k = torch.randn({k}, dtype=torch.{dt}, requires_grad=True)
v = torch.randn({v}, dtype=torch.{dt}, requires_grad=True)
"""

_SHOW = """
print(o)
print(o.grad_fn)
(o * o).sum().backward()
print(q.grad)
print(k.grad)
print(v.grad)
print(o.dtype, q.grad.dtype)
"""

for _dt in ("float64", "float32"):
    for _name, _shapes, _call in (
        (
            "flash",
            ("2, 3, 4, 5", "2, 3, 6, 5", "2, 3, 6, 5"),
            "F.scaled_dot_product_attention(q, k, v)",
        ),
        (
            "flash_causal",
            ("1, 2, 7, 8", "1, 2, 9, 8", "1, 2, 9, 8"),
            "F.scaled_dot_product_attention(q, k, v, is_causal=True)",
        ),
        (
            "flash_scale",
            ("2, 1, 5, 4", "2, 1, 5, 4", "2, 1, 5, 4"),
            "F.scaled_dot_product_attention(q, k, v, scale=0.3)",
        ),
        (
            "flash_bool_mask",
            ("1, 2, 4, 3", "1, 2, 6, 3", "1, 2, 6, 3"),
            "F.scaled_dot_product_attention(q, k, v, attn_mask=torch.rand(4, 6) > 0.4)",
        ),
        (
            "flash_float_mask",
            ("2, 2, 3, 6", "2, 2, 5, 6", "2, 2, 5, 6"),
            "F.scaled_dot_product_attention(q, k, v, attn_mask=torch.randn(2, 1, 3, 5, dtype=q.dtype))",
        ),
        (
            "flash_masked_row",
            ("1, 1, 3, 4", "1, 1, 3, 4", "1, 1, 3, 4"),
            "F.scaled_dot_product_attention(q, k, v, attn_mask=torch.tensor([[True, False, True], [False, False, False], [True, True, True]]))",
        ),
        ("math_3d", ("3, 4, 5", "3, 6, 5", "3, 6, 2"), "F.scaled_dot_product_attention(q, k, v)"),
        (
            "math_3d_causal",
            ("2, 5, 3", "2, 5, 3", "2, 5, 3"),
            "F.scaled_dot_product_attention(q, k, v, is_causal=True)",
        ),
        (
            "math_2d_mask",
            ("4, 3", "5, 3", "5, 2"),
            "F.scaled_dot_product_attention(q, k, v, attn_mask=torch.rand(4, 5) > 0.3)",
        ),
        (
            "math_4d_head_dims",
            ("1, 2, 3, 4", "1, 2, 5, 4", "1, 2, 5, 3"),
            "F.scaled_dot_product_attention(q, k, v, scale=-0.5)",
        ),
    ):
        _q, _k, _v = _shapes
        case(
            f"attention/sdpa/{_name}/{_dt}",
            _QKV.format(seed=len(CASES), q=_q, k=_k, v=_v, dt=_dt) + f"o = {_call}\n" + _SHOW,
        )

case(
    "attention/sdpa/errors/causal_and_mask",
    """
    import torch
    import torch.nn.functional as F
    q = torch.ones(2, 3, 4)
    F.scaled_dot_product_attention(q, q, q, attn_mask=torch.ones(3, 3, dtype=torch.bool), is_causal=True)
    """,
)
case(
    "attention/sdpa/errors/dtypes",
    """
    import torch
    import torch.nn.functional as F
    q = torch.ones(2, 3, 4)
    F.scaled_dot_product_attention(q, q.float(), q)
    """,
)
case(
    "attention/sdpa/flash_not_differentiable_twice",
    """
    import torch
    import torch.nn.functional as F
    torch.manual_seed(3)
    q = torch.randn(1, 1, 3, 4, requires_grad=True)
    o = F.scaled_dot_product_attention(q, q, q)
    g, = torch.autograd.grad(o.sum(), q, create_graph=True)
    print(g.grad_fn)
    g.sum().backward()
    """,
)

for _dt in ("float64", "float32"):
    case(
        f"attention/mha/need_weights_false/{_dt}",
        f"""
        import torch
        from torch import nn
        torch.manual_seed(0)
        mha = nn.MultiheadAttention(8, 2, dtype=torch.{_dt})
        x = torch.randn(5, 3, 8, dtype=torch.{_dt})
        out, w = mha(x, x, x, need_weights=False)
        print(out, w)
        print(out.grad_fn)
        out.sum().backward()
        print(mha.in_proj_weight.grad, mha.in_proj_bias.grad)
        print(mha.out_proj.weight.grad, mha.out_proj.bias.grad)
        mb = nn.MultiheadAttention(6, 3, batch_first=True, dtype=torch.{_dt})
        y = torch.randn(2, 4, 6, dtype=torch.{_dt})
        z = torch.randn(2, 7, 6, dtype=torch.{_dt})
        o2, _ = mb(y, z, z, need_weights=False)
        print(o2)
        o2.pow(2).mean().backward()
        print(mb.in_proj_weight.grad)
        u = torch.randn(4, 6, dtype=torch.{_dt})
        o3, _ = mb(u, u, u, need_weights=False)
        print(o3)
        """,
    )

case(
    "attention/sdpa/dropout_math_path",
    """
    import torch
    import torch.nn.functional as F
    torch.manual_seed(1)
    q = torch.randn(2, 3, 4, 5, requires_grad=True)
    o = F.scaled_dot_product_attention(q, q, q, dropout_p=0.3)
    print(o, o.grad_fn)
    o.sum().backward()
    print(q.grad)
    x = torch.randn(3, 4).t()
    print(F.dropout(x, 0.3), torch.nn.Dropout(0.5)(torch.randn(2, 3, 4).permute(2, 0, 1)))
    """,
)

case(
    "attention/mha/dropout_training",
    """
    import torch
    from torch import nn
    torch.manual_seed(1)
    mha = nn.MultiheadAttention(6, 3, dropout=0.1, batch_first=True)
    x = torch.randn(2, 4, 6)
    y = mha(x, x, x, need_weights=False)[0]
    print(y)
    print(nn.Dropout(0.1)(y))
    """,
)

for _dt in ("float64", "float32"):
    case(
        f"attention/transformer_encoder_layer/{_dt}",
        f"""
        import torch
        from torch import nn
        torch.manual_seed(0)
        layer = nn.TransformerEncoderLayer(d_model=8, nhead=2, dim_feedforward=16, dropout=0.0, dtype=torch.{_dt})
        print(layer)
        src = torch.randn(5, 3, 8, dtype=torch.{_dt})
        out = layer(src)
        print(out, out.grad_fn)
        out.pow(2).sum().backward()
        print(layer.self_attn.in_proj_weight.grad[:2], layer.linear1.weight.grad[0], layer.norm2.bias.grad)
        torch.manual_seed(1)
        pre = nn.TransformerEncoderLayer(6, 3, 12, dropout=0.1, activation="gelu", batch_first=True, norm_first=True, dtype=torch.{_dt})
        x = torch.randn(2, 4, 6, dtype=torch.{_dt})
        y = pre(x)
        print(y)
        y.sum().backward()
        print(pre.linear2.weight.grad, pre.norm1.weight.grad)
        pre.eval()
        print(pre(x))
        """,
    )

for _dt in ("float32", "float64"):
    case(
        f"attention/mha/dropout_training_heads/{_dt}",
        f"""
        import torch
        from torch import nn
        torch.manual_seed(0)
        mha = nn.MultiheadAttention(32, 4, dropout=0.2, dtype=torch.{_dt})
        x = torch.randn(10, 4, 32, dtype=torch.{_dt}, requires_grad=True)
        out = mha(x, x, x, need_weights=False)[0]
        print(out[:, 0], out.grad_fn)
        out.pow(2).sum().backward()
        print(x.grad[:, 1], mha.in_proj_weight.grad[::7], mha.out_proj.weight.grad[::5])
        torch.manual_seed(2)
        layer = nn.TransformerEncoderLayer(32, 4, 64, dropout=0.2, dtype=torch.{_dt})
        y = layer(x.detach())
        y.sum().backward()
        print(y[:, 2], layer.self_attn.in_proj_weight.grad[::9])
        """,
    )
    case(
        f"attention/matmul/strided_heads/{_dt}",
        f"""
        import torch
        torch.manual_seed(3)
        qkv = torch.randn(3, 10, 16, 8, dtype=torch.{_dt})
        q, k, v = [t.transpose(0, 1).view(4, 4, 10, 8).requires_grad_() for t in qkv.unbind(0)]
        s = torch.matmul(q * 0.5, k.transpose(-2, -1) * 0.5)
        o = torch.matmul(s.softmax(-1), v)
        print(s[1, 2], o[3, 1])
        o.pow(2).sum().backward()
        print(q.grad[2, 3], k.grad[0, 1], v.grad[1, 0])
        a = torch.randn(12, 6, 20, dtype=torch.{_dt}).transpose(0, 1)
        b = torch.randn(20, 6, 9, dtype=torch.{_dt}).permute(1, 2, 0).transpose(1, 2)
        print(torch.bmm(a, b)[4])
        """,
    )
