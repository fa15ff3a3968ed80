"""Hostile programs found by an adversary: each one ended in a crash, a leak out of
the sandbox, a limit that did not hold, an internal error or a silent difference
from PyTorch; each test here failed before its fix."""

from __future__ import annotations

import pytest

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
