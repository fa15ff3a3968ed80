"""The compiled call sites give exactly what the general paths give:
calls with only positional arguments (language/callsites.py), the fused step
`x -= a * b` (language/updates.py, library/inplace.scaled_step) and the inlined
`with no_grad` block.  Each program runs twice, once as compiled and once with the
shortcut turned off at compile time, and the outputs and errors (type, message,
line, column, hint, call chain) must be the same; the kernels are compared bit for
bit with the two steps they replace."""

from __future__ import annotations

import contextlib
import io
import math
import sys

import numpy as np
import pytest

from conftest import load_golden
from gradcli.runtime import context
from gradcli.runtime.errors import GradError
from gradcli.core.tensor import Tensor
from gradcli.engine import versions
from gradcli.language import calls as calls_mod
from gradcli.engine import observe
from gradcli.language import compiler as compiler_mod
from gradcli.language import control as control_mod
from gradcli.language import expressions as expressions_mod
from gradcli.language.functions import Signature
from gradcli.language.positions import pos
from gradcli.language import statements as statements_mod
from gradcli.language.runtime import binary_op
from gradcli.library.inplace import AUGMENTED
from gradcli.library.scalar_steps import SCALED_STEPS, scaled_step
from gradcli.library.values import GradModeContext
from gradcli.output import TextOutput
from gradcli.session import Session, reset_globals


def _run(source):
    """(output, error, warnings) of a program run as the command line runs it (with
    the command line's recursion limit, so --max-depth, not Python, stops recursion)."""
    limit = sys.getrecursionlimit()
    sys.setrecursionlimit(max(limit, 20000))
    try:
        return _run_session(source)
    finally:
        sys.setrecursionlimit(limit)


def _run_session(source):
    reset_globals()
    stream = io.StringIO()
    session = Session(TextOutput(stream), filename="<test>")
    err = None
    with contextlib.redirect_stderr(io.StringIO()) as warned:
        try:
            session.run(source)
        except GradError as e:
            err = (
                e.type_name,
                e.message,
                e.line,
                e.column,
                e.hint,
                [c[1:4] for c in (e.calls or [])],
            )
    reset_globals()
    return stream.getvalue(), err, warned.getvalue()


def _wrapped_statement(self, node):
    """Compiler.small as it was: the statement compiled without its place (so as the
    general closure), wrapped in one that sets the line and places its errors."""
    return compiler_mod.placed(getattr(self, "s_" + node.data)(node), *pos(node))


def _with_protocol(ctx, fn, arg):
    with ctx:
        return fn(arg)


@contextlib.contextmanager
def _general_paths():
    """Compile with every shortcut of this file off: calls through the general
    argument closures and `call`, `x op= a * b` as the product then op=, `with
    no_grad` through the context manager protocol, operators on numbers through the
    operator's function (fastops.py), each simple statement in Compiler.small's
    wrapper (stmtlines.py), `if` through its general closure, every call's arguments
    bound by Signature.bind's general rule, and `backward` through run_backward's
    general loop (a tracer that does nothing is set: not _plain_root/_pass)."""
    mp = pytest.MonkeyPatch()
    plain_args = calls_mod.Calls._arguments

    def general_arguments(self, node):
        args, kw = plain_args(self, node)
        if hasattr(args, "plain"):
            args.plain = None
        return args, kw

    mp.setattr(calls_mod.Calls, "_arguments", general_arguments)
    mp.setattr(statements_mod, "product", lambda compiler, value: (compiler.expr(value), None))
    mp.setattr(GradModeContext, "run", _with_protocol)
    mp.setattr(expressions_mod, "specialize", lambda *args: None)
    mp.setattr(statements_mod, "int_step", lambda *args: None)
    mp.setattr(compiler_mod.Compiler, "small", _wrapped_statement)
    mp.setattr(control_mod, "ONE_TEST", False)
    plain_init = Signature.__init__

    def general_signature(self, *args, **kw):
        plain_init(self, *args, **kw)
        self.plain = False

    mp.setattr(Signature, "__init__", general_signature)
    # a tracer that does nothing: out.backward() through run_backward's general loop,
    # not _plain_root/_pass
    mp.setattr(observe, "TRACER", lambda node, g, in_grads: None)
    try:
        yield
    finally:
        mp.undo()


def _same_both_ways(source):
    fast = _run(source)
    with _general_paths():
        general = _run(source)
    assert fast == general, source
    return fast


PROGRAMS = [
    # tensor methods with 0, 1, 2 and more positional arguments; results and errors
    "x = tensor([1., 2., 3.], requires_grad=true)\ny = x.sum()\ny\ny.backward()\nx.grad",
    "x = tensor([[1., 2.], [3., 4.]])\nx.pow(2)\nx.sum(0)\nx.sum(1, true)\nx.mean(0, true)",
    "x = tensor([[1., 2.], [3., 4.]])\nx.transpose(0, 1)\nx.reshape(4)\nx.view(1, 4)\nx.permute(1, 0)",
    "x = tensor([1., 2.])\nx.item()",
    "x = tensor(2.)\nx.item()\nx.dim()\nx.numel()\nx.size()",
    "x = tensor([1., 2.])\nx.sum(1, 2, 3, 4, 5)",
    "x = tensor([1., 2.])\nx.pow('a')",
    "x = tensor([1., 2.])\nx.sum(5)",
    "x = tensor([1., 2.])\nx.nosuchmethod()",
    "x = tensor([1., 2.])\nx.nosuchmethod(1)",
    "x = tensor([1., 2.])\nx.grad()",
    "x = tensor([1., 2.])\nx.shape(1)",
    "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\ny.backward()",
    "x = tensor([1., 2.], requires_grad=true)\n(x * 2).backward()",
    "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\nbackward(y)",
    "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\ny.backward(ones_like(y))\nx.grad",
    "x = tensor([1., 2.], requires_grad=true)\ny = (x * x).sum()\ny.backward()\ny.backward()",
    "x = tensor(1., requires_grad=true)\nx.add_(1)",
    "x = tensor([1., 2.])\nx.add_(1)\nx.mul_(3)\nx",
    "x = tensor([1., 2.])\nx.clamp(0, 1.5)\nx.clamp(1.5)",
    # other receivers: lists, strings, dicts, modules, classes, none, numbers
    "a = [3, 1, 2]\na.append(4)\na.sort()\na\na.index(2)\na.pop()\na.pop(0)\na",
    "a = [1]\na.index(7)",
    "'abc'.upper()\n'a,b'.split(',')\n'x'.join(['1', '2'])\n'abc'.nosuch()",
    "d = {'a': 1}\nd.get('a')\nd.get('b', 2)\nd.keys()\nd.items()",
    "torch.no_grad()\ntorch.ones(2)\ntorch.zeros(2, 3)\ntorch.manual_seed(1)\ntorch.randn(2)",
    "torch.nosuch()",
    "torch.ones(2, 2).sum()",
    "none.foo()",
    "q = 3\nq.foo()",
    "(2.5).is_integer()",
    "class C:\n    def __init__(self, v):\n        self.v = v\n    def get(self):\n        return self.v\n"
    "    def add(self, w):\n        return self.v + w\nc = C(2)\nc.get()\nc.add(3)\nc.add()\nC.get(c)",
    "class C:\n    def m(self):\n        return 1 / tensor([1.]).foo()\nC().m()",
    "class C:\n    def m(self, a, b):\n        return a + b\nC().m(1, 2)\nC().m(1)",
    # functions: built-ins, user functions, lambdas, values that are not callable
    "x = tensor([1., 2., 3.])\nmean(x)\nsum(x)\nsum([1, 2, 3])\nsum([1, 2], 3)\nmax(x)\nmax(2, 3)",
    "abs(-2)\nabs(tensor([-1., 2.]))\nround(2.567, 2)\nmin([3, 1])\nlen([1, 2])\nlen(tensor([1., 2.]))",
    "mean(tensor([1, 2]))",
    "mean(1, 2, 3, 4, 5)",
    "mean()",
    "exp()",
    "exp(1, 2)",
    "len(3)",
    "range(1, 2, 3, 4)",
    "sum(['a'])",
    "sum('ab')",
    "q = 3\nq(1)",
    "q = [1]\nq(1, 2)",
    "def f(a, b):\n    return a * b\nf(2, 3)\nf(2)\nf(1, 2, 3)",
    "def f(a):\n    return a / tensor([1.]).nope()\nf(1)",
    "def f(a):\n    return g(a)\ndef g(a):\n    return a.nope()\nf(tensor(1.))",
    "f = lambda a, b: a - b\nf(5, 2)\nf(5)",
    "print(1, 2)\nprint(tensor([1., 2.]))\nprint()",
    "f = exp\nf(tensor(0.))\ng = print\ng('hi')",
    "class C:\n    pass\nC()\nC(1)",
    "int('3')\nfloat('2.5')\nstr(3)\nbool(0)\nlist((1, 2))\ntuple([1])\nint('x')",
    "f = no_grad\nf()",
    "x = tensor([1., 2.])\nw = x.sum\nw()\nw(0)",
    # functions of the program: each way of giving and missing arguments
    "def f(a, b=2, *r, k=3, **kw):\n    return a, b, r, k, kw\nf(1)\nf(1, 5)\nf(1, 5, 6, 7)\n"
    "f(1, k=4, z=5)\nf()",
    "def f(a, b=2):\n    return a + b\nf(1)\nf(1, 2)\nf(1, 2, 3)",
    "def f(a, *, k):\n    return a\nf(1)",
    "def f(a, *, k):\n    return a\nf(1, 2)",
    "def f():\n    return 7\nf()\nf(1)",
    "def f(a):\n    pass\nprint(f(1))\ndef g(a):\n    return\nprint(g(1))",
    "def f(n):\n    if n == 0:\n        return 0\n    return 1 + f(n - 1)\nf(50)",
    "def f(n):\n    return f(n + 1)\nf(0)",
    "def f(n):\n    return 1 / tensor([1.]).nope(n)\ndef g(n):\n    return f(n)\ng(1)",
    "def make(k):\n    def add(v):\n        return v + k\n    return add\nadd = make(3)\nadd(4)\nadd(4, 5)",
    "def g(n):\n    for i in range(n):\n        yield i\n    return 5\nlist(g(3))\ng(1, 2)",
    "class C:\n    def m(self, v):\n        return v * 2\n    def n(self):\n        return self.m(3)\n"
    "c = C()\nc.m(1)\nc.n()\nc.m()\nc.n(1)",
    "f = lambda v, w=1: v * w\nf(2)\nf(2, 3)\nf()\nf(1, 2, 3)",
    "@torch.no_grad()\ndef f(x):\n    return x * 2\nf(tensor(1., requires_grad=true)).requires_grad",
    "x = tensor(2., requires_grad=true)\ndef model(v):\n    return v * v\nfor i in range(3):\n"
    "    loss = model(x)\n    loss.backward()\nx.grad",
    # vmap: built-ins meeting batched tensors go through their batching rules
    "x = tensor([[1., 2.], [3., 4.]])\nvmap(lambda t: t.sum())(x)\nvmap(lambda t: mean(t))(x)"
    "\nvmap(lambda t: t.pow(2))(x)\nvmap(lambda t: exp(t))(x)",
    "x = tensor([[1., 2.], [3., 4.]])\nvmap(lambda t: t.item())(x)",
    # with no_grad / enable_grad
    "x = tensor(1., requires_grad=true)\nwith torch.no_grad():\n    y = x * 2\ny.requires_grad\n"
    "with no_grad:\n    with enable_grad:\n        z = x * 2\nz.requires_grad\nis_grad_enabled()",
    "x = tensor(1., requires_grad=true)\nwith torch.no_grad():\n    y = x * 2\n    y.nosuch()\n"
    "is_grad_enabled()",
    "with torch.no_grad() as g:\n    print(g)\nis_grad_enabled()",
    "def f():\n    with no_grad:\n        return is_grad_enabled()\nf()\nis_grad_enabled()",
    "for i in range(3):\n    with no_grad:\n        if i == 1:\n            continue\n        if i == 2:\n"
    "            break\n    print(i, is_grad_enabled())\nis_grad_enabled()",
    "with 3:\n    pass",
    "try:\n    with no_grad:\n        1 / tensor(1.).nope()\nexcept AttributeError as e:\n    print(e)\n"
    "is_grad_enabled()\ntry:\n    with enable_grad:\n        with no_grad:\n            raise ValueError('v')\n"
    "except ValueError:\n    print(is_grad_enabled())\nis_grad_enabled()",
    # the training loop's update, and every case beside it
    "a = tensor(1.5, requires_grad=true)\n(a * 3).backward()\nlr = 0.1\nwith torch.no_grad():\n"
    "    a -= lr * a.grad\n    a += a.grad * lr\n    a *= 0.5 * a.grad\na\na.grad",
    "torch.manual_seed(0)\nw = randn((), dtype=torch.float32, requires_grad=true)\n"
    "x = linspace(-1, 1, 50, dtype=torch.float32)\nfor t in range(20):\n"
    "    loss = (w * x - x).pow(2).sum()\n    loss.backward()\n    with torch.no_grad():\n"
    "        w -= 1e-2 * w.grad\n        w.grad = None\nw\nloss",
    "a = tensor(1.5, requires_grad=true)\nwith torch.no_grad():\n    a -= 0.1 * a.grad",
    "a = tensor(1.5, requires_grad=true)\ng = tensor(2.)\na -= 0.1 * g",
    "a = tensor(1.5)\ng = tensor(2., dtype=torch.float32)\nwith no_grad:\n    a -= 0.1 * g\na\na.dtype",
    "a = tensor(1.5, dtype=torch.float32)\ng = tensor(2.)\nwith no_grad:\n    a -= 0.1 * g\na\na.dtype",
    "a = tensor([1., 2.])\nwith no_grad:\n    a -= 0.1 * tensor([1., 2.])\n    a -= tensor(3.) * 2\na",
    "a = tensor(1.)\nwith no_grad:\n    a -= 0.1 * tensor([1., 2.])",
    "a = tensor(1.)\nwith no_grad:\n    a -= 'x' * tensor(2.)",
    "a = tensor(1.)\nwith no_grad:\n    a -= nope * tensor(2.)",
    "a = tensor(1.)\nwith no_grad:\n    a -= 2 * nope",
    "a = tensor(1., dtype=torch.float32)\nwith no_grad:\n    a -= 1e300 * tensor(1e30, dtype=torch.float32)\na",
    "a = tensor(1., dtype=torch.float32)\nwith no_grad:\n    a -= 1e30 * tensor(1e30, dtype=torch.float32)\na",
    "a = tensor(1.)\nwith no_grad:\n    a -= nan * tensor(2.)\n    a\n    b = tensor(1.)\n    b += inf * tensor(2.)\nb",
    "a = tensor(1)\nwith no_grad:\n    a -= 2 * tensor(3)\n    a += 2 * tensor(3.)\na",
    "a = tensor(1.)\nwith no_grad:\n    a -= true * tensor(3.)\n    a -= tensor(3.) * tensor(2.)\n"
    "    a -= tensor(3.) * tensor(2., dtype=torch.float32)\n    a -= 2 ** 60 * tensor(3.)\na",
    "a = 1.0\na -= 2 * 3\na\nb = [1]\nb *= 2 * 1\nb\nc = 'x'\nc += 2 * 'y'\nc",
    "a = 1.0\na -= 2 * 'x'",
    "a = tensor(1.)\nb = a[()]\nwith no_grad:\n    b -= 0.5 * tensor(2.)\na\nb",
    "a = tensor([1., 2.])\nb = a[0]\nwith no_grad:\n    b -= 0.5 * tensor(2.)\na",
    "a = tensor(1.)\nd = a.detach()\nwith no_grad:\n    d -= 0.5 * tensor(2.)\na",
    "x = tensor(2., requires_grad=true)\ny = x * 1\nz = y * y\nwith no_grad:\n    y -= 0.5 * tensor(2.)\n"
    "z.backward()",
    "class P:\n    def __init__(self):\n        self.w = tensor(1.)\np = P()\nwith no_grad:\n"
    "    p.w -= 0.5 * tensor(2.)\np.w",
    "a = [tensor(1.)]\nwith no_grad:\n    a[0] -= 0.5 * tensor(2.)\na",
    "a = tensor(1.)\nwith no_grad:\n    a /= 2 * tensor(3.)\n    a //= 2 * tensor(3.)\n    a **= 2 * tensor(1.)\na",
    "x = tensor(1.)\nwith torch.autograd.forward_ad.dual_level():\n"
    "    d = torch.autograd.forward_ad.make_dual(tensor(2.), tensor(1.))\n    with no_grad:\n"
    "        x -= 0.5 * d\nx",
]


OPERATORS = [
    # comparisons of numbers and of everything else, each kind of operand on each side
    "vals = [0, 1, -1, 2.5, -0.0, 1e308, nan, inf, true, false, 2 ** 70, tensor(1.), tensor([1., 2.]),"
    " 'a', [1], none, (1,)]\nfor a in vals:\n    for b in vals:\n        for f in [lambda a, b: a < b,"
    " lambda a, b: a <= b, lambda a, b: a > b, lambda a, b: a >= b, lambda a, b: a == b,"
    " lambda a, b: a != b]:\n            try:\n                print(f(a, b))\n"
    "            except Exception as e:\n                print(type(e), e)",
    "t = 5\nt < 3\nt < 3.5\nt == 5\nt != 5.0\n3 < t\nt < tensor(7.)\nt < true\n1 < 2 < 3\n"
    "1 < t > 3\nt is 5\nt in [5]",
    "n = 10\ni = 0\nwhile i < n:\n    i += 1\ni",
    "none < 1",
    "x = 'a'\ny = x < 1",
    "x = tensor([1., 2.])\nif x < 3:\n    pass",
    "x = [1]\nx <= 'a'",
    # a tensor and a number literal under + - * / ** ^ (either side), each kind of tensor
    "for x in [tensor(2.), tensor([1., -2.]), tensor(1.5, dtype=torch.float32), tensor([3, 4]), "
    "tensor(true), tensor([[1., 2.]], requires_grad=true), 2, 2.5, true, [1.], 'a', none]:\n"
    "    for f in [lambda: x + 2, lambda: x - 2.5, lambda: x * 3, lambda: x / 2, lambda: x ** 2, "
    "lambda: x ^ 3, lambda: x ** 0.5, lambda: 2 + x, lambda: 2.5 * x, lambda: 3 - x, "
    "lambda: 1 / x, lambda: 2 ** x, lambda: x * 1e300, lambda: x * 2 ** 70, lambda: x + true]:\n"
    "        try:\n            r = f()\n            print(r, type(r))\n"
    "            if type(r) == type(tensor(1.)):\n                print(r.dtype, r.grad_fn)\n"
    "        except Exception as e:\n            print(type(e), e)",
    "x = tensor([1., 2.])\nx / 0\nx ** -1\nx * nan\nx + inf",
    "x = tensor([1., 2.])\ny = x * 'a'",
    "x = [1.]\ny = 2 * x",
    "x = tensor(1., requires_grad=true)\ny = 3 * (x + 2) ^ 2\ny.backward()\nx.grad\ny.grad_fn",
    "x = tensor(1., requires_grad=true)\ny = x\ni = 0\nwhile i < 50:\n    y = y * 1.00001\n"
    "    i += 1\ny.backward()\nx.grad\ny",
    "x = tensor([[1., 2.], [3., 4.]])\nvmap(lambda t: t * 2 + 1)(x)\nvmap(lambda t: 2 * t ** 2)(x)",
    "x = tensor(1.)\nwith torch.autograd.forward_ad.dual_level():\n"
    "    d = torch.autograd.forward_ad.make_dual(tensor(2.), tensor(1.))\n    y = d * 3 + 1\n"
    "    print(torch.autograd.forward_ad.unpack_dual(y))",
    # int % and // by literals
    "for t in [0, 1, 99, 199, -1, -101, 2 ** 80 + 99, 7.5, -0.0, nan, inf, true, tensor(199), "
    "tensor(199.), tensor([1, 199])]:\n    print(t % 100, t // 100, t % -7, t // -7, t % 1.5)",
    "t = 5\nt % 0",
    "t = 5\nt // 0",
    "t = 5.\nt % 0\nt // 0",
    "t = 'a%s'\nt % 2",
    "t = [1]\nt // 2",
    "t = none\nt % 2",
    # i += k
    "i = 0\ni += 1\ni -= 5\ni\ni = 2 ** 31 - 1\ni += 1\ni\ni = -2 ** 31 + 1\ni -= 1\ni\n"
    "i = 2 ** 80\ni += 1\ni -= 3\ni",
    "i = 2.5\ni += 1\ni\nb = true\nb += 1\nb\nx = tensor(1.)\nx += 1\nx\ny = tensor([1, 2])\n"
    "y -= 1\ny\nl = [1]\nl += [2]\nl",
    "i = 0\ni += 2 ** 31\ni\ni -= 2 ** 40\ni\ni *= 3\ni",
    "s = 'a'\ns += 1",
    "l = [1]\nl -= 1",
    "q += 1",
    "def f():\n    k += 1\nf()",
    "k = 3\ndef f():\n    global k\n    k += 1\n    return k\nf()\nk",
    "def f():\n    k = 0\n    def g():\n        nonlocal k\n        k += 2\n    g()\n    g()\n    return k\nf()",
    "x = tensor(1., requires_grad=true)\nx += 1",
    # if / while / for with each kind of condition and of leaving the body
    "for c in [0, 1, 0.0, -0.0, nan, '', 'a', [], [0], none, true, tensor(0.), tensor([2.]), (), "
    "{}]:\n    if c:\n        print('yes')\n    if c:\n        print('y2')\n    else:\n        print('no')\n"
    "    if c:\n        pass\n    elif 1:\n        print('elif')",
    "x = tensor([1., 2.])\nif x:\n    pass",
    "if nope:\n    pass",
    "if 1:\n    nope",
    "def f(n):\n    i = 0\n    while true:\n        i += 1\n        if i > n:\n            return i\n"
    "        if i % 2:\n            continue\nf(5)",
    "i = 0\nwhile i < 10:\n    i += 1\n    if i == 3:\n        break\nelse:\n    print('else')\ni\n"
    "while i < 5:\n    i += 1\nelse:\n    print('else', i)",
    "for i in range(5):\n    if i == 1:\n        continue\n    if i == 3:\n        break\n    print(i)\n"
    "else:\n    print('else')\nfor i in range(2):\n    pass\nelse:\n    print('else', i)",
    "def f():\n    for i in range(5):\n        for j in range(5):\n            if j == 2:\n"
    "                break\n            if i == 3:\n                return i, j\nf()",
    "while tensor([1., 2.]):\n    pass",
    "i = 0\nwhile i:\n    pass\nwhile 'x' < 1:\n    pass",
    "def g():\n    i = 0\n    while i < 3:\n        yield i\n        i += 1\nlist(g())",
    # errors that only the statement places (a ** argument that is not a mapping)
    "q = print(**3)",
    "print(**3)",
    "for i in range(1):\n    q = print(**3)",
    "for i in range(1):\n    print(**3)",
    "def f():\n    q = print(**3)\nf()",
    "def f():\n    print(**3)\nf()",
    "x = tensor(1.)\nfor i in range(1):\n    x.grad = print(**3)",
    "t = 0\nfor i in range(1):\n    t += print(**3)",
    "x = tensor(1.)\nwith no_grad:\n    x -= print(**3) * 2",
    "x = tensor(1.)\nx.foo = 3",
    "x = tensor(1.)\nfor i in range(2):\n    x.requires_grad = 'a'",
]


@pytest.mark.parametrize("source", OPERATORS)
def test_operators_the_same_as_the_general_path(source):
    _same_both_ways(source)


@pytest.mark.parametrize("source", PROGRAMS)
def test_the_same_as_the_general_path(source):
    _same_both_ways(source)


def test_the_cases_change_nothing_in_an_error():
    """Errors of the shortcuts keep their places: a spot check of what is compared."""
    out, err, _ = _same_both_ways("x = tensor([1., 2.])\nx.sum(5)")
    assert err[0] == "IndexError" and err[2:4] == (2, 3)
    out, err, _ = _same_both_ways("a = tensor(1.)\nwith no_grad:\n    a -= 'x' * tensor(2.)")
    assert err[2:4] == (3, 14), err
    out, err, _ = _same_both_ways(
        "x = tensor([1., 2.], requires_grad=true)\ny = x * 2\ny.backward()"
    )
    assert "y.sum().backward()" in err[4]


GOLDEN = ["language.json", "inplace.json", "transforms.json", "reliability.json"]


@pytest.mark.parametrize("golden", GOLDEN)
def test_golden_programs_the_same_as_the_general_path(golden):
    for name, case in load_golden(golden).items():
        _same_both_ways(case["source"])


# ---------------------------------------------------------------- the fused step


def _values():
    rng = np.random.default_rng(16)
    special = [
        0.0,
        -0.0,
        1.0,
        -2.5,
        1e-40,
        -1e-45,
        1.4e-45,
        3.4028234663852886e38,
        -3.4e38,
        1e-38,
        0.1,
        1 / 3,
        2.0**24 + 1,
        1e300,
        -1e-300,
        5e-324,
        math.inf,
        -math.inf,
        math.nan,
    ]
    return special + (rng.standard_normal(30) * 10.0 ** rng.integers(-40, 38, 30)).tolist()


NUMBERS = [
    0.1,
    -0.0,
    1e-6,
    3,
    -7,
    2**30 + 1,
    2**53,
    2**53 + 1,
    1e30,
    1e39,
    math.inf,
    math.nan,
    True,
    123456789.123,
]


def _general_step(op, x, a, b):
    """x op= a * b as the language computes it without the shortcut."""
    return AUGMENTED[op](x, binary_op("*")(a, b))


@pytest.mark.parametrize("op", list(SCALED_STEPS))
@pytest.mark.parametrize("dt", [np.float32, np.float64])
@pytest.mark.parametrize("grad_mode", [False, True])
def test_scaled_step_is_the_product_then_the_inplace_op(op, dt, grad_mode):
    """Under no_grad on a leaf that requires grad, and in grad mode where nothing does."""
    vals = _values()
    prev = context.current.grad_enabled
    context.current.grad_enabled = grad_mode
    taken = 0
    try:
        with np.errstate(all="ignore"):
            for xv in vals[::3]:
                for gv in vals[::2]:
                    g = Tensor(np.array(gv, dtype=dt))
                    for a, b in (
                        [(c, g) for c in NUMBERS]
                        + [(g, c) for c in NUMBERS]
                        + [(g, Tensor(np.array(xv, dtype=dt)))]
                    ):
                        x1 = Tensor(np.array(xv, dtype=dt), not grad_mode)
                        x2 = Tensor(np.array(xv, dtype=dt), not grad_mode)
                        arr = x1.data
                        r1 = scaled_step(x1, a, b, SCALED_STEPS[op])
                        r2 = _general_step(op, x2, a, b)
                        if r1 is None:
                            assert x1.data.tobytes() == np.array(xv, dtype=dt).tobytes()
                            assert versions.version(x1) == 0
                            continue
                        taken += 1
                        assert r1 is x1 and r2 is x2 and x1.data is arr
                        assert x1.data.dtype == x2.data.dtype == dt
                        assert x1.data.tobytes() == x2.data.tobytes(), (xv, a, b)
                        assert versions.version(x1) == versions.version(x2) == 1
    finally:
        context.current.grad_enabled = prev
    assert taken > 1000


def test_scaled_step_leaves_other_cases_to_the_general_path():
    f32, f64 = np.float32, np.float64
    one = Tensor(np.array(1.0))
    prev = context.current.grad_enabled
    try:
        context.current.grad_enabled = True  # grad mode on, something requires grad
        assert scaled_step(Tensor(np.array(1.0), True), 0.5, one, float.__sub__) is None
        assert (
            scaled_step(Tensor(np.array(1.0)), 0.5, Tensor(np.array(1.0), True), float.__sub__)
            is None
        )
        assert (
            scaled_step(Tensor(np.array(1.0)), Tensor(np.array(1.0), True), 0.5, float.__sub__)
            is None
        )
        context.current.grad_enabled = False
        cases = [
            (Tensor(np.ones(2)), 0.5, one),  # x not 0-d
            (Tensor(np.array(1.0)), 0.5, Tensor(np.ones(2))),  # the product not 0-d
            (Tensor(np.array(1.0, f32)), 0.5, one),  # dtypes differ
            (Tensor(np.array(1.0)), 0.5, Tensor(np.array(1.0, f32))),
            (Tensor(np.array(1.0)), one, Tensor(np.array(1.0, f32))),
            (Tensor(np.array(1, np.int64)), 2, Tensor(np.array(1, np.int64))),
            (Tensor(np.array(1.0)), "x", one),
            (Tensor(np.array(1.0)), None, one),
            (Tensor(np.array(1.0)), 0.5, None),
            (Tensor(np.array(1.0)), 0.5, 2.0),
            (Tensor(np.array(1.0)), True, one),
            (Tensor(np.array(1.0, f32)), 1e39, Tensor(np.array(1.0, f32))),
            (Tensor(np.array(1.0, f32)), math.inf, Tensor(np.array(1.0, f32))),
            (Tensor(np.array(1.0, f32)), 2.0, Tensor(np.array(math.nan, f32))),
            (Tensor(np.array(1.0, np.float16)), 0.5, Tensor(np.array(1.0, np.float16))),
        ]
        ro = Tensor(np.array(1.0))
        ro.data.flags.writeable = False
        cases.append((ro, 0.5, one))
        for x, a, b in cases:
            before = x.data.tobytes()
            assert scaled_step(x, a, b, float.__sub__) is None, (x.data, a, b)
            assert x.data.tobytes() == before and versions.version(x) == 0
        assert scaled_step(Tensor(np.array(1.0, f64)), 0.5, one, float.__sub__) is not None
        big = Tensor(np.array(1e30, f32))  # a product that rounds to float32's inf
        x = Tensor(np.array(1.0, f32))
        assert scaled_step(x, 1e30, big, float.__sub__) is x and x.data == -np.inf
    finally:
        context.current.grad_enabled = prev


def test_the_shortcuts_are_what_runs(monkeypatch):
    """The compared paths differ: the shortcuts run as compiled, and not with them off."""
    from gradcli.engine import autograd, straight
    from gradcli.language import callsites, updates

    src = (
        "a = tensor(1.5, requires_grad=true)\n(a * 3).backward()\nwith no_grad:\n"
        "    a -= 0.1 * a.grad\na.sum(7)"
    )
    for _ in range(3):  # (its graph's structure scheduled, whatever ran before: the
        _run(src)  # schedules kept are the last ones seen, engine/schedule.py)
    seen = []
    for mod, name in (
        (callsites, "call_failed"),
        (updates, "scaled_step"),
        (autograd, "_plain_root"),
        (straight, "backward"),  # (a graph of a structure seen before: its Straight)
    ):
        real = getattr(mod, name)
        monkeypatch.setattr(
            mod, name, lambda *a, _real=real, _n=name, **k: (seen.append(_n), _real(*a, **k))[1]
        )
    fast = _run(src)
    assert seen[0] in ("_plain_root", "backward")
    assert seen[1:] == ["scaled_step", "call_failed"]
    seen.clear()
    with _general_paths():
        general = _run(src)
    assert seen == [] and fast == general and fast[1][0] == "IndexError"
