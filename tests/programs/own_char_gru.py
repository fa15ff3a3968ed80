# a character-level GRU of our own: Embedding, GRU(batch_first), RMSprop, sampling with a seeded torch.Generator and multinomial (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
torch.manual_seed(1)
vocab = list("abcdefgh")
stoi = {c: i for i, c in enumerate(vocab)}
text = "abcabdabeabfagahbcbdbe" * 3
data = torch.tensor([stoi[c] for c in text])

class CharRNN(nn.Module):
    def __init__(self, n, h):
        super().__init__()
        self.emb = nn.Embedding(n, 8)
        self.rnn = nn.GRU(8, h, batch_first=True)
        self.out = nn.Linear(h, n)
    def forward(self, x, hidden=None):
        e = self.emb(x)
        o, hidden = self.rnn(e, hidden)
        return self.out(o), hidden

model = CharRNN(len(vocab), 16)
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
crit = nn.CrossEntropyLoss()
seq = 10
for step in range(40):
    i = (step * 3) % (len(data) - seq - 1)
    x = data[i:i+seq].unsqueeze(0)
    t = data[i+1:i+seq+1].unsqueeze(0)
    logits, _ = model(x)
    loss = crit(logits.view(-1, len(vocab)), t.view(-1))
    opt.zero_grad()
    loss.backward()
    opt.step()
    if step % 10 == 0:
        print(step, round(loss.item(), 6))

with torch.no_grad():
    g = torch.Generator().manual_seed(42)
    x = torch.tensor([[stoi['a']]])
    h = None
    out = []
    for _ in range(12):
        logits, h = model(x, h)
        p = torch.softmax(logits[0, -1], dim=0)
        ix = torch.multinomial(p, 1, generator=g).item()
        out.append(vocab[ix])
        x = torch.tensor([[ix]])
    print("".join(out))
print(model.rnn.weight_hh_l0.grad.norm().item())
