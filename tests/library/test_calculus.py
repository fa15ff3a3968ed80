"""Calculus beyond backward: grad, higher orders, jacobian, hessian,
gradcheck and graph pictures.

tests/golden/calculus.json is recorded from real PyTorch 2.13 by
scripts/gen_golden.py calculus: each case is SOURCE (a program in the common
subset of Python and gradcli) and EXPR.  Here SOURCE runs in an in-process
gradcli session followed by ``RESULT = EXPR``, and RESULT must match torch's
result: the same structure (tensor / tuple / tuple of tuples), shapes,
dtypes, requires_grad and grad_fn, values within 1e-9 (relative), and the
displayed text exactly.  A case where torch raised must raise a gradcli error
of the same type whose message contains torch's first line.
"""

from __future__ import annotations

import io
import json
import math
import re
from pathlib import Path

import numpy as np
import pytest

from gradcli.runtime.errors import GradError
from gradcli.output import TextOutput
from gradcli.core.printing import show
from gradcli.session import Session
from gradcli.core.tensor import Tensor

GOLDEN = json.loads((Path(__file__).parents[1] / "golden" / "calculus.json").read_text())


def run(source):
    """Run gradcli source in a fresh session; (session, printed text)."""
    buf = io.StringIO()
    s = Session(TextOutput(stream=buf))
    s.run(source)
    return s, buf.getvalue()


def _dec(v):
    if isinstance(v, list):
        return [_dec(x) for x in v]
    if isinstance(v, str):
        return {"nan": math.nan, "inf": math.inf, "-inf": -math.inf}[v]
    return v


def compare(got, want, where="result"):
    if "tuple" in want:
        assert isinstance(got, tuple), f"{where}: expected a tuple, got {got!r}"
        assert len(got) == len(want["tuple"]), f"{where}: tuple length"
        for k, (g, w) in enumerate(zip(got, want["tuple"])):
            compare(g, w, f"{where}[{k}]")
        return
    if "scalar" in want:
        assert not isinstance(got, Tensor), f"{where}: expected {want['scalar']!r}"
        assert got == _dec(want["scalar"]) or (got is None and want["scalar"] is None), where
        return
    assert isinstance(got, Tensor), f"{where}: expected a tensor, got {got!r}"
    assert list(got.data.shape) == want["shape"], f"{where}: shape"
    assert got.data.dtype.name == want["dtype"], f"{where}: dtype"
    assert got.requires_grad == want["requires_grad"], f"{where}: requires_grad"
    assert (got.grad_fn.name if got.grad_fn is not None else None) == want["grad_fn"], (
        f"{where}: grad_fn"
    )
    expect = np.array(_dec(want["tensor"]), dtype=np.float64).reshape(want["shape"])
    np.testing.assert_allclose(
        got.data.astype(np.float64), expect, rtol=1e-9, atol=1e-12, equal_nan=True, err_msg=where
    )


def _norm(msg):
    return re.sub(r"\s+", " ", msg).strip().lower()


@pytest.mark.parametrize("name", list(GOLDEN))
def test_golden(name):
    case = GOLDEN[name]
    program = case["source"] + f"RESULT = {case['expr']}\n"
    if "error" in case:
        with pytest.raises(GradError) as info:
            run(program)
        err = case["error"]
        assert info.value.type_name == err["type"], info.value.message
        assert _norm(err["message"]) in _norm(info.value.message)
        return
    s, _ = run(program)
    got = s.scope.vars["RESULT"]
    compare(got, case["value"])
    assert show(got) == case["text"]


# ---------------------------------------------------------------- eval from the command line


def test_eval_cli(capsys):
    from gradcli.cli import main

    code = (
        "x = tensor([1., 2.], requires_grad=True)\n"
        "jacobian(lambda t: t ** 2, x)\n"
        "hessian(lambda t: (t ** 3).sum(), x)\n"
        "torch.autograd.functional.jacobian(exp, tensor([0.]))\n"
        "gradcheck(lambda t: t.sin() * t, x)\n"
    )
    rc = main(["eval", "-e", code])
    out = capsys.readouterr().out
    assert rc in (0, None)
    assert out.startswith(
        "tensor([[2., 0.],\n        [0., 4.]])\ntensor([[ 6.,  0.],\n"
        "        [ 0., 12.]])\ntensor([[1.]])\n"
    )
    assert "gradcheck: input 0 (x, shape [2]): worst abs error" in out
    assert out.endswith("gradcheck: passed (eps=1e-06, atol=1e-05, rtol=0.001)\nTrue\n")


# ---------------------------------------------------------------- gradcheck built-in


def test_gradcheck_builtin_reports_per_input():
    s, out = run(
        "a = tensor([[0.5, -1.0], [2.0, 0.3]], requires_grad=True)\n"
        "b = tensor([1.5, -0.5], requires_grad=True)\n"
        "ok = gradcheck(lambda p, q: (p @ q).tanh() * q.exp(), (a, b))\n"
    )
    assert s.scope.vars["ok"] is True
    lines = out.splitlines()
    assert lines[0].startswith("gradcheck: input 0 (a, shape [2, 2]): worst abs error ")
    assert lines[1].startswith("gradcheck: input 1 (b, shape [2]): worst abs error ")
    assert "worst rel error" in lines[0]
    assert lines[-1] == "gradcheck: passed (eps=1e-06, atol=1e-05, rtol=0.001)"


def test_gradcheck_failure_names_input_and_element():
    # abs at 0: analytic 0 (sign), numerical 0 as well; a kink the check sees: relu-like step
    s, out = run(
        "def f(t):\n    return floor(t * 2) + t\n"
        "x = tensor([0.25, 0.5 + 0.0000002], requires_grad=True)\n"
        "ok = gradcheck(f, x)\n"
    )
    assert s.scope.vars["ok"] is False
    assert (
        "gradcheck: Jacobian mismatch for output 0 with respect to input 0 (x), "
        "element [1] (output element [1]): analytical 1, numerical"
    ) in out
    assert out.splitlines()[-1].startswith("gradcheck: failed")


def test_gradcheck_builtin_function_and_tuple_outputs():
    s, out = run(
        "ok1 = gradcheck(exp, tensor([0.1, 0.2], requires_grad=True))\n"
        "ok2 = gradcheck(lambda t: (t.max(0), t.sum()), "
        "tensor([[1., 2.], [3., 0.5]], requires_grad=True))\n"
        "ok3 = gradcheck(lambda t: t.norm(), tensor([3., 4.]), eps=1e-7, atol=1e-6)\n"
    )
    assert s.scope.vars["ok1"] is True
    assert s.scope.vars["ok3"] is True
    assert "atol=1e-06" in out


def test_gradcheck_float32_input_checked_in_float64():
    s, out = run(
        "x = tensor([0.3, 0.7], dtype=float32, requires_grad=True)\n"
        "ok = gradcheck(lambda t: t.sigmoid(), x)\n"
    )
    assert s.scope.vars["ok"] is True


def test_gradcheck_reachable_as_torch_autograd():
    s, out = run("ok = torch.autograd.gradcheck(torch.sin, (tensor([0.1], requires_grad=True),))\n")
    assert s.scope.vars["ok"] is True


# ---------------------------------------------------------------- more higher-order behaviour


def test_third_derivative_chain_matches_closed_form():
    # d^3/dx^3 [exp(x) sin(x)] = 2 e^x (cos x - sin x)
    s, _ = run(
        "x = tensor([0.3, -0.8, 1.7], requires_grad=True)\n"
        "g = (x.exp() * x.sin()).sum()\n"
        "for k in range(3):\n    g = grad(g, x, create_graph=True)[0].sum() "
        "if k < 2 else grad(g, x, create_graph=True)[0]\n"
    )
    x = np.array([0.3, -0.8, 1.7])
    np.testing.assert_allclose(s.scope.vars["g"].data, 2 * np.exp(x) * (np.cos(x) - np.sin(x)))


def test_create_graph_keeps_leaf_grad_differentiable():
    s, out = run(
        "x = tensor(3., requires_grad=True)\n"
        "y = x ** 4\n"
        "backward(y, create_graph=True)\n"
        "g = x.grad\n"
        "x.grad = None\n"
        "g.backward()\n"
        "print(g, x.grad)\n"
    )
    assert out == "tensor(108., grad_fn=<CopyBackwards>) tensor(108.)\n"


def test_not_twice_differentiable_op_raises_clear_error():
    from gradcli.engine.autograd import run_backward
    from gradcli.engine.function import Function

    class OnceOnly(Function):
        __slots__ = ()
        name = "OnceOnlyBackward0"
        differentiable_twice = False

        def forward(self, x):
            self.save(x)
            return x * x

        def backward(self, g, F, x):
            return (g * 2 * x,)

    x = Tensor(np.array([1.0, 2.0]), requires_grad=True)
    y = OnceOnly.apply(x)
    # first order is fine
    (g,) = run_backward([y], [Tensor(np.ones(2))], retain_graph=True, inputs=[x])
    np.testing.assert_allclose(g.data, [2.0, 4.0])
    with pytest.raises(GradError, match="OnceOnlyBackward0 cannot be differentiated twice"):
        run_backward([y], [Tensor(np.ones(2))], create_graph=True, inputs=[x])


def test_hessian_of_user_function_with_control_flow():
    s, _ = run(
        "def f(x):\n"
        "    if x.sum() > 0:\n"
        "        return (x ** 3).sum()\n"
        "    return (x ** 2).sum()\n"
        "H1 = hessian(f, tensor([1., 2.]))\n"
        "H2 = hessian(f, tensor([-1., -2.]))\n"
    )
    np.testing.assert_allclose(s.scope.vars["H1"].data, [[6.0, 0.0], [0.0, 12.0]])
    np.testing.assert_allclose(s.scope.vars["H2"].data, [[2.0, 0.0], [0.0, 2.0]])


def test_jacobian_does_not_touch_input_grad():
    s, _ = run(
        "x = tensor([1., 2.], requires_grad=True)\nJ = jacobian(lambda t: t * t, x)\ng = x.grad\n"
    )
    assert s.scope.vars["g"] is None


# ---------------------------------------------------------------- graph pictures


def test_graph_text_tree():
    s, out = run("x = ones(2, 2, requires_grad=True)\nout = mean(3 * (x + 2) ^ 2)\ngraph(out)\n")
    assert out == (
        "MeanBackward0\n"
        "└── MulBackward0\n"
        "    └── PowBackward0\n"
        "        └── AddBackward0\n"
        "            └── x [2, 2]\n"
    )


def test_graph_text_branches_shared_nodes_and_unnamed_leaves():
    s, out = run(
        "a = tensor([1., 2.], requires_grad=True)\n"
        "b = tensor(3., requires_grad=True)\n"
        "h = a * b\n"
        "z = h + h.exp() + tensor([1., 1.], requires_grad=True)\n"
        "print(graph(z))\n"
    )
    assert out == (
        "AddBackward0\n"
        "├── AddBackward0\n"
        "│   ├── MulBackward0\n"
        "│   │   ├── a [2]\n"
        "│   │   └── b []\n"
        "│   └── ExpBackward0\n"
        "│       └── MulBackward0 (see above)\n"
        "└── <leaf> [2]\n"
    )


def test_graph_of_leaf_and_constant():
    s, out = run("x = tensor([1., 2.], requires_grad=True)\nc = tensor([1.])\ngraph(x)\ngraph(c)\n")
    assert out == "x [2]\nc [1] (does not require grad: no graph)\n"


def parse_dot(text):
    """A small DOT reader: (graph kind, {id: attrs}, [(src, dst)])."""
    m = re.fullmatch(r"\s*(digraph)\s+\w*\s*\{(.*)\}\s*", text, re.S)
    assert m, text
    body = m.group(2)
    nodes, edges = {}, []
    for stmt in body.split(";"):
        stmt = stmt.strip()
        if not stmt or re.fullmatch(r"(rankdir\s*=\s*\w+|node\s*\[.*\]|edge\s*\[.*\])", stmt, re.S):
            continue
        e = re.fullmatch(r"(\w+)\s*->\s*(\w+)", stmt)
        if e:
            edges.append((e.group(1), e.group(2)))
            continue
        n = re.fullmatch(r"(\w+)\s*\[(.*)\]", stmt, re.S)
        assert n, f"unparsed DOT statement: {stmt!r}"
        attrs = dict(re.findall(r'(\w+)\s*=\s*("(?:[^"\\]|\\.)*"|[\w.]+)', n.group(2)))
        nodes[n.group(1)] = {k: v.strip('"') for k, v in attrs.items()}
    for a, b in edges:
        assert a in nodes and b in nodes
    return m.group(1), nodes, edges


def test_graph_dot():
    s, out = run(
        "x = tensor([1., 2.], requires_grad=True)\n"
        "w = tensor([[1., 0.], [2., 1.]], requires_grad=True)\n"
        "y = (w @ x).tanh().sum() + (x * x).sum()\n"
        'd = graph(y, "dot")\n'
    )
    kind, nodes, edges = parse_dot(s.scope.vars["d"])
    assert kind == "digraph"
    labels = {k: v["label"] for k, v in nodes.items()}
    by_label = {}
    for k, v in labels.items():
        by_label.setdefault(v, []).append(k)
    assert sorted(labels.values()) == sorted(
        [
            "AddBackward0",
            "SumBackward0",
            "SumBackward0",
            "TanhBackward0",
            "MvBackward0",
            "MulBackward0",
            "x\\n[2]",
            "w\\n[2, 2]",
        ]
    )
    (x,), (w,), (mv,), (mul,) = (
        by_label["x\\n[2]"],
        by_label["w\\n[2, 2]"],
        by_label["MvBackward0"],
        by_label["MulBackward0"],
    )
    (add,) = by_label["AddBackward0"]
    # every node has edges only towards the output; x feeds mv and (twice) mul
    assert (w, mv) in edges and (x, mv) in edges and edges.count((x, mul)) == 2
    assert all(b != x and b != w for _, b in edges)  # leaves have no inputs
    assert not any(a == add for a, _ in edges)  # the output feeds nothing
    assert nodes[x]["shape"] == "ellipse" and nodes[mv]["shape"] == "box"


def test_graph_dot_renders_with_graphviz_if_available(tmp_path):
    import shutil
    import subprocess

    if not shutil.which("dot"):
        pytest.skip("graphviz not installed")
    s, _ = run('x = tensor([1., 2.], requires_grad=True)\nd = graph((x.exp() * x).sum(), "dot")\n')
    r = subprocess.run(["dot", "-Tsvg"], input=s.scope.vars["d"], capture_output=True, text=True)
    assert r.returncode == 0 and "<svg" in r.stdout


def test_graph_long_chain_is_capped_and_fast():
    s, out = run(
        "x = tensor(1., requires_grad=True)\n"
        "y = x\n"
        "for i in range(5000):\n    y = y * 1.0001\n"
        'p = graph(y)\nq = graph(y, "dot")\n'
    )
    p = s.scope.vars["p"]
    assert p.splitlines()[-1].startswith("... (")
    assert len(p.splitlines()) <= 1001
    assert s.scope.vars["q"].count("->") == 5000


def test_graph_json_output(capsys):
    from gradcli.cli import main

    main(["eval", "--json", "-e", "x = tensor([1.], requires_grad=True)\ngraph(x.exp())"])
    rec = json.loads(capsys.readouterr().out.splitlines()[-1])
    assert rec["kind"] == "value" and rec["text"] == "ExpBackward0\n└── x [1]"


def test_a_jacobian_finds_what_leads_to_its_inputs_once_per_output(monkeypatch):
    """The rows of a Jacobian are passes of autograd.grad over one graph: the nodes on a
    path to the inputs are found once per output (engine/autograd.one_graph), not per
    row, and nothing of it is kept after the Jacobian; the values are the bits found
    per row (one_graph replaced by a block that does nothing)."""
    import contextlib

    from gradcli.engine import autograd
    from gradcli.library import calculus

    calls = [0]
    real = autograd._needed

    def counted(roots, capture):
        calls[0] += 1
        return real(roots, capture)

    source = (
        "x = torch.tensor([0.5, -1.0, 2.0], dtype=torch.float64)\n"
        "def f(x):\n    return (torch.tanh(x) * x, x.sum() * x)\n"
        "J = torch.autograd.functional.jacobian(f, x)\n"
        "H = torch.autograd.functional.hessian(lambda x: (torch.sin(x) ** 3).sum(), x)\n"
    )
    monkeypatch.setattr(autograd, "_needed", counted)
    s, _ = run(source)
    assert calls[0] == 2 + 2  # (jacobian: one per output; hessian: its inner pass, then one)
    assert autograd._ONE_GRAPH.memo is None
    monkeypatch.setattr(calculus, "one_graph", contextlib.nullcontext)
    t, _ = run(source)
    # (without the block: a Jacobian's first row finds them for its own pass, and the
    # other rows' passes, which share one plan, once more)
    assert calls[0] == 4 + 2 * 2 + 1 + 2
    for name in ("J", "H"):
        a, b = s.scope.vars[name], t.scope.vars[name]
        a, b = (a if isinstance(a, tuple) else (a,)), (b if isinstance(b, tuple) else (b,))
        for u, v in zip(a, b):
            assert u.data.tobytes() == v.data.tobytes()
