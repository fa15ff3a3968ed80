"""Fuzz gradcli: every input must end in gradcli's own error (with a line and a
column) or in success, never in a Python exception, a hang or a crash.

Two sources of inputs, run in-process through `gradcli.session.Session`:

* grammar: programs generated from grammar/gradcli.lark by hypothesis's
  `from_lark` (the Indenter's declared _INDENT/_DEDENT are given explicit
  strategies: markers that `layout` turns into real indentation);
* mutate: the example programs, the golden test cases and a list of hostile
  snippets, mutated by byte flips, deletions, duplications, splices and token
  insertions.

    scripts/fuzz.py --count 100000            # both sources, half each
    scripts/fuzz.py --seconds 600 --mode mutate --seed 7

This module is the machinery; tests/robustness/test_fuzz.py runs it for a few thousand
inputs in CI, and scripts/fuzz.py (a thin wrapper) for as long as you like.
Exit status: 0 nothing found, 1 findings (each printed with its input).
"""

from __future__ import annotations

import argparse
import contextlib
import io
import json
import os
import random
import re
import signal
import sys
import tempfile
import time
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
try:
    import gradcli  # noqa: F401  (the installed one, if any)
except ImportError:
    sys.path.insert(0, str(ROOT))

from gradcli.core import dtypes  # noqa: E402
from gradcli.runtime.errors import GradError, render
from gradcli.runtime import context
from gradcli.output import JsonOutput, TextOutput  # noqa: E402
from gradcli.session import Session, reset_globals  # noqa: E402

# ---------------------------------------------------------------- running one input


class FuzzTimeout(BaseException):
    """Raised by the alarm when one input runs too long (a BaseException, so that
    gradcli's own `except Exception` cannot swallow it)."""


class Finding(Exception):
    """An input that ended in something other than success or a positioned GradError."""

    def __init__(self, source, kind, detail):
        super().__init__(f"{kind}: {detail}")
        self.source, self.kind, self.detail = source, kind, detail

    def report(self):
        return (
            f"--- {self.kind}\n{self.detail}\n--- input ({len(self.source)} chars):\n"
            f"{self.source[:2000]!r}\n"
        )


def _on_alarm(signum, frame):
    raise FuzzTimeout()


class _Sandbox:
    """`load`/`save` of fuzzed programs may only touch plain file names inside a
    private temporary directory (a mutation could turn "a.npy" into "/x.npy"): the
    runner works in that directory and gradcli.library.io's `open` refuses any other path."""

    def __init__(self):
        self._tmp = tempfile.TemporaryDirectory(prefix="gradcli-fuzz-")  # removed when dropped
        self.dir = os.path.realpath(self._tmp.name)

    def open(self, path, *args, **kwargs):
        p = os.fspath(path)
        if (
            os.path.isabs(p)
            or os.sep in p
            or (os.altsep and os.altsep in p)
            or p in (".", "..")
            or os.getcwd() != self.dir
        ):
            raise PermissionError(13, "fuzzing: only plain file names", p)
        return open(p, *args, **kwargs)

    @contextlib.contextmanager
    def active(self):
        """While running a fuzzed program: work in the directory, guard gradcli.library.io's open."""
        try:
            from gradcli.library import io as gio
        except ImportError:
            gio = None
        cwd = os.getcwd()
        had = gio is not None and "open" in vars(gio)
        old = vars(gio).get("open") if had else None
        try:
            os.makedirs(self.dir, exist_ok=True)  # (in case something cleaned /tmp)
            os.chdir(self.dir)
            if gio is not None:
                gio.open = self.open
            yield
        finally:
            os.chdir(cwd)
            if gio is not None:
                if had:
                    gio.open = old
                else:
                    vars(gio).pop("open", None)


class Runner:
    """Runs source text the way `gradcli eval` does, in this process, with small
    limits so that no input can take long or use much memory."""

    def __init__(self, timeout=5.0, max_memory=32 << 20, max_steps=500, max_depth=50):
        self.timeout = timeout
        self.max_memory, self.max_steps, self.max_depth = max_memory, max_steps, max_depth
        self.counts = {"ok": 0, "error": 0, "timeout": 0, "not-utf8": 0}
        self.slow = []  # (seconds, source) of inputs over the timeout
        self.suspicious = {}  # message -> (count, source): errors that read like Python's
        self.translated = {}  # where a Python exception became a GradError -> (count, source)
        self._source = ""
        self.sandbox = _Sandbox()
        sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))  # as the CLI does
        self._use_alarm = hasattr(signal, "setitimer")

    @contextlib.contextmanager
    def _watch_translations(self):
        """Note where gradcli turns a Python exception into a GradError (positions.located):
        mostly bad arguments reported by NumPy, but a bug in gradcli shows up here."""
        from gradcli.language import positions

        original = positions.translate_python_error
        runner = self

        def translate(exc):
            tb, where = exc.__traceback__, None
            while tb is not None:
                f = tb.tb_frame.f_code
                if "gradcli" in f.co_filename.replace("\\", "/").split("/")[-2:-1] or where is None:
                    where = f"{Path(f.co_filename).name}:{tb.tb_lineno} {f.co_name}"
                tb = tb.tb_next
            key = f"{type(exc).__name__} at {where}: {str(exc)[:80]}"
            key = (
                re.sub(r"[0-9]+", "N", key)
                if where is None
                else key.split(": ", 1)[0] + ": " + re.sub(r"\d+", "N", str(exc)[:80])
            )
            n, src = runner.translated.get(key, (0, runner._source))
            runner.translated[key] = (n + 1, src)
            return original(exc)

        positions.translate_python_error = translate
        try:
            yield
        finally:
            positions.translate_python_error = original

    def _configure(self, variant):
        """A fresh run context with the fuzzer's limits (float32 by default in one variant of 5)."""
        reset_globals()
        ctx = context.Context()
        ctx.limits.max_memory = self.max_memory
        ctx.limits.max_steps = self.max_steps
        ctx.limits.max_depth = self.max_depth
        if variant % 5 == 4:
            ctx.default_float = dtypes.float32
        return ctx

    def run_bytes(self, data: bytes, variant=0):
        """Bytes as `gradcli eval FILE` reads them: non-UTF-8 must be refused cleanly."""
        from gradcli import driver

        try:
            text = data.decode("utf-8-sig")
        except UnicodeDecodeError:
            text = None
        if text is None or "\x00" in text:
            with tempfile.NamedTemporaryFile("wb", suffix=".ag", delete=False) as f:
                f.write(data)
            try:
                driver.read_source(f.name)
            except driver.UsageError:
                self.counts["not-utf8"] += 1
                return "not-utf8"
            except BaseException as e:
                raise Finding(
                    repr(data[:2000]), "read_source crashed", "".join(traceback.format_exception(e))
                ) from None
            finally:
                os.unlink(f.name)
            raise Finding(repr(data[:2000]), "binary input accepted", "read_source returned text")
        return self.run(text.replace("\r\n", "\n").replace("\r", "\n"), variant)

    def run(self, source: str, variant=0):
        """Run one program; returns 'ok', 'error' or 'timeout'; raises Finding."""
        ctx = self._configure(variant)
        self._source = source
        stream = io.StringIO()
        out = (JsonOutput if variant % 3 == 1 else TextOutput)(stream)
        sink = io.StringIO()
        old = None
        if self._use_alarm:
            old = signal.signal(signal.SIGALRM, _on_alarm)
            signal.setitimer(signal.ITIMER_REAL, self.timeout)
        t0 = time.perf_counter()
        try:
            with (
                self.sandbox.active(),
                self._watch_translations(),
                contextlib.redirect_stderr(sink),
                contextlib.redirect_stdout(sink),
            ):
                session = Session(out, filename="<fuzz>", ctx=ctx)
                try:
                    session.run(source, atomic=variant % 2 == 1)
                    result = "ok"
                except GradError as e:
                    self._check_error(e, source, session)
                    result = "error"
        except FuzzTimeout:
            result = "timeout"
            self.slow.append((time.perf_counter() - t0, source))
        except Finding:
            raise
        except RecursionError as e:
            raise Finding(
                source, "RecursionError", "".join(traceback.format_exception(e))
            ) from None
        except BaseException as e:  # noqa: BLE001 - the whole point
            if isinstance(e, KeyboardInterrupt):
                raise
            raise Finding(
                source, type(e).__name__, "".join(traceback.format_exception(e))
            ) from None
        finally:
            if self._use_alarm:
                signal.setitimer(signal.ITIMER_REAL, 0)
                signal.signal(signal.SIGALRM, old)
            reset_globals()
        self.counts[result] += 1
        return result

    def _check_error(self, e, source, session):
        if not (isinstance(e.line, int) and isinstance(e.column, int)):
            raise Finding(
                source,
                "error without a position",
                f"{type(e).__name__}: {e.message!r} line={e.line!r} column={e.column!r}",
            )
        n_lines = source.count("\n") + 1
        if not (1 <= e.line <= n_lines + 1 and e.column >= 1):
            raise Finding(
                source,
                "error position out of range",
                f"{type(e).__name__}: {e.message!r} at {e.line}:{e.column} ({n_lines} lines)",
            )
        if not isinstance(e.message, str) or not e.message and e.type_name != "StopIteration":
            # (next() of an exhausted iterator raises a bare StopIteration, as in Python)
            raise Finding(source, "error without a message", repr(e.message))
        try:
            text = render(e, "<fuzz>", source)
            session.report(e, source)
            json.dumps({"type": e.type_name, "message": e.message, "hint": e.hint})
        except Exception as exc:  # noqa: BLE001
            raise Finding(
                source, "rendering the error failed", "".join(traceback.format_exception(exc))
            ) from None
        if "Traceback (most recent call last)" in text:
            raise Finding(source, "traceback in an error message", text)
        if _PYTHONIC.search(e.message):
            key = f"{e.type_name}: {re.sub(r'[0-9]+', 'N', e.message)[:160]}"
            n, src = self.suspicious.get(key, (0, source))
            self.suspicious[key] = (n + 1, src)


# messages that leak Python or NumPy internals: not failures, but listed by the long run
_PYTHONIC = re.compile(
    r"NoneType|ndarray|numpy|\bnp\.|<class|object at 0x|builtin_function|"
    r"Traceback|site-packages|\.py\b|ufunc|C long|ssize_t"
)


# ---------------------------------------------------------------- the corpus

HOSTILE = r'''
x = ones(2, 2, requires_grad=true)
y = (x + 2) * 3
out = mean(y ^ 2)
backward out
x.grad
x.__class__
().__class__
"".__class__
print.__globals__
__import__("os")
open("x")
eval("1")
exec("1")
getattr(x, "data")
globals()
"{0.__class__}".format(x)
f"{x.__class__}"
f"{x:>9999999999}"
"{:>99999999999}".format(1)
ones(100000, 100000)
ones(100000, 1) * ones(1, 100000)
ones(1).expand(100000, 100000)
ones(3000, 1) @ ones(1, 3000)
cat([ones(1000, 1000)] * 100)
[1] * 10 ** 9
"a" * 10 ** 10
tensor([[1] * 10000] * 10000)
x = 2 ** 4000
x = x * x * x * x
10 ** 10 ** 10
99999999999999999999999999999999999999
1e999
def f(n):
    return f(n + 1)
f(0)
while true:
    pass
for i in range(10 ** 12):
    pass
z = tensor(1.0, requires_grad=true)
w = z
for i in range(300):
    w = sin(w) * 1.01 + w
backward w
grad(w, z, create_graph=true)[0]
jacobian(lambda v: v * v, ones(3))
hessian(lambda v: sum(v ^ 3), ones(3))
gradcheck(lambda v: exp(v), ones(3))
save(x, "t.npy")
load("t.npy")
load("missing.csv")
save(ones(2), "out.csv")
load("out.csv")
with no_grad:
    q = x * 2
a, b = 1, 2
a, = [1]
del a
max(ones(3, 4), dim=1).values
softmax(randn(3, 4), dim=-1)
sqrt(tensor(0.0, requires_grad=true))
log(tensor(-1.0))
1 / tensor(0.0)
x[0, 1]
x[:, None, 1:]
x[[0, 1, 1]]
x[x > 0]
graph(out)
graph(out, "dot")
class C(Exception):
    """doc"""
    k = [i for i in range(3)]
    def __init__(self, *a, b=1, **kw):
        super().__init__(*a)
        self.__dict__ = {}
    @property
    def p(self):
        yield from range(10 ** 9)
try:
    raise C(1)
except (C, ValueError) as e:
    print(e.args, type(e).__subclasses__)
finally:
    del x
def g():
    while true:
        yield 1
list(g())
{k: v for k, v in zip(range(3), range(3)) if k is not None}
import math, random, functools, itertools, copy
math.factorial(10 ** 9)
random.seed(1); random.sample(range(10 ** 12), 3)
itertools.product(range(10 ** 6), repeat=10)
copy.deepcopy([x] * 1000)
functools.reduce(lambda a, b: a * b, range(1, 10 ** 6))
a, *b = range(5); d = {**{}, 1: 2}; d[1] += 1; s = {1, 2}
def outer():
    n = 0
    def inner():
        nonlocal n
        n += 1
    return inner
outer()()
'''


# classes, generators, comprehensions, decorators, exceptions and the safe modules
# (the newer constructs are mutated too)
SNIPPETS = [
    """import itertools
def naturals():
    n = 0
    while True:
        yield n
        n += 1
def f(a):
    "doc"
    return a
x = tensor([-1.0, 0.5, 2.0])
m = (x > 0) & (x < 1) | ~(x > 1)
i = tensor([1, 2, 3])
i <<= 1
i &= 6
print(m, i, 3 & 5 | 1 << 2 >> 1, ~5, f.__name__, f.__doc__, type(x), type(f).__name__)
print(list(zip("abc", naturals())), next(naturals()), any(n > 5 for n in itertools.count()))
""",
    """class A:
    k = 1
    def __init__(self, v=2):
        self.v = v
    def __repr__(self):
        return f"A({self.v})"
    @property
    def p(self):
        return self.v * 2
    @staticmethod
    def s(a):
        return a + 1
    @classmethod
    def c(cls):
        return cls(5)
class B(A):
    def __init__(self):
        super().__init__(3)
        self.w = [i * i for i in range(4)]
    def __len__(self):
        return len(self.w)
    def __getitem__(self, i):
        return self.w[i]
    def __call__(self, x):
        return x * self.v
b = B()
print(b, b.p, B.s(1), A.c(), len(b), b[2], b(ones(2)), isinstance(b, A), type(b))
""",
    """def gen(n):
    for i in range(n):
        if i % 2:
            yield i
    yield from [10, 20]
g = gen(6)
print(next(g), list(g), sum(gen(4)), [x * 2 for x in gen(3)])
print({k: v for k, v in zip("ab", gen(5))}, {x % 3 for x in range(9)}, max(x for x in gen(7)))
""",
    """def deco(f):
    def wrapper(*args, **kwargs):
        return f(*args, **kwargs) + 1
    return wrapper
@deco
def h(x, *, scale=2):
    return x * scale
def counter():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    return inc
c = counter()
c()
print(h(3), h(3, scale=4), c(), (lambda *a, **k: (a, k))(1, b=2))
""",
    """class MyError(ValueError):
    pass
def risky(v):
    if v < 0:
        raise MyError("negative", v)
    return v
for v in (1, -1, 0):
    try:
        risky(v)
    except MyError as e:
        print("caught", e.args)
    except (TypeError, IndexError):
        print("other")
    else:
        print("fine")
    finally:
        print("done")
try:
    [][1]
except IndexError as e:
    print(e)
""",
    """import math, random, functools, itertools, collections, copy
from collections import namedtuple, defaultdict
P = namedtuple("P", "a b")
d = defaultdict(list)
d["k"].append(math.sqrt(2))
random.seed(0)
print(P(1, 2).a, d, functools.reduce(lambda a, b: a * b, range(1, 6)),
      list(itertools.product([1, 2], "ab")), random.randint(1, 6),
      copy.deepcopy([ones(2)]), collections.Counter("aab"), functools.partial(max, 3)(5))
""",
    """import torch.nn as nn
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = nn.Linear(3, 2)
    def forward(self, x):
        return relu(self.lin(x))
torch.manual_seed(0)
net = Net()
opt = torch.optim.SGD(net.parameters(), lr=0.1)
for step in range(3):
    opt.zero_grad()
    loss = net(ones(4, 3)).sum()
    loss.backward()
    opt.step()
print(net, loss)
""",
    """class Square(torch.autograd.Function):
    @staticmethod
    def forward(ctx, x):
        ctx.save_for_backward(x)
        return x * x
    @staticmethod
    def backward(ctx, g):
        x, = ctx.saved_tensors
        return 2 * x * g
x = tensor([1.0, 2.0], requires_grad=true)
Square.apply(x).sum().backward()
print(x.grad)
""",
]


def tutorials():
    """The tutorial-style programs (tests/tutorials/*.py: PyTorch tutorials as published)."""
    out = []
    for path in sorted((ROOT / "tests" / "tutorials").glob("*.py")):
        try:
            out.append(path.read_text("utf-8"))
        except (OSError, UnicodeDecodeError):
            pass
    return out


def corpus():
    """Seed programs: the examples, the golden cases, the tutorial-style programs,
    snippets of the newer constructs and the hostile snippets."""
    progs = []
    for path in sorted((ROOT / "scripts" / "examples").glob("*.ag")):
        progs.append(path.read_text("utf-8"))
    for path in sorted(ROOT.rglob("*.ag")):
        if "examples" not in path.parts and ".git" not in path.parts:
            try:
                progs.append(path.read_text("utf-8"))
            except (OSError, UnicodeDecodeError):
                pass
    for name in ("cases.json", "language.json"):
        golden = ROOT / "tests" / "golden" / name
        if golden.is_file():
            try:
                for case in json.loads(golden.read_text("utf-8")).values():
                    if isinstance(case, dict) and isinstance(case.get("source"), str):
                        progs.append(case["source"])
            except (ValueError, OSError):
                pass
    progs.extend(tutorials())
    progs.extend(SNIPPETS)
    progs.append(HOSTILE)
    progs.extend(chunk + "\n" for chunk in HOSTILE.strip().split("\n\n"))
    return progs


TOKENS = [
    "(",
    ")",
    "[",
    "]",
    ",",
    ":",
    ";",
    ".",
    "=",
    "+",
    "-",
    "*",
    "/",
    "//",
    "%",
    "@",
    "^",
    "**",
    "<",
    "<=",
    "==",
    "!=",
    "not ",
    " and ",
    " or ",
    " if ",
    " else ",
    " in ",
    "lambda ",
    "def ",
    "return ",
    "while ",
    "for ",
    "with ",
    "backward ",
    "del ",
    "pass",
    "break",
    "continue",
    "import torch",
    "assert ",
    "\n",
    "\n    ",
    "\t",
    "    ",
    "#",
    "\\\n",
    '"',
    "'",
    'f"{x}"',
    "0",
    "1",
    "-1",
    "1e308",
    "1e-308",
    "nan",
    "inf",
    "10**9",
    "2**63",
    "99999999999999999999",
    "x",
    "y",
    "z",
    "x.grad",
    "x.T",
    ".requires_grad",
    ".backward()",
    ".grad_fn",
    ".data",
    "ones(2, 3)",
    "ones(100000, 100000)",
    "tensor([1., 2.])",
    "randn(3)",
    "[[1, 2], [3, 4]]",
    "none",
    "true",
    "...",
    "__class__",
    "__import__",
    "(((((((((",
    ")))))))))",
    "- - - - -",
    "[[[[[[",
    "]]]]]]",
    "x" * 200,
    "class ",
    "class C:\n    ",
    "(C)",
    "self.",
    "super().",
    "@staticmethod\n",
    "@property\n",
    "@classmethod\n",
    "@",
    "yield ",
    "yield from ",
    "&",
    "|",
    "~",
    "<<",
    ">>",
    "&=",
    "|=",
    "<<=",
    ">>=",
    "(x > 0) & (x < 1)",
    "~(x > 0)",
    "1 << 10000",
    ".__name__",
    ".__qualname__",
    ".__doc__",
    "type(x)",
    "next(g)",
    "try:\n    ",
    "except ",
    "except Exception as e:\n    ",
    "finally:\n    ",
    "raise ",
    " as ",
    "global ",
    "nonlocal ",
    "import math",
    "from itertools import *",
    " for x in ",
    "[x for x in range(3)]",
    "(x for x in g())",
    "{k: k for k in x}",
    "*args",
    "**kw",
    "__init__",
    "__repr__",
    "__call__",
    "gi_frame",
    "__traceback__",
    "__closure__",
    "__code__",
    "__mro__",
    "__bases__",
    "__func__",
    "__wrapped__",
    "metaclass=",
    "e.args",
    "\u00e9",
    "\u2028",
    "\x0c",
    "\x0b",
    "\ufeff",
    "\ud800",
]


def mutate(rng: random.Random, data: bytes, pool) -> bytes:
    """One to four mutations: flips, deletions, duplications, splices, token insertions."""
    b = bytearray(data)
    for _ in range(rng.choice((1, 1, 1, 2, 2, 3, 4))):
        op = rng.randrange(9)
        n = len(b)
        i = rng.randint(0, n)
        if op == 0 and n:  # flip a byte
            j = rng.randrange(n)
            b[j] ^= 1 << rng.randrange(8)
        elif op == 1 and n:  # random byte
            b[rng.randrange(n)] = rng.randrange(256)
        elif op == 2 and n:  # delete a range
            j = min(n, i + rng.choice((1, 1, 2, 3, 8, 30)))
            del b[i:j]
        elif op == 3 and n:  # duplicate a range
            j = min(n, i + rng.choice((1, 2, 5, 20, 80)))
            b[i:i] = b[i:j] * rng.choice((1, 2, 3, 20))
        elif op == 4:  # splice from another program
            other = rng.choice(pool).encode("utf-8", "surrogatepass")
            if other:
                s = rng.randrange(len(other))
                b[i:i] = other[s : s + rng.randint(1, 120)]
        elif op == 5:  # insert a token
            b[i:i] = rng.choice(TOKENS).encode("utf-8", "surrogatepass")
        elif op == 6 and n:  # swap two lines
            lines = bytes(b).split(b"\n")
            if len(lines) > 1:
                p, q = rng.randrange(len(lines)), rng.randrange(len(lines))
                lines[p], lines[q] = lines[q], lines[p]
                b = bytearray(b"\n".join(lines))
        elif op == 7 and n:  # repeat a line many times
            lines = bytes(b).split(b"\n")
            k = rng.randrange(len(lines))
            lines[k : k + 1] = [lines[k]] * rng.choice((2, 10, 100))
            b = bytearray(b"\n".join(lines))
        elif op == 8:  # re-indent a line
            lines = bytes(b).split(b"\n")
            k = rng.randrange(len(lines))
            lines[k] = rng.choice((b"", b" ", b"\t", b"    ", b"        ")) + lines[k].lstrip()
            b = bytearray(b"\n".join(lines))
    if len(b) > 20000:
        del b[20000:]
    return bytes(b)


def mutation_inputs(rng: random.Random, pool):
    """An endless stream of mutated programs (bytes)."""
    encoded = [p.encode("utf-8", "surrogatepass") for p in pool]
    while True:
        yield mutate(rng, rng.choice(encoded), pool)


# ---------------------------------------------------------------- grammar-based inputs

COMMON = [
    "x",
    "y",
    "z",
    "f",
    "t",
    "i",
    "out",
    "ones",
    "tensor",
    "sum",
    "mean",
    "exp",
    "grad",
    "backward",
    "requires_grad",
    "shape",
    "range",
    "print",
    "len",
    "sin",
    "matmul",
    "reshape",
    "cat",
    "max",
    "softmax",
    "no_grad",
    "T",
    "item",
    "data",
]
NAMES = [
    "x",
    "y",
    "z",
    "w",
    "a",
    "b",
    "f",
    "g",
    "i",
    "n",
    "t",
    "out",
    "torch",
    "F",
    "__class__",
    "__import__",
    "__globals__",
    "__dict__",
    "__subclasses__",
    "__self__",
    "open",
    "eval",
    "exec",
    "getattr",
    "globals",
    "os",
    "sys",
    "fn",
    "obj",
    "body",
    "parents",
    "saved",
    "self",
    "cls",
    "C",
    "e",
    "gi_frame",
    "gi_code",
    "__code__",
    "__closure__",
    "__traceback__",
    "__mro__",
    "__bases__",
    "__func__",
    "__wrapped__",
    "__init__",
    "__repr__",
    "super",
    "math",
    "functools",
    "copy",
    "partial",
    "func",
]
NUMBERS = [
    "0",
    "1",
    "2",
    "3",
    "4",
    "10",
    "0.5",
    "2.5",
    ".5",
    "1e-3",
    "1e308",
    "1e400",
    "100000",
    "99999999999999999999",
    "1_000",
    "7",
    "0.0",
    "1j",
]
STRINGS = [
    '"a"',
    "'b'",
    '""',
    '"{}"',
    '"{0}"',
    '"{:>5}"',
    '"{0.__class__}"',
    'f"{x}"',
    'f"{1+1:.3f}"',
    'f"{x.__class__}"',
    '"t.npy"',
    '"t.csv"',
    '"dot"',
    '"\\n"',
    'r"\\d"',
    '"\\ud800"',
    '"%s"',
]


def _names():
    from gradcli.language import runtime
    from gradcli.library.torch_ns import namespace

    names = set(NAMES) | set(namespace()) | set(runtime.TENSOR_ATTRS) | set(runtime.METHODS)
    return sorted(n for n in names if n.isidentifier())


def layout(text: str) -> str:
    """Turn the \\x01 (indent) and \\x02 (dedent) markers into indentation."""
    out, level, start = [], 0, True
    for ch in text:
        if ch == "\x01":
            level += 1
        elif ch == "\x02":
            level = max(0, level - 1)
        elif ch == "\n":
            out.append("\n")
            start = True
        else:
            if start:
                out.append("    " * level)
                start = False
            out.append(ch)
    return "".join(out)


PRELUDE = """\
x = ones(2, 3, requires_grad=true)
y = tensor([1.0, -2.0, 0.5], requires_grad=true)
z = 2
t = randn(3, 3)
def f(a):
    return a * 2 + 1
out = sum(x * 3)
"""


STARTS = ("start", "compound_stmt", "decorated")


def grammar_strategy(prelude=True):
    """Programs drawn from grammar/gradcli.lark (hypothesis's from_lark), after a
    prelude that binds the names the generator favours (x, y, z, t, f, out)."""
    from hypothesis import strategies as st
    from hypothesis.extra.lark import from_lark
    from lark import Lark
    from lark.lexer import PatternStr

    from gradcli.language.parser import grammar_text

    # besides whole programs, single compound statements and decorated definitions:
    # drawn from `start` alone, the deep rules (class, try, decorators) were rare
    grammar = Lark(grammar_text(), parser="lalr", start=list(STARTS))
    names = _names()
    explicit = {
        "_INDENT": st.just("\x01"),
        "_DEDENT": st.just("\x02"),
        "_NEWLINE": st.sampled_from(["\n", "\n", "\n", "  # c\n", "\n\n"]),
        "NAME": st.one_of(
            st.sampled_from(COMMON),
            st.sampled_from(names),
            st.from_regex(r"[a-z_][a-z0-9_]{0,6}", fullmatch=True),
        ).map(lambda s: s + " "),
        "NUMBER": st.one_of(
            st.sampled_from(NUMBERS),
            st.from_regex(r"[0-9]{1,25}(\.[0-9]{0,5})?(e-?[0-9]{1,3})?", fullmatch=True),
        ).map(lambda s: s + " "),
        "STRING": st.sampled_from(STRINGS).map(lambda s: s + " "),
        "LONG_STRING": st.sampled_from(
            ['"""doc"""', "'''two\nlines'''", 'f"""{x}"""', 'r"""\\d"""']
        ).map(lambda s: s + " "),
        "BACKWARD_CMD": st.just("backward "),
        "COMMENT": st.just(""),
    }
    for t in grammar.terminals:
        if t.name in explicit:
            continue
        if isinstance(t.pattern, PatternStr):
            explicit[t.name] = st.just(t.pattern.value + " ")
        elif t.name.startswith("__IGNORE"):
            explicit[t.name] = (
                st.sampled_from([" ", "\t", "\\\n"]) if "n" in t.pattern.value else st.just(" ")
            )
        else:
            explicit[t.name] = st.from_regex(t.pattern.to_regexp(), fullmatch=True).map(
                lambda s: s + " "
            )
    body = st.one_of(*(from_lark(grammar, start=r, explicit=explicit) for r in STARTS)).map(layout)
    if not prelude:
        return body
    return st.tuples(st.booleans(), body).map(lambda p: PRELUDE + p[1] if p[0] else p[1])


# ---------------------------------------------------------------- the long run

_START = time.time()


def progress(mode, done, count, found):
    """One line on stderr now and then, so that a long run shows where it is."""
    if done % 1000 < 200 or done == count:
        print(
            f"[{time.time() - _START:7.0f} s] {mode}: {done}/{count}, {found} findings",
            file=sys.stderr,
            flush=True,
        )


def run_grammar(runner, count, deadline, report):
    """`count` grammar-based inputs through hypothesis (no shrinking: findings are
    collected, the run goes on)."""
    from hypothesis import HealthCheck, Phase, given, settings

    strategy = grammar_strategy()
    findings = []
    done = [0]
    chunk = 200

    while done[0] < count and time.time() < deadline:
        n = min(chunk, count - done[0])

        @settings(
            max_examples=n,
            deadline=None,
            database=None,
            phases=[Phase.generate],
            suppress_health_check=list(HealthCheck),
        )
        @given(strategy)
        def one(src):
            if done[0] >= count or time.time() >= deadline:
                return
            try:
                runner.run(src, variant=done[0])
            except Finding as f:
                findings.append(f)
                report(f)
            done[0] += 1

        one()
        progress("grammar", done[0], count, len(findings))
    return done[0], findings


def run_mutations(runner, count, deadline, seed, report):
    rng = random.Random(seed)
    pool = corpus()
    findings = []
    done = 0
    for data in mutation_inputs(rng, pool):
        if done >= count or time.time() >= deadline:
            break
        try:
            runner.run_bytes(data, variant=done)
        except Finding as f:
            findings.append(f)
            report(f)
        done += 1
        if done % 5000 == 0:
            progress("mutate", done, count, len(findings))
    return done, findings


def main(argv=None):
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--count", type=int, default=10000, help="inputs in all (default 10000)")
    p.add_argument("--seconds", type=float, default=None, help="stop after this long")
    p.add_argument("--mode", choices=("both", "grammar", "mutate"), default="both")
    p.add_argument(
        "--grammar-share",
        type=float,
        default=0.5,
        metavar="F",
        help="with --mode both, the fraction of inputs that are grammar-based "
        "(default 0.5; they are slower to make than mutations)",
    )
    p.add_argument("--seed", type=int, default=None, help="seed for the mutations")
    p.add_argument("--timeout", type=float, default=10.0, help="seconds per input")
    p.add_argument(
        "--max-rss",
        default="8GiB",
        help="address-space limit of this process, a safety net (default 8GiB)",
    )
    args = p.parse_args(argv)
    seed = args.seed if args.seed is not None else random.randrange(1 << 30)
    try:
        import resource
        from gradcli.runtime.settings import parse_size as _size

        cap = _size(args.max_rss)
        soft, hard = resource.getrlimit(resource.RLIMIT_AS)
        if hard == resource.RLIM_INFINITY or hard > cap:
            resource.setrlimit(resource.RLIMIT_AS, (cap, hard))
    except (ImportError, ValueError, OSError):
        pass
    start = time.time()
    deadline = start + args.seconds if args.seconds else float("inf")
    runner = Runner(timeout=args.timeout)

    def report(f):
        print(f.report(), flush=True)

    total, findings = 0, []
    modes = ["grammar", "mutate"] if args.mode == "both" else [args.mode]
    fractions = (
        {"grammar": args.grammar_share, "mutate": 1 - args.grammar_share}
        if len(modes) == 2
        else {modes[0]: 1.0}
    )
    elapsed_share = 0.0
    for i, mode in enumerate(modes):
        share = round(args.count * fractions[mode]) if i < len(modes) - 1 else args.count - total
        elapsed_share += fractions[mode]
        left = deadline if args.seconds is None else start + args.seconds * elapsed_share
        t0 = time.time()
        if mode == "grammar":
            n, fs = run_grammar(runner, share, left, report)
        else:
            n, fs = run_mutations(runner, share, left, seed, report)
        total += n
        findings += fs
        print(f"{mode}: {n} inputs in {time.time() - t0:.1f} s, {len(fs)} findings", flush=True)
    elapsed = time.time() - start
    print(
        f"total: {total} inputs in {elapsed:.1f} s (mutation seed {seed}); outcomes "
        f"{runner.counts}; {len(findings)} findings; {len(runner.slow)} over the "
        f"{args.timeout:.0f} s timeout",
        flush=True,
    )
    for secs, src in runner.slow[:20]:
        print(f"slow ({secs:.1f} s): {src[:300]!r}")
    if runner.translated:
        print(f"{len(runner.translated)} places where a Python exception became a GradError:")
        for key, (n, src) in sorted(runner.translated.items(), key=lambda kv: -kv[1][0])[:60]:
            print(f"  {n:6d} x {key}\n           e.g. {src[:160]!r}")
    if runner.suspicious:
        print(f"{len(runner.suspicious)} error messages that read like Python's own:")
        for key, (n, src) in sorted(runner.suspicious.items(), key=lambda kv: -kv[1][0])[:40]:
            print(f"  {n:6d} x {key}\n           e.g. {src[:200]!r}")
    return 1 if findings else 0
