"""Replayed loop bodies (gradcli/language/replay.py, loop_shapes.py) print
exactly what the same loops print run as compiled (`--no-replay`): values, grad_fns,
graphs, errors, and the state left behind, also when a check fails mid-loop, an `if`
runs its block, the loop breaks or raises."""

from __future__ import annotations

import os
import re

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

from conftest import replay_both, replayed_iterations, run_inprocess
from gradcli.language import replay, replay_plan, replay_steps
from gradcli.engine import replay as engine_replay

_HERE = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))  # tests/
with open(os.path.join(_HERE, "tutorials", "polynomial_autograd.py"), encoding="utf-8") as _fh:
    _TUTORIAL = _fh.read()  # "Learning PyTorch with Examples", as published
# what the loop leaves behind, looked at afterwards
_AFTER = """
print(loss, y_pred.grad_fn, loss.grad_fn.next_functions, y_pred.grad_fn.next_functions)
print(y_pred[:3], a.grad, a._version)
try:
    loss.backward()
except RuntimeError as e:
    print("again:", str(e)[:60])
print(graph(loss, values=true))
"""
_TUT = _TUTORIAL.replace("dtype = torch.float", "dtype = {dt}") + _AFTER

_TWO = """x = torch.ones(2, 2, requires_grad=True)
i = 0
while i < 30:
    out = torch.mean(3 * (x + 2) ** 2)
    out.backward()
    i += 1
print(x.grad, out, out.grad_fn.next_functions[0][0].next_functions, i)
"""

# a review (a helper ran programs both ways): a `for` target that is
# not a name runs code when bound (so such loops check everything each iteration);
# in-place changes that give no new version (through `.data`, backward adding into a
# `.grad` another name views) reach a hoisted op's tensor (so hoisted inputs are
# compared by their bytes)
REVIEWED5 = {
    "target_tuple_iter": "class P:\n    def __init__(self, k):\n        self.k = k\n    def __iter__(self):\n        global w\n        if self.k == 3:\n            w = torch.tensor([5.0, 6.0], requires_grad=True)\n        return iter([self.k, self.k])\nw = torch.tensor([1.0, 2.0], requires_grad=True)\nfor a, b in [P(0), P(1), P(2), P(3), P(4), P(5)]:\n    z = (w * 3).sum()\n    z.backward()\nprint(z, w, w.grad)\n",
    "target_setitem": "class D:\n    def __setitem__(self, k, v):\n        global w\n        if v == 3:\n            w = torch.tensor([5.0, 6.0], requires_grad=True)\nd = D()\nw = torch.tensor([1.0, 2.0], requires_grad=True)\nfor d[0] in range(6):\n    z = (w * 3).sum()\n    z.backward()\nprint(z, w, w.grad)\n",
    "target_attribute": "x = torch.tensor([1.0, 2.0])\ny = x\nw = torch.tensor([1.0, 2.0], requires_grad=True)\nfor x.requires_grad in [False, False, False, True, True]:\n    q = (w * y).sum()\n    q.backward()\nprint(q, y.grad, w.grad)\n",
    "target_grad_and_hoist": "w = torch.tensor([1.0, 2.0], requires_grad=True)\nv = w\ng = torch.tensor([1.0, 1.0])\nfor v.grad in [None, None, None, g, g, g]:\n    z = g * 2\n    q = (w * z).sum()\n    q.backward()\nprint(z, q, w.grad, g)\n",
    "target_data_reshaped": "class D:\n    def __setitem__(self, k, v):\n        if v == 3:\n            w.data = torch.ones(3, 2, dtype=torch.float32)\nd = D()\nw = torch.tensor([1.0, 2.0], requires_grad=True)\nfor d[0] in range(6):\n    z = (w * 3).sum()\n    z.backward()\nprint(z, w, w.grad)\n",
    "hoisted_data_alias": "b = torch.tensor([1.0, 2.0])\ny = b.data\nfor t in range(3):\n    p = b * 2\n    with torch.no_grad():\n        y += 1\nprint(p)\n",
    "hoisted_grad_data_alias": "w = torch.tensor([1.0, 2.0], requires_grad=True)\n(w * 1).sum().backward()\ng = w.grad.data\nfor t in range(3):\n    q = (w * (g * 1)).sum()\n    q.backward()\nprint(w.grad)\n",
    "hoisted_data_alias_0d": "w = torch.tensor(1.0, requires_grad=True)\nx = w.data\nfor t in range(3):\n    p = w * (x * 1)\n    p.backward()\n    with torch.no_grad():\n        w -= w.grad\nprint(p)\n",
    "hoisted_grad_slice": "w = torch.tensor([0.5, -1.0], requires_grad=True)\n(w * 3).sum().backward()\ng = w.grad[0:2]\nfor t in range(5):\n    z = g * 2\n    q = (w * z).sum()\n    q.backward()\nprint(z, q, w.grad, g)\n",
    "hoisted_slice_data_alias": "w = torch.tensor([0.5, -1.0], requires_grad=True)\nb = torch.tensor([1.0, 2.0, 3.0])\nx = b[0:2]\ny = b.data\nfor t in range(5):\n    p = w * x.sin()\n    q = p.sum()\n    q.backward()\n    with torch.no_grad():\n        y += 1\nprint(p, q, w.grad, x, b)\n",
}


PROGRAMS = {
    "tutorial32": _TUT.replace("{dt}", "torch.float32"),
    "tutorial64": _TUT.replace("{dt}", "torch.float64"),
    "two_by_two": _TWO,
    # the `if` block breaks the loop; the names hold the last iteration's values
    "break_in_if": """w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
for t in range(20):
    h = (w * 3).sin()
    z = (h * h).mean()
    if t == 12:
        break
    z.backward()
print(t, h, z, w.grad)
z.backward()
print(w.grad)
""",
    # a check fails mid-loop (the block of an `if` rebinds a variable the body reads)
    "rebound_mid_loop": """w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
v = torch.tensor([1.0, 2.0, 3.0])
for t in range(12):
    p = w * v + 1
    q = (p ** 2).sum()
    if t == 5:
        v = torch.tensor([1.0, 2.0, 3.0], dtype=torch.float64)
    q.backward()
print(w.grad, p, q, p.dtype)
""",
    # hooks registered in an `if` block: the engine's plain path stops, so must replay
    "hooks_mid_loop": """w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
for t in range(8):
    p = w * 2
    q = p.sum()
    if t == 3:
        h = w.register_hook(lambda g: print("hook", g))
    q.backward()
print(w.grad, p.grad_fn, q)
h.remove()
r = (w * 5).sum()
r.backward()
print(w.grad)
""",
    # an error raised in an iteration run as compiled, the loop inside try
    "raises": """w = torch.tensor([0.5, -1.0], requires_grad=True)
try:
    for t in range(10):
        p = w.exp() * 2
        q = p.mean()
        q.backward()
        if t == 6:
            raise ValueError("stop at " + str(t))
except ValueError as e:
    print(e, p, q, w.grad)
""",
    # a saved value changed in place before backward: the engine's error either way
    "version_error": """w = torch.tensor([0.5, -1.0], requires_grad=True)
x = torch.tensor([1.0, 2.0])
for t in range(3):
    p = (w * w + x).sin()
    q = p.sum()
    with torch.no_grad():
        w -= 0.1
    q.backward()
""",
    # a loop in a function called twice, with a for-else reading a made name
    "function_and_else": """def fit(w, n):
    for k in range(n):
        r = (w * w - 2).pow(2).sum()
        r.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
            w.grad.zero_()
    else:
        print("done", r)
    return r
w = torch.tensor([1.0, 3.0], requires_grad=True)
print(fit(w, 40), w)
print(fit(w, 5), w)
""",
    # no backward in the loop: the last graph keeps its saved values, one of them an
    # earlier statement's value, changed in place afterwards (PyTorch's version error)
    "saved_intermediates": """w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
for k in range(5):
    h = w * 3
    z = h * h
print(z.grad_fn._saved_self, z.grad_fn._saved_other)
z.sum().backward(retain_graph=True)
print(w.grad)
h.mul_(2)
try:
    z.sum().backward()
except RuntimeError as e:
    print(str(e)[:120])
""",
    # the last graph saved a leaf, changed in place after the loop: PyTorch's error; and
    # a tensor times a constant keeps no reference to the tensor (nothing to check)
    "leaf_changed_after_loop": """w = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
for k in range(5):
    z = (w * w).sum()
    u = (w * 3).sum()
    z.backward()
z = (w * w).sum()
for k in range(5):
    z = (w * w).sum()
    u = (w * 3).sum()
with torch.no_grad():
    w += 1
u.backward()
print(w.grad)
try:
    z.backward()
except RuntimeError as e:
    print(str(e)[:150])
""",
    # grad mode off: no nodes, values only
    "no_grad_loop": """w = torch.tensor([1.0, 3.0], requires_grad=True)
with torch.no_grad():
    for k in range(5):
        u = w * 2 + k
print(u, u.requires_grad, u.grad_fn)
""",
    # a 0-d float64 leaf (the engine's number path, not replayed) and the step limit
    "numbers_and_limit": """w = torch.tensor(2.0, requires_grad=True)
i = 0
while i < 50:
    l = (w * 3 + 1) ** 2
    l.backward()
    i += 1
print(w.grad, l)
""",
    # a number the body changes is read by a replayed statement after the change
    "changed_number": """w = torch.tensor([1.0, 2.0], requires_grad=True)
lr = 0.5
for k in range(6):
    with torch.no_grad():
        lr *= 0.5
    p = w * lr
    q = p.sum()
    q.backward()
print(p, w.grad, lr)
""",
}


# programs from a review of the replay: each ran differently before it was fixed (a
# number's sign, the default dtype, code of the program running mid-loop through a
# generator, a while condition, a subscript, a `no_grad` of its own, a method standing
# for `exp`, a float16 path taking a tensor's value as a number, a forward-mode level
# opened in an `if` block), or is the last iteration of a reused set of shadows
REVIEWED = {
    "negative_zero_number": "w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)\nfor lr in [0.0, 0.0, -0.0, -0.0]:\n    y = w * lr\nprint(y)\n",
    "default_dtype_changed": "w = torch.tensor([1, 2, 3])\nfor t in range(4):\n    y = w * 0.5\n    if t == 1:\n        torch.set_default_dtype(torch.float32)\nprint(y.dtype, y)\n",
    "generator_iterable": "w = torch.tensor([1.0, 2.0], requires_grad=True)\ny = None\ndef gen():\n    for k in range(5):\n        print(k, y)\n        yield k\nfor t in gen():\n    y = w * 3\n    z = y.sum()\n    z.backward()\nprint(w.grad)\n",
    "while_condition_calls": "w = torch.tensor([1.0, 2.0], requires_grad=True)\ndef more():\n    print(y.grad_fn if y is not None else None, w.grad)\n    return True\ny = None\ni = 0\nwhile i < 4 and more():\n    y = w * 3\n    z = y.sum()\n    z.backward()\n    i += 1\n",
    "subscript_in_update": 'w = torch.tensor([1.0, 2.0], requires_grad=True)\ny = None\nclass Sched:\n    def __getitem__(self, k):\n        print("sees", y)\n        return 0.1\ns = Sched()\nfor t in range(4):\n    y = w * 3\n    z = y.sum()\n    z.backward()\n    with torch.no_grad():\n        w -= s[0] * w.grad\n        w.grad = None\nprint(w)\n',
    "own_no_grad": 'w = torch.tensor([1.0, 2.0], requires_grad=True)\ny = None\ndef no_grad():\n    print("sees", y)\n    return torch.no_grad()\nfor t in range(4):\n    y = w * 3\n    z = y.sum()\n    z.backward()\n    with no_grad():\n        w -= 0.1 * w.grad\n        w.grad = None\nprint(w)\n',
    "forward_level_opened": "fwAD = torch.autograd.forward_ad\nw = torch.tensor([1.0, 2.0])\nfor t in range(3):\n    y = w * 2\n    if t == 0:\n        fwAD.enter_dual_level()\n        d = fwAD.make_dual(torch.tensor([1.0, 1.0]), torch.tensor([1.0, 0.0]))\nz = d * 3\nprint(fwAD.unpack_dual(z))\nfwAD.exit_dual_level()\n",
    "bound_method_as_exp": 'class C:\n    def f(self, x):\n        print("called")\n        return x * 2\nexp = C().f\nw = torch.tensor([1.0, 2.0], requires_grad=True)\nfor t in range(3):\n    y = exp(w)\nprint(y)\n',
    "float16_tensor_value": "x = torch.tensor([1.0, 2.0], dtype=torch.float16, requires_grad=True)\ns = torch.tensor(2.0)\nfor t in range(4):\n    y = x * s\n    with torch.no_grad():\n        s -= 0.5\nprint(y, s)\n",
    "own_no_grad_sets_flag": 'w = torch.tensor([1.0, 2.0], requires_grad=True)\nflag = 0\nn = 0\ndef no_grad():\n    global flag, n\n    n += 1\n    flag = n\n    return torch.no_grad()\nfor t in range(5):\n    y = w * 3\n    with no_grad():\n        w.grad = None\n    if flag == 3:\n        print("guard ran at", t)\n',
    "own_no_grad_changes_data": 'w = torch.tensor([1.0, 2.0], requires_grad=True)\nx = torch.tensor([1.0, 2.0])\nc = torch.zeros(1)\nn = 0\ndef no_grad():\n    global n\n    n += 1\n    print("no_grad call", n)\n    if n == 3:\n        x.data = torch.ones(3)\n    return torch.no_grad()\ntry:\n    for t in range(5):\n        if t == 100:\n            print("never")\n        with no_grad():\n            c += 1\n        y = (w * x).sum()\n        y.backward()\nexcept RuntimeError as e:\n    print("error", str(e)[:50])\nprint(c, n)\n',
    "data_changed_mid_loop": "w = torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True)\nx = torch.tensor([1.0, 2.0], dtype=torch.float32)\nn = 0\ndef no_grad():\n    global n\n    n += 1\n    if n == 3:\n        x.data = torch.tensor([1.0, 2.0], dtype=torch.float64)\n    return torch.no_grad()\nfor t in range(3):\n    with no_grad():\n        pass\n    y = w * x\nprint(y, y.dtype)\n",
    "saved_after_reused_shadows": """w = torch.tensor([0.5, -1.0], requires_grad=True)
x = torch.tensor([1.0, 2.0])
for t in range(6):
    m = w * x
    p = m.sin()
    q = p.sum()
s = p.grad_fn._saved_self
print(s, s._version, s.grad_fn, p.grad_fn.next_functions[0][0]._saved_other)
with torch.no_grad():
    x += 1
try:
    q.backward()
    print("no error", w.grad)
except RuntimeError as e:
    print("error:", str(e)[:150])
""",
    # ops of constants only (x ** 2, (x * 3).sin()) are computed once and again only
    # when x changes: here in place, each iteration
    "hoisted_input_changes": """w = torch.tensor([0.5, -1.0], requires_grad=True)
x = torch.tensor([1.0, 2.0])
for t in range(6):
    p = w * x ** 2 + (x * 3).sin()
    q = p.sum()
    q.backward()
    with torch.no_grad():
        x += 0.5
        w -= 0.1 * w.grad
        w.grad = None
print(p, q, w, x, p.grad_fn.next_functions)
""",
    # a hoisted value the program gets (z) and changes: the next iterations compute it again
    "hoisted_value_changed": """w = torch.tensor([0.5, -1.0], requires_grad=True)
x = torch.tensor([1.0, 2.0])
for t in range(8):
    z = x * 2
    q = (w * z).sum()
    q.backward()
    if t % 3 == 1:
        print(t, z, q)
        with torch.no_grad():
            z += 100
print(z, q, w.grad)
for t in range(3):
    z = x * 2
    q = (w * z).sum()
print(z, q)
""",
    # a tensor that is a leaf's .grad changes in place in backward (with no new version):
    # an op of it is not hoisted, also when it becomes one mid-loop
    "hoisted_grad": """w = torch.tensor([0.5, -1.0], requires_grad=True)
(w * 3).sum().backward()
g = w.grad
for t in range(5):
    z = g * 2
    q = (w * z).sum()
    q.backward()
print(z, q, w.grad, g)
for t in range(5):
    q = (w * w).sum()
    q.backward()
    z = g * 2
print(z, q, w.grad, g)
u = torch.tensor([1.0, 2.0], requires_grad=True)
h = torch.tensor([0.5, 0.5])
for t in range(8):
    z = h * 2
    q = (u * z).sum()
    q.backward()
    if t == 3:
        u.grad = h
print(z, q, u.grad, h)
""",
    # values only names and backward read (a loss's sum or mean) are made when the
    # program can see them: at an `if` that holds, after the loop
    "deferred_reductions": """w = torch.tensor([[0.5, -1.0], [2.0, 0.25]], requires_grad=True)
for t in range(7):
    h = (w * 3).sin()
    s = h.sum(0)
    m = torch.mean(h * h)
    m.backward()
    if t == 3:
        print(s, m, m.grad_fn, s.grad_fn, m.item())
print(s, m, w.grad, m.grad_fn.next_functions, s.grad_fn.next_functions)
try:
    m.backward()
except RuntimeError as e:
    print("again:", str(e)[:60])
s.sum().backward()
print(w.grad)
""",
    # a while condition may run the program's own code, which may rebind what the body
    # reads: the checks are made before every iteration of a while loop
    "while_condition_code": """class Lim:
    def __eq__(self, other):
        global w
        if other == 3:
            w = torch.tensor([5.0, 6.0], requires_grad=True)
        return other == 6
w = torch.tensor([1.0, 2.0], requires_grad=True)
lim = Lim()
i = 0
while not lim == i:
    z = (w * 3).sum()
    z.backward()
    i += 1
print(z, w, w.grad)
""",
    # an op of a tensor a no_grad block changes in place earlier in the body is not
    # hoisted (nor of a .grad zeroed there)
    "hoisted_after_a_block": """w = torch.tensor([0.5, -1.0], requires_grad=True)
x = torch.tensor([1.0, 2.0])
v = torch.tensor([3.0, 4.0], requires_grad=True)
(v * 2).sum().backward()
g = v.grad
for t in range(5):
    with torch.no_grad():
        x += 1
        v.grad.zero_()
    z = x * 2 + g
    q = (w * z).sum()
    q.backward()
print(z, q, w.grad, x, g)
""",
    # a sum of a variable's tensor is not deferred: the no_grad block changes it in
    # place before the value would be made (a 0-d one by the replayed step, a vector as
    # compiled)
    "deferred_sum_of_a_variable": """w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
u = torch.tensor(2.0, requires_grad=True)
for t in range(5):
    s = w.sum()
    m = u.mean()
    s.backward()
    m.backward()
    with torch.no_grad():
        w -= 0.5 * w.grad
        u -= 0.5 * u.grad
        w.grad = None
        u.grad = None
print(s, m, w, u)
""",
    # a no_grad block's steps on Python floats (language/replay_steps.py `run_updates`), and
    # the cases left to the statement as compiled: a float32 product out of range, a
    # factor the block changes, a step of a vector, `zero_()`
    # the steps after backward take its gradients as numbers (replay_steps.taken): a step
    # of another leaf's gradient, a product that overflows in float32 (the gradients
    # stored, the block from that step as compiled), .grad read after the block
    "taken_steps": """x = torch.linspace(-2, 2, 2000, dtype=torch.float32)
y = torch.sin(x)
a = torch.tensor(0.5, dtype=torch.float32, requires_grad=True)
b = torch.tensor(-1.5, dtype=torch.float32, requires_grad=True)
c = torch.tensor(0.25, dtype=torch.float32, requires_grad=True)
for t in range(12):
    p = a + b * x + c * x ** 2
    loss = (p - y).pow(2).sum()
    if t == 9:
        print(t, loss.item(), a.grad, p)
    loss.backward()
    with torch.no_grad():
        a -= 1e-5 * b.grad
        b += 2e-6 * b.grad
        c *= 1e-6 * a.grad
        a.grad = None
        b.grad = None
        c.grad = None
print(a, b, c, a.grad, loss)
""",
    "taken_steps_overflow": """x = torch.linspace(-2, 2, 2000, dtype=torch.float32)
a = torch.tensor(0.5, dtype=torch.float32, requires_grad=True)
b = torch.tensor(-1.5, dtype=torch.float32, requires_grad=True)
for t in range(8):
    loss = (a * x + b * x ** 3).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        a -= 1e-6 * a.grad
        b -= 1e38 * b.grad
        a.grad = None
        b.grad = None
print(a, b, a.grad, b.grad, loss)
""",
    "taken_steps_float64": """x = torch.linspace(-3, 3, 3000, dtype=torch.float64)
y = torch.cos(x)
a = torch.tensor(0.1, dtype=torch.float64, requires_grad=True)
b = torch.tensor(0.2, dtype=torch.float64, requires_grad=True)
w = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
for t in range(10):
    loss = (a + b * x - y).pow(2).sum() + (w * x).sum()
    loss.backward()
    with torch.no_grad():
        a -= 1e-4 * a.grad
        b -= 1e-4 * b.grad
        a.grad = None
        b.grad = None
print(a, b, w.grad, loss)
""",
    # an `if` that holds mid-body (Run._guarded): what it keeps of the made names (the
    # set it handed over is then not used again), a .grad it sets before the backward,
    # an in-place change of a saved input before the backward (its error in its place)
    "if_keeps_a_made_name": """x = torch.linspace(-1, 1, 300, dtype=torch.float32)
a = torch.tensor(0.5, dtype=torch.float32, requires_grad=True)
b = torch.tensor(-0.5, dtype=torch.float32, requires_grad=True)
kept = []
for t in range(12):
    p = a + b * x ** 2
    loss = (p - x).pow(2).sum()
    if t % 3 == 1:
        kept.append(loss)
        print(t, loss.item(), graph(loss, values=true))
    loss.backward()
    with torch.no_grad():
        a -= 1e-3 * a.grad
        b -= 1e-3 * b.grad
        a.grad = None
        b.grad = None
print([k.grad_fn.next_functions for k in kept], kept, a, b)
""",
    "if_sets_a_grad": """x = torch.linspace(-1, 1, 300, dtype=torch.float64)
a = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
b = torch.tensor(-0.5, dtype=torch.float64, requires_grad=True)
for t in range(10):
    loss = (a + b * x - x).pow(2).sum()
    if t == 6:
        a.grad = torch.tensor(100.0, dtype=torch.float64)
    loss.backward()
    with torch.no_grad():
        a -= 1e-3 * a.grad
        b -= 1e-3 * b.grad
        a.grad = None
        b.grad = None
print(a, b, loss)
""",
    "if_changes_a_saved_input": """x = torch.linspace(-1, 1, 300, dtype=torch.float64)
a = torch.tensor(0.5, dtype=torch.float64, requires_grad=True)
w = torch.tensor([0.5, 0.25], dtype=torch.float64, requires_grad=True)
for t in range(10):
    h = w * a
    loss = (h * 2).sum() + (a * x).sum()
    if t == 7:
        with torch.no_grad():
            w.mul_(2)
    loss.backward()
print(w, a.grad, loss)
""",
    "update_steps": """a = torch.tensor(0.5, dtype=torch.float32, requires_grad=True)
b = torch.tensor(-1.5, dtype=torch.float32, requires_grad=True)
d = torch.tensor(2.0, dtype=torch.float32, requires_grad=True)
v = torch.tensor([1.0, 2.0], dtype=torch.float32, requires_grad=True)
e = torch.tensor(0.25, dtype=torch.float64, requires_grad=True)
lr = 0.1
k = 3
for t in range(6):
    loss = (a * b + d * 4.0 + (v * a).sum() + e * 3).sum()
    loss.backward()
    with torch.no_grad():
        a -= lr * a.grad
        b += 2 * b.grad
        d -= 1e38 * d.grad
        e *= -0.5 * e.grad
        v -= k * v.grad
        lr -= 0.01
        b -= lr * b.grad
        a.grad = None
        b.grad.zero_()
        d.grad = None
        v.grad = None
        e.grad = None
print(a, b, d, v, e, lr, a.grad, b.grad, loss)
""",
    # w.grad is None at the step: the statement's own error, in its place
    "update_without_grad": """a = torch.tensor(0.5, requires_grad=True)
c = torch.tensor(1.0, requires_grad=True)
(c * 2).backward()
for t in range(4):
    loss = a * 3
    loss.backward()
    with torch.no_grad():
        a -= 0.1 * a.grad
        c -= 0.1 * c.grad
        c.grad = None
print(a)
""",
}
# an `if` that holds runs its iteration as compiled without binding the names replayed
# iterations made first (Run._assigned_first): the body's first statements assign them
ASSIGNED_FIRST = {
    "if_rebinds_a_made_name": """w = torch.tensor([0.5, -1.0], requires_grad=True)
kept = []
for t in range(9):
    y = w * 3
    loss = (y * y).sum()
    if t % 4 == 1:
        kept.append((loss, y))
        print(t, loss, y.grad_fn.next_functions)
        loss = None
        y = w
    if t == 100:
        print("never")
print(t, loss, y)
for l, v in kept:
    print(l, v, l.grad_fn.next_functions[0][0].next_functions)
""",
    "if_on_the_last_iteration": """w = torch.tensor([0.5, -1.0], requires_grad=True)
for t in range(6):
    y_pred = w * 2 + 1
    loss = (y_pred - 3).pow(2).sum()
    if t == 5:
        print(graph(loss, values=true))
    loss.backward()
    with torch.no_grad():
        w -= 0.1 * w.grad
        w.grad = None
print(loss, y_pred, w, graph(loss, values=true))
""",
    "one_leaf_summed_twice": """w = torch.tensor(0.5, dtype=torch.float32, requires_grad=True)
x = torch.linspace(-1, 1, 2000, dtype=torch.float32)
for t in range(6):
    y = w * x + w * x ** 2 + w
    loss = y.sum()
    if t == 3:
        print(loss)
    loss.backward()
print(loss, w.grad)
""",
    "if_before_the_assignments": """w = torch.tensor([0.5, -1.0], requires_grad=True)
loss = None
for t in range(7):
    if t % 3 == 2:
        print(t, loss)
    y = w * 3
    loss = (y * y).sum()
    loss.backward()
print(loss, w.grad)
""",
}
PROGRAMS["number_only_operands"] = """
a = torch.tensor(0.7, dtype=torch.float32, requires_grad=True)
b = torch.linspace(-1, 1, 5, dtype=torch.float32).requires_grad_()
for t in range(7):
    p = ((((a + a) + (a).sin()) + ((2.5 + 2.5) + (2.5 + 2.5)))) * b
    q = (p * p).sum()
    q.backward()
print(p, q, a, b, a.grad, b.grad)
"""
PROGRAMS.update(REVIEWED)
PROGRAMS.update(REVIEWED5)
PROGRAMS.update(ASSIGNED_FIRST)


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_replayed_loops_print_what_compiled_loops_print(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    if name not in REVIEWED:
        assert off.returncode == (
            1 if name in ("version_error", "if_changes_a_saved_input") else 0
        ), off.stderr


def test_the_step_limit_stops_a_replayed_loop_where_it_stops_a_compiled_one():
    on, off = replay_both(PROGRAMS["numbers_and_limit"], "--max-steps", "20")
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert "max-steps" in on.stderr


@pytest.mark.parametrize(
    "name,least",
    [
        ("tutorial32", 240),
        ("two_by_two", 25),
        ("function_and_else", 40),
        ("rebound_mid_loop", 4),
        ("saved_after_reused_shadows", 5),
        ("negative_zero_number", 1),
        ("hoisted_input_changes", 4),
        ("hoisted_value_changed", 4),
        ("update_steps", 4),
        ("taken_steps", 8),
        ("taken_steps_overflow", 4),
        ("update_without_grad", 1),
        ("deferred_reductions", 4),
        ("number_only_operands", 4),  # (10.0 made of number-only parts: a constant)
    ],
)
def test_the_loops_are_replayed(name, least, monkeypatch):
    """The comparisons above are not vacuous: these loops do replay."""
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least


def test_an_if_that_holds_replays_the_statements_around_it(monkeypatch):
    """The tutorial's `print` every 100 iterations: its iteration replays the statements
    before the `if`, binds the names they made (which the `if` reads), runs the `if` as
    compiled and replays the backward and the steps after it (Run._guarded); the set
    it handed over is used again once the program let go of those names' values."""
    count = {"assigned_first": 0, "guarded": 0, "lent": 0, "sets": 0}
    real = replay.Run._assigned_first

    def assigned_first(self):
        count["assigned_first"] += 1
        return real(self)

    real_guarded = replay._guarded

    def guarded(run, plan):
        r = real_guarded(run, plan)
        count["guarded"] += r is not replay._STALE
        return r

    real_reusable = replay.reusable

    def reusable(sets, known=None):
        got = real_reusable(sets, known)
        count["lent"] += got
        return got

    real_sets = replay_plan.Plan.sets

    def sets(self):
        count["sets"] += 1
        return real_sets(self)

    monkeypatch.setattr(replay.Run, "_assigned_first", assigned_first)
    monkeypatch.setattr(replay, "_guarded", guarded)
    monkeypatch.setattr(replay, "reusable", reusable)
    monkeypatch.setattr(replay_plan.Plan, "sets", sets)
    run_inprocess(PROGRAMS["tutorial32"])
    # (the last iteration, 1999, prints too: its set is the program's after the loop)
    assert count == {"assigned_first": 0, "guarded": 20, "lent": 19, "sets": 2}


def test_a_failed_first_assignment_binds_the_names_it_did_not_assign(monkeypatch):
    """An error in one of the first statements of an iteration whose `if` holds: the
    names assigned before it have their new values, the others the replayed ones."""
    from gradcli.runtime.errors import GradRuntimeError

    real_init = replay.Body.__init__

    def init(self, items, targets):
        def failing(closure):
            def run(s):
                if s.vars.get("t") == 5:
                    raise GradRuntimeError("boom")
                return closure(s)

            return run

        items = tuple(
            (k, w, failing(c) if k == "assign" and w == "loss" else c, e, l, col)
            for k, w, c, e, l, col in items
        )
        real_init(self, items, targets)

    monkeypatch.setattr(replay.Body, "__init__", init)
    source = """w = torch.tensor([0.5, -1.0], requires_grad=True)
try:
    for t in range(8):
        y = w * 3
        loss = (y * y).sum()
        if t % 5 == 0:
            print(t, loss)
        z = y * 2  # (an assignment after the `if`: the iteration as compiled)
        loss.backward()
        with torch.no_grad():
            w -= 0.01 * w.grad
except RuntimeError as e:
    print("error", e)
print(t, y, loss, loss.grad_fn.next_functions, w.grad)
"""
    calls = [0]
    real = replay.Run._assigned_first

    def counted(self):
        calls[0] += 1
        return real(self)

    monkeypatch.setattr(replay.Run, "_assigned_first", counted)
    on, off = replay_both(source)
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert "error boom" in on.stdout and calls[0] == 1
    # the loss bound after the error was made before this iteration's y: its nodes and
    # its Tensor have the lower creation numbers (the backward's order), as compiled
    from conftest import Run

    r = Run(source)
    y, loss = r.value("y"), r.value("loss")
    assert calls[0] == 2 and r.error is None
    assert loss.grad_fn.seq < y.grad_fn.seq and loss.seq < y.seq
    assert loss.grad_fn.parents[0].seq < loss.grad_fn.seq


def test_the_steps_of_a_no_grad_block_are_replayed(monkeypatch):
    """The tutorial's four steps `a -= learning_rate * a.grad` run as replayed steps, on
    the gradients the backward before them took as numbers (replay_steps.taken)."""
    count = {"step_by": 0, "step_value": 0}
    for name in count:
        real = getattr(replay_steps, name)

        def counted(*args, _real=real, _name=name):
            count[_name] += 1
            return _real(*args)

        monkeypatch.setattr(replay_steps, name, counted)
    run_inprocess(PROGRAMS["tutorial32"])
    assert count["step_value"] >= 4 * 1900
    assert count["step_by"] > 0  # (before the backward function is made: iterations 1-4)


def test_the_steps_take_the_gradients_only_of_the_leaves_they_clear(monkeypatch):
    """A backward followed by 0-d steps that clear the .grad of exactly the leaves it
    reaches gives them its gradients as numbers (replay_steps.taken), a step that cannot use
    them (an overflow) after storing them; a leaf whose .grad stays keeps the pass as it
    was (taken_steps_float64: `w`)."""
    taken = []
    real = engine_replay.backward_taking

    def counted(*args):
        got = real(*args)
        taken.append(got is not None)
        return got

    monkeypatch.setattr(engine_replay, "backward_taking", counted)
    for name, least in (("taken_steps", 5), ("taken_steps_overflow", 3)):
        taken.clear()
        run_inprocess(PROGRAMS[name])
        assert sum(taken) >= least, name
    taken.clear()
    run_inprocess(PROGRAMS["taken_steps_float64"])
    assert not any(taken)


def test_a_loss_only_backward_reads_is_made_when_seen(monkeypatch):
    """The tutorial's loss (a sum) and the 2x2 loop's mean are deferred (replay.Deferred)
    in the replayed iterations after each set of shadows' first."""
    made = [0]

    class Counted(replay.Deferred):
        __slots__ = ()

        def __init__(self, *args):
            made[0] += 1
            super().__init__(*args)

    monkeypatch.setattr(replay, "Deferred", Counted)
    run_inprocess(PROGRAMS["tutorial32"])
    assert made[0] >= 1900
    made[0] = 0
    run_inprocess(PROGRAMS["two_by_two"])
    assert made[0] >= 25


# random training loops: an expression of leaves and constants, a loss, backward, an
# update, sometimes an `if` that prints
_LEAVES = ("a", "b")  # a 0-d leaf, a (5,) leaf
_CONSTS = ("x", "2.5", "3")
_UNARY = (
    "({}).sin()",
    "({}).exp()",
    "(({}) ** 2)",
    "torch.tanh({})",
    "(-({}))",
    "({}).abs()",
    "(({}) ** 3)",
    "({}).pow(2.5)",
)
_BINARY = ("({} + {})", "({} - {})", "({} * {})", "({} / {})")


@st.composite
def _expr(draw, depth=0):
    if depth > 2 or draw(st.booleans()) and depth:
        return draw(st.sampled_from(_LEAVES + _CONSTS))
    if draw(st.booleans()):
        inner = draw(_expr(depth + 1))
        if not re.search(r"\b[abx]\b", inner):  # (a number has no .sin())
            inner = f"x * {inner}"
        return draw(st.sampled_from(_UNARY)).format(inner)
    return draw(st.sampled_from(_BINARY)).format(draw(_expr(depth + 1)), draw(_expr(depth + 1)))


@st.composite
def _program(draw):
    e = draw(_expr())
    if not re.search(r"\ba\b", e):  # both leaves get gradients (the update reads them)
        e = f"({e}) + a"
    if not re.search(r"\bb\b", e):
        e = f"({e}) * b"
    reduce = draw(st.sampled_from(("sum", "mean")))
    show = draw(st.booleans())
    update = draw(st.booleans())
    dtype = draw(st.sampled_from(("float32", "float64")))
    body = [f"    p = {e}", f"    q = (p * p).{reduce}()"]
    if show:
        body.append("    if t % 3 == 1:\n        print(t, q.item())")
    body.append("    q.backward()")
    if update:
        body.append(
            "    with torch.no_grad():\n        a -= 0.01 * a.grad\n        b -= 0.01 * b.grad\n"
            "        a.grad = None\n        b.grad = None"
        )
    return (
        f"a = torch.tensor(0.7, dtype=torch.{dtype}, requires_grad=True)\n"
        f"b = torch.linspace(-1, 1, 5, dtype=torch.{dtype}).requires_grad_()\n"
        f"x = torch.linspace(0.5, 2, 5, dtype=torch.{dtype})\n"
        "for t in range(7):\n" + "\n".join(body) + "\n"
        "print(p, q, a, b, a.grad, b.grad)\n"
    )


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(_program())
def test_random_training_loops_replay_as_compiled(source):
    count = [0]
    real = replay.Run._replay

    def counted(self, plan):
        count[0] += 1
        return real(self, plan)

    replay.Run._replay = counted
    try:
        on, off = replay_both(source)
    finally:
        replay.Run._replay = real
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert count[0] >= 4  # (7 iterations: 1 noted, those whose `if` holds compiled)


@pytest.mark.parametrize(
    "body",
    [
        "    out = torch.mean(3 * (x + 2) ** 2)\n    out.backward()\n",
        "    out = torch.mean(3 * (x + 2) ** 2)\n",
        "    out = ((((x * 2) * 3) * 4) * 5).sum()\n",  # (each value let go after its op)
        "    out = ((((w + x) * 3) * 4) * 5).sum()\n    out.backward()\n",
        # (the sum's argument let go before backward, as compiled)
        "    out = ((w + x) * (w + x)).sum()\n    out.backward()\n",
        "    out = (w * (x * 2)).sum()\n    out.backward()\n",
    ],
)
def test_a_replayed_loop_holds_no_more_memory(body):
    """Peak memory (NumPy's allocations, traced) as the compiled loop's: the recorder
    holds values weakly, an intermediate no later statement reads is let go when its
    statement ends, the plan keeps no node of the noted iteration."""
    import io
    import tracemalloc

    from gradcli.runtime import context
    from gradcli.output import TextOutput
    from gradcli.session import Session

    src = (
        "x = torch.ones(1000000, requires_grad=True)\nw = torch.ones(1, requires_grad=True)\n"
        "for i in range(6):\n" + body
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
