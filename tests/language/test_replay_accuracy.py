"""Loop bodies with an accuracy line (`acc = (logits.argmax(1) == y).float().mean()`)
replay: argmax and argmin, the comparisons and the casts are ops of nodes whose output is
never differentiable (engine/function.py `Untracked`), declared pure, so a recording notes
them as ops that make no node and a replayed iteration runs their forwards again.  Each
program prints exactly what it prints with `--no-replay` (values, dtypes, requires_grad),
and its loop replays."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_DATA = """import torch
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(30, 4, dtype={dt})
y = torch.randint(0, 3, (30,))
W = torch.zeros(4, 3, dtype={dt}, requires_grad=True)
b = torch.zeros(3, dtype={dt}, requires_grad=True)
for epoch in range(25):
    logits = X @ W + b
    loss = F.cross_entropy(logits, y)
{lines}    loss.backward()
    with torch.no_grad():
        W -= 0.5 * W.grad
        b -= 0.5 * b.grad
    W.grad.zero_()
    b.grad.zero_()
    if epoch % 10 == 0:
        print(epoch, loss.item(), {shown})
print(W, b, {shown})
print({types})
"""

_LINES = {
    "accuracy": (
        "    acc = (logits.argmax(1) == y).float().mean()\n",
        "acc, acc.item()",
        "acc.dtype, acc.requires_grad",
    ),
    "pred_dim": (
        "    pred = logits.argmax(dim=1)\n    acc = (pred == y).double().mean()\n",
        "pred, acc",
        "pred.dtype, pred.requires_grad, acc.dtype",
    ),
    "compare_ops": (
        "    wrong = (logits.argmin(1) != y).sum() + logits.argmin(1, keepdim=True).sum()\n"
        "    pos = (logits > 0.1).long()\n"
        "    low = (logits <= b).int().sum(0)\n",
        "wrong, pos.sum(), low",
        "wrong.dtype, pos.dtype, pos.requires_grad, low.dtype",
    ),
    "number_compare": (
        "    twos = (logits.argmax(1) == 2).sum()\n    big = (y >= 1).float().mean()\n",
        "twos, big",
        "twos.dtype, big.dtype",
    ),
    "cast_grad": (
        "    idx = logits.long()\n    mask = logits.bool()\n",
        "idx.sum(), mask.sum()",
        "idx.dtype, idx.requires_grad, mask.dtype, mask.requires_grad",
    ),
}

PROGRAMS = {
    f"{name}_{dt[6:]}": _DATA.format(dt=dt, lines=lines, shown=shown, types=types)
    for name, (lines, shown, types) in _LINES.items()
    for dt in ("torch.float32", "torch.float64")
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_same_output_with_and_without_replay(name):
    on, off = replay_both(PROGRAMS[name])
    assert off.returncode == 0 and not off.stderr, off.stderr
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_the_loop_replays(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) > 15
