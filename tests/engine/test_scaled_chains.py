"""engine/passes.py `_scaled`: a chain of nodes whose backward multiplies a 0-d gradient
by a number (`tensor * number`, `tensor + number`, `tensor - number`: Function.grad_factor)
runs as one loop on Python floats in the backward's ready-queue pass.  Each program below
prints the same with that loop as without it (the loop's general steps, node by node):
gradients to the last bit, hooks, retain_grad, retain_graph, a second pass's error, the
flow record and the order of gradients reaching a leaf."""

from __future__ import annotations

import pytest

from conftest import run_inprocess
from gradcli.engine import passes
from gradcli.ops.elementwise import Add, Mul, Sub
from gradcli.ops.registry import OPERATOR_NODES

PROGRAMS = {
    "float64": """
x = tensor(1.0, requires_grad=true)
y = x
i = 0
while i < 3000:
    y = y * 1.00001
    i += 1
y.backward()
print(x.grad.item(), y.item())
""",
    "float32_mixed": """
x = torch.tensor(0.75, dtype=torch.float32, requires_grad=True)
y = x
for i in range(400):
    y = y * 0.999 + 0.5
    y = y - 1
    y = y * 1.1 if i % 7 == 0 else y * 0.99
y.backward()
print(x.grad.item(), y.item())
""",
    "numbers": """
for dt in [torch.float64, torch.float32]:
    for k in [2 ** 60, 2 ** 53, 1e39, 1e-39, 1e-310, float("inf"), float("nan"), -0.0, True]:
        x = torch.tensor(1.5, dtype=dt, requires_grad=True)
        y = x
        for i in range(3):
            y = y * 1.1
            y = y * k
            y = y + 1
        y.backward()
        print(dt, k, x.grad.item())
""",
    "subnormal": """
for dt in [torch.float64, torch.float32]:
    x = torch.tensor(3.0, dtype=dt, requires_grad=True)
    y = x
    for i in range(2000):
        y = y * 0.7
    y.backward()
    print(dt, x.grad.item(), x.grad)
""",
    "retain_grad_and_hooks": """
x = tensor(2.0, requires_grad=true)
y = x
for i in range(50):
    y = y * 1.5
    if i == 20:
        mid = y
        mid.retain_grad()
    if i == 30:
        h = y.register_hook(lambda g: g * 2)
y.backward()
print(x.grad.item(), mid.grad.item())
""",
    "retain_graph": """
x = tensor(2.0, requires_grad=true)
y = x
for i in range(100):
    y = y * 1.01 - 3
y.backward(retain_graph=True)
print(x.grad.item())
y.backward()
print(x.grad.item())
y.backward()
""",
    "branches": """
x = tensor(1.25, requires_grad=true)
a = x * 3
b = x * 5
c = x + 1
for i in range(300):
    a = a * 1.001
    b = b * 0.999 + 2
    c = c * 1.0001
s = a + b + c
s.backward()
print(x.grad.item())
y = x * 2
p = y * 3
for i in range(100):
    p = p * 1.01
q = p * y
q.backward()
print(x.grad.item())
""",
    "flow": """
x = tensor(2.0, requires_grad=true)
y = x
for i in range(6):
    y = y * 1.25 + 1
y.backward()
graph(y, values=true)
""",
}


def _off(q, grads, deps):
    return None


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_a_scaled_chain_prints_what_the_loop_prints_node_by_node(name, monkeypatch):
    source = PROGRAMS[name]
    on = run_inprocess(source)
    monkeypatch.setattr(passes, "_scaled", _off)
    off = run_inprocess(source)
    assert on.stderr == off.stderr and on.returncode == off.returncode
    assert on.stdout == off.stdout
    assert on.stdout.strip()


def test_the_scaled_chain_ran():
    """The programs' chains do take the loop (its nodes ran without their backward)."""
    ran = []
    real = passes._scaled

    def counting(q, grads, deps):
        run = real(q, grads, deps)

        def scaled(node, g, retain_graph, flow):
            after = run(node, g, retain_graph, flow)
            ran.append(after[0] is not node)
            return after

        return scaled

    mp = pytest.MonkeyPatch()
    mp.setattr(passes, "_scaled", counting)
    try:
        run_inprocess(PROGRAMS["float64"])
    finally:
        mp.undo()
    assert any(ran)


def test_the_operators_with_a_grad_factor_are_add_sub_mul():
    nodes = {node for node, _, _ in OPERATOR_NODES.values() if node.grad_factor is not None}
    assert nodes == {Add, Sub, Mul}
