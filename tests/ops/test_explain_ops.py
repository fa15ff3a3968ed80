"""Every op's formula rule, driven by the op table: for each sample call of each built-in
(the gradient checks' samples), explain's derivative of a random weighted sum of the
op's output, evaluated at the sample point, equals autograd's gradient (float64, tight
tolerance).  An op whose node declares no formula (none(why): shown as a named function
with its local Jacobian) is skipped here; tests/architecture/test_op_declarations.py fails on a node
that declares neither."""

from __future__ import annotations

import numpy as np
import pytest

pytest.importorskip("sympy")

import gradcli.session  # noqa: E402,F401  (registers every built-in)
from gradcli.core.tensor import Tensor  # noqa: E402
from gradcli.engine.autograd import run_backward  # noqa: E402
from gradcli.engine.declare import Without  # noqa: E402
from gradcli.runtime.errors import GradValueError  # noqa: E402
from gradcli.library import explain_core as ec  # noqa: E402
from gradcli.library.explain_report import Explanation  # noqa: E402
from gradcli.ops.reduce import sum_  # noqa: E402

try:
    from test_gradcheck import CASES, float_outputs, make_case
except ImportError:  # tests/ became a package
    from tests.ops.test_gradcheck import CASES, float_outputs, make_case

RTOL, ATOL = 1e-9, 1e-11


def _without_rule(root):
    for n in ec.topo(root):
        if isinstance(type(n).__dict__.get("formula", getattr(type(n), "formula", None)), Without):
            return type(n).__name__
        if getattr(type(n), "formula", None) is None:
            return type(n).__name__
    return None


@pytest.fixture(autouse=True)
def _no_simplifying(monkeypatch):
    """The derivatives as SymPy gives them (simplifying is SymPy's, and slow): the
    rules are what is checked."""
    monkeypatch.setattr(ec, "SIMPLIFY_SECONDS", 0.0)


@pytest.mark.parametrize("entry, i", CASES)
def test_formula_gives_autograds_gradient(entry, i):
    f, leaves = make_case(entry, i)
    if not leaves:
        pytest.skip("no argument takes a gradient")
    outs = [o for o in float_outputs(f()) if o.requires_grad]
    if not outs:
        pytest.skip("no output takes a gradient")
    out = outs[0]
    rng = np.random.default_rng(5)
    w = Tensor(rng.uniform(0.5, 1.5, size=out.data.shape))
    s = sum_(out * w)
    missing = _without_rule(s.grad_fn)
    if missing:
        pytest.skip(f"{missing} declares no formula")
    names = {f"a{k}": t for k, t in enumerate(leaves)}
    try:
        exp = Explanation(s, None, names, "s")
    except GradValueError as e:
        if "too many" in e.message or "has no formula rule" in e.message:
            pytest.skip(e.message)  # too big, or a use of an op its rule says it does not cover
        raise
    assert not exp.a.rule_errors, exp.a.rule_errors
    if exp.a.constants:  # (Add and Sub keep no constant tensor operand: PyTorch's either)
        pytest.skip("a constant tensor the graph does not keep")
    grads = run_backward((s,), (None,), True, inputs=leaves, allow_unused=True)
    by_leaf = {id(t): g for t, g in zip(leaves, grads)}
    assert exp.results
    for r in exp.results:
        g = by_leaf[id(r.tensor)]
        want = np.zeros_like(r.tensor.data) if g is None else g.data
        assert r.values is not None, (entry.name, r.name)
        np.testing.assert_allclose(r.values, want, rtol=RTOL, atol=ATOL, err_msg=entry.name)
