# list comprehensions with a condition, a sum over a generator, a dict comprehension
import time

t0 = time.process_time()
total = 0
for k in range(20):
    xs = [i * i + 1 for i in range(10000) if i % 3 != 0]
    total += len(xs) + xs[-1] + sum(x % 5 for x in xs)
    d = {i: i * 2.5 for i in range(1000)}
    total += len(d)
print(total)
print(time.process_time() - t0)
