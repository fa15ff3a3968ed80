"""A replayed graph's backward as one straight-line function (gradcli/engine/straight.py)
does what the backward loop does walking the same schedule (autograd._pass with a plan),
bit for bit: the same .grad (first stores and sums into an existing .grad, a leaf
reached twice, dtype casts, whole sums left for later, efficient zeros), the same flow
record, the saved values freed, a second pass's error, and a step that fails half way
leaving the same leaves' .grad.  And the loops that replay through it print what they
print compiled (`--no-replay`)."""

from __future__ import annotations

import numpy as np
import pytest

from conftest import run_inprocess
from gradcli.core.tensor import Tensor
from gradcli.engine import autograd, observe, schedule, straight, versions
from gradcli.ops.registry import FUNCTIONS
from gradcli.ops.unary import Sgn
from gradcli.runtime.errors import GradRuntimeError


def _leaves(seed, dtypes, shape=(3, 2)):
    rng = np.random.default_rng(seed)
    return [Tensor(np.asarray(rng.standard_normal(shape), dtype=dt), True) for dt in dtypes]


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
    if kind == "twice":  # one leaf as both operands, and again further up
        return f["mean"](f["mul"](f["mul"](a, a), f["add"](a, b)))
    if kind == "matmul":  # a two-layer net's step: products, relu, a passed-through sub
        h = f["relu"](f["matmul"](a, f["t"](b)))
        return f["mean"](f["pow"](f["sub"](f["sum"](h, 1), Tensor(np.ones(3))), 2))
    if kind == "zeros":  # sgn's efficient zeros flowing into nodes and on to a leaf
        return f["sum"](f["mul"](Sgn.apply(f["exp"](f["mul"](a, 2.0))), b))
    if kind == "scalars":  # 0-d leaves: whole sums left for later, one reached twice
        x = Tensor(np.linspace(-1, 1, 300, dtype=a.data.dtype))
        y = f["add"](f["add"](f["mul"](a, x), f["mul"](b, f["mul"](x, x))), a)
        return f["sum"](f["mul"](y, y))
    raise AssertionError(kind)


KINDS = ["shared", "constants", "mixed", "broadcast", "twice", "matmul", "zeros", "scalars"]


def _dtypes(kind):
    return (np.float32, np.float64) if kind == "mixed" else (np.float64, np.float64)


def _shape(kind):
    return () if kind == "scalars" else (3, 2)


def _head(t):
    g = np.array(1, dtype=t.data.dtype)
    g.flags.writeable = False
    return g


def _scheduled(t):
    root = t.grad_fn
    steps = schedule.made_now(root)
    flow = observe.start_flow(len(steps))
    autograd._pass(False, flow, {}, plan=(root, _head(t), steps))
    return flow


def _straight(t):
    root = t.grad_fn
    prog = straight.made_now(root)
    run = straight._make(root, prog.steps)
    assert run is not None
    flow = observe.start_flow(len(prog.steps))
    run(root, _head(t), flow, observe.FLOW_SMALL)
    return flow


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


def _same_grads(la, lb):
    for x, y in zip(la, lb):
        assert (x.grad is None) == (y.grad is None)
        if x.grad is not None:
            assert x.grad.data.dtype == y.grad.data.dtype
            assert x.grad.data.shape == y.grad.data.shape
            assert x.grad.data.strides == y.grad.data.strides
            assert x.grad.data.tobytes() == y.grad.data.tobytes()


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("start", ["none", "zeros", "values"])
def test_the_same_steps_as_the_loop_walking_the_schedule(kind, start):
    """Each kind of graph from .grad None, from zeroed .grad and from .grad with values:
    the same .grad, flow record and freed saved values."""
    for seed in range(3):
        la = _leaves(seed, _dtypes(kind), _shape(kind))
        lb = _leaves(seed, _dtypes(kind), _shape(kind))
        for x, y in zip(la, lb):
            if start != "none":
                v = np.zeros_like(x.data) if start == "zeros" else x.data * 0.5
                x.grad, y.grad = Tensor(v.copy()), Tensor(v.copy())
        ta, tb = _graph(kind, la), _graph(kind, lb)
        if kind == "scalars":  # (whole sums left for later)
            assert any(F is schedule.LaterF for _, _, F, _ in schedule.made_now(tb.grad_fn))
        flow_a, flow_b = _scheduled(ta), _straight(tb)
        _same_grads(la, lb)
        na, nb = _nodes(ta.grad_fn), _nodes(tb.grad_fn)
        assert [type(n) for n in na] == [type(n) for n in nb]
        assert len(flow_a[1]) == len(flow_b[1])
        for m, n in zip(na, nb):
            assert n.fpass == flow_b[0]
            ga, gb = flow_a[1][id(m)], flow_b[1][id(n)]
            assert np.asarray(ga).tobytes() == np.asarray(gb).tobytes()
            assert (m.saved is None) == (n.saved is None)


def test_a_second_pass_fails_as_the_loop_does():
    la = _leaves(0, (np.float64, np.float64))
    t = _graph("shared", la)
    _straight(t)
    with pytest.raises(GradRuntimeError, match="Trying to backward through the graph"):
        _straight(t)


@pytest.mark.parametrize("kind", ["shared", "twice", "matmul", "scalars"])
def test_a_failing_step_leaves_the_leaves_as_the_loop_does(kind, monkeypatch):
    """A step that fails: the leaves every finished node gave their gradients get them,
    the others nothing (autograd._pass's failure), and the error goes on."""
    for stop in range(1, 7):
        grads = []
        for way in (_scheduled, _straight):
            calls = []
            la = _leaves(stop, _dtypes(kind), _shape(kind))
            t = _graph(kind, la)
            for n in _nodes(t.grad_fn):
                cls = type(n)
                real = cls.backward

                def failing(self, g, F, *saved, real=real):
                    calls.append(self)
                    if len(calls) == stop:
                        raise RuntimeError("stop")
                    return real(self, g, F, *saved)

                monkeypatch.setattr(cls, "backward", failing)
            try:
                way(t)
                failed = False
            except RuntimeError as e:
                assert str(e) == "stop"
                failed = True
            monkeypatch.undo()
            grads.append((failed, [None if x.grad is None else x.grad.data.tobytes() for x in la]))
        assert grads[0] == grads[1]


def test_a_saved_value_changed_in_place_fails_as_the_loop_does():
    got = []
    for way in (_scheduled, _straight):
        a, b = _leaves(0, (np.float64, np.float64))
        x = Tensor(np.ones((3, 2)))
        t = FUNCTIONS["sum"](FUNCTIONS["mul"](FUNCTIONS["exp"](FUNCTIONS["mul"](a, x)), b))
        versions.bump(x)  # (an in-place op on x, which the first mul saved)
        with pytest.raises(GradRuntimeError, match="modified by an inplace operation") as e:
            way(t)
        got.append(
            (str(e.value), [None if v.grad is None else v.grad.data.tobytes() for v in (a, b)])
        )
    assert got[0] == got[1]
    assert got[0][1][0] is None and got[0][1][1] is not None


LOOPS = {
    # a three-layer net with a residual connection, every step replayed
    "residual": """torch.manual_seed(0)
X = torch.randn(16, 4)
Y = torch.randn(16, 1)
W1 = torch.randn(4, 8, requires_grad=True)
W2 = torch.randn(8, 8, requires_grad=True)
W3 = torch.randn(8, 1, requires_grad=True)
for i in range(30):
    h = torch.relu(X @ W1)
    h2 = torch.tanh(h @ W2) + h
    loss = ((h2 @ W3 - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W1 -= 0.01 * W1.grad
        W2 -= 0.01 * W2.grad
        W3 -= 0.01 * W3.grad
        W1.grad.zero_()
        W2.grad.zero_()
        W3.grad.zero_()
print(loss.item(), W1.sum().item(), W2.sum().item(), W3.sum().item())
""",
    # a leaf used twice, its .grad set to None each iteration (first stores)
    "shared_leaf": """torch.manual_seed(1)
x = torch.randn(5, 3)
W = torch.randn(3, 3, requires_grad=True)
b = torch.randn(3, requires_grad=True)
for i in range(25):
    y = (x @ W) @ W + b * b
    loss = (y * y).sum()
    loss.backward()
    with torch.no_grad():
        W -= 0.001 * W.grad
        b -= 0.001 * b.grad
        W.grad = None
        b.grad = None
print(loss.item(), W.sum().item(), b)
""",
    # float32 and float64 leaves together, gradients accumulated over iterations
    "mixed": """torch.manual_seed(2)
a = torch.randn(4, requires_grad=True)
c = torch.randn(4, dtype=torch.float64, requires_grad=True)
for i in range(20):
    loss = (a.sin() * c).sum() + (a * a).mean()
    loss.backward()
print(a.grad, c.grad)
""",
    # a node got retain_grad before the loop: the pass stands aside (its hooks' checks)
    "watched": """x = torch.randn(6, requires_grad=True)
z = x * 2
z.retain_grad()
for i in range(20):
    loss = (x.exp() * x).sum()
    loss.backward()
print(x.grad)
""",
}


@pytest.mark.parametrize("name", sorted(LOOPS))
def test_loops_print_what_they_print_compiled(name, monkeypatch):
    source = LOOPS[name]
    runs = []
    real = straight._make

    def made(*args):
        run = real(*args)
        return run and (lambda *args: runs.append(1) or run(*args))

    monkeypatch.setattr(straight, "_make", made)
    replayed = run_inprocess(source)
    if name == "watched":
        assert not runs
    else:
        assert len(runs) > 5  # (the loop's backward ran through the function)
    compiled = run_inprocess(source, ("eval", "--no-replay", "-"))
    assert replayed.stdout == compiled.stdout and replayed.stderr == compiled.stderr


def _replay_programs():
    from tests.language import test_replay, test_replay_calls, test_replay_defs

    return {
        **{f"loop:{k}": v for k, v in test_replay.PROGRAMS.items()},
        **{f"calls:{k}": v for k, v in test_replay_calls.PROGRAMS.items()},
        **{f"defs:{k}": v for k, v in test_replay_defs.PROGRAMS.items()},
    }


REPLAY_PROGRAMS = _replay_programs()


@pytest.mark.parametrize("name", sorted(REPLAY_PROGRAMS))
def test_the_replay_tests_programs_with_the_function_from_the_first_pass(name, monkeypatch):
    """The replay tests' programs (loops, calls, defs) with each graph's function made at
    its first pass (their loops are too short to make it otherwise): what they print
    compiled."""
    monkeypatch.setattr(straight, "MAKE_AT", 0)
    source = REPLAY_PROGRAMS[name]
    on = run_inprocess(source)
    off = run_inprocess(source, ("eval", "--no-replay", "-"))
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)


def test_a_graph_of_more_nodes_than_max_nodes_keeps_the_loop():
    (a,) = _leaves(0, (np.float64,))
    y = a
    for _ in range(straight.MAX_NODES):
        y = FUNCTIONS["mul"](y, 1.5)
    root = FUNCTIONS["sum"](y).grad_fn
    prog = straight.made_now(root)
    assert prog is not None and straight._make(root, prog.steps) is None
