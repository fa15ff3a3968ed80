# Library classes as Python sees them (type(m) == nn.Linear, type(p) of a Parameter,
# x.__class__, hasattr(x, "__len__")), the generators of Module.parameters() and its
# kin, f"{x=}", and the inspect module (frames of the program's functions, getargvalues,
# signature).  (Written for this suite; the output is torch's.)
import inspect

import torch
from torch import nn

torch.manual_seed(0)
m = nn.Linear(2, 3)
print(type(m), nn.Linear, type(m) == nn.Linear, type(m) is nn.Linear, isinstance(m, nn.Linear))
p = m.weight
print(type(p), type(p) == nn.Parameter, type(p) == torch.Tensor, p.__class__, p.__class__.__name__)
print(type(nn.Sequential(m)), m.__class__.__name__, type(m).__name__, nn.Linear.__name__)
print(type(torch.optim.SGD(m.parameters(), lr=0.1)), type(nn.MSELoss()))
print(type(torch.ones(1)), torch.ones(1).__class__, (3).__class__, "s".__class__.__name__)
class Net(nn.Module):
    def __init__(self):
        super().__init__()
        self.fc = nn.Linear(2, 2)
n = Net()
print(type(n), n.__class__, n.__class__.__name__, type(n.fc) == nn.Linear, issubclass(Net, nn.Module))
def init_weights(m):
    if type(m) == nn.Linear:
        print("init", m)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
print(hasattr((1, 2), "__len__"), hasattr([1], "__len__"), hasattr(3, "__len__"), hasattr("s", "__iter__"), hasattr(torch.ones(2), "__len__"), hasattr(n, "__call__"), hasattr(n, "__len__"))
net.apply(init_weights)
net = nn.Sequential(nn.Linear(4, 3), nn.ReLU(), nn.Linear(3, 1))
print(net.parameters())
print(next(net.parameters()).shape)
print(next(iter(net.named_parameters()))[0])
print([type(m) for m in net.children()])
print(len(list(net.modules())), sum(p.numel() for p in net.parameters()))
print([n for n, _ in net.named_parameters()])
opt = torch.optim.SGD(net.parameters(), lr=0.1)
print(len(opt.param_groups[0]["params"]))
for name, param in net.named_parameters():
    print(name, param.shape)
print(dict(net.named_children()).keys())
x = 3.14159
name = "abc"
t = torch.tensor([1.0, 2.0])
print(f"{x=}", f"{x=:.3f}", f"{x = }", f"{name=}", f"{name=!s}", f"{x*2=}", f"{x == 3=}")
print(f"{t=}")
print(f"{t.sum()=:.2f}")

class HyperParameters:
    def save_hyperparameters(self, ignore=[]):
        frame = inspect.currentframe().f_back
        _, _, _, local_vars = inspect.getargvalues(frame)
        self.hparams = {k:v for k, v in local_vars.items()
                        if k not in set(ignore+['self']) and not k.startswith('_')}
        for k, v in self.hparams.items():
            setattr(self, k, v)

class B(HyperParameters):
    def __init__(self, a, b, c=3, *rest, d=4, **kw):
        self.save_hyperparameters(ignore=['c'])
        print('self.a =', self.a, 'self.b =', self.b)
        print('There is no self.c =', not hasattr(self, 'c'))

b = B(a=1, b=2, c=3)
print(b.hparams)
def f(x, y=2, *args, z, **kw):
    fr = inspect.currentframe()
    return fr
f(1, z=3)
print(inspect.signature(f), inspect.signature(B.__init__), inspect.signature(b.save_hyperparameters))
sig = inspect.signature(f)
for name, p in sig.parameters.items():
    print(name, p, p.default is inspect.Parameter.empty, p.kind)
print(inspect.isclass(B), inspect.isclass(int), inspect.isclass(b), inspect.isfunction(f), inspect.ismethod(b.save_hyperparameters), inspect.isfunction(len))
def g(a, b=2):
    fr = inspect.currentframe()
    args, varargs, keywords, local_vars = inspect.getargvalues(fr)
    print(args, varargs, keywords, [k for k in local_vars], fr.f_code.co_name, fr.f_back.f_code.co_name)
    return a + b
def h(n):
    return g(n) * 2
print(h(5))
