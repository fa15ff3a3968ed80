"""The steps of a replayed no_grad block on parameters with dims (language/replay_steps.py
`run_updates`, library/scalar_steps.py `array_step`, `zero_grad_array`): `w -= lr *
w.grad`, `w.sub_(lr * w.grad)` (add_, mul_, `+=`, `*=`) and `w.grad.zero_()` print
exactly what the same loops and defs print run as compiled (`--no-replay`), in float32
and float64, also where the fast step does not apply (a view of the parameter, a
gradient let go, a non-contiguous parameter) and when the step raises; and the steps
through `.data` (`p.data += -lr * p.grad`, scalar_steps.data_step) in grad mode, and
d2l's `param -= lr * param.grad / batch_size` (scalar_steps.divided_step)."""

from __future__ import annotations

import pytest

from conftest import replay_both, run_inprocess
from gradcli.language import replay_steps

_HEAD = """torch.manual_seed(0)
X = torch.randn(16, 5, dtype={dt})
Y = torch.randn(16, 1, dtype={dt})
W1 = torch.randn(5, 8, requires_grad=True, dtype={dt})
W2 = torch.randn(8, 1, requires_grad=True, dtype={dt})
b = torch.zeros(8, requires_grad=True, dtype={dt})
lr = {lr}
"""
_FORWARD = """    h = torch.relu(X @ W1 + b)
    loss = ((h @ W2 - Y) ** 2).mean()
    loss.backward()
"""
_AFTER = """print(loss, loss.grad_fn)
print(W1, W2, b, W1.grad, b.grad)
print(W1._version, W2._version, b._version, W1.grad._version)
"""


def _loop(steps, n=12):
    return f"for i in range({n}):\n" + _FORWARD + "    with torch.no_grad():\n" + steps


_SUB = """        W1 -= lr * W1.grad
        W2 -= 0.01 * W2.grad
        b -= lr * b.grad
        W1.grad.zero_()
        W2.grad.zero_()
        b.grad.zero_()
"""
_METHODS = """        W1.sub_(lr * W1.grad)
        W2.add_(-0.01 * W2.grad)
        b.mul_(0.5 * b.grad)
        W1.grad.zero_()
        W2.grad.zero_()
        b.grad.zero_()
"""
_OPS = """        W1 += -3 * W1.grad
        W2 *= lr * W2.grad
        b -= 2 * b.grad
        W2.grad = None
        W1.grad.zero_()
        b.grad.zero_()
"""

PROGRAMS = {}
for _dt in ("torch.float32", "torch.float64"):
    for _lr in ("0.001", "1e-7", "3"):
        _h = _HEAD.format(dt=_dt, lr=_lr)
        _k = _dt[6:] + "_" + _lr
        PROGRAMS["sub_" + _k] = _h + _loop(_SUB) + _AFTER
        PROGRAMS["methods_" + _k] = _h + _loop(_METHODS) + _AFTER
        PROGRAMS["ops_" + _k] = _h + _loop(_OPS) + _AFTER

_H64 = _HEAD.format(dt="torch.float64", lr="0.01")
PROGRAMS.update(
    {
        # the step in a def, as the suite's two_layer_def
        "in_a_def": _H64
        + "def step(X, Y, lr):\n"
        + _FORWARD
        + "    with torch.no_grad():\n"
        + _METHODS.replace("        ", "        ")
        + "    return loss\n"
        + "for i in range(12):\n    loss = step(X, Y, 0.01)\n"
        + _AFTER,
        # a view of a parameter made before the loop: its steps take the general rule
        # (the view's version moves with them)
        "view_of_parameter": _H64
        + "v = W1[0]\nd = W2.detach()\n"
        + _loop(_SUB)
        + _AFTER
        + "print(v, v._version, d, d._version, v.grad_fn)\n",
        # a view made mid-loop (an if that holds runs as compiled)
        "view_made_mid_loop": _H64
        + "views = []\n"
        + _loop(_SUB + "    if i == 5:\n        views.append(W1[1:3])\n")
        + _AFTER
        + "print(views, views[0]._version)\n",
        # a gradient let go every iteration (backward makes a new one)
        "grad_let_go": _H64 + _loop(_SUB.replace("W2.grad.zero_()", "W2.grad = None")) + _AFTER,
        # a non-contiguous parameter
        "non_contiguous": _H64.replace(
            "W1 = torch.randn(5, 8, requires_grad=True, dtype=torch.float64)",
            "W1 = torch.randn(8, 5, dtype=torch.float64).t().detach().requires_grad_()",
        )
        + _loop(_SUB)
        + _AFTER
        + "print(W1.is_contiguous(), W1.grad.is_contiguous())\n",
        # a gradient with a hook of the program's that replaces it
        "hooked_gradient": _H64 + "W1.register_hook(lambda g: g * 2)\n" + _loop(_SUB) + _AFTER,
        # a gradient kept by the program, then stepped on
        "grad_kept": _H64
        + "keep = []\n"
        + _loop(_SUB, 6)
        + "keep.append(W1.grad)\n"
        + _loop(_SUB, 6)
        + _AFTER
        + "print(keep[0], keep[0] is W1.grad)\n",
        # a shape mismatch between the parameter and the step's gradient (broadcast)
        "broadcast_error": _H64
        + "for i in range(5):\n"
        + _FORWARD
        + "    with torch.no_grad():\n        b -= lr * W2.grad\n"
        + _AFTER,
        # an integer factor beyond float32's exact ints, in float32
        "big_int_factor": _HEAD.format(dt="torch.float32", lr="16777217")
        + _loop(_SUB.replace("lr * ", "1e-12 * lr * ").replace("1e-12 * lr * W1", "lr * W1"))
        + _AFTER,
    }
)

# `for param in model.parameters():` steps, as the polynomial_nn tutorial writes them
_MODEL = """torch.manual_seed(0)
x = torch.randn(40, 3, dtype={dt})
y = torch.randn(40, dtype={dt})
model = {model}
loss_fn = torch.nn.MSELoss(reduction="sum")
learning_rate = 1e-3
"""
_LINEAR = "torch.nn.Sequential(torch.nn.Linear(3, 4), torch.nn.Tanh(), torch.nn.Linear(4, 1), torch.nn.Flatten(0, 1)).to({dt})"
_PARAM_LOOP = """for t in range({n}):
    y_pred = model(x)
    loss = loss_fn(y_pred, y)
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
{steps}
"""
_PARAM_AFTER = """print(loss, param, [p.grad for p in model.parameters()])
print([p._version for p in model.parameters()], [p for p in model.parameters()])
"""


def _params(steps, dt="torch.float64", model=_LINEAR, n=12, extra=""):
    head = _MODEL.format(dt=dt, model=model.format(dt=dt))
    return head + extra + _PARAM_LOOP.format(n=n, steps=steps) + _PARAM_AFTER


PROGRAMS.update(
    {
        "params_float64": _params("            param -= learning_rate * param.grad"),
        "params_float32": _params(
            "            param -= learning_rate * param.grad", dt="torch.float32"
        ),
        "params_methods": _params(
            "            param.sub_(0.01 * param.grad)\n            param.grad.zero_()"
        ),
        "params_grad_none": _params(
            "            param -= learning_rate * param.grad\n            param.grad = None"
        ),
        # more parameters than a loop runs between two looks at the memory
        "params_many": _params(
            "            param -= learning_rate * param.grad",
            model="torch.nn.Sequential("
            + ", ".join(["torch.nn.Linear(3, 3)"] * 9)
            + ", torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1)).to({dt})",
        ),
        # a parameter replaced mid-loop (the module's state changes: noted again)
        "params_replaced": _params(
            "            param -= learning_rate * param.grad\n"
            "    if t == 5:\n"
            "        model[0].weight = torch.nn.Parameter(torch.ones(4, 3, dtype=torch.float64))",
        ),
        # another loop in the block (not over parameters): the block runs as compiled
        "other_loop_in_block": _params(
            "            param -= learning_rate * param.grad\n"
            "        for m in model.children():\n"
            "            pass"
        ),
        # model.zero_grad replaced by the program's function mid-loop
        "zero_grad_replaced": _params(
            "            param -= learning_rate * param.grad\n"
            "    if t == 5:\n"
            "        model.zero_grad = lambda: print('mine')",
        ),
        # a gradient kept by the program across model.zero_grad()
        "zero_grad_kept": _params(
            "            param -= learning_rate * param.grad\n"
            "    if t == 5:\n"
            "        kept = model[0].weight.grad",
        )
        + "print(kept, kept is model[0].weight.grad)\n",
        # a step that raises in a replayed iteration's loop: a parameter's grad let go
        "params_error": _params(
            "            param -= learning_rate * param.grad\n"
            "    if t == 6:\n"
            "        model[0].bias.requires_grad_(False)",
        ),
    }
)

# opt.zero_grad() of gradcli's own optimizer, its groups changed mid-loop
_OPT = """torch.manual_seed(0)
xy = torch.tensor([-1.5, 2.0], requires_grad=True)
extra = torch.tensor([0.5], requires_grad=True)
opt = torch.optim.{opt}([xy], lr=0.01)
for i in range(30):
    opt.zero_grad()
    loss = (1 - xy[0]) ** 2 + 100 * (xy[1] - xy[0] ** 2) ** 2
    loss.backward()
    opt.step()
{change}print(loss, xy, xy.grad, extra.grad, len(opt.param_groups))
"""
PROGRAMS.update(
    {
        "opt_adam": _OPT.format(opt="Adam", change=""),
        "opt_set_to_none": _OPT.format(opt="Adam", change="").replace(
            "opt.zero_grad()", "opt.zero_grad(set_to_none=True)"
        ),
        "opt_set_to_zeros": _OPT.format(opt="SGD", change="").replace(
            "opt.zero_grad()", "opt.zero_grad(set_to_none=False)"
        ),
        "opt_sgd": _OPT.format(opt="SGD", change=""),
        "opt_group_added": _OPT.format(
            opt="Adam",
            change="    if i == 10:\n"
            "        opt.add_param_group({'params': [extra]})\n"
            "        (extra * 2).sum().backward()\n",
        ),
        "opt_params_changed": _OPT.format(
            opt="SGD",
            change="    if i == 10:\n"
            "        opt.param_groups[0]['params'].append(extra)\n"
            "        (extra * 2).sum().backward()\n",
        ),
        "opt_params_replaced": _OPT.format(
            opt="SGD",
            change="    if i == 10:\n"
            "        opt.param_groups[0]['params'] = [extra, xy]\n"
            "        (extra * 2).sum().backward()\n",
        ),
    }
)


# steps through `.data` in the body's grad mode (makemore's `p.data += -lr * p.grad`, the
# learning rate a schedule's, its negation Python's): a parameter with a view and a 0-d
# one as compiled, a gradient let go mid-loop, `-=` and a number factor, float32 and 64
_DATA = """torch.manual_seed(0)
X = torch.randn(20, 4, dtype={dt})
Y = torch.randn(20, 1, dtype={dt})
W = torch.randn(4, 1, requires_grad=True, dtype={dt})
V = torch.randn(4, 1, requires_grad=True, dtype={dt})
b = torch.zeros(1, requires_grad=True, dtype={dt})
s = torch.zeros((), requires_grad=True, dtype={dt})
params = [W, V, b, s]
view = W[1:]
for i in range(14):
    loss = ((X @ W + X @ V + b + s - Y) ** 2).mean()
    for p in params:
        p.grad = None
    loss.backward()
    lr = 0.1 if i < 6 else 0.05
    for p in params:
        p.data += -lr * p.grad
    for p in [V, b]:
        p.data -= 0.01 * p.grad
    if i == 9:
        V.grad = None
        try:
            for p in params:
                p.data += -lr * p.grad
        except TypeError as e:
            print("error", e)
print(loss, W, V, b, s, W._version, V._version, b._version, view, view._version)
"""
for dt in ("float32", "float64"):
    PROGRAMS[f"data_steps_{dt}"] = _DATA.format(dt="torch." + dt)

# d2l's `sgd`: `param -= lr * param.grad / batch_size` (a def of no_grad steps over a
# list, and in the body), the divisor a name or a number, a rate and a divisor changed
# mid-loop, a 0-d parameter and one a view shares (both as compiled)
_DIVIDED = """torch.manual_seed(0)
X = torch.randn(12, 3, dtype={dt})
y = torch.randn(12, 1, dtype={dt})
w = torch.normal(0, 0.01, size=(3, 1), requires_grad=True, dtype={dt})
b = torch.zeros(1, requires_grad=True, dtype={dt})
s = torch.zeros((), requires_grad=True, dtype={dt})
v = torch.ones(3, 1, requires_grad=True, dtype={dt})
view = v[:2]


def sgd(params, lr, batch_size):
    with torch.no_grad():
        for param in params:
            param -= lr * param.grad / batch_size
            param.grad.zero_()


lr, bs = 0.03, 4
for epoch in range(12):
    l = ((X @ w + X @ v + b + s - y) ** 2 / 2).sum()
    l.backward()
    sgd([w, b, s, v], lr, bs)
    if epoch == 5:
        lr = 0.01
    if epoch == 8:
        bs = 2
print(l, w, b, s, v, view, w._version, v._version, view._version)
for i in range(10):
    l = ((X @ w + b - y) ** 2).mean()
    l.backward()
    with torch.no_grad():
        w += 0.5 * w.grad / 8
        for p in (w, b):
            p -= -lr * p.grad / 3
            p.grad = None
print(l, w, b, w._version)
"""
for dt in ("float32", "float64"):
    PROGRAMS[f"divided_{dt}"] = _DIVIDED.format(dt="torch." + dt)

_ERRORS = {"broadcast_error", "params_error"}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_replayed_steps_print_what_compiled_steps_print(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == (1 if name in _ERRORS else 0), off.stderr


def test_the_step_limit_stops_the_parameters_loop_where_it_stops_compiled():
    on, off = replay_both(PROGRAMS["params_float64"], "--max-steps", "40")
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert "max-steps" in on.stderr


@pytest.mark.parametrize(
    "name", ["sub_float32_0.001", "methods_float64_3", "in_a_def", "params_methods"]
)
def test_the_steps_take_the_array_path(name, monkeypatch):
    """The comparisons above are not vacuous: the steps and zero_() of these programs
    run as scalar_steps.array_step and zero_grad_array do them."""
    count = {"step": 0, "zero": 0}
    step, zero = replay_steps.array_step, replay_steps.zero_grad_array

    def counted_step(*args):
        r = step(*args)
        count["step"] += r
        return r

    def counted_zero(*args):
        r = zero(*args)
        count["zero"] += r
        return r

    monkeypatch.setattr(replay_steps, "array_step", counted_step)
    monkeypatch.setattr(replay_steps, "zero_grad_array", counted_zero)
    run_inprocess(PROGRAMS[name])
    assert count["step"] >= 3 * 6 and count["zero"] >= 3 * 6


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_the_data_steps_take_the_array_path(dt, monkeypatch):
    """V's and b's steps through `.data` run as scalar_steps.data_step does them (W's,
    which a view shares, and the 0-d s's as compiled)."""
    count = [0]
    step = replay_steps.data_step

    def counted(*args):
        r = step(*args)
        count[0] += r
        return r

    monkeypatch.setattr(replay_steps, "data_step", counted)
    out = run_inprocess(PROGRAMS[f"data_steps_{dt}"])
    assert out.returncode == 0, out.stderr
    assert count[0] >= 4 * 10


@pytest.mark.parametrize("dt", ["float32", "float64"])
def test_the_divided_steps_take_the_array_path(dt, monkeypatch):
    """w's and b's steps `lr * param.grad / batch_size` run as scalar_steps.divided_step
    does them (s's, 0-d, and v's, which a view shares, as compiled)."""
    count = [0]
    step = replay_steps.divided_step

    def counted(*args):
        r = step(*args)
        count[0] += r
        return r

    monkeypatch.setattr(replay_steps, "divided_step", counted)
    out = run_inprocess(PROGRAMS[f"divided_{dt}"])
    assert out.returncode == 0, out.stderr
    assert count[0] >= 2 * 8 + 3 * 7


def test_model_zero_grad_is_planned(monkeypatch):
    """`model.zero_grad()` of a Sequential and `opt.zero_grad()` of an Adam become the
    plan's own clearing of the parameters' gradients (replay_updates.zero_grad), not a call
    run as compiled."""
    from gradcli.language import replay_plan, replay_updates

    planned = []
    real = replay_updates.zero_grad

    def counted(what, *args):
        r = real(what, *args)
        if what[1] == "zero_grad":  # (opt.step() is asked too: run as compiled)
            planned.append(r is not None)
        return r

    monkeypatch.setattr(replay_plan, "zero_grad", counted)
    run_inprocess(PROGRAMS["params_float64"])
    run_inprocess(PROGRAMS["opt_adam"])
    run_inprocess(PROGRAMS["opt_set_to_none"])  # (its default, given)
    assert len(planned) >= 3 and all(planned)
    planned.clear()
    run_inprocess(PROGRAMS["opt_set_to_zeros"])  # (zeroes each .grad: run as compiled)
    assert planned and not any(planned)
