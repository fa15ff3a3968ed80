# Published code: PyTorch's documentation of torch.utils.data.IterableDataset (the
# docstring of class IterableDataset, "Example 1: splitting workload across all workers
# in `__iter__()`"): a dataset whose `__iter__` returns an iterator over a range, loaded
# by a DataLoader in one process.
# Source: pytorch/pytorch, torch/utils/data/dataset.py (class IterableDataset's docstring).
# Adaptations:
#   - the doctest prompts removed; its expected output printed by the program.
#   - left out: the loading with num_workers=2 and 12 (worker processes: gradcli loads
#     in one process).
#   - added (marked): the same dataset through DataLoaders of batch_size 2 and None,
#     drop_last, len() of a dataset with __len__, a generator __iter__ and a dataset of
#     (x, y) pairs, and the error of shuffle=True.
import math

import torch


class MyIterableDataset(torch.utils.data.IterableDataset):
    def __init__(self, start, end):
        super(MyIterableDataset).__init__()
        assert end > start, "this example code only works with end >= start"
        self.start = start
        self.end = end

    def __iter__(self):
        worker_info = torch.utils.data.get_worker_info()
        if worker_info is None:  # single-process data loading, return the full iterator
            iter_start = self.start
            iter_end = self.end
        else:  # in a worker process
            # split workload
            per_worker = int(math.ceil((self.end - self.start) / float(worker_info.num_workers)))
            worker_id = worker_info.id
            iter_start = self.start + worker_id * per_worker
            iter_end = min(iter_start + per_worker, self.end)
        return iter(range(iter_start, iter_end))


# should give same set of data as range(3, 7), i.e., [3, 4, 5, 6].
ds = MyIterableDataset(start=3, end=7)

# Single-process loading
print(list(torch.utils.data.DataLoader(ds, num_workers=0)))

# added: batches, no batching, the last batch dropped
print(list(torch.utils.data.DataLoader(ds, batch_size=3)))
print(list(torch.utils.data.DataLoader(ds, batch_size=None)))
print(list(torch.utils.data.DataLoader(ds, batch_size=3, drop_last=True)))
print(isinstance(ds, torch.utils.data.IterableDataset), isinstance(ds, torch.utils.data.Dataset))
print(torch.utils.data.get_worker_info())


# added: a generator `__iter__` of (x, y) pairs, with `__len__`
class Pairs(torch.utils.data.IterableDataset):
    def __init__(self, n):
        super().__init__()
        self.n = n

    def __iter__(self):
        for i in range(self.n):
            yield torch.tensor([float(i), 2.0 * i]), i % 2

    def __len__(self):
        return self.n


torch.manual_seed(0)
loader = torch.utils.data.DataLoader(Pairs(5), batch_size=2)
print(len(loader))
for x, y in loader:
    print(x, y)
try:
    torch.utils.data.DataLoader(ds, shuffle=True)
except ValueError as e:
    print("ValueError:", e)
