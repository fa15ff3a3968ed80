# Published code: Dive into Deep Learning, section "File I/O" (pytorch tab): a tensor, a
# list and a dict of tensors saved and loaded, an MLP of LazyLinear layers whose
# state_dict is saved and loaded into a clone before the clone's first call.
# Source: d2l-ai/d2l-en at 23d7a5aecceee57d1292c56e90cce307f183bb0a:
#         chapter_builders-guide/read-write.md (the `%%tab pytorch` and `%%tab all` code
#         cells, in order; prose and the other frameworks' tabs left out)
# Adaptations:
#   - the file names get a `.pt` suffix ('x-file.pt' for 'x-file', 'mlp.params.pt' for
#     'mlp.params' ...): gradcli writes only files whose suffix names a data format
#     (docs/limits.md), PyTorch's format for .pt.
#   - The section is a notebook: the last line of a cell, when it is a bare expression,
#     is shown by Jupyter; run as a script it would print nothing, so each such line is
#     wrapped in print(...) (marked "# print added").
#   - added: torch.manual_seed(0) first, and at the end the MLP's output with every digit
#     and the saved keys.
# The files are written in the directory the program runs in (the test's is a fresh one).
import torch
torch.manual_seed(0)  # added

import torch
from torch import nn
from torch.nn import functional as F

x = torch.arange(4)
torch.save(x, 'x-file.pt')  # changed: the names end in .pt

x2 = torch.load('x-file.pt')
print(x2)  # print added

y = torch.zeros(4)
torch.save([x, y],'x-files.pt')
x2, y2 = torch.load('x-files.pt')
print((x2, y2))  # print added

mydict = {'x': x, 'y': y}
torch.save(mydict, 'mydict.pt')
mydict2 = torch.load('mydict.pt')
print(mydict2)  # print added

class MLP(nn.Module):
    def __init__(self):
        super().__init__()
        self.hidden = nn.LazyLinear(256)
        self.output = nn.LazyLinear(10)

    def forward(self, x):
        return self.output(F.relu(self.hidden(x)))

net = MLP()
X = torch.randn(size=(2, 20))
Y = net(X)

torch.save(net.state_dict(), 'mlp.params.pt')

clone = MLP()
clone.load_state_dict(torch.load('mlp.params.pt'))
print(clone.eval())  # print added

Y_clone = clone(X)
print(Y_clone == Y)  # print added

# added: what was computed and loaded
print(Y.tolist())
print(list(torch.load('mlp.params.pt')), clone.hidden.weight.shape)
