#!/usr/bin/env python3
"""What a replay of a recorded loop body could buy, measured on the
tutorial's iteration ("Learning PyTorch with Examples", float32, 2,000 points):

1. through the language (what `gradcli eval` runs);
2. the same engine calls in order, without the language (`Mul.apply2`,
   `run_backward`, the in-place step): a replay that calls the engine's API;
3. the same forward methods and VJPs in a fixed order, each node's fields set
   directly, the backward order and routing fixed: a replay of a recorded plan;
4. the NumPy work alone (the kernels those methods reach, the exact sums in
   PyTorch's order, the four gradient sums together; no node, no Tensor): what a
   replay below the op methods, with every decision made once, could approach;
5. PyTorch eager, when `torch` can be imported (the goal's yardstick, measured in
   the same run: the goal is 0.5x of it).

Each a fresh session, in-process, the fastest of several runs; prints us per
iteration.  Run gradcli's rows with gradcli's venv (.venv/bin/python): with torch
imported into the same process they are about half slower; row 5 needs a Python
that has torch.  Not a test and not a goal (those are in scripts/bench.py): the
numbers a design for the replay starts from.    python scripts/replay_floor.py
"""

from __future__ import annotations

import io
import os
import sys
import textwrap
import timeit

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))

import numpy as np  # noqa: E402

from gradcli.runtime import context
from gradcli.runtime.gctune import tune
from gradcli.numerics.floats.fused import times_twice
from gradcli.numerics.floats.powers import torch_pow
from gradcli.numerics.sums.sum_rows import torch_sums
from gradcli.numerics.sums.summation import torch_sum
from gradcli.core.tensor import Tensor  # noqa: E402
from gradcli.engine.autograd import run_backward  # noqa: E402
from gradcli.engine.vjp_arrays import ArrayF  # noqa: E402
from gradcli.library.inplace import isub  # noqa: E402
from gradcli.ops.elementwise import Add, Mul, Sub  # noqa: E402
from gradcli.ops.power import PowScalar  # noqa: E402
from gradcli.ops.reduce import Sum  # noqa: E402
from gradcli.output import TextOutput  # noqa: E402
from gradcli.session import Session  # noqa: E402

import bench  # noqa: E402  (scripts/bench.py: the workload's text)

# the bench's tutorial workload, cut into its set-up and one iteration of its loop
# (t = 0: the loop's `if t % 100 == 99: print(...)` is tested, not taken)
_HEAD, _LOOP = bench.TUTORIAL.split("for t in range({n}):\n")
SETUP = "torch.manual_seed(0)\n" + _HEAD.format(dt="torch.float32") + "t = 0\n"
BODY = textwrap.dedent(_LOOP)
N = 1000


def session():
    s = Session(TextOutput(io.StringIO(), quiet=True))
    s.run(SETUP)
    return s


def language():
    s = session()
    body = s.compile(BODY)

    def it():
        for st, _ in body:
            st(s.scope)

    return it


def engine_calls():
    v = session().scope.vars
    a, b, c, d, x, y = (v[k] for k in "abcdxy")
    dt = x.data.dtype

    def it():
        t = Add.apply2(
            Add.apply2(
                Add.apply2(a, Mul.apply2(b, x, dt), dt),
                Mul.apply2(c, PowScalar.apply2(x, 2, dt), dt),
                dt,
            ),
            Mul.apply2(d, PowScalar.apply2(x, 3, dt), dt),
            dt,
        )
        loss = Sum.apply(PowScalar.apply2(Sub.apply2(t, y, dt), 2, dt))
        run_backward((loss,), (None,))
        ctx = context.current
        ctx.grad_enabled = False
        for p in (a, b, c, d):
            isub(p, Mul.apply2(p.grad, 1e-6, dt))
        for p in (a, b, c, d):
            p.grad = None
        ctx.grad_enabled = True

    return it


def _node(cls, parents, needs, srcs, *args):
    n = cls.__new__(cls)
    n.saved = ()
    out = np.asarray(n.forward(*args))
    n.parents, n.needs, n.watch, n.out_dtype, n.saved_src = parents, needs, None, out.dtype, srcs
    return n, Tensor(out, True, n)


def fixed_plan():
    v = session().scope.vars
    a, b, c, d, x, y = (v[k] for k in "abcdxy")
    xd, yd, dt = x.data, y.data, x.data.dtype
    lr = np.float32(1e-6)

    def it():
        n1, t1 = _node(Mul, (b, None), (True, False), (b, x), b.data, xd, dt)
        n3, t3 = _node(Mul, (c, None), (True, False), (c, None), c.data, torch_pow(xd, 2), dt)
        n5, t5 = _node(Mul, (d, None), (True, False), (d, None), d.data, torch_pow(xd, 3), dt)
        n6, t6 = _node(Add, (a, n1), (True, True), None, a.data, t1.data, dt)
        n7, t7 = _node(Add, (n6, n3), (True, True), None, t6.data, t3.data, dt)
        n8, t8 = _node(Add, (n7, n5), (True, True), None, t7.data, t5.data, dt)
        n9, t9 = _node(Sub, (n8, None), (True, False), None, t8.data, yd, dt)
        n10, t10 = _node(PowScalar, (n9, None), (True, False), (t9,), t9.data, 2, dt)
        n11, _ = _node(Sum, (n10,), (True,), None, t10.data)
        (g,) = n11.backward(np.array(1, dtype=dt), ArrayF)
        (g,) = n10.backward(g, ArrayF, *n10.saved)
        g, _ = n9.backward(g, ArrayF)
        g7, g5 = n8.backward(g, ArrayF)
        gd, _ = n5.backward(g5, ArrayF, *n5.saved)
        g6, g3 = n7.backward(g7, ArrayF)
        gc, _ = n3.backward(g3, ArrayF, *n3.saved)
        ga, g1 = n6.backward(g6, ArrayF)
        gb, _ = n1.backward(g1, ArrayF, *n1.saved)
        for p, gg in ((a, ga), (b, gb), (c, gc), (d, gd)):
            p.data[...] = p.data - lr * np.array(gg, dtype=dt)

    return it


def kernels_only():
    v = session().scope.vars
    a, b, c, d, x, y = (v[k] for k in "abcdxy")
    xd, yd, dt = x.data, y.data, x.data.dtype
    lr = np.float32(1e-6) if dt == np.float32 else 1e-6
    params = [p.data for p in (a, b, c, d)]

    def it():
        pa, pb, pc, pd = params
        x2, x3 = torch_pow(xd, 2), torch_pow(xd, 3)
        diff = pa + pb * xd + pc * x2 + pd * x3 - yd
        torch_sum(diff * diff)  # the loss
        g = times_twice(np.ones_like(diff), diff)  # (y_pred - y).pow(2)'s gradient
        grads = torch_sums([g, g * xd, g * x2, g * x3])
        for p, gg in zip(params, grads):
            p[...] = p - lr * np.asarray(gg, dtype=dt)

    return it


def torch_eager():
    try:
        import torch
    except ImportError:
        return None
    import math

    torch.manual_seed(0)
    dtype = torch.float32
    x = torch.linspace(-math.pi, math.pi, 2000, dtype=dtype)
    y = torch.sin(x)
    a, b, c, d = (torch.randn((), dtype=dtype, requires_grad=True) for _ in range(4))

    def it():
        y_pred = a + b * x + c * x**2 + d * x**3
        loss = (y_pred - y).pow(2).sum()
        loss.backward()
        with torch.no_grad():
            for p in (a, b, c, d):
                p -= 1e-6 * p.grad
                p.grad = None

    return it


def main():
    tune()
    for name, make in (
        ("through the language", language),
        ("engine calls, no language", engine_calls),
        ("a fixed plan (forward methods, VJPs in order)", fixed_plan),
        ("the NumPy work alone (no nodes, no tensors)", kernels_only),
        ("PyTorch eager", torch_eager),
    ):
        it = make()
        if it is None:
            print(f"{name:48} (torch not importable)")
            continue
        best = min(timeit.repeat(it, number=N, repeat=5)) / N
        print(f"{name:48} {best * 1e6:7.1f} us per iteration")


if __name__ == "__main__":
    main()
