"""A forward seen through may go over a ModuleList or Sequential of its module's
(`for block in self.blocks: x = block(x)`, through_shapes.through's `each`), each
module in it checked as a called one is (replay_through._called: gradcli's own pure
module, one seen through, or such a container), and may call a Sequential of modules
seen through; nn.LayerNorm is one pure op.  Each program prints exactly what it prints
with `--no-replay`, in float32 and float64, and replays; a module list changed
partway (a block appended, one replaced) is checked before each iteration."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_HEAD = """import torch
import torch.nn as nn
import torch.nn.functional as F
torch.set_default_dtype({dt})
g = torch.manual_seed(0)
class Block(nn.Module):
    def __init__(self, d, scale=0.5):
        super().__init__()
        self.norm = nn.LayerNorm(d)
        self.fc = nn.Linear(d, d)
        self.scale = scale
    def forward(self, x):
        return x + self.scale * F.gelu(self.fc(self.norm(x)))
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.inp = nn.Linear(6, 8)
        self.blocks = nn.ModuleList([Block(8) for _ in range(3)])
        self.head = nn.Sequential(Block(8, 0.25), nn.Tanh(), nn.Linear(8, 3))
    def forward(self, x):
        x = self.inp(x)
        for block in self.blocks:
            x = block(x)
        return self.head(x)
X = torch.randn(20, 6)
Y = torch.randint(0, 3, (20,))
model = Net()
opt = torch.optim.Adam(model.parameters(), lr=0.01)
"""
_LOOP = """for step in range({n}):
{before}    out = model(X)
    loss = F.cross_entropy(out, Y)
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 9 == 0:
        print(step, loss.item())
print(loss, out.grad_fn, model.blocks[0].fc.bias.grad, model.head[0].norm.weight)
"""
_CASES = {
    "train": _LOOP.format(n=40, before=""),
    # a block appended to the list, then one replaced, then the list's scale changed
    "changed": _LOOP.format(
        n=40,
        before="""    if step == 10:
        model.blocks.append(Block(8))
        opt = torch.optim.Adam(model.parameters(), lr=0.01)
    if step == 20:
        model.blocks[1] = nn.Identity()
    if step == 30:
        model.blocks[0].scale = 2.0
""",
    ),
}
PROGRAMS = {
    f"{name}_{dt}": _HEAD.format(dt=f"torch.{dt}") + loop
    for name, loop in _CASES.items()
    for dt in ("float32", "float64")
}


@pytest.mark.parametrize("name", list(PROGRAMS))
def test_module_lists_print_what_compiled_prints(name):
    on, off = replay_both(PROGRAMS[name])
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name", [n for n in PROGRAMS if n.startswith("train")])
def test_module_lists_replay(name, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= 30
