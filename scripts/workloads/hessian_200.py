# The Hessian of a function of 200 variables (torch.autograd.functional.hessian).
import time

import torch

torch.manual_seed(0)
A = torch.randn(200, 200)


def f(x):
    return (torch.tanh(A @ x) ** 2).sum() + (x**4).sum()


x = torch.randn(200)
t0 = time.process_time()
for k in range(3):
    H = torch.autograd.functional.hessian(f, x)
t1 = time.process_time()
print(H.sum().item(), H[0, :3].tolist())
print("loop", t1 - t0)
