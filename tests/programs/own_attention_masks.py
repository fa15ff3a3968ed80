# attention with masks of our own: MultiheadAttention with causal and key padding masks, TransformerEncoderLayer with a square subsequent mask, a hand-written causal head (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(7)
B, T, C = 2, 5, 8
x = torch.randn(B, T, C)
mha = nn.MultiheadAttention(C, 2, batch_first=True)
mask = torch.triu(torch.ones(T, T, dtype=torch.bool), diagonal=1)
out, w = mha(x, x, x, attn_mask=mask)
print(out.sum().item(), w.shape, w[0, 0])
kpm = torch.tensor([[False, False, False, True, True], [False] * 5])
out2, w2 = mha(x, x, x, key_padding_mask=kpm)
print(out2[0, 0], w2[0, 1])
layer = nn.TransformerEncoderLayer(d_model=C, nhead=2, dim_feedforward=16, dropout=0.0, batch_first=True)
y = layer(x, src_mask=nn.Transformer.generate_square_subsequent_mask(T))
print(y[1, 2])
y.sum().backward()
print(layer.linear1.weight.grad.norm().item())
class Head(nn.Module):
    def __init__(self, hs):
        super().__init__()
        self.key = nn.Linear(C, hs, bias=False)
        self.query = nn.Linear(C, hs, bias=False)
        self.value = nn.Linear(C, hs, bias=False)
        self.register_buffer('tril', torch.tril(torch.ones(T, T)))
    def forward(self, x):
        B, T, C = x.shape
        k = self.key(x); q = self.query(x)
        wei = q @ k.transpose(-2, -1) * k.shape[-1] ** -0.5
        wei = wei.masked_fill(self.tril[:T, :T] == 0, float('-inf'))
        wei = F.softmax(wei, dim=-1)
        return wei @ self.value(x)
h = Head(4)
o = h(x)
print(o[0], F.scaled_dot_product_attention(x, x, x, is_causal=True)[1, 3])
