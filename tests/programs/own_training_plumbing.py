# Training plumbing in plain Python around a DataLoader: typing.NamedTuple's call form, a dataclass with field(default_factory=...) of a defaultdict, __post_init__, a property and a classmethod, a DataLoader whose collate_fn is a functools.partial, a decorator with functools.wraps, print's sep, heapq, itertools.groupby, divmod, round and format specs, torch.inference_mode, the walrus operator (written for this test: code in the shape people bring, no adaptation).
import functools, heapq, itertools, math
from collections import defaultdict
from dataclasses import dataclass, field
from typing import NamedTuple, List
import torch
from torch.utils.data import DataLoader, TensorDataset

P = NamedTuple("P", [("x", int), ("y", float)])
print(P(1, 2.0), P._fields)

@dataclass
class Tracker:
    history: dict = field(default_factory=lambda: defaultdict(list))
    best: float = math.inf
    def __post_init__(self):
        self.calls = 0
    def log(self, **kw):
        self.calls += 1
        for k, v in kw.items():
            self.history[k].append(v)
    @property
    def last(self):
        return {k: v[-1] for k, v in self.history.items()}
    @classmethod
    def fresh(cls):
        return cls()

def collate(batch, scale):
    xs, ys = zip(*batch)
    return torch.stack(xs) * scale, torch.stack(ys)

CALLS = {}


def timed(fn):
    @functools.wraps(fn)
    def inner(*a, **k):
        out = fn(*a, **k)
        CALLS[fn.__name__] = CALLS.get(fn.__name__, 0) + 1
        return out
    return inner

torch.manual_seed(3)
ds = TensorDataset(torch.randn(10, 2), torch.randn(10))
dl = DataLoader(ds, batch_size=4, collate_fn=functools.partial(collate, scale=2.0))
model = torch.nn.Linear(2, 1)
tr = Tracker.fresh()

@timed
def step(x, y):
    return torch.nn.functional.mse_loss(model(x).squeeze(-1), y)

for i, (x, y) in enumerate(dl):
    loss = step(x, y)
    tr.log(loss=loss.item(), n=len(x))
print(CALLS, step.__name__, tr.calls, tr.last, len(tr.history["loss"]))
print(*[f"{v:.3f}" for v in tr.history["loss"]], sep=" | ")
heap = []
for i, l in enumerate(tr.history["loss"]):
    heapq.heappush(heap, (-l, i))
print(heapq.nsmallest(2, heap), [i for _, i in sorted(heap)][:2])
groups = {k: [t for t in g] for k, g in itertools.groupby(sorted(range(7), key=lambda v: v % 3), key=lambda v: v % 3)}
print(groups, divmod(17, 5), round(2.675, 2), f"{math.pi:10.4f}|{1234567:,}|{0.5:%}")
acc = defaultdict(list)
for x, y in ds:
    acc[int(y > 0)].append(x)
print({k: torch.stack(v).mean(0) for k, v in sorted(acc.items())})
with torch.inference_mode():
    out = model(torch.ones(1, 2))
print(out.requires_grad, out.is_inference(), torch.is_inference_mode_enabled())
if (n := len(ds)) > 5:
    print("big", n)
