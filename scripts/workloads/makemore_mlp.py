# A makemore-style character MLP (Karpathy's "Building makemore" part 2, after Bengio et
# al.): contexts of 3 characters, an embedding table indexed by the minibatch drawn each
# step (`C[Xtr[ix]]`), a tanh layer, cross-entropy, `p.data += -lr * p.grad`, the losses
# kept as their log10.
import time

import torch
import torch.nn.functional as F

words = [
    "emma",
    "olivia",
    "ava",
    "isabella",
    "sophia",
    "charlotte",
    "mia",
    "amelia",
    "harper",
    "evelyn",
    "abigail",
    "emily",
    "elizabeth",
    "mila",
    "ella",
    "avery",
] * 8
chars = sorted(set("".join(words)))
stoi = {s: i + 1 for i, s in enumerate(chars)}
stoi["."] = 0
block_size = 3
X, Y = [], []
for w in words:
    context = [0] * block_size
    for ch in w + ".":
        ix = stoi[ch]
        X.append(context)
        Y.append(ix)
        context = context[1:] + [ix]
Xtr = torch.tensor(X)
Ytr = torch.tensor(Y)
g = torch.Generator().manual_seed(2147483647)
C = torch.randn((27, 10), generator=g)
W1 = torch.randn((30, 64), generator=g) * 0.2
b1 = torch.randn(64, generator=g) * 0.01
W2 = torch.randn((64, 27), generator=g) * 0.01
b2 = torch.randn(27, generator=g) * 0
parameters = [C, W1, b1, W2, b2]
for p in parameters:
    p.requires_grad = True
lossi, stepi = [], []
t0 = time.process_time()
for i in range(300):
    # minibatch construct
    ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
    # forward pass
    emb = C[Xtr[ix]]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ytr[ix])
    # backward pass
    for p in parameters:
        p.grad = None
    loss.backward()
    # update
    lr = 0.1 if i < 200 else 0.01
    for p in parameters:
        p.data += -lr * p.grad
    stepi.append(i)
    lossi.append(loss.log10().item())
t1 = time.process_time()
print(loss.item(), len(stepi), sum(lossi[-50:]) / 50)
print(C[:2])
print("loop", t1 - t0)
