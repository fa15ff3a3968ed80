"""Saved tensors (engine/saved.py, the ops' saved_names, library/saved_hooks.py): the
cases of tests/engine/saved_cases.py against torch 2.13's output (tests/golden/saved.json,
scripts/gen_golden.py saved), and what hooks must leave as it was."""

from __future__ import annotations

import pytest

from conftest import check_result, load_golden, run_inprocess
from gradcli.engine import modes, saved, schedule

CASES = load_golden("saved.json")


@pytest.mark.parametrize("name", list(CASES))
def test_saved_golden(name):
    case = CASES[name]
    result = run_inprocess(case["source"])
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )


@pytest.mark.parametrize("path", ["schedules", "general loop"])
def test_packed_nodes_through_each_backward_path(path, monkeypatch):
    """Packed nodes run through the schedules (made on first sight) and through
    _pass (no schedules) with the same hook calls and results."""
    if path == "schedules":
        monkeypatch.setattr(schedule, "SIGHTINGS", 1)
        monkeypatch.setattr(schedule, "_schedules", {})
        monkeypatch.setattr(schedule, "_seen", {})
    else:
        monkeypatch.setattr(schedule, "MAX_NODES", 0)
    ran = 0
    for name, case in CASES.items():
        if "backward" in case["source"]:
            check_result(
                run_inprocess(case["source"]),
                case["stdout"],
                case["error"],
                what=name,
                warnings=case.get("warnings", ()),
            )
            ran += 1
    assert ran > 30


def _plain():
    m = modes.state
    return not m.on and m.packer is None and m.dual is None and m.recorder is None


def test_hooks_off_leave_the_plain_apply():
    """No cost when no hooks are on: after a program that used them (also one that
    failed inside them), no mode is active (ops take the plain path again)."""
    assert _plain()
    run_inprocess(CASES["hooks/nesting"]["source"])
    assert _plain()
    run_inprocess(CASES["hooks/error_in_pack"]["source"])
    saved.reset()
    assert _plain() and not saved.State.stack


def test_error_inside_a_hook_is_placed_in_the_hook():
    r = run_inprocess(CASES["hooks/error_in_unpack"]["source"])
    assert r.returncode == 1 and "Traceback" not in r.stderr
    assert ":7:5: ValueError: cannot unpack" in r.stderr, r.stderr


def test_saved_attrs_only_on_grad_fn():
    r = run_inprocess("a = torch.ones(2, requires_grad=True)\na._saved_self\n")
    assert r.returncode == 1 and "'Tensor' object has no attribute '_saved_self'" in r.stderr
    r = run_inprocess("a = torch.ones(2, requires_grad=True)\n(a * a).grad_fn._saved_self.data\n")
    assert r.returncode == 0


def test_completion_offers_the_saved_names():
    import os
    from gradcli.cli import _parser
    from gradcli.driver import make_session
    from gradcli.repl.completer import complete

    s = make_session(_parser("gradcli").parse_args([]), echo_assign=True)
    s.out.stream = open(os.devnull, "w")
    s.run("a = torch.ones(2, requires_grad=True)\ny = a * a\ns = a.sum()\n")
    assert [c.text for c in complete("y.grad_fn._sa", s)] == ["_saved_self", "_saved_other"]
    assert [c.text for c in complete("s.grad_fn._sa", s)] == ["_saved_self_sym_sizes"]
    s.out.stream.close()
