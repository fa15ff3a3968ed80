"""grad_fn names: for each expression, gradcli must print PyTorch's name.

tests/golden/grad_fn_names.json = {"setup": SOURCE, "names": {EXPR: NAME or null}}
is recorded from real PyTorch by scripts/gen_golden.py cases.  All expressions run
in one gradcli program (SETUP, then ``print((EXPR).grad_fn)`` per line); if
that program fails or prints the wrong number of lines, each expression is
run on its own so that every failure is reported precisely.
"""

import pytest

from conftest import load_golden, run_inprocess

DATA = load_golden("grad_fn_names.json")
SETUP = DATA["setup"]
NAMES = DATA["names"]
EXPRS = list(NAMES)


def _line(expr):
    return "print((%s).grad_fn)\n" % expr


def _expected(name):
    return "None" if name is None else "<%s>" % name


@pytest.fixture(scope="module")
def batch():
    """{expr: printed line} from one run, or {} if the batch run failed."""
    result = run_inprocess(SETUP + "".join(_line(e) for e in EXPRS))
    lines = result.stdout.splitlines()
    if result.returncode != 0 or len(lines) != len(EXPRS):
        return {}
    return dict(zip(EXPRS, lines))


@pytest.mark.parametrize("expr", EXPRS)
def test_grad_fn_name(expr, batch):
    if expr in batch:
        got = batch[expr]
    else:
        result = run_inprocess(SETUP + _line(expr))
        assert result.returncode == 0, "%s failed:\n%s" % (expr, result.stderr)
        got = result.stdout.rstrip("\n")
    assert got == _expected(NAMES[expr]), expr
