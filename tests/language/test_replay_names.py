"""A variable named as one of the language's built-ins (`e`, `pi`, `abs`) holding a
module is checked as any module is (language/replay_checks.checks_of), so its loop
replays; each program prints the same with and without replay (`--no-replay`)."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

PROGRAMS = {
    "e_and_pi": """torch.manual_seed(0)
e = torch.nn.Linear(3, 1)
pi = torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1))
X = torch.randn(8, 3)
opt = torch.optim.SGD(list(e.parameters()) + list(pi.parameters()), lr=0.1)
for i in range(20):
    loss = (e(X) ** 2).mean() + (pi(X) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
print(loss.item(), e.weight, pi[0].bias)
""",
    # the name rebound between loops: a module, then the constant again
    "rebound": """torch.manual_seed(1)
X = torch.randn(6, 2)
w = torch.randn(2, 1, requires_grad=True)
for k in range(2):
    abs = torch.nn.Linear(2, 2) if k == 0 else torch.nn.ReLU()
    for i in range(10):
        loss = ((abs(X) @ w) ** 2).mean()
        loss.backward()
        with torch.no_grad():
            w -= 0.05 * w.grad
            w.grad = None
    print(k, loss.item())
e = 2.718
for i in range(5):
    loss = (X @ w * e).sum()
print(loss, w)
""",
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_builtin_names_holding_modules_print_what_compiled_loops_print(name):
    for flags in ((), ("--dtype", "float32")):
        on, off = replay_both(PROGRAMS[name], *flags)
        assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
        assert off.returncode == 0, off.stderr


def test_builtin_names_holding_modules_are_replayed(monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS["e_and_pi"]) >= 15
    assert replayed_iterations(monkeypatch, PROGRAMS["rebound"]) >= 12
