"""Training loops with a learning-rate scheduler replayed (replay_plan.py `replay_calls`:
a scheduler of gradcli's own whose step runs no code of the program runs as compiled
between replayed statements): each program prints the same with and without replay
(`--no-replay`), warnings and errors mid-loop included, and the ones that should replay
are counted."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """from torch import nn
torch.manual_seed(0)
X = torch.randn(12, 3)
y = (X[:, 0] > 0).float().reshape(-1, 1)
model = nn.Linear(3, 1)
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.SGD(model.parameters(), lr=0.05, momentum=0.9)
sched = torch.optim.lr_scheduler.{sched}
for i in range({n}):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
{body}print(loss, sched.get_last_lr(), opt.param_groups[0], model.weight)
"""
_STEP = "    opt.step()\n    sched.step()\n"

PROGRAMS = {
    "step_lr": _HEAD.format(sched="StepLR(opt, 5, 0.5)", n=30, body=_STEP),
    "one_cycle": _HEAD.format(sched="OneCycleLR(opt, 0.3, total_steps=25)", n=25, body=_STEP),
    # stepped once too often: torch's ValueError mid-loop
    "one_cycle_overrun": _HEAD.format(
        sched="OneCycleLR(opt, 0.3, total_steps=8)", n=12, body=_STEP
    ),
    "cosine_restarts": _HEAD.format(
        sched="CosineAnnealingWarmRestarts(opt, 4, 2)", n=30, body=_STEP
    ),
    # the scheduler stepped before the optimizer: torch's warning
    "stepped_first": _HEAD.format(
        sched="ExponentialLR(opt, 0.9)", n=20, body="    sched.step()\n    opt.step()\n"
    ),
    # the lr set by hand mid-loop, and get_lr() called by hand (its warning)
    "lr_by_hand": _HEAD.format(
        sched="CosineAnnealingLR(opt, 10)",
        n=24,
        body=_STEP
        + "    if i == 7:\n        opt.param_groups[0]['lr'] = 0.2\n"
        + "    if i == 15:\n        print(sched.get_lr())\n",
    ),
    # a lambda of the program: not replayed, the same output
    "lambda": _HEAD.format(sched="LambdaLR(opt, lambda e: 0.95 ** e)", n=15, body=_STEP),
    # the scheduler replaced mid-loop
    "replaced": _HEAD.format(
        sched="StepLR(opt, 3)",
        n=20,
        body=_STEP
        + "    if i == 9:\n        sched = torch.optim.lr_scheduler.LinearLR(opt, 0.5, total_iters=4)\n",
    ),
}

REPLAYED = {"step_lr": 25, "one_cycle": 20, "cosine_restarts": 25, "stepped_first": 15}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_replayed_loops_print_what_compiled_loops_print(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == (1 if name == "one_cycle_overrun" else 0), off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_the_loops_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least
