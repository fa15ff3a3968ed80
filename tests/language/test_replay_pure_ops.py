"""Every op that declares itself pure (`pure=True`: a replayed loop may call it) is called
in a training loop from its own sample arguments (its `checks`), and the loop must replay
and print what the loop run as compiled prints: values, gradients and grad_fns."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

import gradcli.session  # noqa: F401  (loads every op and built-in)
from gradcli.core.tensor import Tensor
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
    if isinstance(v, list) and any(isinstance(x, Arg) for x in v):  # (cat's tensors)
        return f"[{', '.join(_value(x, names, setup) for x in v)}]"
    if isinstance(v, list):  # (a target's classes, a weight: a tensor, as programs pass)
        name = f"c{len(setup)}"
        setup.append(f"{name} = torch.tensor({list(v)!r})")
        return name
    if type(v) is Tensor and v.data.dtype.kind in "iu":  # (embedding's indices: a
        name = f"c{len(setup)}"  # variable's tensor, as programs pass them)
        setup.append(f"{name} = torch.tensor({v.data.tolist()!r})")
        return name
    return repr(v)


# samples whose loop the plan does not make yet (each still runs as compiled, its results
# the compiled loop's; one that starts to replay fails the test, to be taken off the list)
_VIEW = "no plan: the statement's result is a view of a variable's tensor"
_NOT_YET = {
    **{
        (op, i): _VIEW
        for op, n in (
            ("flatten", 2),
            ("reshape", 2),
            ("squeeze", 2),
            ("unsqueeze", 2),
            ("permute", 1),
            ("transpose", 2),
            ("t", 1),
            ("view", 1),
        )
        for i in range(n)
    },
    ("binary_cross_entropy_with_logits", 2): "no plan: a pos_weight tensor with reduction='none'",
    ("nll_loss", 3): "no plan: a target of more than one dim",
    ("nll_loss", 4): "no plan: a target of more than one dim",
    ("cross_entropy", 1): "no plan: a 0-d target given as a number",
    ("norm", 0): "no plan: p=2.0 (from its default) is a value no variable or constant gives",
    ("norm", 1): "no plan: p=2.0 (from its default) is a value no variable or constant gives",
    ("norm", 2): "no plan: p=2.0 (from its default) is a value no variable or constant gives",
    ("norm", 3): "no plan: p=2.0 (from its default) is a value no variable or constant gives",
    ("norm", 5): "no plan: an op takes a value that is neither a variable's tensor nor a constant",
}


def _programs(of_op=False):
    """The samples' loops; `of_op`: those of the samples whose result views a variable's
    tensor, with the op given that tensor times 2 instead (a view of an op's output)."""
    out = []
    for e in ENTRIES:
        method = e.name not in BUILTINS  # (a method-only op: `x.view(6)`)
        if e.pure is not True or not isinstance(e.checks, list) or method and not e.method:
            continue
        for i, (args, kwargs) in enumerate(e.checks):
            why = _NOT_YET.get((e.name, i))
            if of_op and why != _VIEW:
                continue
            names, setup = [], []
            parts = [_value(a, names, setup) for a in args]
            parts += [f"{k}={_value(v, names, setup)}" for k, v in kwargs.items()]
            if not names:
                continue
            if of_op:
                parts[0] = f"{parts[0]} * 2.0"
                why = None
            space = "F" if e.category in ("loss", "nn") else "torch"
            call = f"{space}.{e.name}({', '.join(parts)})"
            if method:
                call = f"({parts[0]}).{e.name}({', '.join(parts[1:])})"
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


@pytest.mark.parametrize("source,not_yet", _programs(of_op=True))
def test_a_view_op_replays_on_an_ops_output(source, not_yet, monkeypatch):
    test_a_pure_op_replays_as_compiled(source, not_yet, monkeypatch)


_F_RELU = """import torch
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(16, 4)
Y = torch.randn(16, 1)
W1 = torch.randn(4, 8, requires_grad=True)
W2 = torch.randn(8, 1, requires_grad=True)
for i in range(12):
    h = F.relu(X @ W1{flag})
    loss = F.mse_loss(h @ W2, Y)
    loss.backward()
    with torch.no_grad():
        W1 -= 0.01 * W1.grad
        W2 -= 0.01 * W2.grad
        W1.grad.zero_()
        W2.grad.zero_()
print(loss, W1, W2)
"""


@pytest.mark.parametrize("flag", ["", ", inplace=False", ", inplace=True", ", True"])
def test_functional_activations_replay_unless_in_place(flag, monkeypatch):
    """F.relu (F's own function, which takes `inplace`) is its op's function to a replayed
    loop; a call that writes its input in place is not replayed."""
    source = _F_RELU.format(flag=flag)
    on, off = replay_both(source)
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr
    replayed = replayed_iterations(monkeypatch, source)
    assert (replayed > 0) == (flag in ("", ", inplace=False"))
