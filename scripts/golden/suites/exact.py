"""Record PyTorch's float math, matrix products and float32 powers into
tests/golden/exact_numerics.json (inputs: tests/numerics/exact_cases.py), as sha256 digests;
"lgamma": torch.lgamma and its gradient over each dtype's whole range (`lgamma_input`).

    $TORCH_PYTHON scripts/gen_golden.py exact

Records the CPU capability torch uses (its MKL and SLEEF kernels depend on it).
"""

from __future__ import annotations


import torch

from exact_cases import (
    ACT_SIZES,
    ACTIVATIONS,
    CE_SHAPES,
    DOUBLE_NAMES,
    DOT_SIZES,
    EXPR_SHAPES,
    EXPRESSIONS,
    LGAMMA_SIZES,
    MM_SHAPES,
    OUTER_SHAPES,
    POW_EXPONENTS,
    SIZES,
    U10,
    UNARY,
    act_input,
    ce_input,
    expr_inputs,
    lgamma_input,
    matrix,
    pow_input,
    u10_input,
    unary_input,
)

from golden.record import digest, write


def main(argv):  # noqa: C901
    unary = []
    for dtype in ("float32", "float64"):
        for op in UNARY:
            for n in SIZES:
                x = torch.from_numpy(unary_input(op, n, dtype))
                unary.append(
                    {"op": op, "dtype": dtype, "n": n, "out": digest(getattr(torch, op)(x).numpy())}
                )
    pows = []
    for e in POW_EXPONENTS:
        for n in SIZES + (40000, 70001):
            x = torch.from_numpy(pow_input(n)).requires_grad_()
            y = x**e
            y.backward(torch.ones_like(y))
            pows.append(
                {"e": e, "n": n, "out": digest(y.detach().numpy()), "grad": digest(x.grad.numpy())}
            )
    mms = []
    for dtype in ("float32", "float64"):
        for shape in MM_SHAPES:
            r, k, c = shape
            for ta in (False, True):
                for tb in (False, True):
                    a = torch.from_numpy(matrix((r, k), 1, dtype, ta)).requires_grad_()
                    b = torch.from_numpy(matrix((k, c), 2, dtype, tb)).requires_grad_()
                    g = torch.from_numpy(matrix((r, c), 3, dtype))
                    out = a @ b
                    out.backward(g)
                    bias = torch.from_numpy(matrix((1, c), 4, dtype)[0].copy()).requires_grad_()
                    lin = torch.addmm(bias, a, b)
                    mms.append(
                        {
                            "dtype": dtype,
                            "shape": list(shape),
                            "ta": ta,
                            "tb": tb,
                            "out": digest(out.detach().numpy()),
                            "ga": digest(a.grad.numpy()),
                            "gb": digest(b.grad.numpy()),
                            "addmm": digest(lin.detach().numpy()),
                        }
                    )
            a = torch.from_numpy(matrix((r, k), 1, dtype))
            v = torch.from_numpy(matrix((k, 1), 2, dtype)[:, 0].copy())
            mms.append({"dtype": dtype, "shape": list(shape), "mv": digest(torch.mv(a, v).numpy())})
        for n in DOT_SIZES:
            a = torch.from_numpy(matrix((n, 1), 5, dtype)[:, 0].copy())
            b = torch.from_numpy(matrix((n, 1), 6, dtype)[:, 0].copy())
            mms.append({"dtype": dtype, "n": n, "dot": float(torch.dot(a, b).item()).hex()})
    ces = []
    for b, c in CE_SHAPES:
        x, t = ce_input(b, c)
        g = torch.from_numpy(matrix((b, c), 23, "float32"))
        x1 = torch.from_numpy(x).requires_grad_()
        lsm = torch.log_softmax(x1, 1)
        lsm.backward(g)
        case = {
            "shape": [b, c],
            "lsm": digest(lsm.detach().numpy()),
            "glsm": digest(x1.grad.numpy()),
        }
        x3 = torch.from_numpy(x).requires_grad_()
        sm = torch.softmax(x3, -1)
        sm.backward(g)
        case["sm"], case["gsm"] = digest(sm.detach().numpy()), digest(x3.grad.numpy())
        w = torch.from_numpy(matrix((c, 1), 24, "float32")[:, 0].copy()).abs()
        for name, kw in (
            ("mean", {}),
            ("sum", {"reduction": "sum"}),
            ("weighted", {"weight": w}),
            ("ignore", {"ignore_index": int(t[0])}),
        ):
            x2 = torch.from_numpy(x).requires_grad_()
            loss = torch.nn.functional.cross_entropy(x2, torch.from_numpy(t), **kw)
            loss.backward()
            case[name] = float(loss.item()).hex()
            case["g" + name] = digest(x2.grad.numpy())
        ces.append(case)
    outer = []
    for dtype in ("float32", "float64"):
        for r, c in OUTER_SHAPES:
            g = torch.from_numpy(matrix((r, c), 25, dtype))
            x = torch.from_numpy(matrix((r, 3), 26, dtype))
            w = torch.zeros(c, 3, dtype=g.dtype)
            bias = torch.zeros(c, dtype=g.dtype, requires_grad=True)
            torch.nn.functional.linear(x, w, bias).backward(g)
            outer.append(
                {
                    "dtype": dtype,
                    "shape": [r, c],
                    "gbias": digest(bias.grad.numpy()),
                    "sum0": digest(g.sum(0).numpy()),
                    "sum01": digest(g.reshape(1, r, c).sum((0, 1), keepdim=True).numpy()),
                    "sum_all_dims": float(g.sum((0, 1)).item()).hex(),
                }
            )
    views = []
    for dtype in ("float32", "float64"):
        a = torch.from_numpy(matrix((3001, 1), 27, dtype)[:, 0].copy())
        b = torch.from_numpy(matrix((3001, 1), 28, dtype)[:, 0].copy())
        m = torch.from_numpy(matrix((40, 30), 29, dtype))
        for off in range(9):
            views.append(
                {
                    "dtype": dtype,
                    "off": off,
                    "dot": float(torch.dot(a[off : off + 2000], b[off : off + 2000]).item()).hex(),
                    "mv": digest(torch.mv(m[off : off + 20], b[off : off + 30]).numpy()),
                    "mm": digest((m[off : off + 20] @ m[off + 1 : off + 31, :7]).numpy()),
                }
            )
    acts = []
    for op in ACTIVATIONS:
        for dtype in ("float32", "float64"):
            for n in ACT_SIZES:
                x = torch.from_numpy(act_input(n, dtype)).requires_grad_()
                g = torch.from_numpy(matrix((n, 1), 32, dtype)[:, 0].copy())
                w = torch.from_numpy(matrix((n, 1), 33, dtype)[:, 0].copy())
                y = getattr(torch, op)(x)
                (gx,) = torch.autograd.grad(y, x, g, create_graph=True)
                (ggx,) = torch.autograd.grad(gx, x, w)
                acts.append(
                    {
                        "op": op,
                        "dtype": dtype,
                        "n": n,
                        "out": digest(y.detach().numpy()),
                        "grad": digest(gx.detach().numpy()),
                        "grad_fn": gx.grad_fn.name(),
                        "grad2": digest(ggx.numpy()),
                    }
                )
    exprs = []
    for name, text in EXPRESSIONS.items():
        for dtype in ("float32", "float64"):
            for shape in EXPR_SHAPES:
                x, t, g = (torch.from_numpy(a) for a in expr_inputs(shape, dtype))
                x.requires_grad_()
                y = eval(text, {"torch": torch, "F": torch.nn.functional, "x": x, "t": t})
                y.backward(g.reshape(-1)[: y.numel()].reshape(y.shape))
                exprs.append(
                    {
                        "name": name,
                        "dtype": dtype,
                        "shape": list(shape),
                        "out": digest(y.detach().numpy()),
                        "grad": digest(x.grad.numpy()),
                    }
                )
    names = {}
    for name, text in DOUBLE_NAMES.items():
        x, t, g = (torch.from_numpy(a) for a in expr_inputs((3, 7), "float64"))
        x.requires_grad_()
        y = eval(text, {"torch": torch, "F": torch.nn.functional, "x": x, "t": t})
        (gx,) = torch.autograd.grad(
            y, x, g.reshape(-1)[: y.numel()].reshape(y.shape), create_graph=True
        )
        names[name] = gx.grad_fn.name()
    u10 = []
    for text in U10:
        for dtype in ("float32", "float64"):
            for n in ACT_SIZES:
                x = torch.from_numpy(u10_input(text, n, dtype)).requires_grad_()
                g = torch.from_numpy(matrix((n, 1), 32, dtype)[:, 0].copy())
                y = eval(text, {"torch": torch, "F": torch.nn.functional, "x": x})
                y.backward(g)
                u10.append(
                    {
                        "text": text,
                        "dtype": dtype,
                        "n": n,
                        "out": digest(y.detach().numpy()),
                        "grad": digest(x.grad.numpy()),
                    }
                )
    lgammas = []
    for dtype in ("float32", "float64"):
        for n in LGAMMA_SIZES:
            x = torch.from_numpy(lgamma_input(n, dtype)).requires_grad_()
            g = torch.from_numpy(matrix((n, 1), 33, dtype)[:, 0].copy())
            y = torch.lgamma(x)
            y.backward(g)
            lgammas.append(
                {
                    "dtype": dtype,
                    "n": n,
                    "out": digest(y.detach().numpy()),
                    "grad": digest(x.grad.numpy()),
                }
            )
    data = {
        "torch": torch.__version__,
        "capability": torch.backends.cpu.get_cpu_capability(),
        "threads": torch.get_num_threads(),
        "unary": unary,
        "pows": pows,
        "mm": mms,
        "cross_entropy": ces,
        "bias_grads": outer,
        "views": views,
        "activations": acts,
        "expressions": exprs,
        "u10": u10,
        "lgamma": lgammas,
        "double_names": names,
    }
    write("exact_numerics.json", data, indent=0)
    print(
        f"torch {torch.__version__} ({data['capability']}): {len(unary)} unary, "
        f"{len(pows)} pows, {len(mms)} products"
    )
