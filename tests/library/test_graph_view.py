"""graph(y, values=true), graph(y, "svg") and save(graph(y), ...): the graph with the
gradients that flowed through it, and gradcli's own laid-out SVG picture."""

from __future__ import annotations

import io
import xml.etree.ElementTree as ET

import pytest

from gradcli.runtime.errors import GradError
from gradcli.output import TextOutput
from gradcli.session import Session

NS = "{http://www.w3.org/2000/svg}"
PROGRAM = (
    "x = tensor([1., 2.], requires_grad=true)\nw = tensor(3., requires_grad=true)\n"
    "y = (x * w + x).sum()\n"
)


def run(source):
    buf = io.StringIO()
    s = Session(TextOutput(stream=buf))
    s.run(source)
    return s, buf.getvalue()


def test_values_after_backward():
    _, out = run(PROGRAM + "backward y\ngraph(y, values=true)\n")
    lines = out.split("\n")
    assert lines[2] == "SumBackward0   value []   grad in: tensor(1.)"
    assert lines[3] == "└── AddBackward0   value [2]   grad in: tensor([1., 1.])"
    assert lines[4] == "    ├── MulBackward0   value [2]   grad in: tensor([1., 1.])"
    assert lines[5] == "    │   ├── x [2]   .grad = tensor([4., 4.])"
    assert lines[6] == "    │   └── w []   .grad = tensor(3.)"


def test_values_flow_through_a_chain():
    # d(out)/d(h) for h = x^2, out = 3*h.sum(): the gradient into PowBackward0 is 3
    _, out = run(
        "x = tensor([1., -2.], requires_grad=true)\nh = x^2\nout = (3 * h).sum()\n"
        "backward out\ngraph(out, values=true)\n"
    )
    assert "MulBackward0   value [2]   grad in: tensor([1., 1.])" in out
    assert "PowBackward0   value [2]   grad in: tensor([3., 3.])" in out
    assert "x [2]   .grad = tensor([  6., -12.])" in out


def test_values_before_backward_leave_grad_untouched():
    s, out = run(PROGRAM + "graph(y, values=true)\n")
    assert "AddBackward0   value [2]   grad in: tensor([1., 1.])" in out
    assert "x [2]   .grad = None" in out
    assert s.scope.vars["x"].grad is None
    s.run("backward y")  # the graph is still usable
    assert s.scope.vars["x"].grad.data.tolist() == [4.0, 4.0]


def test_big_gradients_by_shape():
    _, out = run(
        "x = ones(100, 100, requires_grad=true)\ny = (x * 2).sum()\nbackward y\n"
        "graph(y, values=true)\n"
    )
    assert "MulBackward0   value [100, 100]   grad in: [100, 100] (too big to keep)" in out


def _boxes(svg_text):
    root = ET.fromstring(svg_text)
    assert root.tag == NS + "svg"
    return [r for r in root.iter(NS + "rect") if "node" in (r.get("class") or "").split()]


def test_svg_one_box_per_node():
    s, out = run(PROGRAM + 'pic = graph(y, "svg")\n')
    boxes = _boxes(s.scope.vars["pic"])
    # SumBackward0, AddBackward0, MulBackward0, x, w: x is used twice but drawn once
    assert len(boxes) == 5
    assert sum("leaf" in b.get("class") for b in boxes) == 2
    root = ET.fromstring(s.scope.vars["pic"])
    assert len(root.findall(NS + "line")) == 5  # one arrow per edge
    # the output is above its inputs: SumBackward0's box is the highest
    titles = {b.find(NS + "title").text.split()[0]: float(b.get("y")) for b in boxes}
    assert titles["SumBackward0"] < titles["AddBackward0"] < titles["MulBackward0"] < titles["w"]


def test_save_graph_svg_dot_txt(tmp_path):
    s, _ = run(
        PROGRAM + "backward y\n"
        f'save(graph(y, values=true), "{tmp_path}/g.svg")\n'
        f'save(graph(y), "{tmp_path}/g.dot")\nsave(graph(y), "{tmp_path}/g.txt")\n'
    )
    svg_text = (tmp_path / "g.svg").read_text()
    assert len(_boxes(svg_text)) == 5
    assert "grad in: tensor([1., 1.])" in svg_text
    assert (tmp_path / "g.dot").read_text().startswith("digraph autograd {")
    assert (tmp_path / "g.txt").read_text().startswith("SumBackward0\n")
    with pytest.raises(GradError) as e:
        s.run(f'save(graph(y), "{tmp_path}/g.png")')
    assert ".svg, .dot or .txt" in e.value.message


def test_repr_svg_for_notebooks(tmp_path):
    s, _ = run(
        PROGRAM + f'g = graph(y)\nh = graph(y, "svg")\nsave(graph(y, "svg"), "{tmp_path}/h.svg")\n'
    )
    assert len(_boxes(s.scope.vars["g"]._repr_svg_())) == 5
    assert s.scope.vars["h"]._repr_svg_() == str(s.scope.vars["h"])
    assert len(_boxes((tmp_path / "h.svg").read_text())) == 5
    with pytest.raises(GradError) as e:
        s.run(f'save(h, "{tmp_path}/h.dot")')
    assert "written as .svg," in e.value.message


def test_dot_unchanged_and_bad_format():
    _, out = run(PROGRAM + 'graph(y, "dot")\n')
    assert out.startswith("digraph autograd {")
    with pytest.raises(GradError) as e:
        run(PROGRAM + 'graph(y, "png")\n')
    assert '"svg"' in e.value.message


def test_layout_of_a_wider_graph_keeps_boxes_apart():
    s, _ = run(
        "a = tensor(1., requires_grad=true)\nb = tensor(2., requires_grad=true)\n"
        "c = tensor(3., requires_grad=true)\ny = a*b + b*c + c*a + exp(a)\n"
        'pic = graph(y, "svg")\n'
    )
    boxes = _boxes(s.scope.vars["pic"])
    rects = [
        (float(b.get("x")), float(b.get("y")), float(b.get("width")), float(b.get("height")))
        for b in boxes
    ]
    for i, (x1, y1, w1, h1) in enumerate(rects):
        for x2, y2, w2, h2 in rects[i + 1 :]:
            assert x1 + w1 <= x2 or x2 + w2 <= x1 or y1 + h1 <= y2 or y2 + h2 <= y1


def test_big_graphs_are_not_remembered():
    # more nodes than FLOW_NODES: no record keeps the graph alive; values need a live graph
    from gradcli.engine import observe
    from gradcli.library.graph_view import flow_of

    n = observe.FLOW_NODES + 5
    s, _ = run(
        f"x = tensor(1., requires_grad=true)\ny = x\nfor i in range({n}):\n"
        "    y = y * 1\nbackward y\n"
    )
    assert flow_of(s.scope.vars["y"].grad_fn) is None
    with pytest.raises(GradError) as e:
        s.run("graph(y, values=true)")
    assert "retain_graph=true" in e.value.hint


def test_the_flow_record_keeps_no_graph_alive_and_reads_each_pass_apart():
    """The record is keyed by node ids (engine/observe.py): dropping a graph frees it
    even right after its backward, and a subgraph two passes went through shows the
    gradient of the pass through the root asked about."""
    import gc

    from gradcli.library.graph_view import flow_of
    from gradcli.ops.elementwise import Mul

    s, _ = run(
        "x = tensor([1., 2.], requires_grad=true)\ny = x * x\n"
        "a = (y * 2).sum()\nb = (y * 3).sum()\n"
        "backward a, retain_graph=true\nbackward b\n"
    )
    ya = flow_of(s.scope.vars["a"].grad_fn)
    yb = flow_of(s.scope.vars["b"].grad_fn)
    inner = s.scope.vars["y"].grad_fn
    assert ya[inner].tolist() == [2.0, 2.0] and yb[inner].tolist() == [3.0, 3.0]
    s.run("v = graph(a, values=true)")
    text = str(s.scope.vars["v"])
    assert "tensor([2., 2.])" in text and "no gradient reached" not in text
    del ya, yb, inner
    gc.collect()
    before = {id(o) for o in gc.get_objects() if type(o) is Mul}
    s.run("for i in range(3):\n    z = (x * 3).sum()\n    backward z\nz = 0\n")
    gc.collect()
    assert not [o for o in gc.get_objects() if type(o) is Mul and id(o) not in before]
