"""Every op that declares itself pure (`pure=True`: a replayed loop may call it) is called
in a training loop from its own sample arguments (its `checks`), and the loop must replay
and print what the loop run as compiled prints: values, gradients and grad_fns."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

import gradcli.session  # noqa: F401  (loads every op and built-in)
from gradcli.ops.registry import BUILTINS, METHOD_ONLY, Arg

ENTRIES = list({id(e): e for t in (BUILTINS, METHOD_ONLY) for e in t.values()}.values())


def _value(v, names, setup):
    """Source for one sample argument; a tensor or a list is made before the loop."""
    if isinstance(v, Arg):
        name = f"a{len(names)}"
        shape = ", ".join(str(n) for n in v.shape)
        setup.append(
            f"{name} = (torch.rand(({shape}{',' if len(v.shape) == 1 else ''}), "
            f"dtype=torch.float64) * {v.hi - v.lo!r} + {v.lo!r}).requires_grad_()"
        )
        names.append(name)
        return name
    if isinstance(v, list):  # (a target's classes, a weight: a tensor, as programs pass)
        name = f"c{len(setup)}"
        setup.append(f"{name} = torch.tensor({list(v)!r})")
        return name
    return repr(v)


# samples whose loop the plan does not make yet (each still runs as compiled, its results
# the compiled loop's; one that starts to replay fails the test, to be taken off the list)
_NOT_YET = {
    ("flatten", 0): "flatten's view is not an op the plan replays",
    ("flatten", 1): "flatten's view is not an op the plan replays",
    ("binary_cross_entropy_with_logits", 2): "no plan: a pos_weight tensor with reduction='none'",
    ("nll_loss", 3): "no plan: a target of more than one dim",
    ("nll_loss", 4): "no plan: a target of more than one dim",
    ("cross_entropy", 1): "no plan: a 0-d target given as a number",
    ("huber_loss", 0): "no plan: delta=1.0 is taken as a value no variable or constant gives",
    ("smooth_l1_loss", 0): "no plan: beta=1.0 is taken as a value no variable or constant gives",
    ("norm", 0): "no plan: p=2.0 (from its default) is a value no variable or constant gives",
    ("norm", 1): "no plan: p=2.0 (from its default) is a value no variable or constant gives",
    ("norm", 2): "no plan: p=2.0 (from its default) is a value no variable or constant gives",
    ("norm", 3): "no plan: p=2.0 (from its default) is a value no variable or constant gives",
}


def _not_yet(args, kwargs):
    """Why a sample's loop is not replayed yet, from its arguments (a tuple of dims)."""
    if any(isinstance(v, tuple) for v in (*args, *kwargs.values())):
        return "no plan: a tuple argument (dims, a normalized shape) is not a constant yet"
    return None


def _programs():
    out = []
    for e in ENTRIES:
        if e.pure is not True or not isinstance(e.checks, list) or e.name not in BUILTINS:
            continue
        for i, (args, kwargs) in enumerate(e.checks):
            names, setup = [], []
            parts = [_value(a, names, setup) for a in args]
            parts += [f"{k}={_value(v, names, setup)}" for k, v in kwargs.items()]
            if not names:
                continue
            space = "F" if e.category in ("loss", "nn") else "torch"
            call = f"{space}.{e.name}({', '.join(parts)})"
            grads = ", ".join(f"{n}.grad" for n in names)
            source = "\n".join(
                [
                    "import torch",
                    "import torch.nn.functional as F",
                    "torch.manual_seed(0)",
                    *setup,
                    "for i in range(6):",
                    f"    out = {call}",
                    "    loss = out.sum()",
                    "    loss.backward()",
                    f"print(out, loss, {grads})",
                ]
            )
            why = _NOT_YET.get((e.name, i)) or _not_yet(args, kwargs)
            out.append(pytest.param(source, why, id=f"{e.name}-{i}"))
    return out


@pytest.mark.parametrize("source,not_yet", _programs())
def test_a_pure_op_replays_as_compiled(source, not_yet, monkeypatch):
    on, off = replay_both(source)
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr
    replayed = replayed_iterations(monkeypatch, source)
    if not_yet is None:
        assert replayed > 0, "the loop did not replay"
    else:
        assert replayed == 0, f"it replays now: take it off the list ({not_yet})"
