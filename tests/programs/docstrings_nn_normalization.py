# Published code: the examples of the docstrings of torch.nn's normalization layers
# (LocalResponseNorm, LayerNorm, GroupNorm, RMSNorm), in the file's order.
# Source: pytorch/pytorch at cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0):
#         torch/nn/modules/normalization.py (the examples of the class docstrings).
# Adaptations:
#   - the examples are interactive sessions: each `>>> ` and `... ` line is a line here; an
#     expression whose value the session shows is wrapped in print(...).
#   - added: `import torch`, `from torch import nn` and torch.manual_seed(0) at the top (the
#     docstrings assume them and draw unseeded), and a print of each output (marked
#     "# print added").
import torch
from torch import nn

torch.manual_seed(0)  # added

# --- LocalResponseNorm
lrn = nn.LocalResponseNorm(2)
signal_2d = torch.randn(32, 5, 24, 24)
signal_4d = torch.randn(16, 5, 7, 7, 7, 7)
output_2d = lrn(signal_2d)
print(output_2d)  # print added
output_4d = lrn(signal_4d)
print(output_4d)  # print added

# --- LayerNorm
# NLP Example
batch, sentence_length, embedding_dim = 20, 5, 10
embedding = torch.randn(batch, sentence_length, embedding_dim)
layer_norm = nn.LayerNorm(embedding_dim)
# Activate module
print(layer_norm(embedding))  # print added

# Image Example
N, C, H, W = 20, 5, 10, 10
input = torch.randn(N, C, H, W)
# Normalize over the last three dimensions (i.e. the channel and spatial dimensions)
# as shown in the image below
layer_norm = nn.LayerNorm([C, H, W])
output = layer_norm(input)
print(output)  # print added

# --- GroupNorm
input = torch.randn(20, 6, 10, 10)
# Separate 6 channels into 3 groups
m = nn.GroupNorm(3, 6)
# Separate 6 channels into 6 groups (equivalent with InstanceNorm)
m = nn.GroupNorm(6, 6)
# Put all 6 channels into a single group (equivalent with LayerNorm)
m = nn.GroupNorm(1, 6)
# Activating the module
output = m(input)
print(output)  # print added

# --- RMSNorm
rms_norm = nn.RMSNorm([2, 3])
input = torch.randn(2, 2, 3)
print(rms_norm(input))  # print added
