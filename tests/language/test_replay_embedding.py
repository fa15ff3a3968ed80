"""An embedding in a replayed loop (nn.Embedding's forward and F.embedding: the op
declares itself pure; its index tensor, the variable's or one an earlier op of the
iteration made, is taken each iteration: replay_plan._keys' Bare parameter), with an
index out of range mid-loop (the node's forward checks it: the iteration as compiled,
PyTorch's error in its place); a method given a tuple or list display of numbers
(`x.view((1, -1))`, `x.sum([0, 1])`, loop_shapes._sizes).  Each program prints the same
with and without replay (`--no-replay`), and the loops replay."""

from __future__ import annotations

import pytest

from conftest import replay_both, replayed_iterations

_MODEL = """import torch.nn as nn
import torch.nn.functional as F
torch.manual_seed(1)
class NGram(nn.Module):
    def __init__(self, vocab, dim, context):
        super().__init__()
        self.embeddings = nn.Embedding(vocab, dim)
        self.linear1 = nn.Linear(context * dim, 16)
        self.linear2 = nn.Linear(16, vocab)
    def forward(self, inputs):
        embeds = self.embeddings(inputs).view((1, -1))
        out = F.relu(self.linear1(embeds))
        return F.log_softmax(self.linear2(out), dim=1)
model = NGram(12, 5, 3)
opt = torch.optim.SGD(model.parameters(), lr=0.05)
loss_function = nn.NLLLoss()
data = [(torch.tensor([i % 12, (i * 5) % 12, (i * 7) % 12]), torch.tensor([(i * 3) % 12]))
        for i in range(10)]
"""

PROGRAMS = {
    # the word-embeddings tutorial's n-gram model over (context, target) pairs
    "ngram": _MODEL
    + """for epoch in range(4):
    total = 0.0
    for context, target in data:
        model.zero_grad()
        loss = loss_function(model(context), target)
        loss.backward()
        opt.step()
        total += loss.item()
    print(epoch, total)
print(model.embeddings.weight[3], model.embeddings.weight.grad[3])
""",
    # an index out of range in the 6th pair: PyTorch's IndexError in its place
    "out_of_range": _MODEL.replace("(i * 7) % 12]", "(i * 7) % 12 if i != 5 else 12]")
    + """for epoch in range(2):
    for context, target in data:
        model.zero_grad()
        loss = loss_function(model(context), target)
        loss.backward()
        opt.step()
    print(epoch, loss.item())
""",
    # F.embedding of a minibatch drawn each step from a table of contexts (makemore's
    # C[Xtr[ix]] spelled with the op), a padding index, and sum over a list of dims
    "functional": """import torch.nn.functional as F
g = torch.Generator().manual_seed(7)
X = torch.randint(0, 9, (40, 3), generator=g)
C = torch.randn(9, 4, generator=g, requires_grad=True)
W = torch.randn(12, 1, generator=g, requires_grad=True)
for i in range(25):
    ix = torch.randint(0, 40, (8,), generator=g)
    emb = F.embedding(X[ix], C, padding_idx=0)
    out = emb.view(8, 12) @ W
    loss = out.pow(2).sum([0, 1])
    loss.backward()
    with torch.no_grad():
        C -= 0.01 * C.grad
        W -= 0.01 * W.grad
        C.grad = None
        W.grad = None
print(loss, C[:2], W[:2])
""",
}

#: iterations replayed, at least
REPLAYED = {"ngram": 30, "out_of_range": 3, "functional": 20}


@pytest.mark.parametrize("dtype", ["float64", "float32"])
@pytest.mark.parametrize("name", list(PROGRAMS))
def test_the_same_with_and_without_replay(name, dtype):
    on, off = replay_both(PROGRAMS[name], "--dtype", dtype)
    assert (on.stdout, on.stderr, on.returncode) == (off.stdout, off.stderr, off.returncode)
    if name == "out_of_range":
        assert "IndexError: index out of range in self" in off.stderr
    else:
        assert off.returncode == 0, off.stderr


@pytest.mark.parametrize("name,least", list(REPLAYED.items()))
def test_the_loops_are_replayed(name, least, monkeypatch):
    assert replayed_iterations(monkeypatch, PROGRAMS[name]) >= least
