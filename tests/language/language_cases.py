"""Programs in the Python that PyTorch tutorials are written in, run by
scripts/gen_golden.py language under torch 2.13 to record tests/golden/language.json,
and by tests/language/test_language.py under gradcli.  Each is (name, source)."""

CASES = [
    (
        "scope/closure_sees_argument",
        """
k = 100
def make(k):
    return lambda v: v * k
make(3)(2)
""",
    ),
    (
        "scope/make_loss_uses_its_target",
        """
target = torch.tensor([100.0])
def make_loss(target):
    def loss(x):
        return ((x - target) ** 2).sum()
    return loss
x = torch.tensor([1.0, 2.0], requires_grad=True)
l = make_loss(torch.tensor([1.0, 1.0]))(x)
l.backward()
print(l, x.grad)
""",
    ),
    (
        "scope/nonlocal_counter",
        """
def counter():
    n = 0
    def inc():
        nonlocal n
        n += 1
        return n
    return inc
c = counter()
c()
c()
""",
    ),
    (
        "scope/global_statement",
        """
total = 0
def add(v):
    global total
    total = total + v
add(2)
add(3)
total
""",
    ),
    (
        "scope/late_binding_in_loop",
        """
fs = [lambda: i for i in range(3)]
[f() for f in fs]
""",
    ),
    (
        "scope/unbound_local",
        """
q = 1
def h():
    print(q)
    q = 2
h()
""",
    ),
    (
        "scope/comprehension_variable_does_not_leak",
        """
x = 'outer'
ys = [x for x in range(3)]
print(x, ys)
""",
    ),
    (
        "strings/triple_quoted",
        '''
s = """two
lines"""
print(s)
t = \'\'\'it's\'\'\'
print(t, len(s))
''',
    ),
    (
        "strings/docstrings",
        '''
def f(x):
    """Square x.

    Returns a tensor."""
    return x * x
class C:
    """A class."""
    def m(self):
        """A method."""
        return 1
print(f(torch.tensor(3.0)), C().m())
''',
    ),
    (
        "math/functions_and_constants",
        """
import math
print(math.sqrt(2.0), math.pi, math.e, math.inf, math.tau)
print(math.exp(1.5), math.log(10.0), math.log(8, 2), math.cos(0.3), math.atan2(1.0, 2.0))
print(math.floor(2.7), math.ceil(2.1), math.factorial(10), math.gcd(12, 18), math.isclose(1.0, 1.0 + 1e-12))
print(math.prod([1, 2, 3, 4]), math.fsum([0.1] * 10), math.hypot(3.0, 4.0), math.isnan(math.nan))
""",
    ),
    (
        "math/from_import",
        """
from math import sqrt, pi as PI
sqrt(PI)
""",
    ),
    (
        "random/seeded_like_cpython",
        """
import random
random.seed(0)
print(random.random(), random.randint(1, 10), random.uniform(1.0, 2.0))
print(random.choice([1, 2, 3, 4, 5]), random.randrange(0, 100, 5), random.gauss(0.0, 1.0))
xs = list(range(10))
random.shuffle(xs)
print(xs, random.sample(range(100), 3))
random.seed(42)
print([random.random() for _ in range(3)])
""",
    ),
    (
        "functools/partial_reduce_wraps",
        """
from functools import partial, reduce, wraps
def power(base, exp):
    return base ** exp
square = partial(power, exp=2)
print(square(5), reduce(lambda a, b: a * b, [1, 2, 3, 4]), reduce(lambda a, b: a + b, [], 10))
def logged(fn):
    @wraps(fn)
    def inner(*args, **kwargs):
        return fn(*args, **kwargs) + 1
    return inner
@logged
def g(x):
    return x * 10
g(2)
""",
    ),
    (
        "itertools/basics",
        """
import itertools
print(list(itertools.product([1, 2], ['a', 'b'])))
print(list(itertools.chain([1, 2], [3])), list(itertools.combinations([1, 2, 3], 2)))
print(list(itertools.islice(itertools.count(5), 3)), list(itertools.accumulate([1, 2, 3])))
""",
    ),
    (
        "collections/ordereddict_defaultdict_namedtuple",
        """
from collections import OrderedDict, defaultdict, namedtuple
od = OrderedDict()
od['b'] = 1
od['a'] = 2
print(od, list(od.keys()))
dd = defaultdict(list)
dd['x'].append(1)
dd['x'].append(2)
print(dd['x'], len(dd))
Point = namedtuple('Point', ['x', 'y'])
p = Point(1, y=2)
print(p, p.x + p.y, p[0])
""",
    ),
    (
        "copy/deepcopy_leaf",
        """
import copy
w = torch.tensor([1.0, 2.0], requires_grad=True)
(w * 2).sum().backward()
w2 = copy.deepcopy(w)
print(w2, w2.grad, w2 is w, w2.requires_grad)
""",
    ),
    (
        "copy/deepcopy_nonleaf_error",
        """
import copy
w = torch.tensor([1.0, 2.0], requires_grad=True)
y = w * 2
copy.deepcopy(y)
""",
    ),
    (
        "ops/is_and_is_not",
        """
x = None
y = [1]
z = y
print(x is None, x is not None, y is z, y is [1], 1 in y, 2 not in y)
""",
    ),
    (
        "ops/chained_comparisons",
        """
a = 2
print(1 < a < 3, 1 < a > 3, 0 <= a <= 2 < 5, 3 > a == 2)
""",
    ),
    (
        "ops/in_dict_set_string",
        """
d = {'a': 1}
print('a' in d, 'b' in d, 3 in {1, 2, 3}, 'ell' in 'hello')
""",
    ),
    (
        "ops/floor_div_assign",
        """
n = 17
n //= 5
m = 17
m %= 5
print(n, m)
x = torch.tensor([7.0, 8.0])
x //= 2
x
""",
    ),
    (
        "dict/literals_and_assignment",
        """
d = {}
d['w'] = torch.tensor([1.0, 2.0])
d['b'] = 3
d[(1, 2)] = 'pair'
print(d)
d['b'] += 1
print(len(d), d['b'], d.get('zz', 0), list(d.items())[1])
e = {**d, 'c': 4}
print(sorted(k for k in e if isinstance(k, str)))
""",
    ),
    (
        "dict/methods",
        """
d = {'a': 1, 'b': 2}
for k, v in d.items():
    print(k, v)
print(list(d.keys()), list(d.values()), d.pop('a'), d)
d.update({'c': 3}, d=4)
d.setdefault('e', 5)
print(d)
""",
    ),
    (
        "dict/missing_key",
        """
d = {'a': 1}
d['b']
""",
    ),
    (
        "set/literals",
        """
s = {3, 1, 2, 3}
s.add(4)
print(s, len(s), {x % 3 for x in range(10)}, set([1, 1, 2]))
""",
    ),
    (
        "list/subscription_assignment",
        """
xs = [1, 2, 3, 4]
xs[0] = 10
xs[-1] = 40
xs[1:3] = [20, 30, 35]
print(xs)
del xs[0]
del xs[1:3]
print(xs)
""",
    ),
    (
        "list/index_out_of_range",
        """
xs = [1, 2]
xs[5] = 1
""",
    ),
    (
        "del/names",
        """
a = 1
b = 2
del a, b
a
""",
    ),
    (
        "pass/empty_bodies",
        """
def f():
    pass
class C:
    pass
for i in range(2):
    pass
print(f(), isinstance(C(), C))
""",
    ),
    (
        "comprehensions/list_nested_and_filtered",
        """
print([x * y for x in range(3) for y in range(3) if x != y])
print([[i + j for j in range(2)] for i in range(2)])
print({k: v ** 2 for k, v in zip('abc', range(3))})
""",
    ),
    (
        "comprehensions/generator_expressions",
        """
params = [torch.ones(2, 3), torch.ones(4)]
print(sum(p.numel() for p in params))
print(max(x * 2 for x in [3, 1, 2]), min(x for x in [3, 1, 2]), any(x > 2 for x in [1, 3]), all(x > 2 for x in [1, 3]))
g = (x * x for x in range(4))
print(list(g), list(g))
""",
    ),
    (
        "comprehensions/tensors",
        """
xs = [torch.tensor(float(i), requires_grad=True) for i in range(3)]
total = sum(x * x for x in xs)
total.backward()
print(total, [x.grad for x in xs])
""",
    ),
    (
        "args/star_args_kwargs_keyword_only",
        """
def f(a, b=2, *args, c, d=4, **kw):
    return a, b, args, c, d, kw
print(f(1, c=3))
print(f(1, 2, 3, 4, c=5, e=6))
args = [10, 20]
kw = {'c': 30, 'x': 40}
print(f(*args, **kw))
""",
    ),
    (
        "args/missing_keyword_only",
        """
def f(a, *, c):
    return a + c
f(1)
""",
    ),
    (
        "args/unexpected_keyword",
        """
def f(a):
    return a
f(1, b=2)
""",
    ),
    (
        "unpacking/star_targets",
        """
a, *rest = [1, 2, 3, 4]
*init, last = (1, 2, 3)
first, *middle, end = range(5)
print(a, rest, init, last, first, middle, end)
x, (y, z) = 1, (2, 3)
print(x, y, z, [*rest, *init])
""",
    ),
    (
        "unpacking/too_many",
        """
a, b = [1, 2, 3]
""",
    ),
    (
        "unpacking/strings",
        """
def f(a, b):
    return b + a
a, b = "xy"
first, *rest = "abc"
print(f(*"ab"), a, b, first, rest, [*"hi", *"!"])
for k, v in ["ab", "cd"]:
    print(k, v)
""",
    ),
    (
        "unpacking/string_too_long",
        """
a, b = "abc"
""",
    ),
    (
        "generators/next_after_the_end",
        """
def gen():
    yield 1
t = gen()
print(next(t))
next(t)
""",
    ),
    (
        "try/except_else_finally",
        """
def div(a, b):
    try:
        r = a // b
    except ZeroDivisionError as e:
        print('error:', e)
        return None
    else:
        print('ok')
        return r
    finally:
        print('finally')
print(div(1, 2))
print(div(1, 0))
""",
    ),
    (
        "try/torch_errors_are_runtime_errors",
        """
try:
    torch.ones(2) + torch.ones(3)
except RuntimeError as e:
    print('RuntimeError:', e)
try:
    torch.ones(2, requires_grad=True).backward()
except RuntimeError as e:
    print('caught:', e)
""",
    ),
    (
        "try/exception_hierarchy",
        """
for thing in [lambda: [][1], lambda: {}['k'], lambda: undefined_fn(), lambda: 1 // 0]:
    try:
        thing()
    except (LookupError, ArithmeticError) as e:
        print('lookup or arithmetic:', type(e).__name__ if False else e)
    except Exception as e:
        print('other:', e)
""",
    ),
    (
        "try/exception_types",
        """
errors = [lambda: torch.ones(1).view(3), lambda: torch.ones(2) + torch.ones(3),
          lambda: [1][5], lambda: {}['k'], lambda: 1 // 0, lambda: torch.ones(2).nosuch,
          lambda: int('x'), lambda: float('1,5'), lambda: int('1.5'),
          lambda: torch.ones(2, requires_grad=True).backward()]
for thing in errors:
    try:
        thing()
    except Exception as e:
        print(type(e).__name__, type(e) is RuntimeError, isinstance(e, RuntimeError),
              isinstance(e, (LookupError, ArithmeticError)), repr(e)[:30])
print(ValueError, type(ValueError('x')), repr(ValueError('x')))
for args in [(), (5,), ('x',), ('a', 'b')]:
    for T in [ValueError, KeyError, RuntimeError]:
        e = T(*args)
        print(T.__name__, repr(str(e)), repr(e))
try:
    {}[(1, 'a')]
except KeyError as e:
    print(repr(e), str(e))
""",
    ),
    (
        "builtins/numbers_and_sequences",
        """
print(divmod(-7, 2), divmod(7.5, 2), divmod(True, 2), pow(2, 10), pow(2.0, 0.5), pow(2, -1))
print(pow(torch.tensor(2.0), 3), pow(2, torch.tensor(3.0)))
print(min('hello'), max(['b', 'a', 'c']), max((3, 1, 2)), min(range(4, 9)))
try:
    divmod(7, 0)
except ZeroDivisionError as e:
    print(type(e).__name__, e)
try:
    max([1, 'a'])
except TypeError as e:
    print(type(e).__name__, e)
divmod(torch.tensor(1.0), 2)
""",
    ),
    (
        "fstring/tensors",
        """
x = torch.tensor(3.14159)
v = torch.tensor([1.0, 2.0])
n = torch.tensor(5)
b = torch.tensor(True)
print(f"{x}", f"{x:.2f}", f"{x.item():>8.3f}", f"{v}", f"{x!r}", f"{n:d}", f"{n}", f"{b}")
print("{} {:.3f} {}".format(x, x, v), str(x), "val: " + str(v))
loss = (v * v).sum()
print(f"loss: {loss:>7f}  [{3:>5d}/{60:>5d}]", f"{loss}")
print(f"{v:.2f}")
""",
    ),
    (
        "strings/percent_format",
        """
x = torch.tensor(3.14159)
n = torch.tensor(7)
v = torch.tensor([1.0, 2.0])
print('%d: %.3f %s %r' % (2, 0.5, 'hi', 'hi'))
print('%.2f %d %s' % (x, n, v))
print('loss %.4f' % x, '%5.1f%%' % 12.345, '%x %o %e' % (255, 8, 12345.678))
print('%(a)s-%(b)d' % {'a': [1, 2], 'b': 3}, '%s' % [x, 1], '%s' % (v,))
print('%-6s|%06.2f|%+d' % ('ab', 3.14159, 5), '%c' % 65, '%s %s' % (None, True))
for bad in ['%d %d', '%z', '%d']:
    try:
        print(bad % (1,), bad)
    except Exception as e:
        print(type(e).__name__, e)
try:
    print('%(k)s' % {})
except KeyError as e:
    print(type(e).__name__, e)
'%f' % v
""",
    ),
    (
        "strings/percent_format_numpy",
        """
import numpy as np
a = np.float32(2.5)
b = torch.tensor([1.5, 2.0]).numpy()
m = (b[0] + b[1]) / 2
print('%.3f' % a, '%d' % np.int64(3), '%s|%r' % (a, a), '%.2f %d %x' % (b[0], b[1], np.int32(255)))
print('%s' % (b,), '%.1f' % np.float64(0.25), '%e' % np.array(3.0), '%.5f %s' % (m, type(m)))
for bad in ['%x', '%c']:
    for v in [np.float32(1.0), np.zeros(2)]:
        try:
            print(bad % v)
        except Exception as e:
            print(type(e).__name__, e)
'%.2f' % b
""",
    ),
    (
        "builtins/dict_views",
        """
d = {'a': 1, 'b': 2}
ks = d.keys()
for k in ks:
    print(k)
for k in ks:
    print(k)
d['c'] = 3
print(ks, len(ks), 'c' in ks, 'z' in ks, list(d.values()), sorted(d.items()), max(d.values()))
print([k for k in d.keys()], tuple(d.items()), set(d.keys()) == {'a', 'b', 'c'})
for k, v in d.items():
    print(k, v)
print(sum(d.values()), dict(d.items()), len(d.items()), d.values(), d.items())
sd = torch.nn.Linear(2, 1).state_dict()
print(sd.keys(), list(sd.keys()), len(sd.values()), type(sd).__name__)
""",
    ),
    (
        "try/raise_and_reraise",
        """
def check(x):
    if x < 0:
        raise ValueError(f'negative: {x}')
    return x
try:
    check(-1)
except ValueError as e:
    print('caught', e, e.args)
try:
    try:
        check(-2)
    except ValueError:
        print('inner')
        raise
except ValueError as e:
    print('outer', e)
""",
    ),
    (
        "try/uncaught_raise",
        """
raise NotImplementedError('not yet')
""",
    ),
    (
        "try/custom_exception_class",
        """
class ShapeMismatch(Exception):
    pass
class Worse(ShapeMismatch):
    def __init__(self, n):
        super().__init__(f'worse by {n}')
        self.n = n
try:
    raise Worse(3)
except ShapeMismatch as e:
    print('caught', e, e.n, isinstance(e, Exception))
""",
    ),
    (
        "try/finally_runs_on_return",
        """
def f():
    try:
        return 1
    finally:
        print('cleanup')
f()
""",
    ),
    (
        "generators/yield",
        """
def countdown(n):
    while n > 0:
        yield n
        n -= 1
print(list(countdown(3)))
def pairs(xs):
    for i in range(0, len(xs), 2):
        yield xs[i], xs[i + 1]
for a, b in pairs([1, 2, 3, 4]):
    print(a, b)
def chained():
    yield from [1, 2]
    yield 3
it = chained()
print(next(it), next(it), list(it), next(it, 'done'))
""",
    ),
    (
        "generators/data_iter",
        """
import random
def data_iter(batch_size, features, labels):
    num_examples = len(features)
    indices = list(range(num_examples))
    random.shuffle(indices)
    for i in range(0, num_examples, batch_size):
        batch_indices = torch.tensor(indices[i: min(i + batch_size, num_examples)])
        yield features[batch_indices], labels[batch_indices]
random.seed(1)
features = torch.arange(10.0).reshape(5, 2)
labels = torch.arange(5.0)
for X, y in data_iter(2, features, labels):
    print(X, y)
""",
    ),
    (
        "classes/basics",
        """
class Counter:
    step = 1
    def __init__(self, start=0):
        self.value = start
    def bump(self):
        self.value += self.step
        return self
    def __repr__(self):
        return f'Counter({self.value})'
c = Counter(5)
c.bump().bump()
print(c, c.value, Counter.step)
Counter.step = 10
c.bump()
""",
    ),
    (
        "classes/inheritance_super_properties",
        """
class Shape:
    def __init__(self, name):
        self.name = name
    def area(self):
        return 0
    def describe(self):
        return f'{self.name} with area {self.area()}'
class Rect(Shape):
    def __init__(self, w, h):
        super().__init__('rect')
        self.w, self.h = w, h
    def area(self):
        return self.w * self.h
    @property
    def perimeter(self):
        return 2 * (self.w + self.h)
    @staticmethod
    def unit():
        return Rect(1, 1)
    @classmethod
    def square(cls, s):
        return cls(s, s)
class Square(Rect):
    def describe(self):
        return 'square: ' + super().describe()
r = Rect(2, 3)
print(r.describe(), r.perimeter, Rect.unit().area(), Rect.square(4).area())
s = Square.square(2)
print(s.describe(), isinstance(s, Shape), issubclass(Square, Rect), type(s) is Square)
""",
    ),
    (
        "classes/property_setter",
        """
class Temp:
    def __init__(self):
        self._c = 0.0
    @property
    def celsius(self):
        return self._c
    @celsius.setter
    def celsius(self, v):
        if v < -273.15:
            raise ValueError('too cold')
        self._c = v
t = Temp()
t.celsius = 25.0
print(t.celsius)
t.celsius = -300
""",
    ),
    (
        "classes/call_and_str",
        """
class Poly:
    def __init__(self, *coeffs):
        self.coeffs = coeffs
    def __call__(self, x):
        return sum(c * x ** i for i, c in enumerate(self.coeffs))
    def __str__(self):
        return ' + '.join(f'{c}x^{i}' for i, c in enumerate(self.coeffs))
p = Poly(1.0, 2.0, 3.0)
x = torch.tensor(2.0, requires_grad=True)
y = p(x)
y.backward()
print(p, y, x.grad)
""",
    ),
    (
        "classes/default_repr_and_missing_attribute",
        """
class Empty:
    pass
e = Empty()
print(isinstance(e, Empty))
e.missing
""",
    ),
    (
        "classes/len_getitem",
        """
class Dataset:
    def __init__(self, n):
        self.xs = torch.arange(float(n))
    def __len__(self):
        return len(self.xs)
    def __getitem__(self, i):
        return self.xs[i] * 2
ds = Dataset(4)
print(len(ds), ds[1], [ds[i] for i in range(len(ds))])
""",
    ),
    (
        "classes/tutorial_polynomial_style",
        """
class Cubic:
    def __init__(self):
        self.a = torch.tensor(0.5, requires_grad=True)
        self.b = torch.tensor(-1.0, requires_grad=True)
    def forward(self, x):
        return self.a + self.b * x ** 3
    def parameters(self):
        return [self.a, self.b]
    def string(self):
        return f'y = {self.a.item()} + {self.b.item()} x^3'
model = Cubic()
x = torch.linspace(-1.0, 1.0, 5)
y = torch.sin(x)
for t in range(3):
    loss = (model.forward(x) - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        for p in model.parameters():
            p -= 0.1 * p.grad
            p.grad = None
    print(t, loss.item())
print(model.string())
""",
    ),
    (
        "decorators/with_arguments",
        """
def repeat(n):
    def deco(fn):
        def run(*args):
            return [fn(*args) for _ in range(n)]
        return run
    return deco
@repeat(3)
def one(x):
    return x + 1
one(1)
""",
    ),
    (
        "decorators/stacked",
        """
def add(k):
    def deco(fn):
        return lambda x: fn(x) + k
    return deco
@add(1)
@add(10)
def f(x):
    return x * 100
f(1)
""",
    ),
    (
        "decorators/no_grad",
        """
@torch.no_grad()
def update(w):
    return w * 2
w = torch.ones(2, requires_grad=True)
print(update(w).requires_grad, (w * 2).requires_grad)
""",
    ),
    (
        "decorators/class_decorator",
        """
registry = []
def register(cls):
    registry.append(cls)
    return cls
@register
class A:
    pass
print(len(registry), registry[0] is A)
""",
    ),
    (
        "builtins/zip_enumerate_sorted_reversed",
        """
names = ['b', 'a', 'c']
for i, (n, v) in enumerate(zip(names, [3, 1, 2]), 1):
    print(i, n, v)
print(sorted(names), sorted([3, 1, 2], key=lambda v: -v), list(reversed(names)))
print(dict(zip(names, range(3))), list(map(lambda v: v * 2, [1, 2])), list(filter(None, [0, 1, 2])))
""",
    ),
    (
        "builtins/getattr_hasattr_setattr",
        """
class C:
    pass
c = C()
setattr(c, 'w', 3)
print(getattr(c, 'w'), getattr(c, 'v', 'default'), hasattr(c, 'w'), hasattr(c, 'v'))
""",
    ),
    (
        "loops/else_clauses",
        """
for i in range(3):
    if i == 5:
        break
else:
    print('no break')
n = 0
while n < 3:
    n += 1
else:
    print('done', n)
""",
    ),
    (
        "tensors/element_assignment",
        """
x = torch.zeros(2, 3)
x[0] = 5
x[1, 2] = 7
x[:, 0] += 1
x
inp = torch.tensor([-1.0, 2.0, -3.0])
grad_input = torch.ones(3).clone()
grad_input[inp < 0] = 0
grad_input
w = torch.ones(2, requires_grad=True)
with torch.no_grad():
    w[0] = 3
w
""",
    ),
    (
        "tensors/element_assignment_leaf_error",
        """
w = torch.ones(2, requires_grad=True)
w[1] = 2
""",
    ),
    (
        "tensors/element_assignment_shape_error",
        """
x = torch.zeros(2, 3)
x[0] = torch.ones(2)
""",
    ),
    (
        "tensors/element_assignment_keeps_saved_values",
        """
a = torch.tensor([1.0, 2.0], requires_grad=True)
b = torch.tensor([3.0, 4.0])
y = (a * b).sum()
c = b.clone()
c[0] = 100
y.backward()
print(a.grad, c)
""",
    ),
    (
        "names/dunder_names",
        """
import math
class Point:
    '''A point.'''
    def norm(self):
        "The length."
        return 1.0
    class Inner:
        pass
def outer():
    def inner():
        pass
    return inner
def plain():
    return 1
print(Point.__name__, Point.__qualname__, Point.__doc__)
print(Point.norm.__name__, Point.norm.__qualname__, Point().norm.__doc__, Point().__doc__)
print(Point.Inner.__qualname__, outer().__name__, outer().__qualname__, plain.__doc__)
print((lambda: 1).__name__, math.sqrt.__name__, torch.sin.__name__, print.__name__, len.__name__)
print(int.__name__, float.__name__, torch.Tensor.__name__, type(torch.ones(1)).__name__, math.__name__)
registry = {}
def register(fn):
    registry[fn.__name__] = fn
    return fn
@register
def double(x):
    return 2 * x
print(sorted(registry), registry['double'](4))
import functools
def logged(fn):
    @functools.wraps(fn)
    def wrapper(*args):
        return fn(*args)
    return wrapper
@logged
def triple(x):
    "Three times."
    return 3 * x
def bare(fn):
    def wrapper(*args):
        return fn(*args)
    return wrapper
print(triple.__name__, triple.__qualname__, triple.__doc__, bare(triple).__qualname__, triple(2))
""",
    ),
    (
        "names/dunder_name_of_instance_error",
        """
class C:
    pass
C().__name__
""",
    ),
    (
        "names/type_of_values",
        """
class A:
    pass
class B(A):
    pass
print(type(A()), type(B()), A, B)
print(type(torch.ones(2)), type(torch.ones(2, requires_grad=True) * 2))
print(type(3), type(2.5), type(True), type('s'), type(None), type([1]), type((1,)), type({}), type({1}))
print(type(torch.float32), type(torch.ones(2).shape), type(torch.ones(1).item()), type(range(2)))
print(type(lambda: 1), type(int), type(A))
print(int, float, list, dict, torch.Tensor)
print(type(B()) is B, type(3) is int, type(torch.ones(1)) == torch.Tensor, type(2.0) == float)
print(isinstance(B(), A), isinstance(A(), B), isinstance(B(), (int, A)), isinstance(torch.ones(1), torch.Tensor))
print(issubclass(B, A), issubclass(A, B), type(B()).__name__)
def f():
    class Local:
        pass
    return Local
print(f(), type(f()()))
""",
    ),
    (
        "classes/super_in_a_class_made_in_a_loop",
        """
class A:
    def m(self):
        return 0
K = A
for i in range(5):
    class K(K):
        def m(self):
            return super().m() + 1
print(K().m())
made = []
for tag in ['x', 'y']:
    class T(A):
        def m(self):
            return [super().m(), tag]
    made.append(T)
print([c().m() for c in made])
""",
    ),
    (
        "operators/bitwise_python",
        """
print(3 & 5, 3 | 5, ~5, ~True, ~0, True & False, True | 2, False | False, 1 << 3, -8 >> 1, 5 >> 10)
print(1 | 2 & 3 << 1, (1 | 2) & 3, 1 + 2 << 1, 6 & 3 == 2, 1 << 2 << 3, 64 >> 2 >> 1, 5 & 3 | 8 & 12)
print({1, 2} & {2, 3}, {1} | {2}, {'a': 1} | {'b': 2}, -~3, ~-3, 2 * ~1)
k = 5
k |= 2
k <<= 2
k >>= 1
k &= 6
print(k)
flags = [n & 1 == 1 for n in range(5)]
print(flags, [n >> 1 for n in range(5)], sum(1 << n for n in range(4)))
""",
    ),
    (
        "operators/bitwise_tensors",
        """
x = torch.tensor([-1.0, 0.5, 2.0])
i = torch.tensor([1, 2, 3])
b = torch.tensor([True, False, True])
i32 = torch.tensor([1, 2, 3], dtype=torch.int32)
u8 = torch.tensor([1, 2, 3], dtype=torch.uint8)
mask = (x > 0) & (x < 1)
print(mask, (x > 0) | (x < 1), ~(x > 0), ~i, i & 2, i | b, b & True, b & 1)
print(x[mask], x[(x < 0) | (x > 1)])
print(i << 2, i >> 1, 1 << i, b << 1, i & i32, i32 & u8, True & i, 3 & i, 3 | b, ~torch.tensor(5))
print(i << -1, i >> 70, i << 70, torch.tensor([-5, 5]) >> 70, torch.tensor([-5, 5]) >> 1)
print(torch.logical_and(x, i), torch.logical_not(x), torch.logical_or(b, x), torch.logical_xor(b, i))
print(torch.bitwise_xor(i, i32), torch.bitwise_left_shift(i, 1), torch.bitwise_right_shift(i, 1))
print(i.bitwise_and(3), i.bitwise_or(4), torch.bitwise_not(b), b.logical_not(), i.bitwise_xor(1))
m = torch.tensor([1, 2, 3])
n = m
m &= 1
n |= 4
m <<= 1
print(m, n, m is n)
c = torch.tensor([True, True])
c &= torch.tensor([True, False])
print(c)
""",
    ),
    (
        "operators/bitwise_and_float_error",
        """
x = torch.tensor([-1.0, 0.5, 2.0])
x & 1
""",
    ),
    (
        "operators/bitwise_or_float_error",
        """
x = torch.tensor([1.5])
torch.tensor([1]) | x
""",
    ),
    (
        "operators/bitwise_shift_float_error",
        """
x = torch.tensor([1.5])
x << 1
""",
    ),
    (
        "operators/bitwise_invert_float_error",
        """
x = torch.tensor([1.5], requires_grad=True)
~x
""",
    ),
    (
        "operators/bitwise_not_float_error",
        """
torch.bitwise_not(torch.tensor([1.5]))
""",
    ),
    (
        "operators/bitwise_python_float_error",
        """
2.5 & 1
""",
    ),
    (
        "operators/bitwise_python_invert_error",
        """
~2.5
""",
    ),
    (
        "operators/bitwise_negative_shift_error",
        """
1 << -1
""",
    ),
    (
        "operators/bitwise_none_error",
        """
torch.tensor([1]) & None
""",
    ),
    (
        "operators/bitwise_catchable",
        """
try:
    torch.tensor([1.0]) & 1
except NotImplementedError as e:
    print('caught:', e)
try:
    ~torch.tensor([1.0])
except TypeError as e:
    print('caught:', e)
""",
    ),
    (
        "generators/lazy",
        """
import itertools
def naturals():
    n = 0
    while True:
        yield n
        n += 1
g = naturals()
print(next(g), next(g), next(g))
print(list(zip('abc', naturals())), list(itertools.islice(naturals(), 2, 6)))
print(any(n > 5 for n in itertools.count()), all(n < 3 for n in naturals()), 7 in naturals())
def trace():
    print('start')
    yield 1
    print('middle')
    yield 2
    print('end')
t = trace()
print('made')
print(next(t))
print(next(t))
print(next(t, 'done'), next(t, 'again'))
for i, v in enumerate(naturals()):
    if i == 3:
        break
print(i, v)
m = map(lambda v: v * 2, naturals())
f = filter(lambda v: v % 3 == 0, naturals())
print(next(m), next(m), next(f), next(f), next(f))
sq = (i * i for i in naturals())
print(next(sq), next(sq), next(sq), sum(x for x in range(5)))
""",
    ),
    (
        "generators/control_flow",
        """
def inner():
    yield 1
    yield 2
    return 'ret'
def outer():
    r = yield from inner()
    yield r
def gtry():
    try:
        yield 1
        raise ValueError('x')
    except ValueError as e:
        yield str(e)
    else:
        yield 'else'
    finally:
        yield 'fin'
def gfor(n):
    for i in range(n):
        if i % 2:
            continue
        if i > 6:
            return
        yield i
    else:
        yield 'else'
def gwhile():
    k = 0
    while k < 5:
        k += 1
        if k == 2:
            continue
        yield k
    else:
        yield 'done'
def y_assign():
    x = yield 1
    yield x
def ret_only():
    return 5
    yield 1
def nested(n):
    if n:
        yield n
        yield from nested(n - 1)
print(list(outer()), list(gtry()), list(gfor(5)), list(gfor(20)))
print(list(gwhile()), list(y_assign()), list(ret_only()), list(nested(4)))
def gwith():
    with torch.no_grad():
        yield torch.ones(1, requires_grad=True) * 2
print(next(gwith()))
class Counter:
    def __init__(self, n):
        self.n = n
    def __iter__(self):
        i = 0
        while i < self.n:
            yield i
            i += 1
print(list(Counter(3)), [x * 10 for x in Counter(4)])
""",
    ),
    (
        "generators/error_inside",
        """
def g():
    yield 1
    raise KeyError('late')
it = g()
print(next(it))
next(it)
""",
    ),
    (
        "imports/future_features_are_on",
        """
from __future__ import print_function, division, absolute_import, annotations
print(7 / 2, 7 // 2)
""",
    ),
    (
        "identity/dtypes_are_one_object_each",
        """
import copy
x = torch.randn(3)
print(x.dtype is torch.float64, torch.double is torch.float64, x.float().dtype is torch.float32)
print(torch.tensor([1]).dtype is torch.long, torch.get_default_dtype() is torch.float64)
print(copy.deepcopy(x.dtype) is torch.float64, x.dtype is not torch.float32)
print({torch.float32: 'f', torch.float64: 'd'}[x.dtype])
""",
    ),
    (
        "datamodel/tensor_and_object_operators",
        """
class V:
    def __init__(self, t):
        self.t = t
    def __rmul__(self, o):
        return V(o * self.t)
    def __radd__(self, o):
        return 'radd'
    def __sub__(self, o):
        return NotImplemented
    def __matmul__(self, o):
        return 'matmul'
    def __rpow__(self, o):
        return 'rpow'
class W:
    pass
b = torch.ones(3)
def show(f):
    try:
        r = f()
        print(type(r).__name__, r if isinstance(r, str) else r.t)
    except TypeError as e:
        print('TypeError:', e)
show(lambda: b * V(b))
show(lambda: b + V(b))
show(lambda: V(b) - b)
show(lambda: V(b) @ b)
show(lambda: b ** V(b))
show(lambda: V(b) * b)
show(lambda: b / V(b))
show(lambda: b - W())
show(lambda: W() * b)
show(lambda: b @ W())
def aug(op):
    t = torch.ones(3)
    if op == '+':
        t += V(b)
    elif op == '*':
        t *= V(b)
    else:
        t -= V(b)
    return t
show(lambda: aug('+'))
show(lambda: aug('*'))
show(lambda: aug('-'))
v = V(b)
v @= b
print(v)
""",
    ),
]
