"""The fast tier (language/fast_tier.py): each program run with it and without it
(`--no-fast-tier`, every unit closure-compiled) prints the same lines and ends with
the same error, words, place and caret; and the units meant for it are compiled."""

from __future__ import annotations

import pathlib

import pytest
from hypothesis import given, settings, strategies as st

from tests.conftest import run_inprocess
from tests.language.language_cases import CASES

ROOT = pathlib.Path(__file__).resolve().parents[2]


def both(source, *flags):
    fast = run_inprocess(source, ("eval", *flags, "-"))
    slow = run_inprocess(source, ("eval", "--no-fast-tier", *flags, "-"))
    assert (fast.stdout, fast.stderr, fast.returncode) == (
        slow.stdout,
        slow.stderr,
        slow.returncode,
    )
    return fast


def _plain(path):
    """The program without its timing; micrograd's loss rounded (its graph is walked
    in the order of a set of objects, which varies from run to run in either tier)."""
    lines = path.read_text().replace("print(loss.data)", "print(round(loss.data, 9))").splitlines()
    return "\n".join(line for line in lines if "process_time" not in line) + "\n"


@pytest.mark.parametrize("path", sorted((ROOT / "scripts" / "plain_python").glob("*.py")), ids=str)
def test_plain_python_programs(path):
    both(_plain(path))


@pytest.mark.parametrize("name,source", CASES, ids=[c[0] for c in CASES])
def test_language_cases(name, source):
    both(source)


PROGRAMS = {
    "int_division_by_zero": "def f(a, b):\n    return a // b\nprint(f(7, 2))\nf(1, 0)\n",
    "float_division_by_zero": "def f(a, b):\n    return a / b\nprint(f(1.0, 0.0), f(1, 0))\n",
    "modulo_by_zero_in_loop": "i = 0\nwhile i < 5:\n    i += 1\n    x = 10 % (3 - i)\n",
    "unknown_name": "def f(x):\n    return x + yy\nf(1)\n",
    "unknown_name_hint": "value = 3\ndef f(x):\n    return x + valeu\nf(1)\n",
    "unbound_local": "def f(x):\n    if x > 1:\n        y = 2\n    return y\nprint(f(3))\nf(0)\n",
    "call_chain": "def g(x):\n    return 1 // x\ndef f(x):\n    return g(x - 1) + 1\nf(1)\n",
    "deep_recursion": "def f(n):\n    return f(n + 1)\nf(0)\n",
    "int_overflow": "x = 3\nfor i in range(20):\n    x = x * x\nprint(x)\n",
    "big_int_add": "a = 2 ** 100\nb = 1\nfor i in range(3):\n    b = b + a\nprint(b)\n",
    "strings": "s = ''\nfor i in range(5):\n    s = s + 'ab'\nprint(s, s * 2)\n",
    "string_limit": "s = 'x'\nwhile True:\n    s = s + s\n",
    "truth_of_values": (
        "def f(a, b):\n    n = 0\n    while b:\n        a, b = b, a % b\n        n += 1\n"
        "    r = [1 if x else 0 for x in [a, 0, -1, 0.0, 2.5, '', 's', [], [0], None, True, False]]\n"
        "    return a, n, r, not a, a and b, a or b\n"
        "print(f(12, 18), f(7, 0), f(0, 5))\nf(torch.tensor([1.0, 2.0]), 1)\n"
    ),
    "fstring_limit": "def f(s):\n    return f'{s}{s}.'\ns = 'x'\nwhile True:\n    s = f(s)\n",
    "mixed_types": "def f(a, b):\n    return a + b, a < b, a * b\nprint(f(1, 2.5), f(True, 2), f(2.0, False))\n",
    "tensor_in_fast_function": (
        "def f(x, k):\n    return x * k + 1\nt = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "y = f(t, 3)\nprint(y)\ny.sum().backward()\nprint(t.grad)\n"
    ),
    "tensor_loop": "t = torch.tensor(1.0)\ni = 0\nwhile i < 3:\n    t = t * 2\n    i += 1\nprint(t)\n",
    "ambiguous_truth": "def f(x):\n    if x:\n        return 1\n    return 0\nf(torch.tensor([1.0, 2.0]))\n",
    "bad_operands": "def f(a, b):\n    return a - b\nf('a', 1)\n",
    "none_operand": "x = None\nfor i in range(2):\n    x = x + 1\n",
    "power_and_unary": "def f(x):\n    return -x ^ 2, x ^ 0.5, -(-x)\nprint(f(3), f(2.0))\n",
    "and_or_not": (
        "def f(a, b):\n    return (a and b, a or b, not a, b if a else -b)\n"
        "print(f(0, 2), f(3, 0), f(1.5, 2), f('', 'x'))\n"
    ),
    "is_and_compare": "def f(x):\n    return x is None, x is not None, x == 3, x != 2.0\nprint(f(3), f(None))\n",
    "number_and_constant": (
        "def f(a):\n    return a * 2.5, a + 1, a - 0.5, a / 2, a / 0.5, a * 3, a // 2, a % 2.5\n"
        "print(f(3), f(2.5), f(True), f(2 ** 62), f(-7), f(10 ** 300))\n"
        "print({i: i * 2.5 for i in range(4)}, [x * 2 for x in [1.5, 2, True]])\n"
    ),
    "int_too_large_for_float": "def f(a):\n    return a * 2.5\nprint(f(10 ** 400))\n",
    "comprehensions": (
        "xs = [i * i + 1 for i in range(10) if i % 3 != 0]\n"
        "print(xs, {i: i * 2.5 for i in range(4)}, {i % 3 for i in range(10)})\n"
        "print(sum(x % 5 for x in xs), sum(x / 2 for x in xs), max(x for x in xs))\n"
        "print(any(x > 60 for x in xs), all(x > 1 for x in xs), list(x - 1 for x in xs))\n"
        "print(len([s + 'a' for s in ['x', 'y'] if s]), [x for x in range(3) if x and 1])\n"
        "g = (x * 2 for x in range(5))\nprint(next(g), next(g), list(g))\n"
        "print(sum(x for x in [2 ** 70, 2 ** 70, 1.5]), sum(x for x in [True, 2, 0.5]))\n"
    ),
    "comprehension_tensors": (
        "t = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "ys = [t * k for k in range(3) if k]\nprint(ys, sum(y.sum() for y in ys))\n"
        "print({k: t + k for k in range(2)})\n"
    ),
    "comprehension_in_def": (
        "n = 3\ndef f(m):\n    return [i * m for i in range(n)], sum(i for i in range(m))\n"
        "print(f(4))\n"
    ),
    "comprehension_calls": (
        "def f(x):\n    return 10 // x\nprint([f(i) for i in range(1, 4)], max(abs(i - 2) for i in range(4)))\n"
        "print([f(i) for i in range(3)])\n"
    ),
    "comprehension_ranges_and_lists": (
        "print([i * i for i in range(2 ** 40, 2 ** 40 + 3)], [i * i + 1 for i in range(-5, 5, 3)])\n"
        "print({i: i * i for i in range(2 ** 31, 2 ** 31 + 2)}, {i * 2 for i in range(40)})\n"
        "print(sum(i * i for i in range(100)), [x for x in []], [x * 2 for x in [1, 2.5, 'a']])\n"
        "print(sum([i % 7 for i in range(5000)]), len([x for x in list(range(3000)) if x % 2]))\n"
        "print(sum(x * x for x in range(-(2 ** 30), -(2 ** 30) + 40)), sum(x for x in range(0)))\n"
    ),
    "comprehension_error_far_in": "print(len([1 // (i - 1000) for i in range(2000)]))\n",
    "genexp_error_far_in": "print(sum(1 / (x - 3000) for x in list(range(4000))))\n",
    "comprehension_element_error": "ys = [1 // (i - 3) for i in range(5)]\n",
    "comprehension_condition_error": "ys = [i for i in range(5) if i < 'a']\n",
    "dictcomp_value_before_key": "d = {[i]: 1 // (i - 2) for i in range(5)}\n",
    "dictcomp_unhashable": "d = {[i]: i for i in range(5)}\n",
    "setcomp_unhashable": "d = {[i] for i in range(5)}\n",
    "genexp_error": "print(sum(1 / (x - 2) for x in range(4)))\n",
    "genexp_unknown_name": "print(max(x + zz for x in range(4)))\n",
    "comprehension_over_bad_value": "print([x for x in 3])\n",
    "break_continue": (
        "s = 0\nfor i in range(20):\n    if i % 2 == 0:\n        continue\n    if i > 13:\n"
        "        break\n    s += i\nprint(s, i)\n"
    ),
    "nested_loops": (
        "t = 0\nfor i in range(4):\n    j = 0\n    while j < i:\n        t += i * j\n        j += 1\nprint(t)\n"
    ),
    "builtin_calls": "def f(n):\n    return abs(n - 10) + max(n, 3)\nfor i in range(3):\n    print(f(i))\n",
    "user_calls_in_loop": "def sq(x):\n    return x * x\ns = 0\nfor i in range(10):\n    s = s + sq(i)\nprint(s)\n",
    "global_rebound_in_call": (
        "n = 0\ndef bump():\n    global n\n    n = n + 1\n    return n\nfor i in range(3):\n"
        "    bump()\nprint(n)\n"
    ),
    "recursion_fib": "def fib(n):\n    if n < 2:\n        return n\n    return fib(n - 1) + fib(n - 2)\nprint(fib(15))\n",
    "wrong_arity": "def f(a, b):\n    return a\nf(1)\n",
    "defaults_and_keywords": "def f(a, b=2):\n    return a * b\nprint(f(3), f(3, 4), f(a=1, b=5))\n",
    "loop_variable_after": "for i in range(3):\n    pass\nprint(i)\nk = 0\nwhile k < 4:\n    k += 1\nprint(k)\n",
    "loop_reads_unbound_global": "for i in range(3):\n    q = q + 1\n",
    "loop_error_keeps_values": "s = 0\nfor i in range(10):\n    s += 10 // (5 - i)\nprint(s)\n",
    "builtin_shadowed": "def abs(x):\n    return 'mine'\nfor i in range(2):\n    print(abs(-1))\n",
    "print_in_function": "def show(x):\n    print(x, x * 2)\nfor i in range(3):\n    show(i)\n",
    "float_guard_consts": "x = 1.5\nfor i in range(3):\n    x = x * 2.0 + 1 - 0.5 / 2\nprint(x, 7 / 2, 7 // 2, -7 % 3)\n",
    "object_in_loop": (
        "class V:\n    def __init__(self, v):\n        self.v = v\n    def __add__(self, o):\n"
        "        return V(self.v + (o.v if isinstance(o, V) else o))\n    def __repr__(self):\n"
        "        return f'V({self.v})'\nx = V(1)\nfor i in range(3):\n    x = x + i\nprint(x)\n"
    ),
    "int_beyond_small_in_loop": (
        "s = 3000000000\nfor j in range(50):\n    s = s - (j * 100000007) // 3 + s % 5\nprint(s)\n"
    ),
    "int_square_to_inf": "x = 3\ni = 0\nwhile i < 20:\n    x = x * x - 1\n    i += 1\nprint(x, i)\n",
    "recursion_to_inf": (
        "def f(n):\n    if n < 1:\n        return 3\n    return f(n - 1) * f(n - 1)\n"
        "print(f(5), f(14), f(2.0))\n"
    ),
    "recursion_rebound": (
        "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\ng = f\nprint(g(5))\n"
        "def f(n):\n    return 100\nprint(g(5))\n"
    ),
    "recursion_float_and_bool": (
        "def f(n):\n    if n < 1:\n        return n\n    return f(n - 1) + 1\nprint(f(3), f(2.5), f(True))\n"
    ),
    "int_function_locals": (
        "def f(n):\n    t = 0\n    i = 0\n    while i < n:\n        t += i * i % 7 - -i // 2\n"
        "        i = i + 1\n    return t\nprint(f(10), f(10.0), f(3000000000 - 2999999990))\n"
    ),
    "int_var_becomes_float": "x = 1\nfor i in range(3):\n    x = x / 2\n    x = x + i\nprint(x)\n",
    "inspect_through_fast_calls": (
        "import inspect\ndef g():\n    fr = inspect.currentframe().f_back.f_back\n"
        "    return fr.f_locals if fr is not None else None\ndef f(n):\n    q = n * 2\n"
        "    return g()\ndef h(k):\n    z = k - 1\n    return f(k + 1)\nprint(h(3))\n"
        "def r(n):\n    if n == 0:\n        return g()\n    return r(n - 1)\nprint(r(3))\n"
    ),
    "error_at_the_bottom_of_recursion": (
        "def f(n):\n    if n == 0:\n        return 1 // n\n    return f(n - 1) + 1\nprint(f(3.0))\nf(4)\n"
    ),
    "tensor_augmented_in_place": (
        "def step(p, g):\n    p -= g\n    p *= 2\n    p += p - g\nt = torch.tensor([1.0, 2.0])\n"
        "u = t\nstep(t, torch.tensor([0.5, 0.5]))\nprint(t, u is t)\nfor i in range(2):\n    t += 1\n"
        "print(u, t)\n"
    ),
    "recursion_sizes": (
        "def f(n, k):\n    if k == 0:\n        return n\n    return f(n + 1, k - 1) * 3 - f(n - 1, k - 1)\n"
        "print(f(3, 4), f(2 ** 29, 3), f(2 ** 30, 3), f(2 ** 40, 3), f(2 ** 62, 3), f(-2 ** 63, 2))\n"
        "print(f(1.5, 2), f(True, 2), f(3, 2.0))\n"
    ),
    "recursion_big_steps": (
        "def f(n):\n    if n < 0:\n        return 0\n    return f(n - 2000000) + 1\nprint(f(10 ** 7))\n"
        "def g(n):\n    if n > 10 ** 30:\n        return n\n    return g(n * n + 2)\nprint(g(3))\n"
        "def h(n):\n    if n < 1:\n        return n\n    return h(n // 2) + h(n % 3 - 1) + h(-n // 5)\n"
        "print(h(1000), h(2 ** 70))\n"
    ),
    "recursion_too_deep_in_second_function": (
        "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\nprint(f(50))\n"
        "print(f(5000))\n"
    ),
    "recursion_result_beyond_int_limit": (
        "def f(n):\n    if n == 0:\n        return 7\n    return f(n - 1) * f(n - 1)\nprint(f(10))\n"
        "print(f(14))\n"
    ),
    "displays_and_subscripts": (
        "def f(xs, d, k):\n    t = (xs[0], xs[-1], d[k], d['a'], (1, 2)[k - 1])\n"
        "    xs[0] = xs[1] + 1\n    d[k] = [t, []]\n    return t, xs[1:], xs[::2], xs[:k], d\n"
        "print(f([1, 2.5, 3], {'a': 1, 1: 'one'}, 1))\n"
        "x = torch.arange(6.0).reshape(2, 3)\ndef g(x, i):\n    x[i, 1] = 10.0\n"
        "    return x[i], x[:, i], x[0, 1:]\nprint(g(x, 1))\n"
    ),
    "subscript_errors": (
        "def f(xs, k):\n    return xs[k]\nprint(f([1], 0))\nfor c in ([1], {}, 3, 'ab', (1,)):\n"
        "    try:\n        f(c, 5)\n    except Exception as e:\n        print(type(e).__name__, e)\n"
        "f([1, 2], 'a')\n"
    ),
    "subscript_store_errors": (
        "def f(xs, k, v):\n    xs[k] = v\n    return xs\nprint(f({}, 1, 2), f([0], -1, 'x'))\n"
        "f({}, [1], 2)\n"
    ),
    "subscript_store_order": (
        "def key():\n    print('key')\n    return 0\ndef val():\n    print('value')\n    return 5\n"
        "def obj():\n    print('obj')\n    return [1]\ndef f():\n    obj()[key()] = val()\n"
        "    a, b = val(), key()\n    return a, b\nprint(f())\n"
    ),
    "unpacking": (
        "def f(v):\n    a, b = v\n    [c, d] = b, a\n    x = y = (a, b)\n    return a, b, c, d, x, y\n"
        "print(f((1, 2)), f([3, 'x']), f('ab'), f(range(2)), f({5: 1, 6: 2}))\n"
        "print(f(torch.tensor([1.0, 2.0])))\n"
        "for bad in (3, (1, 2, 3), [1], None):\n    try:\n        f(bad)\n"
        "    except Exception as e:\n        print(type(e).__name__, e)\nf((1,))\n"
    ),
    "for_over_iterables": (
        "def f(xs, d):\n    t = 0\n    for i, x in enumerate(xs):\n        t += i * x\n"
        "    for k, v in zip(d, [10, 20]):\n        t += v\n"
        "    for x in reversed(xs):\n        t = t * 2 + x\n    for c in 'ab':\n        t += 1\n"
        "    for s in {3}:\n        t += s\n    for a, (b, c) in [(1, (2, 3))]:\n        t += a + b + c\n"
        "    return t\nprint(f([1, 2, 3], {'a': 1, 'b': 2}))\n"
        "ps = []\nfor a, b in zip([1, 2], [3, 4]):\n    ps = ps + [a * b]\nprint(ps, a, b)\n"
        "for a, b in [(1, 2), 3]:\n    print(a, b)\n"
    ),
    "set_and_dict_displays": (
        "def f(a, b):\n    return {a, b, a}, {a: b, 'x': [a], b: {}}, {}, {(a, b): 1}\n"
        "print(f(1, 2.5), f('p', 'p'))\n"
        "def g(a, b):\n    return {a: 1 // b}\nfor args in ((1, 1), ([1], 1), ([1], 0)):\n    try:\n"
        "        print(g(*args))\n    except Exception as e:\n        print(type(e).__name__, e)\n"
        "def h(a):\n    return {1, a}\nh([2])\n"
    ),
    "dict_display_error_place": "def g(a, b):\n    return {'k': 0, a: 1 // b}\ng([1], 1)\n",
    "keyword_arguments": (
        "def f(a, b=2, c=3):\n    return a * b + c\n"
        "def g(x):\n    return f(x, c=10), f(a=x), f(x, 1, c=0), sorted([x, 1], reverse=True)\n"
        "print(g(4))\nfor i in range(2):\n    print(f(i, c=i), sorted([3, 1, 2], reverse=True))\n"
        "def h(x):\n    return f(x, d=1)\nh(1)\n"
    ),
    "keyword_argument_errors_inside": (
        "def f(a, b=2):\n    return a // b\ndef g(x):\n    return f(x, b=0)\ng(1)\n"
    ),
    "closures": (
        "def counter(k):\n    n = 0\n    def bump(d):\n        nonlocal n\n        n = n + d * k\n"
        "        return n\n    def read():\n        return n\n    bump(1)\n    bump(2)\n"
        "    return read(), bump, read\nr, b, rd = counter(10)\nprint(r, b(5), rd(), b, rd)\n"
        "def outer(a):\n    def inner(b):\n        def innermost(c):\n            return a + b + c\n"
        "        return innermost(1)\n    return inner(2)\nprint(outer(3), outer(0.5))\n"
        "def late():\n    i = 0\n    def get():\n        return i\n    i = 5\n    return get()\n"
        "print(late())\n"
    ),
    "closure_recursion": (
        "def topo(root, kids):\n    order = []\n    seen = {}\n    def visit(v):\n"
        "        nonlocal order\n        if v in seen:\n            return\n        seen[v] = True\n"
        "        for c in kids[v]:\n            visit(c)\n        order = order + [v]\n"
        "    visit(root)\n    return order\nprint(topo(0, {0: [1, 2], 1: [2], 2: []}))\n"
        "def deep(n):\n    def down(k):\n        if k == 0:\n            return 0\n"
        "        return down(k - 1) + 1\n    return down(n)\nprint(deep(50))\nprint(deep(2000))\n"
    ),
    "closure_errors": (
        "def f(x):\n    def g(y):\n        return x // y\n    return g\nh = f(7)\nprint(h(2))\n"
        "h(0)\n"
    ),
    "closure_variable_bound_later": (
        "def f():\n    def g():\n        return x + 1\n    x = 2\n    return g()\nprint(f())\n"
        "len = 5\ndef k():\n    def g():\n        return len\n    r = g()\n    len = 1\n    return r\n"
        "print(k())\ndef m():\n    def g():\n        return qq\n    r = g()\n    qq = 1\nm()\n"
    ),
    "closure_inspect": (
        "import inspect\ndef f(a):\n    b = a * 2\n    def g():\n        fr = inspect.currentframe()\n"
        "        return fr.f_back.f_locals if fr is not None else None\n    return g()\nprint(f(3))\n"
    ),
    "lambdas": (
        "def f(k):\n    add = lambda x: x + k\n    nothing = lambda: None\n"
        "    pair = lambda a, b: lambda c: a + b + c\n    p = pair(1, 2)\n"
        "    return add(1), nothing(), p(3), add, nothing\nprint(f(10))\n"
        "def h(n):\n    big = lambda q: q > 2\n    if big(n):\n        return 'big'\n"
        "    z = lambda: n // 0\n    return z()\nprint(h(5))\nh(1)\n"
    ),
    "augmented_subscripts": (
        "def f(xs, d, t):\n    xs[0] += 1\n    xs[-1] *= 2.5\n    d['a'] += 'x'\n    d[1, 2] -= 3\n"
        "    t[0] += 1.0\n    t[1:] *= 2\n    return xs, d, t\nu = torch.tensor([1.0, 2.0, 3.0])\n"
        "print(f([1, 2], {'a': 'p', (1, 2): 10}, u), u)\n"
        "def g(d, k, v):\n    d[k] += v\n    return d\nprint(g({0: 1}, 0, 2))\n"
        "for args in (({}, 'zz', 1), ([1], 0, 'a'), ({0: 1}, 0, None)):\n    try:\n        g(*args)\n"
        "    except Exception as e:\n        print(type(e).__name__, e)\n"
        "w = torch.ones(2, requires_grad=True)\ng(w, 0, 1)\n"
    ),
    "augmented_subscript_value_error": "def g(d, k):\n    d[k] += 1 // k\n    return d\ng({0: 1}, 0)\n",
    "try_statements": "def g(xs, k):\n    try:\n        return xs[k]\n    except (KeyError, IndexError):\n        return 'missing'\n    except TypeError as e:\n        return 'type: ' + str(e)\nprint(g([1], 0), g([1], 5), g({}, 1), g([1], 'a'))\ndef h(x):\n    try:\n        return 1 // x\n    except ValueError:\n        return 'no'\ndef k(x):\n    try:\n        return h(x)\n    finally:\n        print('k done')\ndef m(x):\n    for i in range(3):\n        try:\n            if i == x:\n                break\n            q = 1 // (i - 1)\n        except:\n            print('bare', i)\n            continue\n        print('ok', i)\n    return i\nprint(m(5), m(1))\ndef n():\n    try:\n        return undefined_name\n    except NameError as e:\n        print('name', e)\n    try:\n        e\n    except NameError as e2:\n        print('unbound', type(e2).__name__)\n    try:\n        return 1\n    finally:\n        print('f')\nprint(n())\ndef p(x):\n    try:\n        return 1 // x\n    except 3:\n        return 0\nprint(p(1))\nk(0)\n",
    "try_no_clause_matches": "def h(x):\n    try:\n        return 1 // x\n    except ValueError:\n        return 'no'\ndef k(x):\n    try:\n        return h(x) + 1\n    except KeyError:\n        return 0\nprint(k(1))\nk(0)\n",
    "try_clause_not_a_class": "def p(x):\n    try:\n        return 1 // x\n    except 3:\n        return 0\nprint(p(1))\np(0)\n",
    "try_in_loop_of_program": (
        "t = 0\nfor i in range(4):\n    try:\n        t += 10 // (i - 2)\n    except ZeroDivisionError as err:\n"
        "        t -= 1\nprint(t)\nprint(err)\n"
    ),
    "try_limit_not_caught": (
        "def f(n):\n    try:\n        return f(n + 1)\n    except Exception:\n        return 'caught'\nf(0)\n"
    ),
    "raise_and_assert": "def f(x):\n    assert x > 0, 'x must be positive, got ' + str(x)\n    assert x != 3\n    return x\nprint(f(1))\ndef g(x):\n    try:\n        f(x)\n    except AssertionError as e:\n        print('caught', e)\n        raise\ndef h(x):\n    if x == 1:\n        raise ValueError('bad one')\n    if x == 2:\n        raise KeyError\n    if x == 4:\n        raise 5\n    try:\n        return 1 // (x - 5)\n    except ZeroDivisionError as e:\n        raise e\ndef r():\n    raise\nfor fn, a in ((g, -1), (g, 3), (h, 1), (h, 2), (h, 4), (h, 5), (r, 0)):\n    try:\n        fn(a) if fn is not r else fn()\n    except Exception as e:\n        print(type(e).__name__, e)\ng(3)\n",
    "loop_else": "def f(xs, stop):\n    for x in xs:\n        if x == stop:\n            break\n    else:\n        return 'no break'\n    i = 0\n    while i < 5:\n        i += 1\n        if i == stop:\n            break\n    else:\n        return 'while ended'\n    return 'broke at ' + str(i)\nprint(f([1, 2, 3], 9), f([1, 2, 3], 2), f([], 0), f([1], 3))\nt = 0\nfor i in range(3):\n    t += i\nelse:\n    t = t * 10\nk = 0\nwhile k < 3:\n    k += 1\nelse:\n    k = -k\nprint(t, k)\n",
    "comprehensions_of_a_function": "def f(xs, k):\n    ys = [x * k for x in xs if x != 2]\n    s = sum(x * y for x, y in zip(xs, ys))\n    d = {x: x * k for x in xs}\n    return ys, s, d, {x % k for x in xs}, list(x + k for x in range(3))\nprint(f([1, 2, 3], 10))\ndef g(n):\n    m = n + 1\n    return [i * m for i in range(n)], max(i - m for i in range(n)) if n else 0\nprint(g(4), g(0))\ndef h(xs):\n    return [1 // x for x in xs]\nprint(h([1, 2]))\ndef late(xs):\n    r = [x + k for x in xs]\n    k = 1\n    return r\nh([1, 0])\n",
    "comprehension_of_a_function_errors": (
        "def f(xs, k):\n    return sum(x // k for x in xs)\nprint(f([4, 6], 2))\nf([1], 0)\n"
    ),
    "comprehension_reads_a_later_variable": (
        "def late(xs):\n    r = [x + k for x in xs] if False else []\n    k = 1\n"
        "    return r, [x + k for x in xs]\nprint(late([1, 2]))\n"
    ),
    "global_statement": (
        "n = 0\ndef bump(k):\n    global n\n    n = n + k\n    return n\nprint(bump(2), bump(3), n)\n"
    ),
    "comprehension_targets": (
        "ys = [1.0, -1.0, 2.0]\nps = [0.5, 0.25, 3.0]\n"
        "print(sum((p - y) ** 2 for y, p in zip(ys, ps)), [a * b for a, b in zip(ys, ps)])\n"
        "print({k: v for k, v in [(1, 2), (3, 4)]}, [(b, a) for a, b in [[1, 2], 'xy']])\n"
        "print([a for a, b in [(1, 2), (3,)]])\n"
    ),
    "comprehension_clauses": (
        "class N:\n    def __init__(self, k):\n        self.ps = [k, k + 1]\n"
        "    def params(self):\n        return self.ps\n"
        "class L:\n    def __init__(self):\n        self.ns = [N(1), N(5)]\n"
        "    def parameters(self):\n        return [p for n in self.ns for p in n.params()]\n"
        "    def pairs(self):\n"
        "        return {(a, b): a * b for a in range(3) if a for b in self.parameters() if b % 2}\n"
        "    def g(self):\n        return sum(x * y for x in range(4) for y in range(x))\n"
        "    def s(self):\n"
        "        return {x + y for x, _ in [(1, 2), (3, 4)] for y in [x, 2 * x] if y > 1}\n"
        "print(L().parameters(), L().pairs(), L().g(), L().s())\n"
        "print([p for n in L().ns for p in n.params()])\n"
        "print([(i, j) for i in range(3) for j in range(i) if i + j > 1])\n"
        "print(list((i, j, k) for i in range(3) for j in range(i) for k in 'ab'))\n"
        "def bad():\n    return [x for x in range(3) for y in x]\nbad()\n"
    ),
    "comprehension_clauses_errors": (
        "g = (a * b for a in range(5) for b in [1, 2, 'x'])\nprint(list(g))\n"
        "print([1 // (a - b) for a in range(3) for b in range(a + 1)])\n"
    ),
    "loop_of_comprehensions_and_backward": (
        "class V:\n    def __init__(self, d):\n        self.d, self.g = d, 0.0\n"
        "    def backward(self):\n        self.g = 1.0\n"
        "ws = [V(1.0), V(2.0)]\nx = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "for k in range(3):\n    ys = [w.d * k for w in ws]\n    s = sum(y * y for y in ys)\n"
        "    ws[0].backward()\n    (x * k).sum().backward()\n"
        "    print(k, ys, s, ws[0].g, [a + b for a in ys for b in ys if a < b])\n"
        "print(x.grad)\n"
        "for k in range(2):\n    (x * k).backward()\n"
    ),
    "own_functions_and_shadowed_methods": (
        "class A:\n    def m(self):\n        return 1\n"
        "def f(a, k):\n    return a.m() + a.g()\na = A()\na.g = lambda: 10\nprint(f(a, 1))\n"
        "a.m = lambda: 5\nprint(f(a, 1))\nb = A()\nb.g = 3\ndef h(o):\n    return o.g()\n"
        "try:\n    h(b)\nexcept TypeError as e:\n    print('TE', e)\n"
        "def k(o):\n    return o.nope(1)\nk(A())\n"
    ),
    "nested_reads_of_objects": (
        "class A:\n    def __init__(self):\n        self.x = 1\n"
        "class B:\n    x = 2\n    def m(self):\n        return 3\n"
        "def outer(k):\n    o = A()\n    def g(p):\n        o.y = p.x\n        return o.x + o.y\n"
        "    r = [g(A())]\n    o = B()\n    r.append(g(B()))\n    o = k\n"
        "    def h():\n        try:\n            return o.m()\n        except AttributeError as o2:\n"
        "            return str(o2)\n    return r, h()\n"
        "print(outer(B()))\nprint(outer(A()))\nprint(outer(5))\n"
    ),
    "comprehensions_in_comprehensions": (
        "def f(n, k):\n    m = [[i * j + k for j in range(n)] for i in range(n)]\n"
        "    s = [sum(x for x in row if x % 2) for row in m]\n"
        "    t = [[a for a in [b, c]] for b in range(2) for c in [b + 1]]\n"
        "    u = {i: {j: [i + j for _ in range(1)] for j in range(i)} for i in range(3)}\n"
        "    return m, s, t, u\nprint(f(3, 1))\n"
        "def g(rows):\n    return [[1 // v for v in r] for r in rows]\n"
        "print(g([[1, 2]]))\ng([[1], [0]])\n"
    ),
    "truth_of_containers": (
        "def f(xs, s, d, n, t):\n    out = []\n    while xs:\n        out.append(xs.pop())\n"
        "    return out, bool(s) if s else 'e', not d, n or 'z', [1 for _ in range(2) if t], "
        "(1 if None else 2)\n"
        "print(f([1, 2], '', {}, 0.0, (1,)), f([], 'a', {1: 2}, float('nan'), ()))\n"
        "def g(t):\n    if t:\n        return 1\ng(torch.tensor([1.0, 2.0]))\n"
    ),
    "state_line_print": "def f(x):\n    return x\nfor i in range(2):\n    print(f(i), f(i + 1))\n",
    "power_of_a_constant": 'def p(x):\n    return x ** 0.5, x ** 2, x ^ 3, x ** 3.0, x ** 2.0, x ** 1.0\nfor v in [4.0, 0.0, 2.5, -2.0, 1e200, -1e200, float("inf"), float("nan"), 3, True, -8]:\n    try:\n        print(p(v))\n    except Exception as e:\n        print(type(e).__name__, e)\nclass V:\n    def __init__(self, d):\n        self.d = d\n    def __pow__(self, k):\n        return V(self.d ** k)\n    def __repr__(self):\n        return f"V({self.d})"\ndef q(v):\n    return v ** 2, v ** 0.5\nprint(q(V(3.0)))\nx = 3.0\nx **= 2\nprint(x)\n',
    "int_and_float_operands": 'def f(a, b):\n    return a + b, a - b, a * b, b * a, b - a\nprint(f(3, 2.5), f(2.5, 3), f(True, 2.5), f(-7, 0.0), f(2 ** 60, 1.5))\nprint(f(2, float("inf")), f(0, float("nan")))\ntry:\n    print(f(10 ** 400, 1.5))\nexcept OverflowError as e:\n    print("OverflowError", e)\nf(10 ** 400, 2.5)\n',
    # a def whose statements a replayed call could take (`name = expression`): plain
    # Python in its first call, the fast tier's from then on; tensors still replayed
    "replayable_def_of_plain_python": (
        "class A:\n    def f(self):\n        return 1\n"
        "def g(y):\n    z = y\n    return z.f()\n"
        "def hyp(a, b):\n    s = a * a + b * b\n    return s ** 0.5\n"
        "def step(w, x):\n    y = w * x\n    return y.sum()\n"
        "w = torch.ones(3, requires_grad=True)\nt = 0.0\n"
        "for i in range(4):\n    t += hyp(i, 2.0) + g(A())\n    l = step(w, torch.ones(3))\n"
        "    l.backward()\nprint(t, w.grad, hyp(torch.tensor(3.0), 4.0))\nhyp('a', 1)\n"
    ),
    # a program's variable read as a dict's item: unbound, deleted, bound later, a hint
    "global_unbound_then_bound": (
        "def f(a):\n    return a + later\ntry:\n    f(1)\nexcept NameError as e:\n"
        "    print('caught', e)\nlater = 5\nprint(f(1))\nfor i in range(2):\n"
        "    print(i + later)\n"
    ),
    "global_deleted_in_loop": (
        "def drop():\n    global gone\n    del gone\ngone = 1\nfor i in range(3):\n"
        "    print(gone)\n    drop()\n"
    ),
    "global_unbound_hint_in_method": (
        "class C:\n    def m(self, total):\n        return totl + 1\ntotal_count = 0\n"
        "print(C().m(2))\n"
    ),
    "global_unbound_in_loop_hint": "counter = 1\nfor i in range(2):\n    print(countr)\n",
    # a nested function's objects read where it is defined (the variables of the
    # function around that nothing binds again after), or at each call when they are
    "nested_objects_read_at_definition": (
        "class P:\n    def __init__(self, x, k=2):\n        self.x = x\n        self.k = k\n"
        "    def m(self, d=1):\n        return self.x + d\n"
        "class Q(P):\n    x = 5\n"
        "def f(a, b):\n    seen = set()\n    out = []\n    c = P(3)\n"
        "    def walk(v):\n        if v not in seen:\n            seen.add(v)\n"
        "            out.append(v.x + a.x + c.m() + b.m(2))\n"
        "            if v.x > 5:\n                walk(P(v.x - 5))\n        return c.k\n"
        "    r = [walk(v) for v in (a, b, a, c)]\n    b.x = 7\n    walk(P(12))\n"
        "    return out, r\n"
        "print(f(P(1), P(2)))\nprint(f(Q(1), P(2)))\nprint(f(P(1), Q(2)))\n"
        "def g(a):\n    b = a\n    def h(n):\n        return b.x if n == 0 else h(n - 1)\n"
        "    first = h(2)\n    b = P(9)\n    return first, h(2)\n"
        "print(g(P(4)))\nprint(g(Q(4)))\n"
        "def e(a):\n    def h(n):\n        return a.y if n == 0 else h(n - 1)\n    return h(3)\n"
        "print(e(P(1)))\n"
    ),
    # one operator's function for tensors, numbers and a plain class's objects (its
    # special methods asked where no tensor or number pair answered; NotImplemented
    # refused), in an expression and in sum() of a generator
    "operators_of_objects_tensors_and_numbers": (
        "import torch\n"
        "class V:\n    def __init__(self, x):\n        self.x = x\n"
        "    def __add__(self, o):\n"
        "        return V(self.x + (o.x if isinstance(o, V) else o)) if not isinstance(o, str)"
        " else NotImplemented\n"
        "    def __radd__(self, o):\n        return V(o + self.x)\n"
        "    def __mul__(self, o):\n        return NotImplemented\n"
        "    def __repr__(self):\n        return f'V({self.x})'\n"
        "def f(a, b):\n    return a + b\n"
        "def g(a, b):\n    return a * b\n"
        "def total(xs):\n    return sum(x for x in xs)\n"
        "t = torch.tensor(1.5, requires_grad=True)\n"
        "u = torch.tensor([1.0, 2.0])\n"
        "print(f(V(1), V(2)), f(V(1), 2), f(3, V(1)), f(2, 3), f(2.5, 1), f(True, V(1)))\n"
        "print(f(t, t), f(t, 2), f(2, t), g(t, 3.0), g(t, t), f(u, u), g(u, 2))\n"
        "print(total([V(1), V(2), 3]), total([t, t, 1.0]), total([1, 2.5]))\n"
        "for a, b in [(V(1), 'x'), (V(1), None), (V(1), V(2)), (2, V(1))]:\n"
        "    for op in (f, g):\n"
        "        try:\n            print(op(a, b))\n"
        "        except TypeError as e:\n            print('TypeError', e)\n"
    ),
}


@pytest.mark.parametrize("name", sorted(PROGRAMS))
def test_programs(name):
    both(PROGRAMS[name])


def test_limits_both_ways():
    both("i = 0\nwhile i < 100:\n    i += 1\n", "--max-steps", "50")
    both("for i in range(100):\n    x = i\n", "--max-steps", "10")
    both("xs = [i for i in range(100)]\n", "--max-steps", "10")
    both("print(sum(i for i in range(100) if i))\n", "--max-steps", "150")
    both("print(len({i: i for i in range(100)}))\n", "--max-steps", "99")
    both("print(len([i * i for i in range(3000)]))\n", "--max-steps", "2999")
    both("print(sum(i for i in list(range(3000))))\n", "--max-steps", "2999")
    both(
        "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\nprint(f(40))\n",
        "--max-depth",
        "30",
    )
    both(
        "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\nprint(f(20))\n",
        "--max-depth",
        "30",
    )
    both(
        "def f(n):\n    if n == 0:\n        return 0\n    return f(n - 1) + 1\nprint(f(29))\n"
        "print(f(30))\n",
        "--max-depth",
        "30",
    )


def test_items_limit_both_ways(monkeypatch):
    """A comprehension's list, set or dict longer than the items limit: the same words
    and caret (the limit made small for the test)."""
    from gradcli.runtime import context as ctx

    made = ctx.Limits.__init__

    def small(self):
        made(self)
        self.max_items = 5

    monkeypatch.setattr(ctx.Limits, "__init__", small)
    both("print(len([i for i in range(5)]))\nprint(len([i for i in range(6)]))\n")
    both("print(len({i % 7 for i in range(20)}))\n")
    both("print(len({i: 1 for i in range(9)}))\n")
    both("print(len({[i] for i in range(9)}))\n")
    both("def f(s):\n    return f'{s}-{s}'\nprint(f('ab'))\nprint(f('abc'))\n")
    both("def f(s):\n    return f'{s!r}{s:>2}'\nprint(f(1))\nprint(f(1.5))\n")


def test_units_are_compiled():
    """The functions and loops meant for the fast tier run in it."""
    from tests.conftest import Run

    r = Run(PROGRAMS["recursion_fib"] + PROGRAMS["nested_loops"])
    assert r.error is None
    assert r.session.scope.vars["fib"].fast is not None
    from gradcli.language.compiler import Compiler
    from gradcli.language.parser import parse

    comp = Compiler(r.session.builtins)
    for name in ("nested_loops", "break_continue", "int_square_to_inf", "loop_error_keeps_values"):
        kinds = [fn.__name__ for fn, _ in comp.program(parse(PROGRAMS[name]))]
        assert "either" in kinds, name  # (compiler._either: the fast code or the closure)
    from gradcli.language.fast_comprehensions import comprehension_unit

    for source, ok in (
        ("[i * 2 for i in range(3) if i]", True),
        ("{i: 1 for i in x}", True),
        ("sum(i for i in x)", True),
        ("[i for i in x for j in x]", True),
        ("[i for i in x if i for j in range(i) if j for k in j]", True),
        ("[i for i in x for *j, k in x]", False),
        ("[(i, j) for i, j in x]", True),
        ("[(i, j) for *i, j in x]", False),
        ("[i.real for i in x]", True),
    ):
        node = parse(source).children[0].children[0].children[0]
        node = node.children[0] if node.data == "expr_stmt" else node
        if node.data == "call":
            node = node.children[1].children[0]
        assert (comprehension_unit(comp, node) is not None) == ok, source
    for source in (
        "for k in range(2):\n    ys = [x * k for x in range(3)]\n    s = sum(y for y in ys)\n",
        "for k in range(2):\n    z.backward()\n",
    ):
        kinds = [fn.__name__ for fn, _ in comp.program(parse(source))]
        assert "either" in kinds, source
    r = Run(PROGRAMS["replayable_def_of_plain_python"])
    assert r.error is not None  # (hyp('a', 1))
    v = r.session.scope.vars
    assert v["g"].fast is not None and v["hyp"].fast is not None
    assert v["step"].fast is None  # (its calls replayed)
    r = Run(PROGRAMS["comprehensions_in_comprehensions"])
    assert r.error is not None
    assert r.session.scope.vars["f"].fast is not None
    assert r.session.scope.vars["g"].fast is not None
    for source in ("for i in range(3):\n    print(i.real, [*i])\n", "while x:\n    del y\n"):
        kinds = [fn.__name__ for fn, _ in comp.program(parse(source))]
        assert "either" not in kinds


_OPS = st.sampled_from(["+", "-", "*", "/", "//", "%", "^"])
_CMPS = st.sampled_from(["<", "<=", ">", ">=", "==", "!="])
_ATOMS = st.one_of(
    st.integers(-5, 5).map(str),
    st.sampled_from(["0.5", "2.0", "-1.5", "a", "b", "i", "True", "3000000000"]),
)


@st.composite
def _exprs(draw, depth=0):
    if depth > 2 or draw(st.booleans()):
        return draw(_ATOMS)
    kind = draw(st.sampled_from(["op", "cmp", "neg", "if"]))
    x, y = draw(_exprs(depth + 1)), draw(_exprs(depth + 1))
    if kind == "op":
        return f"({x} {draw(_OPS)} {y})"
    if kind == "cmp":
        return f"({x} {draw(_CMPS)} {y})"
    if kind == "neg":
        return f"(-{x})"
    return f"({x} if {y} else {draw(_exprs(depth + 1))})"


@settings(max_examples=60, deadline=None)
@given(e1=_exprs(), e2=_exprs(), c=_exprs())
def test_generated_programs(e1, e2, c):
    source = (
        f"def f(a, b):\n    i = 2\n    r = {e1}\n    if {c}:\n        r = r + 1\n    return r, {e2}\n"
        f"a = 3\nb = -2.5\nt = 0\nfor i in range(4):\n    t = t + 1\n    a = {e1}\n    if {c}:\n        b = {e2}\n"
        "print(a, b)\nprint(f(7, 2))\nprint(f(0.25, -3))\n"
    )
    both(source)


_INT_ATOMS = st.one_of(
    st.integers(-9, 9).map(str), st.sampled_from(["n", "i", "t", "3000000000", "65536"])
)


@st.composite
def _int_exprs(draw, depth=0):
    if depth > 2 or draw(st.booleans()):
        return draw(_INT_ATOMS)
    op = draw(st.sampled_from(["+", "-", "*", "//", "%"]))
    x = draw(_int_exprs(depth + 1))
    if op in ("//", "%"):
        y = draw(st.sampled_from(["3", "-7", "1", "0", "n"]))
    else:
        y = draw(_int_exprs(depth + 1))
    return f"({x} {op} {y})"


@settings(max_examples=60, deadline=None)
@given(e=_int_exprs(), r=_int_exprs(), n=st.sampled_from(["3", "-2", "0.5", "True", "40"]))
def test_generated_int_programs(e, r, n):
    """Ints only: the bodies specialized for ints (fast_types.py), their size tests and
    the values beyond them, against the closure compiler."""
    source = (
        f"def f(n):\n    t = 1\n    i = 0\n    while i < 6:\n        t = {e}\n        i += 1\n"
        f"    return t\n"
        f"def g(n):\n    if n < 1:\n        return n\n    return g(n - 1) * 2 + {r.replace('t', '1')}\n"
        f"n = {n}\nt = 2\nfor i in range(5):\n    t = {e}\n"
        f"print(t)\nprint(f({n}))\nprint(g(4))\n"
    )
    both(source)


# objects of the program's classes in the fast tier (fast_objects.py): methods,
# attributes, method calls, making objects, operators dispatched to special methods
OBJECTS = {
    # comparisons of two objects of one class: the special method's compiled code called,
    # then the rest of Python's protocol (the reflected method, identity, the TypeError)
    "in_place_special_methods": 'class Acc:\n    def __init__(self, v):\n        self.v = v\n    def __iadd__(self, o):\n        print("iadd", o.v if isinstance(o, Acc) else o)\n        if isinstance(o, Acc):\n            self.v += o.v\n            return self\n        return NotImplemented\n    def __add__(self, o):\n        print("add")\n        if isinstance(o, Acc):\n            return Acc(self.v + o.v)\n        return NotImplemented\n    def __imul__(self, o):\n        self.v *= o\n        return self\n    def __repr__(self):\n        return f"Acc({self.v})"\nclass P:\n    def __init__(self, v):\n        self.v = v\n    def __add__(self, o):\n        return P(self.v + o.v)\n    def __repr__(self):\n        return f"P({self.v})"\ndef f(a, b):\n    c = a\n    c += b\n    c *= 3\n    return a, c\nprint(f(Acc(1), Acc(2)))\ndef g(a, b):\n    a += b\n    return a\nprint(g(P(1), P(2)), g(Acc(1), Acc(5)))\ndef h(a, x):\n    a += x\n    return a\ntry:\n    h(Acc(1), 2)\nexcept TypeError as e:\n    print("TypeError", e)\ndef k(a):\n    a -= a\n    return a\ntry:\n    k(Acc(1))\nexcept TypeError as e:\n    print("TypeError", e)\n',
    "comparisons_of_one_class": (
        "class F:\n    def __init__(self, n):\n        self.n = n\n"
        "    def __lt__(self, o):\n        print('lt')\n        return self.n < o.n\n"
        "    def __ge__(self, o):\n        return NotImplemented\n"
        "    def __le__(self, o):\n        return 1 // 0\n"
        "def f(a, b):\n    return a < b, b < a, a == b, a != b, a == a\n"
        "print(f(F(1), F(2)), f(F(2), F(1)))\n"
        "def g(a, b):\n    if a < b:\n        return 'less'\n    return 'not'\n"
        "print(g(F(1), F(2)), g(F(1), 3) if False else 0)\n"
        "def h(a, b, op):\n    if op == 0:\n        return a <= b\n    if op == 1:\n"
        "        return a >= b\n    return a < b\n"
        "for op in range(3):\n    try:\n        print(h(F(1), F(2), op))\n"
        "    except (TypeError, ZeroDivisionError) as e:\n        print(type(e).__name__, e)\n"
        "print(h(F(1), 2, 2))\n"
    ),
    # a special method or method replaced after calls kept its fast function
    "special_methods_replaced_after_use": (
        "class V:\n    def __init__(self, x):\n        self.x = x\n"
        "    def __add__(self, o):\n        return V(self.x + o.x)\n"
        "    def __neg__(self):\n        return V(-self.x)\n"
        "    def get(self):\n        return self.x\n"
        "    def __repr__(self):\n        return f'V({self.x})'\n"
        "def use(a, b):\n    return a + b, -a, a.get(), repr(a)\n"
        "a, b = V(1), V(2)\nfor i in range(2):\n    print(use(a, b))\n"
        "def add2(s, o):\n    return V(s.x + 2 * o.x)\nV.__add__ = add2\n"
        "V.__neg__ = lambda s: 'negated'\nV.get = lambda s: s.x * 10\n"
        "V.__repr__ = lambda s: 'v' + str(s.x)\nprint(use(a, b))\n"
        "class W(V):\n    pass\nw = W(3)\nprint(use(w, w))\n"
        "def add3(s, o, extra=1):\n    return V(s.x + o.x + extra)\nV.__add__ = add3\n"
        "print(use(a, b), use(w, b))\nV.__init__ = lambda s, x: None\nprint(use(a, b))\n"
    ),
    "vector_class": (
        "class Vec:\n    def __init__(self, x, y):\n        self.x = x\n        self.y = y\n"
        "    def __add__(self, o):\n        return Vec(self.x + o.x, self.y + o.y)\n"
        "    def __sub__(self, o):\n        return self + o * -1\n"
        "    def __mul__(self, k):\n        return Vec(self.x * k, self.y * k)\n"
        "    def __rmul__(self, k):\n        return self * k\n"
        "    def __radd__(self, k):\n        return Vec(self.x + k, self.y + k)\n"
        "    def __neg__(self):\n        return Vec(-self.x, -self.y)\n"
        "    def __eq__(self, o):\n        return self.x == o.x and self.y == o.y\n"
        "    def __lt__(self, o):\n        return self.norm2() < o.norm2()\n"
        "    def __repr__(self):\n        return f'Vec({self.x}, {self.y})'\n"
        "    def norm2(self):\n        return self.x * self.x + self.y * self.y\n"
        "    def scaled(self, k, j):\n        return Vec(self.x * k, self.y * j)\n"
        "v = Vec(1, 2.5)\nw = Vec(0.5, -1)\nn = 0\nfor i in range(5):\n"
        "    v = v + w * 0.5 - Vec(i, 1)\n    n += v.norm2()\n    u = 1 + 2 * v\n"
        "print(v, w, n, u, -v, v == Vec(v.x, v.y), v < w, w < v, v.scaled(2, 3))\n"
        "print(f'{v} and {w!r}', repr(v), str(w), [v, w])\n"
    ),
    "inheritance_and_super": (
        "class A:\n    kind = 'a'\n    def __init__(self, x):\n        self.x = x\n"
        "    def f(self):\n        return self.x + 1\n    def g(self):\n        return self.f() * 2\n"
        "class B(A):\n    def __init__(self, x, y):\n        super().__init__(x)\n        self.y = y\n"
        "    def f(self):\n        return self.x + self.y\n"
        "class C(B):\n    kind = 'c'\n"
        "def run(o):\n    return o.g(), o.kind, o.x\n"
        "for o in [A(1), B(1, 5), C(2, 3)]:\n    print(run(o))\n"
        "A.kind = 'changed'\nprint(run(B(0, 0)), run(C(0, 0)))\n"
    ),
    "class_attributes_and_shadowing": (
        "class K:\n    n = 0\n    def __init__(self):\n        K.n = K.n + 1\n        self.id = K.n\n"
        "    def who(self):\n        return self.id\n"
        "def f(k):\n    k.who = 7\n    return k.who, k.n\n"
        "a = K()\nb = K()\nprint(a.who(), b.who(), f(a), K.n, a.n)\n"
        "def g(k):\n    return k.who()\nprint(g(b))\ng(a)\n"
    ),
    "properties_and_decorated_methods": (
        "class P:\n    def __init__(self, v):\n        self._v = v\n"
        "    @property\n    def v(self):\n        return self._v * 2\n"
        "    @v.setter\n    def v(self, x):\n        self._v = x + 1\n"
        "    @staticmethod\n    def s(a):\n        return a * 3\n"
        "    @classmethod\n    def c(cls, a):\n        return cls(a)\n"
        "def use(p):\n    p.v = 10\n    return p.v, p.s(2), p.c(4).v, P.s(1)\n"
        "print(use(P(1)))\n"
    ),
    "callable_attribute": (
        "class H:\n    def __init__(self):\n        self.f = lambda: 5\n    def f(self):\n        return 1\n"
        "def call(h):\n    return h.f()\nprint(call(H()))\n"
    ),
    "not_implemented": (
        "class N:\n    def __add__(self, o):\n        return NotImplemented\n"
        "def f(a):\n    return a + 1\nf(N())\n"
    ),
    "reflected_not_implemented": (
        "class N:\n    def __radd__(self, o):\n        return NotImplemented\n"
        "def f(a):\n    return 1 + a\nf(N())\n"
    ),
    "augmented_special_methods": (
        "class Acc:\n    def __init__(self):\n        self.t = 0\n"
        "    def __iadd__(self, k):\n        self.t = self.t + k\n        return self\n"
        "    def __add__(self, k):\n        return 'plain add'\n"
        "    def __repr__(self):\n        return 'Acc(' + str(self.t) + ')'\n"
        "class Plain:\n    def __init__(self, t):\n        self.t = t\n"
        "    def __add__(self, k):\n        return Plain(self.t + k)\n"
        "a = Acc()\np = Plain(1)\nfor i in range(3):\n    a += i\n    p += i\nprint(a, p.t)\n"
    ),
    "missing_attribute": (
        "class M:\n    def __init__(self):\n        self.value = 1\n"
        "def f(m):\n    return m.valeu\nf(M())\n"
    ),
    "missing_method": (
        "class M:\n    def run(self):\n        return 1\ndef f(m):\n    return m.rnu()\nf(M())\n"
    ),
    "error_in_method": (
        "class M:\n    def __init__(self, x):\n        self.x = x\n"
        "    def bad(self):\n        return self.x + 'a'\n"
        "    def __add__(self, o):\n        return self.bad()\n"
        "def f(m):\n    return m.bad()\nprint(M(1).x)\nf(M(1))\n"
    ),
    "error_in_dunder": (
        "class M:\n    def __init__(self, x):\n        self.x = x\n"
        "    def __add__(self, o):\n        return self.x // o\n"
        "def f(m):\n    return m + 0\nf(M(1))\n"
    ),
    "error_in_init": (
        "class M:\n    def __init__(self, x):\n        self.x = 1 // x\n"
        "def f(k):\n    return M(k)\nprint(f(1).x)\nf(0)\n"
    ),
    "init_returns_value": (
        "class M:\n    def __init__(self, x):\n        return x\n"
        "def f(k):\n    return M(k)\nprint(f(None))\nf(3)\n"
    ),
    "wrong_arity_method": (
        "class M:\n    def m(self, a):\n        return a\ndef f(o):\n    return o.m(1, 2)\nf(M())\n"
    ),
    "wrong_arity_init": (
        "class M:\n    def __init__(self, a):\n        self.a = a\ndef f():\n    return M()\nf()\n"
    ),
    "not_callable_attribute": (
        "class M:\n    def __init__(self):\n        self.k = 3\ndef f(o):\n    return o.k()\nf(M())\n"
    ),
    "attributes_of_other_objects": (
        "import math\nt = torch.tensor([1.0, 2.0], requires_grad=True)\n"
        "def f(t, xs, d):\n    y = t * 2\n    s = y.sum()\n    s.backward()\n"
        "    xs.append(math.pi)\n    return t.grad, t.shape, y.grad_fn, xs, d.get('a'), t.requires_grad\n"
        "print(f(t, [1], {'a': 2}))\n"
        "for i in range(2):\n    t.grad = None\n    print(t.grad, t.data)\n"
    ),
    "attribute_of_int": "def f(x):\n    return x.foo\nf(3)\n",
    "set_attribute_of_tensor": "def f(t):\n    t.foo = 1\nf(torch.tensor(1.0))\n",
    "set_attribute_of_int": "def f(x):\n    x.foo = 1\nf(3)\n",
    "set_grad_of_tensor": (
        "def f(t, g):\n    t.grad = g\n    return t.grad\n"
        "print(f(torch.tensor([1.0]), torch.tensor([2.0])))\nf(torch.tensor([1.0]), 3)\n"
    ),
    "dunder_attributes": (
        "class D:\n    def __init__(self):\n        self.a = 1\n"
        "def f(d):\n    return d.__class__, d.__add__\nprint(f(D())[0])\nf(D())\n"
    ),
    "dunder_dict_refused": "class D:\n    pass\ndef f(d):\n    return d.__dict__\nf(D())\n",
    "method_globals_refused": (
        "class D:\n    def m(self):\n        return 1\ndef f(d):\n    return d.m.__globals__\nf(D())\n"
    ),
    "module_subclass": (
        "import torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.fc = nn.Linear(2, 1)\n        self.k = 2.0\n"
        "    def forward(self, x):\n        return self.fc(x) * self.k\n"
        "torch.manual_seed(0)\nnet = Net()\n"
        "def run(m, x):\n    m.k = 3.0\n    return m(x), m.k, m.fc.weight.shape\n"
        "print(run(net, torch.ones(1, 2)))\n"
    ),
    "error_in_method_of_loop": (
        "class M:\n    def __init__(self, x):\n        self.x = x\n    def inv(self):\n"
        "        return 1 / self.x\ns = 0\nfor i in range(3):\n    s += M(2 - i).inv()\n"
    ),
    "objects_in_comprehensions": (
        "class P:\n    def __init__(self, v):\n        self.v = v\n"
        "ps = [P(i) for i in range(4)]\nprint([p.v * 2 for p in ps], sum(p.v for p in ps))\n"
        "print([p.w for p in ps])\n"
    ),
    "frames_of_methods": (
        "import inspect\nclass Q:\n    def __init__(self, a):\n        self.a = a\n"
        "    def look(self):\n        fr = inspect.currentframe().f_back\n"
        "        return fr.f_locals if fr is not None else None\n"
        "    def outer(self, z):\n        return self.look()\n"
        "def f(q):\n    w = 5\n    return q.outer(1), q.look()\nprint(f(Q(2)))\n"
    ),
    "fstrings": (
        "class R:\n    def __repr__(self):\n        return 'R!'\n"
        "class S:\n    def __str__(self):\n        return 'S!'\n"
        "class F:\n    def __format__(self, spec):\n        return 'F' + spec\n"
        "t = torch.tensor(0.25)\n"
        "def f(x, s, n):\n    a = f'{x} {x!r} {s} {s!r} {n:>5} {x:.3f} {x = } {n=}'\n"
        "    b = 'lit' f'{n + 1}' \"more\" f\"{s}{{}}\"\n"
        "    return a, b, f'{R()} {S()} {F():xy} {R()!r} {t} {[x, s]} {None} {True}'\n"
        "for v in [(1.5, 'q', 7), (2, 'é', -3), (1e300, '', 0)]:\n    print(f(*v))\n"
        "def g(x):\n    if f'{x}':\n        return f'{x:zz}'\n"
        "print(g(''))\nprint(g(3))\n"
    ),
    "fstring_format_error_in_call": "def f(x):\n    print(1, f'{x:q}')\nf(2.5)\n",
    "fstring_field_error": "def f(x):\n    y = f'a{x.nope}b'\nf(2.5)\n",
    "fstring_in_loop": "s = 0\nfor i in range(3):\n    s = f'{s}{i:02d}'\nprint(s)\nfor i in range(2):\n    s = f'{i:zz}'\n",
    "methods_replaced_after_use": (
        "class A:\n    def m(self):\n        return 'A.m'\n"
        "class B(A):\n    pass\n"
        "def other(self):\n    return 'other'\n"
        "def call(o):\n    return o.m()\n"
        "b = B()\nprint(call(b), call(A()))\nA.m = other\nprint(call(b), call(A()))\n"
        "B.m = lambda self: 'lambda'\nprint(call(b), call(A()))\nA.m = 3\nprint(call(A()))\n"
    ),
    "dataclass_methods": (
        "from dataclasses import dataclass\n@dataclass\nclass P:\n    x: float\n    y: float = 0.0\n"
        "    def norm(self):\n        return self.x * self.x + self.y * self.y\n"
        "def f(a, b):\n    return P(a, b), P(a, b).norm(), P(a, b) == P(a, b)\n"
        "for i in range(2):\n    print(f(i, 2.0))\n"
    ),
    "parameter_bound_again": (
        "class A:\n    def __init__(self, v):\n        self.v = v\n"
        "    def swap(self, o):\n        self = o\n        return self.v\n"
        "    def same(self, o):\n        if o.v > 1:\n            o = A(o.v - 1)\n        return o.v\n"
        "print(A(1).swap(A(2)), A(1).same(A(5)), A(1).swap(torch.tensor([1.0])))\n"
    ),
    "parameter_of_another_kind": (
        "class A:\n    def __init__(self, v):\n        self.v = v\n"
        "def f(o):\n    o.v = 3\n    return o.v\n"
        "print(f(A(1)))\nimport math\nprint(f.__name__)\nf(math)\n"
    ),
    "instance_variable_deleted": (
        "class A:\n    k = 'class'\n    def __init__(self):\n        self.k = 'mine'\n"
        "def f(a):\n    r = a.k\n    del a.k\n    return r, a.k\n"
        "print(f(A()))\n"
    ),
    "repr_of_objects": (
        "class A:\n    def __init__(self, v):\n        self.v = v\n"
        "    def __repr__(self):\n        return 'A(' + repr(self.v) + ')'\n"
        "class B(A):\n    pass\nclass C:\n    pass\n"
        "class D:\n    def __repr__(self):\n        return 1 // 0\n"
        "class E:\n    def __repr__(self):\n        return 5\n"
        "def f(x):\n    return repr(x)\n"
        "for x in [A(1), B('s'), A(A(2.5)), C(), torch.tensor([1.0]), [A(3)], 'q', 2]:\n"
        "    print(f(x))\n"
        "def g(x):\n    repr = str\n    return repr(x)\nprint(g('q'))\n"
        "try:\n    f(D())\nexcept ZeroDivisionError as e:\n    print('caught', e)\n"
        "f(E())\n"
    ),
    "repr_error_in_method": (
        "class D:\n    def __repr__(self):\n        return self.nope\n"
        "def f(x):\n    return repr(x)\nf(D())\n"
    ),
    "augmented_attributes": (
        "class A:\n    def __init__(self, t):\n        self.g = 0.0\n        self.n = 0\n        self.t = t\n"
        "    def add(self, v):\n        self.g += v * 2\n        self.n += 1\n        self.t -= v * 0.5\n"
        "        self.t *= 3\n        self.s = 'a'\n        self.s += 'b'\n        return self.g\n"
        "a = A(torch.tensor([1.0]))\nu = a.t\nfor i in range(3):\n    a.add(i)\n    a.g -= 0.25\n"
        "print(a.g, a.n, a.t, u is a.t, a.s)\n"
        "def f(o):\n    o.g += 'x'\nf(a)\n"
    ),
    "augmented_attribute_missing": "class A:\n    pass\ndef f(o):\n    o.g += 1\nf(A())\n",
    "augmented_attribute_of_tensor": (
        "def f(t):\n    t.grad += 1\nx = torch.tensor([1.0], requires_grad=True)\nf(x)\n"
    ),
    "strings_in_functions": (
        "def f(s, n):\n    t = ''\n    i = 0\n    while i < n:\n        t = t + s + 'ab' 'cd'\n"
        "        i += 1\n    return t, t == 'x', t < 'zz', 'q' * 2\nprint(f('-', 2))\nf(1, 1)\n"
    ),
    "functions_kept_in_objects": (
        "def bad(x):\n    return 1 // x\n"
        "class K:\n    def __init__(self, k):\n        self.k = k\n        self.f = bad\n"
        "        self.g = lambda: self.k * 2\n        self.h = abs\n"
        "    def run(self):\n        return self.g(), self.h(-self.k), self.f(self.k)\n"
        "print(K(2).run())\nK(0).run()\n"
    ),
    "function_kept_wrong_arity": (
        "class K:\n    def __init__(self):\n        self.f = lambda a: a\n"
        "    def run(self):\n        return self.f()\nK().run()\n"
    ),
    "own_variables_read_as_python_reads_them": (
        "class A:\n    def __init__(self, v):\n        self.value = v\n"
        "    def get(self, other):\n        return self.value, other.value, self.value + other.value\n"
        "    def later(self):\n        A.value = property(lambda s: 'prop')\n        return self.value\n"
        "a, b = A(1), A(2.5)\nprint(a.get(b), a.get(a))\n"
        "for i in range(3):\n    c = A(i)\n    print(c.value, a.get(c))\n"
        "print(a.later(), b.value, A(3).value)\n"
    ),
    "own_variable_missing_in_method": (
        "class A:\n    def __init__(self):\n        self.value = 1\n"
        "    def get(self):\n        return self.valeu\nA().get()\n"
    ),
    "own_variable_missing_in_loop": (
        "class A:\n    def __init__(self, v):\n        if v:\n            self.v = v\n"
        "t = 0\nfor i in range(3, -1, -1):\n    t += A(i).v\n"
    ),
    "own_variable_missing_in_try": (
        "class A:\n    pass\n"
        "def f(a):\n    try:\n        return a.nope\n    except AttributeError as e:\n"
        "        return 'caught: ' + str(e)\nprint(f(A()))\n"
    ),
    "variable_set_before_class_attribute": (
        "class A:\n    def __init__(self):\n        self.k = 1\n"
        "    def set(self, v):\n        self.k = v\n        return self.k\n"
        "a = A()\nprint(a.set(2))\nA.k = property(lambda s: 'p', lambda s, v: print('setter', v))\n"
        "print(a.set(3), a.k)\n"
    ),
    "operators_with_number_constants": (
        "class V:\n    def __init__(self, x):\n        self.x = x\n"
        "    def __add__(self, o):\n        return V(self.x + (o.x if isinstance(o, V) else o))\n"
        "    def __mul__(self, k):\n        return V(self.x * k) if not isinstance(k, str) else NotImplemented\n"
        "    def __rmul__(self, k):\n        return V(k * self.x + 0.5)\n"
        "    def __sub__(self, o):\n        return NotImplemented\n"
        "    def __rtruediv__(self, k):\n        return k / self.x\n"
        "    def __repr__(self):\n        return f'V({self.x})'\n"
        "def f(v):\n    a = v * 2\n    b = 2 * v\n    c = v * 0.5\n    d = 0.5 * v\n"
        "    e = True * v\n    g = v + v + 1\n    h = 1 / v\n    w = v\n    w *= 3\n    w += v\n"
        "    k = 2\n    k *= v\n    return a, b, c, d, e, g, h, w, k\n"
        "print(f(V(3)), f(V(0.25)))\n"
        "for i in range(2):\n    print(V(i) * 2, 3 * V(i), V(i) + 1.5)\n"
        "def bad(v, which):\n    if which == 0:\n        return v - 1\n    if which == 1:\n        return 1 - v\n"
        "    if which == 2:\n        return v * 'a'\n    if which == 3:\n        return 2 ** v\n    v -= 2\n"
        "for which in range(5):\n    try:\n        bad(V(1), which)\n    except TypeError as e:\n        print(which, e)\n"
        "bad(V(2), 0)\n"
    ),
    "parameters_of_several_classes": (
        "import torch.nn as nn\n"
        "class A:\n    def __init__(self, v):\n        self.v = v\n    def get(self):\n        return self.v\n"
        "class B(A):\n    pass\nclass P:\n    v = 'class'\n"
        "class M(nn.Module):\n    def __init__(self):\n        super().__init__()\n        self.v = 'module'\n"
        "def get(o):\n    return o.v\ndef put(o, x):\n    o.v = x\n    return o.get()\n"
        "for o in [A(1), B(2), A(3), P(), M(), B(4), A(5)]:\n    print(get(o))\n"
        "for o in [B(1), A(2)]:\n    print(put(o, 7), get(o))\n"
        "A.v = property(lambda s: 'prop')\nprint(get(B(0)))\n"
        "for o in [A(1), B(2)]:\n    print(get(o), o.get())\n"
    ),
    "negated_objects": (
        "class V:\n    def __init__(self, x):\n        self.x = x\n"
        "    def __neg__(self):\n        return V(-self.x) if self.x else NotImplemented\n"
        "    def __repr__(self):\n        return f'V({self.x})'\n"
        "class W:\n    pass\nclass Bad:\n    def __neg__(self):\n        return 1 // 0\n"
        "def f(v):\n    return -v\n"
        "print(f(V(2)), f(V(-1.5)), f(V(0)), -V(3), f(2), f(-0.0))\n"
        "for x in [V(1), V(2.5)]:\n    print(-x, -(-x))\n"
        "try:\n    f(W())\nexcept TypeError as e:\n    print(e)\nf(Bad())\n"
    ),
    "module_attributes": (
        "import torch.nn as nn\nclass Net(nn.Module):\n    def __init__(self):\n"
        "        super().__init__()\n        self.w = nn.Parameter(torch.tensor(2.0))\n"
        "        self.register_buffer('b', torch.tensor([1.0, 3.0]))\n"
        "        self.inner = nn.Linear(2, 1)\n        self.k = 3\n"
        "    def forward(self, x):\n        return self.w * x + self.b[0] + self.k\n"
        "    def names(self):\n        return self.w, self.b, type(self.inner).__name__, self.k\n"
        "    def missing(self):\n        return self.nothing\n"
        "    def method(self):\n        return self.parameters\n"
        "class Sub(Net):\n    pass\n"
        "n, s = Net(), Sub()\nprint(n(1.5), n.names(), s(2.0), s.names()[0])\n"
        "print(type(n.method()).__name__)\n"
        "Net.w = 'the class'\nprint(n.names()[0], s.names()[0])\n"
        "Sub.w = property(lambda o: 'prop')\nprint(n.names()[0], s.names()[0])\n"
        "del n.b\ntry:\n    n.names()\nexcept AttributeError as e:\n    print(e)\n"
        "s.missing()\n"
    ),
    "error_in_reflected_dunder": (
        "class M:\n    def __init__(self, x):\n        self.x = x\n"
        "    def __rmul__(self, o):\n        return self.x // o\n"
        "def f(m):\n    return 0 * m\nprint(f(M(4)) if False else 1)\nf(M(1))\n"
    ),
}


@pytest.mark.parametrize("name", sorted(OBJECTS))
def test_objects(name):
    both(OBJECTS[name])


def test_methods_are_compiled():
    """The methods of a class, their attributes, method calls and objects made, and a
    top-level loop over such objects run in the fast tier."""
    from tests.conftest import Run

    r = Run(OBJECTS["vector_class"])
    assert r.error is None
    vec = r.session.scope.vars["Vec"]
    for name in ("__init__", "__add__", "__mul__", "__neg__", "norm2", "scaled"):
        assert vec.__dict__[name].fast is not None, name
    from gradcli.language.compiler import Compiler
    from gradcli.language.parser import parse

    comp = Compiler(r.session.builtins)
    loop = "for i in range(3):\n    v = v + Vec(1, 2) * 0.5\n    n += v.norm2()\n    v.x = 1\n"
    kinds = [fn.__name__ for fn, _ in comp.program(parse(loop))]
    assert "either" in kinds


# calls of built-ins in the fast tier (fast_calls.py, fast_builtins.py): a built-in
# function by its name, a list's, set's or dict's method, a function of gradcli's own
# modules, `in` with a set or dict, a loop over a container, nested functions made
BUILTIN_CALLS = {
    "set_of_items": (
        "class V:\n    pass\nclass H:\n    def __init__(self, k):\n        self.k = k\n"
        "    def __hash__(self):\n        return self.k\n"
        "    def __eq__(self, o):\n        return self.k == o.k\n"
        "class E:\n    def __eq__(self, o):\n        return True\n"
        "def f(a, b):\n    return set((a, b)), set([a]), set(), set(()), set('ab') == {'a', 'b'}\n"
        "v = V()\nprint(f(1, 2.5), f('x', None), f(True, 1), f(v, v)[0] == {v})\n"
        "print(len(f(H(1), H(1))[0]), f((1, 2), 3)[0] == {(1, 2), 3}, f(range(2), 1)[0] == {range(2), 1})\n"
        "def g(x):\n    return set(x)\nprint(g({1: 2}), g(range(3)), sorted(g(x * 2 for x in range(3))))\n"
        "try:\n    f(E(), 1)\nexcept TypeError as e:\n    print('caught', e)\n"
        "f([1], 2)\n"
    ),
    "set_of_bad_values": "def f(x):\n    return set(x)\nprint(f([1]))\nf(3)\n",
    "isinstance_of_classes": (
        "class A:\n    pass\nclass B(A):\n    pass\n"
        "def f(x, c):\n    return isinstance(x, c)\n"
        "for x in [A(), B(), 3, 2.5, 'a', None, True, torch.tensor(1.0)]:\n"
        "    print(f(x, A), f(x, B), f(x, int), f(x, (A, float)), f(x, object), f(x, bool))\n"
        "try:\n    1 // 0\nexcept ZeroDivisionError as e:\n"
        "    print(f(e, ArithmeticError), f(e, Exception), f(e, A))\n"
        "f(1, 2)\n"
    ),
    "len_of_values": (
        "class L:\n    def __len__(self):\n        return 4\n"
        "def f(x):\n    return len(x)\n"
        "for x in [[1, 2], (1,), 'abc', {1: 2}, {3}, range(5), torch.zeros(3, 2), L(), '']:\n"
        "    print(f(x))\nf(3)\n"
    ),
    "zip_and_reversed": (
        "def f(a, b):\n    return list(zip(a, b)), list(reversed(a)), list(zip(a)), list(zip(a, b, a))\n"
        "print(f([1, 2, 3], 'ab'), f((1,), range(4)), f('xy', [None]), f(range(3), (x for x in 'abc')))\n"
        "def g(n):\n    return list(zip(range(n), range(n, 2 * n)))\nprint(g(3))\nf(3, [1])\n"
    ),
    "reversed_of_other": "def f(x):\n    return list(reversed(x))\nprint(f([1, 2]))\nf({1: 2})\n",
    "sum_of_objects": (
        "class V:\n    def __init__(self, d):\n        self.d = d\n"
        "    def __add__(self, o):\n        o = o if isinstance(o, V) else V(o)\n        return V(self.d + o.d)\n"
        "    def __radd__(self, o):\n        return self + o\n"
        "    def __repr__(self):\n        return f'V({self.d})'\n"
        "def f(xs, start):\n    return sum((x * 2 for x in xs), start), sum(x for x in xs)\n"
        "print(f([1, 2.5], 0), f([2 ** 70, 2 ** 70], 1), f([True, 2], 0.5), f([], V(0)))\n"
        "def g(vs, k):\n    return sum((v for v in vs), k), sum(v for v in vs), sum([k, k]), sum(vs, V(1))\n"
        "print(g([V(1), V(2.5)], V(3)), g([V(2)], 4))\n"
        "def h(vs):\n    return sum(v for v in vs)\nprint(h(['a']))\n"
    ),
    "sum_error_in_method": (
        "class V:\n    def __init__(self, d):\n        self.d = d\n"
        "    def __add__(self, o):\n        return V(self.d // o.d)\n"
        "def f(vs):\n    return sum((v for v in vs), V(1))\nprint(f([V(2)]).d)\nf([V(0)])\n"
    ),
    "sum_error_in_items": "def f(xs):\n    return sum(1 / x for x in xs)\nprint(f([1, 2]))\nf([1, 0])\n",
    "list_methods": (
        "def f(xs, v):\n    xs.append(v)\n    xs.append(xs.pop(0))\n    xs.insert(1, v)\n"
        "    c = xs.copy()\n    xs.reverse()\n    c.clear()\n    return xs, c, xs.pop(), xs.index(v)\n"
        "print(f([1, 2, 3], 'x'), f([None], [1]))\n"
        "def g(n):\n    xs = []\n    for i in range(n):\n        xs.append(i)\n    return len(xs), xs[-1]\n"
        "print(g(70000))\n"
        "def h(xs):\n    return xs.pop()\nh([])\n"
    ),
    "list_method_arity": "def f(xs):\n    xs.append(1, 2)\nf([])\n",
    "list_method_none": "def f(xs):\n    xs.append()\nf([])\n",
    "set_methods": (
        "class V:\n    pass\nclass H:\n    def __hash__(self):\n        return 1\n"
        "def f(s, v):\n    s.add(v)\n    s.add(v)\n    s.discard(7)\n    t = s.copy()\n"
        "    t.remove(v)\n    n = len(s)\n    s.clear()\n    return n, t, s\n"
        "v = V()\nprint(f({1}, 2), f(set(), 'a'), f({v}, v), f(set(), H())[0], f({1}, (1, 2)))\n"
        "def g(s):\n    s.add([1])\ng(set())\n"
    ),
    "set_remove_missing": "def f(s):\n    s.remove(3)\nf({1})\n",
    "dict_methods": (
        "def f(d, k):\n    d.setdefault(k, []).append(1)\n    d.setdefault(k, []).append(2)\n"
        "    return d.get(k), d.get('zz'), d.get('zz', 0), list(d.keys()), list(d.values()),\n"
        "        list(d.items()), d.copy(), d.pop(k), d.pop('q', 5)\n"
        "print(f({}, 'a'), f({1: 2}, 3.5))\n"
        "def g(d):\n    return d.get([1])\ng({})\n"
    ),
    "dict_pop_missing": "def f(d):\n    return d.pop('k')\nf({})\n",
    "module_functions": (
        "import math\nimport random\n"
        "def f(x):\n    random.seed(7)\n    return math.tanh(x), math.exp(x), math.floor(x), random.uniform(-1, 1),\n"
        "        random.random(), math.log(x, 2), math.isclose(x, x)\n"
        "print(f(0.5), f(3), f(True))\n"
        "def g(x):\n    return math.sqrt(x)\nprint(g(4))\n"
        "def h(xs):\n    return math.fsum(xs), math.prod(xs)\nprint(h([1, 2.5]))\n"
        "def k():\n    return math.pi, math.nope()\nk()\n"
    ),
    "module_function_error": "import math\ndef f(x):\n    return math.sqrt(x)\nprint(f(2))\nf(-1)\n",
    "module_not_callable": "import math\ndef f():\n    return math.pi()\nf()\n",
    "membership": (
        "class V:\n    pass\nclass H:\n    def __init__(self, k):\n        self.k = k\n"
        "    def __hash__(self):\n        return 1\n    def __eq__(self, o):\n        return self.k == o\n"
        "def f(a, b):\n    return a in b, a not in b\n"
        "v = V()\nfor a, b in [(1, {1, 2}), (1.0, {1}), (True, {1: 2}), ('a', {}), (v, {v}), (v, {1}),\n"
        "             (H(3), {3}), (3, {H(3)}), (2, [1, 2]), ('a', 'cat'), (v, {v: 1}), (None, {None})]:\n"
        "    print(f(a, b))\n"
        "f([1], {1})\n"
    ),
    "membership_unhashable_dict": "def f(d):\n    return {} in d\nf({1: 2})\n",
    "loops_over_containers": (
        "def f(x):\n    out = []\n    for v in x:\n        out.append(v)\n    return out\n"
        "print(f([1, 2]), f((3,)), f('ab'), f(range(2)), f({5, 6}), f({'a': 1, 'b': 2}))\n"
        "print(f({1: 2}.items()), f(x * 2 for x in range(3)), f(torch.tensor([1.0, 2.0])))\n"
        "def g(s):\n    for v in s:\n        if v < 3:\n            s.add(v + 10)\n"
        "g({5})\ng({1})\n"
    ),
    "dict_changed_in_loop": "def f(d):\n    for k in d:\n        d[str(k)] = 1\nf({1: 2})\n",
    "frames_in_called_back_methods": (
        "import inspect\nclass H:\n    def __init__(self, k):\n        self.k = k\n"
        "    def __hash__(self):\n        fr = inspect.currentframe().f_back\n"
        "        print('hash from', None if fr is None else sorted(fr.f_locals))\n        return self.k\n"
        "    def __add__(self, o):\n        fr = inspect.currentframe().f_back\n"
        "        print('add from', None if fr is None else sorted(fr.f_locals))\n        return self\n"
        "def f(a, b):\n    local = 1\n    s = set((a, b))\n    s.add(a)\n    t = {}\n"
        "    t.get(a)\n    return len(s), sum((x for x in [a]), b).k\n"
        "print(f(H(1), H(2)))\n"
    ),
    "nested_functions_made": (
        "def make(n):\n    fs = []\n    for i in range(n):\n        def g(x):\n            return x * i + n\n"
        "        fs.append(g)\n        fs.append(lambda: i)\n    return fs\n"
        "fs = make(3)\nprint([f(2) if f.__name__ == 'g' else f() for f in fs])\n"
        "print(fs[0], fs[1], fs[0].__qualname__, fs[2].__name__, fs[0] is fs[2], fs[0] == fs[2])\n"
        "def outer():\n    k = 1\n    def inc():\n        nonlocal k\n        k += 1\n        return k\n"
        "    return inc\na = outer()\nb = outer()\nprint(a(), a(), b())\n"
        "def bad():\n    def inner(y):\n        return 1 // y\n    return inner\nbad()(1)\nbad()(0)\n"
    ),
    "nested_function_calls_itself": (
        "def outer():\n    def f(n):\n        return 0 if n == 0 else 1 + f(n - 1)\n    g = f\n"
        "    a = g(3)\n    def f(n):\n        return 100\n    return a, g(3)\nprint(outer())\n"
        "def walk(t):\n    seen = []\n    def go(v):\n        seen.append(v)\n"
        "        for c in t.get(v, ()):\n            go(c)\n    go(0)\n    return seen\n"
        "print(walk({0: [1, 2], 1: [3]}))\n"
        "def bad():\n    def h(x):\n        if x > 2:\n            return x + 'a'\n"
        "        return h(x + 1)\n    return h(0)\nbad()\n"
    ),
    "hashes_and_growing_containers": (
        "class K:\n    pass\nclass E:\n    def __eq__(self, o):\n        print('eq')\n        return True\n"
        "    def __hash__(self):\n        return 1\n"
        "def f(a, b):\n    s = set((a, b))\n    s.add(a)\n    xs = []\n    xs.append(b)\n"
        "    return len(s), a in s, b not in s, isinstance(a, K), len(xs)\n"
        "print(f(K(), K()), f(E(), E()))\nK.__hash__ = lambda self: 7\nK.__eq__ = lambda self, o: True\n"
        "print(f(K(), K()))\n"
    ),
    "loops_over_lazy_iterators": (
        "def f(xs, ys):\n    out = []\n    for a, b in zip(xs, ys):\n        out.append(a * b)\n"
        "    for i, v in enumerate(xs):\n        out.append(i + v)\n"
        "    for v in (x + 1 for x in xs):\n        out.append(v)\n"
        "    for v in map(abs, ys):\n        out.append(v)\n    return out\n"
        "print(f([1, 2, 3], (4, -5)), f('ab', [2, 3]), f(range(2), range(3)))\n"
        "def g(xs):\n    for v in (1 // x for x in xs):\n        print(v)\ng([1, 0])\n"
    ),
    "special_method_replaced_after_use": (
        "class A:\n    def __init__(self, v):\n        self.v = v\n"
        "    def __add__(self, o):\n        return 'old'\n"
        "class B(A):\n    pass\n"
        "def f(a, b):\n    return a + b, a + 1, repr(a)\nprint(f(A(1), A(2)), f(B(1), B(2)))\n"
        "def new(self, o):\n    return 'new'\nA.__add__ = new\n"
        "A.__repr__ = lambda self: 'A!'\nprint(f(A(1), A(2)), f(B(1), B(2)))\n"
    ),
    "torch_ops": (
        "import torch\nimport torch.nn.functional as F\nfrom torch import nn\n"
        "def f(v):\n    return torch.tanh(v) + F.relu(v) - torch.sigmoid(v) * torch.exp(v)\n"
        "x = torch.tensor(0.5, requires_grad=True)\nprint(f(x), f(2.0), f(True))\n"
        "def g(xs):\n    return [torch.tanh(sum(w * v for w, v in zip(xs, xs))) for _ in xs]\n"
        "print(g([x, x * 2]), torch.sum(torch.ones(3)), torch.matmul(torch.ones(2), torch.ones(2)))\n"
        "def h(v):\n    return torch.tanh(v, 1)\n"
        "def k(v):\n    return torch.tanh(v), torch.exp([1.0])\n"
        "print(k(x)[1])\nh(x)\n"
    ),
    "torch_op_errors": (
        "import torch\ndef f(v):\n    return torch.tanh(v)\n"
        "print(f(torch.tensor([1, 2])), f(1))\nf('a')\n"
    ),
    "zip_of_generators": (
        "def f(n):\n    return list(zip((i for i in range(n)), 'abc'))\nprint(f(2), f(5))\n"
        "def g(a):\n    return list(zip(a, 3))\ng([1])\n"
    ),
}


@pytest.mark.parametrize("name", sorted(BUILTIN_CALLS))
def test_builtin_calls(name):
    both(BUILTIN_CALLS[name])


@pytest.mark.parametrize("steps", ["10", "15", "20", "25", "36", "45", "1000"])
def test_builtin_calls_count_steps(steps):
    """zip's and sum's items are steps (--max-steps) as the general call counts them."""
    source = (
        "def f(xs, ys):\n    s = 0\n    for a, b in zip(xs, ys):\n        s += a * b\n"
        "    return s, sum(x for x in xs), list(zip(xs, 'abc')), list(reversed(ys))\n"
        "for i in range(3):\n    print(f([1, 2, 3], (4, 5, 6)))\n"
    )
    both(source, "--max-steps", steps)


def test_builtin_calls_are_fast():
    """The built-ins above take their call sites' ways: no general call is made."""
    from unittest import mock

    from gradcli.language import fast_objects, fast_support

    source = (
        "import math\nclass V:\n    pass\n"
        "def f(a, xs, s, d):\n    xs.append(a)\n    s.add(a)\n    d.get(a)\n    xs.pop()\n"
        "    return set((a, a)), isinstance(a, V), len(xs), a in s, a not in d, math.tanh(0.5)\n"
        "print(f(V(), [], set(), {})[1:])\n"
        "import torch\nimport torch.nn.functional as F\n"
        "def g(x):\n    return torch.tanh(x) + torch.relu(x) + F.sigmoid(x)\n"
        "y = g(torch.tensor(0.5, requires_grad=True))\n"
    )
    refuse = mock.Mock(side_effect=AssertionError("a general call"))
    with (
        mock.patch.object(fast_support, "frame_call", refuse),
        mock.patch.object(fast_objects, "framed", refuse),
    ):
        r = run_inprocess(source)
    assert (r.returncode, r.stdout) == (0, "(True, 0, True, True, 0.46211715726000974)\n"), r.stderr
