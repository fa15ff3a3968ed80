"""explain(out, x), explain(out), `backward out, explain=true` and diff(f, x, n): the
documented examples' text (the tutorials' hand derivations, found by gradcli), the
--json record, the ASCII fallback, errors, and that start-up does not import SymPy."""

from __future__ import annotations

import json
import os
import subprocess
import sys
import textwrap

import pytest

pytest.importorskip("sympy")  # the explain extra (the test extra has it)

try:
    from conftest import ROOT, run_inprocess
except ImportError:  # tests/ became a package
    from tests.conftest import ROOT, run_inprocess

BLITZ = """\
x = torch.ones(2, 2, requires_grad=True)
y = x + 2
z = y * y * 3
out = z.mean()
"""

D2L = """\
x = torch.arange(4.0, requires_grad=True)
y = 2 * torch.dot(x, x)
"""

DOUBLING = """\
x = torch.tensor([0.5, -1.0, 0.25], requires_grad=True)
y = x * 2
while y.data.norm() < 1000:
    y = y * 2
"""


def run(source, *args, env=None):
    """(exit code, stdout, stderr) of `gradcli eval -` with formulas in Unicode."""
    old = {k: os.environ.get(k) for k in ("NO_COLOR", "TERM")}
    for k, v in (env or {"NO_COLOR": None, "TERM": "xterm"}).items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v
    try:
        r = run_inprocess(source, ("eval", *args, "-"))
        return r.returncode, r.stdout, r.stderr
    finally:
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v


def test_blitz_derivation_unaided():
    """The autograd blitz: o = 1/4 Σ 3(xᵢ+2)², so ∂o/∂xᵢ = 3/2 (xᵢ+2) = 4.5 at 1."""
    code, out, err = run(BLITZ + "explain(out, x)\nbackward out\nexplain(out, x)\n")
    assert code == 0, err
    first = textwrap.dedent("""\
        steps:      yᵢⱼ = xᵢⱼ + 2
                    zᵢⱼ = 3·yᵢⱼ²
                    out = Σᵢⱼ zᵢⱼ/4
        chain rule: ∂out/∂xᵢⱼ = ∂out/∂zᵢⱼ · ∂zᵢⱼ/∂yᵢⱼ · ∂yᵢⱼ/∂xᵢⱼ = 1/4 · 6·yᵢⱼ · 1
        derivative: ∂out/∂xᵢⱼ = 3·(xᵢⱼ + 2)/2
        value:      at x = 1 (every element): 9/2 = 4.5, equal to autograd's gradient
        """)
    assert out.startswith(first)
    # after backward: the same derivation, checked against x.grad itself
    assert out.endswith(first.replace("autograd's gradient", "x.grad"))


def test_blitz_ascii_under_no_color():
    code, out, err = run(BLITZ + "explain(out, x)\n", env={"NO_COLOR": "1"})
    assert code == 0, err
    assert "derivative: d out/d x_ij" not in out
    assert "derivative: dout/dx_ij = 3*(x_ij + 2)/2" in out
    assert "out = sum_ij z_ij/4" in out
    assert all(ord(c) < 128 for c in out), out


def test_dumb_terminal_is_ascii():
    code, out, _ = run(BLITZ + "explain(out, x)\n", env={"NO_COLOR": None, "TERM": "dumb"})
    assert code == 0 and all(ord(c) < 128 for c in out)


def test_d2l_dot_gives_4x():
    code, out, err = run(D2L + "explain(y, x)\n")
    assert code == 0, err
    assert "steps:      y = 2·Σᵢ xᵢ²\n" in out
    assert "derivative: ∂y/∂xᵢ = 4·xᵢ\n" in out
    assert "tensor([ 0.,  4.,  8., 12.]), equal to autograd's gradient" in out


def test_doubling_loop_is_two_to_the_k():
    code, out, err = run(DOUBLING + "explain(y.sum(), x)\n")
    assert code == 0, err
    assert "yᵢ = 2¹⁰·xᵢ" in out
    assert "derivative: ∂out/∂xᵢ = 2¹⁰\n" in out
    assert "2¹⁰ = 1024, equal to autograd's gradient" in out
    assert "a loop ran that many times for these values" in out


def test_backward_explain_true():
    code, out, err = run(BLITZ + "backward out, explain=true\n")
    assert code == 0, err
    grad, _, rest = out.partition("\nsteps:")
    assert grad.startswith("x.grad = tensor([[4.5000, 4.5000],")
    assert "∂out/∂xᵢⱼ = 3·(xᵢⱼ + 2)/2" in rest
    assert rest.rstrip().endswith("equal to x.grad")


def test_json_record_parses_back_in_sympy():
    import sympy

    code, out, err = run(BLITZ + "backward out\nexplain(out, x)\n", "--json")
    assert code == 0, err
    recs = [json.loads(line) for line in out.splitlines()]
    (rec,) = [r for r in recs if r["kind"] == "explain"]
    (d,) = rec["derivatives"]
    assert d["leaf"] == "x" and d["formula"] == "3*(x + 2)/2"
    x = sympy.Symbol("x")
    assert sympy.simplify(sympy.sympify(d["formula"]) - sympy.Rational(3, 2) * (x + 2)) == 0
    assert d["latex"] == r"\frac{3 \left(x_{ij} + 2\right)}{2}"
    assert d["value"] == [[4.5, 4.5], [4.5, 4.5]]
    assert d["check"] == {"against": "x.grad", "equal": True}
    assert [s["name"] for s in rec["steps"]] == ["y", "z", "out"]
    assert rec["steps"][0]["formula"] == "x + 2"


@pytest.mark.parametrize(
    "line, message",
    [
        ("explain(3, x)", "TypeError: explain(): argument 'out' must be a Tensor, not int"),
        ("explain(x, x)", "ValueError: explain(): out has no graph to explain (it is a leaf"),
        ("explain(w.sum(), x)", "ValueError: explain(): out has no graph to explain"),
        ("explain(out, v)", "ValueError: explain(): v is not one of out's leaves (it does not"),
        ("explain(out, 2)", "TypeError: explain(): argument 'x' must be a Tensor, not int"),
        ("diff(3)", "TypeError: diff(): the first argument must be a function, got int"),
    ],
)
def test_errors_are_one_line_with_a_caret(line, message):
    src = BLITZ + "w = torch.ones(2)\nv = torch.ones(2, requires_grad=True)\n" + line + "\n"
    code, out, err = run(src)
    assert code != 0
    lines = err.rstrip("\n").split("\n")
    assert lines[0].startswith("<stdin>:7:1: " + message) or message in lines[0], err
    assert lines[1].strip() == line and lines[2].strip() == "^", err
    assert "Traceback" not in err


def test_diff_formula_and_value():
    code, out, err = run(
        "d = diff(lambda x: sin(x) ** 2)\nd\nd(3.)\ndiff(lambda x: x ** 3, 2., 2)\n"
    )
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0] == "2·sin(x)·cos(x)"
    assert lines[1].startswith("tensor(-0.2794")
    assert lines[2] == "d²f/dx² = 6·x"
    assert lines[3] == "at x = 2: 12, equal to autograd's"


def test_start_up_does_not_import_sympy():
    code = "import sys, gradcli.cli, gradcli.session; print('sympy' in sys.modules)"
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), timeout=60
    )
    assert r.stdout.strip() == "False", r.stderr


def test_json_from_the_command_line():
    """--json through a real `gradcli eval` process (as a program reads it)."""
    env = {k: v for k, v in os.environ.items() if k not in ("NO_COLOR", "TERM")}
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", "eval", "--json", "-"],
        input=D2L + "explain(y, x)\n",
        capture_output=True,
        text=True,
        encoding="utf-8",
        cwd=str(ROOT),
        env={**env, "PYTHONPATH": str(ROOT)},
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    (rec,) = [json.loads(line) for line in r.stdout.splitlines()]
    assert rec["kind"] == "explain" and rec["out"] == "y"
    (d,) = rec["derivatives"]
    assert d["formula"] == "4*x" and d["value"] == [0.0, 4.0, 8.0, 12.0]
    assert d["check"] == {"against": "autograd", "equal": True}
    assert d["text"] == "∂y/∂xᵢ = 4·xᵢ"


def test_repl_meta_command(tmp_path):
    pexpect = pytest.importorskip("pexpect")
    env = {**os.environ, "TERM": "xterm", "PROMPT_TOOLKIT_NO_CPR": "1"}
    env.pop("NO_COLOR", None)
    env["XDG_STATE_HOME"] = str(tmp_path)
    env["PYTHONPATH"] = str(ROOT) + os.pathsep + env.get("PYTHONPATH", "")
    child = pexpect.spawn(
        sys.executable,
        ["-m", "gradcli"],
        env=env,
        cwd=str(tmp_path),
        dimensions=(50, 160),
        encoding="utf-8",
        codec_errors="replace",
    )
    try:
        child.expect(">>>", timeout=30)
        for line in BLITZ.splitlines():
            child.send(line + "\r")
            child.expect(">>>", timeout=30)
        child.send(":explain out x\r")
        child.expect(r"3·\(xᵢⱼ \+ 2\)/2", timeout=60)
        child.expect(r"9/2 = 4\.5, equal to autograd's gradient", timeout=30)
        child.send(":explain\r")
        child.expect("usage: :explain OUT", timeout=30)
        child.send(":explain out w\r")
        child.expect("NameError: name 'w' is not defined", timeout=30)
    finally:
        child.sendeof()
        child.close(force=True)


def test_meta_command_builds_the_call():
    from gradcli.repl import meta

    calls = []

    class FakeRepl:
        def run_source(self, text, record=True):
            calls.append((text, record))

    meta.run(FakeRepl(), ":explain out")
    meta.run(FakeRepl(), ":explain out x")
    meta.run(FakeRepl(), ":explain out x w")
    assert calls == [
        ("explain(out)", False),
        ("explain(out, x)", False),
        ("explain(out, [x, w])", False),
    ]


def test_linear_layer_is_w_x_plus_b():
    src = (
        "_ = torch.manual_seed(0)\nlin = torch.nn.Linear(3, 2)\n"
        "x = torch.tensor([1., 2., 3.])\nh = lin(x)\nloss = h.sum()\nexplain(loss)\n"
    )
    code, out, err = run(src)
    assert code == 0, err
    assert "steps:      hᵢ = lin.biasᵢ + Σⱼ lin.weightᵢⱼ·xⱼ\n" in out
    assert "chain rule: ∂loss/∂lin.weightᵢⱼ = ∂loss/∂hᵢ · ∂hᵢ/∂lin.weightᵢⱼ = 1 · xⱼ\n" in out
    assert "derivative: ∂loss/∂lin.weightᵢⱼ = xⱼ\n" in out
    assert "derivative: ∂loss/∂lin.biasᵢ = 1\n" in out
    assert out.count("equal to autograd's gradient") == 2


def test_matrix_vector_chain_rule():
    src = (
        "_ = torch.manual_seed(0)\nx = torch.tensor([1., 2., 3.])\n"
        "W = torch.randn(2, 3, requires_grad=True)\nb = torch.zeros(2, requires_grad=True)\n"
        "h = W @ x + b\nout = torch.tanh(h).sum()\nexplain(out, W)\n"
    )
    code, out, err = run(src)
    assert code == 0, err
    assert "steps:      hᵢ = bᵢ + Σⱼ Wᵢⱼ·xⱼ\n            out = Σᵢ tanh(hᵢ)\n" in out
    assert "∂out/∂Wᵢⱼ = ∂out/∂hᵢ · ∂hᵢ/∂Wᵢⱼ = (1 - tanh(hᵢ)²) · xⱼ\n" in out
    assert "derivative: ∂out/∂Wᵢⱼ = xⱼ·(1 - tanh(bᵢ + Σₖ Wᵢₖ·xₖ)²)\n" in out
    assert "equal to autograd's gradient" in out


def test_softmax_and_cross_entropy():
    src = (
        "p = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)\ns = torch.softmax(p, 0)\n"
        "explain(s[0], p)\n"
        "ce = torch.nn.functional.cross_entropy(p.unsqueeze(0), torch.tensor([2]))\n"
        "explain(ce, p)\n"
    )
    code, out, err = run(src)
    assert code == 0, err
    assert "steps:      sᵢ = exp(pᵢ)/Σⱼ exp(pⱼ)\n" in out
    assert "steps:      ce = -p₂ + log(Σᵢ exp(pᵢ))\n" in out
    assert "derivative: ∂ce/∂pᵢ = exp(pᵢ)/Σⱼ exp(pⱼ) - δᵢ₂\n" in out
    assert out.count("equal to autograd's gradient") == 2


def test_custom_function_and_topk_are_named_functions():
    src = textwrap.dedent("""\
        class MyExp(torch.autograd.Function):
            @staticmethod
            def forward(ctx, i):
                r = i.exp()
                ctx.save_for_backward(r)
                return r
            @staticmethod
            def backward(ctx, g):
                r, = ctx.saved_tensors
                return g * r
        x = torch.tensor([0.5, 1.0], requires_grad=True)
        y = MyExp.apply(x)
        explain((y * y).sum(), x)
        v = torch.tensor([3.0, 1.0, 2.0], requires_grad=True)
        top = torch.topk(v, 2).values
        explain((top ** 2).sum(), v)
        """)
    code, out, err = run(src)
    assert code == 0, err
    assert (
        "steps:      y = MyExp(x)   (no formula rule; its local Jacobian ∂y/∂x = "
        "([[1.6487, 0.0000], [0.0000, 2.7183]]))\n" in out
    )
    assert (
        "steps:      top = topk(v)   (no closed form; its local Jacobian ∂top/∂v = "
        "([[1., 0., 0.], [0., 0., 1.]]))\n" in out
    )
    assert "derivative: ∂out/∂v₀ = 2·v₀; ∂out/∂v₁ = 0; ∂out/∂v₂ = 2·v₂\n" in out
    assert out.count("equal to autograd's gradient") == 2


def test_sums_over_some_dims_and_broadcasting():
    src = (
        "x = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)\n"
        "b = torch.tensor([0.5, -1., 2.], requires_grad=True)\n"
        "y = (x + b).sum(0)\nexplain(y, b)\nm = (x * x).mean(1)\nexplain(m)\n"
        "d = diff(lambda v: (v * v).sum() + v.exp().sum(), torch.tensor([1., 2.]))\n"
    )
    code, out, err = run(src)
    assert code == 0, err
    assert "steps:      yᵢ = 2·bᵢ + Σⱼ xⱼᵢ\n" in out
    assert "derivative: ∂y/∂bᵢ = 2\n" in out
    assert "note:       y has 3 elements: this is the derivative of their sum" in out
    assert "steps:      mᵢ = Σⱼ xᵢⱼ²/3\n" in out
    assert "derivative: ∂m/∂xᵢⱼ = 2·xᵢⱼ/3\n" in out
    assert (
        "∂f/∂vᵢ = 2·vᵢ + exp(vᵢ)\nat v = tensor([1., 2.]): tensor([ 4.7183, 11.3891]), equal to"
        in out
    )


def test_a_graph_too_big_to_write_out_is_refused():
    src = (
        "x = torch.tensor(1.0, requires_grad=True)\ny = x\nfor i in range(400):\n"
        "    y = y * 1.001\nexplain(y, x)\n"
    )
    code, out, err = run(src)
    assert code == 1
    assert err.startswith(
        "<stdin>:5:1: ValueError: explain(): the graph has 400 ops, too many to write out"
    )
    assert "Traceback" not in err


def test_a_wrong_rule_is_said_to_differ(monkeypatch):
    """The check is real: with exp's rule made wrong (sin), the value differs from
    autograd's and explain says so."""
    import numpy as np

    from gradcli.core.tensor import Tensor
    from gradcli.ops.unary import exp

    node_cls = type(exp(Tensor(np.array([0.5]), True)).grad_fn)
    monkeypatch.setattr(node_cls, "formula", lambda self, S, x: S.map(S.sp.sin, x))
    code, out, err = run(
        "x = torch.tensor([0.5, 1.0], requires_grad=True)\nexplain(torch.exp(x).sum(), x)\n"
    )
    assert code == 0, err
    assert "steps:      out = Σᵢ sin(xᵢ)\n" in out
    assert "derivative: ∂out/∂xᵢ = cos(xᵢ)\n" in out
    assert "which DIFFERS from autograd = tensor([1.6487, 2.7183])" in out


def test_accumulated_grad_is_told_apart():
    code, out, err = run(
        "x = torch.tensor([1.0, 2.0], requires_grad=True)\ny = (x * x).sum()\n"
        "backward y, retain_graph=true\nbackward y, retain_graph=true\nexplain(y, x)\n"
        "backward y\nexplain(y, x)\n"
    )
    assert code == 0, err
    assert (
        "tensor([2., 4.]), equal to autograd's gradient (x.grad holds something else "
        "(gradients of several backward passes added up?))\nx.grad = tensor([ 6., 12.])\n"
    ) in out
    assert out.endswith(
        "tensor([2., 4.]), which differs from x.grad = tensor([ 6., 12.]) (x.grad adds up "
        "every backward since it was zeroed; the graph was freed, so no new backward could "
        "check this one)\n"
    )
