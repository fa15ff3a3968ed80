# Published code: Dive into Deep Learning, sections "Parameter Management" and "Parameter
# Initialization" (pytorch tab), one after the other.
# Source: d2l-ai/d2l-en at e52dbadf718ce6d6c3f8f717c74cf811c306f34c:
#         chapter_builders-guide/parameters.md, chapter_builders-guide/init-param.md
# The `%%tab pytorch` code cells, in order (prose and the other frameworks' tabs left out).
# Adaptations:
#   - torch.manual_seed(0) added at the top (the chapters do not seed).
#   - The chapters are notebooks: the last line of a cell, when it is a bare expression,
#     is shown by Jupyter; run as a script it would print nothing, so each such line is
#     wrapped in print(...) (marked "# print added").

import torch
torch.manual_seed(0)  # added

# --- parameters.md
import torch
from torch import nn

net = nn.Sequential(nn.LazyLinear(8),
                    nn.ReLU(),
                    nn.LazyLinear(1))

X = torch.rand(size=(2, 4))
print(net(X).shape)  # print added

print(net[2].state_dict())  # print added

print((type(net[2].bias), net[2].bias.data))  # print added

print(net[2].weight.grad == None)  # print added

print([(name, param.shape) for name, param in net.named_parameters()])  # print added

# We need to give the shared layer a name so that we can refer to its
# parameters
shared = nn.LazyLinear(8)
net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(),
                    shared, nn.ReLU(),
                    shared, nn.ReLU(),
                    nn.LazyLinear(1))

net(X)
# Check whether the parameters are the same
print(net[2].weight.data[0] == net[4].weight.data[0])
net[2].weight.data[0, 0] = 100
# Make sure that they are actually the same object rather than just having the
# same value
print(net[2].weight.data[0] == net[4].weight.data[0])

# --- init-param.md
import torch
from torch import nn

net = nn.Sequential(nn.LazyLinear(8), nn.ReLU(), nn.LazyLinear(1))
X = torch.rand(size=(2, 4))
print(net(X).shape)  # print added

def init_normal(module):
    if type(module) == nn.Linear:
        nn.init.normal_(module.weight, mean=0, std=0.01)
        nn.init.zeros_(module.bias)

net.apply(init_normal)
print((net[0].weight.data[0], net[0].bias.data[0]))  # print added

def init_constant(module):
    if type(module) == nn.Linear:
        nn.init.constant_(module.weight, 1)
        nn.init.zeros_(module.bias)

net.apply(init_constant)
print((net[0].weight.data[0], net[0].bias.data[0]))  # print added

def init_xavier(module):
    if type(module) == nn.Linear:
        nn.init.xavier_uniform_(module.weight)

def init_42(module):
    if type(module) == nn.Linear:
        nn.init.constant_(module.weight, 42)

net[0].apply(init_xavier)
net[2].apply(init_42)
print(net[0].weight.data[0])
print(net[2].weight.data)

def my_init(module):
    if type(module) == nn.Linear:
        print("Init", *[(name, param.shape)
                        for name, param in module.named_parameters()][0])
        nn.init.uniform_(module.weight, -10, 10)
        module.weight.data *= module.weight.data.abs() >= 5

net.apply(my_init)
print(net[0].weight[:2])  # print added

net[0].weight.data[:] += 1
net[0].weight.data[0, 0] = 42
print(net[0].weight.data[0])  # print added
