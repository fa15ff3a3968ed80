"""`import matplotlib.pyplot as plt`: the line plots tutorials draw, drawn by gradcli's
own plot (library/plot.py): in the terminal at `plt.show()`, to an .svg (or, with
matplotlib installed, .png) file at `plt.savefig(path)`, as a `plot` record under
--json.  `plt.plot(y)`, `plt.plot(x, y, fmt, label=...)` (several x, y pairs too),
`plt.scatter`, `fig, ax = plt.subplots()` and the axes' `plot`/`scatter`/`set_title`;
titles, labels, legends, grids, limits and figure sizes are accepted (the title is
shown).  Calls that draw what a terminal cannot (`imshow`, `hist`, `bar` ...) are not
here: the attribute error names them.  Values may be tensors, lists or NumPy arrays;
a 2-D value of one column is one line, of several columns one line each."""

from __future__ import annotations

import sys

import numpy as np

from ..core.tensor import Tensor
from ..runtime import context
from ..runtime.errors import GradTypeError, GradValueError
from . import io, stdlib
from .plot import Figure, Series, write_file
from .values import BuiltinFunction


class Axes:
    """One plot: its lines and title (`plt` draws on the current one)."""

    __slots__ = ("series", "title")
    language_methods: dict = {}

    def __init__(self):
        self.series, self.title = [], None

    def plot(self, *args, label=None, **style):
        for i, (xs, ys, points) in enumerate(_groups(list(args))):
            for j, column in enumerate(ys):
                name = label if label is not None and i == 0 and j == 0 else None
                name = name or f"line {len(self.series) + 1}"
                self.series.append(Series(name, xs, column, points=points))

    def scatter(self, x, y, *args, label=None, **style):
        xs, ys = _column(x, "x")[0], _column(y, "y")
        for column in ys:
            if column.size != xs.size:
                raise GradValueError("x and y must be the same size")
            name = label or f"points {len(self.series) + 1}"
            self.series.append(Series(name, xs, column, points=True))

    def set_title(self, text, *args, **kw):
        self.title = str(text)

    def figure(self):
        return Figure(self.series, self.title) if self.series else None

    def __repr__(self):
        return "<Axes>"


def _accept(*args, **kwargs):
    """What a terminal picture has no place for (labels, legends, grids, sizes)."""
    return None


for _name in (
    "set_xlabel set_ylabel legend grid set_xlim set_ylim set_xscale set_yscale "
    "set_xticks set_yticks axhline axvline"
).split():
    Axes.language_methods[_name] = _accept
Axes.language_methods.update(plot=Axes.plot, scatter=Axes.scatter, set_title=Axes.set_title)


def _column(v, what):
    """The columns of v as 1-D float64 arrays (one for a 1-D value)."""
    if isinstance(v, Tensor):
        a = v.data
    else:
        a = np.asarray(v.data if isinstance(v, Tensor) else v)
        if a.dtype == object:
            a = np.asarray([x.item() if isinstance(x, Tensor) else x for x in np.ravel(a)])
    if a.dtype.kind not in "biuf":
        raise GradTypeError(f"plot(): {what} must be numbers")
    a = a.astype(np.float64)
    if a.ndim == 0:
        a = a.reshape(1)
    if a.ndim == 1:
        return [a]
    if a.ndim == 2:
        return [a[:, j].copy() for j in range(a.shape[1])]
    raise GradValueError(f"{what} can be no greater than 2D, but has shape {list(a.shape)}")


def _groups(args):
    """[(xs, [ys columns], points)] from plot's arguments: y, or x, y, each pair with an
    optional format string after it."""
    groups = []
    while args:
        if isinstance(args[0], str):
            raise GradValueError(f"plot(): a format string {args[0]!r} comes after the values")
        if len(args) >= 2 and not isinstance(args[1], str):
            xs, ys = _column(args[0], "x")[0], _column(args[1], "y")
            args = args[2:]
        else:
            ys = _column(args[0], "y")
            xs = np.arange(ys[0].size, dtype=np.float64)
            args = args[1:]
        points = False
        if args and isinstance(args[0], str):  # the format: its colour is the terminal's,
            fmt, args = args[0], args[1:]  # a marker with no line style draws points
            points = any(c in fmt for c in ".,ov^<>12348spP*hH+xXDd|_") and "-" not in fmt
            points = points and ":" not in fmt
        for column in ys:
            if column.size != xs.size:
                raise GradValueError(
                    f"x and y must have same first dimension, but have shapes ({xs.size},) "
                    f"and ({column.size},)"
                )
        groups.append((xs, ys, points))
    return groups


class PyPlot:
    """The state pyplot keeps: the axes drawn on, in order, the current one last."""

    def __init__(self):
        self.axes = [Axes()]

    def current(self):
        return self.axes[-1]

    def figure(self, *args, **kwargs):
        self.axes.append(Axes())
        return FigureHandle(self, [self.axes[-1]])

    def subplots(self, nrows=1, ncols=1, **kwargs):
        made = [Axes() for _ in range(nrows * ncols)]
        self.axes.extend(made)
        one = made[0] if len(made) == 1 else made
        return FigureHandle(self, made), one

    def figures(self):
        out = [a.figure() for a in self.axes]
        return [f for f in out if f is not None]

    def show(self, *args, **kwargs):
        for fig in self.figures():
            _draw(fig, None)
        self.axes = [Axes()]

    def savefig(self, fname, *args, **kwargs):
        _save(self.figures()[-1:], fname)  # (the current figure: the last)

    def close(self, *args, **kwargs):
        self.axes = [Axes()]


class FigureHandle:
    """What `plt.figure()` and `plt.subplots()` give: `savefig`, `show`, `suptitle`."""

    __slots__ = ("state", "made")

    def __init__(self, state, made):
        self.state, self.made = state, made

    def savefig(self, fname, *args, **kwargs):
        _save([f for f in (a.figure() for a in self.made) if f is not None][:1], fname)

    def show(self, *args, **kwargs):
        self.state.show()

    def __repr__(self):
        return "<Figure>"

    language_methods = {
        "savefig": savefig,
        "show": show,
        "suptitle": _accept,
        "tight_layout": _accept,
        "set_size_inches": _accept,
    }


def _save(figs, fname):
    """Write the one figure of figs to fname (.svg, or .png with matplotlib)."""
    if not figs:
        raise GradValueError("savefig(): nothing has been plotted")
    write_file(figs[0], str(fname))
    io.announce(str(fname))


def _draw(fig, file):
    out = context.current.out
    if out is not None:
        out.figure("plot", fig, file)
    else:
        sys.stdout.write(fig.text() + "\n")


def make_module(module_class):
    """The `matplotlib` module (its `pyplot`), one state per module made."""
    state = PyPlot()
    members = {
        "plot": lambda *a, **k: state.current().plot(*a, **k),
        "scatter": lambda *a, **k: state.current().scatter(*a, **k),
        "title": lambda text, *a, **k: state.current().set_title(text),
        "show": state.show,
        "savefig": state.savefig,
        "figure": state.figure,
        "subplots": state.subplots,
        "close": state.close,
        "gca": state.current,
    }
    for name in (
        "xlabel ylabel legend grid xlim ylim xscale yscale xticks yticks axis tight_layout "
        "ion ioff pause clf cla axhline axvline suptitle"
    ).split():
        members[name] = _accept
    pyplot = module_class(
        "matplotlib.pyplot",
        {k: BuiltinFunction(f"matplotlib.pyplot.{k}", v) for k, v in members.items()},
    )
    return module_class(
        "matplotlib", {"pyplot": pyplot, "use": BuiltinFunction("matplotlib.use", _accept)}
    )


stdlib.add_module("matplotlib", lambda: make_module(stdlib.StdModule))
