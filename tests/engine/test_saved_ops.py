"""Every op's saved values against torch 2.13's: for each sample of each built-in
(tests/engine/saved_ops_cases.py, recorded by scripts/gen_golden.py saved_ops in
tests/golden/saved_ops.json), the node's `_saved_*` names (gradcli's engine/saved.py
attr_names against torch's dir()), their printed values and the pack hook's tensors in
order.  A node class whose `saved_names` is still none(why) is expected to differ (an
expected failure that names the reason); one that matches torch must declare its names.
Where gradcli's node is not the one torch makes (another grad_fn), the case is an
expected failure naming both."""

from __future__ import annotations

import pytest

from conftest import Run, check_result, load_golden, run_inprocess
from gradcli.engine import saved
from gradcli.engine.declare import Without

CASES = load_golden("saved_ops.json")

# Samples whose node declares its names but still differs from torch's, and why (each one
# must still differ: a case that comes to match is taken off).
KNOWN = {
    **{
        f"group_norm[{i}]": "torch's mean and rstd are outputs of the node (shown and packed "
        "with its grad_fn); gradcli's are saved constants"
        for i in (0, 1)
    },
    "mse_loss[1]": "a broadcast target: torch saves the expanded self",
    "poisson_nll_loss[0]": "the pack hook sees the loss's pieces in another order",
    "poisson_nll_loss[1]": "the pack hook sees the loss's pieces in another order",
    "kl_div[0]": "kl_div is composed of other nodes than torch's (the hook sees more)",
    **{
        f"{op}[{i}]": "quantile's gathers and in-place lerp: gradcli's GatherBackward0 packs "
        "self but not its index, and its LerpBackward1 packs the values torch's in-place "
        "lerp_ does not"
        for op in ("quantile", "nanquantile")
        for i in range(3)
    },
    **{
        case: "torch's pack hook sees the noise before its kernel writes it (memory never written)"
        for case in ("rrelu[0]", "rrelu[0]/grad")
    },
    **{
        f"prelu[{i}]/grad": "torch's one node gives both gradients of prelu's backward; "
        "gradcli has a node for each, and the hook sees both pack their values"
        for i in (0, 1)
    },
    **{
        f"{case}": "trapezoid's `* dx` is gradcli's MulScalar (the derivative formulas' "
        "MulBackward1), which keeps the number as a tensor; torch's mul.Scalar saves the number"
        for case in ("trapezoid[0]", "trapezoid[1]", "trapz[0]")
    },
    "trapezoid[2]": "the pack hook sees dx * (y[1:] + y[:-1])'s operands in the other order",
    **{
        f"{op}[1]": "an unbatched 1-d pool: torch's pack hook sees the input unsqueezed to "
        "3-d (UnsqueezeBackward0); gradcli's 2-d pool packs its 4-d view"
        for op in ("avg_pool1d", "adaptive_avg_pool1d")
    },
    **{
        f"interpolate[{i}]": "the nearest upsampling node saves no values in gradcli; torch's "
        "saves output_size, scales and self_sym_sizes"
        for i in (0, 1)
    },
    "mse_loss[0]/grad": "saved-tensor hooks do not pack what mse_loss's backward node saves",
    "mse_loss[2]/grad": "saved-tensor hooks do not pack what mse_loss's backward node saves",
    **{
        f"{op}/grad": "under the hooks, torch packs none of this backward's node's values; "
        "gradcli packs them"
        for op in (
            "binary_cross_entropy[0]",
            "binary_cross_entropy[1]",
            "huber_loss[0]",
            "huber_loss[1]",
            "smooth_l1_loss[0]",
            "smooth_l1_loss[1]",
        )
    },
}

# Node classes whose saved_names still say only this (no sample or golden yet): the
# number may only go down.
LEFT = 44
UNRECORDED = "PyTorch's names of its saved values are not recorded"


def _node(source):
    """gradcli's node `g` after the program's first lines (up to the node's)."""
    head = source.split("\nprint(g.name())")[0]
    run = Run(head)
    assert run.error is None, run.error
    return run.value("g")


@pytest.mark.parametrize("name", list(CASES))
def test_saved_values_as_torch(name):
    case = CASES[name]
    node = _node(case["source"])
    names = sorted(n[len("_saved_") :] for n in saved.attr_names(node)) if node else None
    result = run_inprocess(case["source"])
    try:
        assert names == case["names"], f"{name}: _saved_ names {names} != torch's {case['names']}"
        check_result(
            result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
        )
    except AssertionError:
        ours = node.name if node is not None else None
        if ours != case["node"]:
            pytest.xfail(f"gradcli's node here is {ours}, torch's {case['node']}")
        declared = getattr(type(node), "saved_names", None)
        if isinstance(declared, Without):
            pytest.xfail(f"{type(node).__name__}: {declared.reason}")
        if name in KNOWN:
            pytest.xfail(KNOWN[name])
        raise
    assert name not in KNOWN, f"{name} matches torch now: take it off KNOWN"
    declared = getattr(type(node), "saved_names", None)
    assert not isinstance(declared, Without), (
        f"{name}: {type(node).__name__} matches torch but says none({declared.reason!r}); "
        "declare its saved_names"
    )


def test_unrecorded_saved_names_only_shrink():
    """Every node class says what torch saves, or why it cannot: the declarations that
    still carry only the placeholder reason may not grow in number."""
    from pathlib import Path

    import gradcli

    text = 'none("' + UNRECORDED + '")'
    left = [
        f"{path.name}:{n}"
        for path in sorted(Path(gradcli.__file__).parent.rglob("*.py"))
        for n, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1)
        if text in line
    ]
    assert len(left) <= LEFT, "\n".join(left)
