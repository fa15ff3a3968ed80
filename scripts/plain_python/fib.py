# recursive fib(20), five times
import time


def fib(n):
    if n < 2:
        return n
    return fib(n - 1) + fib(n - 2)


t0 = time.process_time()
for _ in range(5):
    r = fib(20)
print(r)
print(time.process_time() - t0)
