# A map-style Dataset of variable-length sequences (__getitem__, __len__, __repr__), a DataLoader with a custom collate_fn that sorts by length, unzips with zip(*batch) and pads with pad_sequence, a shuffled loader seeded by a torch.Generator, Subset and ConcatDataset, a WeightedRandomSampler balancing the classes, pack_padded_sequence into a GRU and pad_packed_sequence back, a masked mean-pooled classifier trained a few epochs with a metrics dict (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
from torch.utils.data import Dataset, DataLoader, Subset, ConcatDataset, WeightedRandomSampler
from torch.nn.utils.rnn import pad_sequence, pack_padded_sequence, pad_packed_sequence

torch.manual_seed(0)


class ToySequences(Dataset):
    """Label = whether the sequence's sum is positive."""

    def __init__(self, n, max_len=7, dim=3, offset=0.0):
        lengths = torch.randint(2, max_len + 1, (n,))
        self.items = [torch.randn(int(L), dim) + offset for L in lengths]
        self.labels = [int(x.sum() > 0) for x in self.items]

    def __len__(self):
        return len(self.items)

    def __getitem__(self, idx):
        return self.items[idx], self.labels[idx]

    def __repr__(self):
        return f"{type(self).__name__}(n={len(self)}, positive={sum(self.labels)})"


def collate(batch):
    batch = sorted(batch, key=lambda pair: pair[0].shape[0], reverse=True)
    seqs, labels = zip(*batch)
    lengths = torch.tensor([s.shape[0] for s in seqs])
    padded = pad_sequence(seqs, batch_first=True, padding_value=0.0)
    return padded, lengths, torch.tensor(labels)


train = ToySequences(24)
extra = ToySequences(8, offset=0.5)
full = ConcatDataset([train, extra])
val = Subset(train, range(0, 24, 3))
print(train, extra, len(full), len(val), full[25][1], val[2][0].shape)

g = torch.Generator().manual_seed(1)
loader = DataLoader(full, batch_size=6, shuffle=True, collate_fn=collate, generator=g, drop_last=False)
padded, lengths, labels = next(iter(loader))
print(padded.shape, lengths.tolist(), labels.tolist(), len(loader))
print(padded[-1, :, 0])


class GRUClassifier(nn.Module):
    def __init__(self, dim=3, hidden=5):
        super().__init__()
        self.gru = nn.GRU(dim, hidden, batch_first=True)
        self.out = nn.Linear(hidden, 2)

    def forward(self, padded, lengths):
        packed = pack_padded_sequence(padded, lengths, batch_first=True, enforce_sorted=True)
        out, h = self.gru(packed)
        unpacked, out_lengths = pad_packed_sequence(out, batch_first=True)
        mask = torch.arange(unpacked.shape[1])[None, :] < out_lengths[:, None]
        pooled = (unpacked * mask.unsqueeze(-1)).sum(1) / out_lengths.unsqueeze(1)
        return self.out(pooled + h[-1])


model = GRUClassifier()
packed = pack_padded_sequence(padded, lengths, batch_first=True)
print(packed.batch_sizes, type(packed).__name__)
opt = torch.optim.RMSprop(model.parameters(), lr=0.01)
loss_fn = nn.CrossEntropyLoss()
history = []
for epoch in range(3):
    model.train()
    seen, total = 0, 0.0
    for padded, lengths, labels in loader:
        logits = model(padded, lengths)
        loss = loss_fn(logits, labels)
        opt.zero_grad()
        loss.backward()
        opt.step()
        total += loss.item() * len(labels)
        seen += len(labels)
    model.eval()
    with torch.no_grad():
        vp, vl, vy = collate([val[i] for i in range(len(val))])
        acc = (model(vp, vl).argmax(-1) == vy).float().mean().item()
    history.append({"epoch": epoch, "loss": total / seen, "val_acc": acc})
    print(" ".join(f"{k}={v:.4f}" if isinstance(v, float) else f"{k}={v}" for k, v in history[-1].items()))

# a class-balanced loader: each sample weighted by the inverse frequency of its label
labels = torch.tensor([full[i][1] for i in range(len(full))])
weights = (1.0 / torch.bincount(labels).float())[labels]
balanced = DataLoader(full, batch_size=8, sampler=WeightedRandomSampler(weights, 16), collate_fn=collate)
print([y.tolist() for _, _, y in balanced], torch.bincount(labels).tolist())

best = max(history, key=lambda h: (h["val_acc"], -h["loss"]))
print("best epoch", best["epoch"], model.out.weight.grad.abs().sum() > 0)
print(model.gru.weight_hh_l0.grad[:2])
