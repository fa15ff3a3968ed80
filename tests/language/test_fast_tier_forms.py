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
}


@pytest.mark.parametrize("name", sorted(FORMS))
def test_forms(name):
    both(FORMS[name])


def test_forms_are_compiled():
    """The functions holding these forms run in the fast tier."""
    r = Run(FORMS["method_keywords"])
    assert r.error is None
    b = r.session.scope.vars["B"]
    for name in ("__init__", "f", "g"):
        assert b.__dict__[name].fast is not None, name
