# A character-level language model: the text's characters as indices, nn.Embedding into
# an nn.GRU, a linear head over the vocabulary, cross-entropy on the next character,
# Adam with the gradient's norm clipped; random windows of the text each step.
import time

import torch
import torch.nn as nn
import torch.nn.functional as F

text = (
    "the quick brown fox jumps over the lazy dog. "
    "a journey of a thousand miles begins with a single step. "
    "all that glitters is not gold; fortune favours the bold. "
) * 4
chars = sorted(set(text))
stoi = {c: i for i, c in enumerate(chars)}
itos = {i: c for c, i in stoi.items()}
data = torch.tensor([stoi[c] for c in text], dtype=torch.long)
vocab = len(chars)


class CharModel(nn.Module):
    def __init__(self, vocab, emb=16, hidden=48):
        super().__init__()
        self.embed = nn.Embedding(vocab, emb)
        self.rnn = nn.GRU(emb, hidden, batch_first=True)
        self.head = nn.Linear(hidden, vocab)

    def forward(self, idx, h=None):
        x = self.embed(idx)
        out, h = self.rnn(x, h)
        return self.head(out), h


torch.manual_seed(0)
model = CharModel(vocab)
opt = torch.optim.Adam(model.parameters(), lr=0.01)
seq_len, batch = 24, 16
t0 = time.process_time()
for step in range(60):
    starts = torch.randint(0, len(data) - seq_len - 1, (batch,))
    xb = torch.stack([data[s : s + seq_len] for s in starts])
    yb = torch.stack([data[s + 1 : s + seq_len + 1] for s in starts])
    logits, _ = model(xb)
    loss = F.cross_entropy(logits.reshape(-1, vocab), yb.reshape(-1))
    opt.zero_grad()
    loss.backward()
    nn.utils.clip_grad_norm_(model.parameters(), 1.0)
    opt.step()
    if step % 20 == 0:
        print(step, round(loss.item(), 6))
t1 = time.process_time()
print(loss.item())
with torch.no_grad():
    idx = torch.tensor([[stoi["t"]]])
    h = None
    out = "t"
    for _ in range(30):
        logits, h = model(idx, h)
        nxt = int(logits[0, -1].argmax())
        out += itos[nxt]
        idx = torch.tensor([[nxt]])
print(repr(out))
print("loop", t1 - t0)
