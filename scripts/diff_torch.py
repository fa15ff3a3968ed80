#!/usr/bin/env python3
"""Differential testing of gradcli against real PyTorch (not run by CI).

    .venv/bin/python scripts/diff_torch.py --count 200 --seed 1 [--area inplace]

Makes random short programs in the common subset of Python and gradcli (in-place
ops on leaves, non-leaves and views, views then backward, dtype promotion with
Python numbers, hooks and retain_grad, .grad accumulation, autograd.grad with
create_graph, forward AD, printing of odd values, errors), runs each in torch
($TORCH_PYTHON, as scripts/golden/record.py runs a case: float64 default,
a bare expression displayed at top level only) and in gradcli (``gradcli eval -`` in
this process), and prints every program whose output differs: stdout, or the error
(torch's first line must be in gradcli's stderr, compared as tests/conftest.py does).
``--show N`` prints program N of a run. The torch side is the differential test's
(tests/differential/torch_half.py); scripts/difftest.py is the broader campaign CI runs.
"""

import argparse
import contextlib
import io
import os
import random
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
# a Python with torch==2.13.0 (a venv of its own: torch is never gradcli's dependency)
TORCH_PY = os.environ.get("TORCH_PYTHON", "python3")

# ------------------------------------------------------------------ program pieces

VALUES = ["0.5", "-1.25", "2.0", "3.0", "-0.0", "0.0", "1.5", "-2.0", "0.25", "4.0"]
ODD = [
    "float('inf')",
    "float('-inf')",
    "float('nan')",
    "1e-5",
    "1e10",
    "-0.0",
    "123456.789",
    "1e-8",
    "0.1",
    "-3.5e20",
]
INTS = ["0", "1", "-2", "3", "5", "-7"]
UNARY = [
    "{}.exp()",
    "{}.sin()",
    "{}.tanh()",
    "{}.sigmoid()",
    "{}.relu()",
    "{}.abs()",
    "{} * 2",
    "{} + 1",
    "{} ** 2",
    "{} / 3",
    "-{}",
    "{}.clamp(min=0)",
    "{}.cos()",
    "{} * {}",
    "{}.sqrt()",
    "{}.log()",
    "{} ** 3",
    "1 / {}",
    "{}.pow(2)",
    "torch.square({})",
    "{}.clone()",
    "{} - 0.5",
    "{}.neg()",
]
INPLACE = [
    "{}.add_(1)",
    "{}.mul_(2)",
    "{}.sub_(0.5)",
    "{}.div_(4)",
    "{}.exp_()",
    "{}.zero_()",
    "{}.fill_(3.0)",
    "{}.neg_()",
    "{}.clamp_(min=0)",
    "{}.pow_(2)",
    "{}.sigmoid_()",
    "{}.tanh_()",
    "{}.copy_(torch.ones_like({}))",
    "{} += 1",
    "{} *= 3",
    "{} -= {}",
    "{}.add_({}, alpha=2)",
    "{}.relu_()",
    "{}.abs_()",
    "{}.sqrt_()",
    "{}.square_()",
    "{}.reciprocal_()",
]
VIEWS = [
    "{}[0]",
    "{}[1:]",
    "{}.view(-1)",
    "{}.reshape(-1)",
    "{}.t()",
    "{}.transpose(0, 1)",
    "{}[:, 1]",
    "{}.unsqueeze(0)",
    "{}[0, :2]",
    "{}.squeeze()",
    "{}.detach()",
    "{}.expand(2, 2, 3)",
    "{}.permute(1, 0)",
    "{}[::2]",
    "{}.T",
    "{}.flatten()",
    "{}[..., 0]",
]
SETITEM = [
    "{}[0] = 5.0",
    "{}[1] = {}[0]",
    "{}[:, 0] = 0.0",
    "{}[0, 1] = -1.0",
    "{}[{} > 0.5] = 2.0",
    "{}[[0, 1]] = 7.0",
    "{}[1:] *= 2",
    "{}[0] += 1",
    "{}[..., 1] = torch.tensor(9.0)",
    "{}[0][1] = 4.0",
]


def tensor_lit(rng, shape, pool=VALUES):
    if shape == ():
        return rng.choice(pool)
    if len(shape) == 1:
        return "[" + ", ".join(rng.choice(pool) for _ in range(shape[0])) + "]"
    return "[" + ", ".join(tensor_lit(rng, shape[1:], pool) for _ in range(shape[0])) + "]"


def make(rng, shape=(2, 3), rg=True, pool=VALUES, dtype=None):
    extra = ""
    if dtype:
        extra += ", dtype=" + dtype
    if rg:
        extra += ", requires_grad=True"
    return "torch.tensor(%s%s)" % (tensor_lit(rng, shape, pool), extra)


def fill(template, *names):
    out = template
    i = 0
    while "{}" in out:
        out = out.replace("{}", names[min(i, len(names) - 1)], 1)
        i += 1
    return out


def g_inplace(rng):
    """in-place ops on leaves / non-leaves / views, then backward."""
    L = ["x = " + make(rng)]
    target = rng.choice(["y", "v", "x", "xv"])
    L.append("y = " + fill(rng.choice(UNARY), "x"))
    if target in ("v", "xv"):
        L.append("v = " + fill(rng.choice(VIEWS), "y" if target == "v" else "x"))
        tgt = "v"
    else:
        tgt = target
    ctx = rng.random() < 0.3
    op = fill(rng.choice(INPLACE + SETITEM), tgt, rng.choice(["y", "x", tgt]))
    if ctx:
        L.append("with torch.no_grad():\n    " + op)
    else:
        L.append(op)
    L.append(rng.choice(["y", "v" if tgt == "v" else "y", "x", "y.grad_fn", "y._version"]))
    L.append("z = " + fill(rng.choice(UNARY), "y"))
    L.append("z.sum().backward()")
    L.append("x.grad")
    if tgt == "v":
        L.append("v")
    return L


def g_views(rng):
    L = ["x = " + make(rng)]
    L.append("y = " + fill(rng.choice(UNARY), "x"))
    L.append("v = " + fill(rng.choice(VIEWS), "y"))
    L.append("v")
    if rng.random() < 0.5:
        L.append("w = " + fill(rng.choice(VIEWS), "v"))
        L.append("w")
        last = "w"
    else:
        last = "v"
    if rng.random() < 0.5:
        L.append(fill(rng.choice(INPLACE + SETITEM), last, "y"))
        L.append("y")
    L.append("(%s * %s).sum().backward()" % (last, rng.choice(["2", last, "y.sum()"])))
    L.append("x.grad")
    return L


DTYPES = [
    "torch.float32",
    "torch.float64",
    "torch.int64",
    "torch.int32",
    "torch.bool",
    "torch.float16",
    "torch.uint8",
    None,
]
NUMS = ["2", "2.5", "True", "-1", "0", "1e300", "3"]
BIN = [
    "{} + {}",
    "{} * {}",
    "{} - {}",
    "{} / {}",
    "{} // {}",
    "{} % {}",
    "{} ** {}",
    "{} > {}",
    "{} == {}",
    "torch.maximum({}, {})",
    "torch.where({} > 0, {}, 0.5)",
    "{} & {}",
    "{} | {}",
    "{} @ {}",
    "torch.min({}, {})",
]


def lit_for(rng, dt, shape):
    if dt in ("torch.bool",):
        return make(rng, shape, rg=False, pool=["True", "False"], dtype=dt)
    if dt and ("int" in dt):
        return make(
            rng,
            shape,
            rg=False,
            pool=INTS if dt != "torch.uint8" else ["0", "1", "3", "200"],
            dtype=dt,
        )
    return make(rng, shape, rg=False, dtype=dt)


def g_dtype(rng):
    shape = rng.choice([(), (3,), (3,)])
    a_dt, b_dt = rng.choice(DTYPES), rng.choice(DTYPES)
    L = ["a = " + lit_for(rng, a_dt, shape), "b = " + lit_for(rng, b_dt, rng.choice([(), (3,)]))]
    for _ in range(3):
        lhs = rng.choice(["a", "b"] + NUMS[:3])
        rhs = rng.choice(["a", "b"] + NUMS)
        if lhs not in ("a", "b") and rhs not in ("a", "b"):
            rhs = "a"
        tmpl = rng.choice(BIN)
        if tmpl.startswith("torch.") or "@" in tmpl:  # these take tensors only
            lhs, rhs = rng.choice(["a", "b"]), rng.choice(["a", "b"])
        e = fill(tmpl, lhs, rhs)
        if rng.random() < 0.3:
            L.append("r = " + e)
            L.append("r.dtype")
            L.append("r")
        else:
            L.append(e)
    if rng.random() < 0.4:
        L.append(
            fill(
                rng.choice(["{} += {}", "{}.mul_({})", "{}.div_({})", "{}[0] = {}"]),
                "a",
                rng.choice(["b", "2.5", "1", "True"]),
            )
        )
        L.append("a")
    return L


def g_hooks(rng):
    L = ["x = " + make(rng, rng.choice([(3,), (2, 3)]))]
    L.append("y = " + fill(rng.choice(UNARY), "x"))
    kind = rng.random()
    if kind < 0.4:
        L.append("y.retain_grad()")
    elif kind < 0.8:
        L.append(
            "h = %s.register_hook(lambda g: %s)"
            % (
                rng.choice(["x", "y"]),
                rng.choice(["g * 2", "print(g)", "None", "g + 1", "g.clone().zero_()"]),
            )
        )
    L.append("z = (" + fill(rng.choice(UNARY), "y") + ").sum()")
    n = rng.choice([1, 2, 3])
    for i in range(n):
        if i < n - 1:
            L.append("z.backward(retain_graph=True)")
        else:
            L.append(rng.choice(["z.backward()", "z.backward(retain_graph=True)"]))
        if rng.random() < 0.3:
            L.append("h.remove()" if "h = " in "".join(L) and "h.remove()" not in L else "x.grad")
    L.append("x.grad")
    L.append(rng.choice(["y.grad", "y.is_leaf", "y.requires_grad", "x.grad.grad_fn", "z"]))
    if rng.random() < 0.3:
        L.append(rng.choice(["x.grad.zero_()", "x.grad = None", "z.backward()"]))
        L.append("(x * 3).sum().backward()")
        L.append("x.grad")
    return L


def g_higher(rng):
    L = ["x = " + make(rng, rng.choice([(), (3,)]))]
    L.append("y = (" + fill(rng.choice(UNARY), "x") + ") * " + fill(rng.choice(UNARY), "x"))
    L.append("g, = torch.autograd.grad(y.sum(), x, create_graph=True)")
    L.append("g")
    more = rng.random()
    if more < 0.4:
        L.append("h, = torch.autograd.grad(g.sum(), x%s)" % rng.choice(["", ", create_graph=True"]))
        L.append("h")
    elif more < 0.7:
        L.append("g.sum().backward()")
        L.append("x.grad")
    else:
        L.append("torch.autograd.grad(g.sum(), [x], allow_unused=True, retain_graph=True)")
        L.append("y.backward(torch.ones_like(y), create_graph=True)")
        L.append("x.grad")
    return L


def g_fwad(rng):
    shape = rng.choice([(), (3,), (2, 3)])
    L = [
        "import torch.autograd.forward_ad as fwAD",
        "p = " + make(rng, shape, rg=rng.random() < 0.3),
        "t = " + make(rng, shape, rg=False),
        "with fwAD.dual_level():",
    ]
    body = ["d = fwAD.make_dual(p, t)"]
    cur = "d"
    for i in range(rng.choice([1, 2, 3])):
        r = rng.random()
        name = "e%d" % i
        if r < 0.4:
            body.append(name + " = " + fill(rng.choice(UNARY), cur))
        elif r < 0.6 and shape == (2, 3):
            body.append(name + " = " + fill(rng.choice(VIEWS), cur))
        elif r < 0.8:
            body.append(name + " = " + cur + ".clone()")
            body.append(fill(rng.choice(INPLACE + (SETITEM if shape == (2, 3) else [])), name, "d"))
        else:
            body.append(
                name
                + " = "
                + fill(rng.choice(BIN[:4] + BIN[6:7]), cur, rng.choice(["d", "2.0", "t"]))
            )
        cur = name
    body.append("print(fwAD.unpack_dual(%s).tangent)" % cur)
    body.append(
        rng.choice(
            [
                "print(%s)" % cur,
                "print(fwAD.unpack_dual(%s).primal)" % cur,
                "print(fwAD.unpack_dual(d).tangent)",
                "print(d)",
            ]
        )
    )
    L.append("\n".join("    " + b for b in body))
    return L


PRINT_SHAPES = [(), (3,), (2, 3), (1, 5), (4,), (2, 2)]


def g_print(rng):
    dt = rng.choice(["torch.float32", None, None, "torch.float16", "torch.int64"])
    shape = rng.choice(PRINT_SHAPES)
    pool = VALUES + ODD if dt != "torch.int64" else INTS + ["123456789", "-10000000000"]
    L = [
        "x = "
        + make(rng, shape, rg=dt != "torch.int64" and rng.random() < 0.5, pool=pool, dtype=dt)
    ]
    L.append("x")
    L.append(
        rng.choice(
            [
                "x * 1e5",
                "x / 7",
                "x.sum()",
                "x.mean()" if dt != "torch.int64" else "x.sum()",
                "x.max()",
                "x - x",
                "x * 0",
                "x.exp()",
                "torch.tensor([1e-12]) + x",
                "x.float()",
                "x.double()",
                "x.half()",
                "x.long()",
                "x.int()",
                "x.bool()",
                "x.tolist()",
                "x.shape",
                "x.item()" if shape == () else "x.numel()",
                "str(x)",
                "x.requires_grad_(False)" if "requires" not in L[0] else "x.detach()",
            ]
        )
    )
    L.append(rng.choice(["print(x)", "x[0]" if shape else "x + 1", "x.dtype", "repr(x * 3)"]))
    return L


ERRS = [
    "x.add_(1)",  # leaf in-place
    "(x * 2).backward()",  # non-scalar
    "y = x * 2\ny.sum().backward()\ny.sum().backward()",  # freed buffers
    "torch.autograd.grad(x.sum(), x)\ntorch.autograd.grad((x*2).sum(), [x, torch.ones(3, requires_grad=True)])",
    "x.view(3, 3)",
    "x.reshape(4, 2)",
    "x @ x",
    "x.t() @ torch.ones(2)",
    "torch.tensor([1, 2]) + torch.ones(3)",
    "y = x.exp()\ny.add_(1)\ny.sum().backward()",
    "torch.tensor([1, 2]).mean()",
    "x.grad.zero_()",
    "x.detach().requires_grad_().backward()",
    "torch.ones(2, dtype=torch.int64).requires_grad_()",
    "torch.tensor([1.0, 2.0])[5]",
    "x[0, 0, 0]",
    "x.expand(3, 3)",
    "x.sum(dim=2)",
    "x.transpose(0, 3)",
    "a = torch.ones(3, dtype=torch.int64)\na += 1.5",
    "a = torch.ones(3, dtype=torch.int64)\na.mul_(torch.tensor(2.5))",
    "x.item()",
    "x.numpy()",
    "y = x[0]\ny.mul_(2)",
    "z = x.unsqueeze(0).expand(2, 2, 3)\nz.detach().add_(1)",
    "torch.tensor(1.0).backward(torch.ones(2))",
    "torch.autograd.grad(x.sum(), torch.ones(2))",
    "x.register_hook(lambda g: g)\nx.detach().register_hook(lambda g: g)",
    "torch.cat([x, torch.ones(3)])",
    "torch.stack([x, torch.ones(2, 2)])",
    "x.max(dim=3)",
    "x.view(-1, -1)",
    "torch.zeros(2, 3).reshape(5, -1)",
    "y = x.sum()\ny.backward()\nx.grad.backward()",
    "torch.tensor([[1, 2], [3]])",
    "torch.tensor([1.0, 2.0], requires_grad=True).long().requires_grad",
    "x[0] = torch.ones(3, requires_grad=True)",
    "with torch.no_grad():\n    y = x * 2\ny.sum().backward()",
    "x.retain_grad()\n(x*1).retain_grad()\nx.detach().retain_grad()",
]


def g_errors(rng):
    L = ["x = " + make(rng)]
    if rng.random() < 0.5:
        L.append(rng.choice(["x", "x.sum()", "y = x * 3"]))
    L.append(rng.choice(ERRS))
    return L


BITS_UNARY = [
    "{}.exp()",
    "{}.log()",
    "{}.sin()",
    "{}.cos()",
    "{}.tanh()",
    "{}.sigmoid()",
    "{}.sqrt()",
    "{} ** 2",
    "{} ** 3",
    "{}.relu()",
    "{}.abs()",
    "{}.reciprocal()",
    "-{}",
    "1 / {}",
    "{} / 3",
    "{} * 0.1",
    "{}.square()",
    "{}.rsqrt()",
    "{} ** -1",
    "torch.softmax({}, 0)",
    "{}.log1p()",
    "{}.expm1()",
    "{} - {}.mean()",
    "{}.atan()",
    "{} % 0.3",
    "{} ** 1.5",
    "{}.clamp(-0.5, 0.5)",
    "torch.log_softmax({}, 0)",
    "{}.sinh()",
    "{}.cosh()",
    "{}.asin()",
    "{}.log2()",
    "{}.log10()",
    "{} / {}.norm()",
    "{} - {}.var()",
    "{}.std() * {}",
    "{}.cumsum(0)",
    "{}.prod() * {}",
    "torch.nn.functional.softplus({})",
    "torch.nn.functional.elu({})",
    "torch.nn.functional.silu({})",
    "torch.nn.functional.leaky_relu({}, 0.2)",
]
BITS_BIN = [
    "{} + {}",
    "{} - {}",
    "{} * {}",
    "{} / {}",
    "torch.maximum({}, {})",
    "{} ** {}",
    "torch.where({} > 0, {}, 1.0)",
]


def g_bits(rng):
    """last-bit agreement of values and gradients (printed with 17 digits)."""
    n = rng.choice([3, 4, 5])
    vals = ", ".join(
        repr(round(rng.uniform(0.1, 3.0) * rng.choice([1, 1, -1]), rng.choice([1, 2, 3, 6])))
        for _ in range(n)
    )
    dt = rng.choice(["", "", ", dtype=torch.float32"])
    L = [
        "torch.set_printoptions(precision=17)",
        "x = torch.tensor([%s]%s, requires_grad=True)" % (vals, dt),
        "w = torch.tensor([%s]%s)"
        % (", ".join(repr(round(rng.uniform(0.5, 2), 2)) for _ in range(n)), dt),
    ]
    cur = "x"
    for i in range(rng.choice([2, 3])):
        if rng.random() < 0.7:
            e = fill(rng.choice(BITS_UNARY), cur)
        else:
            e = fill(rng.choice(BITS_BIN), *rng.sample([cur, "x", "w"], 2))
        L.append("y%d = %s" % (i, e))
        cur = "y%d" % i
    L.append(cur)
    L.append("(%s * w).sum().backward(retain_graph=True)" % cur)
    L.append("x.grad")
    if rng.random() < 0.5:
        L.append(
            "g, = torch.autograd.grad((%s * w).sum(), x, create_graph=True)" % cur.replace("y", "y")
        )
        L.append("g")
        L.append("torch.autograd.grad(g.sum(), x)")
    return L


AREAS = {
    "bits": g_bits,
    "inplace": g_inplace,
    "views": g_views,
    "dtype": g_dtype,
    "hooks": g_hooks,
    "higher": g_higher,
    "fwad": g_fwad,
    "print": g_print,
    "errors": g_errors,
}


def program(seed, area=None):
    rng = random.Random(seed)
    a = area or rng.choice(sorted(AREAS))
    return a, "\n".join(AREAS[a](rng)) + "\n"


# ------------------------------------------------------------------ running


def run_torch(sources):
    """torch's results, from the differential test's torch process (tests/differential/:
    each program in a fresh namespace, from the same printing options, dtype and seed)."""
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from differential import runner

    worker = runner.TorchWorker(TORCH_PY)
    try:
        return worker.run_many(sources)
    finally:
        worker.close()


def run_gradcli(source):
    from gradcli.cli import main
    from gradcli.session import reset_globals

    reset_globals()
    out, err = io.StringIO(), io.StringIO()
    old = sys.stdin
    sys.stdin = io.TextIOWrapper(io.BytesIO(source.encode()), encoding="utf-8")
    try:
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            try:
                code = main(["eval", "-"])
            except SystemExit as e:
                code = e.code
            except Exception as e:  # noqa: BLE001 - a crash is a finding
                code = "crash: %r" % e
    finally:
        sys.stdin = old
    return code, out.getvalue(), err.getvalue()


def differs(t, g):
    sys.path.insert(0, os.path.join(ROOT, "tests"))
    from conftest import error_needle, squash

    code, out, err = g
    if code == 1 and ("has no attribute" in err or "got an unexpected keyword" in err):
        return "unsupported"
    if out != t["stdout"]:
        return "stdout"
    if t["error"] is None:
        return None if code == 0 else "gradcli failed"
    if code != 1:
        return "gradcli ran on"
    if error_needle(t["error"]["message"]) not in squash(err):
        return "error text"
    return None


def main(argv):
    ap = argparse.ArgumentParser()
    ap.add_argument("--count", type=int, default=100)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--area", choices=sorted(AREAS))
    ap.add_argument("--show", type=int)
    ap.add_argument("--quiet", action="store_true")
    ap.add_argument("--unsupported", action="store_true", help="also list programs gradcli refuses")
    args = ap.parse_args(argv)
    if args.show is not None:
        print(program(args.show, args.area)[1], end="")
        return 0
    seeds = range(args.seed, args.seed + args.count)
    progs = [program(s, args.area) for s in seeds]
    tres = run_torch([p for _, p in progs])
    bad = unsup = 0
    for s, (area, src), t in zip(seeds, progs, tres):
        g = run_gradcli(src)
        why = differs(t, g)
        if why is None:
            continue
        if why == "unsupported" and not args.unsupported:
            unsup += 1
            continue
        bad += 1
        print("=" * 70)
        print("seed %d (%s): %s" % (s, area, why))
        print(src, end="")
        if not args.quiet:
            print("--- torch stdout ---\n" + t["stdout"], end="")
            if t["error"]:
                print("--- torch error: %s: %s" % (t["error"]["type"], t["error"]["message"]))
            print("--- gradcli stdout (exit %s) ---\n%s" % (g[0], g[1]), end="")
            if g[2].strip():
                print("--- gradcli stderr ---\n" + g[2].strip()[-600:])
    print("%d programs, %d differ, %d use what gradcli lacks" % (len(progs), bad, unsup))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
