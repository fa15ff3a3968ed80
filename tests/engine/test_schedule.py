"""Backward schedules (gradcli/engine/schedule.py): the backward loop walking a
schedule does what it does in the ready queue's order (passes.ReadyQueue).

* Every golden program that calls backward, run with schedules made on first sight,
  still prints exactly what torch printed.
* Graphs of each kind (a node with several consumers, a leaf reached twice, constant
  inputs, dtype casts, no gradient reaching a node) give the same .grad, bit for
  bit, the same leaves touched and the same flow record in both orders.
* Hooks, retain_grad and saved values already freed (PyTorch's error) run as in the
  ready queue's order; the schedule stands aside only for graphs too big.
"""

from __future__ import annotations

import numpy as np
import pytest

from conftest import check_result, load_golden, run_inprocess
from gradcli.core.tensor import Tensor
from gradcli.engine import autograd, observe, schedule
from gradcli.engine.passes import ReadyQueue, count_deps
from gradcli.ops.registry import FUNCTIONS


@pytest.fixture
def first_sight(monkeypatch):
    monkeypatch.setattr(schedule, "SIGHTINGS", 1)
    monkeypatch.setattr(schedule, "_schedules", {})
    monkeypatch.setattr(schedule, "_seen", {})


GOLDEN = [
    "cases.json",
    "inplace.json",
    "language.json",
    "nn.json",
    "reliability.json",
    "transforms.json",
]


@pytest.mark.parametrize("golden", GOLDEN)
def test_golden_programs_with_schedules_from_first_sight(golden, first_sight):
    ran = 0
    for name, case in load_golden(golden).items():
        if "backward" not in case["source"]:
            continue
        check_result(
            run_inprocess(case["source"]),
            case["stdout"],
            case["error"],
            what=name,
            warnings=case.get("warnings", ()),
        )
        ran += 1
    assert ran


def _leaves(seed, dtypes):
    rng = np.random.default_rng(seed)
    return [Tensor(np.asarray(rng.standard_normal((3, 2)), dtype=dt), True) for dt in dtypes]


def _graph(kind, leaves):
    f = FUNCTIONS
    a, b = leaves
    if kind == "shared":  # a node with three consumers, a leaf reached twice
        t = f["mul"](a, b)
        u = f["add"](f["exp"](t), f["mul"](t, t))
        return f["sum"](f["add"](u, f["mul"](t, a)))
    if kind == "constants":  # constant operands: None parents
        return f["mean"](f["add"](f["mul"](a, 3.0), Tensor(np.ones((3, 2)))))
    if kind == "mixed":  # float32 and float64 leaves: dtype casts on the way back
        return f["sum"](f["mul"](f["sin"](a), b))
    if kind == "broadcast":  # gradients summed back to a smaller shape
        row = f["sum"](b, 0, True)
        return f["sum"](f["mul"](a, row))
    raise AssertionError(kind)


KINDS = ["shared", "constants", "mixed", "broadcast"]


def _general(root_tensor):
    root = root_tensor.grad_fn
    deps = count_deps((root,))
    touched = {}
    flow = observe.start_flow(len(deps))
    g = np.array(1, dtype=root_tensor.data.dtype)
    queue = ReadyQueue([root], {root: g}, deps, np.add, autograd._cast)
    autograd._pass(False, flow, touched, queue)
    return autograd._in_creation_order(touched), flow


def _scheduled(root_tensor):
    root = root_tensor.grad_fn
    steps = schedule.find(root)
    assert steps is not None
    touched = {}
    flow = observe.start_flow(len(steps))
    g = np.array(1, dtype=root_tensor.data.dtype)
    autograd._pass(False, flow, touched, plan=(root, g, steps))
    return autograd._in_creation_order(touched), flow


@pytest.mark.parametrize("kind", KINDS)
def test_the_same_steps_as_the_general_loop(kind, first_sight):
    dtypes = (np.float32, np.float64) if kind == "mixed" else (np.float64, np.float64)
    for seed in range(5):
        la, lb = _leaves(seed, dtypes), _leaves(seed, dtypes)
        ta, tb = _graph(kind, la), _graph(kind, lb)
        touched_a, flow_a = _general(ta)
        touched_b, flow_b = _scheduled(tb)
        assert [_pos(la, t) for t in touched_a] == [_pos(lb, t) for t in touched_b]
        for x, y in zip(la, lb):
            assert (x.grad is None) == (y.grad is None)
            if x.grad is not None:
                assert x.grad.data.dtype == y.grad.data.dtype
                assert x.grad.data.tobytes() == y.grad.data.tobytes()
        # the same gradient into each node, in the same walk
        na, nb = _nodes(ta.grad_fn), _nodes(tb.grad_fn)
        assert [type(n) for n in na] == [type(n) for n in nb]
        for m, n in zip(na, nb):
            ga, gb = flow_a[1][id(m)], flow_b[1][id(n)]
            assert np.asarray(ga).tobytes() == np.asarray(gb).tobytes()
            assert m.saved is None or m.saved == ()
            assert n.saved is None or n.saved == ()


def _pos(items, t):
    return [i for i, x in enumerate(items) if x is t]


def _nodes(root):
    seen, out, stack = set(), [], [root]
    while stack:
        n = stack.pop()
        if id(n) in seen:
            continue
        seen.add(id(n))
        out.append(n)
        stack.extend(p for p in n.parents if p is not None and type(p) is not Tensor)
    return out


def test_a_structure_is_scheduled_the_second_time_it_is_seen(monkeypatch):
    monkeypatch.setattr(schedule, "_schedules", {})
    monkeypatch.setattr(schedule, "_seen", {})
    la = _leaves(0, (np.float64, np.float64))
    assert schedule.find(_graph("shared", la).grad_fn) is None
    assert schedule.find(_graph("shared", la).grad_fn) is not None
    assert len(schedule._schedules) == 1 and not schedule._seen
    # another structure is one more, the same structure again is the same schedule
    schedule.find(_graph("constants", la).grad_fn)
    assert len(schedule._schedules) == 1
    steps = schedule._schedules[next(iter(schedule._schedules))]
    assert schedule.find(_graph("shared", la).grad_fn) is steps


def test_it_stands_aside_for_big_graphs(first_sight):
    a, b = _leaves(1, (np.float64, np.float64))
    assert schedule.find(_graph("shared", [a, b]).grad_fn) is not None
    y = a
    for _ in range(schedule.MAX_NODES + 1):
        y = FUNCTIONS["mul"](y, 1.5)
    assert schedule.find(y.grad_fn) is None


LOOPS = [
    # the same graph each iteration: scheduled from the second; then each way out of it
    "x = tensor([1., 2.], requires_grad=true)\nfor i in range(3):\n    y = (x * x).sum()\n"
    "    y.backward()\nx.grad\ny.backward()",
    "x = tensor([1., 2.], requires_grad=true)\nfor i in range(3):\n    t = x * x\n"
    "    y = t.sum()\n    if i == 2:\n        t.retain_grad()\n    y.backward()\nt.grad\nx.grad",
    "x = tensor([1., 2.], requires_grad=true)\nfor i in range(3):\n    t = x * x\n"
    "    y = (t * t).sum()\n    if i == 2:\n        t.register_hook(lambda g: g * 10)\n"
    "    y.backward()\nx.grad",
    "x = tensor([1., 2.], requires_grad=true)\nfor i in range(3):\n    t = x.exp()\n"
    "    y = t.sum()\n    if i == 2:\n        with no_grad:\n            t.mul_(2)\n    y.backward()",
    "x = tensor([1., 2.], requires_grad=true)\nfor i in range(3):\n    y = (x * x).sum()\n"
    "    y.backward(retain_graph=true)\n    y.backward()\nx.grad",
]


@pytest.mark.parametrize("source", LOOPS)
def test_loops_the_same_with_and_without_schedules(source, monkeypatch):
    with_ = run_inprocess(source)
    monkeypatch.setattr(schedule, "MAX_NODES", 0)
    without = run_inprocess(source)
    assert with_ == without


def _scalars_graph(dt, seed):
    """The tutorial's kind of graph: 0-d parameters times vectors of more than MID_MIN
    values (their gradients are whole sums, made together at the end of the pass), a
    parameter reached twice, a vector sum feeding a 0-d node."""
    f = FUNCTIONS
    rng = np.random.default_rng(seed)
    a, b, c = (Tensor(np.asarray(rng.standard_normal(), dtype=dt), True) for _ in range(3))
    x = Tensor(np.asarray(rng.standard_normal(300 + seed), dtype=dt))
    y = f["add"](f["add"](f["mul"](a, x), f["mul"](b, f["mul"](x, x))), a)
    s = f["mul"](f["sum"](f["mul"](y, x)), c)  # c: a 0-d gradient from 0-d nodes
    return [a, b, c], f["add"](f["sum"](f["mul"](y, y)), s)


@pytest.mark.parametrize("dt", [np.float32, np.float64])
def test_sums_made_together_give_what_the_general_loop_gives(dt, first_sight, monkeypatch):
    real = schedule.LaterF.sum_scaled
    products = []
    monkeypatch.setattr(
        schedule.LaterF,
        "sum_scaled",
        staticmethod(lambda g, c, shape: products.append(real(g, c, shape)) or products[-1]),
    )
    for seed in range(4):
        la, ta = _scalars_graph(dt, seed)
        lb, tb = _scalars_graph(dt, seed)
        touched_a, _ = _general(ta)
        steps = schedule.find(tb.grad_fn)
        assert any(F is schedule.LaterF for _, _, F, _ in steps)
        products.clear()
        touched_b, _ = _scheduled(tb)
        # a * x and b * (x * x): products made where the sums are
        assert sum(type(p) is schedule.Later and p.c is not None for p in products) == 2
        assert [_pos(la, t) for t in touched_a] == [_pos(lb, t) for t in touched_b]
        for x, y in zip(la, lb):
            assert x.grad.data.dtype == y.grad.data.dtype == dt
            assert x.grad.data.tobytes() == y.grad.data.tobytes()


def test_a_product_left_for_later_is_the_product():
    """A product left for later (LaterF.sum_scaled) is the one np.multiply makes (what
    sum_to sums where it is routed to a node); only arrays of g's shape and dtype wait."""
    g = np.arange(300, dtype=np.float64) / 7
    c = np.arange(300, dtype=np.float64)[::-1] / 3
    later = schedule.LaterF.sum_scaled(g, c.copy(), ())
    assert type(later) is schedule.Later and later.c is not None
    assert later.values().tobytes() == np.multiply(g, c).tobytes()
    # not an array of g's shape and dtype: no product left for later
    assert type(schedule.LaterF.sum_scaled(g, 2.0, ())) is np.ndarray
    assert type(schedule.LaterF.sum_scaled(g, c.astype(np.float32), ())) is np.ndarray


def test_a_failing_step_leaves_the_leaves_as_the_general_loop_does(first_sight, monkeypatch):
    """Gradients that reached leaves before a step fails are stored, sums made for later
    included (the general loop stored them as it went); the others are not."""
    from gradcli.ops.elementwise import Mul

    real = Mul.backward
    for stop in range(1, 6):
        calls = []

        def failing(self, g, F, *saved):
            calls.append(self)
            if len(calls) == stop:
                raise RuntimeError("stop")
            return real(self, g, F, *saved)

        grads = []
        for way in (_general, _scheduled):
            leaves, t = _scalars_graph(np.float64, stop)
            if way is _scheduled:
                assert schedule.find(t.grad_fn) is not None
            calls.clear()
            monkeypatch.setattr(Mul, "backward", failing)
            with pytest.raises(RuntimeError):
                way(t)
            monkeypatch.setattr(Mul, "backward", real)
            grads.append([None if x.grad is None else x.grad.data.tobytes() for x in leaves])
        assert grads[0] == grads[1], stop
        assert stop < 3 or any(g is not None for g in grads[0])


def test_structures_tell_sharing_and_order_apart():
    """A node shared or two equal ones, the same ops made in another order: different
    structures (the schedule of one would be wrong for the other)."""
    f = FUNCTIONS
    a, b = _leaves(0, (np.float64, np.float64))
    t = f["mul"](a, b)
    shared = f["add"](t, t)
    two = f["add"](f["mul"](a, b), f["mul"](a, b))
    assert schedule._structure(shared.grad_fn) != schedule._structure(two.grad_fn)
    p, q = f["mul"](a, b), f["add"](a, b)
    first = f["mul"](p, q)
    q, p = f["add"](a, b), f["mul"](a, b)
    second = f["mul"](p, q)
    assert schedule._structure(first.grad_fn) != schedule._structure(second.grad_fn)
    p, q = f["mul"](a, b), f["add"](a, b)
    assert schedule._structure(f["mul"](p, q).grad_fn) == schedule._structure(first.grad_fn)
