"""Loop bodies replayed beyond arithmetic (language/loop_shapes.py, replay.py,
replay_plan.py): matrix products, calls of gradcli's own modules and losses, method
calls of its optimizers and modules run as compiled between replayed statements.
Each program prints the same with and without replay (`--no-replay`), also when a
check fails mid-loop; the ones that should replay are counted."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations, run_inprocess
from gradcli.language import replay

_TWO_LAYER = """torch.manual_seed(0)
X = torch.randn(16, 5)
Y = torch.randn(16, 1)
W1 = torch.randn(5, 8, requires_grad=True)
W2 = torch.randn(8, 1, requires_grad=True)
for i in range(40):
    h = torch.relu(X @ W1)
    loss = ((h @ W2 - Y) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        W1 -= 0.01 * W1.grad
        W2 -= 0.01 * W2.grad
        W1.grad.zero_()
        W2.grad.zero_()
print(loss, loss.grad_fn, h.grad_fn.next_functions, W1.grad, W2.sum())
"""

PROGRAMS = {
    "matmul": _TWO_LAYER,
    # a vector @ a matrix goes through a view (unsqueeze): not replayed, the same output
    "matmul_vector": """torch.manual_seed(0)
v = torch.randn(5, requires_grad=True)
M = torch.randn(5, 3, requires_grad=True)
for i in range(6):
    y = (v @ M).sum()
    y.backward()
print(y, v.grad, M.grad)
""",
    # the shape of X changes mid-loop: checked before each iteration
    "matmul_shape_changes": """torch.manual_seed(0)
W = torch.randn(3, 2, requires_grad=True)
X = torch.randn(4, 3)
for i in range(10):
    if i == 5:
        X = torch.randn(6, 3)
    out = (X @ W).sum()
    out.backward()
print(out, W.grad)
""",
    # requires_grad toggled between runs of the loop, and an error in the body
    # requires_grad toggled mid-loop (in an `if`) and between runs of the loop
    "matmul_requires_grad_toggled": """torch.manual_seed(0)
W = torch.randn(3, 2, requires_grad=True)
X = torch.randn(4, 3)
for r in range(3):
    for i in range(8):
        if i == 4:
            X.requires_grad_(r % 2 == 0)
        out = (X @ W).sum()
        out.backward()
    print(out, W.grad, X.grad)
    X.requires_grad_(r % 2 == 1)
""",
    "matmul_error_mid_loop": """torch.manual_seed(0)
W = torch.randn(3, 2, requires_grad=True)
X = torch.randn(4, 3)
Z = torch.randn(4, 5)
try:
    for i in range(10):
        if i == 6:
            X = Z
        out = (X @ W).sum()
        out.backward()
except RuntimeError as e:
    print("error", e)
print(i, out, W.grad)
""",
}

_HEAD = """from torch import nn
torch.manual_seed(0)
X = torch.randn(12, 3)
y = (X[:, 0] > 0).float().reshape(-1, 1)
model = nn.Linear(3, 1)
loss_fn = nn.BCEWithLogitsLoss()
opt = torch.optim.Adam(model.parameters(), lr=0.05)
"""
_STEP = """    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
"""
_AFTER = """print(loss, loss.grad_fn, loss.grad_fn.next_functions)
print(model.weight, model.bias, model.weight.grad, model.weight._version)
"""

MODULES = {
    # nn.Linear, BCEWithLogitsLoss and Adam, as people write the loop
    "module_adam": _HEAD + "for i in range(30):\n" + _STEP + _AFTER,
    # a Sequential of pure modules, MSELoss and SGD with momentum
    "sequential_sgd": """from torch import nn
torch.manual_seed(0)
X = torch.randn(10, 4)
Y = torch.randn(10, 2)
model = nn.Sequential(nn.Linear(4, 8), nn.Tanh(), nn.Linear(8, 2))
loss_fn = nn.MSELoss()
opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
for i in range(25):
    opt.zero_grad()
    out = model(X)
    loss = loss_fn(out, Y)
    loss.backward()
    opt.step()
print(loss, out.grad_fn, out.grad_fn.next_functions)
print(model[0].weight.grad, model[2].bias)
""",
    # a parameter replaced mid-loop (the module's state is checked)
    "parameter_replaced": _HEAD
    + "for i in range(12):\n    if i == 5:\n        model.bias = nn.Parameter(torch.zeros(1))\n"
    + _STEP
    + _AFTER,
    # requires_grad of a parameter toggled mid-loop
    "parameter_requires_grad_toggled": _HEAD
    + "for i in range(12):\n    if i == 5:\n        model.bias.requires_grad_(False)\n"
    + _STEP
    + _AFTER,
    # a forward hook registered mid-loop: its calls must run
    "hook_registered": _HEAD
    + "def hook(m, inp, out):\n    print('hook', out.sum())\n"
    + "for i in range(10):\n    if i == 6:\n        h = model.register_forward_hook(hook)\n"
    + _STEP
    + _AFTER,
    # a shape change mid-loop, and an error in the body (the target's size)
    "shape_then_error": _HEAD
    + "try:\n    for i in range(12):\n        if i == 4:\n            X = torch.randn(5, 3)\n"
    + "            y = y[:5]\n        if i == 8:\n            y = torch.ones(6, 1)\n"
    + "        opt.zero_grad()\n        loss = loss_fn(model(X), y)\n"
    + "        loss.backward()\n        opt.step()\nexcept ValueError as e:\n"
    + "    print('error', e)\n"
    + _AFTER,
    # method calls before assignments change what the checks saw: checked again there
    "calls_change_the_module": _HEAD
    + "for i in range(8):\n    model.train()\n    a = model(X).sum()\n    model.eval()\n"
    + "    b = model(X).sum()\n    c = a + b\n    c.backward()\n"
    + "print(a, b, model.training, model.weight.grad)\n",
    # a program's own module class is not replayed (its forward is the program's code)
    "program_module": """from torch import nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)
    def forward(self, x):
        print("forward")
        return self.fc(x)
model = Net()
X = torch.randn(4, 3)
for i in range(4):
    model.zero_grad()
    out = model(X).sum()
    out.backward()
print(out, model.fc.weight.grad)
""",
    # the weight saved through its transposed view: modified in place after the loop,
    # backward reports it as compiled (a loop without backward: not replayed)
    "saved_view_version": """from torch import nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
X = torch.randn(4, 3, requires_grad=True)
w = model.weight
for i in range(5):
    out = model(X).sum()
with torch.no_grad():
    w -= 0.5
try:
    out.backward()
except RuntimeError as e:
    print("error", e)
print(out, out.grad_fn.next_functions)
""",
    # ... and with backward in the loop (replayed), then modified in place and used
    "saved_view_backward": """from torch import nn
torch.manual_seed(0)
model = nn.Linear(3, 2)
X = torch.randn(4, 3, requires_grad=True)
w = model.weight
for i in range(5):
    out = model(X).sum()
    out.backward()
    with torch.no_grad():
        w -= 0.01 * w.grad
try:
    out.backward()
except RuntimeError as e:
    print("error", e)
out2 = model(X).sum()
with torch.no_grad():
    w -= 0.5
try:
    out2.backward()
except RuntimeError as e:
    print("error", e)
print(out, out2, X.grad, w.grad, w._version)
""",
}
PROGRAMS.update(MODULES)

_TUTORIAL = """import math
x = torch.linspace(-math.pi, math.pi, 200, dtype=torch.float)
y = torch.sin(x)
torch.manual_seed(0)
a = torch.randn((), dtype=torch.float, requires_grad=True)
b = torch.randn((), dtype=torch.float, requires_grad=True)
c = torch.randn((), dtype=torch.float, requires_grad=True)
running = 0.0
for t in range(40):
{extra}    y_pred = a + b * x + c * x ** 2
    loss = (y_pred - y).pow(2).sum()
    running += loss.item()
    if t % 10 == 9:
        print(t, loss.item())
    loss.backward()
    with torch.no_grad():
        a -= 1e-4 * a.grad
        b -= 1e-4 * b.grad
        c -= 1e-4 * c.grad
        a.grad = None
        b.grad = None
        c.grad = None
print(running, a, b, c, loss, y_pred.grad_fn)
"""

BOOKKEEPING = {
    # `running += loss.item()` and a print every 10 iterations
    "item_bookkeeping": _TUTORIAL.format(extra=""),
    # the total becomes a tensor mid-loop (its check fails: as compiled)
    "item_target_becomes_a_tensor": _TUTORIAL.format(
        extra="    if t == 20:\n        running = torch.tensor(running)\n"
    ),
    # a non-scalar's item(): the error where compiled raises it
    "item_of_a_vector": """w = torch.tensor([0.5], requires_grad=True)
total = 0
try:
    for i in range(6):
        v = w * 2
        s = v.sum()
        total += s.item()
        if i == 3:
            w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
        s.backward()
        total -= v.item()
except RuntimeError as e:
    print("error", e)
print(total, v, s)
""",
    # polynomial_nn's loop: a module, a loss module, model.zero_grad() and the
    # parameters stepped in a `for` inside no_grad
    "module_parameters_loop": """import math
x = torch.linspace(-math.pi, math.pi, 200)
y = torch.sin(x).reshape(-1, 1)
xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")
running = 0.0
for t in range(40):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    running += loss.item()
    if t % 10 == 9:
        print(t, loss.item())
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= 1e-4 * param.grad
print(running, loss, model[0].weight, model[0].bias.grad)
""",
    # Rosenbrock with Adam: indexing by numbers (views of the variable's tensor, saved
    # by the powers), and the vector replaced by a longer one mid-loop
    "subscripts_adam": """xy = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.Adam([xy], lr=0.01)
for i in range(60):
    if i == 40:
        xy = torch.tensor([-1.0, 1.0, 3.0], requires_grad=True)
        opt = torch.optim.Adam([xy], lr=0.01)
    opt.zero_grad()
    loss = (1 - xy[0]) ** 2 + 100 * (xy[-1] - xy[0] ** 2) ** 2
    loss.backward()
    opt.step()
print(loss, xy, xy.grad, loss.grad_fn.next_functions)
""",
    # the polynomial_nn tutorial's model: its output a view (Flatten) of the Linear's,
    # changed in place after the loop (a view of its base, as compiled)
    "view_result": """import math
x = torch.linspace(-math.pi, math.pi, 100)
y = torch.sin(x)
xx = x.unsqueeze(-1).pow(torch.tensor([1, 2, 3]))
torch.manual_seed(0)
model = torch.nn.Sequential(torch.nn.Linear(3, 1), torch.nn.Flatten(0, 1))
loss_fn = torch.nn.MSELoss(reduction="sum")
running = 0.0
for t in range(30):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
    running += loss.item()
    model.zero_grad()
    loss.backward()
    with torch.no_grad():
        for param in model.parameters():
            param -= 1e-4 * param.grad
print(running, loss, y_pred.grad_fn, y_pred._version)
for t in range(3):
    y_pred = model(xx)
    loss = loss_fn(y_pred, y)
y_pred.mul_(2)
print(y_pred.grad_fn, y_pred.grad_fn.next_functions, y_pred._version)
try:
    loss.backward()
except RuntimeError as e:
    print("error", e)
""",
}
PROGRAMS.update(BOOKKEEPING)

_SOFTMAX = """import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(40, 6)
y = torch.randint(0, 4, (40,))
W = torch.zeros(6, 4, requires_grad=True)
b = torch.zeros(4, requires_grad=True)
try:
    for i in range(20):
{extra}        loss = F.cross_entropy(X @ W + b, y)
        loss.backward()
        with torch.no_grad():
            W -= 0.5 * W.grad
            b -= 0.5 * b.grad
            W.grad.zero_()
            b.grad.zero_()
except IndexError as e:
    print("error", e)
print(i, loss, loss.grad_fn, loss.grad_fn.next_functions, W.grad, b)
"""

LOSSES = {
    # softmax regression: F.cross_entropy of a product, the target a variable's tensor
    "cross_entropy_functional": _SOFTMAX.format(extra=""),
    # the target's classes changed in place mid-loop (the op reads them each time)
    "cross_entropy_target_changed": _SOFTMAX.format(
        extra="        if i == 8:\n            y[:5] = 3 - y[:5]\n"
    ),
    # ... to a class out of bounds: the error where the compiled loop raises it
    "cross_entropy_target_out_of_bounds": _SOFTMAX.format(
        extra="        if i == 8:\n            y[3] = 4\n"
    ),
    # the target replaced by one of another dtype, then of another length
    "cross_entropy_target_replaced": _SOFTMAX.format(
        extra="        if i == 6:\n            y = y.int()\n"
        "        if i == 12:\n            y = y[:30]\n"
    ).replace("except IndexError", "except ValueError"),
    # the functions reached through a namespace of another name or a path of them,
    # F.log_softmax (a namespace's own function declaring its op), and torch's own form
    # of a loss (ATen's: not the op's function, not replayed)
    "nll_loss_namespaces": """import torch.nn.functional as nnf
import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(30, 5)
y = torch.randint(0, 3, (30,))
W = torch.randn(5, 3, requires_grad=True)
for i in range(12):
    a = nnf.cross_entropy(X @ W, y)
    c = torch.nn.functional.nll_loss(torch.log_softmax(X @ W, 1), y)
    s = a + c
    s.backward()
for i in range(5):
    d = F.nll_loss(F.log_softmax(X @ W, 1), y)
    d.backward()
p = torch.rand(30, 3)
for i in range(4):
    e = torch.binary_cross_entropy_with_logits(X @ W, p).sum()
    e.backward()
print(a, c, s, d, e, W.grad, c.grad_fn.next_functions)
""",
    # the module forms: weights and ignore_index as options, the weight changed in place
    "cross_entropy_module_weight": """from torch import nn
torch.manual_seed(0)
X = torch.randn(24, 5)
y = torch.randint(0, 3, (24,))
w = torch.tensor([1.0, 2.0, 0.5])
model = nn.Linear(5, 3)
loss_fn = nn.CrossEntropyLoss(weight=w, ignore_index=1)
nll = nn.NLLLoss(reduction="sum")
opt = torch.optim.SGD(model.parameters(), lr=0.1)
for i in range(15):
    if i == 9:
        w[0] = 3.0
    opt.zero_grad()
    out = model(X)
    loss = loss_fn(out, y) + nll(torch.log_softmax(out, 1), y) * 0.01
    loss.backward()
    opt.step()
print(loss, loss.grad_fn.next_functions, model.weight, model.bias.grad)
""",
    # keyword arguments of literals and variables (an f-string's runs code: not replayed)
    "keywords": """import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(20, 4)
y = torch.randint(0, 3, (20,))
W = torch.randn(4, 3, requires_grad=True)
w = torch.tensor([1.0, 0.5, 2.0])
tag = "sum"
for i in range(8):
    if i == 5:
        w[1] = 3.0
    a = F.cross_entropy(X @ W, y, reduction="sum", ignore_index=2, weight=w)
    b = torch.sum(X @ W, dim=1, keepdim=True).mean()
    c = (X @ W).sum(dim=0).sum()
    s = a + b + c
    s.backward()
for i in range(3):
    d = F.cross_entropy(X @ W, y, reduction=f"{tag}")
    d.backward()
print(a, b, c, d, W.grad, b.grad_fn.next_functions)
""",
}
PROGRAMS.update(LOSSES)

_MLP = """import torch.nn.functional as F
torch.manual_seed(0)
X = torch.randn(32, 8)
y = torch.randint(0, 3, (32,))
W1 = (torch.randn(8, 16) * 0.3).requires_grad_()
b1 = torch.zeros(16, requires_grad=True)
W2 = (torch.randn(16, 3) * 0.3).requires_grad_()
b2 = torch.zeros(3, requires_grad=True)
params = [W1, b1, W2, b2]
try:
    for step in range(20):
{extra}        logits = torch.relu(X @ W1 + b1) @ W2 + b2
        loss = F.cross_entropy(logits, y)
        for p in params:
            p.grad = None
        loss.backward()
        with torch.no_grad():
            for p in params:
                p -= 0.1 * p.grad
except Exception as e:
    print("error", type(e).__name__, e)
print(step, p is params[-1], loss, logits.grad_fn, W1, b2.grad, W2._version)
"""

LISTS = {
    # an MLP from scratch: its parameters a list, cleared and stepped in loops over it
    "parameter_list": _MLP.format(extra=""),
    # an item of the list replaced mid-loop (checked by identity and items)
    "parameter_list_item_replaced": _MLP.format(
        extra="        if step == 7:\n            params[1] = b1 = torch.zeros(16, "
        "requires_grad=True)\n"
    ),
    # the list grown by a number mid-loop: the compiled loop's error
    "parameter_list_grown": _MLP.format(
        extra="        if step == 9:\n            params.append(2.0)\n"
    ),
    # a list bound to the name mid-loop, of the same tensors
    "parameter_list_rebound": _MLP.format(
        extra="        if step == 5:\n            params = list(params)\n"
    ),
    # zero_() in a loop of the body, after the step
    "parameter_list_zero": """torch.manual_seed(0)
X = torch.randn(10, 3)
W = torch.randn(3, 2, requires_grad=True)
c = torch.randn(2, requires_grad=True)
ps = [W, c]
for i in range(12):
    loss = ((X @ W + c) ** 2).mean()
    loss.backward()
    with torch.no_grad():
        for q in ps:
            q.sub_(0.05 * q.grad)
    for q in ps:
        q.grad.zero_()
print(loss, W, c.grad, q is c)
""",
}
PROGRAMS.update(LISTS)

_NET = """import torch.nn.functional as F
from torch import nn
torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, n, m):
        super().__init__()
        self.fc = nn.Linear(n, m)
    def forward(self, x):
        return torch.tanh(self.fc(x))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.block = Block(4, 8)
        self.fc2 = nn.Linear(8, 3)
    def forward(self, x):
        \"\"\"Two layers.\"\"\"
        h = F.relu(self.block(x))
        return self.fc2(h)
class Fake:
    def relu(self, x):
        print("fake relu")
        return x
def other(self, x):
    print("other forward")
    return self.fc2(self.block(x))
def hook(m, inp, out):
    print("hook", out.shape)
net = Net()
X = torch.randn(16, 4)
y = torch.randint(0, 3, (16,))
opt = torch.optim.SGD(net.parameters(), lr=0.1)
loss_fn = nn.CrossEntropyLoss()
for i in range(16):
{extra}    opt.zero_grad()
    loss = loss_fn(net(X), y)
    loss.backward()
    opt.step()
print(loss, loss.grad_fn.next_functions, net.fc2.weight.grad, net.block.fc.bias)
"""

NETS = {
    # a module of the program's classes (and one inside it): its forward seen through
    "program_module_seen_through": _NET.format(extra="")
    + "for i in range(6):\n    net.zero_grad()\n    out = net(X).sum()\n    out.backward()\n"
    + "print(out, net.block.fc.weight.grad)\n",
    # the class's forward replaced mid-loop: its class is checked
    "program_module_forward_replaced": _NET.format(
        extra="    if i == 8:\n        Net.forward = other\n"
    ),
    # a global its forward reads rebound mid-loop
    "program_module_global_rebound": _NET.format(extra="    if i == 8:\n        F = Fake()\n"),
    # a module of it replaced, a hook registered on it mid-loop
    "program_module_changed": _NET.format(
        extra="    if i == 5:\n        net.block.fc = nn.Linear(4, 8)\n"
        "    if i == 10:\n        h = net.register_forward_hook(hook)\n"
    ),
    # a forward that calls a method of its own, a class overriding one of Module's
    "program_module_not_seen_through": """from torch import nn
torch.manual_seed(0)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)
    def forward(self, x):
        return self.helper(self.fc(x))
    def helper(self, x):
        print("helper")
        return x * 2
class Other(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(3, 1)
    def forward(self, x):
        return self.fc(x)
    def parameters(self, recurse=True):
        print("parameters")
        return [self.fc.weight, self.fc.bias]
model, other = Net(), Other()
X = torch.randn(4, 3)
for i in range(4):
    model.zero_grad()
    other.zero_grad()
    out = model(X).sum() + other(X).sum()
    out.backward()
print(out, model.fc.weight.grad, other.fc.bias.grad)
""",
}
PROGRAMS.update(NETS)

# an optimizer's step keeps the plan's checks (Optimizer.replay_keeps): the iterations
# after it are steady, and what an `if` changes mid-loop is still checked
STEADY = {
    "adam_steady_then_changed": _HEAD
    + """for i in range(40):
    opt.zero_grad()
    loss = loss_fn(model(X), y)
    loss.backward()
    opt.step()
    if i == 12:
        X = torch.randn(9, 3)
        y = (X[:, 0] > 0).float().reshape(-1, 1)
    if i == 20:
        opt.param_groups[0]["lr"] = 0.01
    if i == 28:
        model.bias = nn.Parameter(torch.zeros(1))
        opt = torch.optim.SGD(model.parameters(), lr=0.1, momentum=0.9)
"""
    + _AFTER,
    "sgd_steady_item": """from torch import nn
torch.manual_seed(1)
X = torch.randn(10, 4)
Y = torch.randn(10, 2)
model = nn.Sequential(nn.Linear(4, 5), nn.Tanh(), nn.Linear(5, 2))
opt = torch.optim.SGD(model.parameters(), lr=0.05)
total = 0.0
for i in range(30):
    out = model(X)
    loss = ((out - Y) ** 2).mean()
    opt.zero_grad()
    loss.backward()
    opt.step()
    total += loss.item()
    if i == 15:
        model[0].weight.requires_grad_(False)
print(total, loss, model[0].weight.grad, model[2].weight, model[2].bias.grad)
""",
}
PROGRAMS.update(STEADY)

REPLAYED = {
    "matmul": 30,
    "matmul_shape_changes": 5,
    "matmul_requires_grad_toggled": 10,
    "module_adam": 25,
    "sequential_sgd": 20,
    "parameter_replaced": 8,
    "parameter_requires_grad_toggled": 8,
    "hook_registered": 4,
    "shape_then_error": 3,
    "calls_change_the_module": 4,
    "saved_view_backward": 3,
    "item_bookkeeping": 30,
    "item_target_becomes_a_tensor": 12,
    "module_parameters_loop": 30,
    "item_of_a_vector": 2,
    "subscripts_adam": 50,
    "view_result": 25,
    "cross_entropy_functional": 19,
    "cross_entropy_target_changed": 17,
    "cross_entropy_target_replaced": 7,
    "nll_loss_namespaces": 11,
    "cross_entropy_module_weight": 12,
    "keywords": 5,
    "program_module_seen_through": 18,
    "program_module_forward_replaced": 6,
    "program_module_global_rebound": 6,
    "program_module_changed": 5,
    "parameter_list": 19,
    "parameter_list_item_replaced": 16,
    "parameter_list_grown": 7,
    "parameter_list_rebound": 16,
    "parameter_list_zero": 11,
    "adam_steady_then_changed": 30,
    "sgd_steady_item": 25,
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_replayed_loops_print_what_compiled_loops_print(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr
    assert "Error" not in off.stdout or "error" in off.stdout


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_the_loops_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least


def test_the_report_says_whether_a_loop_replayed(monkeypatch):
    monkeypatch.setattr(replay, "REPORT", True)
    r = run_inprocess(PROGRAMS["matmul"] + "for i in range(3):\n    print(i)\n")
    lines = [x for x in r.stderr.splitlines() if x.startswith("replay:")]
    assert lines == [
        "replay: loop at line 6: qualifies",
        "replay: loop at line 16: does not qualify (line 17: a statement a replayed body may "
        "not have)",
        "replay: loop at line 6: 39 of 40 iterations replayed",
    ]


@pytest.mark.parametrize("name", list(STEADY))
def test_an_optimizer_step_keeps_the_checks(name, monkeypatch):
    """After a replayed iteration whose only call is an optimizer's step, the next is
    steady: the whole checks are made only where an `if` ran code of the program (and
    after noting), not before each iteration."""
    count = [0]
    real = replay._check

    def counted(checks, s):
        count[0] += 1
        return real(checks, s)

    monkeypatch.setattr(replay, "_check", counted)
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= REPLAYED[name]
    assert count[0] <= 12
