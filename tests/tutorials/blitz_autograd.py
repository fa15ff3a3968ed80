# Tutorial: "A Gentle Introduction to torch.autograd" (Deep Learning with PyTorch: A 60 Minute Blitz)
# Source: pytorch/tutorials beginner_source/blitz/autograd_tutorial.py
#         (the search index's file id 1108814946; it reported no commit for this version,
#         the one titled "A Gentle Introduction to ``torch.autograd``")
# The code cells as published, in order (prose left out), without the parts that need
# torchvision.
# Adaptations:
#   - torch.manual_seed(0) added at the top (the tutorial does not seed).
#   - Left out (they need torchvision's pretrained resnet18, a download): the first
#     section "Usage in PyTorch" (resnet18 forward/backward/SGD step) and the
#     finetuning example at the end of "Exclusion from the DAG" (`from torch import
#     nn, optim`, resnet18, freezing its parameters, model.fc = nn.Linear(512, 10),
#     optim.SGD(...)). The first `import torch` of the file is kept.

import torch
torch.manual_seed(0)  # added

import torch

import torch

a = torch.tensor([2., 3.], requires_grad=True)
b = torch.tensor([6., 4.], requires_grad=True)

Q = 3*a**3 - b**2

external_grad = torch.tensor([1., 1.])
Q.backward(gradient=external_grad)

# check if collected gradients are correct
print(9*a**2 == a.grad)
print(-2*b == b.grad)

x = torch.rand(5, 5)
y = torch.rand(5, 5)
z = torch.rand((5, 5), requires_grad=True)

a = x + y
print(f"Does `a` require gradients? : {a.requires_grad}")
b = x + z
print(f"Does `b` require gradients?: {b.requires_grad}")
