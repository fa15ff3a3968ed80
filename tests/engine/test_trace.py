"""The backward trace: `backward out, trace=true` and `backward_trace(out)` show each node the
engine runs, in its order, with the gradient in and what goes to each input."""

from __future__ import annotations

import io
import json

import numpy as np
import pytest

from gradcli.runtime.errors import GradError
from gradcli.engine import observe
from gradcli.library.graph_view import flow_of
from gradcli.output import JsonOutput, TextOutput
from gradcli.session import Session


def run(source, out_cls=TextOutput):
    buf = io.StringIO()
    s = Session(out_cls(stream=buf))
    s.run(source)
    return s, buf.getvalue()


TUTORIAL = "x = ones(2, 2, requires_grad=true)\nout = mean(3*(x+2)^2)\n"


def test_tutorial_trace_as_shown():
    _, out = run(TUTORIAL + "backward out, trace=true\n")
    assert out == (
        "#1 MeanBackward0   grad in: tensor(1.)\n"
        "   -> #2 MulBackward0: tensor([[0.2500, 0.2500], [0.2500, 0.2500]])\n"
        "#2 MulBackward0   grad in: tensor([[0.2500, 0.2500], [0.2500, 0.2500]])\n"
        "   -> #3 PowBackward0: tensor([[0.7500, 0.7500], [0.7500, 0.7500]])\n"
        "#3 PowBackward0   grad in: tensor([[0.7500, 0.7500], [0.7500, 0.7500]])\n"
        "   -> #4 AddBackward0: tensor([[4.5000, 4.5000], [4.5000, 4.5000]])\n"
        "#4 AddBackward0   grad in: tensor([[4.5000, 4.5000], [4.5000, 4.5000]])\n"
        "   -> x (leaf, into .grad): tensor([[4.5000, 4.5000], [4.5000, 4.5000]])\n"
        "x.grad = tensor([[4.5000, 4.5000],\n        [4.5000, 4.5000]])\n"
    )


def test_trace_function_same_as_command():
    _, a = run(TUTORIAL + "backward out, trace=true\n")
    _, b = run(TUTORIAL + "backward_trace(out)\n")
    assert a == b


def test_engine_order_in_a_diamond():
    # h is used twice: the engine runs it only after both consumers have sent to it
    src = "a = tensor([1., 2.], requires_grad=true)\nh = exp(a)\ny = (sin(h) + h * 3).sum()\n"
    _, out = run(src + "backward y, trace=true\n", JsonOutput)
    recs = [json.loads(l) for l in out.splitlines()]
    steps = [r for r in recs if r["kind"] == "trace"]
    order = [r["step"] for r in steps]
    sent_to = {}
    for pos, r in enumerate(steps):
        for o in r["outputs"]:
            if o["step"] is not None:
                sent_to.setdefault(o["step"], []).append(pos)
    for pos, r in enumerate(steps):
        assert all(p < pos for p in sent_to.get(r["step"], [])), (r, sent_to)
    exp_step = next(r for r in steps if r["node"] == "ExpBackward0")
    assert len(sent_to[exp_step["step"]]) == 2
    a = np.array([1.0, 2.0])
    h = np.exp(a)
    assert np.allclose(exp_step["grad_in"], np.cos(h) + 3)
    # the leaf receives grad_in * exp(a), which is a.grad
    (leaf,) = exp_step["outputs"]
    assert leaf["leaf"] and leaf["to"] == "a"
    grad = next(r for r in recs if r["kind"] == "grad")
    assert np.allclose(leaf["grad"], grad["value"])
    assert len(order) == len(set(order))


def test_json_records():
    _, out = run(
        "x = tensor([1., 2.], requires_grad=true)\nbackward_trace((x*x).sum())\n", JsonOutput
    )
    recs = [json.loads(l) for l in out.splitlines()]
    assert [r["kind"] for r in recs] == ["trace", "trace", "grad"]
    assert (
        recs[0]["node"] == "SumBackward0" and recs[0]["grad_in"] == 1.0 and recs[0]["shape"] == []
    )
    assert recs[1]["outputs"] == [
        {"to": "x", "step": None, "leaf": True, "grad": [1.0, 2.0]},
        {"to": "x", "step": None, "leaf": True, "grad": [1.0, 2.0]},
    ]
    assert recs[2]["value"] == [2.0, 4.0]


def test_matrix_trace_keeps_torch_meaning():
    _, out = run("m = tensor([[1., 2.], [3., 4.]], requires_grad=true)\ntrace(m)\nm.trace()\n")
    assert out == "tensor(5., grad_fn=<TraceBackward0>)\n" * 2


def test_backward_trace_keeps_the_graph():
    _, out = run(TUTORIAL + "backward_trace(out)\nbackward_trace(out)\nbackward out\n")
    assert out.count("#1 MeanBackward0") == 2
    assert out.endswith("x.grad = tensor([[13.5000, 13.5000],\n        [13.5000, 13.5000]])\n")


def test_trace_is_only_torch_trace():
    with pytest.raises(GradError) as e:
        run("x = tensor([1., 2.], requires_grad=true)\ntrace((x * x).sum())\n")
    assert e.value.message == "trace: expected a matrix, but got tensor with dim 0"
    assert "backward_trace(out)" in e.value.hint


def test_tracer_off_afterwards_even_on_error():
    with pytest.raises(GradError):
        run("x = ones(2, requires_grad=true)\nbackward x * 2, trace=true\n")
    assert observe.TRACER is None
    run(TUTORIAL + "backward out, trace=true\n")
    assert observe.TRACER is None


def test_keywords_of_the_backward_command():
    with pytest.raises(GradError) as e:
        run("x = ones(2, requires_grad=true)\nbackward x.sum(), traec=true\n")
    assert e.value.type_name == "SyntaxError" and e.value.hint == "did you mean 'trace'?"
    s, out = run(
        "x = ones(2, requires_grad=true)\ny = x * 2\nbackward y, ones(2), retain_graph=true\n"
        "backward y, ones(2), trace=false\n"
    )
    assert out.splitlines()[-1] == "x.grad = tensor([4., 4.])"


def test_long_trace_is_cut():
    src = (
        "x = tensor(1., requires_grad=true)\ny = x\nfor i in range(1100):\n    y = y * 1\n"
        "backward y, trace=true\n"
    )
    _, out = run(src)
    assert out.count("MulBackward0   grad in") == 1000
    assert "... (100 more steps not shown)" in out


FLOW = json.loads(
    (__import__("pathlib").Path(__file__).parents[1] / "golden" / "flow.json").read_text()
)


@pytest.mark.parametrize("case", sorted(FLOW))
def test_flow_matches_torch(case):
    """The gradient into each intermediate (torch: retain_grad) is what the engine
    recorded for graph(values=true) and what the trace shows as its grad_in."""
    g = FLOW[case]
    s, out = run(g["source"] + "backward out, trace=true\n", JsonOutput)
    recs = [json.loads(l) for l in out.splitlines()]
    steps = [r for r in recs if r["kind"] == "trace"]
    for name, want in g["flow"].items():
        node = s.scope.vars[name].grad_fn
        assert node.name == want["grad_fn"]
        flow = flow_of(node)
        assert flow is not None
        assert np.allclose(flow[node], want["grad"], rtol=1e-12, atol=1e-12), name
        assert any(
            r["node"] == want["grad_fn"]
            and np.shape(r["grad_in"]) == np.shape(want["grad"])
            and np.allclose(r["grad_in"], want["grad"], rtol=1e-12, atol=1e-12)
            for r in steps
        ), name
    for name, want in g["leaves"].items():
        assert np.allclose(s.scope.vars[name].grad.data, want, rtol=1e-12, atol=1e-12), name
