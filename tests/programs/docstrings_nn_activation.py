# Published code: the examples of the docstrings of torch.nn's activation modules
# (Threshold, ReLU, RReLU, Hardtanh, ReLU6, Sigmoid, Hardsigmoid, Tanh, SiLU, Mish,
# Hardswish, ELU, CELU, SELU, GLU, GELU, Hardshrink, LeakyReLU, LogSigmoid, Softplus,
# Softshrink, MultiheadAttention, PReLU, Softsign, Tanhshrink, Softmin, Softmax,
# Softmax2d, LogSoftmax), in the file's order.
# Source: pytorch/pytorch at cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0):
#         torch/nn/modules/activation.py (the `Examples::` sections of the class docstrings).
# Adaptations:
#   - the examples are interactive sessions: each `>>> ` and `... ` line is a line here.
#   - added: `import torch`, `from torch import nn` and torch.manual_seed(0) at the top
#     (the docstrings assume them and draw unseeded), and after each `output = ...` a
#     print of it (marked "# print added").
#   - MultiheadAttention's example (skipped by the doctests) names sizes and inputs it
#     does not define: they are defined before it (marked "# added").
import torch
from torch import nn

torch.manual_seed(0)  # added

# --- Threshold
m = nn.Threshold(0, 0.5)
input = torch.arange(-3, 3)
output = m(input)
print(output)  # print added

# --- ReLU
m = nn.ReLU()
input = torch.randn(2)
output = m(input)
print(output)  # print added
m = nn.ReLU()
input = torch.randn(2).unsqueeze(0)
output = torch.cat((m(input), m(-input)))
print(output)  # print added

# --- RReLU
m = nn.RReLU(0.1, 0.3)
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Hardtanh
m = nn.Hardtanh(-2, 2)
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- ReLU6
m = nn.ReLU6()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Sigmoid
m = nn.Sigmoid()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Hardsigmoid
m = nn.Hardsigmoid()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Tanh
m = nn.Tanh()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- SiLU
m = nn.SiLU()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Mish
m = nn.Mish()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Hardswish
m = nn.Hardswish()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- ELU
m = nn.ELU()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- CELU
m = nn.CELU()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- SELU
m = nn.SELU()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- GLU
m = nn.GLU()
input = torch.randn(4, 2)
output = m(input)
print(output)  # print added

# --- GELU
m = nn.GELU()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Hardshrink
m = nn.Hardshrink()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- LeakyReLU
m = nn.LeakyReLU(0.1)
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- LogSigmoid
m = nn.LogSigmoid()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Softplus
m = nn.Softplus()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Softshrink
m = nn.Softshrink()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- MultiheadAttention
embed_dim, num_heads = 8, 2  # added: the sizes and inputs the example assumes
query, key, value = torch.randn(3, 1, 8), torch.randn(4, 1, 8), torch.randn(4, 1, 8)  # added
multihead_attn = nn.MultiheadAttention(embed_dim, num_heads)
attn_output, attn_output_weights = multihead_attn(query, key, value)
print(attn_output)  # print added
print(attn_output_weights)  # print added

# --- PReLU
m = nn.PReLU()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Softsign
m = nn.Softsign()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Tanhshrink
m = nn.Tanhshrink()
input = torch.randn(2)
output = m(input)
print(output)  # print added

# --- Softmin
m = nn.Softmin(dim=1)
input = torch.randn(2, 3)
output = m(input)
print(output)  # print added

# --- Softmax
m = nn.Softmax(dim=1)
input = torch.randn(2, 3)
output = m(input)
print(output)  # print added

# --- Softmax2d
m = nn.Softmax2d()
# you softmax over the 2nd dimension
input = torch.randn(2, 3, 12, 13)
output = m(input)
print(output)  # print added

# --- LogSoftmax
m = nn.LogSoftmax(dim=1)
input = torch.randn(2, 3)
output = m(input)
print(output)  # print added
