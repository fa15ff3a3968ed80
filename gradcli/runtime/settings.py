"""The run's settings, each defined once: its default, its type, the values it accepts,
its help text and its command-line option.

Everything else derives from `Settings`: the command line's options and their help
(cli.py builds its parser from `OPTIONS`), the fast argument path's defaults
(quickargs.py), the checks of the values given (`check`: driver.configure for the
command line, set_printoptions for `precision`), a fresh run's state (runtime/context.py
starts from `DEFAULTS`) and the REPL's transcript header (what differs from them).

This module imports nothing (start-up time: `gradcli --help` reads it, without NumPy).
"""

from __future__ import annotations


class Range:
    """Whole numbers from `low` (to `high`, when given)."""

    def __init__(self, low, high=None):
        self.low, self.high = low, high

    def __contains__(self, value):
        return self.low <= value and (self.high is None or value <= self.high)

    def __str__(self):
        if self.high is None:
            return f"of at least {self.low}"
        return f"from {self.low} to {self.high}"


def parse_size(text):
    """`1GiB`, `512m`, `1e9`: a number of bytes, positive and finite (ValueError if it is
    not one: inf, nan, 1e400, 0 and negative sizes too)."""
    t = text.strip().lower().replace(" ", "")
    units = {
        "gib": 1 << 30,
        "mib": 1 << 20,
        "kib": 1 << 10,
        "gb": 10**9,
        "mb": 10**6,
        "kb": 10**3,
        "g": 1 << 30,
        "m": 1 << 20,
        "k": 1 << 10,
        "b": 1,
    }
    mult = 1
    for u, m in units.items():
        if t.endswith(u):
            t, mult = t[: -len(u)], m
            break
    value = float(t) * mult
    if not 1 <= value < 2**63:
        raise ValueError(text)
    return int(value)


class Setting:
    """One setting of `Settings` (a class attribute there; an instance holds the value):
    its default, help text, command-line `option` (None: none), `accepts` a `Range` of
    the whole numbers it takes, `what` how its error names them ("a number of digits"),
    `choices` the values of a choice."""

    __slots__ = ("name", "default", "help", "option", "metavar", "accepts", "what", "choices")

    def __init__(
        self, default, help, option=None, *, metavar=None, accepts=None, what=None, choices=None
    ):
        if default is not None and not isinstance(default, bool):
            help = f"{help} (default {default})"
        self.default, self.help, self.option, self.metavar = default, help, option, metavar
        self.accepts, self.what, self.choices = accepts, what, choices

    def __set_name__(self, owner, name):
        self.name = name

    def wrong(self, value):
        """The command line's error text for `value`, or None if it is accepted."""
        if self.accepts is not None and value is not None and value not in self.accepts:
            return (
                f"{self.option} wants {self.what or 'a whole number'} {self.accepts}, got {value}"
            )
        return None


class Settings:
    """The settings of a run (dataclass-style: each class attribute a `Setting`, each
    instance its values; `Settings(precision=8)`).  The command line's value of
    `max_memory` is its text (`1GiB`); `memory_bytes` reads it."""

    seed: int | None = Setting(
        None,
        "seed the random generator",
        "--seed",
        metavar="N",
        accepts=Range(-(1 << 63), (1 << 64) - 1),
    )
    dtype: str = Setting(
        "float64", "default floating dtype", "--dtype", choices=("float64", "float32")
    )
    precision: int = Setting(
        4,  # digits after the point, as PyTorch prints
        "digits printed after the point",
        "--precision",
        metavar="N",
        accepts=Range(0, 30),  # a huge one would print gigabytes
        what="a number of digits",
    )
    linewidth: int = Setting(80, "characters per printed line (PyTorch's)")
    max_memory: str = Setting(
        "1GiB", "memory the program may hold in all", "--max-memory", metavar="SIZE"
    )
    max_depth: int = Setting(
        1000,  # Python's own recursion limit (micrograd's backward recurses through its graph)
        "deepest recursion of user functions, at most 3000 (what the C stack allows)",
        "--max-depth",
        metavar="N",
        accepts=Range(1),
    )
    max_steps: int | None = Setting(
        None, "stop after N loop iterations in all", "--max-steps", metavar="N", accepts=Range(0)
    )
    replay: bool = Setting(
        True, "run every loop iteration as compiled (loop bodies are replayed)", "--no-replay"
    )
    fast_tier: bool = Setting(
        True,
        "run all code in the closure compiler (plain Python code runs as Python bytecode)",
        "--no-fast-tier",
    )

    def __init__(self, **values):
        for f in FIELDS:
            setattr(self, f.name, values.pop(f.name, f.default))
        if values:
            raise TypeError(f"no setting {next(iter(values))!r}")

    def __eq__(self, other):
        return type(other) is Settings and self.__dict__ == other.__dict__

    def __repr__(self):
        return "Settings(" + ", ".join(f"{f.name}={getattr(self, f.name)!r}" for f in FIELDS) + ")"

    def memory_bytes(self):
        return parse_size(self.max_memory)

    def check(self):
        """The first value that is not accepted, as the command line's error text (None
        if all are)."""
        for f in FIELDS:
            value = getattr(self, f.name)
            wrong = f.wrong(value)
            if wrong is not None:
                return wrong
            if f.name == "max_memory":
                try:
                    parse_size(value)
                except ValueError:
                    return (
                        f"--max-memory: not a size: {value!r} (give a positive "
                        "size such as 512MiB, 2GiB or 1e9)"
                    )
        return None

    @classmethod
    def of(cls, args):
        """The settings an argparse-style namespace gives (a missing one: its default)."""
        given = args.__dict__  # (an argparse or quickargs namespace)
        return cls(**{f.name: given.get(f.name, f.default) for f in FIELDS})

    def changed(self):
        """The names whose value is not the default, in definition order."""
        return [f.name for f in FIELDS if getattr(self, f.name) != f.default]


#: the settings, in definition order
FIELDS = tuple(v for v in Settings.__dict__.values() if isinstance(v, Setting))


DEFAULTS = Settings()


def accepts(name):
    """The values setting `name` accepts (a `Range`)."""
    return _BY_NAME[name].accepts


_BY_NAME = {f.name: f for f in FIELDS}

#: the settings that are command-line options
OPTIONS = tuple(f for f in FIELDS if f.option is not None)
