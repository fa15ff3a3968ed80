"""Hostile programs found by an adversary: each one ended in a crash, a leak out of
the sandbox, a limit that did not hold, an internal error or a silent difference
from PyTorch; each test here failed before its fix."""

from __future__ import annotations

import signal

import pytest

from conftest import check_result, load_golden, run_inprocess
from test_guards import assert_bounded, assert_clean_error, run_code

# ---------------------------------------------------------------- the C stack

YIELD_FROM = """def g(n):
    if n == 0:
        yield 1
    else:
        yield from g(n - 1)
print(list(g({n})))
"""

SORTED_KEY = """def f(n):
    return 0 if n == 0 else sorted([n - 1], key=f)[0]
print(f({n}))
"""


@pytest.mark.parametrize(
    "program,depth",
    [(YIELD_FROM.format(n=4900), "5000"), (SORTED_KEY.format(n=2900), "3000")],
    ids=["yield-from", "sorted-key"],
)
def test_deep_recursion_is_python_s_error_not_a_crash(program, depth):
    """Chains that overflowed the C stack (SIGSEGV) end in the recursion error."""
    r = run_code(program, "--max-depth", depth)
    assert_clean_error(r, "LimitError", text="maximum recursion depth exceeded")
    assert_bounded(r, seconds=20, rss=600 << 20)


def test_max_depth_is_capped_and_the_error_says_so():
    r = run_code(YIELD_FROM.format(n=4900), "--max-depth", "5000")
    assert "capped at" in r.stderr and "C stack" in r.stderr, r
    r = run_code(YIELD_FROM.format(n=1000), "--max-depth", "1500")
    assert (r.code, r.stdout) == (0, "[1]\n"), r


# ---------------------------------------------------------------- the sandbox

DEEPCOPY_MEMO = """import copy
import torch.nn as nn
lin = nn.Linear(2, 2)
memo = {}
c = copy.deepcopy(lin, memo)
for k, v in memo.items():
    for o in (v if type(v) is list else [v]):
        if type(o) is dict and "_parameters" in o:
            o["_parameters"] = 7
print(lin.weight.shape, c.weight.shape)
print(copy.deepcopy(lin, memo).weight is c.weight)
"""


def test_deepcopy_memo_holds_no_originals():
    """Python's memo keeps the originals (an nn.Module's own __dict__ among them):
    a program could replace _parameters through it."""
    r = run_code(DEEPCOPY_MEMO)
    assert (r.code, r.stdout) == (0, "torch.Size([2, 2]) torch.Size([2, 2])\nTrue\n"), r


# ---------------------------------------------------------------- internal errors


def test_exception_class_whose_init_skips_exception_s():
    src = (
        "class E(Exception):\n    def __init__(self):\n        pass\n"
        "class F(ValueError):\n    def __init__(self, a, b):\n        self.a = a\n"
        "try:\n    raise E\nexcept E as e:\n    print('caught', repr(e), e.args)\n"
        "try:\n    raise F(1, 'x')\nexcept F as e:\n    print(str(e), e.args, e.a)\n"
        "raise E\n"
    )
    r = run_code(src)
    assert r.stdout == "caught E() ()\n(1, 'x') (1, 'x') 1\n", r
    assert (r.code, r.stderr) == (1, "<stdin>:15:1: E\n    raise E\n    ^\n"), r


# ---------------------------------------------------------------- sources


def _capped(stdin):
    """`gradcli eval -` reading `stdin` (a file or PIPE), in an address space of 3 GiB
    (an unbounded read must fail here, not take the machine's memory)."""
    import os
    import resource
    import subprocess
    import sys

    def cap():
        resource.setrlimit(resource.RLIMIT_AS, (3 << 30, 3 << 30))

    env = dict(os.environ, OPENBLAS_NUM_THREADS="2", NO_COLOR="1")
    return subprocess.Popen(
        [sys.executable, "-m", "gradcli", "eval", "-"],
        stdin=stdin,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        preexec_fn=cap,
        env=env,
    )


def test_endless_binary_source_is_refused():
    from test_guards import gradcli

    r = gradcli("eval", "/dev/zero", timeout=60)
    assert r.code == 2 and "binary input (NUL byte)" in r.stderr, r
    with open("/dev/zero", "rb") as f:
        p = _capped(f)
        out, err = p.communicate(timeout=60)
    assert p.returncode == 2 and b"binary input (NUL byte)" in err, err


def test_endless_text_source_is_refused():
    import subprocess

    p = _capped(subprocess.PIPE)
    line = b"x = 1\n" * 100000
    # (gradcli's command line, run in this process by other tests, dies of SIGPIPE)
    old = signal.signal(signal.SIGPIPE, signal.SIG_IGN)
    try:
        while p.poll() is None:
            p.stdin.write(line)
    except BrokenPipeError:
        pass
    finally:
        signal.signal(signal.SIGPIPE, old)
    err = p.stderr.read().decode()
    assert p.wait(timeout=60) == 2 and "too big for a program" in err, err


# ---------------------------------------------------------------- silent differences

GOLDEN = load_golden("hostile.json")


@pytest.mark.parametrize("name", list(GOLDEN))
def test_the_same_as_torch(name):
    """Programs where gradcli differed from PyTorch without a word: a generator under
    @no_grad(), torch.func with a closed-over parameter and with dict outputs, hook
    results, ctx.saved_tensors after the graph was freed, x.data and requires_grad of
    other types, gradcheck in float32, `t in [other]`."""
    case = GOLDEN[name]
    result = run_inprocess(case["source"])
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )


# ---------------------------------------------------------------- limits of the whole run

SMALL_CAP = ("--max-memory", "16MiB")

MANY_TENSORS = [
    "xs = [ones(1024, 1024) for _ in range(60)]",
    "x = ones(1024, 1024)\nxs = [x * 2 for _ in range(60)]",
    "x = ones(1024, 1024)\nxs = []\nfor i in range(60):\n    xs.append(x + i)",
    "x = ones(1024, 1024)\nxs = []\ni = 0\nwhile i < 60:\n    xs.append(x + i)\n    i += 1",
]


@pytest.mark.parametrize("code", MANY_TENSORS, ids=["creation", "comprehension", "for", "while"])
def test_the_memory_cap_holds_for_the_program_s_total(code):
    """60 tensors of 8 MiB each under a 16 MiB cap reached 504 MB (each was under it)."""
    r = run_code(code, *SMALL_CAP)
    assert_clean_error(r, "LimitError", text="memory cap of 16.0 MiB")
    assert_bounded(r, seconds=30, rss=250 << 20)


TOTALS = [
    ("x = [list(range(10**6)) for i in range(100)]", "memory cap"),
    ("import itertools\nx = list(itertools.product(range(2), repeat=200))", "memory cap"),
    ("x = list(zip(*[range(10**6)] * 100))", "memory cap"),
    ("print(zeros(0, 5 * 10**8).sum(0).shape)", "memory cap"),
    ("print(zeros(0, 5 * 10**8).prod(0).shape)", "memory cap"),
    ("print(zeros(0, 5 * 10**8).norm(dim=0).shape)", "memory cap"),
    ("print(zeros(0, 5 * 10**8).std(0).shape)", "memory cap"),
    ('print(*["a" * 10**7] * 100)', "print's output"),
]


@pytest.mark.parametrize("code,text", TOTALS, ids=[c[:40] for c, _ in TOTALS])
def test_big_values_end_at_the_cap(code, text):
    r = run_code(code)
    assert_clean_error(r, "LimitError", text=text)
    assert r.stdout == "", r
    assert_bounded(r, seconds=40, rss=1400 << 20)


EMPTY_RESULTS = ["sum(1)", "amax(1)", "logsumexp(1)", "norm(dim=1)", "any(1)", "mean(-1)", "sum()"]


def test_a_reduction_to_an_empty_or_scalar_result_is_not_refused():
    """Only a reduction over the empty dim makes a big result; over the other dim the result
    is empty, and a whole reduction is one value (shapes printed by torch 2.13)."""
    code = "".join(f"print(zeros(0, 5 * 10**8).{r}.shape)\n" for r in EMPTY_RESULTS)
    r = run_code(code)
    assert r.code == 0, r
    assert r.stdout == "torch.Size([0])\n" * 6 + "torch.Size([])\n"
    assert_bounded(r, seconds=40, rss=400 << 20)


def test_a_one_line_csv_is_not_read_whole(tmp_path):
    path = tmp_path / "one.csv"
    with open(path, "w") as f:
        for _ in range(100):
            f.write("1," * 1_000_000)
        f.write("1\n")
    r = run_code(f"x = load({str(path)!r})", "--max-memory", "64MiB")
    assert_clean_error(r, "ValueError", text="line 1 .* is longer than")
    assert_bounded(r, seconds=40, rss=250 << 20)


STEPS = [
    "import functools\nprint(functools.reduce(lambda a, b: a + b, range(10**10)))",
    "def f(x):\n    return x\nprint(sum(map(f, range(10**10))))",
    "print(sum(range(10**10)))",
    "print(max(range(10**10)))",
    "print(all(range(1, 10**10)))",
    "import math\nprint(math.prod(range(1, 10**10)))",
]


@pytest.mark.parametrize("code", STEPS, ids=["reduce", "sum-map", "sum", "max", "all", "prod"])
def test_max_steps_counts_the_steps_of_built_ins(code):
    r = run_code(code, "--max-steps", "100")
    assert_clean_error(r, "LimitError", text="--max-steps=100")
    assert_bounded(r, seconds=30)


def test_big_integer_products_are_guarded_like_factorial():
    r = run_code("import math\nprint(math.prod(range(1, 300001)))")
    assert (r.code, r.stdout) == (0, "inf\n"), r  # as `*` makes an integer that big
    assert_bounded(r)
    r = run_code("import math\nprint(math.lcm(*range(1, 50000)))")
    assert_clean_error(r, "ValueError", text="too large")
    assert_bounded(r)
    r = run_code(
        "import math\nprint(math.prod([2, 3.5, 4]), math.lcm(4, 6), math.prod(range(1, 20)))"
    )
    assert r.stdout == "28.0 12 121645100408832000\n", r
