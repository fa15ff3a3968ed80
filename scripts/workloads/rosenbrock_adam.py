# The Rosenbrock function minimised with Adam.
import time

import torch

xy = torch.tensor([-1.5, 2.0], requires_grad=True)
opt = torch.optim.Adam([xy], lr=0.01)
t0 = time.process_time()
for i in range(2000):
    opt.zero_grad()
    loss = (1 - xy[0]) ** 2 + 100 * (xy[1] - xy[0] ** 2) ** 2
    loss.backward()
    opt.step()
t1 = time.process_time()
print(loss.item(), xy.tolist())
print("loop", t1 - t0)
