# a user class with __add__, __mul__ and __repr__, used in a loop
import time


class Vec:
    def __init__(self, x, y):
        self.x = x
        self.y = y

    def __add__(self, other):
        return Vec(self.x + other.x, self.y + other.y)

    def __mul__(self, k):
        return Vec(self.x * k, self.y * k)

    def __repr__(self):
        return f"Vec({self.x}, {self.y})"

    def norm2(self):
        return self.x * self.x + self.y * self.y


t0 = time.process_time()
v = Vec(0.0, 0.0)
n = 0.0
for i in range(20000):
    v = v + Vec(1.0, 2.0) * 0.5
    n += v.norm2()
    r = repr(v)
print(r, n)
print(time.process_time() - t0)
