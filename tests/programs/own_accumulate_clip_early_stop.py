# Everyday training code around a small regression net: gradient accumulation over micro-batches (loss divided by the steps), clip_grad_norm_ returning the total norm, clip_grad_value_, a tensor hook that records gradient norms, a module forward hook and a full backward hook, an early-stopping class with @property and a setter, __repr__ and __lt__ for sorting checkpoints, try/except/else/finally, f-strings with = and format specs, dict.get with a default, dict merging with |, the best weights restored by load_state_dict, and torch.utils.checkpoint on the hidden block (written for this test: code in the shape people bring, no adaptation).
import copy
import math
import torch
import torch.nn as nn
from torch.nn.utils import clip_grad_norm_, clip_grad_value_
from torch.utils.checkpoint import checkpoint

torch.manual_seed(123)
X = torch.randn(48, 5)
y = (X[:, :2].sum(1, keepdim=True) - X[:, 4:] * 0.5).tanh() + 0.05 * torch.randn(48, 1)
X_val, y_val = X[40:], y[40:]
X, y = X[:40], y[:40]


class EarlyStopping:
    def __init__(self, patience=2, min_delta=1e-3):
        self.patience, self.min_delta = patience, min_delta
        self.best = math.inf
        self._bad = 0
        self.best_state = None

    @property
    def bad_epochs(self):
        return self._bad

    @bad_epochs.setter
    def bad_epochs(self, value):
        if value < 0:
            raise ValueError(f"bad_epochs must be >= 0, got {value}")
        self._bad = value

    def step(self, loss, model):
        if loss < self.best - self.min_delta:
            self.best = loss
            self.bad_epochs = 0
            self.best_state = copy.deepcopy(model.state_dict())
            return False
        self.bad_epochs += 1
        return self.bad_epochs >= self.patience

    def __repr__(self):
        return f"EarlyStopping(best={self.best:.4f}, bad={self.bad_epochs}/{self.patience})"


class Checkpoint:
    def __init__(self, epoch, loss):
        self.epoch, self.loss = epoch, loss

    def __lt__(self, other):
        return self.loss < other.loss

    def __repr__(self):
        return f"Checkpoint(epoch={self.epoch}, loss={self.loss:.4f})"


model = nn.Sequential(nn.Linear(5, 16), nn.SiLU(), nn.Linear(16, 1))
grad_norms, activations, backward_seen = [], {}, []
model[0].weight.register_hook(lambda g: grad_norms.append(g.norm().item()))
model[1].register_forward_hook(lambda m, inp, out: activations.__setitem__("silu", out.detach().abs().mean().item()))
model[2].register_full_backward_hook(lambda m, gin, gout: backward_seen.append(tuple(g.shape for g in gout)))

opt = torch.optim.SGD(model.parameters(), lr=0.2, momentum=0.5)
loss_fn = nn.MSELoss()
stopper = EarlyStopping(patience=2)
checkpoints = []
accum = 4
for epoch in range(12):
    model.train()
    opt.zero_grad()
    for i, (xb, yb) in enumerate(zip(X.split(10), y.split(10)), start=1):
        loss = loss_fn(model(xb), yb) / accum
        loss.backward()
        if i % accum == 0:
            total = clip_grad_norm_(model.parameters(), max_norm=0.5)
            clip_grad_value_(model.parameters(), clip_value=0.1)
            opt.step()
            opt.zero_grad()
    model.eval()
    with torch.no_grad():
        val = loss_fn(model(X_val), y_val).item()
    checkpoints.append(Checkpoint(epoch, val))
    stop = stopper.step(val, model)
    phase = {0: "warm", 1: "mid"}.get(epoch % 3, "late")
    print(f"{epoch=:2d} {phase:<4} {val=:.5f} norm={total.item():.4f} {stopper}")
    if stop:
        print(f"stopping at epoch {epoch}")
        break

print(sorted(checkpoints)[:3])
print(len(grad_norms), [round(g, 4) for g in grad_norms[:3]], backward_seen[:2])
print({k: round(v, 4) for k, v in activations.items()})
model.load_state_dict(stopper.best_state)
with torch.no_grad():
    restored = loss_fn(model(X_val), y_val).item()
print(f"restored {restored:.5f} == best {stopper.best:.5f}: {math.isclose(restored, stopper.best)}")

try:
    stopper.bad_epochs = -1
except ValueError as e:
    print("ValueError:", e)
else:
    print("no error")
finally:
    print("checked", stopper.bad_epochs)

defaults = {"lr": 0.2, "momentum": 0.5, "nesterov": False}
overrides = {"momentum": 0.9} | {"dampening": 0.0}
config = defaults | overrides
print(config, f"{len(config):,} keys", f"{1234567.891:,.2f}", f"{0.000123:.2e}", f"{'x'!r:>5}")
first, *rest = [p.numel() for p in model.parameters()]
print(first, rest, sum(rest), f"{sum(p.numel() for p in model.parameters()):_}")

# activation checkpointing of the hidden block gives the same gradients as the plain run
xb = X[:6].requires_grad_()
plain = torch.autograd.grad(loss_fn(model(xb), y[:6]), [xb, model[0].weight])
hidden = checkpoint(lambda t: model[1](model[0](t)), xb, use_reentrant=False)
ckpt = torch.autograd.grad(loss_fn(model[2](hidden), y[:6]), [xb, model[0].weight])
print([torch.equal(a, b) for a, b in zip(plain, ckpt)], hidden.grad_fn)
