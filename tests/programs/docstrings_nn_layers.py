# Published code: the examples of the docstrings of torch.nn's containers, linear layers,
# distances, Flatten/Unflatten, PixelShuffle/PixelUnshuffle, ChannelShuffle and instance
# norms, file by file.
# Source: pytorch/pytorch at cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0):
#         torch/nn/modules/container.py, linear.py, distance.py, flatten.py,
#         pixelshuffle.py, channelshuffle.py, instancenorm.py (the examples of their class and
#         method docstrings, in each file's order).
# Adaptations:
#   - the examples are interactive sessions: each `>>> ` and `... ` line is a line here; an
#     expression whose value the session shows is wrapped in print(...).
#   - added: `import torch`, `import torch.nn.functional as F`, `from torch import nn` and
#     torch.manual_seed(0) at the top (the docstrings assume them and draw unseeded), and a
#     print of what each example computes (marked "# print added").
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)  # added

# === torch/nn/modules/container.py

# --- append
import torch.nn as nn
n = nn.Sequential(nn.Linear(1, 2), nn.Linear(2, 3))
n.append(nn.Linear(3, 4))
print(n)  # print added

# --- insert
import torch.nn as nn
n = nn.Sequential(nn.Linear(1, 2), nn.Linear(2, 3))
n.insert(0, nn.Linear(3, 4))
print(n)  # print added

# --- extend
import torch.nn as nn
n = nn.Sequential(nn.Linear(1, 2), nn.Linear(2, 3))
other = nn.Sequential(nn.Linear(3, 4), nn.Linear(4, 5))
n.extend(other) # or `n + other`
print(n)  # print added

# === torch/nn/modules/linear.py

# --- Identity
m = nn.Identity(54, unused_argument1=0.1, unused_argument2=False)
input = torch.randn(128, 20)
output = m(input)
print(output)  # print added
print(output.size())

# --- Linear
m = nn.Linear(20, 30)
input = torch.randn(128, 20)
output = m(input)
print(output)  # print added
print(output.size())

# --- Bilinear
m = nn.Bilinear(20, 30, 40)
input1 = torch.randn(128, 20)
input2 = torch.randn(128, 30)
output = m(input1, input2)
print(output)  # print added
print(output.size())

# === torch/nn/modules/distance.py

# --- PairwiseDistance
pdist = nn.PairwiseDistance(p=2)
input1 = torch.randn(100, 128)
input2 = torch.randn(100, 128)
output = pdist(input1, input2)
print(output)  # print added

# --- CosineSimilarity
input1 = torch.randn(100, 128)
input2 = torch.randn(100, 128)
cos = nn.CosineSimilarity(dim=1, eps=1e-6)
output = cos(input1, input2)
print(output)  # print added

# === torch/nn/modules/flatten.py

# --- Flatten
input = torch.randn(32, 1, 5, 5)
# With default parameters
m = nn.Flatten()
output = m(input)
print(output)  # print added
print(output.size())  # print added
# With non-default parameters
m = nn.Flatten(0, 2)
output = m(input)
print(output)  # print added
print(output.size())  # print added

# --- Unflatten
input = torch.randn(2, 50)
# With tuple of ints
m = nn.Sequential(
    nn.Linear(50, 50),
    nn.Unflatten(1, (2, 5, 5))
)
output = m(input)
print(output)  # print added
print(output.size())  # print added
# With torch.Size
m = nn.Sequential(
    nn.Linear(50, 50),
    nn.Unflatten(1, torch.Size([2, 5, 5]))
)
output = m(input)
print(output)  # print added
print(output.size())  # print added

# === torch/nn/modules/pixelshuffle.py

# --- PixelShuffle
pixel_shuffle = nn.PixelShuffle(3)
input = torch.randn(1, 9, 4, 4)
output = pixel_shuffle(input)
print(output)  # print added
print(output.size())

# --- PixelUnshuffle
pixel_unshuffle = nn.PixelUnshuffle(3)
input = torch.randn(1, 1, 12, 12)
output = pixel_unshuffle(input)
print(output)  # print added
print(output.size())

# === torch/nn/modules/channelshuffle.py

# --- ChannelShuffle
channel_shuffle = nn.ChannelShuffle(2)
input = torch.arange(1, 17, dtype=torch.float32).view(1, 4, 2, 2)
print(input)  # print added
output = channel_shuffle(input)
print(output)  # print added
print(output)  # print added

# === torch/nn/modules/instancenorm.py

# --- InstanceNorm1d
# Without Learnable Parameters
m = nn.InstanceNorm1d(100)
# With Learnable Parameters
m = nn.InstanceNorm1d(100, affine=True)
input = torch.randn(20, 100, 40)
output = m(input)
print(output)  # print added

# --- InstanceNorm2d
# Without Learnable Parameters
m = nn.InstanceNorm2d(100)
# With Learnable Parameters
m = nn.InstanceNorm2d(100, affine=True)
input = torch.randn(20, 100, 35, 45)
output = m(input)
print(output)  # print added

# --- InstanceNorm3d
# Without Learnable Parameters
m = nn.InstanceNorm3d(100)
# With Learnable Parameters
m = nn.InstanceNorm3d(100, affine=True)
input = torch.randn(20, 100, 35, 45, 10)
output = m(input)
print(output)  # print added
