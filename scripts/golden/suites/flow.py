"""Record tests/golden/flow.json from real PyTorch: the gradient that
flows into each intermediate value during backward, which gradcli shows in
`graph(y, values=true)` and in the backward trace.

Run with the torch venv (torch is never a test dependency):

    $TORCH_PYTHON scripts/gen_golden.py flow

Each case is a program in the common subset of Python and gradcli (SOURCE,
run with float64 as the default dtype and torch's names in scope) that ends
with `out`, and the names of intermediate tensors in it (NAMES).  Each named
tensor gets `retain_grad()`, `out.backward()` runs, and the recorded values are
every named tensor's `.grad` (the gradient that flowed into the node that made
it) and every leaf's `.grad`.  tests/engine/test_trace.py runs SOURCE in gradcli,
then `backward out, trace=true`, and compares both the engine's record of the
flow (graph values) and the trace's `grad_in` of each of those nodes.
"""

import torch

from golden.record import write


# name -> (source, intermediate names, leaf names)
CASES = {
    "tutorial": (
        "x = ones(2, 2, requires_grad=True)\ny = x + 2\nz = y * y * 3\nout = z.mean()\n",
        ["y", "z"],
        ["x"],
    ),
    "diamond": (
        "a = tensor([0.5, -1.0, 2.0], requires_grad=True)\nh = exp(a)\n"
        "s = sin(h)\nt = h * 3\nout = (s + t).sum()\n",
        ["h", "s", "t"],
        ["a"],
    ),
    "matmul": (
        "W = tensor([[0.2, -0.5], [1.5, 0.3], [-0.7, 0.9]], requires_grad=True)\n"
        "x = tensor([1.0, -2.0])\nb = tensor([0.1, 0.2, 0.3], requires_grad=True)\n"
        "h = W @ x + b\nr = relu(h)\nout = (r * r).sum()\n",
        ["h", "r"],
        ["W", "b"],
    ),
    "broadcast": (
        "w = tensor(1.5, requires_grad=True)\nv = tensor([1.0, 2.0, 3.0], requires_grad=True)\n"
        "p = v * w\nq = p.pow(2)\nout = q.sum() / 4\n",
        ["p", "q"],
        ["w", "v"],
    ),
    "softmax": (
        "x = tensor([[1.0, 2.0, 0.5], [0.1, -1.0, 3.0]], requires_grad=True)\n"
        "s = softmax(x, dim=1)\nl = log(s)\nout = -l[0, 1] - l[1, 2]\n",
        ["s", "l"],
        ["x"],
    ),
}


def main(argv):
    torch.set_default_dtype(torch.float64)
    out = {}
    for name, (source, names, leaves) in CASES.items():
        ns = {k: getattr(torch, k) for k in dir(torch) if not k.startswith("_")}
        ns.update({"torch": torch, "relu": torch.relu, "softmax": torch.softmax})
        code = compile(source, name, "exec")
        exec(code, ns)
        for n in names:
            ns[n].retain_grad()
        ns["out"].backward()
        out[name] = {
            "source": source,
            "flow": {
                n: {"grad_fn": type(ns[n].grad_fn).__name__, "grad": ns[n].grad.tolist()}
                for n in names
            },
            "leaves": {n: ns[n].grad.tolist() for n in leaves},
        }
    path = write("flow.json", out, indent=1, sort_keys=True)
    print(f"wrote {len(out)} cases to {path}")
