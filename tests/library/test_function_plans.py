"""A custom autograd.Function's forward and backward run by their plans
(library/function_plans.py, language/op_bodies.py): the same printed results, errors
and gradients as the calls run as compiled (`--no-replay`), and the plans made only for
bodies and calls they may stand for."""

import pytest
from conftest import run_inprocess

from gradcli.library import function_plans
from gradcli.language.op_bodies import ctx_body
from gradcli.language.parser import parse

HEAD = """import torch


class LeakyClamp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, lo, hi):
        ctx.save_for_backward(x)
        ctx.lo, ctx.hi = lo, hi
        return x.clamp(lo, hi) + 0.01 * (x - x.clamp(lo, hi))

    @staticmethod
    def backward(ctx, grad_out):
        (x,) = ctx.saved_tensors
        inside = (x >= ctx.lo) & (x <= ctx.hi)
        scale = torch.where(inside, torch.ones_like(x), torch.full_like(x, 0.01))
        return grad_out * scale, None, None


class MyExp(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        \"\"\"exp, saving its output.\"\"\"
        result = x.exp()
        ctx.save_for_backward(result)
        return result

    @staticmethod
    def backward(ctx, grad):
        (result,) = ctx.saved_tensors
        return grad * result


class Two(torch.autograd.Function):
    @staticmethod
    def forward(ctx, a, b):
        ctx.save_for_backward(a, b)
        return a * b, a - b

    @staticmethod
    def backward(ctx, ga, gb):
        a, b = ctx.saved_tensors
        return ga * b + gb, ga * a - gb


torch.manual_seed(0)
"""

PROGRAMS = {
    "loop": """
X = torch.randn(16, 3)
w = torch.randn(3, 4, requires_grad=True)
for i in range(6):
    h = LeakyClamp.apply(X @ w, -0.5, 0.5 + i * 0.1)
    u, v = Two.apply(MyExp.apply(h * 0.1), h)
    loss = (u + v).pow(2).mean()
    loss.backward()
    print(i, loss.item(), w.grad.sum().item())
    with torch.no_grad():
        w -= 0.1 * w.grad
    w.grad = None
""",
    "kinds": """
for shape, dt in [((3,), torch.float32), ((3,), torch.float64), ((2, 2), torch.float32)]:
    for k in range(3):
        x = torch.randn(*shape, dtype=dt, requires_grad=True)
        y = LeakyClamp.apply(x, -0.0, 0.0)
        y.sum().backward()
        print(y.dtype, y.tolist(), x.grad.tolist())
x = torch.randn(4, requires_grad=True)
a, b = Two.apply(x, x)
(a * b).sum().backward()
print(x.grad.tolist())
z = torch.randn(4, requires_grad=True)
for k in range(3):
    a, b = Two.apply(x, z)
print(a.tolist(), b.tolist())
""",
    "second_backward": """
q = torch.randn(5, requires_grad=True)
for k in range(3):
    r = MyExp.apply(q)
    r.sum().backward(retain_graph=True)
print(q.grad.tolist())
r.sum().backward()
r.sum().backward()
""",
    "global_changes": """
SCALE = 2.0


class Scaled(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return x * SCALE

    @staticmethod
    def backward(ctx, g):
        return g * SCALE


x = torch.ones(3, requires_grad=True)
for k in range(4):
    if k == 2:
        SCALE = -3.0
    y = Scaled.apply(x)
    y.sum().backward()
    print(y.tolist(), x.grad.tolist())
""",
    "closure": """
def run():
    s = 1.0

    class Scaled(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * s

        @staticmethod
        def backward(ctx, g):
            return g * s

    x = torch.ones(2, requires_grad=True)
    for k in range(4):
        if k == 2:
            s = -2.0
        y = Scaled.apply(x)
        y.sum().backward()
        print(y.tolist(), x.grad.tolist())


run()
""",
    "kernels": """
class Affine(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x, w):
        ctx.save_for_backward(x, w)
        return (x * w + 0.5) ** 2 - x

    @staticmethod
    def backward(ctx, g):
        x, w = ctx.saved_tensors
        t = (x * w + 0.5) * 2.0
        return g * t * w - g, (g * t * x).sum(0)


w = torch.randn(3, requires_grad=True)
for x in [torch.randn(4, 3), torch.randn(3, 4).t(), torch.randn(4, 3), torch.randn(3)]:
    for k in range(3):
        x = x * 1.0 if k == 1 else x
        y = Affine.apply(x, w)
        y.sum().backward()
        print(y.tolist(), w.grad.tolist())
        w.grad = None
print(Affine.apply(torch.tensor([1e308, -0.0, float("nan")]), torch.tensor(1e10)).tolist())
""",
    "create_graph": """
x = torch.tensor([0.5, 1.5], requires_grad=True)
for k in range(3):
    y = MyExp.apply(x)
    (g,) = torch.autograd.grad(y.sum(), x, create_graph=True)
    print(g.tolist(), g.grad_fn is not None)
""",
}


def _run(source, *flags):
    return run_inprocess(source, ("eval", *flags, "-"))


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("dtype", ["float32", "float64"])
def test_planned_calls_print_what_compiled_calls_print(name, dtype):
    src = HEAD + PROGRAMS[name]
    planned = _run(src, "-q", "--dtype", dtype)
    compiled = _run(src, "-q", "--dtype", dtype, "--no-replay")
    assert planned.stdout == compiled.stdout
    assert planned.stderr == compiled.stderr
    assert planned.returncode == compiled.returncode


def _plans(source, *flags):
    """The plans made for each Function class a program defines: {name: (forwards,
    backwards)} counted over the kinds its calls had."""
    seen = {}
    tables = function_plans._TABLES

    before = set(tables.keys())
    r = _run(source, "-q", *flags)
    assert r.returncode == 0, r.stderr
    for cls, table in list(tables.items()):
        if cls in before:
            continue
        fwd = [p for p in table.values() if isinstance(p, function_plans._Forward)]
        bwd = [
            b for p in fwd for b in p.backwards.values() if isinstance(b, function_plans._Backward)
        ]
        seen[cls.__name__] = (len(fwd), len(bwd))
    return seen


def test_calls_of_one_kind_are_planned_forward_and_backward():
    got = _plans(HEAD + PROGRAMS["loop"])
    # (a backward's plan is made when its call runs outside a loop's recording)
    assert {k: (f, b > 0) for k, (f, b) in got.items()} == {
        "LeakyClamp": (6, True),
        "MyExp": (1, True),
        "Two": (1, True),
    }


def test_plans_run_the_kernels_of_their_ops():
    """After a plan's first run, an op with a kernel for its arguments (Add, Sub, Mul of
    float arrays or of an array and a number, x ** 2) runs as that kernel alone."""
    _run(HEAD + PROGRAMS["kernels"], "-q")
    table = next(t for c, t in function_plans._TABLES.items() if c.__name__ == "Affine")
    plans = [p for p in table.values() if isinstance(p, function_plans._Forward)]
    names = [s.__qualname__.split(".")[0] for p in plans for s in p.steps.steps]
    assert "_kernel_step" in names


def test_no_replay_makes_no_plan():
    assert _plans(HEAD + PROGRAMS["loop"], "--no-replay") == {}


BODIES = {
    "forward(ctx, x):\n    ctx.save_for_backward(x)\n    return x.exp() * 2": True,
    "forward(ctx, x, k):\n    ctx.k = k\n    y = torch.where(x > 0, x, -x)\n    return y, x": True,
    "backward(ctx, g):\n    (x,) = ctx.saved_tensors\n    return g * x, None": True,
    "forward(ctx, x):\n    print(x)\n    return x": False,
    "forward(ctx, x):\n    return helper(x)": False,
    "forward(ctx, x):\n    y = x.add_(1)\n    return y": False,
    "forward(ctx, x):\n    n = x.sum().item()\n    return x * n": False,
    "forward(ctx, x):\n    if x.sum() > 0:\n        return x\n    return -x": False,
    "forward(ctx, x):\n    ctx.mark_non_differentiable(x)\n    return x * 1": False,
    "forward(ctx, x):\n    return torch.rand_like(x) + x": True,  # (its draws: not planned)
    "forward(ctx, x):\n    return x[0] * ctx": False,
    "forward(ctx, x):\n    global g\n    g = x\n    return x * 1": False,
}


@pytest.mark.parametrize("body, ok", list(BODIES.items()))
def test_bodies_a_plan_may_stand_for(body, ok):
    tree = parse(f"def {body}\n")
    fn = tree.children[0]
    name_tok, params, _ret, suite = fn.children
    names = tuple(p.children[0].value for p in params.children)
    assert (ctx_body(names, suite) is not None) is ok


def test_a_forward_that_draws_is_not_planned():
    """A forward whose ops draw from the generator (`torch.rand_like`, dropout's noise)
    runs as compiled at every call: each call's draws are the generator's next, as
    with `--no-replay`, and no plan is made for it."""
    source = """import torch
import torch.nn.functional as F
class Noisy(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        return torch.rand_like(x) + F.dropout(x, 0.5)
    @staticmethod
    def backward(ctx, g):
        return g * 2
torch.manual_seed(0)
x = torch.ones(3, requires_grad=True)
for i in range(6):
    y = Noisy.apply(x)
    print(y)
y.sum().backward()
print(x.grad)
"""
    on = run_inprocess(source, ("eval", "-"))
    off = run_inprocess(source, ("eval", "--no-replay", "-"))
    assert on.returncode == 0, on.stderr
    assert (on.stdout, on.stderr) == (off.stdout, off.stderr)
    assert len(set(on.stdout.splitlines()[:6])) == 6
