# A dataclass config with field(default_factory=...) and asdict, a Poisson fit whose constant term is math.lgamma's, torch.digamma, and torch.tensor's errors for ragged nested lists caught and printed (written for this test: code in the shape people bring, no adaptation).
import math
from dataclasses import dataclass, field, asdict

import torch


@dataclass
class Config:
    name: str = "poisson"
    rates: list = field(default_factory=lambda: [0.5, 1.0, 4.0])
    counts: list = field(default_factory=list)
    steps: int = 3
    extra: dict = field(default_factory=dict, repr=False)


cfg = Config(counts=[0, 2, 5])
other = Config()
other.rates.append(9.0)
print(cfg)
print(other.rates, cfg.rates, other == cfg, asdict(cfg)["counts"])
print([math.lgamma(k + 1) for k in cfg.counts], math.lgamma(0.5), math.gamma(4.5))

rate = torch.tensor(cfg.rates, dtype=torch.float64, requires_grad=True)
k = torch.tensor(cfg.counts, dtype=torch.float64)
log_fact = torch.tensor([math.lgamma(c + 1) for c in cfg.counts], dtype=torch.float64)
for step in range(cfg.steps):
    nll = (rate - k * rate.log() + log_fact).sum()
    nll.backward()
    with torch.no_grad():
        rate -= 0.2 * rate.grad
        rate.clamp_(min=1e-3)
    print(step, f"{nll.item():.6f}", rate.grad)
    rate.grad.zero_()

z = torch.tensor([0.5, 1.0, 2.5, 10.0], requires_grad=True)
dg = torch.digamma(z)
print(dg, torch.special.psi(z).sum())
dg.sum().backward()
print(z.grad, torch.tensor([[], [1.0]]))

for bad in ([[], [1.0]], [[1.0, 2.0], [3.0]], [[1.0], 2.0], [1.0, [2.0]]):
    try:
        torch.tensor(bad)
    except Exception as e:
        print(type(e).__name__, e)
print(torch.tensor([[], []]).shape, torch.tensor([]).dtype)
for odd in ([[], 3], [[[]], [1.0]], [[], [1, 2]], [[], [True]]):
    t = torch.tensor(odd)
    print(t.shape, t.dtype, t.numel())
