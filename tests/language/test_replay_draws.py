"""Loops of a forward a replayed loop sees through whose iterable is drawn by code that
runs outside the plan (language/replay_draws.py: `for k in range(random.randint(1, 4)):`
in a module's forward): the draws made in their place, a plan per distinct draws.  Each
program prints the same with and without replay (`--no-replay`): the trip counts
changing from one iteration to the next, the draw changed mid-loop (a seed, a global
it reads, an error), modules in modules, an epoch loop around; the ones that should
replay are counted."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_POWERS = """import random
random.seed(1)
torch.manual_seed(0)


class Powers(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()) * 0.01)

    def forward(self, x):
        y = self.a + self.b * x
        for k in range(2, random.randint(2, 5)):
            y = y + self.e * x**k
        return y


x = torch.linspace(-1, 1, 50)
t = torch.cos(x)
model = Powers()
crit = torch.nn.MSELoss(reduction="sum")
opt = torch.optim.SGD(model.parameters(), lr=1e-3, momentum=0.9)
for i in range(60):
    pred = model(x)
    loss = crit(pred, t)
    if i % 20 == 19:
        print(i, loss.item(), random.random())
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss, pred.grad_fn.name(), model.a, model.b, model.e, random.random())
"""

_RECURRENT = """import random
random.seed(4)
torch.manual_seed(2)


class Step(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.lin = torch.nn.Linear(3, 3)
        self.w = torch.nn.Parameter(torch.randn(3) * 0.5)

    def forward(self, h):
        for j in range(random.choice([1, 2, 4])):
            h = torch.tanh(self.lin(h) * self.w)
        return h


class Net(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.step = Step()
        self.u = torch.nn.Parameter(torch.randn(3, 3) * 0.3)

    def forward(self, x):
        h = x @ self.u
        for n in range(0, random.randint(0, 6), 2):
            h = self.step(h) + n
        return self.step(h)


net = Net()
x = torch.randn(5, 3)
y = torch.randn(5, 3)
opt = torch.optim.Adam(net.parameters(), lr=0.01)
for epoch in range(3):
    for i in range(12):
        loss = ((net(x) - y) ** 2).mean() + (net(y) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss.item(), random.random())
print(net.u, net.step.w.grad)
"""

PROGRAMS = {
    "powers": _POWERS,
    # a module's forward calls a module that draws, in a loop of its own that draws
    "nested_modules": """import random
random.seed(6)
torch.manual_seed(3)


class Inner(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3) * 0.5)

    def forward(self, h):
        for j in range(random.randint(1, 2)):
            h = torch.tanh(h * self.w) + j
        return h


class Outer(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.inner = Inner()
        self.lin = torch.nn.Linear(3, 3)

    def forward(self, x):
        h = self.lin(x)
        for n in range(random.randint(0, 1)):
            h = self.inner(h) * 0.5
        return self.inner(h)


net = Outer()
x = torch.randn(4, 3)
opt = torch.optim.SGD(net.parameters(), lr=0.05)
for epoch in range(3):
    for i in range(30):
        loss = (net(x) ** 2).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
    print(epoch, loss, random.random())
print(net.inner.w, net.lin.bias.grad)
""",
    "recurrent": _RECURRENT,
    # the seed set again, the bound a global changed, mid-loop (in an `if`)
    "draw_changed_mid_loop": """import random
random.seed(0)
torch.manual_seed(0)
HI = 3


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(4))

    def forward(self, x):
        y = x * self.w
        for _ in range(random.randint(0, HI)):
            y = torch.sin(y) * self.w
        return y.sum()


m = M()
x = torch.randn(4)
for i in range(40):
    if i == 13:
        random.seed(7)
    if i == 25:
        HI = 1
    out = m(x)
    out.backward()
print(out, m.w.grad, random.random())
""",
    # the draw raises mid-loop (an empty range for randint): where the compiled loop does
    "draw_raises": """import random
random.seed(3)
torch.manual_seed(0)
LO = 0


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3))

    def forward(self, x):
        y = x * self.w
        for _ in range(random.randint(LO, 2)):
            y = y * self.w + 1
        return y.sum()


m = M()
x = torch.randn(3)
try:
    for i in range(30):
        if i == 17:
            LO = 5
        out = m(x)
        out.backward()
except ValueError as e:
    print("error", i, e)
print(out, m.w.grad, random.random())
""",
    # the draw's global holds the program's own function: made by the compiled iteration
    "draw_by_a_program_function": """import random
random.seed(5)
torch.manual_seed(0)
calls = []


def trips():
    calls.append(len(calls))
    return random.randint(1, 3)


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3))

    def forward(self, x):
        y = x * self.w
        for _ in range(trips()):
            y = y * self.w
        return y.sum()


m = M()
x = torch.randn(3)
for i in range(10):
    out = m(x)
    out.backward()
print(out, m.w.grad, calls)
""",
    # a statement run as compiled before the draw (no plan), and a range rebound mid-loop
    "draw_after_a_call": """import random
random.seed(2)
torch.manual_seed(0)


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3))

    def forward(self, x):
        y = x * self.w
        for k in range(random.randint(1, 3)):
            y = y * self.w + k
        return y.sum()


m = M()
x = torch.randn(3)
opt = torch.optim.SGD(m.parameters(), lr=0.1)
for i in range(12):
    opt.zero_grad()
    out = m(x)
    out.backward()
    opt.step()
print(out, m.w)
for i in range(12):
    if i == 6:
        range = lambda *a: [2, 1]
    out = m(x)
    out.backward()
print(out, m.w.grad, random.random())
""",
    # a def whose calls replay calls the module: its draws as compiled
    "draw_in_a_def": """import random
random.seed(2)
torch.manual_seed(0)


class M(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.w = torch.nn.Parameter(torch.randn(3))

    def forward(self, x):
        y = x * self.w
        for k in range(random.randint(1, 3)):
            y = y * self.w
        return y.sum()


def step(m, x):
    out = m(x)
    out.backward()
    return out


m = M()
x = torch.randn(3)
for i in range(12):
    out = step(m, x)
print(out, m.w.grad, random.random())
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
@pytest.mark.parametrize("flags", [(), ("--dtype", "float32")])
def test_replayed_loops_print_what_compiled_loops_print(name, flags):
    on, off = replay_both(PROGRAMS[name], *flags)
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert on.stdout.strip() and not on.stderr


REPLAYED = {"powers": 40, "nested_modules": 40, "draw_changed_mid_loop": 20}


@pytest.mark.parametrize("name,least", sorted(REPLAYED.items()))
def test_the_loops_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least


def test_a_draw_made_ahead_is_made_once(monkeypatch):
    """The draws of a replayed iteration are made once, in order: the program's
    random stream after the loop is the compiled loop's (the last number printed)."""
    on, off = replay_both(_POWERS)
    assert on.stdout.split()[-1] == off.stdout.split()[-1]
    assert replayed_iterations(monkeypatch, _POWERS) >= 40


def test_max_steps_counts_the_forwards_loops():
    """`--max-steps` counts each trip of a forward's drawn loop, replayed or not: the
    limit is reached at the same trip."""
    on, off = replay_both(PROGRAMS["draw_changed_mid_loop"], "--max-steps", "70")
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert "max-steps" in on.stderr
