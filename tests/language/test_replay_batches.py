"""A loop over minibatches (`for xb, yb in batches:`) replays (language/replay_plan.py
`_swapped`, replay.py `_alive`): a tensor a `for` target binds that needs no gradient
is checked for its kind (dtype, shape, strides) instead of its identity, its array read
each iteration and the nodes that save it given this iteration's tensor.  Each program
prints exactly what it prints with `--no-replay` (values, gradients, grad_fns, the saved
tensors, errors), and the loops that may replay do."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_DATA = """from torch import nn
g = torch.manual_seed(0)
X = torch.randn({n}, 6, dtype={dt})
Y = torch.randn({n}, 1, dtype={dt})
batches = [(X[i : i + 8], Y[i : i + 8]) for i in range(0, {n}, 8)]
"""
_MODULES = """model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 1)).to({dt})
opt = torch.optim.Adam(model.parameters(), lr=1e-2)
loss_fn = nn.MSELoss()
for epoch in range(3):
    total = 0.0
    for xb, yb in batches:
        pred = model(xb)
        loss = loss_fn(pred, yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, total)
print(pred, pred.grad_fn, loss)
print(list(model.parameters())[0], list(model.parameters())[0].grad)
"""
_MANUAL = """W = torch.randn(6, 1, dtype={dt}, requires_grad=True)
b = torch.zeros(1, dtype={dt}, requires_grad=True)
for xb, yb in batches:
    xs = xb * 2.0
    out = xs @ W + b
    loss = ((out - yb) ** 2).mean()
    W.grad = None
    b.grad = None
    loss.backward()
    with torch.no_grad():
        W -= 0.1 * W.grad
        b -= 0.1 * b.grad
print(loss, W, b, W.grad)
print(out, out.grad_fn, out.grad_fn.next_functions)
"""

PROGRAMS = {}
for dt in ("torch.float32", "torch.float64"):
    PROGRAMS[f"modules_{dt}"] = _DATA.format(n=64, dt=dt) + _MODULES.format(dt=dt)
    PROGRAMS[f"manual_{dt}"] = _DATA.format(n=64, dt=dt) + _MANUAL.format(dt=dt)
PROGRAMS.update(
    {
        # a last batch of another shape: that iteration as compiled, noted again
        "ragged": _DATA.format(n=60, dt="torch.float64") + _MODULES.format(dt="torch.float64"),
        # the batch a plain `for` binds, no backward: its saved batch seen after the loop
        "plain_target": _DATA.format(n=64, dt="torch.float64")
        + "W = torch.randn(6, 1, dtype=torch.float64, requires_grad=True)\n"
        + "for xb in [X[i : i + 8] for i in range(0, 64, 8)]:\n"
        + "    out = xb @ W\n"
        + "    loss = out.sum()\n"
        + "print(out.grad_fn._saved_self is xb, out.grad_fn._saved_self, W.grad)\n",
        # data changed in place between forward and backward: the compiled loop's error
        "changed_in_place": _DATA.format(n=64, dt="torch.float64")
        + "W = torch.randn(6, 1, dtype=torch.float64, requires_grad=True)\n"
        + "k = 0\n"
        + "for xb, yb in batches:\n"
        + "    out = xb @ W\n"
        + "    loss = ((out - yb) ** 2).sum()\n"
        + "    k += 1\n"
        + "    if k == 5:\n"
        + "        xb.mul_(2)\n"
        + "    loss.backward()\n"
        + "print(W.grad)\n",
        # a batch that requires grad: its identity checked (no replay past the first)
        "batch_requires_grad": _DATA.format(n=64, dt="torch.float64")
        + "batches = [(x.clone().requires_grad_(), y) for x, y in batches]\n"
        + _MODULES.format(dt="torch.float64"),
        # the first batch also held by another variable the body reads: its identity
        # checked (noted again at the second, which another name does not hold)
        "also_held": _DATA.format(n=64, dt="torch.float64")
        + "W = torch.randn(6, 1, dtype=torch.float64, requires_grad=True)\n"
        + "Z = batches[0][0]\n"
        + "for xb, yb in batches:\n"
        + "    out = xb @ W + Z @ W\n"
        + "    loss = ((out - yb) ** 2).sum()\n"
        + "    W.grad = None\n"
        + "    loss.backward()\n"
        + "print(W.grad, loss)\n",
        # a view of the batch (Flatten), saved by the Linear after it: replayed
        "viewed": _DATA.format(n=64, dt="torch.float64")
        + "batches = [(x.reshape(8, 2, 3), y) for x, y in batches]\n"
        + _MODULES.format(dt="torch.float64").replace(
            "nn.Sequential(", "nn.Sequential(nn.Flatten(), "
        ),
        # a batch of another layout (its strides): that iteration as compiled
        "mixed": _DATA.format(n=64, dt="torch.float64")
        + "batches[4] = (batches[4][0].t().contiguous().t(), batches[4][1])\n"
        + _MANUAL.format(dt="torch.float64"),
    }
)
_INNER = """def fit(model, X, Y, lr):
    opt = torch.optim.SGD(model.parameters(), lr=lr)
    W = model.weight
    for i in range(4):
        loss = ((X @ W.t() - Y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    return loss
"""
PROGRAMS.update(
    {
        # an inner loop run again with what its plan checks changed between runs: a new
        # model and optimizer each epoch, another learning rate, a function's loop called
        # with other tensors and shapes (its plan, kept, fails its checks: noted again)
        "runs_change": _DATA.format(n=64, dt="torch.float64")
        + "for epoch in range(4):\n"
        + "    if epoch % 2 == 0:\n"
        + "        model = nn.Linear(6, 1, bias=False).double()\n"
        + "        opt = torch.optim.SGD(model.parameters(), lr=0.1 * (epoch + 1))\n"
        + "    for xb, yb in batches:\n"
        + "        loss = ((model(xb) - yb) ** 2).mean()\n"
        + "        opt.zero_grad()\n"
        + "        loss.backward()\n"
        + "        opt.step()\n"
        + "    print(epoch, loss, model.weight)\n"
        + _INNER
        + "m = nn.Linear(6, 1, bias=False).double()\n"
        + "print(fit(m, X, Y, 0.1), fit(m, X, Y, 0.2), fit(m, X[:8], Y[:8], 0.2))\n"
        + "print(fit(nn.Linear(6, 1, bias=False).double(), X, Y, 0.2), m.weight)\n",
    }
)
# a batch bound to `xb, yb` from an object of the program's class, whose __iter__ (run
# by the unpacking) changes a number the replayed statements read: the iteration after
# it checks the whole plan (Run.unsteady), as the one after a tuple need not
_PAIR = """class Pair:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __iter__(self):
        global scale
        scale = scale * 2.0
        return iter((self.x, self.y))
scale = 1.0
W = torch.randn(6, 1, dtype=torch.float64, requires_grad=True)
batches[3] = Pair(batches[3][0], batches[3][1])
batches[6] = [batches[6][0], batches[6][1]]
for epoch in range(2):
    for xb, yb in batches:
        loss = ((xb @ W - yb) ** 2).mean() * scale
        loss.backward()
        with torch.no_grad():
            W -= 0.01 * W.grad
            W.grad.zero_()
    print(epoch, scale, loss, W.sum())
print(loss.grad_fn, W)
"""
PROGRAMS["unpacked_by_program_code"] = _DATA.format(n=64, dt="torch.float64") + _PAIR
_ERRORS = {"changed_in_place"}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_minibatch_loops_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == (1 if name in _ERRORS else 0), off.stderr


@pytest.mark.parametrize(
    "name",
    [
        n
        for n in PROGRAMS
        if n.startswith(("modules", "manual", "ragged", "plain", "also", "mixed"))
    ],
)
def test_minibatch_loops_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= 5


@pytest.mark.parametrize("name", ["batch_requires_grad"])
def test_batches_the_replay_cannot_swap_are_not_replayed(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) == 0


def test_batches_that_are_views_flattened_by_a_module_are_replayed(monkeypatch):
    """(nn.Flatten's view of each batch, a view itself, saved by the Linear after it:
    replay_plan.SwapView, its source that iteration's batch's version counter.)"""
    assert replayed_iterations(monkeypatch, PROGRAMS["viewed"]) >= 20


def test_an_inner_loop_keeps_its_plan_from_one_run_to_the_next(monkeypatch):
    """(Body.start: each epoch's run of the loop over 8 batches replays all 8 after the
    first epoch, which notes its first iteration.)"""
    assert replayed_iterations(monkeypatch, PROGRAMS["modules_torch.float64"]) == 3 * 8 - 1


def test_a_loop_over_tuples_checks_only_its_targets(monkeypatch):
    """(plan.moving: after a replayed iteration, the next checks only what `xb, yb`
    bind; the whole plan is checked when a run starts and after an item that was not a
    tuple.)"""
    from gradcli.language import replay

    sizes = []
    real = replay._check

    def counted(checks, s):
        sizes.append(len(checks))
        return real(checks, s)

    monkeypatch.setattr(replay, "_check", counted)
    assert replayed_iterations(monkeypatch, PROGRAMS["modules_torch.float64"]) == 3 * 8 - 1
    whole = max(sizes)
    assert sizes.count(whole) <= 3 and len(sizes) - sizes.count(whole) >= 18
    sizes.clear()
    assert replayed_iterations(monkeypatch, PROGRAMS["unpacked_by_program_code"]) >= 8
    assert sizes.count(max(sizes)) >= 4
