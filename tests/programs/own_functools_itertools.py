# functools and itertools driving tensors: functools.partial of torch functions and reduce over a list of tensors, itertools.chain/product/islice feeding a training loop, a collections.deque of recent losses checked with isinstance, sorted with a key over tensor items (written for this test: code in the shape people bring, no adaptation).
import functools
import itertools
import operator
from collections import deque

import torch
import torch.nn.functional as F

torch.manual_seed(1)
parts = [torch.randn(2, 2) for _ in range(4)]
total = functools.reduce(torch.add, parts)
prod = functools.reduce(operator.matmul, parts)
print(total)
print(prod)
print(functools.reduce(lambda a, b: torch.maximum(a, b), parts, torch.full((2, 2), -1.0)))
leaky = functools.partial(F.leaky_relu, negative_slope=0.2)
print(leaky(torch.tensor([-1.0, 0.5])), leaky.keywords)
clip = functools.partial(torch.clamp, min=-0.5, max=0.5)
print(clip(parts[0]))

grid = list(itertools.product([0.1, 0.01], [1, 2]))
print(grid)
model = torch.nn.Linear(2, 1)
xs = torch.randn(12, 2)
ys = xs.sum(dim=1, keepdim=True)
recent = deque(maxlen=3)
print(isinstance(recent, deque), recent.maxlen)
results = {}
for lr, width in grid:
    torch.manual_seed(width)
    net = torch.nn.Sequential(torch.nn.Linear(2, width), torch.nn.Tanh(), torch.nn.Linear(width, 1))
    opt = torch.optim.SGD(net.parameters(), lr=lr)
    batches = itertools.chain(zip(xs[:6].split(2), ys[:6].split(2)), zip(xs[6:].split(3), ys[6:].split(3)))
    for x, y in itertools.islice(itertools.cycle(list(batches)), 10):
        loss = F.mse_loss(net(x), y)
        opt.zero_grad()
        loss.backward()
        opt.step()
        recent.append(loss.detach())
    results[(lr, width)] = torch.stack(list(recent)).mean()
    print(lr, width, len(recent), [f"{v.item():.4f}" for v in recent])
best = sorted(results.items(), key=lambda kv: kv[1].item())
for k, v in best:
    print(k, f"{v:.5f}", round(v.item(), 6))
print(max(results, key=lambda k: results[k]))
recent.rotate(1)
recent.appendleft(torch.tensor(0.0))
print(recent)
print(list(itertools.accumulate([t.sum() for t in parts])))
print(sorted(parts[1].flatten().tolist(), key=abs, reverse=True))
