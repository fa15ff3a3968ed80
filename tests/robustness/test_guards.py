"""The guards of SPEC section 8: every hostile input ends in a clear error (or a
result), in bounded time and memory, and never in a traceback or a crash.

Each program runs as `python -m gradcli ...` in a child process whose peak
memory is read with os.wait4 (the child's own rusage) and whose address space is
capped with RLIMIT_AS, so that a guard that fails cannot take the machine down:
it shows up as a failed test (a MemoryError turned into "out of memory", a
killed child, or a peak RSS over the bound).
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]

try:
    import resource
except ImportError:  # not on POSIX: the guards are still run, unmeasured
    resource = None

MiB = 1 << 20
AS_LIMIT = 8 << 30  # address-space cap of each child (virtual, generous)
SECONDS = 5.0  # "generously": most guards answer in well under a second
RSS = 400 * MiB  # peak resident memory of a refused allocation


class Result:
    def __init__(self, code, stdout, stderr, seconds, maxrss):
        self.code, self.stdout, self.stderr = code, stdout, stderr
        self.seconds, self.maxrss = seconds, maxrss

    def __repr__(self):
        return (
            f"<exit {self.code} in {self.seconds:.2f} s, {self.maxrss / MiB:.0f} MiB: "
            f"stdout={self.stdout[-300:]!r} stderr={self.stderr[-600:]!r}>"
        )


def _limit_child():
    if resource is not None:
        try:
            resource.setrlimit(resource.RLIMIT_AS, (AS_LIMIT, AS_LIMIT))
        except (ValueError, OSError):
            pass


# The child reports its own peak memory (VmHWM of its process image, at exit): a forked
# child's ru_maxrss also counts the parent's pages (until exec, whose high-water mark
# carries over), so a pytest process grown by earlier in-process tests would show up in
# every measurement here.
_LAUNCH = """import atexit, os, runpy, sys
def _peak():
    try:
        with open("/proc/self/status") as f:
            kb = next(line.split()[1] for line in f if line.startswith("VmHWM:"))
        with open(os.environ["GRADCLI_TEST_PEAK"], "w") as out:
            out.write(kb)
    except (OSError, StopIteration, KeyError):
        pass
atexit.register(_peak)
sys.argv = ["gradcli", *sys.argv[1:]]
runpy.run_module("gradcli", run_name="__main__", alter_sys=True)
"""


def gradcli(*args, stdin: bytes = b"", timeout=120.0) -> Result:
    """Run gradcli with ARGS (as `python -m gradcli`) and measure it: time, and the
    child's own peak resident memory."""
    # (few BLAS threads: each reserves address space, and the children are capped)
    env = dict(os.environ, NO_COLOR="1", PYTHONIOENCODING="utf-8", OPENBLAS_NUM_THREADS="2")
    env.pop("PYTHONSTARTUP", None)
    with (
        tempfile.TemporaryFile() as fin,
        tempfile.TemporaryFile() as fout,
        tempfile.TemporaryFile() as ferr,
        tempfile.TemporaryDirectory() as tmp,
    ):
        peak_file = os.path.join(tmp, "peak")
        env["GRADCLI_TEST_PEAK"] = peak_file
        fin.write(stdin)
        fin.seek(0)
        t0 = time.perf_counter()
        p = subprocess.Popen(
            [sys.executable, "-c", _LAUNCH, *args],
            stdin=fin,
            stdout=fout,
            stderr=ferr,
            cwd=str(ROOT),
            env=env,
            preexec_fn=_limit_child if os.name == "posix" else None,
        )
        timer = threading.Timer(timeout, lambda: p.kill())
        timer.start()
        try:
            p.wait()
        finally:
            timer.cancel()
        seconds = time.perf_counter() - t0
        try:
            with open(peak_file) as f:
                maxrss = int(f.read()) * 1024  # VmHWM is in kB
        except (OSError, ValueError):
            maxrss = 0  # not measured (no /proc, or killed)
        fout.seek(0)
        ferr.seek(0)
        return Result(
            p.returncode,
            fout.read().decode("utf-8", "replace"),
            ferr.read().decode("utf-8", "replace"),
            seconds,
            maxrss,
        )


def run_code(code, *options, timeout=120.0) -> Result:
    """`gradcli eval [OPTIONS] -` with CODE on stdin."""
    return gradcli("eval", *options, "-", stdin=code.encode("utf-8"), timeout=timeout)


def assert_clean_error(r: Result, kind, code=1, line=None, text=None):
    """Exit `code`, one positioned gradcli error of type `kind` on stderr, no traceback."""
    assert r.code == code, r
    assert "Traceback" not in r.stderr and "Traceback" not in r.stdout, r
    assert "internal error" not in r.stderr.lower(), r
    m = re.search(r"^<stdin>:(\d+):(\d+): (\w+): (.*)$", r.stderr, re.M)
    assert m, f"no 'file:line:col: Type: message' line: {r}"
    assert m.group(3) == kind, r
    if line is not None:
        assert int(m.group(1)) == line, r
    if text is not None:
        assert re.search(text, m.group(4)), r
    assert "^" in r.stderr, r  # the caret under the place


def assert_bounded(r: Result, seconds=SECONDS, rss=RSS):
    assert r.seconds < seconds, f"took {r.seconds:.1f} s: {r}"
    if r.maxrss:
        assert r.maxrss < rss, f"peak RSS {r.maxrss / MiB:.0f} MiB: {r}"


# ---------------------------------------------------------------- memory cap

CAP = r"memory cap of 1\.0 GiB"

BIG = [
    # creation
    ("ones(100000, 100000)", CAP),
    ("zeros(100000, 100000)", CAP),
    ("full((50000, 50000), 1.5)", CAP),
    ("eye(100000)", CAP),
    ("arange(1e12)", CAP),
    ("arange(0, 1, 1e-300)", CAP),
    ("linspace(0, 1, 10**10)", CAP),
    ("rand(100000, 100000)", CAP),
    ("randn(100000, 100000)", CAP),
    ("ones(2**64)", CAP),
    ("x = ones(1000, 1000)\nones_like(x).expand(100000, 1000, 1000)", CAP),
    ("tensor([[1] * 100000] * 100000)", CAP),
    ("r = [1] * 10**7\ntensor([r] * 10**7)", CAP),
    # views that would be materialised
    ("ones(1).expand(100000, 100000)", CAP),
    ("ones(1, 100000).expand(100000, -1)", CAP),
    # broadcasting results
    ("ones(100000, 1) * ones(1, 100000)", CAP),
    ("ones(100000, 1) + ones(100000)", CAP),
    ("ones(100000, 1) < ones(1, 100000)", CAP),
    ("maximum(ones(100000, 1), ones(1, 100000))", CAP),
    ("where(ones(100000, 1) > 0, ones(1, 100000), 0.0)", CAP),
    ("outer(ones(100000), ones(100000))", CAP),
    # products, joins, indexing
    ("ones(30000, 2) @ ones(2, 30000)", CAP),
    ("matmul(ones(4, 30000, 1), ones(1, 30000))", CAP),
    ("mm(ones(100000, 1), ones(1, 100000))", CAP),
    ("cat([ones(5000, 5000)] * 100)", CAP),
    ("stack([ones(5000, 5000)] * 100)", CAP),
    ("ones(1, 100000)[zeros(100000, dtype=long)]", CAP),
    # calculus
    ("jacobian(lambda v: v * 2, ones(100000))", CAP),
    ("hessian(lambda v: sum(v ^ 2), ones(100000))", CAP),
    ("gradcheck(lambda v: v * 2, ones(100000))", CAP),
]


@pytest.mark.parametrize("code,text", BIG, ids=[c[:40] for c, _ in BIG])
def test_memory_cap_refuses_before_allocating(code, text):
    r = run_code(code)
    assert_clean_error(r, "LimitError", text=text)
    assert "--max-memory" in r.stderr, r  # the hint says how to raise the cap
    assert_bounded(r)


PYTHON_VALUES = [
    ("[1] * 10**9", r"elements"),
    ('"a" * 10**10', r"characters"),
    ("list(range(10**9))", r"elements"),
    ("a, b = range(10**9)", r"elements"),
    ("x = ones(1).expand(10**8)\ny = x.tolist()", r"Python objects"),
    ("x = ones(10**7)\ny = list(x)", r"Python objects"),
    ("x = ones(10**7)\nfor r in x:\n    pass", r"Python objects"),
    ('"{:>9999999999}".format(1)', r"format spec"),
    ('f"{1:>999999999}"', r"format spec"),
    ('x = 1.5\nf"{x:.999999999f}"', r"format spec"),
    ('("{0}" * 3000000).format("a" * 10000000)', r"characters"),
    ('"%9999999999d" % 1', r"format spec"),
    ('"%.999999999f" % 1.5', r"format spec"),
    ('("%s" * 2000000) % (("a" * 10,) * 2000000)', r"characters"),
    ('"a".replace("", "b" * 9000000)', r"characters"),
    ('"ab".join(["x" * 9000000] * 5)', r"characters"),
    ("l = [1] * 10**7\nl.append(1)", r"elements"),
]


@pytest.mark.parametrize("code,text", PYTHON_VALUES, ids=[c[:40] for c, _ in PYTHON_VALUES])
def test_python_values_are_bounded(code, text):
    """Lists, strings and formatted text have limits too (10 million items)."""
    r = run_code(code, timeout=60)
    assert_clean_error(r, "LimitError", text=text)
    assert_bounded(r, seconds=20)


def test_max_memory_option():
    r = run_code("x = ones(1000, 1000)", "--max-memory", "1MiB")
    assert_clean_error(r, "LimitError", text=r"memory cap of 1\.0 MiB")
    r = run_code("x = ones(100, 100)\nprint(x.sum())", "--max-memory", "1MiB")
    assert r.code == 0 and r.stdout == "tensor(10000.)\n", r
    r = run_code("x = ones(100, 1) * ones(1, 1000)", "--max-memory", "100KiB")
    assert_clean_error(r, "LimitError", text=r"\(100, 1000\)")


def test_allowed_sizes_still_work():
    """The guards refuse only what is over the cap."""
    r = run_code(
        "a = ones(3000, 1) * ones(1, 3000)\n"
        "b = ones(1).expand(1000, 1000) + 1\n"
        "c = cat([ones(100, 100)] * 10)\n"
        "d = ones(2, 100)[zeros(500, dtype=long)]\n"
        "e = (ones(200, 3) @ ones(3, 200)).sum()\n"
        "print(a.shape, b.shape, c.shape, d.shape, e)"
    )
    assert r.code == 0, r
    assert r.stdout == (
        "torch.Size([3000, 3000]) torch.Size([1000, 1000]) "
        "torch.Size([1000, 100]) torch.Size([500, 100]) tensor(120000.)\n"
    ), r
    assert_bounded(r, rss=600 * MiB)


def test_huge_integers_overflow_to_inf():
    """A Python int that keeps growing (x = x * x) overflows to inf as ** does,
    instead of eating the memory."""
    r = run_code(
        "x = 2 ** 4000\nfor i in range(40):\n    x = x * x\nprint(x)\n"
        "print((10 ** 4000) ** 4000, 10 ** 5000, -(2 ** 100000) * 2 ** 100000)\n"
        "x = 2 ** 4000\nprint(x * x * x == (2 ** 3000) ** 4)"
    )
    assert r.code == 0, r
    assert r.stdout == "inf\ninf inf -inf\nTrue\n", r
    assert_bounded(r)


# ---------------------------------------------------------------- nesting


def _deep(n):
    return {
        "parens": "(" * n + "1" + ")" * n,
        "unary minus": "- " * n + "1",
        "unary minus, no spaces": "-" * n + "1",
        "power chain": "1" + " ^ 1" * n,
        "star-star chain": "2" + " ** 1" * n,
        "not chain": "not " * n + "1",
        "sum chain": "1" + " + 1" * n,
        "product chain": "1" + " * 1" * n,
    }


EXPECTED_DEEP = {
    "parens": "1",
    "unary minus": "1" if 20000 % 2 == 0 else "-1",
    "unary minus, no spaces": "1",
    "power chain": "1",
    "star-star chain": "2",
    "not chain": "True",
    "sum chain": "20001",
    "product chain": "1",
}


@pytest.mark.parametrize("kind", list(_deep(1)))
def test_deep_nesting_evaluates(kind):
    """Twenty thousand parentheses, unary minus, not, ^ or + in a row: evaluated."""
    r = run_code(_deep(20000)[kind] + "\n")
    assert r.code == 0, r
    assert r.stdout == EXPECTED_DEEP[kind] + "\n", r
    assert_bounded(r, seconds=10)


DEEPER = {
    "nested lists": "[" * 20000 + "1" + "]" * 20000,
    "attribute chain": "x = ones(2, 2)\nx" + ".T" * 20000,
    "call chain": "f = lambda: f\nf" + "()" * 20000,
    "index chain": "x = [1]\nx" + "[0:1]" * 20000,
    "mixed": "x = 1\n" + "(-(x ** -(" * 5000 + "x" + ")))" * 5000,
    "nested lambdas": "f = " + "lambda: " * 20000 + "1",
}


@pytest.mark.parametrize("kind", list(DEEPER))
def test_deeper_nesting_evaluates_or_fails_cleanly(kind):
    r = run_code(DEEPER[kind] + "\n")
    assert "RecursionError" not in r.stderr and "Traceback" not in r.stderr, r
    if r.code != 0:
        assert_clean_error(r, "LimitError", text="nested too deeply|too deep")
    assert_bounded(r, seconds=15)


def test_deep_nesting_names_the_statement():
    r = run_code("x = 1\ny = 2\nz = " + "[" * 30000 + "1" + "]" * 30000 + "\n")
    assert_clean_error(r, "LimitError", line=3, text="nested too deeply")


RUNTIME_DEEP = [
    "print(x)",
    "x",
    "tensor(x)",
    "str(x)",
    '"{}".format(x)',
    'f"{x}"',
    "ones(2) + x",
    "x in x",
    "-x",
    "max(x)",
    "assert_close(x, x)",
]


@pytest.mark.parametrize("use", RUNTIME_DEEP)
def test_deeply_nested_values(use):
    """A value nested 200,000 deep (built by a loop): each use ends cleanly."""
    r = run_code(f"x = 1\nfor i in range(200000):\n    x = [x]\n{use}\n")
    assert "Traceback" not in r.stderr and "RecursionError" not in r.stderr, r
    if r.code != 0:
        assert_clean_error(r, "LimitError", line=4)
    assert_bounded(r, seconds=10)


# ---------------------------------------------------------------- recursion and loops


def test_unbounded_recursion_stops_at_max_depth():
    r = run_code("def f(n):\n    return f(n + 1)\nf(0)\n")
    assert_clean_error(r, "LimitError", line=2, text=r"recursion depth.*1000")
    assert "--max-depth" in r.stderr
    assert_bounded(r)


def test_max_depth_option():
    prog = "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\nprint(f({}))\n"
    r = run_code(prog.format(40), "--max-depth", "50")
    assert r.code == 0 and r.stdout == "40\n", r
    r = run_code(prog.format(60), "--max-depth", "50")
    assert_clean_error(r, "LimitError", text=r"50")
    # a depth beyond what Python's stack allows still ends in a clean error
    r = run_code(prog.format(10**6), "--max-depth", "10000000")
    assert_clean_error(r, "LimitError")
    assert_bounded(r, seconds=10)


def test_lambda_recursion():
    r = run_code("f = lambda n: f(n + 1)\nf(0)\n")
    assert_clean_error(r, "LimitError")
    assert_bounded(r)


@pytest.mark.parametrize(
    "loop",
    [
        "while true:\n    pass",
        "i = 0\nwhile true:\n    i += 1",
        "for i in range(10 ** 12):\n    pass",
        "def f():\n    while true:\n        pass\nf()",
        "for i in range(10 ** 6):\n    for j in range(10 ** 6):\n        pass",
    ],
)
def test_max_steps_stops_a_runaway_loop(loop):
    r = run_code(loop + "\n", "--max-steps", "10000")
    assert_clean_error(r, "LimitError", text=r"--max-steps=10000")
    assert_bounded(r)


def test_max_steps_counts_iterations():
    r = run_code("n = 0\nfor i in range(100):\n    n += 1\nprint(n)\n", "--max-steps", "100")
    assert r.code == 0 and r.stdout == "100\n", r
    r = run_code("n = 0\nfor i in range(101):\n    n += 1\nprint(n)\n", "--max-steps", "100")
    assert_clean_error(r, "LimitError", line=2)


# ---------------------------------------------------------------- long chains


def test_million_node_chain_runs_backward():
    """A while loop builds a graph of a million nodes; backward walks it without
    recursion, and dropping the graph afterwards does not overflow the C stack."""
    prog = (
        "x = tensor(1.0, requires_grad=true)\n"
        "y = x\n"
        "i = 0\n"
        "while i < 1000000:\n"
        "    y = y * 1.000001\n"
        "    i += 1\n"
        "backward y\n"
        "z = x\n"
        "for i in range(1000000):\n"
        "    z = z + 1\n"
        "z = none\n"
        "print('dropped')\n"
    )
    r = run_code(prog, timeout=300)
    assert r.code == 0, r
    assert r.stdout == "x.grad = tensor(2.7183)\ndropped\n", r
    assert_bounded(r, seconds=180, rss=3 << 30)


def test_long_chain_backward_and_drop_quickly():
    """200,000 nodes, well past any recursion limit, in a few seconds."""
    prog = (
        "x = tensor(2.0, requires_grad=true)\n"
        "u = x\n"
        "for i in range(200000):\n"
        "    u = sin(u) * 0.5 + u\n"
        "backward u\n"
        "print(x.grad.shape)\n"
        "u = none\n"
        "v = x\n"
        "for i in range(200000):\n"
        "    v = v * 1.0\n"
        "del v\n"
        "print('ok')\n"
    )
    r = run_code(prog, timeout=120)
    assert r.code == 0, r
    assert r.stdout.endswith("torch.Size([])\nok\n"), r
    assert_bounded(r, seconds=60, rss=1500 * MiB)


def test_dropping_a_long_chain_in_process():
    """Freeing a graph of 300,000 nodes (parents linked one to the next) works with
    the default recursion limit and a small thread stack."""
    code = (
        "import sys, threading\n"
        "threading.stack_size(256 * 1024)\n"
        "def work():\n"
        "    from gradcli.ops.registry import FUNCTIONS\n"
        "    from gradcli.ops.creation import ones\n"
        "    x = ones(1, requires_grad=True)\n"
        "    y = x\n"
        "    for i in range(300000):\n"
        "        y = FUNCTIONS['mul'](y, 1.0)\n"
        "    del y\n"
        "    print('freed', flush=True)\n"
        "t = threading.Thread(target=work)\n"
        "t.start(); t.join()\n"
    )
    p = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=str(ROOT), timeout=120
    )
    assert p.returncode == 0 and p.stdout == "freed\n", (p.returncode, p.stdout, p.stderr[-2000:])


# ---------------------------------------------------------------- literals and input


def test_huge_number_literals():
    r = run_code("9" * 5000 + "\n")
    assert_clean_error(r, "SyntaxError", code=2, text="number literal too large")
    r = run_code("1e999999\n" + "9" * 400 + ".0\n-1e400\n")
    assert r.code == 0 and r.stdout == "inf\ninf\n-inf\n", r
    r = run_code("x = " + "9" * 300 + "\nprint(x % 7)\n")
    assert r.code == 0 and r.stdout == f"{int('9' * 300) % 7}\n", r
    r = run_code("tensor(" + "9" * 40 + ")\n")
    assert_clean_error(r, "RuntimeError", text="Overflow when unpacking long")
    r = run_code("ones(" + "9" * 40 + ")\n")
    assert_clean_error(r, "LimitError")
    assert_bounded(r)


@pytest.mark.parametrize(
    "data",
    [
        bytes(range(256)) * 4,
        b"\xff\xfe\x00x = 1\n",
        b'x = "\xc3\x28"\n',
        b"x = 1\x00\n",
        b"\x89PNG\r\n\x1a\n\x00\x00\x00\rIHDR",
        b"x = 1\n" + b"\x80" * 100,
    ],
    ids=["all-bytes", "utf16-bom", "bad-utf8", "nul", "png", "trailing-junk"],
)
def test_binary_or_non_utf8_input(data, tmp_path):
    path = tmp_path / "prog.ag"
    path.write_bytes(data)
    for r in (gradcli("eval", str(path)), gradcli("eval", "-", stdin=data), gradcli(stdin=data)):
        assert r.code == 2, r
        assert "Traceback" not in r.stderr, r
        assert re.search(r"not UTF-8|binary", r.stderr), r
        assert_bounded(r)


def test_text_input_variants():
    """A BOM, CRLF or CR line ends, form feeds and non-ASCII text are fine."""
    r = gradcli("eval", "-", stdin=b"\xef\xbb\xbfx = 1\r\ny = 2\rprint(x, y, '\xc3\xa9')\n")
    assert r.code == 0 and r.stdout == "1 2 \u00e9\n", r
    r = gradcli("eval", "-", stdin=b"\x0cx = 1\nprint(x)\n")
    assert r.code == 0 and r.stdout == "1\n", r
    r = run_code('print("\\ud800")\n')  # a lone surrogate cannot be printed
    assert_clean_error(r, "RuntimeError")
    r = run_code("x = 1\u2028y = 2\n")
    assert_clean_error(r, "SyntaxError", code=2, text="unexpected character")


MIXED = [
    ("if true:\n        x = 1\n\ty = 2\n", 3),  # 8 spaces, then a tab (= 8 columns)
    ("if true:\n    x = 1\n\ty = 2\n", 3),
    ("if true:\n\tx = 1\n        y = 2\n", 3),
    ("if true:\n  \tx = 1\n\t  y = 2\n", 3),
    ("for i in range(2):\n    if true:\n\tx = 1\n", 3),
]


@pytest.mark.parametrize("code,line", MIXED)
def test_mixed_tabs_and_spaces(code, line):
    r = run_code(code)
    assert_clean_error(
        r,
        "TabError",  # Python's type for it (a kind of SyntaxError)
        code=2,
        line=line,
        text="inconsistent use of tabs and spaces in indentation",
    )


def test_consistent_indentation_works():
    r = run_code(
        "if true:\n\tx = 1\n\tif x:\n\t\ty = 2\n\tprint(x, y)\n"
        "for i in range(2):\n    print(i)\n"
        "z = [1,\n\t2,\n        3]\nprint(z)\n"
    )
    assert r.code == 0 and r.stdout == "1 2\n0\n1\n[1, 2, 3]\n", r


@pytest.mark.parametrize(
    "code,line,col,text",
    [
        ("x = 1\n    y = 2\n", 2, 5, "unexpected indent"),
        ("if true:\n    x = 1\n        y = 2\n", 3, 9, "unexpected indent"),
        ("if true:\n    x = 1\n  y = 2\n", 3, 1, "unindent does not match"),
        ("if true:\n    if true:\n        x = 1\n      y = 2\n", 4, 1, "unindent does not match"),
        (" with no_grad:\n    x = 1\n y = 2\n", 3, 1, "unindent does not match"),  # fuzz finding
    ],
)
def test_indentation_errors_point_at_the_line(code, line, col, text):
    r = run_code(code)
    assert_clean_error(r, "IndentationError", code=2, line=line, text=text)
    assert re.search(rf"^<stdin>:{line}:{col}:", r.stderr, re.M), r


# ---------------------------------------------------------------- JSON errors


def test_guard_errors_in_json():
    import json

    r = gradcli("eval", "--json", "-", stdin=b"print(1)\nones(100000, 100000)\n")
    assert r.code == 1, r
    records = [json.loads(line) for line in r.stdout.splitlines()]
    assert records[0]["kind"] == "print"
    err = records[-1]
    assert err["kind"] == "error" and err["type"] == "LimitError", records
    assert err["line"] == 2 and err["column"] == 1, records


def test_printed_text_is_bounded():
    """A list of many references to one long string is small; its text is not."""
    r = run_code('s = "a" * 10**6\nl = [s] * 1000\nprint(l)\n')
    assert_clean_error(r, "LimitError", line=3, text="characters")
    assert_bounded(r)
    r = run_code("l = [1] * 10**7\nm = [l] * 10**7\nm\n")
    assert_clean_error(r, "LimitError", line=3)
    assert_bounded(r, seconds=30, rss=1 << 30)
    r = run_code("set_printoptions(precision=10**9)\n")
    assert_clean_error(r, "ValueError", text="precision must be from 0 to 30")


def test_printing_a_tensor_with_many_short_axes():
    """Summarising keeps every value of axes of length <= 6, as in PyTorch; a tensor of
    22 axes of length 2 would print 84 MB of text: refused. 20 axes still print."""
    r = run_code("x = ones(" + ", ".join(["2"] * 22) + ")\nx.sum()\nprint(x)\n")
    assert_clean_error(r, "LimitError", line=3, text="would show 4194304 values")
    assert r.stdout == "tensor(4194304.)\n", r
    assert_bounded(r)
    r = run_code("x = ones(" + ", ".join(["2"] * 20) + ")\nprint(len(str(x)))\n")
    assert r.code == 0 and r.stdout == "19922922\n", r
    assert_bounded(r, seconds=20)


# ---------------------------------------------------------------- limits bypassed

BYPASSES = [
    ('t = "a" * 1000000\nfor i in range(40):\n    t = f"{t}{t}"', r"characters"),
    ('t = "a" * 6000000\nt = f"{t}" f"{t}"', r"characters"),
    ('",".join(range(10**8))', r"parts"),
    ('s = "a" * 5000000\n"".join([s, s, s])', r"characters"),
]


@pytest.mark.parametrize("code,text", BYPASSES, ids=[c[:40] for c, _ in BYPASSES])
def test_formatted_and_joined_text_is_bounded(code, text):
    r = run_code(code, timeout=60)
    assert_clean_error(r, "LimitError", text=text)
    assert_bounded(r, seconds=20)


def test_round_to_a_huge_number_of_digits_is_quick():
    """Python computes 10**n for round(x, -n): gradcli answers without it."""
    r = run_code(
        "print(round(5, -10**9), round(-7, -10**6), round(123456, -3), round(155, -1),"
        " round(2.5, -10**9), round(1.25, 10**9))"
    )
    assert r.code == 0 and r.stdout == "0 0 123000 160 0.0 1.25\n", r
    assert_bounded(r)


def test_csv_load_peak_memory_is_a_small_multiple_of_the_file(tmp_path):
    path = tmp_path / "big.csv"
    path.write_text("1.5,2.25,-3.125,4\n" * 550_000)
    size = path.stat().st_size
    base = run_code("x = 1")
    r = run_code(f'x = load("{path}")\nprint(x.shape, x.sum())')
    assert r.code == 0 and r.stdout == "torch.Size([550000, 4]) tensor(2543750.)\n", r
    assert_bounded(r, seconds=60)
    if r.maxrss and base.maxrss:
        assert r.maxrss - base.maxrss < 3 * size, (r, base.maxrss / MiB, size / MiB)


def test_csv_memory_cap_is_checked_on_the_parsed_size(tmp_path):
    """A 600 KB file of one-digit values is 2.4 MB of float64: over a 1 MiB cap."""
    path = tmp_path / "ones.csv"
    path.write_text(("1," * 999 + "1\n") * 300)
    r = run_code(f'x = load("{path}")', "--max-memory", "1MiB")
    assert_clean_error(r, "LimitError", text=r"memory cap of 1\.0 MiB")
    r = run_code(f'x = load("{path}")\nprint(x.shape)', "--max-memory", "3MiB")
    assert r.code == 0 and r.stdout == "torch.Size([300, 1000])\n", r


@pytest.mark.skipif(not hasattr(os, "mkfifo"), reason="no FIFOs here")
@pytest.mark.parametrize("name", ["pipe.csv", "pipe.npy"])
def test_load_of_a_fifo_is_refused_at_once(tmp_path, name):
    path = tmp_path / name
    os.mkfifo(path)
    r = run_code(f'x = load("{path}")', timeout=30)
    assert_clean_error(r, "OSError", text=r"not a regular file")
    assert_bounded(r)
