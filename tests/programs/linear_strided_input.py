# nn.Linear applied to inputs of every layout: contiguous and transposed 3-d batches, a permuted 4-d one, a 1-d vector, a batch of one, and a batch_first GRU's transposed output fed to a head (written for this test: the head's logits and gradients printed in full).
import torch
import torch.nn as nn
import torch.nn.functional as F

torch.set_default_dtype(torch.float64)
torch.manual_seed(0)
head = nn.Linear(48, 29)
seq_first = torch.randn(24, 16, 48)
for name, x in [
    ("contiguous", seq_first.clone()),
    ("transposed", seq_first.transpose(0, 1)),
    ("permuted", torch.randn(4, 6, 8, 48).permute(2, 0, 1, 3)),
    ("vector", torch.randn(48)),
    ("batch of one", torch.randn(1, 5, 48).transpose(0, 1)),
]:
    head.zero_grad()
    out = head(x)
    g = torch.randn(out.shape)
    out.backward(g)
    print(name, x.is_contiguous(), tuple(out.shape), out.grad_fn.name())
    print(out.sum().item(), (out * out).sum().item())
    print(head.weight.grad.sum().item(), head.bias.grad.sum().item())

torch.manual_seed(1)
emb = nn.Embedding(29, 16)
rnn = nn.GRU(16, 48, batch_first=True)
idx = torch.randint(0, 29, (16, 24))
y = torch.randint(0, 29, (16, 24))
o, h = rnn(emb(idx))
logits = head(o)
loss = F.cross_entropy(logits.reshape(-1, 29), y.reshape(-1))
loss.backward()
print(logits.sum().item(), loss.item())
for n, p in list(emb.named_parameters()) + list(rnn.named_parameters()):
    print(n, p.grad.sum().item())
o1, h1 = rnn(emb(idx[:1]))
print(o1.sum().item(), h1.sum().item())
