"""Fidelity leftovers against torch 2.13 (tests/golden/fidelity.json, recorded by
scripts/gen_golden.py fidelity from tests/fidelity/fidelity_cases.py): programs whose output
must be torch's, and a float16 tensor with a Python number over every float16 value,
bit for bit (numerics/floats/half.py), through the language's operators (runtime.binary_op,
fastops) as a program runs them."""

from __future__ import annotations

import contextlib
import hashlib
import io

import numpy as np
import pytest

from conftest import check_result, load_golden, run_inprocess
from fidelity_cases import HALF_GRADS, half_grad_input, half_input, half_leaf

from gradcli.runtime.errors import GradError
from gradcli.core.tensor import Tensor
from gradcli.output import TextOutput
from gradcli.session import Session, reset_globals

GOLDEN = load_golden("fidelity.json")
CASES = GOLDEN["cases"]
HALF = GOLDEN["half"]


@pytest.mark.parametrize("name", list(CASES))
def test_fidelity_golden(name):
    case = CASES[name]
    result = run_inprocess(case["source"])
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )


def _digest(a):
    a = np.ascontiguousarray(a)
    if a.dtype.kind == "f":  # one nan: payloads and signs of nan are not compared
        a = np.where(np.isnan(a), np.array(np.nan, a.dtype), a)
    return hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()


def _run(variables, source):
    """Run `source` in a session holding `variables`; its variables afterwards, or the
    error it ended with."""
    reset_globals()
    session = Session(TextOutput(io.StringIO()), filename="<test>")
    session.scope.vars.update(variables)
    with contextlib.redirect_stderr(io.StringIO()):
        try:
            session.run(source)
        except GradError as e:
            return e
        finally:
            reset_globals()
    return session.scope.vars


def test_half_with_numbers_is_torchs_bit_for_bit():
    exprs = list(HALF)
    failed = []
    for i, expr in enumerate(exprs):
        rec = HALF[expr]
        got = _run({"x": Tensor(half_input().copy())}, f"y = {expr}\n")
        if "error" in rec:
            if not isinstance(got, GradError) or rec["error"] not in got.message:
                failed.append((expr, "no error"))
            continue
        if isinstance(got, GradError):
            failed.append((expr, got.message))
            continue
        y = got["y"].data
        if str(y.dtype) != rec["dtype"] or _digest(y) != rec["out"]:
            failed.append((expr, "value"))
        if "grad" in rec:
            got = _run(
                {"x": Tensor(half_leaf(), requires_grad=True), "g": Tensor(half_grad_input())},
                f"y = {expr}\ny.backward(g)\n",
            )
            if isinstance(got, GradError) or _digest(got["x"].grad.data) != rec["grad"]:
                failed.append((expr, "grad"))
    assert not failed, failed
    assert len(exprs) > 200 and sum("grad" in r for r in HALF.values()) >= 5 * len(HALF_GRADS)


def test_numpys_float16_would_differ():
    """NumPy's own float16 product (the number rounded to float16 first) is not torch's."""
    x = half_input()
    assert _digest(x * 0.1) != HALF["x * 0.1"]["out"]
