"""A replayed body's `total op= E.item()` and `recv.append(E.item())` of an expression E
other than a name (language/loop_split.py: the statement split in two, E assigned to a
name the program cannot spell, held in a cell): the loop replays, and each program
prints exactly what it prints with `--no-replay` (the statement compiled whole), in
float32 and float64."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations, run_inprocess

_HEAD = """g = torch.manual_seed(3)
X = torch.randn(48, 5, dtype={dt})
y = (X[:, 0] + X[:, 1] * X[:, 2] > 0).long()
model = torch.nn.Sequential(torch.nn.Linear(5, 16), torch.nn.Tanh(), torch.nn.Linear(16, 2))
model = model.to({dt})
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
"""
_STEP = """        out = model(xb)
        loss = F.cross_entropy(out, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
"""
_MINIBATCHES = """import torch.nn.functional as F
accs = []
hist = {{'acc': [], 'loss': []}}
for epoch in range(4):
    perm = torch.randperm(48)
    correct = 0
    total = 0.0
    for i in range(0, 48, 8):
        idx = perm[i : i + 8]
        xb = X[idx]
        yb = y[idx]
"""
_AFTER = """print(correct, total, accs, hist)
print(out, loss, loss.grad_fn)
"""

_BODIES = {
    # an accuracy counter, the loss summed by the batch's size
    "counter": "        correct += (out.argmax(dim=1) == yb).sum().item()\n"
    + "        total += F.cross_entropy(out, yb).item() * len(idx)\n",
    # the accuracy appended, to a list and to a dict's list, before the step too
    "appended": "        accs.append((out.argmax(1) == yb).float().mean().item())\n"
    + "        hist['acc'].append((out.argmax(1) == yb).sum().item())\n"
    + "        hist['loss'].append(loss.item())\n",
}


def _program(body, dt, first=False):
    lines = _STEP.splitlines(keepends=True)
    step = "".join(lines[:2] + ([body] if first else []) + lines[2:] + ([] if first else [body]))
    return "import torch\n" + _HEAD.format(dt=dt) + _MINIBATCHES.format() + step + _AFTER


PROGRAMS = {
    f"{name}_{dt}": _program(body, dt)
    for name, body in _BODIES.items()
    for dt in ("torch.float32", "torch.float64")
}
PROGRAMS["counter_before_the_step"] = _program(_BODIES["counter"], "torch.float64", first=True)
PROGRAMS.update(
    {
        # item() of a tensor of many elements: the error where compiled raises it
        "item_error": _program(
            "        if epoch == 2:\n            correct += (out > 0).sum(0).item()\n"
            "        correct += (out > 0).sum(1).item()\n",
            "torch.float64",
        ),
        # the counter a program's object: its `__iadd__` runs its code, as compiled
        "program_counter": "class Count:\n"
        + "    def __init__(self):\n        self.n = 0\n"
        + "    def __iadd__(self, k):\n        print('add', k)\n        self.n += k\n"
        + "        return self\n"
        + _program("        correct += (out.argmax(1) == yb).sum().item()\n", "torch.float64")
        .replace("    correct = 0\n", "    correct = Count()\n")
        .replace("print(correct, ", "print(correct.n, "),
    }
)
_OVER_BATCHES = """import torch
import torch.nn.functional as F
g = torch.manual_seed(5)
X = torch.randn(40, 5, dtype={dt})
y = (X[:, 0] > X[:, 1]).long()
batches = [(X[i : i + 8], y[i : i + 8]) for i in range(0, 40, 8)]
model = torch.nn.Sequential(torch.nn.Linear(5, 12), torch.nn.Tanh(), torch.nn.Linear(12, 2))
model = model.to({dt})
opt = torch.optim.Adam(model.parameters(), lr=0.05)
for epoch in range(4):
    running = 0.0
    total = 0.0
    correct = 0
    for inputs, labels in batches:
        out = model(inputs)
        loss = F.cross_entropy(out, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item() * inputs.size(0)
        total += labels.shape[0] * loss.item()
        correct += (out.argmax(1) == labels).sum().item() * inputs.size(0)
    print(epoch, running, total, correct)
"""
for dt in ("torch.float32", "torch.float64"):
    # the loss summed by the batch's size, `inputs.size(0)`, `labels.shape[0]`, of the
    # loop's targets (loop_shapes._len_of)
    PROGRAMS[f"batch_sizes_{dt}"] = _OVER_BATCHES.format(dt=dt)
_FAILING = ("item_error",)
_NOT_REPLAYED = _FAILING + ("program_counter",)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_held_items_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == (1 if name in _FAILING else 0), off.stderr


@pytest.mark.parametrize("name", [n for n in PROGRAMS if n not in _NOT_REPLAYED])
def test_held_items_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= 12


def test_the_report_says_the_loop_qualifies(monkeypatch):
    from gradcli.language import loop_shapes, replay

    monkeypatch.setattr(loop_shapes, "REPORT", True)
    monkeypatch.setattr(replay, "REPORT", True)
    got = run_inprocess(PROGRAMS["counter_torch.float32"])
    assert "loop at line 15: qualifies" in got.stderr, got.stderr
