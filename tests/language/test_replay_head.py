"""A loop body that starts with assignments a replayed body may not have (a head:
`xb, yb = get_batch()`, a call of the program's own function that draws a minibatch,
`lr = schedule(step)`), before a training step that qualifies (language/replay_head.py):
each iteration binds the names the last one made, runs the head as compiled and replays
the rest, the head's names checked as a `for` target's are (a head that runs no code of the
program leaves them pending: `_quiet`, also a draw `torch.randint(0, X.shape[0], (n,))` and
indexing by its tensor).  Each program prints exactly
what it prints with `--no-replay`, in float32 and float64, and replays."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations, run_inprocess

_HEAD = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.set_default_dtype({dt})
g = torch.manual_seed(0)
data = torch.randn(200, 6)
labels = (data[:, 0] + data[:, 1] > 0).long()
seen = []
def get_batch(n):
    ix = torch.randint(0, 200, (n,))
    return data[ix], labels[ix]
def schedule(step):
    seen.append(step)
    return 0.1 if step < 100 else 0.01
model = nn.Sequential(nn.Linear(6, 8), nn.Tanh(), nn.Linear(8, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.1)
W = torch.randn(6, 2, requires_grad=True)
"""
_CASES = {
    "get_batch": """for step in range(12):
    xb, yb = get_batch(16)
    logits = model(xb)
    loss = F.cross_entropy(logits, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 5 == 0:
        print(step, loss.item())
print(loss, logits.sum())
""",
    # the head reads what the last iteration made (bound before it runs)
    "reads_made": """losses = []
loss = None
for step in range(12):
    xb, yb = get_batch(16)
    last = float(loss) if loss is not None else 0.0
    logits = model(xb)
    loss = F.cross_entropy(logits, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
    losses.append(loss.item())
print(last, loss, losses)
""",
    # a shorter last batch, an `if` that holds, a while loop
    "while_shorter": """step = 0
while step < 12:
    xb, yb = get_batch(16 if step < 11 else 5)
    loss = F.cross_entropy(xb @ W, yb)
    loss.backward()
    with torch.no_grad():
        W -= 0.1 * W.grad
        W.grad = None
    if step % 5 == 0:
        print(step, loss.item())
    step += 1
print(loss, W)
""",
    # a head of two statements, one a number the step reads (the same each iteration:
    # a number that changes fails its check, as a variable's)
    "number": """for step in range(12):
    lr = schedule(step)
    xb, yb = get_batch(16)
    loss = F.cross_entropy(xb @ W, yb)
    loss.backward()
    with torch.no_grad():
        W -= lr * W.grad
        W.grad = None
print(loss, W, seen)
""",
    # the head raises mid-loop: its error in its place, the names made before bound
    "raises": """for step in range(12):
    xb, yb = get_batch(16 if step < 8 else -1)
    loss = F.cross_entropy(xb @ W, yb)
    loss.backward()
    with torch.no_grad():
        W -= 0.1 * W.grad
        W.grad = None
print(loss, W)
""",
    # a loop over a list of batches unpacked in the body, moved to a device (the head
    # binds the target's names again), and the same inside an epoch loop
    "unpacked": """batches = [(data[i : i + 20], labels[i : i + 20]) for i in range(0, 200, 20)]
for epoch in range(3):
    total = 0.0
    for batch in batches:
        inputs, targets = batch
        inputs, targets = inputs.to("cpu"), targets.to("cpu")
        loss = F.cross_entropy(model(inputs), targets)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, total)
device = torch.device("cpu")
for inputs, targets in batches:
    inputs, targets = inputs.to(device), targets.to(device, torch.long)
    loss = F.cross_entropy(model(inputs), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss)
""",
    # a quiet head (replay_head._quiet: no code of the program runs, the names made stay
    # pending) given an object of the program's class that reads them when unpacked, or
    # whose `to` reads them: the names bound first
    "quiet_broken": """class Pair:
    def __init__(self, x, y):
        self.x, self.y = x, y
    def __iter__(self):
        print("iter", loss)
        return iter((self.x, self.y))
    def to(self, device):
        print("to", loss.item())
        return self.x
batches = [(data[i : i + 20], labels[i : i + 20]) for i in range(0, 200, 20)]
batches[6] = Pair(*batches[6])
batches[8] = (Pair(*batches[8]), batches[8][1])  # (inputs a Pair: its `to` reads loss)
loss = None
for batch in batches:
    inputs, targets = batch
    inputs, targets = inputs.to("cpu"), targets.to("cpu")
    loss = F.cross_entropy(model(inputs), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss)
other = [(data[i : i + 20], labels[i : i + 20]) for i in range(0, 200, 20)]
other[5] = (Pair(*other[5]), other[5][1])
for inputs, targets in other:
    inputs, targets = inputs.to("cpu"), targets.to("cpu")
    loss = F.cross_entropy(model(inputs), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss)
""",
    # makemore's head, quiet (`torch.randint` of a generator, `.shape[0]`, indexing by the
    # index tensor), then over an object of the program's class whose `shape` and
    # indexing read the last iteration's loss (not quiet: the names made bound first)
    "quiet_draws": """class Rows:
    def __init__(self, t):
        self.t = t
    @property
    def shape(self):
        print("shape", loss.item())
        return self.t.shape
    def __getitem__(self, ix):
        print("rows", loss.item())
        return self.t[ix]
gen = torch.Generator().manual_seed(5)
loss = None
for rnd in range(2):
    src = data if rnd == 0 else Rows(data)
    for step in range(10):
        ix = torch.randint(0, src.shape[0], (16,), generator=gen)
        xb, yb = src[ix], labels[ix]
        loss = F.cross_entropy(model(xb), yb)
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(loss)
""",
    # a head changing in place a tensor a hoisted op of the rest reads (not quiet: every
    # check, the hoisted values' bytes compared)
    "in_place": """S = torch.ones(2)
batches = [(data[i : i + 20], labels[i : i + 20]) for i in range(0, 200, 20)]
for batch in batches:
    inputs, targets = batch
    s = S.add_(0.5)
    loss = F.cross_entropy(model(inputs) * (S * 2), targets)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss, S)
""",
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}") + loop
    for name, loop in _CASES.items()
    for dt in ("float32", "float64")
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_head_prints_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert (off.returncode != 0) == ("raises" in name), off.stderr


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_head_replays(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= (4 if "raises" in name else 8)


# a head that runs a forward (its outputs require grad: a plan would fail on them):
# no iteration noted, the loop as compiled (`_graphed`)
GRAPHED = (
    _HEAD.format(dt="torch.float32")
    + """for step in range(12):
    xb, yb = get_batch(16)
    logits, h = model(xb), xb
    loss = F.cross_entropy(logits, yb)
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss, logits.sum())
"""
)


def test_a_head_running_a_forward_notes_nothing(monkeypatch):
    from gradcli.language import replay

    on, off = replay_both(GRAPHED)
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr
    noted = [0]
    real = replay.Run._record

    def counted(self):
        noted[0] += 1
        return real(self)

    monkeypatch.setattr(replay.Run, "_record", counted)
    run_inprocess(GRAPHED)
    assert noted[0] == 0
