"""A replayed `while` loop's plan stays checked only by its condition's variables from one
replayed iteration to the next (language/replay.py `Body.cond_loads`, as a `for` loop's
by its target): while they hold numbers, the condition runs no code of the program.
When one holds anything else (an object of the program's class, a tensor), the
condition may have changed what the body reads, and the whole plan is checked again.
Each program prints what it prints run as compiled (`--no-replay`)."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

PROGRAMS = {
    "numbers": """
x = ones(2, 2, requires_grad=true)
i = 0
n = 40
go = True
while i < n and go:
    out = mean(3*(x+2)^2)
    out.backward()
    i += 1
print(i, out, x.grad)
""",
    "object_rebinds_the_input": """
class Limit:
    def __init__(self, n):
        self.n = n
        self.seen = 0

    def __gt__(self, i):
        global x
        self.seen += 1
        if self.seen == 8:
            x = full((2, 2), 3.0, requires_grad=true)
        return self.n > i

x = ones(2, 2, requires_grad=true)
first = x
lim = Limit(20)
i = 0
while i < lim:
    out = mean(3*(x+2)^2)
    out.backward()
    i += 1
print(i, lim.seen, out, first.grad, x.grad)
""",
    "tensor_bound": """
x = ones(2, 2, requires_grad=true)
n = tensor(15)
i = 0
while i < n:
    out = (x * 2 + 1).sum()
    out.backward()
    i += 1
print(i, out, x.grad)
""",
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_replayed_while_loop_prints_what_the_compiled_loop_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", [("numbers", 30), ("object_rebinds_the_input", 8)])
def test_the_while_loops_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least
