"""Calls of a `def` replayed (language/replay_defs.py): a training step written in a
function called in a loop replays as the same step written in the loop.  Each program
prints the same with and without replay (`--no-replay`): values, grad_fns, errors,
also when the function changes a global, returns early, raises, is redefined, is
called with other shapes, recursively, or when the program keeps what a call
returned; the ones that should replay are counted."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations, run_inprocess
from gradcli.language import loop_shapes, replay, replay_defs

_HEAD = """torch.manual_seed(0)
X = torch.randn(16, 5)
Y = torch.randn(16, 1)
W1 = torch.randn(5, 8, requires_grad=True)
W2 = torch.randn(8, 1, requires_grad=True)
"""
_STEP = """def step(X, Y, lr):
    "One step of gradient descent."
    h = torch.relu(X @ W1)
    loss = ((h @ W2 - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W1.sub_(lr * W1.grad)
        W2.sub_(lr * W2.grad)
        W1.grad.zero_()
        W2.grad.zero_()
    return loss
"""
_AFTER = """print(loss, loss.grad_fn, loss.grad_fn.next_functions)
print(W1.sum(), W2, W1.grad, W1._version)
"""

PROGRAMS = {
    # the suite's two_layer_def (the loop replays the calls in its own plan)
    "two_layer": _HEAD + _STEP + "for i in range(30):\n    loss = step(X, Y, 0.01)\n" + _AFTER,
    # the same calls in a loop that is not replayed (a statement it may not have)
    "loop_not_replayed": _HEAD
    + _STEP
    + "for i in range(30):\n    print(end='')\n    loss = step(X, Y, 0.01)\n"
    + _AFTER,
    # a step of no arguments (its data and parameters the globals it reads)
    "no_arguments": _HEAD
    + """def step():
    h = torch.relu(X @ W1)
    loss = ((h @ W2 - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W1.sub_(0.01 * W1.grad)
        W2.sub_(0.01 * W2.grad)
        W1.grad.zero_()
        W2.grad.zero_()
    return loss
for i in range(30):
    loss = step()
    if i % 10 == 0:
        print(i, loss.item())
"""
    + _AFTER,
    # calls of no arguments that are not such a def: a module whose forward takes none,
    # a class, a function whose body does not qualify, a lambda
    "no_arguments_others": """from torch import nn
torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
class P(nn.Module):
    def __init__(self):
        super().__init__()
        self.v = nn.Parameter(torch.randn(3))
    def forward(self):
        return self.v * 2
class Box:
    def __init__(self):
        self.k = 1
count = [0]
def noisy():
    count[0] += 1
    return w * x
lam = lambda: w.sum()
p = P()
for body in range(4):
    for i in range(5):
        a = p()
        b = Box() if body == 0 else b
        c = noisy() if body < 2 else a
        e = lam() if body < 3 else a.sum()
        loss = (a.sum() + c.sum() + e) * 0.5
        loss.backward()
        with torch.no_grad():
            w -= 0.1 * w.grad
            w.grad.zero_()
    print(loss, w, count, b.k, p.v.grad, a.grad_fn, e)
""",
    # in a while loop, the value returned kept in a list (its graph stays the program's)
    "values_kept": _HEAD
    + _STEP
    + """losses = []
i = 0
while i < 12:
    losses.append(step(X, Y, 0.01))
    i += 1
print([l.item() for l in losses], losses[3].grad_fn, losses[4].grad_fn.next_functions)
print(losses[0] is losses[2], losses[0].grad_fn is losses[2].grad_fn)
"""
    + "loss = losses[-1]\n"
    + _AFTER,
    # the grad_fn of a value returned kept after the value is let go, and a hook on it
    "grad_fn_kept": _HEAD
    + _STEP
    + """fns = []
for i in range(10):
    loss = step(X, Y, 0.01)
    if i % 3 == 0:
        fns.append(loss.grad_fn.next_functions[0][0])
    if i == 4:
        loss.grad_fn.register_hook(lambda gi, go: print("hook", gi[0].shape))
print(fns, [f.next_functions for f in fns])
"""
    + _AFTER,
    # a value returned changed in place (a node that saved its output), then let go
    "returned_changed_in_place": """torch.manual_seed(0)
w = torch.randn(4, requires_grad=True)
x = torch.randn(4)
v = torch.zeros(2)
def f(w, x):
    y = torch.tanh(w * x)
    return y
for i in range(12):
    y = f(w, x)
    if i % 4 == 0:
        y.add_(1)
        print(y._version)
    else:
        v.add_(1)
        (y * y).sum().backward()
print(y, w.grad, v)
try:
    y = f(w, x)
    y.mul_(2)
    y.sum().backward()
except RuntimeError as e:
    print("error", e)
""",
    # a def that changes globals: a counter and a running total of loss.item()
    "changes_a_global": _HEAD
    + """count = 0
total = 0.0
def step(X, Y, lr):
    global count, total, W1, W2
    h = torch.relu(X @ W1)
    loss = ((h @ W2 - Y) ** 2).mean()
    total += loss.item()
    count += 1
    loss.backward()
    with torch.no_grad():
        W1 -= lr * W1.grad
        W2 -= lr * W2.grad
        W1.grad = None
        W2.grad = None
    return loss
for i in range(20):
    loss = step(X, Y, 0.01)
print(count, total)
"""
    + _AFTER.replace("W1.grad, ", ""),
    # returns early when a parameter says so (an `if` whose block returns)
    "returns_early": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
def f(w, k):
    if k % 4 == 3:
        return (w * 2).sum()
    y = (w * w * 3).sum()
    y.backward()
    return y
vals = []
for i in range(16):
    vals.append(f(w, i).item())
print(vals, w.grad, f(w, 3), f(w, 2))
""",
    # raises: an op's error in a replayed call (a shape changed), and `raise` in an `if`
    "raises": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
def f(w, x, n):
    if n > 6:
        raise ValueError("n too big: " + str(n))
    y = (w * x + 1).sum()
    y.backward()
    return y
for i in range(5):
    y = f(w, x, i)
try:
    y = f(w, torch.randn(4), 0)
except RuntimeError as e:
    print("error", e)
for i in range(3, 9):
    try:
        y = f(w, x, i)
    except ValueError as e:
        print("error", e)
print(y, w.grad)
""",
    # redefined mid-loop: the same `def` run again, then a different body
    "redefined": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
outs = []
for r in range(3):
    def f(w, a):
        y = (w * a).sum()
        y.backward()
        return y
    for i in range(5):
        outs.append(f(w, 2.0).item())
    if r == 1:
        def f(w, a):
            y = (w * a + w).sum()
            y.backward()
            return y
        for i in range(5):
            outs.append(f(w, 2.0).item())
print(outs, w.grad)
""",
    # called with other shapes and numbers in turn
    "other_shapes": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
xs = [torch.randn(3), torch.randn(2, 3), torch.randn(3)]
def f(x, a):
    y = ((x * w) ** 2 * a).mean()
    y.backward()
    return y
for i in range(12):
    y = f(xs[i % 3], 1.5 if i < 6 else 0.5)
    print(y, w.grad.sum())
""",
    # recursion: a call while a call of the same body runs runs as compiled
    "recursion": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
def f(x, n):
    if n > 0:
        return f(x * 2, n - 1) + 1
    y = (x * w).sum()
    return y
for i in range(6):
    out = f(w, i % 3)
    out.backward()
print(out, out.grad_fn, out.grad_fn.next_functions, w.grad)
""",
    # a def without return, one returning a tuple, a closure's variable read
    "no_return_and_tuples": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
def make(scale):
    def f(x):
        y = (x * scale).sum()
        y.backward()
        return y, y * 2
    return f
g = make(3.0)
def h(x):
    z = (x ** 2).sum()
    z.backward()
for i in range(6):
    a, b = g(w)
    print(h(w))
print(a, b, b.grad_fn, w.grad)
""",
    # a made name that is a global (bound when the call ends), a local the `return`
    # does not read (let go unmade), a def without `return`
    "made_global": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
def f(x, k):
    global last
    last = (w * x).sum()
    s = (last * k) ** 2
    s.backward()
for i in range(8):
    print(f(x, 2.0), last, last.grad_fn, w.grad)
try:
    last.backward()
except RuntimeError as e:
    print("error", e)
""",
    # values of ops of tensors needing no gradient (computed once: replay._hoist): one
    # returned and changed in place by the caller, their tensor changed in place
    "hoisted_values": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
def f(w, x):
    x2 = x * 2
    y = (w * x2 + x ** 2).sum()
    y.backward()
    return x2
for i in range(12):
    x2 = f(w, x)
    if i % 3 == 0:
        x2.mul_(10)
    if i == 7:
        x.add_(1)
    print(x2, w.grad)
def g(w, x):
    y = (w * (x * 2) + x ** 2).sum()
    y.backward()
    return y
for i in range(12):
    y = g(w, x)
    if i == 7:
        x.add_(1)
    print(y, w.grad)
""",
    # a number argument that changes every 8 calls (a learning rate's schedule): each
    # change notes the call again, also after more than replay.MAX_RECORDS changes
    "schedule": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
lr = 0.1
def step(w, x, lr):
    loss = ((w * x - 1) ** 2).sum() * lr
    loss.backward()
    with torch.no_grad():
        w.sub_(w.grad)
        w.grad.zero_()
    return loss
for i in range(64):
    if i % 8 == 7:
        lr = lr * 0.5
    loss = step(w, x, lr)
print(loss, w, lr)
""",
    # grad mode changed between calls, and a call under no_grad
    "grad_mode": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
def f(x):
    y = (x * 3 + 1).sum()
    return y
for i in range(8):
    if i % 3 == 2:
        with torch.no_grad():
            y = f(w)
    else:
        y = f(w)
    print(y, y.grad_fn)
""",
    # the loop's bookkeeping around the calls: a total of the values returned, a print
    # every few iterations (run as compiled), a second function's calls
    "bookkeeping": _HEAD
    + _STEP
    + """def evaluate(X, Y):
    err = (torch.relu(X @ W1) @ W2 - Y).abs().mean()
    return err
total = 0.0
for i in range(20):
    loss = step(X, Y, 0.01)
    total += loss.item()
    err = evaluate(X, Y)
    if i % 5 == 0:
        print(i, loss.item(), err)
print(total, err, err.grad_fn)
"""
    + _AFTER,
    # a function given the model and its optimizer
    "model_and_optimizer": """import torch.nn as nn
torch.manual_seed(0)
X = torch.randn(32, 5)
Y = torch.randn(32, 1)
model = nn.Linear(5, 1)
opt = torch.optim.SGD(model.parameters(), lr=0.1)
loss_fn = nn.MSELoss()
def train_step(model, opt, X, Y):
    opt.zero_grad()
    out = model(X)
    loss = loss_fn(out, Y)
    loss.backward()
    opt.step()
    return loss
losses = 0.0
for epoch in range(30):
    loss = train_step(model, opt, X, Y)
    losses += loss.item()
print(loss, losses, loss.grad_fn.next_functions)
print(model.weight, model.bias, model.weight.grad)
""",
    # the function reads a global the loop changes (its checks are made at every call),
    # and one the loop rebinds now and then
    "reads_what_the_loop_changes": """torch.manual_seed(0)
w = torch.randn(3, requires_grad=True)
x = torch.randn(3)
total = 0.0
c = torch.ones(3)
def step(w, x):
    loss = ((w * x - total * 0.01) ** 2 * c).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.01 * w.grad
        w.grad = None
    return loss
for i in range(12):
    loss = step(w, x)
    total += loss.item()
    if i % 4 == 3:
        c = c * 2
print(loss, total, w)
def step2(w, x):
    loss = ((w * x) ** 2 * c).sum()
    return loss
for i in range(12):
    loss = step2(w, x)
    if i % 4 == 3:
        c = c * 2
    if i == 6:
        x = torch.ones(4)
        w = torch.ones(4, requires_grad=True)
        c = torch.ones(4)
print(loss, c, loss.grad_fn)
try:
    for i in range(6):
        loss = step2(w, x)
        if i == 3:
            c = torch.ones(2)
except RuntimeError as e:
    print("error", e, loss)
""",
    # a function called from the step, calling another (both seen through: their ops
    # are the calling statement's), their globals rebound and one redefined mid-loop
    "def_from_def": _HEAD
    + """def forward(X):
    h = torch.relu(X @ W1)
    return h @ W2
def compute_loss(X, Y):
    return ((forward(X) - Y) ** 2).mean() * scale
def step(X, Y, lr):
    loss = compute_loss(X, Y)
    loss.backward()
    with torch.no_grad():
        W1.sub_(lr * W1.grad)
        W2.sub_(lr * W2.grad)
        W1.grad.zero_()
        W2.grad.zero_()
    return loss
scale = 0.5
for i in range(24):
    loss = step(X, Y, 0.01)
    if i == 7:
        scale = 0.25
    if i == 11:
        def forward(X):
            return torch.tanh(X @ W1) @ W2
    if i == 15:
        W2 = torch.randn(8, 1, requires_grad=True)
print(loss, loss.grad_fn.next_functions)
"""
    + _AFTER,
    # a function computing a loss called twice per iteration of the loop, and one that
    # reads the loop's variable
    "loss_twice": _HEAD
    + """def compute_loss(X, Y):
    return ((torch.relu(X @ W1) @ W2 - Y) ** 2).mean()
Xv = X * 0.5
for i in range(12):
    loss = compute_loss(X, Y)
    val = compute_loss(Xv, Y)
    loss.backward()
    with torch.no_grad():
        W1 -= 0.01 * W1.grad
        W2 -= 0.01 * W2.grad
        W1.grad = None
        W2.grad = None
print(loss, val, val.grad_fn)
def scaled(X):
    return (X * i).sum()
acc = 0.0
for i in range(4):
    y = scaled(X)
    acc += y.item()
print(acc, y)
"""
    + _AFTER,
    # functions the loop's statements see through that read a name the loop makes, a
    # number it counts, a tensor it steps in place
    "reads_a_made_name": """torch.manual_seed(0)
W0 = torch.randn(3, requires_grad=True)
X = torch.randn(3)
def f(X):
    return (X * W).sum()
def g(X):
    return (X * k * W0).sum()
acc = 0.0
k = 1.0
for i in range(6):
    W = W0 * 2
    y = f(X)
    z = (W0 * X).sum()
    z.backward()
    with torch.no_grad():
        W0 -= 0.1 * W0.grad
        W0.grad = None
    acc += y.item()
print(acc, y, W0)
for i in range(6):
    u = g(X)
    k += 1
print(u, k)
for i in range(6):
    u = g(X)
    u.backward()
    with torch.no_grad():
        W0 -= 0.1 * W0.grad
        W0.grad = None
print(u, W0)
""",
}

REPLAYED = {
    "two_layer": 20,
    "values_kept": 8,
    "grad_fn_kept": 6,
    "changes_a_global": 15,
    "returns_early": 6,
    "redefined": 10,
    "recursion": 1,
    "made_global": 5,
    "hoisted_values": 12,
    "schedule": 40,
    "bookkeeping": 20,
    "model_and_optimizer": 20,
    "reads_what_the_loop_changes": 10,
    "def_from_def": 24,
    "loss_twice": 10,
    "reads_a_made_name": 4,  # (the last loop)
}

#: calls a replayed loop replays as its own statements (replay_defs._Held.in_loop), at least
IN_LOOP = {
    "two_layer": 28,
    "no_arguments": 25,
    "bookkeeping": 12,
    "model_and_optimizer": 28,
    "schedule": 30,
    "def_from_def": 12,
}


#: a call given another tensor each iteration, whose op saves it: after the loop the last
#: one is changed in place, and the backward through the last call's graph must see it
#: (the saved value's source is this iteration's tensor, not the noted one's)
PROGRAMS["saved_argument_changed"] = """torch.manual_seed(0)
w = torch.randn(5, requires_grad=True)
batches = [torch.randn(4, 5) for _ in range(12)]
def step(x):
    return (w * x).sum()
for xb in batches:
    loss = step(xb)
print(loss)
batches[-1].mul_(2)
try:
    loss.backward()
except RuntimeError as e:
    print("error:", e)
print(w.grad)
"""

#: the tutorial's step in a function given its data (its first statement's ops element-wise)
PROGRAMS["tutorial_step"] = """x = torch.linspace(-3, 3, 200)
y = torch.sin(x)
torch.manual_seed(0)
a, b, c = (torch.randn((), requires_grad=True) for _ in range(3))
def step(x, y):
    y_pred = a + b * x + c * x**2
    loss = (y_pred - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in (a, b, c):
            p -= 1e-4 * p.grad
            p.grad = None
    return loss.item()
for t in range(40):
    l = step(x, y)
print(l, a, b, c)
"""


#: an optimizer's step written as a function, a no_grad block of updates and nothing else
#: (d2l's `sgd`), called with a list made anew for each call; the list's items change
#: half way (another parameter: the checks fail, the call runs as compiled, is noted again)
PROGRAMS["update_only"] = """torch.manual_seed(0)
X = torch.randn(10, 2)
y = torch.randn(10, 1)
w = torch.randn(2, 1, requires_grad=True)
b = torch.zeros(1, requires_grad=True)
v = torch.zeros(1, requires_grad=True)
def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()
def plain(params, lr):
    with torch.no_grad():
        for p in params:
            p -= lr * p.grad
            p.grad = None
for i in range(30):
    l = ((X @ w + b + v - y) ** 2 / 2).sum()
    l.backward()
    sgd([w, b] if i < 15 else [w, v], 0.03, 10)
    if i >= 15:
        b.grad.zero_()
print(w, b, v)
for i in range(20):
    l = ((X @ w + b - y) ** 2).mean()
    l.backward()
    plain([w, b], 0.1)
print(l, w, b, w.grad)
"""
REPLAYED["update_only"] = 30


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_replayed_calls_print_what_compiled_calls_print(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr
    assert "Error" not in off.stdout or "error" in off.stdout


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_the_calls_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least


@pytest.mark.parametrize("name,least", list(IN_LOOP.items()))
def test_a_replayed_loop_replays_the_calls_in_its_plan(name, least, monkeypatch):
    """The loop `loss = step(...)` replays the call as its own statements, the value
    returned bound when the program can see it (not at every call)."""
    count = [0]
    real = replay_defs._Held.looped

    def counted(self, s):
        r = real(self, s)
        count[0] += r is replay_defs._LATER
        return r

    monkeypatch.setattr(replay_defs._Held, "looped", counted)
    run_inprocess(PROGRAMS[name])
    assert count[0] >= least


def test_a_set_handed_over_is_used_again_when_nothing_holds_it(monkeypatch):
    """The shadow sets a call's values were given are used again when the values are
    let go (the loop overwrites them), never while the program holds one."""
    taken = {"loop_not_replayed": [0, 0], "values_kept": [0, 0]}
    real = replay_defs._Held.lend_back
    which = [None]

    def counted(self, run):
        t = run.turn
        had = self.out[t] is not None
        real(self, run)
        if had:
            taken[which[0]][0] += 1
            taken[which[0]][1] += run.sets[t] is not None

    monkeypatch.setattr(replay_defs._Held, "lend_back", counted)
    for name in taken:
        which[0] = name
        run_inprocess(PROGRAMS[name])
    assert taken["loop_not_replayed"][1] == taken["loop_not_replayed"][0] > 10
    assert taken["values_kept"] == [taken["values_kept"][0], 0]


def test_the_report_says_whether_a_def_replays(monkeypatch):
    monkeypatch.setattr(loop_shapes, "REPORT", True)
    r = run_inprocess(PROGRAMS["two_layer"] + "def g(x):\n    print(x)\n")
    lines = [x for x in r.stderr.splitlines() if x.startswith("replay: def")]
    assert lines == [
        "replay: def step at line 6: qualifies",
        "replay: def g at line 21: does not qualify (line 22: a statement a replayed body "
        "may not have)",
        "replay: def step at line 6: calls replayed",
    ]


def test_the_report_says_the_loop_around_the_calls_replays(monkeypatch):
    """The loop `loss = step(X, Y, 0.01)` replays the calls in its own plan (the first
    iteration noted): the report says so."""
    monkeypatch.setattr(loop_shapes, "REPORT", True)
    monkeypatch.setattr(replay, "REPORT", True)
    r = run_inprocess(PROGRAMS["two_layer"])
    lines = [x for x in r.stderr.splitlines() if x.startswith("replay: loop")]
    assert lines == [
        "replay: loop at line 17: qualifies",
        "replay: loop at line 17: 29 of 30 iterations replayed",
    ]


def test_the_report_says_why_a_loop_around_other_calls_has_no_plan(monkeypatch):
    """A loop whose statement calls the program's function that does not replay (its
    body does not qualify) is noted but gets no plan: the report says so."""
    monkeypatch.setattr(loop_shapes, "REPORT", True)
    monkeypatch.setattr(replay, "REPORT", True)
    source = "def f(x):\n    print(end='')\n    return x * 2\nx = torch.ones(2)\n"
    r = run_inprocess(source + "for i in range(3):\n    y = f(x)\n")
    lines = [x for x in r.stderr.splitlines() if x.startswith("replay: loop")]
    assert lines == [
        "replay: loop at line 5: qualifies",
        "replay: loop at line 5: 0 of 3 iterations replayed (no plan: `f` holds a "
        "function of the program (its calls replay by themselves if its body qualifies))",
    ]


@pytest.mark.parametrize(
    "body",
    [
        "    out = ((((w + x) * 3) * 4) * 5).sum()\n    out.backward()\n    return out\n",
        "    out = ((w + x) * (w + x)).sum()\n    out.backward()\n    return out\n",
        "    out = (w * (x * 2)).sum()\n    out.backward()\n    return out\n",
        "    out = ((((x * 2) * 3) * 4) * 5).sum()\n    return out\n",
        # (the graph returned holds (w + x): no set kept holds it after the program)
        "    out = ((w + x) * (w + x)).sum()\n    return out\n",
        "    out = ((((w + x) * 3) * 4) * 5).sum()\n    out.backward()\n",
    ],
)
def test_a_replayed_call_holds_no_more_memory(body):
    """Peak memory (NumPy's allocations, traced) as the compiled calls': between calls
    the run holds none of a call's arrays while the program allocates others."""
    import io
    import tracemalloc

    from gradcli.runtime import context
    from gradcli.output import TextOutput
    from gradcli.session import Session

    src = (
        "w = torch.ones(1, requires_grad=True)\nz = torch.ones(1000000)\n"
        "def f(x, w):\n" + body + "for i in range(6):\n"
        "    r = f(z, w)\n    q = torch.ones(1000000) * 3\n"
    )
    peaks = []
    for on in (False, True, False, True):  # (the first two warm the caches up)
        s = Session(TextOutput(io.StringIO(), quiet=True))
        context.current.replay = on
        tracemalloc.start()
        try:
            s.run(src)
            peaks.append(tracemalloc.get_traced_memory()[1])
        finally:
            tracemalloc.stop()
    off, on = peaks[2:]
    assert on <= off + 1_000_000, peaks  # (an array is 8 MB)


def test_the_ops_on_a_calls_arguments_run_as_kernels(monkeypatch):
    """A call's statements that read its arguments (tensors that may be other ones at the
    next call, checked by kind) run their ops' kernels as one program, as the same
    statements in the loop do, not each op's whole forward."""
    from gradcli.engine import replay as engine_replay

    count = [0]
    real = engine_replay.run_kernels

    def counted(shadows, vals, program):
        count[0] += 1
        return real(shadows, vals, program)

    monkeypatch.setattr(engine_replay, "run_kernels", counted)
    run_inprocess(PROGRAMS["tutorial_step"])
    assert count[0] >= 20


def test_a_calls_steps_are_made_again_only_for_other_tensors():
    """replay._alive keeps the steps it made with a call's argument tensors: the same
    tensors at the next call give those steps again, other tensors new steps whose
    saved values' sources are the new tensors."""
    from types import SimpleNamespace

    a, b = SimpleNamespace(data="A"), SimpleNamespace(data="B")
    held = {"x": a}
    live = (((3, lambda s: held["x"]),), ((0, 1, 0, None),), ())
    steps = ((0, None, None, None, ("w", None), (), None, None),)
    vals, lives = [None] * 4, {}
    first = replay._alive(live, steps, vals, None, lives, 7)
    assert vals[3] == "A" and first[0][4] == ("w", a)
    assert replay._alive(live, steps, vals, None, lives, 7) is first
    held["x"] = b
    other = replay._alive(live, steps, vals, None, lives, 7)
    assert other is not first and other[0][4] == ("w", b) and vals[3] == "B"
