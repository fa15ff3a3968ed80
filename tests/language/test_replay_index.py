"""Loop bodies that index by a variable (`X[idx]`, `X[j]`) replay (language/loop_shapes.py,
replay_plan.py `_keys`, replay.py `_alive`): an index tensor is taken as a plan input, the
key remade of its array each iteration (a loop target's checked for its kind, a variable's
for its identity), a number is checked as any number the body reads.  Each program prints
exactly what it prints with `--no-replay` (values, gradients, grad_fns, errors), also when
the index changes in place, is rebound or its batch is shorter; the loops that may replay
do, and a mask, a 0-d index tensor or a list gives no plan."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_DATA = """from torch import nn
torch.manual_seed(0)
X = torch.randn({n}, 6, dtype={dt})
y = torch.randint(0, 3, ({n},))
"""
_SPLIT = """model = nn.Sequential(nn.Linear(6, 16), nn.Tanh(), nn.Linear(16, 3)).to({dt})
opt = torch.optim.AdamW(model.parameters(), lr=1e-2, weight_decay=1e-2)
criterion = nn.CrossEntropyLoss()
for epoch in range(3):
    perm = torch.randperm(len(X))
    running = 0.0
    for idx in perm.split(16):
        out = model(X[idx])
        loss = criterion(out, y[idx])
        opt.zero_grad()
        loss.backward()
        opt.step()
        running += loss.item()
    print(epoch, running)
print(out, out.grad_fn, loss.grad_fn.next_functions)
print(list(model.parameters())[0].grad)
"""
_FIXED = """W = torch.randn(6, 3, dtype={dt}, requires_grad=True)
Xg = X.clone().requires_grad_()
idx = torch.tensor([3, 1, 3, 0, 7, 1])
for i in range(10):
{change}    h = Xg[idx] @ W
    loss = torch.nn.functional.cross_entropy(h, y[idx])
    loss.backward()
    with torch.no_grad():
        W -= 0.1 * W.grad
        W.grad.zero_()
print(loss, h.grad_fn, h.grad_fn.next_functions[0][0].next_functions, W)
print(Xg.grad)
"""

PROGRAMS = {}
for dt in ("torch.float32", "torch.float64"):
    # a last batch shorter than the others (50 rows by 16): that iteration as compiled
    PROGRAMS[f"split_{dt}"] = _DATA.format(n=50, dt=dt) + _SPLIT.format(dt=dt)
    # the same index every iteration, with repeats: the gradient X gets accumulated
    PROGRAMS[f"fixed_{dt}"] = _DATA.format(n=8, dt=dt) + _FIXED.format(dt=dt, change="")
PROGRAMS.update(
    {
        # the index changed in place mid-loop: the key remade of its array
        "changed_in_place": _DATA.format(n=8, dt="torch.float64")
        + _FIXED.format(
            dt="torch.float64",
            change="    if i == 4:\n        idx.copy_(torch.tensor([0, 0, 2, 5, 6, 4]))\n",
        ),
        # the index rebound to a shorter one: its identity checked, noted again
        "rebound": _DATA.format(n=8, dt="torch.float64")
        + _FIXED.format(
            dt="torch.float64",
            change="    if i == 4:\n        idx = torch.tensor([2, 5, 6])\n",
        ),
        # an index out of bounds mid-loop: the compiled loop's error in its place
        "out_of_bounds": _DATA.format(n=8, dt="torch.float64")
        + "try:\n"
        + "".join(
            "    " + line + "\n"
            for line in _FIXED.format(
                dt="torch.float64",
                change="    if i == 6:\n        idx[2] = 8\n",
            ).splitlines()
        )
        + "except IndexError as e:\n    print('error', e, i)\n",
        # an index of int32 and a number variable's index
        "int32_and_number": _DATA.format(n=8, dt="torch.float64")
        + "W = torch.randn(6, dtype=torch.float64, requires_grad=True)\n"
        + "rows = torch.tensor([[1, 2], [4, 4]], dtype=torch.int32)\n"
        + "j = 5\n"
        + "for i in range(8):\n"
        + "    s = (X[rows] @ W).sum() + (X[j] * W).sum()\n"
        + "    s.backward()\n"
        + "print(s, W.grad)\n",
        # a mask: its result's shape is its count (no plan)
        "mask": _DATA.format(n=8, dt="torch.float64")
        + "W = torch.randn(6, dtype=torch.float64, requires_grad=True)\n"
        + "keep = y > 0\n"
        + "for i in range(8):\n"
        + "    if i == 4:\n"
        + "        keep[0] = not keep[0]\n"
        + "    s = (X[keep] @ W).sum()\n"
        + "    s.backward()\n"
        + "print(s, W.grad)\n",
        # a 0-d index tensor, taken as its number (no plan)
        "zero_d": _DATA.format(n=8, dt="torch.float64")
        + "W = torch.randn(6, dtype=torch.float64, requires_grad=True)\n"
        + "j = torch.tensor(2)\n"
        + "for i in range(8):\n"
        + "    if i == 4:\n"
        + "        j.fill_(5)\n"
        + "    s = (X[j] * W).sum()\n"
        + "    s.backward()\n"
        + "print(s, W.grad)\n",
        # a list and a tuple (no plan)
        "list_and_tuple": _DATA.format(n=8, dt="torch.float64")
        + "W = torch.randn(6, dtype=torch.float64, requires_grad=True)\n"
        + "rows = [1, 2, 2]\n"
        + "at = (3, 1)\n"
        + "for i in range(8):\n"
        + "    if i == 4:\n"
        + "        rows.append(0)\n"
        + "    s = (X[rows] @ W).sum() + X[at] * W[0]\n"
        + "    s.backward()\n"
        + "print(s, W.grad)\n",
    }
)
# an index tensor an earlier op of the iteration made (replay_plan._keys' `made_by`):
# makemore's `emb = C[Xtr[ix]]` (the minibatch drawn in the body's head), the same split
# in two statements, the index made from a hoisted op, one out of bounds mid-loop
_MAKEMORE = """torch.manual_seed(0)
X = torch.randint(0, 27, (60, 3))
Y = torch.randint(0, 27, (60,))
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 5), generator=g, dtype={dt}, requires_grad=True)
W1 = torch.randn((15, 16), generator=g, dtype={dt}, requires_grad=True)
b1 = torch.randn(16, generator=g, dtype={dt}, requires_grad=True)
W2 = torch.randn((16, 27), generator=g, dtype={dt}, requires_grad=True)
parameters = [C, W1, b1, W2]
for i in range(30):
    ix = torch.randint(0, X.shape[0], (8,), generator=g)
{emb}    h = torch.tanh(emb.view(-1, 15) @ W1 + b1)
    logits = h @ W2
    loss = torch.nn.functional.cross_entropy(logits, Y[ix])
    for p in parameters:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 20 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
print(loss, emb.grad_fn, emb.grad_fn.next_functions, C.grad[:3])
"""
for dt in ("torch.float32", "torch.float64"):
    PROGRAMS[f"made_index_{dt}"] = _MAKEMORE.format(dt=dt, emb="    emb = C[X[ix]]\n")
PROGRAMS["made_index_two_statements"] = _MAKEMORE.format(
    dt="torch.float64", emb="    Xb, Yb = X[ix], Y[ix]\n    emb = C[Xb]\n"
)
PROGRAMS["made_index_hoisted"] = (
    _DATA.format(n=8, dt="torch.float64")
    + """W = torch.randn(6, dtype=torch.float64, requires_grad=True)
rows = torch.tensor([[1, 2], [4, 4]])
for i in range(8):
    s = (X[rows[1] - 1] @ W).sum() + (X[rows.sum(0) - 3] * W).sum()
    s.backward()
print(s, W.grad)
"""
)
PROGRAMS["made_index_out_of_bounds"] = (
    _DATA.format(n=8, dt="torch.float64")
    + """W = torch.randn(6, dtype=torch.float64, requires_grad=True)
rows = torch.tensor([1, 2, 5])
try:
    for i in range(8):
        if i == 5:
            rows[2] = 7
        s = (X[rows + 1] @ W).sum()
        s.backward()
except IndexError as e:
    print("error", e, i)
print(s, W.grad)
"""
)

_REPLAYS = {
    # (4 batches an epoch, the last one shorter: it runs as compiled and is noted, and
    # so is the first of the next epoch, whose shape the plan of the last one fails)
    "split_torch.float32": 3 * 2,
    "split_torch.float64": 3 * 2,
    "fixed_torch.float32": 9,
    "fixed_torch.float64": 9,
    "changed_in_place": 8,
    "rebound": 6,
    "int32_and_number": 7,
    "made_index_torch.float32": 29,
    "made_index_torch.float64": 29,
    "made_index_two_statements": 29,
    "made_index_hoisted": 7,
    "made_index_out_of_bounds": 4,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_indexing_loops_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr
    if name == "out_of_bounds":
        assert "error index 8 is out of bounds for dimension 0 with size 8 6" in off.stdout
    if name == "made_index_out_of_bounds":
        assert "error index 8 is out of bounds for dimension 0 with size 8 5" in off.stdout


@pytest.mark.parametrize("name", list(_REPLAYS))
def test_indexing_loops_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) == _REPLAYS[name]


@pytest.mark.parametrize("name", ["mask", "zero_d", "list_and_tuple"])
def test_indexes_a_plan_cannot_take_give_no_plan(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) == 0
