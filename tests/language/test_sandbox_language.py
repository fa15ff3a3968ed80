"""The sandbox and the limits for the language's newer constructs (last
section): classes, instances, bound methods, super(), staticmethod/classmethod/
property, decorators, exceptions caught with `except E as e`, generators,
closures, comprehensions and the safe modules (math, random, functools,
itertools, collections, copy, time).  Every hostile program ends in gradcli's own
error or with a harmless value, and no loop, generator or recursion escapes
--max-steps, --max-depth or the memory cap.
"""

from __future__ import annotations

import collections
import contextlib
import functools
import io
import re
import time

import pytest

from gradcli.language.unbound import UnboundMethod

from conftest import run_inprocess
from test_sandbox import Run, _allowed_value, _python_attribute_names, assert_refused

from gradcli.runtime.errors import GradError
from gradcli.language import classes
from gradcli.language.classes import LanguageObject, Super, is_user_class
from gradcli.language.names import NAME_ATTRS, TypeName, type_of
from gradcli.library.stdlib import Partial
from gradcli.library.torch_names import library_class
from gradcli.output import TextOutput
from gradcli.session import Session, reset_globals


def allowed(v):
    """_allowed_value, plus the values the newer constructs give a program: its own
    classes and their instances, the library bases and exception types, super()
    proxies, descriptors around its own functions, type(x) names."""
    if isinstance(v, type):
        return (
            is_user_class(v)
            or v is LanguageObject
            or bool(getattr(v, "language_subclassable", False))
            or issubclass(v, GradError)
            or bool(getattr(v, "language_callable", False))
        )
    if isinstance(v, (staticmethod, classmethod)):
        return allowed(v.__func__)
    if isinstance(v, property):
        return all(f is None or allowed(f) for f in (v.fget, v.fset, v.fdel))
    if isinstance(v, (functools.partial, Partial)):
        return (
            allowed(v.func)
            and all(allowed(a) for a in v.args)
            and all(allowed(a) for a in v.keywords.values())
        )
    if isinstance(v, (list, tuple, set, frozenset, collections.deque)):
        return all(allowed(x) for x in v)
    if isinstance(v, dict):
        return all(allowed(k) and allowed(x) for k, x in v.items())
    if is_user_class(type(v)) or type(v) is LanguageObject:  # (`object()`: a bare object)
        return True
    if isinstance(v, (Super, TypeName, GradError)):
        return True
    if v in (classes._object_init, classes._unbound_init):  # super().__init__, super(C)'s
        return True
    if isinstance(v, UnboundMethod):  # int.bit_length, str.lower: a method from the allowlist
        return True
    return _allowed_value(v)


CLASS = "class C:\n    k = 1\n    def m(self):\n        return 1\n"
GEN = "def g():\n    yield 1\n    yield 2\n"
CLOSURE = "def outer():\n    a = 1\n    def inner():\n        return a\n    return inner\n"
DECO = "def deco(f):\n    def w(*a):\n        return f(*a)\n    return w\n@deco\ndef h(x):\n    return x\n"
CATCH = 'try:\n    raise ValueError("boom")\nexcept ValueError as e:\n    err = e\n'
CATCH_USER = (
    'class E(Exception):\n    pass\ntry:\n    raise E("boom")\nexcept E as e:\n    err = e\n'
)
CATCH_INDEX = "try:\n    [][1]\nexcept IndexError as e:\n    err = e\n"
SUPER = (
    "class A:\n    def m(self):\n        return 1\nclass B(A):\n    def s(self):\n"
    "        return super()\n"
)
DESCR = (
    "class D:\n    @staticmethod\n    def st():\n        return 1\n    @classmethod\n"
    "    def cm(cls):\n        return cls\n    @property\n    def p(self):\n        return 2\n"
    "    raw_st = st\n    raw_p = p\n"
)

# (program, the error type it must end with)
ESCAPES = [
    # classes and instances
    (CLASS + "C.__class__", "AttributeError"),
    (CLASS + "C().__class__", "AttributeError"),
    # an object's variables (`obj.__dict__`, instance_vars.py): a dict of the program's
    # values only, through which no Python object is reached nor a special name set
    (CLASS + "C().__dict__.owner", "AttributeError"),
    (CLASS + "C().__dict__._sync()", "AttributeError"),
    (CLASS + "vars(C()).__class__.__subclasses__()", "AttributeError"),
    (CLASS + "vars(C()).__reduce_ex__(2)", "AttributeError"),
    (CLASS + "c = C()\nc.__dict__['__class__'] = int", "TypeError"),
    (CLASS + "c = C()\nc.__dict__.update(__init__=print)", "TypeError"),
    (CLASS + "c = C()\nc.__dict__.setdefault('__getattr__', print)", "TypeError"),
    (CLASS + "c = C()\nc.__dict__ = {'__dict__': {}}", "TypeError"),
    (CLASS + "c = C()\nc.__dict__[print] = 1", "TypeError"),
    (CLASS + "c = C()\nc.__dict__['language_iter'] = print\nlist(c)", "TypeError"),
    (CLASS + "vars(C)", "TypeError"),
    (CLASS + "vars(C.m)", "TypeError"),
    (CLASS + "vars(C().m)", "TypeError"),
    (CLASS + '"{0.__dict__.owner}".format(C())', "AttributeError"),
    (CATCH_USER + "vars(err)", "TypeError"),
    ("import torch\nvars(torch.nn.Linear(1, 1))", "TypeError"),
    ("import torch\nvars(torch.optim.SGD([torch.ones(1, requires_grad=True)], lr=1))", "TypeError"),
    ("import math\nvars(math)", "TypeError"),
    ("vars(print)", "TypeError"),
    # NumPy's RandomState and torch.utils.data's samplers: their methods, never their insides
    ("import numpy as np\nnp.random.RandomState(0).rs", "AttributeError"),
    ("import numpy as np\nnp.random.RandomState(0).get_state()", "AttributeError"),
    ("import numpy as np\nnp.random.RandomState(0).__reduce__()", "AttributeError"),
    ("import numpy as np\nnp.random.RandomState(0).rand.__self__", "AttributeError"),
    ("import numpy as np\ntype(np.random.RandomState(0)).__mro__", "AttributeError"),
    (
        "from torch.utils.data import RandomSampler\nRandomSampler([1]).__iter__.__func__",
        "AttributeError",
    ),
    (
        "from torch.utils.data import RandomSampler\nRandomSampler([1]).__class__.__subclasses__()",
        "AttributeError",
    ),
    ("from torch.utils.data import BatchSampler\nvars(BatchSampler([1], 1, False))", "TypeError"),
    ("import ast\nast.parse('1')", "AttributeError"),
    ("import ast\nast.literal_eval.__globals__", "AttributeError"),
    ("from ast import literal_eval\nliteral_eval('__import__(\"os\")')", "ValueError"),
    ("from ast import literal_eval\nliteral_eval('(1).__class__')", "ValueError"),
    ("from ast import literal_eval\nliteral_eval('b\"x\"')", "NotImplementedError"),
    ("def f():\n    import os.path\n    return os\nf().path", "ModuleNotFoundError"),
    ("def f():\n    from importlib import import_module\nf()", "ModuleNotFoundError"),
    ("vars(lambda: 1)", "TypeError"),
    (CLASS + "C.__dict__", "AttributeError"),
    (CLASS + "C.__subclasses__()", "AttributeError"),
    (CLASS + "C.__mro__[0].__dict__", "AttributeError"),  # (its classes: the language's)
    (CLASS + "C.__bases__[0].__subclasses__()", "AttributeError"),
    (CLASS + "C.__base__", "AttributeError"),
    (CLASS + "C.__init__", "AttributeError"),
    (CLASS + "C.__gradcli_user__", "AttributeError"),
    (CLASS + "C().__init__.__func__", "AttributeError"),
    (CLASS + "C().__reduce_ex__(2)", "AttributeError"),
    (CLASS + "C().__getattribute__('k')", "AttributeError"),
    (CLASS + "C().__setattr__('k', 2)", "AttributeError"),
    (CLASS + "C().__sizeof__()", "AttributeError"),
    (CLASS + "C().__weakref__", "AttributeError"),
    (CLASS + "C().__module__", "AttributeError"),
    (CLASS + "C.__name__.__class__", "AttributeError"),
    (CLASS + "C.m.__name__.__globals__", "AttributeError"),
    (CLASS + "C.m.__globals__", "AttributeError"),
    (CLASS + "C.m.__code__", "AttributeError"),
    (CLASS + "C().m.__func__", "AttributeError"),
    (CLASS + "C().m.__self__", "AttributeError"),
    (CLASS + "C.m.__name__ = 'x'", "AttributeError"),
    (CLASS + "C.__doc__ = 'x'", "AttributeError"),
    (CLASS + "C().__name__", "AttributeError"),
    ("import math\nmath.sqrt.__self__", "AttributeError"),
    ("import math\nmath.__dict__", "AttributeError"),
    ("(1).__doc__", "AttributeError"),
    ("print.__doc__", "AttributeError"),
    (CLASS + "c = C()\nc.__class__ = C", "AttributeError"),
    (CLASS + "c = C()\nc.__dict__ = 3", "TypeError"),
    (CLASS + "C.__init__ = print", "AttributeError"),
    (CLASS + "C.__repr__ = print", "AttributeError"),
    (CLASS + "C.__getattr__ = print", "AttributeError"),
    (CLASS + 'getattr(C(), "__dict__").owner', "AttributeError"),
    (CLASS + 'getattr(C, "__subclasses__")', "AttributeError"),
    (CLASS + 'setattr(C(), "__class__", C)', "AttributeError"),
    (CLASS + 'setattr(C, "__init__", print)', "AttributeError"),
    (CLASS + "[x.__class__ for x in [C()]]", "AttributeError"),
    (CLASS + 'f"{C().__class__}"', "AttributeError"),
    (CLASS + '"{0.__class__.__subclasses__}".format(C())', "AttributeError"),
    (CLASS + '"{0.__dict__.__class__.__mro__}".format(C())', "AttributeError"),
    (CLASS + '"{0.m.__func__}".format(C())', "AttributeError"),
    (CLASS + '"{0.__init__.__globals__}".format(C())', "AttributeError"),
    # bound methods and functions
    (CLASS + "C().m.__func__", "AttributeError"),
    (CLASS + "C().m.__self__", "AttributeError"),
    (CLASS + "C().m.fn", "AttributeError"),
    (CLASS + "C().m.obj", "AttributeError"),
    (CLASS + "C.m.__globals__", "AttributeError"),
    (CLASS + "C.m.__code__", "AttributeError"),
    (CLASS + "C.m.globals", "AttributeError"),
    (CLASS + "C.m.body", "AttributeError"),
    (CLASS + "C.m.closure", "AttributeError"),
    (CLASS + "C.m.sig", "AttributeError"),
    (CLASS + "C.m.origin", "AttributeError"),
    (CLASS + "C.m.__get__(1)", "AttributeError"),
    # super()
    (SUPER + "B().s().__class__", "AttributeError"),
    (SUPER + "B().s().__self__", "AttributeError"),
    (SUPER + "B().s().__thisclass__", "AttributeError"),
    (SUPER + "B().s().cls", "AttributeError"),
    (SUPER + "B().s().obj", "AttributeError"),
    (SUPER + "B().s().__repr__", "AttributeError"),
    (SUPER + "B().s().__init__.__globals__", "AttributeError"),
    (SUPER + "B().s().__init__.__code__", "AttributeError"),
    (SUPER + "B().s().__getattribute__", "AttributeError"),
    ("super(int, 1)", "TypeError"),
    # super() and keyword method calls inside a function (the fast tier compiles them)
    (
        SUPER + "class C(B):\n    def t(self):\n        return super().s().__self__\nC().t()",
        "AttributeError",
    ),
    (
        SUPER + "class C(B):\n    def t(self):\n        return super().__init__.__globals__\n"
        "C().t()",
        "AttributeError",
    ),
    (
        SUPER + "class C(B):\n    def t(self):\n        return super().cls\nC().t()",
        "AttributeError",
    ),
    (
        "class C:\n    def __enter__(self):\n        return self\n"
        "    def __exit__(self, t, e, tb):\n        return e.__traceback__.tb_frame\n"
        "def f():\n    with C():\n        1 // 0\nf()",
        "AttributeError",
    ),
    (
        "class C:\n    def __enter__(self):\n        return self\n"
        "    def __exit__(self, t, e, tb):\n        return t.__mro__\n"
        "def f():\n    with C() as c:\n        return c.__dict__\nf()",
        "AttributeError",
    ),
    ("def f(*a, **k):\n    return k.__class__.__subclasses__()\nf(**{'x': 1})", "AttributeError"),
    ("def f(*a, **k):\n    return a.__class__.__mro__\nf(*[1])", "AttributeError"),
    ("def f(*a, **k):\n    return k\nf(**{'__builtins__': 1}).__globals__", "AttributeError"),
    (CLASS + "def f(c):\n    return c.__getattribute__(name='k')\nf(C())", "AttributeError"),
    (CLASS + "def f(c):\n    return c.__reduce_ex__(protocol=2)\nf(C())", "AttributeError"),
    (CLASS + "def f(c):\n    return c.m.__get__(obj=1)\nf(C())", "AttributeError"),
    ("super()", None),
    # staticmethod, classmethod, property objects
    (DESCR + "D.raw_st.__func__", "AttributeError"),
    (DESCR + "D.raw_p.fget", "AttributeError"),
    (DESCR + "D().raw_p.fget", None),
    (DESCR + "D.cm.__func__", "AttributeError"),
    (DESCR + "D.cm.__self__", "AttributeError"),
    (DESCR + "D.st.__wrapped__", "AttributeError"),
    (DESCR + "D().p.__class__", "AttributeError"),
    (DESCR + "D().p = 3", "AttributeError"),
    (DESCR + "D.cm().__dict__", "AttributeError"),
    ("staticmethod(print).__func__", "AttributeError"),
    ("classmethod(print).__func__", "AttributeError"),
    ("property(print).fget", "AttributeError"),
    # decorators and closures
    (DECO + "h.__wrapped__", "AttributeError"),
    (DECO + "h.__closure__", "AttributeError"),
    (DECO + "h.closure", "AttributeError"),
    (DECO + "h.__code__.co_consts", "AttributeError"),
    ("def deco(f):\n    return f.__globals__\n@deco\ndef h():\n    pass\n", "AttributeError"),
    ("def deco(f):\n    return f.__code__\n@deco\ndef h():\n    pass\n", "AttributeError"),
    ("@print.__self__\ndef h():\n    pass\n", "AttributeError"),
    (CLOSURE + "outer().__closure__", "AttributeError"),
    (CLOSURE + "outer().__closure__[0].cell_contents", "AttributeError"),
    (CLOSURE + "outer().closure", "AttributeError"),
    (CLOSURE + "outer().__defaults__", "AttributeError"),
    (CLOSURE + "outer().__kwdefaults__", "AttributeError"),
    ("(lambda: 1).__closure__", "AttributeError"),
    ("(lambda: 1).__call__.__self__", "AttributeError"),
    ("(lambda: 1).body", "AttributeError"),
    # exceptions caught with `except E as e`
    (CATCH + "err.__traceback__", "AttributeError"),
    (CATCH + "err.__traceback__.tb_frame.f_globals", "AttributeError"),
    (CATCH + "err.__class__", "AttributeError"),
    (CATCH + "err.__context__", "AttributeError"),
    (CATCH + "err.__cause__", "AttributeError"),
    (CATCH + "err.__dict__", "AttributeError"),
    (CATCH + "err.with_traceback(none)", "AttributeError"),
    (CATCH + "err.origin", "AttributeError"),
    (CATCH + "err.calls", "AttributeError"),
    (CATCH + "err.pending_call", "AttributeError"),
    (CATCH + "err.args.__class__", "AttributeError"),
    (CATCH_USER + "err.__class__", "AttributeError"),
    (CATCH_USER + "err.__traceback__", "AttributeError"),
    (CATCH_USER + "err.origin", "AttributeError"),
    (CATCH_INDEX + "err.__traceback__", "AttributeError"),
    (CATCH_INDEX + "err.__class__.__mro__", "AttributeError"),
    ("ValueError.__subclasses__()", "AttributeError"),
    ("Exception.__mro__", "AttributeError"),
    ("Exception.__init__", "AttributeError"),
    ("Exception.__new__", "AttributeError"),
    ("try:\n    1 + 'a'\nexcept TypeError as e:\n    e.__traceback__.tb_frame", "AttributeError"),
    # generators
    (GEN + "g().gi_frame", "AttributeError"),
    (GEN + "g().gi_code", "AttributeError"),
    (GEN + "g().gi_frame.f_globals", "AttributeError"),
    (GEN + "g().gi_yieldfrom", "AttributeError"),
    (GEN + "g().fn", "AttributeError"),
    (GEN + "g().local", "AttributeError"),
    (GEN + "g().items", "AttributeError"),
    (GEN + "g().remaining()", "AttributeError"),
    (GEN + "g().send.__self__", "AttributeError"),
    (GEN + "g().send.__func__", "AttributeError"),
    (GEN + "g().throw(ValueError)", "AttributeError"),
    (GEN + "g().close()", "AttributeError"),
    (GEN + "g().__next__.__self__", "AttributeError"),
    (GEN + "g.__code__", "AttributeError"),
    ("(x for x in [1]).gi_frame", "AttributeError"),
    ("(x for x in [1]).__class__", "AttributeError"),
    ("[x.__class__ for x in [1]]", "AttributeError"),
    ("{k: k.__class__ for k in [1]}", "AttributeError"),
    ("{k.__dict__ for k in [print]}", "AttributeError"),
    # modules
    ("import math\nmath.__dict__", "AttributeError"),
    ("import math\nmath.__loader__", "AttributeError"),
    ("import math\nmath.members", "AttributeError"),
    ("import math\nmath.sqrt.__self__", "AttributeError"),
    ("import math\nmath.sqrt.fn", "AttributeError"),
    ("import random\nrandom._inst", "AttributeError"),
    ("import random\nrandom.Random", "AttributeError"),
    ("import random\nrandom.seed.__globals__", "AttributeError"),
    ("import functools\nfunctools.partial(print, 1).func.__globals__", "AttributeError"),
    ("import functools\nfunctools.partial(print, 1).__reduce__()", "AttributeError"),
    ("import functools\nfunctools.reduce.__module__", "AttributeError"),
    ("import itertools\nitertools.count().__class__", "AttributeError"),
    ("import itertools\nitertools.chain([1], [2]).items", "AttributeError"),
    ("import collections\ncollections.defaultdict(list).default_factory", "AttributeError"),
    (
        "import collections\nP = collections.namedtuple('P', 'a b')\nP(1, 2)._asdict.__self__",
        "AttributeError",
    ),
    ("import collections\nP = collections.namedtuple('P', 'a b')\nP.__new__", "AttributeError"),
    (
        "import collections\nP = collections.namedtuple('P', 'a b')\nP(1, 2).__class__",
        "AttributeError",
    ),
    ("import collections\ncollections.namedtuple('P', '__class__')", "ValueError"),
    ("import collections\ncollections.namedtuple('P', '_x')", "ValueError"),
    ("import collections\ncollections.OrderedDict.__dict__", "AttributeError"),
    ("import copy\ncopy.deepcopy.__globals__", "AttributeError"),
    ("import copy\nclass C:\n    pass\ncopy.deepcopy(C).__dict__", "AttributeError"),
    ("import time\ntime.sleep", "AttributeError"),
    ("import os\nos.environ", "AttributeError"),
    ("import subprocess", "SyntaxError"),
    ("import math.os", "SyntaxError"),
    ("from math import __dict__", "SyntaxError"),
    ("from random import _inst", "SyntaxError"),
    ("from functools import __builtins__", "SyntaxError"),
    ("import importlib", "SyntaxError"),
    ("import builtins", "SyntaxError"),
    # type(), isinstance, object
    ("type(1).__subclasses__()", "AttributeError"),
    ("type(1).name", "AttributeError"),
    ("type(print).__mro__", "AttributeError"),
    ('type("X", (), {})', "TypeError"),
    ("object.__subclasses__()", "AttributeError"),
    ("object.__new__", "AttributeError"),
    ("isinstance.__self__", "AttributeError"),
    ("isinstance(1, print)", None),
    # class bodies that would change how Python treats the class
    ("class M:\n    pass\nclass C(metaclass=M):\n    pass", "TypeError"),
    ("class C(metaclass=print):\n    pass", "TypeError"),
    ("class C:\n    pass\nclass D(C, extra=1):\n    pass", "TypeError"),
    ("class C:\n    def __init_subclass__(cls):\n        pass", "TypeError"),
    ("class C:\n    def __class_getitem__(cls, k):\n        pass", "TypeError"),
    ("class C:\n    def __getattr__(self, n):\n        return 1", "TypeError"),
    ("class C:\n    def __getattribute__(self, n):\n        return 1", "TypeError"),
    ("class C:\n    def __setattr__(self, n, v):\n        pass", "TypeError"),
    ("class C:\n    def __delattr__(self, n):\n        pass", "TypeError"),
    ("class C:\n    def __del__(self):\n        pass", "TypeError"),
    ("class C:\n    def __reduce__(self):\n        return (print, (1,))", "TypeError"),
    ("class C:\n    def __reduce_ex__(self, p):\n        return (print, (1,))", "TypeError"),
    ("class C:\n    def __deepcopy__(self, memo):\n        return 1", "TypeError"),
    ("class C:\n    def __new__(cls):\n        return 1", "TypeError"),
    ("class C:\n    def __get__(self, o, t):\n        return 1", "TypeError"),
    ("class C:\n    def __set_name__(self, o, n):\n        pass", "TypeError"),
    ("class C:\n    def __index__(self):\n        return 10 ** 9", "TypeError"),
    ("class C:\n    __slots__ = ()", "TypeError"),
    ("class C:\n    __class__ = 1", "TypeError"),
    ("class C:\n    __dict__ = 1", "TypeError"),
    ("class C:\n    __module__ = 'os'", "TypeError"),
    # bases that are not classes of the program, library bases or exceptions
    ("class C(int):\n    pass", "TypeError"),
    ("class C(type):\n    pass", "TypeError"),
    ("class C(print):\n    pass", "TypeError"),
    ("class C(type(1)):\n    pass", "TypeError"),
    ("import math\nclass C(math):\n    pass", "TypeError"),
    ("import collections\nclass C(collections.OrderedDict):\n    pass", "TypeError"),
    (
        "import collections\nP = collections.namedtuple('P', 'a')\nclass C(P):\n    pass",
        "TypeError",
    ),
    ("def g():\n    yield 1\nclass C(g):\n    pass", "TypeError"),
    # special methods a class may define, returning the wrong thing
    ("class C:\n    def __repr__(self):\n        return 5\nprint(C())", "TypeError"),
    ("class C:\n    def __str__(self):\n        return print\nprint(C())", "TypeError"),
    ("class C:\n    def __iter__(self):\n        return 5\nlist(C())", "TypeError"),
    ("class C:\n    def __len__(self):\n        return -1\nlen(C())", "ValueError"),
    ("class C:\n    def __len__(self):\n        return 'a'\nlen(C())", "TypeError"),
    ("class C:\n    def __hash__(self):\n        return 'x'\n{C(): 1}", "TypeError"),
    (
        "class C:\n    def __eq__(self, o):\n        return self.__class__\nC() == C()",
        "AttributeError",
    ),
    (
        "class C:\n    def __getitem__(self, i):\n        return i.__class__\nC()[0]",
        "AttributeError",
    ),
    (
        "class C:\n    def __call__(self):\n        return self.__dict__.owner\nC()()",
        "AttributeError",
    ),
    ("class C:\n    def __format__(self, spec):\n        return 5\nf'{C()}'", "TypeError"),
    ("class C:\n    def __bool__(self):\n        return 1\nbool(C())", "TypeError"),
    ("class C:\n    def __float__(self):\n        return print\nfloat(C())", "TypeError"),
    ("class C:\n    def __iter__(self):\n        return self\nlist(C())", "TypeError"),
    ("class C:\n    def __enter__(self):\n        return 1\nwith C():\n    pass", "TypeError"),
    (
        "class C:\n    def __exit__(self, *a):\n        return a[2].tb_frame\nwith C():\n    pass",
        "TypeError",
    ),
    (
        "class C:\n    def __exit__(self, t, e, tb):\n        return tb.tb_frame\n"
        "    def __enter__(self):\n        return 1\nwith C():\n    raise ValueError()",
        "AttributeError",
    ),
    (
        "class C:\n    def __add__(self, o):\n        return o.__class__.__mro__\nC() + 1",
        "AttributeError",
    ),
    ("class C:\n    def __radd__(self, o):\n        return o.__dict__\n[] + C()", "AttributeError"),
]
# `x.__class__` is what type(x) gives (a class of the program or the library, or a type's
# name): each attempt above that stopped there goes one step further now
ESCAPES = [
    (re.sub(r"\.__class__(?!\s*=[^=])", ".__class__.__subclasses__()", s), t) for s, t in ESCAPES
]


@pytest.mark.parametrize("source,type_name", ESCAPES, ids=[s for s, _ in ESCAPES])
def test_escape_attempts_are_gradcli_errors(source, type_name):
    """Each ends in gradcli's error with a position (never a Python exception)."""
    assert_refused(source, type_name)


HARMLESS = [
    CLASS + "v = C().__class__\nv1 = C().__class__.__name__\nv2 = (1).__class__\n"
    "v3 = [].__class__\nv4 = C.__class__\n",
    "class C:\n    def __add__(self, o):\n        return o\n    def __iter__(self):\n"
    "        yield 1\n    def __exit__(self, t, e, tb):\n        return (t, e, tb)\n"
    "    def __enter__(self):\n        return self\nv = C() + 1\nv1 = list(C())\n"
    "v2 = iter(C())\nv3 = C().__exit__(None, None, None)\n",
    CLASS + "v = C\nv1 = C()\nv2 = C().m\nv3 = C.m\nv4 = type(C())\nv5 = C.k\n",
    SUPER + "v = B().s()\nv1 = B().s().m\nv2 = B().s().__init__\nv3 = B().s().m()\n",
    SUPER
    + "class C(B):\n    def t(self, k=0):\n        return super().s(), super().m, super().m()\n"
    "def f(c):\n    return c.t(k=1)\nv, v1, v2 = f(C())\n",
    "class C:\n    def __enter__(self):\n        return 5\n    def __exit__(self, t, e, tb):\n"
    "        global v3\n        v3 = (t, e, tb)\n        return True\n"
    "def f():\n    with C() as c, torch.no_grad() as g:\n        1 // 0\n    return c, g\nv, v1 = f()\n",
    DESCR + "v = D.st\nv1 = D().st\nv2 = D.cm()\nv3 = D().cm\nv4 = D.raw_st\nv5 = D.raw_p\n"
    "v6 = D().p\n",
    DECO + "v = h\nv1 = h(3)\nv2 = deco\n",
    CLOSURE + "v = outer()\nv1 = outer()()\n",
    CATCH + "v = err\nv1 = err.args\nv2 = str(err)\nv3 = type(err)\n",
    CATCH_USER + "v = err\nv1 = err.args\nv2 = E\nv3 = type(err)\n",
    CATCH_INDEX + "v = err\nv1 = err.args\n",
    GEN + "v = g()\nv1 = next(g())\nv2 = list(g())\nv3 = g\nv4 = iter(g())\n",
    "v = (x * 2 for x in range(3))\nv1 = [x for x in v]\nv2 = {x: x for x in range(2)}\n",
    "import math\nimport random\nimport functools\nimport itertools\nimport collections\n"
    "import copy\nimport time\nv = math\nv1 = random\nv2 = functools\nv3 = itertools\n"
    "v4 = collections\nv5 = copy\nv6 = time\nv7 = math.sqrt\nv8 = functools.partial(print, 1)\n"
    "v9 = itertools.count()\n",
    "import copy\nclass C:\n    def m(self):\n        return 1\nc = C()\nc.f = lambda: 1\n"
    "v = copy.deepcopy(C)\nv1 = copy.deepcopy(c)\nv2 = copy.copy(c)\nv3 = copy.deepcopy(c.f)\n"
    "v4 = copy.deepcopy([c, C])\nv5 = copy.deepcopy(print)\n",
    "import collections\nP = collections.namedtuple('P', 'a b')\nv = P\nv1 = P(1, 2)\n"
    "v2 = collections.defaultdict(list)\nv3 = collections.Counter('aab')\n"
    "v4 = collections.deque([1])\nv5 = collections.OrderedDict()\n",
    "v = type(1)\nv1 = type(print)\nv2 = type(type(1))\nv3 = object\nv4 = ValueError\n"
    "v8 = object()\nv9 = type(object())\nv10 = object().__class__\nv11 = [object(), object]\n"
    "v5 = isinstance(1, int)\nv6 = staticmethod(print)\nv7 = property(print)\n",
    # a partial's parts: what the program gave it
    "import functools\np = functools.partial(print, 1, sep='')\nv = p.func\nv1 = p.args\n"
    "v2 = p.keywords\nv3 = functools.partial(p, 2)\nv4 = v3.args\n",
    "import functools\n@functools.wraps(print)\ndef f():\n    return 1\nv = f\n"
    "v1 = functools.reduce(lambda a, b: a + b, [1, 2, 3])\n",
    # the names a program may read: strings (or None), never Python's objects
    CLASS + DECO + "import math\nv = C.__name__\nv1 = C.__qualname__\nv2 = C.__doc__\n"
    "v3 = C.m.__name__\nv4 = C().m.__qualname__\nv5 = h.__name__\nv6 = h.__doc__\n"
    "v7 = math.sqrt.__name__\nv8 = print.__name__\nv9 = math.__name__\nv10 = int.__name__\n"
    "v11 = type(1).__name__\nv12 = (lambda: 1).__qualname__\nv13 = C().__doc__\n",
    # an object's variables: a dict of the program's values, in Python's names
    CLASS + "c = C()\nc.x = print\nc.language_iter = C\nv = c.__dict__\nv1 = vars(c)\n"
    "v2 = dict(vars(c))\nv3 = list(c.__dict__.items())\nv4 = type(v)\nv5 = v.copy()\n"
    "c.__dict__ |= {'y': C.m}\nv6 = {**vars(c)}\nv7 = v.get('language_iter')\n",
]


@pytest.mark.parametrize("source", HARMLESS, ids=range(len(HARMLESS)))
def test_what_the_new_constructs_give_is_a_language_value(source):
    """Programs that may run: every value they bind (v, v1, ...) is a language value
    (its own classes, instances, functions, gradcli's own objects), never Python's."""
    r = Run(source)
    assert r.error is None, r.error.message
    vals = {k: v for k, v in r.session.scope.vars.items() if k.startswith("v")}
    assert vals
    for k, v in vals.items():
        assert allowed(v), f"{k} = {type(v)!r} in {source!r}"


SWEEP = {
    "user class": CLASS + "v0 = C\n",
    "instance": CLASS + "v0 = C()\n",
    "bare object": "v0 = object()\n",
    "bound method": CLASS + "v0 = C().m\n",
    "super": SUPER + "v0 = B().s()\n",
    "unbound super": SUPER + "v0 = super(B)\n",
    "staticmethod": DESCR + "v0 = D.raw_st\n",
    "property": DESCR + "v0 = D.raw_p\n",
    "classmethod-bound": DESCR + "v0 = D.cm\n",
    "decorated": DECO + "v0 = h\n",
    "closure": CLOSURE + "v0 = outer()\n",
    "exception": CATCH + "v0 = err\n",
    "user exception": CATCH_USER + "v0 = err\n",
    "exception class": "v0 = ValueError\n",
    "generator": GEN + "v0 = g()\n",
    "generator expression": "v0 = (x for x in [1])\n",
    "suspended generator": GEN + "v0 = g()\nnext(v0)\n",
    "zip object": "v0 = zip([1], [2])\n",
    "map object": "v0 = map(print, [1])\n",
    "itertools.count": "import itertools\nv0 = itertools.count()\n",
    "function": "def f():\n    'doc'\n    return 1\nv0 = f\n",
    "type name": "v0 = type(1)\n",
    "math": "import math\nv0 = math\n",
    "random": "import random\nv0 = random\n",
    "functools.partial": "import functools\nv0 = functools.partial(print, 1)\n",
    "functools.lru_cache": "import functools\nv0 = functools.lru_cache(print)\n",
    "itertools": "import itertools\nv0 = itertools.chain([1], [2])\n",
    "namedtuple": "import collections\nP = collections.namedtuple('P', 'a b')\nv0 = P(1, 2)\n",
    "namedtuple class": "import collections\nv0 = collections.namedtuple('P', 'a b')\n",
    "defaultdict": "import collections\nv0 = collections.defaultdict(list)\n",
    "deque": "import collections\nv0 = collections.deque([1])\n",
    "copy": "import copy\nv0 = copy\n",
}

EXTRA_NAMES = [
    "gi_frame",
    "gi_code",
    "gi_running",
    "gi_yieldfrom",
    "cr_frame",
    "ag_frame",
    "tb_frame",
    "tb_next",
    "f_globals",
    "f_locals",
    "f_back",
    "f_builtins",
    "cell_contents",
    "co_consts",
    "__thisclass__",
    "__self_class__",
    "fget",
    "fset",
    "func",
    "keywords",
    "default_factory",
    "_asdict",
    "_fields",
    "_make",
    "_replace",
    "_inst",
    "sig",
    "local",
    "items",
    "pos",
    "cls",
    "origin",
    "calls",
    "hint",
    "message",
    "type_name",
    "send",
    "throw",
    "close",
    "remaining",
    "qualname",
    "generator",
    "is_lambda",
    "members",
    "get",
    "setdefault",
    "maxlen",
]


# names with an underscore that Python's values offer publicly, and the language too:
# an iterator's __next__/__iter__, a namedtuple's _asdict ... (each gives a language value)
PYTHONS_OWN = frozenset({"__next__", "__iter__", "_asdict", "_replace", "_fields", "_make"})
# and the special methods of dicts, lists, strings and sets a program calls by name
# (`d.__setitem__` in a lambda, `key=d.__getitem__`)
PYTHONS_OWN |= {"__getitem__", "__setitem__", "__delitem__", "__contains__", "__len__"}
# a class of the program's __mro__ and __bases__: tuples of the classes a program sees
CLASS_CHAIN = frozenset({"__mro__", "__bases__"})


@pytest.mark.parametrize("kind", list(SWEEP))
def test_every_python_attribute_of_the_new_values(kind):
    """`V.name` and `V.name()` for every attribute name Python objects have (and the
    internal names of gradcli's own objects): dunders and private names are refused,
    and whatever is allowed is a language value."""
    reset_globals()
    session = Session(TextOutput(io.StringIO()), filename="<test>")
    with contextlib.redirect_stderr(io.StringIO()):
        session.run(SWEEP[kind])
    for name in sorted(set(_python_attribute_names()) | set(EXTRA_NAMES)):
        for form in (f"v = v0.{name}\n", f"v = v0.{name}()\n"):
            session.scope.vars.pop("v", None)
            with (
                contextlib.redirect_stderr(io.StringIO()),
                contextlib.redirect_stdout(io.StringIO()),
            ):
                try:
                    session.run(form)
                except GradError as e:
                    assert isinstance(e.line, int) and isinstance(e.column, int), (form, e)
                    continue
            v = session.scope.vars.get("v")
            if name in NAME_ATTRS and form.endswith(f"{name}\n"):
                assert v is None or type(v) is str, f"{kind}: {form!r} gave {type(v)!r}"
                continue  # __name__, __qualname__, __doc__: a string (docs/language.md)
            if name == "__class__":
                # what type(v0) gives: a class of the program or the library, or a name
                # (and what calling it makes)
                if form.endswith("__class__\n"):
                    assert v == type_of(session.scope.vars["v0"]), f"{kind}: {form!r}: {v!r}"
                assert allowed(v) or library_class(v) is not None, f"{kind}: {form!r}: {v!r}"
                continue
            assert (
                not name.startswith("_")
                or (kind in ("super", "unbound super") and name in classes.DUNDERS)
                or name in PYTHONS_OWN
                or (kind == "user class" and name in CLASS_CHAIN and form.endswith(f"{name}\n"))
                or (kind == "instance" and name == "__dict__" and form.endswith(f"{name}\n"))
            ), f"{kind}: {form!r} was allowed"
            v = session.scope.vars.get("v")
            assert allowed(v), f"{kind}: {form!r} gave {type(v)!r}"
    reset_globals()


# ---------------------------------------------------------------- limits


def _limited(source, *options, seconds=10.0, text=None):
    start = time.monotonic()
    r = run_inprocess(source, ("eval", *options, "-"))
    took = time.monotonic() - start
    assert r.returncode == 1, (source, r.returncode, r.stdout[-300:], r.stderr[-500:])
    assert "LimitError" in r.stderr, r.stderr[-500:]
    assert "Traceback" not in r.stderr, r.stderr[-2000:]
    if text is not None:
        assert text in r.stderr, r.stderr[-500:]
    assert took < seconds, f"took {took:.1f}s: {source!r}"
    return r


INFINITE = "def g():\n    i = 0\n    while True:\n        yield i\n        i += 1\n"


@pytest.mark.parametrize(
    "use",
    [
        "list(g())",
        "sum(g())",
        "max(g())",
        "[x for x in g()]",
        "for x in g():\n    pass",
        "tuple(x for x in g())",
        "sorted(g())",
        "set(g())",
        "dict(zip(g(), g()))",
    ],
)
def test_an_infinite_generator_stops_at_max_steps(use):
    _limited(INFINITE + use + "\n", "--max-steps", "10000", text="--max-steps")


def test_an_infinite_generator_expression_stops_at_max_steps():
    _limited(INFINITE + "print(sum(x * 2 for x in g()))\n", "--max-steps", "10000")


def test_an_infinite_generator_is_lazy():
    """A generator runs only as far as its consumer asks (before, its body ran to the
    step limit at the first next())."""
    r = run_inprocess(
        INFINITE + "print(next(g()), list(zip('ab', g())), 3 in g(), any(x > 5 for x in g()))\n",
        ("eval", "--max-steps", "10000", "-"),
    )
    assert r.returncode == 0 and r.stdout == "0 [('a', 0), ('b', 1)] True True\n", r.stderr


def test_a_generator_of_huge_strings_holds_one_at_a_time():
    """A loop over a generator of 9 MB strings holds one at a time (the loop stops at
    --max-steps); a list of them stops at the memory cap."""
    gen = 'def g():\n    while True:\n        yield "x" * 9000000\n'
    _limited(
        gen + "for s in g():\n    pass\n",
        "--max-memory",
        "100MiB",
        "--max-steps",
        "300",
        text="--max-steps",
    )
    _limited(
        gen + "print(len(list(g())))\n",
        "--max-memory",
        "100MiB",
        "--max-steps",
        "1000",
        text="memory cap",
    )
    _limited(gen + "print(len(list(g())))\n", "--max-steps", "1000", text="memory cap")


def test_a_generator_of_big_tensors_stops_at_the_memory_cap():
    src = "def g():\n    while True:\n        yield ones(1000000)\nprint(len(list(g())))\n"
    _limited(src, "--max-memory", "64MiB", "--max-steps", "100000", text="memory cap")


def test_a_generator_that_yields_little_is_not_limited():
    r = run_inprocess(
        'def g():\n    for i in range(3):\n        yield "ab" * i\n'
        "        yield ones(2) * i\nprint(list(g()))\n",
        ("eval", "--max-memory", "1KiB", "-"),
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == "['', tensor([0., 0.]), 'ab', tensor([1., 1.]), 'abab', tensor([2., 2.])]\n"


@pytest.mark.parametrize(
    "source",
    [
        "class C:\n    def f(self, n):\n        return self.f(n + 1)\nC().f(0)\n",
        "class C:\n    @staticmethod\n    def f(n):\n        return C.f(n + 1)\nC.f(0)\n",
        "class C:\n    @classmethod\n    def f(cls, n):\n        return cls.f(n + 1)\nC.f(0)\n",
        "class C:\n    @property\n    def p(self):\n        return self.p\nC().p\n",
        "class C:\n    def __repr__(self):\n        return repr(self)\nprint(C())\n",
        "class C:\n    def __repr__(self):\n        return f'{self}'\nprint(C())\n",
        "class C:\n    def __str__(self):\n        return str(self)\nprint(C())\n",
        "class C:\n    def __eq__(self, o):\n        return self == o\nC() == C()\n",
        "class C:\n    def __len__(self):\n        return len(self)\nlen(C())\n",
        "class C:\n    def __getitem__(self, i):\n        return self[i]\nC()[0]\n",
        "class C:\n    def __call__(self):\n        return self()\nC()()\n",
        "class C:\n    def __init__(self):\n        self.c = C()\nC()\n",
        "class A:\n    def m(self):\n        return super().m()\nclass B(A):\n"
        "    def m(self):\n        return B.m(self)\nB().m()\n",
        "def g(n):\n    yield from g(n + 1)\nlist(g(0))\n",
        "def g(n):\n    for x in g(n + 1):\n        yield x\nlist(g(0))\n",
        "def deco(f):\n    return lambda *a: f(*a)\n@deco\ndef f(n):\n    return f(n + 1)\nf(0)\n",
        "f = lambda n: f(n + 1)\nf(0)\n",
        "l = []\nl.append(l)\nclass C:\n    def __repr__(self):\n        return str(l) + repr(self)\n"
        "print(C())\n",
        "[f(0) for f in [lambda n: (lambda g: g(g, n))(lambda g, n: g(g, n + 1))]]\n",
    ],
)
def test_recursion_stops_at_max_depth(source):
    _limited(source, "--max-depth", "50")
    _limited(source)  # the default depth too, and quickly


CHAIN = (
    "class A:\n    def m(self):\n        return 0\nK = A\n"
    "for i in range({n}):\n    class K(K):\n        def m(self):\n"
    "            return {body}\nprint(K().m(), isinstance(K(), A))\n"
)


def test_deep_inheritance_chains_are_bounded():
    """A loop making a chain of thousands of classes: Python's MRO takes time growing
    with its length (3,000 classes took 30 s), so the chain stops at 500 classes."""
    _limited(CHAIN.format(n=3000, body="1"), text="deeper than 500 classes")
    _limited(CHAIN.format(n=100000, body="1"), text="deeper than 500 classes")


def test_a_shallow_inheritance_chain_works():
    r = run_inprocess(CHAIN.format(n=400, body="1"), ("eval", "-"))
    assert r.returncode == 0 and r.stdout == "1 True\n", r.stderr


def test_super_in_a_class_made_in_a_loop():
    r = run_inprocess(CHAIN.format(n=30, body="super().m() + 1"), ("eval", "-"))
    assert r.returncode == 0 and r.stdout == "30 True\n", r.stderr


def test_super_recursing_through_a_chain_stops_at_max_depth():
    _limited(CHAIN.format(n=100, body="super().m() + 1"), "--max-depth", "50")


@pytest.mark.parametrize(
    "source",
    [
        "class C:\n    def __iter__(self):\n        return iter(range(10 ** 9))\nfor x in C():\n    pass\n",
        "class C:\n    def __iter__(self):\n        return iter(range(10 ** 9))\nprint(sum(C()))\n",
        "class C:\n    def __len__(self):\n        return 1\n    def __getitem__(self, i):\n"
        "        return i\nfor x in C():\n    pass\n",
        "import itertools\nfor x in itertools.count():\n    pass\n",
        "import itertools\nprint(sum(itertools.count()))\n",
        "import itertools\nprint([x for x in itertools.count()])\n",
        "while True:\n    try:\n        raise ValueError('a')\n    except ValueError:\n        pass\n",
        "while True:\n    try:\n        pass\n    finally:\n        continue\n",
        "class C:\n    pass\nwhile True:\n    C.x = [C()]\n",
        "l = []\nfor x in l:\n    l.append(x)\nl.append(1)\nfor x in l:\n    l.append(x)\n",
    ],
)
def test_loops_through_the_new_constructs_stop_at_max_steps(source):
    r = run_inprocess(source, ("eval", "--max-steps", "20000", "-"))
    assert "Traceback" not in r.stderr
    assert r.returncode in (0, 1), r.stderr
    if r.returncode == 1:
        assert "Error" in r.stderr, r.stderr
    if "while True" in source or "for x in itertools.count()" in source:
        assert r.returncode == 1 and "LimitError" in r.stderr, r.stderr[-500:]


def test_a_generator_cannot_build_a_huge_list_through_itertools():
    _limited(
        "import itertools\nprint(len(list(itertools.product(range(10000), range(10000)))))\n",
        seconds=30,
    )


HOOK_NAMES = """
class A:
    def language_getattr(self, name):
        return 42
    def language_len(self):
        return 7
    def remaining(self):
        return 3
    def __iter__(self):
        return iter([1, 2])
a = A()
print(hasattr(a, "foo"), hasattr(a, "__len__"), list(a), a.language_len(), A.language_len(a))
a.language_iter = 5
print(a.language_iter, list(a))
del a.language_iter
print(hasattr(a, "language_iter"))
A.language_x = 3
print(a.language_x)
try:
    a.nope
except AttributeError as e:
    print(e)
"""


def test_a_programs_method_is_never_taken_for_a_library_hook():
    """The library's classes tell the language how to iterate, index or read them through
    Python attributes named `language_*`; a program's class with a method of that name (or
    one named `remaining`) is an ordinary class, as in Python: the same text run by CPython
    prints the same."""
    import subprocess
    import sys

    want = subprocess.run(
        [sys.executable, "-c", HOOK_NAMES], capture_output=True, text=True, check=True
    ).stdout
    r = run_inprocess(HOOK_NAMES, ("eval", "-"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == want


# ---------------------------------------------------------------- the fast tier
# functions and loops the fast tier compiles to Python bytecode (language/fast_tier.py):
# what they hold and give stays the language's, whichever way they are reached

FAST = "def f(n):\n    return n * 2 + 1\ndef r(n):\n    if n < 1:\n        return 0\n    return r(n - 1) + 1\n"
FAST_ESCAPES = [
    (FAST + "f.fast", "AttributeError"),
    (FAST + "f.fastn", "AttributeError"),
    (FAST + "r.__code__", "AttributeError"),
    (FAST + "f(2).__class__.__subclasses__()", "AttributeError"),
    (
        FAST + "def g(n):\n    return 1 // n\ntry:\n    g(0)\nexcept ZeroDivisionError as e:\n"
        "    e.__traceback__",
        "AttributeError",
    ),
    (FAST + "def gen():\n    yield 1\ndef h():\n    return gen()\nh().gi_frame", "AttributeError"),
    (
        FAST + "def h(s, k):\n    return s.format(k)\nh('{0.__class__.__mro__}', 1)",
        "AttributeError",
    ),
    (
        FAST + "class C:\n    def __add__(self, o):\n        return o.__class__.__mro__\n"
        "def h(x):\n    return x + 1\nh(C())",
        "AttributeError",
    ),
    (
        FAST + "import inspect\ndef g():\n    return inspect.currentframe().f_back\n"
        "def h(n):\n    return g()\nh(1).f_globals",
        "AttributeError",
    ),
    (FAST + "for i in range(3):\n    x = i * f(i)\nx.__class__.__subclasses__()", "AttributeError"),
    (
        FAST + "def c(n):\n    def g():\n        return n\n    return g\nc(1).__closure__",
        "AttributeError",
    ),
    (FAST + "def c(n):\n    h = lambda: n\n    return h\nc(1).__code__", "AttributeError"),
    (FAST + "def c(n):\n    h = lambda: n\n    return h\nc(1).__globals__", "AttributeError"),
    (
        FAST
        + "def c():\n    try:\n        f('a') // 0\n    except Exception as e:\n        return e\n"
        "c().__traceback__",
        "AttributeError",
    ),
    (
        FAST + "def c():\n    try:\n        1 // 0\n    except ZeroDivisionError as e:\n"
        "        return e\nc().__context__.__traceback__",
        "AttributeError",
    ),
    (FAST + "def c(d, k):\n    return d[k]\nc(c, '__globals__')", "TypeError"),
    (FAST + "def c(x):\n    a, b = x\n    return a\nc(f)", "TypeError"),
    # an object's own variables, read as Python reads them where no class has the name
    (FAST + "class C:\n    def m(self):\n        return self.mro\nC().m()", "AttributeError"),
    (
        FAST + "class C:\n    def m(self):\n        return self.__dict__.owner\nC().m()",
        "AttributeError",
    ),
    (
        FAST + "class C:\n    def m(self):\n        self.__dict__['__len__'] = 1\n"
        "        return len(self)\nC().m()",
        "TypeError",
    ),
    (
        FAST + "class C:\n    def m(self):\n        try:\n            return self.nope\n"
        "        except AttributeError as e:\n            return e\nC().m().obj",
        "AttributeError",
    ),
    (
        FAST + "class C:\n    pass\nc = C()\nfor i in range(2):\n    x = c.__init_subclass__\n",
        "AttributeError",
    ),
    # defaults taken by the fast function itself, objects called, nested comprehensions,
    # comprehensions and backward in a loop of the program, functions defined in one
    (FAST + "def d(a, b=[1]):\n    return b\nd.__defaults__", "AttributeError"),
    (FAST + "def d(a, b=[1]):\n    return b\nd(1).__class__.__mro__", "AttributeError"),
    (
        FAST + "class C:\n    def __call__(self, x=1):\n        return self.__call__\n"
        "def h(c):\n    return c()\nh(C()).__func__",
        "AttributeError",
    ),
    (
        FAST + "class C:\n    def __call__(self, x):\n        return x\n"
        "def h(c):\n    return c(c)\nh(C()).__class__.__call__.__globals__",
        "AttributeError",
    ),
    (
        FAST + "def h(xs):\n    return [y for x in xs for y in x]\nh([[f], [r]])[0].__code__",
        "AttributeError",
    ),
    (
        FAST + "def h(xs):\n    return (y for x in xs for y in x)\nh([[1]]).gi_frame",
        "AttributeError",
    ),
    (
        FAST + "for i in range(2):\n    g = (y for x in [[1]] for y in x)\ng.gi_code",
        "AttributeError",
    ),
    (FAST + "for i in range(2):\n    ys = [f for x in [1]]\nys[0].__globals__", "AttributeError"),
    (
        FAST + "class V:\n    def backward(self):\n        return self.backward\n"
        "for i in range(2):\n    b = V().backward()\nb.__self__",
        "AttributeError",
    ),
    (
        FAST
        + "def c(n):\n    def g(m, k=n):\n        return m * k\n    return g\nc(1).__defaults__",
        "AttributeError",
    ),
    (
        FAST + "def c(n):\n    def g(m, k=n):\n        return m * k\n    return g\n"
        "c(1).fast.__defaults__",
        "AttributeError",
    ),
    (
        FAST + "def h(xs):\n    return [[y for y in x] for x in xs]\nh([[f]])[0][0].__code__",
        "AttributeError",
    ),
    (
        FAST + "def h(xs):\n    return [(y for y in x) for x in xs]\nh([[1]])[0].gi_frame",
        "AttributeError",
    ),
    # a nested function's guards are its own: the names it reads on a variable of the
    # function around, and the classes it keeps, apart from those of that function
    (
        FAST + "def o(p):\n    q = p\n    def g():\n        return q.fast\n    return g()\no(f)",
        "AttributeError",
    ),
    (
        FAST + "def o(p, q):\n    def g(x):\n        return q.fast\n    p.append(1)\n"
        "    return g(q)\no([], f)",
        "AttributeError",
    ),
]


@pytest.mark.parametrize("source,type_name", FAST_ESCAPES, ids=[s for s, _ in FAST_ESCAPES])
def test_escape_attempts_through_the_fast_tier(source, type_name):
    assert_refused(source, type_name)


def test_what_the_fast_tier_gives_is_a_language_value():
    r = Run(
        FAST + "import inspect\ndef g():\n    return inspect.currentframe().f_back\n"
        "def h(n):\n    m = f(n)\n    return g()\nv = f\nv1 = f(3)\nv2 = r(5)\nframe = h(2)\n"
        "v4 = frame.f_locals\nv5 = 0\nfor i in range(4):\n    v5 = v5 + f(i) / 3\n"
    )
    assert r.error is None, r.error.message
    assert r.session.scope.vars["v"].fast is not None  # (compiled by the fast tier)
    assert r.session.scope.vars["v4"] == {"n": 2, "m": 5}  # the frame of a fast function
    vals = {k: v for k, v in r.session.scope.vars.items() if k.startswith("v")}
    for k, v in vals.items():
        assert allowed(v), f"{k} = {type(v)!r}"


def test_what_the_fast_tiers_closures_and_handlers_give_are_language_values():
    r = Run(
        "def c(n):\n    k = n + 1\n    def g(m):\n        return m * k\n    h = lambda: g\n"
        "    try:\n        1 // 0\n    except ZeroDivisionError as e:\n        err = e\n"
        "    return g, h, err, [k, (n,)], {n: k}, g(2)\nv1, v2, v3, v4, v5, v6 = c(3)\n"
        "v7 = v2()\nv8, v9 = v4\n"
        "def c2(n):\n    def g(m, k=n):\n        return m + k\n    return g, g(1), g(1, 2)\n"
        "v10, v11, v12 = c2(4)\n"
        "class C:\n    def __call__(self, x, y=2):\n        return [self, x, y]\n"
        "def h(c):\n    return c(1), c(2, 3), [z for x in [[c]] for z in x]\nv13 = h(C())\n"
        "for i in range(2):\n    v14 = [(a, b) for a in [c2] for b in [C()]]\n"
        "    v15 = list(b for a in [[v13]] for b in a)\n"
    )
    assert r.error is None, r.error.message
    assert r.session.scope.vars["v1"].fast is not None  # (made by the fast tier)
    vals = {k: v for k, v in r.session.scope.vars.items() if k.startswith("v")}
    for k, v in vals.items():
        assert allowed(v), f"{k} = {type(v)!r}"


def test_the_fast_tier_keeps_the_limits():
    assert_refused(FAST + "def d(n):\n    return d(n + 1)\nd(0)", "LimitError")
    for src in ("i = 0\nwhile True:\n    i += 1\n", "def w():\n    while True:\n        pass\nw()"):
        r = run_inprocess(src, ("eval", "--max-steps", "1000", "-"))
        assert r.returncode != 0 and "--max-steps=1000" in r.stderr
    r = run_inprocess("s = 'ab'\nwhile True:\n    s = s + s\n", ("eval", "-"))
    assert r.returncode != 0 and "Traceback" not in r.stderr
