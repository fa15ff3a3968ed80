# a 300,000-step while loop and for loop with integer arithmetic
import time

t0 = time.process_time()
i = 0
s = 0
while i < 300000:
    s = s + i * 2 % 7
    i += 1
for j in range(300000):
    if j % 3 == 0:
        s -= j // 3
    else:
        s += 1
print(s)
print(time.process_time() - t0)
