"""A loop over zip, enumerate or iter of lists, tuples, ranges or tensors (their items
taken by gradcli's own code, library/stdlib.plain_items) replays as a loop over a list
does; over a generator or map (the program's code runs as each item is taken) it
replays too, the names its iterations made bound before each item is taken and every
check of the plan made before each iteration (replay.Run.taking); a loop whose plan
fails runs as compiled: a top-level loop by its fast code (the fast tier).  Each
program prints the same with and without replay (`--no-replay`); the ones that should
replay are counted."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations, run_inprocess

_HEAD = """torch.manual_seed(0)
X = torch.randn(48, 3)
Y = torch.randn(48, 1)
w = torch.zeros(3, 1, requires_grad=True)
"""
_STEP = """        loss = ((xb @ w - yb) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
            w.grad.zero_()
"""

PROGRAMS = {
    # zip of two tuples of tensors (torch.split), an inner loop run once per epoch
    "zip_split": _HEAD
    + "for epoch in range(6):\n    for xb, yb in zip(torch.split(X, 8), torch.split(Y, 8)):\n"
    + _STEP
    + "    print(epoch, loss.item())\nprint(w)\n",
    # enumerate of a list of pairs, the index used in the body
    "enumerate_pairs": _HEAD
    + "batches = list(zip(X.split(6), Y.split(6)))\nfor epoch in range(4):\n"
    + "    for i, (xb, yb) in enumerate(batches):\n"
    + _STEP.replace("0.1 * w.grad", "(0.1 / (i + 1)) * w.grad")
    + "    print(epoch, i, loss.item())\nprint(w)\n",
    # enumerate of the rows of a tensor, with a start
    "enumerate_rows": """torch.manual_seed(1)
X = torch.randn(30, 4)
w = torch.randn(4, requires_grad=True)
for k, row in enumerate(X, 1):
    y = (row * w).tanh().sum()
    y.backward()
print(w.grad, k, y)
""",
    # zip(strict=True) and iter() of a list
    "strict_and_iter": _HEAD
    + "xs, ys = list(X.split(12)), list(Y.split(12))\nfor epoch in range(5):\n"
    + "    for xb, yb in zip(xs, ys, strict=True):\n"
    + _STEP
    + "    for xb, yb in zip(iter(xs), ys):\n"
    + _STEP
    + "    print(epoch, loss.item())\nprint(w)\n",
    # a generator's code runs as each item is taken: it changes what the body reads
    "generator_runs_code": _HEAD
    + """lr = 0.1
def batches():
    global lr
    for xb, yb in zip(X.split(4), Y.split(4)):
        lr = lr * 0.75
        yield xb, yb
for epoch in range(4):
    for (xb, yb), k in zip(batches(), range(100)):
        loss = ((xb @ w - yb) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= lr * w.grad
            w.grad.zero_()
    print(epoch, lr, loss.item())
print(w)
""",
    # map calls the program's function for each item
    "map_runs_code": _HEAD
    + """seen = []
def scaled(t):
    seen.append(t.shape[0])
    return t * len(seen)
for epoch in range(3):
    for xb, yb in zip(map(scaled, X.split(8)), Y.split(8)):
        loss = ((xb @ w - yb) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.001 * w.grad
            w.grad.zero_()
    print(epoch, loss.item(), len(seen))
print(w)
""",
    # a list the loop zips over grows in the body: zip sees the new items
    "list_grows": """w = torch.tensor([1.0, 2.0], requires_grad=True)
xs = [torch.tensor([0.5, 0.25])]
for x, k in zip(xs, range(6)):
    y = (x * w).sum()
    y.backward()
    xs.append(x * 0.5)
print(len(xs), w.grad)
""",
    # a DataLoader of a TensorDataset, shuffled, in a def called per epoch (the quickstart's
    # shape), and one of a Subset from random_split, with drop_last
    "loader_shuffled": _HEAD
    + """from torch.utils.data import DataLoader, TensorDataset, random_split
model = torch.nn.Sequential(torch.nn.Linear(3, 8), torch.nn.Tanh(), torch.nn.Linear(8, 1))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_fn = torch.nn.MSELoss()
loader = DataLoader(TensorDataset(X, Y), batch_size=5, shuffle=True)
train, _ = random_split(TensorDataset(X, Y), [40, 8])
sub = DataLoader(train, batch_size=6, drop_last=True)
def epoch(dl):
    for batch, (xb, yb) in enumerate(dl):
        loss = loss_fn(model(xb), yb)
        loss.backward()
        opt.step()
        opt.zero_grad()
        if batch % 4 == 0:
            print(batch, loss.item())
for t in range(4):
    epoch(loader)
    epoch(sub)
print(model[0].weight)
""",
    # a Dataset of the program's class: its __getitem__ runs as each batch is made
    "loader_program_dataset": _HEAD
    + """from torch.utils.data import DataLoader, Dataset
class Noisy(Dataset):
    def __init__(self):
        self.calls = 0
    def __len__(self):
        return 48
    def __getitem__(self, i):
        self.calls += 1
        return X[i] * (1 + self.calls % 3), Y[i]
ds = Noisy()
for t in range(3):
    for xb, yb in DataLoader(ds, batch_size=8):
"""
    + _STEP
    + """    print(t, ds.calls, loss.item())
print(w)
""",
}

# a generator of the program's (d2l's `data_iter`), its loop's `else` and a `break`
PROGRAMS["generator_else_break"] = (
    _HEAD
    + """seen = []
def batches(n):
    for i in range(0, len(X), n):
        seen.append(i)
        yield X[i : i + n], Y[i : i + n]
for epoch in range(3):
    for xb, yb in batches(8):
"""
    + _STEP
    + """    else:
        print("epoch", epoch, loss)
for xb, yb in batches(16):
    loss = ((xb @ w - yb) ** 2).mean()
    if loss < 0:
        break
    if len(seen) > 20:
        break
print(w, loss, loss.grad_fn, len(seen))
"""
)

# the generator reads the name the body makes (bound before each item is taken), and
# keeps the values it read (the shadow sets handed over are not used again)
PROGRAMS["generator_reads_made_name"] = (
    _HEAD
    + """seen, kept = [], []
def batches():
    for i in range(0, len(X), 6):
        if i:
            seen.append(loss.item())
            kept.append(loss)
        yield X[i : i + 6], Y[i : i + 6]
for epoch in range(4):
    for xb, yb in batches():
"""
    + _STEP
    + """print(w, seen[-3:], len(kept), kept[0].grad_fn, kept[-1] is loss)
"""
)

# d2l's linear regression: a generator of minibatches by shuffled index tensors, the
# model, the loss and the step in defs (the loss reshapes by the prediction's shape)
PROGRAMS["d2l_data_iter"] = """import random
random.seed(0)
torch.manual_seed(0)
features = torch.normal(0, 1, (60, 2))
labels = (features @ torch.tensor([2.0, -3.4]) + 4.2).reshape(-1, 1)
def data_iter(batch_size, features, labels):
    indices = list(range(len(features)))
    random.shuffle(indices)
    for i in range(0, len(features), batch_size):
        batch = torch.tensor(indices[i : min(i + batch_size, len(features))])
        yield features[batch], labels[batch]
w = torch.normal(0, 0.01, size=(2, 1), requires_grad=True)
b = torch.zeros(1, requires_grad=True)
def linreg(X, w, b):
    return torch.matmul(X, w) + b
def squared_loss(y_hat, y):
    return (y_hat - y.reshape(y_hat.shape)) ** 2 / 2
def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
net, loss = linreg, squared_loss
for epoch in range(5):
    for X, y in data_iter(7, features, labels):
        l = loss(net(X, w, b), y)
        l.sum().backward()
        sgd([w, b], 0.03, 7)
    with torch.no_grad():
        print(epoch, float(loss(net(features, w, b), labels).mean()))
print(w, b, l)
"""

#: iterations replayed, at least
REPLAYED = {
    "map_runs_code": 12,
    "loader_program_dataset": 12,
    "generator_else_break": 12,
    "generator_reads_made_name": 24,
    "d2l_data_iter": 30,
    "zip_split": 30,
    "enumerate_pairs": 20,
    "enumerate_rows": 20,
    "strict_and_iter": 30,
    "loader_shuffled": 30,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_loops_over_iterators_print_what_compiled_loops_print(name):
    for flags in ((), ("--dtype", "float32")):
        on, off = replay_both(PROGRAMS[name], *flags)
        assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
        assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_loops_over_plain_iterators_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least


@pytest.mark.parametrize("name", ["generator_runs_code"])
def test_loops_whose_plans_fail_are_not_replayed(name, monkeypatch):
    """The generator changes a number the body's ops take (`lr`) as each item is taken:
    the plan's checks fail before every iteration."""
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) == 0


def test_loops_over_the_programs_code_run_by_the_fast_tier(monkeypatch):
    """Not replayed, a top-level loop over items the program's code makes is handed to
    its fast code (not run by the closures, item by item)."""
    from gradcli.language import compiler

    handed = []
    real = compiler._rest

    def noted(rest, builtins):
        run = real(rest, builtins)

        def counted(s, items):
            handed.append(items)
            return run(s, items)

        return counted

    monkeypatch.setattr(compiler, "_rest", noted)
    out = run_inprocess(PROGRAMS["generator_runs_code"])
    assert out.returncode == 0, out.stderr
    assert handed
