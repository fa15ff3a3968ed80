# Python's data model on a program's own classes: operators and their reflected and
# in-place forms, unary operators, comparisons, truth, hashing, formatting, len, item
# access, `in`, iteration (__iter__/__next__, and __getitem__ alone), `with` and
# calling an object, each as Python calls them; and Python's errors where a class
# lacks the method.  (Written for this suite; the output is CPython's.)
class V:
    def __init__(self, x):
        self.x = x

    def __add__(self, o):
        return V(self.x + (o.x if isinstance(o, V) else o))

    def __radd__(self, o):
        return V(o + self.x)

    def __sub__(self, o):
        return V(self.x - (o.x if isinstance(o, V) else o))

    def __rsub__(self, o):
        return V(o - self.x)

    def __mul__(self, o):
        return V(self.x * (o.x if isinstance(o, V) else o))

    __rmul__ = __mul__

    def __truediv__(self, o):
        return V(self.x / o)

    def __rtruediv__(self, o):
        return V(o / self.x)

    def __pow__(self, k):
        return V(self.x**k)

    def __rpow__(self, b):
        return V(b**self.x)

    def __neg__(self):
        return V(-self.x)

    def __pos__(self):
        return self

    def __abs__(self):
        return V(abs(self.x))

    def __repr__(self):
        return f"V({self.x})"

    def __str__(self):
        return f"<{self.x}>"

    def __eq__(self, o):
        return isinstance(o, V) and o.x == self.x

    def __lt__(self, o):
        return self.x < o.x

    def __le__(self, o):
        return self.x <= o.x

    def __hash__(self):
        return hash(self.x)

    def __bool__(self):
        return self.x != 0

    def __format__(self, spec):
        return "V:" + format(self.x, spec)

    def __float__(self):
        return float(self.x)

    def __int__(self):
        return int(self.x)


a, b = V(3), V(4)
print(a + b, a + 1, 1 + a, a - 1, 10 - a, 2 * a, a * 2, a / 2, 6 / a, a**2, 2**a)
print(-a, +a, abs(V(-2)), repr(a), str(a), [a, b], (a,))
print(a == V(3), a != V(3), a == b, a < b, a <= b, a > b, b >= a)
print(sorted([b, a, V(1)]), max([a, b]), min(a, b))
print(len({a, V(3), b}), a in [b, V(3)], a in {V(3)})
print(bool(V(0)), bool(a), "yes" if V(0) else "no", not a)
print(f"{a:.2f}", format(a, "5d"), f"{a}", "{}".format(a), float(a), int(V(2.7)))
c = a
c += 5
print(c, a)
x = V(1)
x *= 3
x -= 1
x /= 4
x **= 2
print(x)


class Seq:
    def __init__(self, n):
        self.n = n
        self.d = {}

    def __len__(self):
        return self.n

    def __getitem__(self, i):
        if i >= self.n:
            raise IndexError("out")
        return self.d.get(i, i * 10)

    def __setitem__(self, i, v):
        self.d[i] = v

    def __delitem__(self, i):
        del self.d[i]

    def __contains__(self, v):
        return v == 42


s = Seq(3)
s[1] = 7
print(len(s), s[0], s[1], list(s), 42 in s, 1 in s, bool(s), bool(Seq(0)))
del s[1]
print(list(s), [v for v in s], sum(s))


class Count:
    def __init__(self, n):
        self.i, self.n = 0, n

    def __iter__(self):
        return self

    def __next__(self):
        if self.i >= self.n:
            raise StopIteration
        self.i += 1
        return self.i


print(list(Count(3)), [2 * v for v in Count(4)], sum(Count(5)))
it = iter(Count(2))
print(next(it), next(it), next(it, "done"))
for v in Count(10):
    if v > 2:
        break
    print("v", v)


class Gen:
    def __iter__(self):
        yield 1
        yield 2


print(list(Gen()), 2 in Gen(), 3 in Gen())


class Ctx:
    def __init__(self, name):
        self.name = name

    def __enter__(self):
        print("enter", self.name)
        return self.name.upper()

    def __exit__(self, typ, val, tb):
        print("exit", self.name, typ, val)
        return typ is ValueError


with Ctx("a") as n:
    print("inside", n)
with Ctx("b"):
    raise ValueError("boom")
try:
    with Ctx("c"):
        raise KeyError("k")
except KeyError as e:
    print("caught", repr(e))


class F:
    def __call__(self, x, y=2):
        return x * y


f = F()
print(f(3), f(3, y=5), callable(f))
try:
    print(a + "s")
except TypeError as e:
    print("TypeError:", e)
try:
    print(a < b, Count(1) < Count(2))
except TypeError as e:
    print("TypeError:", e)
try:
    print(a @ b)
except TypeError as e:
    print("TypeError:", e)
try:
    print(~a)
except TypeError as e:
    print("TypeError:", e)
