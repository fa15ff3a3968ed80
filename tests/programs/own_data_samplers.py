# torch.utils.data's samplers of our own: RandomSampler with and without replacement, num_samples and a generator, SequentialSampler, SubsetRandomSampler, BatchSampler, a Sampler of the program, DataLoader's sampler= and batch_sampler=, and its errors (written for this test: code in the shape people bring, no adaptation).
import torch
from torch.utils.data import DataLoader, Dataset, TensorDataset, RandomSampler, SequentialSampler
from torch.utils.data.sampler import BatchSampler, SubsetRandomSampler, Sampler
from torch.utils.data.dataloader import DataLoader as Loader
from torch.utils.data.dataset import Subset
torch.manual_seed(0)
print(Loader is DataLoader, type(RandomSampler(range(3))), type(BatchSampler([1], 1, False)))

class Squares(Dataset):
    def __init__(self, n):
        self.n = n
    def __len__(self):
        return self.n
    def __getitem__(self, i):
        return torch.tensor([float(i)]), i * i

ds = Squares(10)
print(vars(ds), ds.__dict__)
print(list(SequentialSampler(ds)), len(SequentialSampler(ds)))
print(list(RandomSampler(ds)), list(RandomSampler(ds)))
s = RandomSampler(ds, replacement=True, num_samples=70)
print(len(s), s.num_samples, s.replacement, list(s))
print(list(RandomSampler(ds, num_samples=23)))
g = torch.Generator().manual_seed(3)
print(list(RandomSampler(ds, generator=g)), list(RandomSampler(ds, True, 5, generator=g)))
print(list(SubsetRandomSampler([5, 7, 9, 11])), len(SubsetRandomSampler(range(4))))
print(list(BatchSampler(SequentialSampler(range(10)), batch_size=3, drop_last=False)))
print(list(BatchSampler(range(10), 3, True)), len(BatchSampler(range(10), 3, True)), len(BatchSampler(range(10), 3, False)))
print(torch.rand(2))

loader = DataLoader(ds, batch_size=4, sampler=RandomSampler(ds, replacement=True, num_samples=9))
print(len(loader))
for x, y in loader:
    print(x.flatten().tolist(), y)
it = iter(DataLoader(ds, sampler=RandomSampler(ds, replacement=True, num_samples=int(1e10)), batch_size=3, num_workers=2))
for _ in range(3):
    x, y = next(it)
    print(y.tolist())
loader = DataLoader(ds, batch_sampler=BatchSampler(SubsetRandomSampler(list(range(6))), 4, False))
print(len(loader), [y.tolist() for _, y in loader])
loader = DataLoader(ds, batch_size=None, sampler=[3, 1, 2])
print(len(loader), [(x.tolist(), y) for x, y in loader])
print(torch.rand(2))

class EvenFirst(Sampler):
    def __init__(self, data):
        self.data = data
    def __iter__(self):
        n = len(self.data)
        return iter([i for i in range(n) if i % 2 == 0] + [i for i in range(n) if i % 2])
    def __len__(self):
        return len(self.data)

print(list(EvenFirst(ds)), vars(EvenFirst(range(2))))
print([y.tolist() for _, y in DataLoader(ds, batch_size=4, sampler=EvenFirst(ds), drop_last=True)])
class Pairs(Sampler):
    def __iter__(self):
        yield [0, 1]
        yield [8, 9]
print([y.tolist() for _, y in DataLoader(ds, batch_sampler=Pairs())])
tds = TensorDataset(torch.arange(6.0), torch.arange(6))
print([b[1].tolist() for b in DataLoader(tds, batch_size=2, shuffle=True)])
print([b[1].tolist() for b in DataLoader(Subset(tds, [5, 4, 3]), batch_size=2, sampler=SequentialSampler(range(3)))])

for make in (
    lambda: DataLoader(ds, sampler=SequentialSampler(ds), shuffle=True),
    lambda: DataLoader(ds, batch_sampler=BatchSampler(range(3), 2, False), batch_size=2),
    lambda: DataLoader(ds, batch_sampler=BatchSampler(range(3), 2, False), drop_last=True),
    lambda: DataLoader(ds, batch_size=None, drop_last=True),
    lambda: DataLoader(ds, batch_size=0),
    lambda: RandomSampler(ds, replacement=1),
    lambda: RandomSampler(ds, num_samples=0),
    lambda: BatchSampler(range(3), 2, 1),
    lambda: BatchSampler(range(3), -2, False),
):
    try:
        make()
    except (ValueError, TypeError) as e:
        print(type(e).__name__, e)
