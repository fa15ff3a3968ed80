# Batches of samples that are not tensors: a Dataset of dicts (numbers, strings, tuples in them) and of typing.NamedTuple samples through DataLoader's default collate, collections.namedtuple, bools and strings collated, random_split by fractions with a generator, a shuffled loader with drop_last (written for this test: code in the shape people bring, no adaptation).
import torch
from typing import NamedTuple
from collections import namedtuple
from torch.utils.data import Dataset, DataLoader, default_collate, random_split

class Sample(NamedTuple):
    x: torch.Tensor
    y: int

class DictDS(Dataset):
    def __init__(self, n):
        g = torch.Generator().manual_seed(1)
        self.x = torch.randn(n, 2, generator=g)
    def __len__(self):
        return len(self.x)
    def __getitem__(self, i):
        return {"x": self.x[i], "y": i % 2, "name": f"s{i}", "pair": (i, float(i))}

class TupDS(DictDS):
    def __getitem__(self, i):
        return Sample(self.x[i], i % 3)

for batch in DataLoader(DictDS(5), batch_size=2):
    print(batch["x"].shape, batch["y"], batch["name"], batch["pair"])
for b in DataLoader(TupDS(4), batch_size=3):
    print(type(b).__name__, b.x.shape, b.y)
train, val = random_split(DictDS(10), [0.7, 0.3], generator=torch.Generator().manual_seed(0))
print(len(train), len(val), train.indices, val[0]["name"])
dl = DataLoader(TupDS(6), batch_size=4, shuffle=True, generator=torch.Generator().manual_seed(3), drop_last=True)
print([b.y.tolist() for b in dl], len(dl))
P = namedtuple('P', 'a b')
print(default_collate([True, False]), default_collate([(1, 'a'), (2, 'b')]), default_collate([[1.5, 2], [3.5, 4]]))
print(default_collate([P(1, 2.0), P(3, 4.0)]))
print(default_collate([{"a": (1, "x")}, {"a": (2, "y")}]), default_collate(["p", "q"]))
for b in DataLoader([("u", 1), ("v", 2), ("w", 3)], batch_size=2):
    print(b)
