"""`plot(...)`: functions and their derivatives, or data, drawn in the terminal or to a file.

    plot(f)                       f and f' on [-5, 5]
    plot(f, a, b), plot(f, (a, b))  on [a, b]
    plot(f, g, -1, 1)             several functions, each with its derivative
    plot(f, xs)                   at the points of a 1-D tensor (or list) xs
    plot(values)                  a list or 1-D tensor against its index (a loss history)
    plot(xs, ys)                  data: ys against xs
    plot(..., "f.svg")            written to a file (.svg; .png with matplotlib); also file=
    keywords: derivative=false (f only), points=N (samples per function), title="..."

f' is computed by autograd, one reverse pass per sample (so f may branch on its
argument and need not be element-wise): at each x, a fresh float64 leaf is made,
f is called on it and the gradient of the result with respect to the leaf is
taken.  A function whose result does not require grad (a constant) has f' = 0.

The terminal picture is drawn by plotext (a dependency of gradcli, imported on
the first plot): braille dots, axes with ticks, a
legend, one colour per curve; sized to the terminal.  Without colour (NO_COLOR
set, or output not a terminal) each derivative is drawn with its own marker
so the curves stay apart.  SVG files are written by gradcli itself (svg.py);
PNG files need matplotlib.  Under --json the picture is a `plot` record holding
the sampled points instead.
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np

from ..runtime.errors import GradError, GradRuntimeError, GradTypeError, GradValueError
from ..core.convert import type_name
from ..runtime import context
from ..core.tensor import Tensor
from ..engine.autograd import run_backward
from ..ops.registry import not_a_tensor_op
from . import io

DEFAULT_RANGE = (-5.0, 5.0)
MAX_POINTS = 2000
TERMINAL_COLORS = ("blue+", "red+", "green+", "orange+", "magenta+", "cyan+")
MONO_MARKERS = ("braille", "•", "*", "+", "x", "o")


class Series:
    __slots__ = ("label", "x", "y", "derivative", "points")

    def __init__(self, label, x, y, derivative=False, points=False):
        self.label, self.x, self.y, self.derivative = label, x, y, derivative
        self.points = points  # drawn as points, not joined (a scatter plot)


class Figure:
    """What plot() made: the series, and how to show them as text, JSON or SVG."""

    def __init__(self, series, title=None):
        self.series, self.title = series, title

    def __repr__(self):
        labels = ", ".join(s.label for s in self.series)
        return f"<plot of {labels}>"

    def record(self) -> dict:
        return {
            "title": self.title,
            "series": [
                {
                    "label": s.label,
                    "derivative": s.derivative,
                    "x": [_json_num(v) for v in s.x],
                    "y": [_json_num(v) for v in s.y],
                }
                for s in self.series
            ],
        }

    def text(self, width=None, height=None, color=None) -> str:
        return terminal_text(self, width, height, color)

    def _repr_svg_(self) -> str:
        return svg_text(self)


def _json_num(v):
    v = float(v)
    if math.isnan(v):
        return "nan"
    if math.isinf(v):
        return "inf" if v > 0 else "-inf"
    return v


# ---------------------------------------------------------------- arguments


def _number(v, what):
    if isinstance(v, Tensor):
        if v.data.size != 1:
            raise GradTypeError(
                f"plot(): {what} must be a number, got a tensor of shape {list(v.data.shape)}"
            )
        v = v.item()
    if isinstance(v, bool) or not isinstance(v, (int, float)):
        raise GradTypeError(f"plot(): {what} must be a number, got {type_name(v)}")
    v = float(v)
    if not math.isfinite(v):
        raise GradValueError(f"plot(): {what} must be finite, got {v}")
    return v


def _points(v, what):
    """A 1-D float64 array from a tensor or a list of numbers."""
    if isinstance(v, Tensor):
        a = v.data
    else:
        try:
            a = np.asarray([x.item() if isinstance(x, Tensor) else x for x in v])
        except (TypeError, ValueError):
            a = None
        if a is None or a.dtype.kind not in "biuf":
            raise GradTypeError(f"plot(): {what} must be numbers")
    if a.ndim != 1:
        raise GradValueError(
            f"plot(): {what} must be 1-D, got shape {list(a.shape)}",
            hint="flatten it first: x.reshape(-1)",
        )
    if a.size == 0:
        raise GradValueError(f"plot(): {what} is empty")
    return a.astype(np.float64)


def _is_data(v):
    return isinstance(v, (Tensor, list, tuple, range))


def _name_of(f):
    """The name a program knows f by (its variable, or a built-in's name)."""
    ctx = context.current
    for name, v in (ctx.variables or {}).items():
        if v is f:
            return name
    if ctx.session is not None:
        for name, v in ctx.session.builtins.items():
            if v is f:
                return name
    name = getattr(f, "name", None) or getattr(f, "__name__", None)
    return "f" if not name or name.startswith("<") else name


def parse_args(args, points):
    """(functions, xs) or (None, data series) from plot's positional arguments."""
    funcs = [a for a in args if callable(a) and not isinstance(a, (Tensor, type))]
    rest = [a for a in args if not (callable(a) and not isinstance(a, (Tensor, type)))]
    if funcs:
        if len(funcs) != len(args) - len(rest) or any(callable(a) for a in args[len(funcs) :]):
            raise GradTypeError("plot(): give the functions first, then the range")
        if not rest:
            a, b = DEFAULT_RANGE
        elif len(rest) == 2 and not any(_is_data(v) for v in rest):
            a, b = _number(rest[0], "the start"), _number(rest[1], "the end")
        elif (
            len(rest) == 1
            and isinstance(rest[0], (tuple, list))
            and len(rest[0]) == 2
            and not any(_is_data(v) for v in rest[0])
        ):
            a, b = _number(rest[0][0], "the start"), _number(rest[0][1], "the end")
        elif len(rest) == 1 and _is_data(rest[0]):
            return funcs, _points(rest[0], "the points")
        else:
            raise GradTypeError(
                "plot(): after the functions give a range: plot(f, a, b), "
                "plot(f, (a, b)), or points: plot(f, xs)"
            )
        if not a < b:
            raise GradValueError(f"plot(): the range must go from low to high, got [{a:g}, {b:g}]")
        return funcs, np.linspace(a, b, points)
    if len(rest) == 1:
        ys = _points(rest[0], "the values")
        return None, [Series("y", np.arange(ys.size, dtype=np.float64), ys)]
    if len(rest) == 2:
        xs, ys = _points(rest[0], "x"), _points(rest[1], "y")
        if xs.size != ys.size:
            raise GradValueError(f"plot(): x has {xs.size} values and y {ys.size}")
        return None, [Series("y", xs, ys)]
    if not rest:
        raise GradTypeError(
            "plot(): nothing to plot", hint="plot(f, a, b) for a function, plot(values) for data"
        )
    raise GradTypeError("plot(): give functions and a range, or one or two lists of values")


# ---------------------------------------------------------------- sampling


def sample(f, xs, derivative=True):
    """f(x) and f'(x) (autograd) at each x, as float64 arrays (nan where undefined)."""
    ys = np.empty(xs.size)
    ds = np.zeros(xs.size) if derivative else None
    name = _name_of(f)
    ctx = context.current
    prev = ctx.grad_enabled
    ctx.grad_enabled = True
    try:
        for i, x in enumerate(xs.tolist()):
            leaf = Tensor(np.array(x, dtype=np.float64), True)
            try:
                y = f(leaf)
            except TypeError as e:  # a Python-level call error: f takes other arguments
                raise GradTypeError(
                    f"plot(): {name} cannot be called with one number ({e})",
                    hint="plot(f, a, b) calls f(x) for each x",
                ) from None
            if isinstance(y, Tensor):
                if y.data.size != 1:
                    raise GradValueError(
                        f"plot(): {name} must give one number for each x, got a tensor of shape "
                        f"{list(y.data.shape)}",
                        hint="plot(f, ...) calls f with one number at a time",
                    )
                ys[i] = float(y.data.reshape(()))
                if derivative and y.requires_grad:
                    (g,) = run_backward((y,), (None,), inputs=[leaf], allow_unused=True)
                    ds[i] = 0.0 if g is None else float(g.data.reshape(()))
            elif isinstance(y, (int, float)) and not isinstance(y, bool):
                ys[i] = float(y)
            else:
                raise GradTypeError(
                    f"plot(): {name} must return a number or a tensor, got {type_name(y)}"
                )
    finally:
        ctx.grad_enabled = prev
    return ys, ds


def build(args, derivative=True, points=None, title=None, terminal_width=None) -> Figure:
    if points is not None:
        if isinstance(points, bool) or not isinstance(points, int) or not 2 <= points <= MAX_POINTS:
            raise GradValueError(f"plot(): points must be an integer from 2 to {MAX_POINTS}")
    n = points or max(100, min(400, 2 * (terminal_width or 80)))
    funcs, xs = parse_args(args, n)
    if funcs is None:
        return Figure(xs, title)
    series = []
    for f in funcs:
        label = _name_of(f)
        ys, ds = sample(f, xs, derivative)
        series.append(Series(label, xs, ys))
        if derivative:
            series.append(Series(label + "'", xs, ds, derivative=True))
    return Figure(series, title)


# ---------------------------------------------------------------- terminal


def use_color(stream=None) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    stream = stream or sys.stdout
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def _plotext():
    try:
        import plotext
    except ImportError:
        raise GradRuntimeError(
            "plot() draws with plotext, which is not installed",
            hint="plotext is a dependency of gradcli: reinstall gradcli, or pip install plotext",
        ) from None
    return plotext


def terminal_text(fig, width=None, height=None, color=None) -> str:
    plt = _plotext()
    import shutil  # only when plotting (start-up time: it imports bz2, lzma)

    size = shutil.get_terminal_size((80, 24))
    width = width or max(40, min(size.columns, 160))
    height = height or max(12, min(size.lines - 3, 30))
    color = use_color() if color is None else color
    plt.clear_figure()
    plt.plotsize(width, height)
    plt.theme("clear")
    pairs = 0
    for s in fig.series:
        keep = np.isfinite(s.y)
        if not keep.any():
            continue
        i = pairs if not s.derivative else pairs - 1
        if not s.derivative:
            pairs += 1
        if color:
            c = TERMINAL_COLORS[(2 * i + s.derivative) % len(TERMINAL_COLORS)]
            marker = "braille"
        else:
            c = "default"
            marker = (
                MONO_MARKERS[(2 * i + s.derivative) % len(MONO_MARKERS)]
                if i < 3 or s.derivative
                else "braille"
            )
        (plt.scatter if s.points else plt.plot)(
            s.x[keep].tolist(),
            s.y[keep].tolist(),
            label=s.label if len(fig.series) > 1 else None,
            marker=marker,
            color=c,
        )
    _ticks(plt, fig)
    if fig.title:
        plt.title(fig.title)
    try:
        text = plt.build()
    except Exception as e:  # plotext's own arithmetic on extreme values
        raise GradValueError(
            f"plot(): cannot draw these values ({type(e).__name__}: {e})",
            hint="plot a smaller range",
        ) from None
    finally:
        plt.clear_figure()
    if not color:
        text = plt.uncolorize(text)
    return "\n".join(line.rstrip() for line in text.split("\n")).rstrip("\n")


def _ticks(plt, fig):
    """Round tick values, labelled compactly (1e+20, not twenty digits)."""
    from .svg import nice_ticks, tick_label  # (with the first plot: start-up)

    xs = [s.x[np.isfinite(s.y)] for s in fig.series]
    ys = [s.y[np.isfinite(s.y)] for s in fig.series]
    for axis, parts, set_ticks in (("x", xs, plt.xticks), ("y", ys, plt.yticks)):
        vals = np.concatenate(parts) if parts else np.zeros(0)
        if not vals.size:
            continue
        lo, hi = float(vals.min()), float(vals.max())
        if not math.isfinite(hi - lo):
            raise GradValueError(
                f"plot(): the {axis} values span more than a float holds ({lo:.3g} to {hi:.3g})",
                hint="plot a smaller range",
            )
        ticks = nice_ticks(lo, hi, 5) if hi > lo else []
        if len(ticks) >= 2:
            set_ticks(ticks, [tick_label(t) for t in ticks])


# ---------------------------------------------------------------- files


def svg_text(fig, width=720, height=440) -> str:
    from .svg import PALETTE, Svg, nice_ticks, tick_label  # (with the first plot: start-up)

    left, right, top, bottom = 64, 20, 30 if fig.title else 16, 40
    pw, ph = width - left - right, height - top - bottom
    xs = np.concatenate([s.x[np.isfinite(s.y)] for s in fig.series] or [np.zeros(0)])
    ys = np.concatenate([s.y[np.isfinite(s.y)] for s in fig.series] or [np.zeros(0)])
    x0, x1 = (float(xs.min()), float(xs.max())) if xs.size else (0.0, 1.0)
    y0, y1 = (float(ys.min()), float(ys.max())) if ys.size else (0.0, 1.0)
    if x1 == x0:
        x0, x1 = x0 - 1, x1 + 1
    if y1 == y0:
        y0, y1 = y0 - 1, y1 + 1
    pad = (y1 - y0) * 0.05
    y0, y1 = y0 - pad, y1 + pad

    def px(x):
        return left + (x - x0) / (x1 - x0) * pw

    def py(y):
        return top + (y1 - y) / (y1 - y0) * ph

    d = Svg(width, height)
    if fig.title:
        d.text(width / 2, 20, fig.title, size=14, anchor="middle", weight="bold")
    for t in nice_ticks(x0, x1):
        d.line(px(t), top, px(t), top + ph, stroke="#e5e5e5")
        d.line(px(t), top + ph, px(t), top + ph + 5)
        d.text(px(t), top + ph + 18, tick_label(t), size=11, anchor="middle")
    for t in nice_ticks(y0, y1):
        d.line(left, py(t), left + pw, py(t), stroke="#e5e5e5")
        d.line(left - 5, py(t), left, py(t))
        d.text(left - 8, py(t) + 4, tick_label(t), size=11, anchor="end")
    if y0 < 0 < y1:
        d.line(left, py(0), left + pw, py(0), stroke="#999")
    d.rect(left, top, pw, ph)
    for k, s in enumerate(fig.series):
        color = PALETTE[k % len(PALETTE)]
        run = []
        if s.points:
            for x, y in zip(s.x.tolist(), s.y.tolist()):
                if math.isfinite(y):
                    d.polyline([(px(x), py(y)), (px(x) + 0.1, py(y))], color, width=4)
            continue
        for x, y in zip(s.x.tolist(), s.y.tolist()):
            if math.isfinite(y):
                run.append((px(x), py(y)))
            elif run:
                d.polyline(run, color, dash="6 3" if s.derivative else None)
                run = []
        d.polyline(run, color, dash="6 3" if s.derivative else None)
    if len(fig.series) > 1:
        lx, ly = left + pw - 110, top + 10
        d.rect(lx - 6, ly - 4, 110, 18 * len(fig.series) + 4, fill="white", stroke="#ccc")
        for k, s in enumerate(fig.series):
            color = PALETTE[k % len(PALETTE)]
            y = ly + 9 + 18 * k
            d.line(lx, y, lx + 24, y, stroke=color, width=2, dash="6 3" if s.derivative else None)
            d.text(lx + 30, y + 4, s.label, size=12)
    return d.to_string()


def write_file(fig, path):
    kind = path.rsplit(".", 1)[-1].lower() if "." in path else ""
    if kind == "svg":
        data = svg_text(fig)
    elif kind == "png":
        return _write_png(fig, path)
    else:
        raise GradValueError(
            f"plot(): cannot write {path!r}: the file name must end in .svg or .png"
        )
    try:
        with open(path, "w", encoding="utf-8") as f:
            f.write(data)
    except OSError as e:
        raise GradError(
            f"plot(): cannot write {path!r}: {e.strerror}", type_name="OSError"
        ) from None


def _write_png(fig, path):
    try:
        import matplotlib

        matplotlib.use("Agg")
        import matplotlib.pyplot as mpl
    except ImportError:
        raise GradRuntimeError(
            "plot(): .png files need matplotlib, which is not installed",
            hint="pip install matplotlib (the png extra), or write .svg",
        ) from None
    figure, ax = mpl.subplots(figsize=(7.2, 4.4))
    for s in fig.series:
        ax.plot(s.x, s.y, "--" if s.derivative else "-", label=s.label)
    if len(fig.series) > 1:
        ax.legend()
    if fig.title:
        ax.set_title(fig.title)
    ax.grid(True, alpha=0.3)
    try:
        figure.savefig(path)
    except OSError as e:
        raise GradError(
            f"plot(): cannot write {path!r}: {e.strerror}", type_name="OSError"
        ) from None
    finally:
        mpl.close(figure)


# ---------------------------------------------------------------- the built-in


@not_a_tensor_op(
    "plot",
    "plot(f, a=-5, b=5, file=None, derivative=true, points=None, title=None)",
    "draw f and its derivative f' (by autograd) on [a, b] in the terminal; several "
    "functions, points xs (plot(f, xs)), or data (plot(values), plot(xs, ys)); a last "
    'argument "name.svg" (or .png) writes a file',
    category="autograd",
)
def plot(*args, file=None, derivative=True, points=None, title=None):
    args = list(args)
    if args and isinstance(args[-1], str):
        if file is not None:
            raise GradTypeError("plot(): the file is given twice")
        file = args.pop()
    if file is not None and not isinstance(file, str):
        raise GradTypeError(f"plot(): file must be a string, got {type_name(file)}")
    if title is not None and not isinstance(title, str):
        raise GradTypeError(f"plot(): title must be a string, got {type_name(title)}")
    import shutil  # only when plotting (start-up time)

    width = shutil.get_terminal_size((80, 24)).columns
    fig = build(args, bool(derivative), points, title, terminal_width=width - 10)
    if file is not None:
        write_file(fig, file)
        io.announce(file)
    out = context.current.out
    if out is not None:
        out.figure("plot", fig, file)
    elif file is None:
        sys.stdout.write(fig.text() + "\n")
    return None
