"""Record tests/golden/calculus.json from real PyTorch.

Run with the torch venv (torch is never a test dependency):

    $TORCH_PYTHON scripts/gen_golden.py calculus

Each case is a program in the common subset of Python and gradcli (SOURCE)
and an expression (EXPR) evaluated after it.  Here SOURCE runs with
``torch.set_default_dtype(torch.float64)`` in a namespace holding every
public name of ``torch`` (so ``tensor``, ``exp``, ``softmax`` ... are torch's)
plus ``torch``, ``F`` and the aliases ``grad = torch.autograd.grad``,
``jacobian``/``hessian`` (``torch.autograd.functional``); then EXPR is
evaluated.  Recorded per case:

  "source", "expr"
  "text":   repr(result) (``<X object at 0x..>`` normalised to ``<X>``)
  "value":  the result as a tree: {"tensor": nested list, "shape", "dtype",
            "requires_grad", "grad_fn"} | {"tuple": [...]} | {"scalar": v}
            (non-finite numbers as the strings "nan", "inf", "-inf")
  or "error": {"type", "message"} if SOURCE or EXPR raised.

tests/library/test_calculus.py runs the same SOURCE and EXPR in gradcli and compares.
"""

import math
import os
import re

import torch

from golden.record import write


_OBJ_RE = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*) object at 0x[0-9a-fA-F]+>")

X3 = "x = tensor([0.5, -1.2, 2.0], requires_grad=True)\n"
A = "A = tensor([[1.0, -2.0, 0.5], [0.3, 1.5, -1.0]])\n"
M = "M = tensor([[0.9, -0.4], [1.3, 0.2]], requires_grad=True)\n"

# name -> (source, expr)
CASES = {
    # ------------------------------------------------------------ grad
    "grad/pow3": ("x = tensor(2.0, requires_grad=True)\ny = x ** 3\n", "grad(y, x)"),
    "grad/two_inputs": (
        "a = tensor([1.0, 2.0], requires_grad=True)\n"
        "b = tensor([3.0, -1.0], requires_grad=True)\ny = (a * b + a ** 2).sum()\n",
        "grad(y, (a, b))",
    ),
    "grad/grad_outputs": (
        X3 + "y = x.exp() * 2\n",
        "grad(y, x, grad_outputs=tensor([1.0, 0.5, -2.0]))",
    ),
    "grad/leaves_grad_untouched": (X3 + "g = grad((x ** 2).sum(), x)\n", "x.grad"),
    "grad/matrix": (M + "y = (M @ M).sum()\n", "grad(y, M)[0]"),
    "grad/unused_input": (
        "a = tensor([1.0], requires_grad=True)\n"
        "b = tensor([2.0], requires_grad=True)\ny = (a * 2).sum()\n",
        "grad(y, (a, b))",
    ),
    "grad/allow_unused": (
        "a = tensor([1.0], requires_grad=True)\n"
        "b = tensor([2.0], requires_grad=True)\ny = (a * 2).sum()\n",
        "grad(y, (a, b), allow_unused=True)",
    ),
    "grad/non_scalar": (X3 + "y = x * 2\n", "grad(y, x)"),
    "grad/second_call": (X3 + "y = (x * x).sum()\ng = grad(y, x)\n", "grad(y, x)"),
    "grad/retain_graph": (
        X3 + "y = (x * x).sum()\ng = grad(y, x, retain_graph=True)\n",
        "grad(y, x)",
    ),
    "grad/torch_prefix": (X3, "torch.autograd.grad(x.sin().sum(), x)"),
    # ------------------------------------------------------------ higher orders
    "higher/sin_1": (
        "x = tensor(0.7, requires_grad=True)\ny = sin(x)\n",
        "grad(y, x, create_graph=True)[0]",
    ),
    "higher/sin_2": (
        "x = tensor(0.7, requires_grad=True)\ny = sin(x)\ng1 = grad(y, x, create_graph=True)[0]\n",
        "grad(g1, x, create_graph=True)[0]",
    ),
    "higher/sin_3": (
        "x = tensor(0.7, requires_grad=True)\ny = sin(x)\n"
        "g1 = grad(y, x, create_graph=True)[0]\n"
        "g2 = grad(g1, x, create_graph=True)[0]\n",
        "grad(g2, x)[0]",
    ),
    "higher/sin_4_vec": (
        X3 + "g = x.sin().sum()\n"
        "for k in range(4):\n    g = grad(g, x, create_graph=True)[0].sum()\n",
        "g",
    ),
    "higher/pow3_3": (
        "x = tensor(1.5, requires_grad=True)\ny = x ** 3\n"
        "d1 = grad(y, x, create_graph=True)[0]\n"
        "d2 = grad(d1, x, create_graph=True)[0]\n",
        "grad(d2, x, create_graph=True)[0]",
    ),
    "higher/pow3_4": (
        "x = tensor(1.5, requires_grad=True)\ny = x ** 3\n"
        "d1 = grad(y, x, create_graph=True)[0]\n"
        "d2 = grad(d1, x, create_graph=True)[0]\n"
        "d3 = grad(d2, x, create_graph=True)[0]\n",
        "grad(d3, x, allow_unused=True)",
    ),
    "higher/exp_sin_3": (
        X3 + "y = (x.exp() * x.sin()).sum()\n"
        "d1 = grad(y, x, create_graph=True)[0]\n"
        "d2 = grad(d1.sum(), x, create_graph=True)[0]\n",
        "grad(d2.sum(), x, create_graph=True)[0]",
    ),
    "higher/tanh_3": (
        X3 + "y = x.tanh().sum()\n"
        "d1 = grad(y, x, create_graph=True)[0]\n"
        "d2 = grad(d1.sum(), x, create_graph=True)[0]\n",
        "grad(d2.sum(), x)[0]",
    ),
    "higher/sigmoid_2": (
        X3 + "y = x.sigmoid().sum()\nd1 = grad(y, x, create_graph=True)[0]\n",
        "grad(d1.sum(), x)[0]",
    ),
    "higher/log_sqrt_3": (
        "x = tensor([0.5, 1.2, 2.0], requires_grad=True)\n"
        "y = (x.log() + x.sqrt() + 1 / x).sum()\n"
        "d1 = grad(y, x, create_graph=True)[0]\n"
        "d2 = grad(d1.sum(), x, create_graph=True)[0]\n",
        "grad(d2.sum(), x)[0]",
    ),
    "higher/div_pow_tensor_2": (
        "a = tensor([0.5, 1.2, 2.0], requires_grad=True)\n"
        "b = tensor([1.5, -0.5, 2.5], requires_grad=True)\n"
        "y = (a ** b / (b * b + 1)).sum()\n"
        "ga, gb = grad(y, (a, b), create_graph=True)\n",
        "grad((ga * gb).sum(), (a, b))",
    ),
    "higher/backward_create_graph": (
        "x = tensor(2.0, requires_grad=True)\ny = x ** 3\ny.backward(create_graph=True)\n",
        "x.grad",
    ),
    "higher/backward_create_graph_2": (
        "x = tensor(2.0, requires_grad=True)\ny = x ** 3\n"
        "y.backward(create_graph=True)\ng = x.grad\nx.grad = None\n"
        "g.backward()\n",
        "x.grad",
    ),
    "higher/backward_create_graph_two_paths": (
        "x = tensor([2.0, 3.0], requires_grad=True)\n(x * x).sum().backward(create_graph=True)\n",
        "x.grad",
    ),
    "higher/backward_create_graph_accumulate": (
        "x = tensor([2.0, 3.0], requires_grad=True)\n"
        "(x * x).sum().backward(create_graph=True)\n"
        "(x * x * x).sum().backward(create_graph=True)\n",
        "x.grad",
    ),
    "higher/backward_create_graph_constant": (
        "z = tensor(2.0, requires_grad=True)\n(z * 3).backward(create_graph=True)\n",
        "z.grad",
    ),
    "higher/retain_grad_create_graph": (
        "a = tensor(1.5, requires_grad=True)\nb = a * a\n"
        "b.retain_grad()\nc = b * b + b\n"
        "c.backward(create_graph=True)\n",
        "(b.grad, a.grad)",
    ),
    "higher/pow_by_0_1_2": (
        "x = tensor(1.5, requires_grad=True)\n"
        "d1 = grad(x.square() + x ** 2 + x ** 1 + x ** 0, x, create_graph=True)[0]\n"
        "d2 = grad(d1, x, create_graph=True)[0]\n",
        "(d1, d2, grad(d2, x, create_graph=True)[0])",
    ),
    "higher/matrix_2": (
        M + "y = (M @ M @ M).sum()\ng = grad(y, M, create_graph=True)[0]\n",
        "grad((g * g).sum(), M)[0]",
    ),
    "higher/softmax_2": (
        X3 + "w = tensor([1.0, -2.0, 0.5])\ny = (softmax(x, 0) * w).sum()\n"
        "g = grad(y, x, create_graph=True)[0]\n",
        "grad((g ** 2).sum(), x)[0]",
    ),
    "higher/norm_2": (X3 + "g = grad(x.norm(), x, create_graph=True)[0]\n", "grad(g[0], x)[0]"),
    "higher/mean_var_2": (
        X3 + "g = grad(x.var() + x.mean() ** 2, x, create_graph=True)[0]\n",
        "grad(g[1], x)[0]",
    ),
    "higher/max_abs_relu_2": (
        X3 + "y = (x.abs() * x + x.relu() ** 2 + x.max() * x).sum()\n"
        "g = grad(y, x, create_graph=True)[0]\n",
        "grad(g.sum(), x)[0]",
    ),
    "higher/cat_index_2": (
        X3 + "y = (cat([x, x[1:] * x[0]]) ** 2).sum()\ng = grad(y, x, create_graph=True)[0]\n",
        "grad(g.sum(), x)[0]",
    ),
    "higher/logsumexp_3": (
        X3 + "y = logsumexp(x, 0)\n"
        "g = grad(y, x, create_graph=True)[0]\n"
        "h = grad(g[0], x, create_graph=True)[0]\n",
        "grad(h[0], x)[0]",
    ),
    # ------------------------------------------------------------ jacobian
    "jacobian/square": ("def f(x):\n    return x ** 2\n", "jacobian(f, tensor([1.0, 2.0, 3.0]))"),
    "jacobian/exp_sin": (X3, "jacobian(lambda t: t.exp() * t.sin(), x)"),
    "jacobian/builtin_exp": ("", "jacobian(exp, tensor([0.0, 1.0]))"),
    "jacobian/torch_prefix": (
        "",
        "torch.autograd.functional.jacobian(torch.tanh, tensor([0.0, 1.0]))",
    ),
    "jacobian/scalar_out": (X3, "jacobian(lambda t: (t ** 3).sum(), x)"),
    "jacobian/scalar_in": ("", "jacobian(lambda t: t * tensor([1.0, 2.0, 3.0]), tensor(2.0))"),
    "jacobian/mv": (A + "def f(v):\n    return A @ v\n", "jacobian(f, tensor([1.0, 2.0, 3.0]))"),
    "jacobian/wrt_matrix": (
        "v = tensor([1.0, -1.0, 2.0])\ndef f(W):\n    return W @ v\n",
        "jacobian(f, tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]]))",
    ),
    "jacobian/mm": (
        "def f(X):\n    return X.mm(X)\n",
        "jacobian(f, tensor([[1.0, 2.0], [3.0, 4.0]]))",
    ),
    "jacobian/matmul": (
        "B = tensor([[1.0, 0.5], [-1.0, 2.0], [0.0, 3.0]])\n"
        "def f(X):\n    return matmul(X, B).tanh()\n",
        "jacobian(f, tensor([[0.1, 0.2, 0.3], [-0.4, 0.5, -0.6]]))",
    ),
    "jacobian/softmax": (
        "def f(x):\n    return softmax(x, dim=0)\n",
        "jacobian(f, tensor([1.0, 2.0, 0.5]))",
    ),
    "jacobian/softmax_2d": (
        "def f(x):\n    return softmax(x, dim=1)\n",
        "jacobian(f, tensor([[1.0, 2.0], [0.5, -1.0]]))",
    ),
    "jacobian/log_softmax": ("", "jacobian(lambda x: log_softmax(x, 0), tensor([1.0, 2.0, 0.5]))"),
    "jacobian/norm": (X3, "jacobian(lambda t: t.norm(), x)"),
    "jacobian/norm_dim": (
        "",
        "jacobian(lambda t: t.norm(dim=1), tensor([[3.0, 4.0], [1.0, -1.0]]))",
    ),
    "jacobian/two_inputs": (
        "a = tensor([1.0, 2.0])\nb = tensor([3.0, 4.0, 5.0])\n"
        "def f(a, b):\n    return outer(a, b).sum(0) + b.sum()\n",
        "jacobian(f, (a, b))",
    ),
    "jacobian/two_outputs": (
        "def f(x):\n    return x ** 2, x.sum()\n",
        "jacobian(f, tensor([1.0, 2.0]))",
    ),
    "jacobian/tuples": (
        "def f(a, b):\n    return a * b, a + b.exp()\n",
        "jacobian(f, (tensor([1.0, 2.0]), tensor([0.5, -1.0])))",
    ),
    "jacobian/one_tuple_input": ("", "jacobian(lambda t: t.sin(), (tensor([1.0, 2.0]),))"),
    "jacobian/unused_input": (
        "def f(a, b):\n    return a * 2\n",
        "jacobian(f, (tensor([1.0, 2.0]), tensor([3.0])))",
    ),
    "jacobian/constant_output": (
        "",
        "jacobian(lambda t: tensor([1.0, 2.0]), tensor([1.0, 2.0, 3.0]))",
    ),
    "jacobian/create_graph": (X3, "jacobian(lambda t: t ** 3, x, create_graph=True)"),
    "jacobian/requires_grad_input": (X3, "jacobian(lambda t: t ** 2, x)"),
    "jacobian/prod_zero": ("", "jacobian(lambda t: t.prod(), tensor([2.0, 0.0, 3.0]))"),
    "jacobian/max_dim": ("", "jacobian(lambda t: t.max(1)[0], tensor([[1.0, 5.0], [4.0, 2.0]]))"),
    "jacobian/index_stack": (
        "",
        "jacobian(lambda t: stack([t[0] * t[1], t[2:].sum()]), tensor([1.0, 2.0, 3.0, 4.0]))",
    ),
    "jacobian/not_tensor_output": ("", "jacobian(lambda t: 3, tensor([1.0]))"),
    # ------------------------------------------------------------ hessian
    "hessian/cube": ("def f(x):\n    return (x ** 3).sum()\n", "hessian(f, tensor([1.0, 2.0]))"),
    "hessian/exp_sin": (X3, "hessian(lambda t: (t.exp() * t.sin()).sum(), x)"),
    "hessian/norm": (X3, "hessian(lambda t: t.norm(), x)"),
    "hessian/quadratic_mv": (
        A + "def f(x):\n    return (A @ x).pow(2).sum()\n",
        "hessian(f, tensor([1.0, 2.0, 3.0]))",
    ),
    "hessian/quadratic_form": (
        "Q = tensor([[2.0, 1.0], [0.0, 3.0]])\ndef f(x):\n    return x @ Q @ x\n",
        "hessian(f, tensor([1.0, -1.0]))",
    ),
    "hessian/matrix_trace": (
        "def f(X):\n    return (X @ X).trace()\n",
        "hessian(f, tensor([[1.0, 2.0], [3.0, 4.0]]))",
    ),
    "hessian/matrix_mm_t": (
        "def f(W):\n    return (W.mm(W.t())).sin().sum()\n",
        "hessian(f, tensor([[0.1, 0.2], [0.3, -0.4]]))",
    ),
    "hessian/softmax": (
        "def f(x):\n    return softmax(x, dim=0)[0]\n",
        "hessian(f, tensor([1.0, 2.0, 0.5]))",
    ),
    "hessian/logsumexp": ("", "hessian(lambda t: logsumexp(t, 0), tensor([1.0, 2.0, 0.5]))"),
    "hessian/log_softmax_ce": (
        "def f(x):\n    return -log_softmax(x, 0)[1]\n",
        "hessian(f, tensor([0.2, -0.3, 1.1]))",
    ),
    "hessian/two_inputs": (
        "def f(a, b):\n    return (a * b.exp()).sum()\n",
        "hessian(f, (tensor([1.0, 2.0]), tensor([0.5, -1.0])))",
    ),
    "hessian/mlp": (
        "v = tensor([0.5, -1.0, 2.0])\ndef f(W, b):\n    return ((W @ v + b).tanh() ** 2).sum()\n",
        "hessian(f, (tensor([[0.1, 0.2, 0.3], [-0.2, 0.1, 0.4]]), tensor([0.1, -0.1])))",
    ),
    "hessian/prod": ("", "hessian(lambda t: t.prod(), tensor([1.0, 2.0, 3.0]))"),
    "hessian/prod_zero": ("", "hessian(lambda t: t.prod(), tensor([1.0, 0.0, 3.0]))"),
    "hessian/std": (X3, "hessian(lambda t: t.std(), x)"),
    "hessian/sigmoid_tanh_mean": (X3, "hessian(lambda t: (t.sigmoid() * t.tanh()).mean(), x)"),
    "hessian/div_norm": (X3, "hessian(lambda t: (t / t.norm()).sum(), x)"),
    "hessian/linear": (X3, "hessian(lambda t: (t * 2).sum(), x)"),
    "hessian/scalar": ("", "hessian(lambda t: t ** 4, tensor(1.5))"),
    "hessian/keepdim_1x1": (
        "",
        "hessian(lambda t: (t ** 3).sum(0, keepdim=True), tensor([1.0, 2.0]))",
    ),
    "hessian/create_graph": (X3, "hessian(lambda t: (t ** 4).sum(), x, create_graph=True)"),
    "hessian/non_scalar": ("", "hessian(lambda t: t ** 2, tensor([1.0, 2.0]))"),
    "hessian/tuple_output": ("", "hessian(lambda t: (t.sum(), t.sum()), tensor([1.0, 2.0]))"),
    "hessian/pow_tensor": (
        "def f(a, b):\n    return (a ** b).sum()\n",
        "hessian(f, (tensor([0.5, 2.0]), tensor([1.5, 3.0])))",
    ),
}


def _enc(v):
    if isinstance(v, float):
        if math.isnan(v):
            return "nan"
        if math.isinf(v):
            return "inf" if v > 0 else "-inf"
        return v
    if isinstance(v, list):
        return [_enc(x) for x in v]
    return v


def encode(r):
    if isinstance(r, torch.Tensor):
        return {
            "tensor": _enc(r.detach().tolist()),
            "shape": list(r.shape),
            "dtype": str(r.dtype).replace("torch.", ""),
            "requires_grad": r.requires_grad,
            "grad_fn": None if r.grad_fn is None else type(r.grad_fn).__name__,
        }
    if isinstance(r, (tuple, list)):
        return {"tuple": [encode(x) for x in r]}
    if r is None or isinstance(r, (bool, int, float, str)):
        return {"scalar": _enc(r)}
    raise TypeError(f"cannot encode {type(r)}")


def namespace():
    ns = {k: getattr(torch, k) for k in dir(torch) if not k.startswith("_")}
    ns.update(
        {
            "torch": torch,
            "F": torch.nn.functional,
            "grad": torch.autograd.grad,
            "jacobian": torch.autograd.functional.jacobian,
            "hessian": torch.autograd.functional.hessian,
        }
    )
    for name in ("range", "len", "print", "abs", "float", "int", "list", "tuple"):
        ns.pop(name, None)
    return ns


def run_case(source, expr):
    torch.set_default_dtype(torch.float64)
    ns = namespace()
    try:
        exec(compile(source, "<case>", "exec"), ns)
        r = eval(compile(expr, "<expr>", "eval"), ns)
    except Exception as e:  # noqa: BLE001
        return {"error": {"type": type(e).__name__, "message": str(e).split("\n")[0]}}
    return {"text": _OBJ_RE.sub(r"<\1>", repr(r)), "value": encode(r)}


def main(argv):
    out = {}
    for name, (source, expr) in CASES.items():
        rec = {"source": source, "expr": expr}
        rec.update(run_case(source, expr))
        out[name] = rec
    path = write("calculus.json", out, indent=1, sort_keys=False)
    print(f"wrote {len(out)} cases to {os.path.relpath(path)}")
