"""No_grad numbers in replayed loop bodies (`with torch.no_grad(): val =
loss_fn(model(Xv), Yv).item()`, loop_shapes._no_grad_number, language/replay_numbers.py):
the block's ops replayed without nodes, the number bound as Tensor.item gives it.  Each
program prints the same with and without replay (`--no-replay`), and the numbers are
taken by the replay."""

from __future__ import annotations

import pytest

from conftest import replay_both, run_inprocess

_DATA = """torch.manual_seed(4)
X = torch.randn(50, 4)
Y = (X[:, :1] * 2.0 - X[:, 1:2]).tanh()
Xt, Yt, Xv, Yv = X[:40], Y[:40], X[40:], Y[40:]
"""

PROGRAMS = {
    # a validation loss through a module and a loss module, an `if` on it in the tail
    "validation": _DATA
    + """import torch.nn as nn
model = nn.Sequential(nn.Linear(4, 6), nn.Tanh(), nn.Linear(6, 1))
opt = torch.optim.Adam(model.parameters(), lr=0.02)
mse = nn.MSELoss()
best, at, idx = float("inf"), -1, torch.arange(40)
for step in range(60):
    opt.zero_grad()
    loss = mse(model(Xt[idx]), Yt[idx])
    loss.backward()
    opt.step()
    with torch.no_grad():
        val = mse(model(Xv), Yv).item()
    if val < best:
        best, at = val, step
print(step, best, at, val, type(val), loss, model[0].weight.grad)
""",
    # a number of a made name's value, read by the bookkeeping after it; a `while` loop
    "of_made_name": _DATA
    + """w = torch.zeros(4, 1, requires_grad=True)
i, sizes = 0, []
while i < 40:
    out = Xt @ w
    loss = ((out - Yt) ** 2).mean()
    with torch.no_grad():
        size = (out * out).sum().sqrt().item()
    sizes.append(size)
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    i += 1
    if i % 13 == 0:
        print(i, size, loss.item())
print(sizes[-2:], out.grad_fn, loss, w)
""",
    # the norm a clipping call returns, bound and appended; the validation number after
    # the optimizer's step, read by an `if` in the tail
    "clipped_norm": _DATA
    + """import torch.nn as nn
model = nn.Linear(4, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1, weight_decay=1e-3)
mse = nn.MSELoss()
best, norms = float("inf"), []
for step in range(50):
    opt.zero_grad()
    loss = mse(model(Xt), Yt)
    loss.backward()
    norm = nn.utils.clip_grad_norm_(model.parameters(), max_norm=0.3)
    norms.append(norm.item())
    opt.step()
    with torch.no_grad():
        val = mse(model(Xv), Yv).item()
    if val < best:
        best = val
print(step, best, max(norms), min(norms), norm, loss, model.weight)
""",
    # a number of more than one element: the error where the compiled loop raises it
    "not_one_element": _DATA
    + """w = torch.zeros(4, 1, requires_grad=True)
for k in range(20):
    loss = ((Xt @ w - Yt) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad.zero_()
    with torch.no_grad():
        v = (Xv[: 1 + k // 10] @ w).sum(1).item()
    print(k, v)
""",
}


@pytest.mark.parametrize("name", list(PROGRAMS))
@pytest.mark.parametrize("dtype", ["float64", "float32"])
def test_the_same_with_and_without_replay(name, dtype):
    on, off = replay_both(PROGRAMS[name], "--dtype", dtype)
    assert on.stderr == off.stderr
    assert on.stdout == off.stdout
    assert ("Error" in on.stderr) == (name == "not_one_element")


@pytest.mark.parametrize(
    "name,least", [("validation", 50), ("of_made_name", 30), ("clipped_norm", 40)]
)
def test_the_numbers_are_replayed(name, least, monkeypatch):
    from gradcli.language import replay

    count = [0]
    real = replay.number

    def counted(run, item, v):
        count[0] += 1
        return real(run, item, v)

    monkeypatch.setattr(replay, "number", counted)
    run_inprocess(PROGRAMS[name])
    assert count[0] >= least
