# Python's errors where a class of the program lacks a special method (unhashable with
# __eq__ and no __hash__, no __len__, __getitem__, __iter__, __call__, __enter__,
# __abs__, __neg__, __format__ with a spec), in Python's words.  (Written for this
# suite; the output is CPython's.)
class V:
    def __init__(self, x):
        self.x = x
    def __eq__(self, o):
        return self.x == o.x
s = set()
try:
    s.add(V(1))
except TypeError as e:
    print("TypeError:", e)
try:
    d = {V(1): 2}
except TypeError as e:
    print("TypeError:", e)
try:
    print(V(1) in {1, 2})
except TypeError as e:
    print("TypeError:", e)
print(V(1) == V(1), V(1) != V(2), V(1) in [V(1)])
try:
    len(V(1))
except TypeError as e:
    print("TypeError:", e)
try:
    V(1)[0]
except TypeError as e:
    print("TypeError:", e)
try:
    for z in V(1):
        pass
except TypeError as e:
    print("TypeError:", e)
try:
    V(1)()
except TypeError as e:
    print("TypeError:", e)
try:
    with V(1):
        pass
except TypeError as e:
    print("TypeError:", e)
try:
    abs(V(1))
except TypeError as e:
    print("TypeError:", e)
try:
    -V(1)
except TypeError as e:
    print("TypeError:", e)
print(f"{V(1)!r}"[:12], str(V(1))[:12])
try:
    f"{V(1):>5}"
except TypeError as e:
    print("TypeError:", e)
class A:
    def __enter__(self):
        return 1
try:
    with A():
        pass
except TypeError as e:
    print("TypeError:", e)
