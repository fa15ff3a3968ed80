"""The state of one run, in one object.

Everything a running program changes or reads besides its own variables lives in
a `Context`: grad mode, the default float dtype, print precision, the limits, the
random generator, the warnings already shown, where output and warnings go, and
the position of the statement being run.  A session owns one (`Session.context`)
and activates it; `context.current` is the active one, read by the layers above
as `context.current.grad_enabled` and so on (always through the module, never
`from .context import current`, which would keep a stale object).  A reset is a
new object: `Context()` holds every start-up default (the settings' are written once,
in runtime/settings.py).

This module imports nothing of gradcli at its top but runtime/settings.py (the random
generator is imported when first used), so every layer can use it.
"""

from __future__ import annotations

import sys

import numpy as np

from .settings import DEFAULTS


class Limits:
    """The run-time guards' settings (gradcli/runtime/limits.py enforces them)."""

    __slots__ = (
        "max_memory",
        "max_depth",
        "max_steps",
        "max_items",
        "max_int_bits",
        "base_rss",
        "base_used",
        "room",
        "last_rss",
        "every",
    )

    def __init__(self):
        self.max_memory = DEFAULTS.memory_bytes()  # bytes, --max-memory: the program's total
        self.base_rss = None  # resident bytes when the run began (None: totals not kept)
        self.base_used = 0  # heap bytes in use when the run began
        self.room = 0  # bytes still to be made without a look (half what the last left)
        self.last_rss = None  # resident bytes at a loop's last look (limits.look)
        self.every = 16  # loop iterations until the next look (limits.look)
        self.max_depth = DEFAULTS.max_depth  # user function recursion, --max-depth
        self.max_steps = DEFAULTS.max_steps  # loop iterations, --max-steps
        self.max_items = 10_000_000  # elements of a list / characters of a string
        self.max_int_bits = 14000  # a Python int (about 4,200 digits, all printable)


class Context:
    """One run's settings and state; `Context()` is a fresh run with every default."""

    __slots__ = (
        "grad_enabled",
        "default_float",
        "precision",
        "linewidth",
        "printopts",
        "limits",
        "seed",
        "_generator",
        "warned",
        "out",
        "where",
        "source_line",
        "variables",
        "session",
        "leaf_hooks",
        "node_watches",
        "replay",
        "fast_tier",
        "validate_args",
        "anomaly",
        "backend_flags",
    )

    def __init__(self):
        self.grad_enabled = True  # no_grad / enable_grad flip it
        self.default_float = np.dtype(DEFAULTS.dtype)  # --dtype, set_default_dtype
        self.precision = DEFAULTS.precision  # --precision, set_printoptions
        self.linewidth = DEFAULTS.linewidth  # set_printoptions; the REPL narrows it
        self.printopts = None  # set_printoptions' (threshold, edgeitems, sci_mode)
        self.limits = Limits()
        self.seed = DEFAULTS.seed  # --seed (None: a fresh torch.Generator()'s)
        self._generator = None  # made on first use (start-up time)
        self.warned = set()  # warnings shown once per message
        self.out = None  # the output sink (gradcli/output.py)
        self.where = None  # () -> (file name, line) of the statement run
        self.source_line = None  # (line) -> that line's text in the program run, or ''
        self.variables = None  # the program's variables (names for graphs)
        self.session = None  # the session that owns this context
        self.leaf_hooks = None  # engine: hooks registered on leaf tensors
        self.node_watches = False  # engine: a node got hooks or retain_grad
        self.replay = DEFAULTS.replay  # loop bodies replayed (--no-replay: off)
        self.fast_tier = DEFAULTS.fast_tier  # plain code as Python bytecode (--no-fast-tier)
        # torch.distributions' checks of arguments and values (set_default_validate_args)
        self.validate_args = True
        # torch.autograd's anomaly mode: (on, check_nan) (detect_anomaly, set_detect_anomaly);
        # ANOMALY_OFF itself when off (the engine's plain path asks `is`)
        self.anomaly = ANOMALY_OFF
        # torch.backends' flags and torch's determinism switches set by the program
        # (library/backends.py; None until one is read or set)
        self.backend_flags = None

    @property
    def generator(self):
        """PyTorch's CPU generator, seeded with `seed` when first used."""
        if self._generator is None:
            # imported here, not at the top: the generator module costs ~18 ms of start-up
            from ..numerics.random.generator import Generator

            g = Generator()
            self._generator = g if self.seed is None else g.manual_seed(self.seed)
        return self._generator

    def warn(self, message: str, kind: str = "UserWarning"):
        """A warning on stderr (PyTorch's UserWarning, or `kind`), once per message and run."""
        if message in self.warned:
            return
        self.warned.add(message)
        sys.stdout.flush()
        where = shown = ""
        if self.where is not None:
            filename, line = self.where()
            if line:
                where = f"{filename}:{line}: "
                # Python's warnings show the line of a file ('<stdin>', '<string>': none)
                if self.source_line is not None and not filename.startswith("<"):
                    text = self.source_line(line).strip()
                    shown = f"  {text}\n" if text else ""
        sys.stderr.write(f"{where}{kind}: {message}\n{shown}")
        sys.stderr.flush()


ANOMALY_OFF = (False, True)
current = Context()


def activate(ctx: Context) -> Context:
    """Make `ctx` the active context (a session does this before it runs code)."""
    global current
    current = ctx
    return ctx


def warn(message: str):
    current.warn(message)
