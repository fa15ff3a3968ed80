"""Pictures in the Jupyter kernel: plot() and graph pictures arrive as image/svg+xml
(with a text/plain part), a backward trace as text."""

from __future__ import annotations

import xml.etree.ElementTree as ET

import pytest

pytest.importorskip("jupyter_client")
pytest.importorskip("ipykernel")

try:
    from test_kernel import execute, kernel  # noqa: F401  (the fixture)
except ImportError:  # tests/ became a package
    from tests.kernel.test_kernel import execute, kernel  # noqa: F401


def _svgs(out):
    return [
        c["data"]["image/svg+xml"]
        for kind, c in out
        if kind in ("display_data", "execute_result") and "image/svg+xml" in c["data"]
    ]


def test_plot_is_an_svg_picture(kernel):
    _, kc = kernel
    reply, out = execute(kc, "plot(sin, 0, 3)")
    assert reply["status"] == "ok", reply
    (svg,) = _svgs(out)
    root = ET.fromstring(svg)
    assert len(root.findall("{http://www.w3.org/2000/svg}polyline")) == 2
    texts = [c["data"]["text/plain"] for kind, c in out if kind == "display_data"]
    assert texts == ["<plot of sin, sin'>"]


def test_graph_and_trace(kernel):
    _, kc = kernel
    reply, out = execute(
        kc,
        "x = tensor([1., 2.], requires_grad=true)\ny = (x * x).sum()\n"
        "backward y, trace=true\ngraph(y, values=true)",
    )
    assert reply["status"] == "ok", reply
    streams = "".join(c["text"] for kind, c in out if kind == "stream" and c["name"] == "stdout")
    assert "#1 SumBackward0   grad in: tensor(1.)" in streams
    assert "x.grad = tensor([2., 4.])" in streams
    (svg,) = _svgs(out)
    boxes = [
        r
        for r in ET.fromstring(svg).iter("{http://www.w3.org/2000/svg}rect")
        if "node" in (r.get("class") or "")
    ]
    assert len(boxes) == 3
