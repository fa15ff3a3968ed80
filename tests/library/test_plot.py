"""plot(): f and f' (by autograd) in the terminal (plotext), as SVG, and as a JSON record.

The terminal pictures are read back cell by cell: the curves' characters are
found on the canvas (inside the frame) and their rows and columns checked
against what the function does, e.g. x^2 on [-1, 1] has its lowest point in
the middle column and its derivative 2x crosses zero there.
"""

from __future__ import annotations

import io
import json
import os
import re
import subprocess
import sys
import xml.etree.ElementTree as ET

import numpy as np
import pytest

from gradcli.runtime.errors import GradError
from gradcli.output import JsonOutput, TextOutput
from gradcli.session import Session

pytest.importorskip("plotext")

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
BRAILLE = re.compile("[\u2801-\u28ff]")
SGR = re.compile(r"\x1b\[([0-9;]*)m")


def run(source, out_cls=TextOutput):
    buf = io.StringIO()
    s = Session(out_cls(stream=buf))
    s.run(source)
    return s, buf.getvalue()


def canvas(text):
    """The rows inside the plot frame (between ┌ and └), each cut to the canvas
    columns; with the frame's left column (in the original lines)."""
    lines = text.split("\n")
    top = next(i for i, l in enumerate(lines) if "┌" in l)
    bottom = next(i for i, l in enumerate(lines) if "└" in l)
    left = lines[top].index("┌")
    right = lines[top].index("┐")
    rows = [l.ljust(right + 1)[left + 1 : right] for l in lines[top + 1 : bottom]]
    return rows


def colour_cells(text):
    """[(row, col, char, colour)] of the canvas of a coloured picture."""
    grid = []
    for line in text.split("\n"):
        cells, colour, pos = [], None, 0
        for m in SGR.finditer(line):
            for ch in line[pos : m.start()]:
                cells.append((ch, colour))
            codes = m.group(1)
            if codes in ("", "0"):
                colour = None
            elif codes.startswith("38;5;"):
                colour = int(codes.split(";")[2])
            pos = m.end()
        cells.extend((ch, colour) for ch in line[pos:])
        grid.append(cells)
    chars = ["".join(c for c, _ in row) for row in grid]
    top = next(i for i, l in enumerate(chars) if "┌" in l)
    bottom = next(i for i, l in enumerate(chars) if "└" in l)
    left, right = chars[top].index("┌"), chars[top].index("┐")
    out = []
    for r in range(top + 1, bottom):
        for c in range(left + 1, min(right, len(grid[r]))):
            out.append((r - top - 1, c - left - 1, *grid[r][c]))
    return out, right - left - 1


def mean(xs):
    return sum(xs) / len(xs)


def test_x_squared_monochrome_minimum_and_zero_crossing_in_the_middle(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    from gradcli.library import plot

    s, _ = run("f = lambda x: x^2")
    fig = plot.build([s.scope.vars["f"], -1, 1])
    text = fig.text(width=81, height=25)
    rows = canvas(text)
    width = len(rows[0])
    middle = (width - 1) / 2
    legend = {i for i, r in enumerate(rows) if re.search(r"\bf'?\b", r)}
    f_cells = [
        (r, c)
        for r, row in enumerate(rows)
        if r not in legend
        for c, ch in enumerate(row)
        if BRAILLE.match(ch)
    ]
    d_cells = [
        (r, c)
        for r, row in enumerate(rows)
        if r not in legend
        for c, ch in enumerate(row)
        if ch == "•"
    ]
    assert f_cells and d_cells
    lowest = max(r for r, _ in f_cells)
    assert abs(mean([c for r, c in f_cells if r == lowest]) - middle) <= 1.5
    # the parabola is highest at both ends
    assert min(r for r, c in f_cells if c < 3) < lowest - 3
    assert min(r for r, c in f_cells if c > width - 4) < lowest - 3
    # f' = 2x: below the zero line (larger row) left of the middle, above it right of it
    zero = lowest
    assert all(c < middle + 1.5 for r, c in d_cells if r > zero)
    assert all(c > middle - 1.5 for r, c in d_cells if r < zero)
    # on the zero row itself: within the columns one row of 2x spans (0.1 in x, 4 columns)
    assert abs(mean([c for r, c in d_cells if r == zero]) - middle) <= 3
    assert not SGR.search(text)  # monochrome: no escape sequences


def test_x_squared_in_colour_each_curve_its_own_colour():
    from gradcli.library import plot

    s, _ = run("def f(x):\n    return x * x\n")
    fig = plot.build([s.scope.vars["f"], (-1, 1)])
    text = fig.text(width=81, height=25, color=True)
    cells, width = colour_cells(text)
    middle = (width - 1) / 2
    curve = [(r, c, col) for r, c, ch, col in cells if BRAILLE.match(ch) and r > 1]
    colours = {col for _, _, col in curve}
    assert len(colours) == 2
    f_colour = next(col for r, c, col in curve if c == 0 and r < 8)  # x^2 starts high
    d_colour = (colours - {f_colour}).pop()
    f_cells = [(r, c) for r, c, col in curve if col == f_colour]
    d_cells = [(r, c) for r, c, col in curve if col == d_colour]
    lowest = max(r for r, _ in f_cells)
    assert abs(mean([c for r, c in f_cells if r == lowest]) - middle) <= 1.5
    left_rows = [r for r, c in d_cells if c < middle - 3]
    right_rows = [r for r, c in d_cells if c > middle + 3]
    assert min(left_rows) >= lowest and max(right_rows) <= lowest


def test_derivative_is_autograd_exact_in_json():
    _, out = run("plot(lambda x: x^3 - 2*x, -2, 2, points=9)", JsonOutput)
    rec = json.loads(out)
    assert rec["kind"] == "plot" and rec["file"] is None
    f, d = rec["series"]
    assert f["label"] == "f" and d["label"] == "f'" and d["derivative"] is True
    xs = np.array(f["x"])
    assert np.allclose(xs, np.linspace(-2, 2, 9))
    assert np.array_equal(np.array(f["y"]), xs**3 - 2 * xs)
    assert np.allclose(np.array(d["y"]), 3 * xs**2 - 2, rtol=0, atol=1e-12)


def test_branching_function_and_constant():
    # per-sample autograd: a function with an if, and a constant (derivative 0)
    _, out = run(
        "def h(x):\n    return x^2 if x > 0 else -x\nplot(h, lambda x: 3, -1, 1, points=5)",
        JsonOutput,
    )
    rec = json.loads(out)
    labels = [s["label"] for s in rec["series"]]
    assert labels == ["h", "h'", "f", "f'"]
    assert rec["series"][1]["y"] == [-1.0, -1.0, -1.0, 1.0, 2.0]
    assert rec["series"][3]["y"] == [0.0] * 5


def test_builtin_name_points_and_data():
    _, out = run("plot(sin, tensor([0., 1.]), derivative=false)", JsonOutput)
    rec = json.loads(out)
    assert [s["label"] for s in rec["series"]] == ["sin"]
    assert rec["series"][0]["y"] == [0.0, float(np.sin(1.0))]
    _, out = run("losses = [3, 2, 1.5]; plot(losses)", JsonOutput)
    rec = json.loads(out)
    assert rec["series"][0]["x"] == [0.0, 1.0, 2.0] and rec["series"][0]["y"] == [3.0, 2.0, 1.5]


def test_loss_history_draws_in_terminal(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    _, out = run("plot([4, 3, 2, 1.5, 1.2, 1.1])")
    rows = canvas(out)
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if BRAILLE.match(ch)]
    # decreasing: the leftmost points are high, the rightmost low
    assert mean([r for r, c in cells if c < 5]) < mean(
        [r for r, c in cells if c > len(rows[0]) - 5]
    )


def test_svg_file(tmp_path):
    path = tmp_path / "f.svg"
    _, out = run(f'plot(sin, cos, 0, 6, "{path}")')
    assert out == f"saved {path}\n"  # every file written is announced
    root = ET.parse(path).getroot()
    assert root.tag.endswith("svg")
    lines = root.findall("{http://www.w3.org/2000/svg}polyline")
    assert len(lines) == 4  # sin, sin', cos, cos'
    texts = [t.text for t in root.iter("{http://www.w3.org/2000/svg}text")]
    assert {"sin", "sin'", "cos", "cos'"} <= set(texts)


def test_errors():
    for src, words in [
        ("plot(sin, 1, -1)", "from low to high"),
        ("plot(lambda x: x * ones(2), 0, 1)", "one number for each x"),
        ('plot(sin, 0, 1, "f.txt")', ".svg or .png"),
        ("plot()", "nothing to plot"),
        ("plot(sin, 0, 1, points=1)", "points"),
        ("plot(sin, 0, inf)", "finite"),
    ]:
        with pytest.raises(GradError) as e:
            run(src)
        assert words in e.value.message


def test_without_plotext_names_the_package(monkeypatch):
    monkeypatch.setitem(sys.modules, "plotext", None)
    with pytest.raises(GradError) as e:
        run("plot(sin, 0, 1)")
    assert "plotext" in e.value.message and "pip install plotext" in e.value.hint


def test_command_line_sized_by_the_terminal():
    env = dict(
        os.environ,
        NO_COLOR="1",
        COLUMNS="60",
        LINES="20",
        PYTHONPATH=ROOT + os.pathsep + os.environ.get("PYTHONPATH", ""),
    )
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", "eval", "-e", "plot(exp, -1, 1)"],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
    )
    assert r.returncode == 0, r.stderr
    lines = r.stdout.rstrip("\n").split("\n")
    assert max(len(l) for l in lines) <= 60
    assert 12 <= len(lines) <= 20
    assert "exp'" in r.stdout


def test_extreme_values_clean_errors_and_compact_ticks(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    with pytest.raises(GradError) as e:
        run("plot([1e308, -1e308])")
    assert "span more than a float holds" in e.value.message
    with pytest.raises(GradError) as e:
        run("plot(save, 0, 1)")
    assert "save cannot be called with one number" in e.value.message
    from gradcli.library import plot

    s, _ = run("f = lambda x: x * 1e20")
    text = plot.build([s.scope.vars["f"], 0, 1]).text(width=60, height=16)
    assert "1e+20┤" in text and "100000000000000000000" not in text


PYPLOT = """
import torch
import numpy as np
import matplotlib.pyplot as plt
x = np.linspace(0, 1, 30)
losses = [4.0, 3.0, 2.0, 1.5, 1.2, 1.1]
plt.plot(losses, label="loss")
plt.xlabel("epoch"); plt.ylabel("loss"); plt.legend(); plt.grid(True)
plt.title("training")
plt.show()
plt.plot(x, x ** 2, "ro", label="points")
plt.plot(torch.tensor(x), torch.tensor(x) * 0.5, "b-")
plt.show()
print("done")
"""


def test_pyplot_draws_in_the_terminal(monkeypatch):
    monkeypatch.setenv("NO_COLOR", "1")
    _, out = run(PYPLOT)
    first, second = out.split("┘")[:2]
    assert "training" in first  # the title (one series: no legend)
    rows = canvas(first + "┘")
    cells = [(r, c) for r, row in enumerate(rows) for c, ch in enumerate(row) if ch.strip()]
    assert mean([r for r, c in cells if c < 5]) < mean(
        [r for r, c in cells if c > len(rows[0]) - 5]
    )  # decreasing: high at the left, low at the right
    assert "points" in second and "line 2" in second  # two series, labelled
    assert out.endswith("done\n")


def test_pyplot_forms_savefig_and_json(tmp_path):
    path = tmp_path / "p.svg"
    src = f"""
import matplotlib
matplotlib.use("Agg")
from matplotlib import pyplot as plt
fig, ax = plt.subplots(figsize=(6, 4))
ax.plot([0, 1, 2], [[0, 1], [1, 2], [4, 3]])
ax.scatter([0, 1], [1, 0], label="dots")
ax.set_title("axes"); ax.set_xlabel("x"); ax.legend()
fig.savefig("{path}")
plt.close()
"""
    _, out = run(src)
    assert out == f"saved {path}\n"
    root = ET.parse(path).getroot()
    assert len(root.findall("{http://www.w3.org/2000/svg}polyline")) >= 4  # 2 lines, 2 dots
    _, out = run(
        "import matplotlib.pyplot as plt\nplt.plot([1, 2], [3, 4])\nplt.show()", JsonOutput
    )
    record = json.loads(out.strip().splitlines()[-1])
    assert record["kind"] == "plot"
    assert record["series"][0]["x"] == [1.0, 2.0] and record["series"][0]["y"] == [3.0, 4.0]
    for bad, words in (
        ("plt.plot([1, 2], [1])", "x and y must have same first dimension"),
        ("plt.imshow([[1]])", "has no attribute 'imshow'"),
        ("plt.savefig('x.svg')", "nothing has been plotted"),
    ):
        with pytest.raises(GradError, match=words):
            run("import matplotlib.pyplot as plt\n" + bad)
