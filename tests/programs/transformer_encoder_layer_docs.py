# Published code: PyTorch's documentation of torch.nn.TransformerEncoderLayer, its two
# examples (self-attention through scaled_dot_product_attention's flash kernel, the
# feed-forward block, LayerNorm after each residual sum).
# Source: pytorch/pytorch, torch/nn/modules/transformer.py, the docstring of
#         TransformerEncoderLayer ("Examples::" and "Alternatively, when batch_first is True").
# Adaptations:
#   - added: torch.manual_seed(0) first, and prints of each output's shape, first values
#     and sums (the examples print nothing), and one backward pass with parameters' gradients.
#   - added: encoder_layer.eval() before each call (the layer's dropout of 0.1 is off; the
#     layer still runs its standard path, its parameters requiring grad), and float64 as
#     the default dtype (float32's flash kernel differs from PyTorch's in the last bits of
#     a few rows at these sizes).
import torch
from torch import nn

torch.set_default_dtype(torch.float64)  # added
torch.manual_seed(0)  # added

encoder_layer = nn.TransformerEncoderLayer(d_model=512, nhead=8)
encoder_layer.eval()  # added
src = torch.rand(10, 32, 512)
out = encoder_layer(src)
print(out.shape, out[0, 0, :6], out.abs().sum().item(), out[9, 3].pow(3).sum().item())  # added

encoder_layer = nn.TransformerEncoderLayer(d_model=512, nhead=8, batch_first=True)
encoder_layer.eval()  # added
src = torch.rand(32, 10, 512)
out = encoder_layer(src)
print(out.shape, out[0, 0, :6], out.abs().sum().item(), out[9, 3].pow(3).sum().item())  # added
out.pow(3).mean().backward()  # added
print(encoder_layer.linear2.bias.grad[:6], encoder_layer.self_attn.out_proj.bias.grad[:6])  # added
print(encoder_layer.self_attn.in_proj_weight.grad[100, :6])  # added
