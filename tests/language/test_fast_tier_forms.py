"""The forms of language/fast_forms.py in the fast tier (keyword method calls, super(),
chained comparisons ...): each program run with the fast tier and without it prints the
same lines and ends with the same error, words, place and caret; and the functions
holding them are compiled."""

from __future__ import annotations

import pytest

from tests.conftest import Run
from tests.language.test_fast_tier import both

_CLASSES = (
    "class A:\n"
    "    def __init__(self, x, y=2, *, z=0):\n"
    "        self.x, self.y, self.z = x, y, z\n"
    "    def f(self, a, b=1):\n"
    "        return a + b * self.x\n"
    "    def __repr__(self):\n"
    "        return f'A({self.x}, {self.y}, {self.z})'\n"
    "class B(A):\n"
    "    def __init__(self, x):\n"
    "        super().__init__(x, z=3, y=x + 1)\n"
    "    def f(self, a, b=2):\n"
    "        return super().f(a, b=b) * 10\n"
    "    def g(self, k):\n"
    "        return self.f(k, b=k) + self.f(a=k)\n"
)

FORMS = {
    "defaults_and_object_calls": (
        "class A:\n"
        "    def __init__(self, k=2):\n"
        "        self.k = k\n"
        "    def __call__(self, x, y=1):\n"
        "        return x * self.k + y\n"
        "class B:\n"
        "    def __call__(self, x):\n"
        "        return [1][x + 3]\n"
        "def f(a, x, z=[]):\n"
        "    z.append(x)\n"
        "    return a(x) + a(x, 5), len(z)\n"
        "def r(n, acc=0):\n"
        "    if n == 0:\n"
        "        return acc\n"
        "    return r(n - 1)\n"
        "def h(z):\n"
        "    return A()(z), A(z)(z, y=0)\n"
        "a = A()\n"
        "print(f(a, 3), f(A(3), 1.5), [a(i) for i in range(3)], r(5), h(2))\n"
        "print(f(a, 1, [0]), f(a, 2))\n"
        "def g(o):\n"
        "    return o(0)\n"
        "g(B())\n"
    ),
    "object_call_arity": (
        "class A:\n    def __call__(self, x, y=1):\n        return x + y\n"
        "def g(o):\n    return o(1, 2, 3)\ng(A())\n"
    ),
    "method_keywords": _CLASSES + "b = B(2)\nprint(b, b.f(1), b.g(3), A(1, z=2).f(b=4, a=1))\n",
    "method_keywords_tensor": (
        "def f(t, d):\n    return t.sum(dim=d, keepdim=True), t.clamp(min=1.5)\n"
        "print(f(torch.tensor([[1.0, 2.0], [3.0, 4.0]]), 1))\n"
    ),
    "method_keywords_numpy_names": (
        "def f(t):\n    return t.sum(axis=0, keepdims=True)\n"
        "print(f(torch.tensor([[1.0, 2.0], [3.0, 4.0]])))\n"
    ),
    "method_keywords_builtin_object": (
        "def f(xs, d):\n    xs.sort(key=len, reverse=True)\n"
        "    return xs, d.get(3, default=None) if False else d.pop(1, None), sorted(xs, key=len)\n"
        "print(f(['a', 'ccc', 'bb'], {1: 2}))\n"
    ),
    "method_keywords_unexpected": _CLASSES + "def h(o):\n    return o.f(1, c=2)\nh(A(1))\n",
    "method_keywords_missing": _CLASSES + "def h(o):\n    return o.f(b=2)\nh(A(1))\n",
    "method_keywords_twice": _CLASSES + "def h(o):\n    return o.f(1, a=2)\nh(A(1))\n",
    "method_keywords_no_attr": _CLASSES + "def h(o):\n    return o.nope(1, b=2)\nh(A(1))\n",
    "method_keywords_error_inside": (
        _CLASSES + "def h(o):\n    return o.f(1, b='s')\nprint(h(A(2)))\nh(A(None))\n"
    ),
    "method_keywords_tensor_error": (
        "def f(t):\n    return t.sum(dims=0)\nf(torch.tensor([1.0]))\n"
    ),
    "method_keywords_order": (
        "def p(v):\n    print('arg', v)\n    return v\n"
        "class C:\n    def m(self, a, b=0, c=0):\n        return a + b + c\n"
        "def o():\n    print('obj')\n    return C()\n"
        "def f():\n    return o().m(p(1), c=p(2), b=p(3))\nprint(f())\n"
    ),
    "method_keywords_in_loop": (
        "class C:\n    def m(self, a, b=0):\n        return a * b\n"
        "c = C()\ns = 0\nfor i in range(5):\n    s = s + c.m(i, b=2)\nprint(s)\n"
    ),
    "super_positional": (
        "class A:\n    def __init__(self, x):\n        self.x = x\n"
        "    def twice(self):\n        return self.x * 2\n"
        "class B(A):\n    def __init__(self, x):\n        super().__init__(x + 1)\n"
        "    def twice(self):\n        return super().twice() + 1\n"
        "b = B(1)\nprint(b.x, b.twice(), super)\n"
    ),
    "super_library_base": (
        "import torch.nn as nn\nclass M(nn.Module):\n    def __init__(self):\n        super().__init__()\n"
        "        self.lin = nn.Linear(2, 1)\n"
        "    def forward(self, x):\n        return self.lin(x)\n"
        "torch.manual_seed(0)\nm = M()\nprint(m(torch.ones(2)))\n"
    ),
    "super_object_init": (
        "class A:\n    def __init__(self):\n        super().__init__()\n        self.v = 1\n"
        "print(A().v)\n"
    ),
    "super_bad_first_argument": (
        "class A:\n    def m(self):\n        return 1\n"
        "class B(A):\n    def m(self):\n        return super().m()\n"
        "print(B().m())\nB.m(5)\n"
    ),
    "super_missing_attribute": (
        "class A:\n    pass\nclass B(A):\n    def m(self):\n        return super().nope\nB().m()\n"
    ),
    "super_with_arguments": (
        "class A:\n    def __init__(self, x):\n        self.x = x\n"
        "class B(A):\n    def __init__(self, x):\n        super(B, self).__init__(x * 2)\n"
        "def f(b):\n    return super(B, b), super(A, b).__init__\n"
        "print(B(2).x, f(B(1)))\ndef g():\n    return super(int, 1)\ng()\n"
    ),
    "star_nested_in_arguments": (
        "def f(*a, **k):\n    return a, k\n"
        "def g(rows):\n    print(*zip(*rows), sep='|')\n    return f(*zip(*rows), **dict(**{'a': 1}))\n"
        "print(g([(1, 2), (3, 4)]))\ndef h():\n    print(*zip(*[1]))\nh()\n"
    ),
    "super_in_nested_function": (
        "class A:\n    def m(self):\n        return 1\n"
        "class B(A):\n    def m(self):\n        def g():\n            return super().m()\n"
        "        return g() + 1\nprint(B().m())\n"
    ),
    "super_classmethod": (
        "class A:\n    @classmethod\n    def make(cls, v):\n        return (cls.__name__, v)\n"
        "class B(A):\n    @classmethod\n    def make(cls, v):\n        return super().make(v * 2)\n"
        "print(B.make(3))\n"
    ),
    # chained comparisons: values, short-circuit, order, and the ambiguous truth of a
    # tensor placed where the enclosing construct places it
    "chain_values": (
        "def f(a, b, c):\n    return a < b < c, a <= b == c, 0 < a < b < c, a < b > c\n"
        "def g(n):\n    if 0 <= n < 10:\n        return n\n    return g(n // 2) + 0\n"
        "def h(x, xs):\n    return 1 in xs is not None, x is None is None, 'a' < x <= 'c'\n"
        "print(f(1, 2, 3), f(1, 1, 1), f(1.5, 2, 2.0), f(3, 2, 1), f(1, 2, 0))\n"
        "print(g(5), g(1000), g(2 ** 70), h('b', [1]), h('d', []))\n"
    ),
    "chain_type_error": "def f(a, b, c):\n    return 0 < a < b < c\nprint(f(1, 2, 3))\nf(1, 2, 'c')\n",
    "chain_order_and_short_circuit": (
        "def p(v):\n    print('at', v)\n    return v\n"
        "def f(a):\n    x = p(0) < p(a) < p(5) < p(9)\n    return x\n"
        "print(f(3))\nprint(f(-1))\nprint(f(7))\n"
    ),
    "chain_contexts": (
        "def f(x):\n    y = 0 < x < 3\n    z = not 0 < x < 3\n    w = not not 0 < x < 3\n"
        "    u = 1 and 0 < x < 3 or 2\n    v = 5 if 0 < x < 3 else 0 < x < 4\n"
        "    assert 0 < x < 9, 'big'\n    while 0 < x < 2:\n        x = x + 1\n"
        "    if x < 0:\n        pass\n    elif 0 < x < 3:\n        x = x + 10\n"
        "    return y, z, w, u, v, x, [0 < x < 20, (1, 0 < x < 5)], dict(a=0 < x < 1, k=1 < x < 30)\n"
        "print(f(1), f(2.5), f(5))\n"
    ),
    "chain_tensor_not_ambiguous": (
        "def f(t):\n    return 0 < t < 3\nprint(f(torch.tensor(1.0)), f(torch.tensor(5.0)))\n"
    ),
    "chain_objects": (
        "class C:\n    def __init__(self, v):\n        self.v = v\n"
        "    def __lt__(self, o):\n        return [self.v < o.v] if self.v else []\n"
        "def f(a, b, c):\n    return a < b < c\n"
        "print(f(C(1), C(2), C(3)), f(C(0), C(2), C(3)), f(C(2), C(1), C(3)))\n"
    ),
    "chain_bool_raises": (
        "class C:\n    def __lt__(self, o):\n        return self\n"
        "    def __bool__(self):\n        return 1 // 0 == 1\n"
        "def f(a):\n    return a < a < a\nf(C())\n"
    ),
    # with: no_grad and library contexts, objects of the program, errors, exits
    "with_no_grad": (
        "def f(x):\n    with torch.no_grad():\n        y = x * 2\n    with torch.enable_grad() as g:\n"
        "        z = x * 3\n    return y.requires_grad, z.requires_grad, g\n"
        "def h(x):\n    with torch.no_grad():\n        return x * 2\n"
        "t = torch.tensor([1.0], requires_grad=True)\nprint(f(t), h(t), torch.is_grad_enabled())\n"
        "for i in range(2):\n    with torch.no_grad():\n        t.mul_(2)\nprint(t)\n"
    ),
    "with_program_object": (
        "class C:\n    def __init__(self, name, quiet=False):\n        self.name, self.quiet = name, quiet\n"
        "    def __enter__(self):\n        print('enter', self.name)\n        return self.name + '!'\n"
        "    def __exit__(self, t, e, tb):\n"
        "        print('exit', self.name, t if t is None else t.__name__, e, tb)\n"
        "        return self.quiet\n"
        "def f(n):\n    out = []\n    for i in range(n):\n        with C('a') as a, C('b', True) as b:\n"
        "            out.append((a, b))\n            if i == 1:\n                continue\n"
        "            if i == 2:\n                break\n            1 // (i - 3)\n    return out\n"
        "def g():\n    with C('r'):\n        return 5\n"
        "def k():\n    with C('q', True):\n        [][1]\n    return 'after'\n"
        "print(f(5), g(), k())\n"
        "with C('top', True):\n    print(1 // 0)\n"
        "for i in range(2):\n    with C('loop') as v:\n        print(v, i)\n"
        "def z():\n    with C('z'):\n        return 1 + 'a'\nz()\n"
    ),
    "with_exit_raises": (
        "class C:\n    def __enter__(self):\n        return self\n"
        "    def __exit__(self, *a):\n        return 1 // 0\n"
        "def f():\n    with C():\n        pass\nf()\n"
    ),
    "with_exit_raises_over_error": (
        "class C:\n    def __enter__(self):\n        return self\n"
        "    def __exit__(self, *a):\n        return [][2]\n"
        "def f():\n    with C():\n        1 + None\nf()\n"
    ),
    "with_enter_raises": (
        "class C:\n    def __enter__(self):\n        return {}['k']\n"
        "    def __exit__(self, *a):\n        print('never')\n"
        "def f():\n    with C() as c:\n        pass\nf()\n"
    ),
    "with_no_exit": (
        "class C:\n    def __enter__(self):\n        return self\n"
        "def f():\n    with C():\n        pass\nf()\n"
    ),
    "with_no_enter": "class C:\n    pass\ndef f():\n    with C():\n        pass\nf()\n",
    "with_not_a_context": "def f():\n    with 5 as x:\n        pass\nf()\n",
    "with_context_error": "def f():\n    with torch.no_grad(1, 2):\n        pass\nf()\n",
    "with_error_caught": (
        "class C:\n    def __enter__(self):\n        return self\n"
        "    def __exit__(self, t, e, tb):\n        print('exit', t.__name__)\n"
        "def f():\n    try:\n        with C():\n            raise ValueError('v')\n"
        "    except ValueError as e:\n        return 'caught ' + str(e)\nprint(f())\n"
    ),
    "with_exit_suppresses_by_truth": (
        "class C:\n    def __init__(self, v):\n        self.v = v\n"
        "    def __enter__(self):\n        return self\n"
        "    def __exit__(self, t, e, tb):\n        return self.v\n"
        "def f(v):\n    with C(v):\n        raise KeyError('k')\n    return 'suppressed'\n"
        "print(f([1]), f('x'), f(2.5))\nf([])\n"
    ),
    # parameters *args, keyword-only, **kwargs; calls with *a and **k
    "star_parameters": (
        "def f(a, *rest, k=1, **kw):\n    return a, rest, k, kw\n"
        "def g(*args):\n    s = 0\n    for x in args:\n        s += x\n    return s\n"
        "def h(n, *, step=1):\n    if n <= 0:\n        return 0\n    return n + h(n - step, step=step)\n"
        "class C:\n    def __init__(self, *dims, **opts):\n        self.dims, self.opts = dims, opts\n"
        "    def size(self, *which):\n        return [self.dims[i] for i in which]\n"
        "c = C(2, 3, bias=False)\n"
        "print(f(1), f(1, 2, 3, k=4, z=5), g(), g(1, 2.5, 3), h(10), h(10, step=3))\n"
        "print(c.dims, c.opts, c.size(1, 0))\n"
    ),
    "star_parameters_errors": (
        "def f(a, *rest, k, **kw):\n    return a\nprint(f(1, k=2))\nf(1, 2)\n"
    ),
    "star_parameters_error_inside": (
        "def f(*args, **kw):\n    return args[0] + kw['x']\nprint(f(1, x=2))\nf(1, y=2)\n"
    ),
    "star_calls": (
        "def f(*a, **k):\n    return a, k\n"
        "def g(xs, d):\n    return f(*xs), f(1, *xs, 2, *xs), f(**d), f(0, *xs, k=1, **d), max(*xs, 0, -1)\n"
        "class C:\n    def m(self, *a, **k):\n        return len(a), sorted(k)\n"
        "def h(c, xs, d):\n    return c.m(*xs, **d), c.m(1, *xs, z=2), [1, 5].index(*[5])\n"
        "print(g([1, 2], {'u': 3}), g((), {}), g(range(3), {'v': 1}))\n"
        "print(h(C(), 'ab', {'w': 1}))\n"
        "for i in range(2):\n    print(f(*[i, i], **{'i': i}))\n"
    ),
    "star_calls_order": (
        "def p(v):\n    print('at', v)\n    return v\n"
        "def gen():\n    print('gen starts')\n    yield 1\n    print('gen ends')\n"
        "def f(*a, **k):\n    return a, k\n"
        "def g():\n    return p(f)(p(0), *gen(), p(2), k=p(3), **p({'j': 4}))\nprint(g())\n"
    ),
    "star_calls_not_iterable": "def f(*a):\n    return a\ndef g():\n    y = f(*5)\ng()\n",
    "star_calls_not_mapping": "def f(*a, **k):\n    return a\ndef g():\n    y = 1 + f(1, **5)\ng()\n",
    "star_calls_twice": (
        "def f(*a, **k):\n    return a\ndef g():\n    y = not f(1, **{'a': 1}, a=2)\ng()\n"
    ),
    "star_calls_twice_spread": (
        "def f(*a, **k):\n    return a\ndef g(d):\n    return f(**d, **d)\ng({'a': 1})\n"
    ),
    "star_calls_key_not_string": "def f(**k):\n    return k\ndef g():\n    return f(**{1: 2})\ng()\n",
    "star_calls_callee_error": (
        "def f(a, b):\n    return a // b\ndef g(xs):\n    return f(*xs)\nprint(g([4, 2]))\n"
        "print(g([1, 0]))\n"
    ),
    "star_calls_arity": "def f(a, b):\n    return a\ndef g(xs):\n    return f(*xs)\ng([1, 2, 3])\n",
    "star_calls_elsewhere": (
        "def f(*a):\n    return len(a)\ndef g(xs):\n    return {f(*xs): 1}, -f(*xs)\nprint(g([1]))\n"
        "g(5)\n"
    ),
    "star_method_not_iterable": (
        "class C:\n    def m(self, *a):\n        return a\ndef g(c):\n    return c.m(*None)\ng(C())\n"
    ),
    # functions defined in a function with defaults, *args, keyword-only, **kwargs
    "nested_defaults": (
        "def p(v):\n    print('default', v)\n    return v\n"
        "def outer(n):\n    base = n * 10\n"
        "    def add(x, k=p(base), *rest, scale=p(2), **kw):\n"
        "        return (x + k) * scale + sum(rest) + len(kw)\n"
        "    f = lambda a, b=base + 1: a + b\n"
        "    return add(1), add(1, 2, 3, 4, scale=1, z=0), f(1), f(1, 1), add\n"
        "print(outer(1))\nprint(outer(2))\n"
    ),
    "nested_defaults_error": (
        "def outer(n):\n    def g(x=1 // n):\n        return x\n    return g()\n"
        "print(outer(1))\nouter(0)\n"
    ),
    "nested_defaults_arity": (
        "def outer():\n    def g(a, b=2, *, c):\n        return a + b + c\n"
        "    return g(1, c=3), g(1, 2, 3)\nouter()\n"
    ),
    "nested_star_wrapper": (
        "def deco(fn):\n    def wrapper(*args, **kwargs):\n        print('call', args, kwargs)\n"
        "        return fn(*args, **kwargs)\n    return wrapper\n"
        "def add(a, b=1):\n    return a + b\nw = deco(add)\nprint(w(1), w(1, b=5))\nw(1, c=2)\n"
    ),
}
for _i, _ctx in enumerate(
    [
        "y = 0 < t < 3",
        "y = 0 < t < 3 < 4",
        "y = 0 < 1 < t",
        "0 < t < 3",
        "return 0 < t < 3",
        "return 1, (2, 0 < t < 3)",
        "return [1, [2, 0 < t < 3]]",
        "return print(1, 0 < t < 3)",
        "return dict(a=1, k=0 < t < 3)",
        "return [1, 2].count(0 < t < 3)",
        "y = not 0 < t < 3",
        "y = not not 0 < t < 3",
        "y = 1 and 0 < t < 3",
        "y = 0 or (0 < t < 3)",
        "y = 5 if 0 < t < 3 else 3",
        "y = (0 < t < 3) if 1 else 2",
        "y = 1 if 0 else 0 < t < 3",
        "if 0 < t < 3:\n        pass",
        "if t is None:\n        pass\n    elif 0 < t < 3:\n        pass",
        "while 0 < t < 3:\n        pass",
        "assert 0 < t < 3",
        "assert 0 < t < 3, 'm'",
        "y = (0 < t < 3) + 1",
        "y = [1][0 < t < 3]",
        "y = {1: 0 < t < 3}",
        "y = 1\n    y += 0 < t < 3",
        "y = [i for i in range(2) if 0 < t < 3]",
        "y = (0 < t < 3).x",
    ]
):
    FORMS[f"chain_ambiguous_{_i}"] = f"t = torch.tensor([1.0, 2.0])\ndef f():\n    {_ctx}\nf()\n"
    FORMS[f"chain_ambiguous_loop_{_i}"] = (
        f"t = torch.tensor([1.0, 2.0])\nfor i in range(1):\n    {_ctx.replace('return', 'y =')}\n"
    )


# `&`, `|`, `<<`, `>>` and `~` (one grammar level, Python's precedence): ints, bools,
# sets, tensors, a class's `__and__`/`__rand__`/`__invert__`, and their errors
_BITWISE = (
    "class B:\n"
    "    def __init__(self, v):\n"
    "        self.v = v\n"
    "    def __and__(self, o):\n"
    "        return B(self.v + 100)\n"
    "    def __rand__(self, o):\n"
    "        return B(-self.v)\n"
    "    def __invert__(self):\n"
    "        return 'inv'\n"
    "def f(a, b, c):\n"
    "    return a | b & c << 1, ~a, a & b | c, a >> 1 | c, ~~b, 1 + ~a\n"
    "def g(a, b):\n"
    "    return a & b, 3 & b, ~a\n"
    "def h(a, b):\n"
    "    return a & b, a | b\n"
    "print(f(5, 3, 6), f(True, False, 1))\n"
    "print(f(torch.tensor([1, 2, 3]), torch.tensor([3, 3, 0]), torch.tensor([1, 0, 1])))\n"
    "m, n = torch.tensor([True, False]), torch.tensor([True, True])\n"
    "print(g(m, n), h({1, 2}, {2, 3}), g(B(1), B(2))[0].v, g(B(1), B(2))[1].v)\n"
)
# a library object's own variables and allowlisted methods in a fast function: a custom
# Function's ctx (attributes set in forward, read in backward, save_for_backward,
# saved_tensors, needs_input_grad), an nn.Linear's variable and parameter, their errors
_CTX = (
    "import torch.nn as nn\n"
    "class Clip(torch.autograd.Function):\n"
    "    @staticmethod\n"
    "    def forward(ctx, x, lo):\n"
    "        ctx.save_for_backward(x)\n"
    "        ctx.lo, ctx.n = lo, 0\n"
    "        ctx.n = ctx.n + 1\n"
    "        return x.clamp(min=lo)\n"
    "    @staticmethod\n"
    "    def backward(ctx, g):\n"
    "        (x,) = ctx.saved_tensors\n"
    "        return g * (x > ctx.lo), None\n"
    "def step(x, lo):\n"
    "    y = Clip.apply(x, lo)\n"
    "    y.sum().backward()\n"
    "    return y\n"
    "def attrs(m):\n"
    "    m.tag = 'lin'\n"
    "    return m.tag, m.in_features, m.weight.shape\n"
    "x = torch.tensor([-1.0, 0.5, 2.0], requires_grad=True)\n"
    "print(step(x, 0.0), x.grad, attrs(nn.Linear(2, 3)))\n"
)
FORMS["library_object_attrs"] = _CTX
FORMS["library_object_bad_save"] = _CTX.replace(
    "ctx.save_for_backward(x)", "ctx.save_for_backward(x, 2.5)"
)
FORMS["library_object_missing_attr"] = _CTX.replace("ctx.lo), None", "ctx.hi), None")
FORMS["library_object_missing_method"] = _CTX.replace(
    "ctx.save_for_backward(x)", "ctx.save_for_backwards(x)"
)
FORMS["library_object_wrong_arity"] = _CTX.replace(
    "ctx.n = ctx.n + 1", "ctx.set_materialize_grads(True, 1)"
)
FORMS["bitwise"] = _BITWISE
FORMS["bitwise_bad_operands"] = _BITWISE + "print(g(1.5, 2))\n"
FORMS["bitwise_bad_invert"] = _BITWISE + "print(f(1.5, 1, 1))\n"
FORMS["bitwise_negative_shift"] = _BITWISE + "print(f(1, 1, -1))\n"


@pytest.mark.parametrize("name", sorted(FORMS))
def test_forms(name):
    both(FORMS[name])


def test_with_limits_both_ways():
    """A limit stopping a loop in a `with` body: no `__exit__` sees it, in either tier."""
    program = (
        "class C:\n    def __enter__(self):\n        return self\n"
        "    def __exit__(self, *a):\n        print('exit')\n        return True\n"
        "def f():\n    with C():\n        while True:\n            pass\nf()\n"
    )
    both(program, "--max-steps", "50")
    both(
        "def f(n):\n    with torch.no_grad():\n        return f(n + 1)\nf(0)\n", "--max-depth", "40"
    )


def test_forms_are_compiled():
    """The functions holding these forms run in the fast tier."""
    r = Run(FORMS["defaults_and_object_calls"])
    assert r.error is not None
    a = r.session.scope.vars["A"]
    assert a.__dict__["__init__"].fastm == (1,) and a.__dict__["__call__"].fastm == (2,)
    assert r.session.scope.vars["f"].fastm == (2,)
    r = Run(FORMS["method_keywords"])
    assert r.error is None
    b = r.session.scope.vars["B"]
    for name in ("__init__", "f", "g"):
        assert b.__dict__[name].fast is not None, name
    r = Run(FORMS["chain_contexts"] + FORMS["chain_values"])
    assert r.error is None
    for name in ("f", "g", "h"):
        assert r.session.scope.vars[name].fast is not None, name
    r = Run(FORMS["star_parameters"] + FORMS["star_calls"])
    assert r.error is None
    for name in ("f", "g", "h"):
        assert r.session.scope.vars[name].fast is not None, name
    assert r.session.scope.vars["C"].__dict__["m"].fast is not None
    r = Run(FORMS["nested_defaults"] + FORMS["nested_star_wrapper"].replace("w(1, c=2)\n", ""))
    assert r.error is None
    for name in ("outer", "deco"):
        assert r.session.scope.vars[name].fast is not None, name
    assert r.session.scope.vars["w"].fast is not None
    r = Run(FORMS["with_no_grad"])
    assert r.error is None
    for name in ("f", "h"):
        assert r.session.scope.vars[name].fast is not None, name


def test_library_object_functions_are_compiled():
    r = both(FORMS["library_object_bad_save"])
    assert (
        "TypeError: save_for_backward can only save variables, but argument 1 is of type float"
        in r.stderr
    )
    r = Run(FORMS["library_object_attrs"])
    assert r.error is None
    for name in ("step", "attrs"):
        assert r.session.scope.vars[name].fast is not None, name
    clip = r.session.scope.vars["Clip"]
    for name in ("forward", "backward"):
        assert clip.__dict__[name].__func__.fast is not None, name


def test_bitwise_functions_are_compiled():
    r = Run(FORMS["bitwise"])
    assert r.error is None
    for name in ("f", "g", "h"):
        assert r.session.scope.vars[name].fast is not None, name
    assert r.session.scope.vars["B"].__dict__["__and__"].fast is not None


# a site asking for an object's class table keeps the last plain class met there
# (fast_builtins.TableSite): objects of two plain classes alternating, a class that
# is not plain (its base is the library's) and numbers, through one operator, one
# method call and one object made at each site
TABLE_SITES = (
    "import torch.nn as nn\n"
    "class A:\n"
    "    def __init__(self, v):\n"
    "        self.v = v\n"
    "    def __add__(self, o):\n"
    "        return A(self.v + 1)\n"
    "    def f(self):\n"
    "        return 'A' + str(self.v)\n"
    "class B:\n"
    "    def __init__(self, v):\n"
    "        self.v = v\n"
    "    def __add__(self, o):\n"
    "        return B(self.v * 2)\n"
    "    def f(self):\n"
    "        return 'B' + str(self.v)\n"
    "class M(nn.Module):\n"
    "    def __init__(self, v):\n"
    "        super().__init__()\n"
    "        self.v = v\n"
    "    def __add__(self, o):\n"
    "        return M(self.v - 1)\n"
    "    def f(self):\n"
    "        return 'M' + str(self.v)\n"
    "def step(x):\n"  # (so written, the tier compiles it)
    "    y = x + x\n"
    "    t = y.f()\n"
    "    return t\n"
    "def make(c, v):\n"
    "    return c(v)\n"
    "out = []\n"
    "for i in range(7):\n"
    "    c = [A, B, M][i % 3]\n"
    "    out.append(step(make(c, i)))\n"
    "print(out)\n"
    "def num(a, b):\n"
    "    return a + b\n"
    "print(num(1, 2), num(A(1), A(2)).v, num(1.5, 2.5), num(B(3), B(4)).v)\n"
    "A.f = lambda self: 'changed'\n"
    "print(step(A(1)), step(B(1)))\n"
)


def test_table_sites_of_several_classes():
    both(TABLE_SITES)
    r = Run(TABLE_SITES)
    assert r.error is None
    for name in ("step", "make", "num"):
        assert r.session.scope.vars[name].fast is not None, name
