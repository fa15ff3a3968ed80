"""A loop body that takes its minibatch by slicing with the loop's numbers (`idx =
perm[i : i + bs]`, `xb = X[i : i + bs]`) replays (language/loop_shapes.py `_batch`,
replay_plan.py `Batch`): the statement runs as compiled in its place, and the statements
after it read its tensor as a loop target's batch (checked for its kind once it is made;
a shorter last batch runs the rest of its iteration as compiled).  Each program prints
exactly what it prints with `--no-replay`; the loops that may replay do."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations, run_inprocess

_DATA = """from torch import nn
torch.manual_seed(0)
X = torch.randn({n}, 6, dtype={dt})
y = torch.randint(0, 3, ({n},))
model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 3)).to({dt})
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=1e-2)
criterion = nn.CrossEntropyLoss()
bs = 16
"""
_PERM = """for epoch in range(3):
    perm = torch.randperm(len(X))
    running = 0.0
    for i in range(0, len(X), bs):
        idx = perm[i : i + bs]
        out = model(X[idx])
        loss = criterion(out, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
    print(epoch, running, idx)
print(out, loss, loss.grad_fn.next_functions)
print(list(model.parameters())[0].grad)
"""
_DIRECT = """for epoch in range(3):
    for i in range(0, len(X), bs):
        xb = X[i : i + bs]
        yb = y[i : i + bs]
        loss = criterion(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss, xb.shape)
print(list(model.parameters())[2].grad)
"""

PROGRAMS = {}
for dt in ("torch.float32", "torch.float64"):
    for n in (64, 50):  # (50: a last batch of 2)
        PROGRAMS[f"perm_{n}_{dt}"] = _DATA.format(n=n, dt=dt) + _PERM
        PROGRAMS[f"direct_{n}_{dt}"] = _DATA.format(n=n, dt=dt) + _DIRECT
PROGRAMS.update(
    {
        # a while loop over a counter, two slices, the batch read by two statements
        "while_counter": _DATA.format(n=50, dt="torch.float64")
        + "W = torch.randn(5, 4, dtype=torch.float64, requires_grad=True)\n"
        + "start = 0\n"
        + "n = len(X)\n"
        + "while start < n:\n"
        + "    xb = X[start : start + bs, 1:]\n"
        + "    h = xb @ W\n"
        + "    loss = (h ** 2).mean() + xb.sum() * 0.0\n"
        + "    loss.backward()\n"
        + "    start += 16\n"
        + "print(loss, W.grad)\n",
        # the data requires grad: the batch has a grad_fn (its identity checked: the
        # statements after it run as compiled), the gradient of X the same
        "data_requires_grad": _DATA.format(n=50, dt="torch.float64")
        + "X.requires_grad_()\n"
        + _DIRECT
        + "print(X.grad.sum(dim=0))\n",
        # a bound that is not an int mid-loop: the compiled loop's TypeError
        "float_bound": _DATA.format(n=64, dt="torch.float64")
        + "try:\n"
        + "    for i in range(0, len(X), bs):\n"
        + "        if i == 32:\n"
        + "            bs = 16.0\n"
        + "        xb = X[i : i + bs]\n"
        + "        loss = criterion(model(xb), y[:16])\n"
        + "        loss.backward()\n"
        + "except TypeError as e:\n"
        + "    print('error', e)\n"
        + "print(i, loss, model[0].bias.grad)\n",
        # the batch read before the statement that makes it: not replayed
        "read_before": _DATA.format(n=64, dt="torch.float64")
        + "xb = X[:16]\n"
        + "for i in range(0, len(X), bs):\n"
        + "    loss = criterion(model(xb), y[:16])\n"
        + "    xb = X[i : i + bs]\n"
        + "    loss.backward()\n"
        + "print(loss, model[0].bias.grad)\n",
    }
)
PROGRAMS.update(
    {
        # bookkeeping weighted by the batch's size, the number first or second
        "len_factor": _DATA.format(n=50, dt="torch.float64")
        + _PERM.replace(
            "        running += loss.item()\n",
            "        running += loss.item() * len(idx)\n        total += len(idx) * loss.item()\n",
        ).replace("    running = 0.0\n", "    running = 0.0\n    total = 0\n")
        + "print(total, running / len(X))\n",
        # a factor that reads a made name: not replayed
        "factor_made": _DATA.format(n=50, dt="torch.float64")
        + _PERM.replace(
            "        running += loss.item()\n",
            "        scale = loss * 2\n        running += loss.item() * scale\n",
        ),
        # a list of batches indexed by the loop's number: a batch statement
        "list_index": _DATA.format(n=64, dt="torch.float64")
        + "batches = list(X.split(16))\n"
        + "W = torch.randn(6, 2, dtype=torch.float64, requires_grad=True)\n"
        + "for i in range(len(batches)):\n"
        + "    xb = batches[i]\n"
        + "    loss = (xb @ W).sum()\n"
        + "    loss.backward()\n"
        + "print(loss, W.grad)\n",
        # one sample at a time, indexed by the loop's target or a counter (a batch:
        # replayed, where a number index taken as a constant would fail its check)
        "per_sample": _DATA.format(n=16, dt="torch.float64")
        + "W = torch.zeros(6, dtype=torch.float64, requires_grad=True)\n"
        + "for epoch in range(3):\n"
        + "    for i in range(len(X)):\n"
        + "        x = X[i]\n"
        + "        loss = ((x * W).sum() - y[i]) ** 2\n"
        + "        loss.backward()\n"
        + "        with torch.no_grad():\n"
        + "            W -= 0.01 * W.grad\n"
        + "            W.grad.zero_()\n"
        + "    print(epoch, loss, W)\n"
        + "n = len(X)\n"
        + "k = 0\n"
        + "while k < n:\n"
        + "    x = X[k, :]\n"
        + "    loss = (x * W).sum()\n"
        + "    loss.backward()\n"
        + "    k += 1\n"
        + "print(loss, W.grad, x)\n",
        # a list read by a statement to replay (its plan would fail): no iteration noted
        "list_rows": _DATA.format(n=64, dt="torch.float64")
        + "rows = [1, 5, 5]\n"
        + "W = torch.randn(6, 2, dtype=torch.float64, requires_grad=True)\n"
        + "for i in range(8):\n"
        + "    loss = (X[rows] @ W).sum()\n"
        + "    loss.backward()\n"
        + "print(loss, W.grad)\n",
        # BatchNorm1d: its running statistics updated by its node each replayed iteration
        "batch_norm": _DATA.format(n=50, dt="torch.float64")
        + "model = nn.Sequential(nn.Linear(6, 8), nn.BatchNorm1d(8), nn.Linear(8, 3)).double()\n"
        + "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        + _PERM
        + "print(model[1].running_mean, model[1].running_var, model[1].num_batches_tracked)\n",
        # a module a replayed loop may not call (PReLU): no iteration noted
        "prelu": _DATA.format(n=50, dt="torch.float64")
        + "model = nn.Sequential(nn.Linear(6, 8), nn.PReLU(), nn.Linear(8, 3)).double()\n"
        + "opt = torch.optim.SGD(model.parameters(), lr=0.1)\n"
        + _PERM,
    }
)
_REPLAYS = {
    # (4 batches an epoch, the first noted, the last of 2 running as compiled after its
    # batch statement: counted)
    "perm_64_torch.float32": 3 * 4 - 1,
    "perm_50_torch.float64": 3 * 4 - 1,
    "direct_64_torch.float64": 3 * 4 - 1,
    "direct_50_torch.float32": 3 * 4 - 1,
    "while_counter": 3,
    "read_before": 0,
    "len_factor": 3 * 4 - 1,
    "factor_made": 0,
    "batch_norm": 3 * 4 - 1,
    "prelu": 0,
    "list_index": 3,
    "list_rows": 0,
    # (the for loop's `y[i]` is a number index in a replayed statement: checked, so
    # none of its iterations replays; the while loop's 15 of 16)
    "per_sample": 15,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_sliced_batches_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr
    if name == "float_bound":
        assert "error slice indices must be integers or None" in off.stdout


@pytest.mark.parametrize("name", list(_REPLAYS))
def test_sliced_batches_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) == _REPLAYS[name]


def test_a_shorter_batch_runs_the_rest_of_its_iteration_as_compiled(monkeypatch):
    """The last batch of 2 fails its check after the statement that makes it: what comes
    after it runs as compiled (Run._compiled from the next statement), once per epoch."""
    from gradcli.language import replay

    starts = []
    real = replay.Run._compiled

    def compiled(self, start):
        starts.append(start)
        return real(self, start)

    monkeypatch.setattr(replay.Run, "_compiled", compiled)
    replayed_iterations(monkeypatch, PROGRAMS["perm_50_torch.float64"])
    assert starts.count(1) == 3
    replayed_iterations(monkeypatch, PROGRAMS["perm_64_torch.float64"])
    assert starts.count(1) == 3


def test_a_loop_whose_plan_would_fail_notes_no_iteration(monkeypatch):
    """(replay_noting.futile: a statement reads a module a replayed loop may not call.)"""
    from gradcli.language import replay

    noted = []
    real = replay.noting

    def noting(*args):
        noted.append(1)
        return real(*args)

    monkeypatch.setattr(replay, "noting", noting)
    run_inprocess(PROGRAMS["prelu"])
    run_inprocess(PROGRAMS["list_rows"])
    assert not noted
    run_inprocess(PROGRAMS["perm_50_torch.float64"])
    assert noted
