# A tiny text classifier (a masked mean of embeddings) with plain-Python plumbing: a vocabulary from collections.Counter.most_common, str methods and a dict comprehension, padding by hand with zip_longest, a Dataset with __len__/__getitem__ sliced by itertools.batched-style islice, enumerate(start=1), max/min with a key over a dict of scores, an Enum of phases, a generator of batches and a context manager of our own counting the steps (written for this test: code in the shape people bring, no adaptation).
import enum
import itertools
from collections import Counter

import torch
import torch.nn as nn

texts = ["good movie", "bad plot and bad acting", "good good fun", "boring and bad", "fun acting", "great fun movie"]
labels = [1, 0, 1, 0, 1, 1]
counts = Counter(w for t in texts for w in t.lower().split())
vocab = {w: i + 1 for i, (w, _) in enumerate(counts.most_common())}
print(counts.most_common(3), len(vocab), sorted(vocab, key=vocab.get)[:4])


class Phase(enum.Enum):
    TRAIN = "train"
    EVAL = "eval"


class Texts:
    def __init__(self, texts, labels):
        self.rows = [[vocab[w] for w in t.split()] for t in texts]
        self.labels = labels

    def __len__(self):
        return len(self.rows)

    def __getitem__(self, i):
        return self.rows[i], self.labels[i]


def batches(ds, size):
    it = iter(range(len(ds)))
    while chunk := list(itertools.islice(it, size)):
        rows, ys = zip(*(ds[i] for i in chunk))
        padded = list(zip(*itertools.zip_longest(*rows, fillvalue=0)))
        yield torch.tensor(padded), torch.tensor(ys, dtype=torch.float32)


class Steps:
    def __enter__(self):
        self.n = 0
        return self

    def __exit__(self, *exc):
        print(f"{self.n} steps done")
        return False


torch.manual_seed(0)
emb = nn.Embedding(len(vocab) + 1, 4, padding_idx=0)


def encode(x):
    mask = (x != 0).unsqueeze(-1).float()
    return (emb(x) * mask).sum(1) / mask.sum(1)


head = nn.Linear(4, 1)
opt = torch.optim.Adam([*emb.parameters(), *head.parameters()], lr=0.05)
ds = Texts(texts, labels)
with Steps() as steps:
    for epoch, phase in itertools.product(range(1, 3), Phase):
        for i, (x, y) in enumerate(batches(ds, 4), start=1):
            logits = head(encode(x)).squeeze(1)
            loss = nn.functional.binary_cross_entropy_with_logits(logits, y)
            if phase is Phase.TRAIN:
                opt.zero_grad()
                loss.backward()
                opt.step()
                steps.n += 1
            print(epoch, phase.name, phase.value, i, tuple(x.shape), f"{loss.item():.4f}")
scores = {t: torch.sigmoid(head(encode(torch.tensor([[vocab[w] for w in t.split()]])))).item() for t in texts}
print(max(scores, key=scores.get), min(scores.items(), key=lambda kv: kv[1])[0])
print({k: round(v, 3) for k, v in sorted(scores.items(), key=lambda kv: -kv[1])})
print(Phase("eval"), Phase.TRAIN in Phase, [p.value for p in Phase], repr(Phase.EVAL))
