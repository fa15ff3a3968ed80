"""A Jacobian's rows (library/calculus.py): autograd.grad passes through their graph's
schedule (autograd._planned_grad) and the factors made of saved values alone kept
across the rows (engine/kept.py) give what the ready queue and factors made at every
pass give, bit for bit.

* The golden programs of torch's transforms (jacobian, hessian, vjp, hvp, ...) still
  print exactly what torch printed with schedules made on first sight.
* Jacobians and Hessians of functions through tanh, sigmoid, powers, products, matrix
  products and sums, in float64 and float32, with tuple inputs and outputs, print the
  same digits (repr of every value) with the schedule and the kept factors as with the
  ready queue and no factor kept; also with a hook on a node (no factor kept then) and
  with an input that no row reaches.
* A kept factor is made once per Hessian, not once per row.
"""

from __future__ import annotations

import pytest

from conftest import check_result, load_golden, run_inprocess
from gradcli.engine import kept, schedule
from gradcli.ops import fused_grads


@pytest.fixture
def first_sight(monkeypatch):
    monkeypatch.setattr(schedule, "SIGHTINGS", 1)
    monkeypatch.setattr(schedule, "_schedules", {})
    monkeypatch.setattr(schedule, "_seen", {})


def test_transform_goldens_with_schedules_from_first_sight(first_sight):
    ran = 0
    for name, case in load_golden("transforms.json").items():
        src = case["source"]
        if not any(w in src for w in ("jacobian", "hessian", "grad", "hvp", "vjp")):
            continue
        check_result(
            run_inprocess(src),
            case["stdout"],
            case["error"],
            what=name,
            warnings=case.get("warnings", ()),
        )
        ran += 1
    assert ran > 10


PROGRAMS = {
    "hessian_tanh_pow": """
torch.manual_seed(0)
A = torch.randn(13, 13)
def f(x):
    return (torch.tanh(A @ x) ** 2).sum() + (x ** 4).sum() + (x ** 3).sum()
x = torch.randn(13)
for k in range(2):
    H = torch.autograd.functional.hessian(f, x)
print([repr(v) for v in H.flatten().tolist()])
""",
    "hessian_sigmoid_exp": """
torch.manual_seed(1)
B = torch.randn(9, 9)
def f(x):
    return (torch.sigmoid(B @ x) * x).sum() + torch.exp(x * 0.5).sum() + (x ** 2.5).sum()
x = torch.rand(9) + 0.5
H = torch.autograd.functional.hessian(f, x)
print([repr(v) for v in H.flatten().tolist()])
""",
    "jacobian_vector": """
torch.manual_seed(2)
W = torch.randn(11, 16)
def g(x):
    return torch.tanh(W @ x) ** 2 + (x[:11] ** 5) * 0.01 - torch.sin(x[:11])
x = torch.randn(16)
J = torch.autograd.functional.jacobian(g, x)
print([repr(v) for v in J.flatten().tolist()])
""",
    "hessian_tuple": """
torch.manual_seed(3)
def h(a, b):
    return (torch.tanh(a) * b ** 2).sum() + (a @ b) ** 2 + (a ** 3).sum()
a = torch.randn(7)
b = torch.randn(7)
H = torch.autograd.functional.hessian(h, (a, b))
print([[[repr(v) for v in t.flatten().tolist()] for t in row] for row in H])
""",
    "jacobian_unused_input": """
torch.manual_seed(4)
def g(a, b):
    return torch.tanh(a) ** 3, a * 2
a = torch.randn(5)
b = torch.randn(4)
J = torch.autograd.functional.jacobian(g, (a, b))
print([[[repr(v) for v in t.flatten().tolist()] for t in row] for row in J])
""",
    "hessian_after_inplace_ops": """
torch.manual_seed(6)
M = torch.randn(8, 8)
def f(x):
    y = M @ x
    y.mul_(0.5)
    z = torch.tanh(y).clone()
    z.add_(x ** 2)
    return (z ** 3).sum() + (torch.sigmoid(x) * torch.tanh(x)).sum()
x = torch.randn(8)
H = torch.autograd.functional.hessian(f, x)
print([repr(v) for v in H.flatten().tolist()])
""",
    "gradcheck_rows": """
xd = torch.tensor([0.3, -1.1, 0.7, 2.0], dtype=torch.float64, requires_grad=True)
print(torch.autograd.gradcheck(lambda v: torch.tanh(v) ** 3 * v, (xd,)))
print(gradcheck(lambda v: (torch.sigmoid(v) * v ** 2, v.sum() * v), xd))
""",
    "hessian_with_hook": """
torch.manual_seed(5)
A = torch.randn(6, 6)
def f(x):
    y = torch.tanh(A @ x)
    y.register_hook(lambda g: g * 3)
    return (y ** 2).sum() + (x ** 4).sum()
x = torch.randn(6)
H = torch.autograd.functional.hessian(f, x)
print([repr(v) for v in H.flatten().tolist()])
""",
}


def _run(src, dtype):
    r = run_inprocess(src, ("eval", "--dtype", dtype, "-"))
    assert not r.stderr, r.stderr
    return r.stdout


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_rows_as_the_ready_queue_gives_them(name, dtype, monkeypatch, first_sight):
    src = PROGRAMS[name]
    planned = _run(src, dtype)
    with monkeypatch.context() as m:  # the ready queue, every factor made at its pass
        m.setattr(schedule, "MAX_NODES", 0)
        m.setattr(kept, "BUDGET", -1)
        queued = _run(src, dtype)
    assert planned == queued
    assert planned.count("'") > 20 or "True" in planned


def test_a_factor_is_made_once_per_hessian(monkeypatch, first_sight):
    """tanh's backward factor kept across a hessian's rows (engine/kept.py), where its
    backward takes the NumPy steps (the compiled pass, when the loops are loaded, makes
    no factor: it is taken away here)."""
    from gradcli.numerics import native_layers

    monkeypatch.setattr(native_layers, "tanh_backward", lambda g, y: None)
    made = []
    factor = fused_grads._one_minus_square

    def counted(y):
        made.append(y.shape)
        return factor(y)

    monkeypatch.setattr(fused_grads, "_one_minus_square", counted)
    _run(PROGRAMS["hessian_tanh_pow"].replace("range(2)", "range(1)"), "float64")
    # a pass for the gradient (create_graph: recorded ops, no factor), then 13 rows; the
    # first row makes tanh's factor for each of its two tanh backward nodes
    assert 0 < len(made) <= 4
    made.clear()
    monkeypatch.setattr(kept, "BUDGET", -1)
    _run(PROGRAMS["hessian_tanh_pow"].replace("range(2)", "range(1)"), "float64")
    assert len(made) >= 13
