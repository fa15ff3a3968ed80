"""torch.utils.data's TensorDataset, IterableDataset and DataLoader (single process):
batches made by
default_collate (tensors stacked, numbers made tensors, a tuple sample gives a list),
shuffling as RandomSampler does it -- each pass over the loader draws a base seed
from the default generator, then a seed for a fresh generator whose randperm orders
the samples -- so a shuffled epoch after `manual_seed` visits what torch's visits."""

from __future__ import annotations

import bisect
import math

import numpy as np

from ..numerics.random import sampling
from ..runtime import context
from ..runtime.errors import GradError, GradRuntimeError, GradTypeError, GradValueError
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..ops.creation import draws_from
from ..ops.registry import FUNCTIONS
from ..core.printing import show
from . import samplers
from .stdlib import LazyIterator


class Dataset:
    """torch.utils.data.Dataset: a base for user datasets (__len__, __getitem__)."""

    language_subclassable = True
    language_methods = {}
    language_vars = True  # (its objects hold only the program's variables: obj.__dict__)

    def __getitem__(self, index):
        raise GradRuntimeError(
            "Subclasses of Dataset should implement __getitem__.", type_name="NotImplementedError"
        )

    def __add__(self, other):  # (dataset + dataset: the samples of both, as PyTorch's)
        return ConcatDataset([self, other])


class IterableDataset(Dataset):
    """torch.utils.data.IterableDataset: a base for datasets that are iterables (their
    `__iter__`), which a DataLoader goes through in their order (one process: no
    workers, so get_worker_info() is None)."""

    def __repr__(self):
        return "<torch.utils.data.dataset.IterableDataset object>"


def get_worker_info():
    """torch.utils.data.get_worker_info(): None in the main process (no workers here)."""
    return None


class TensorDataset(Dataset):
    """Samples are tuples of the tensors' rows (all the same length)."""

    def __init__(self, *tensors):
        for t in tensors:
            if type(t) is not Tensor:
                raise GradTypeError(f"TensorDataset(): expected tensors, got {type_name(t)}")
            if t.data.ndim == 0:
                raise GradRuntimeError("TensorDataset(): a 0-d tensor has no rows")
        if tensors and any(t.data.shape[0] != tensors[0].data.shape[0] for t in tensors):
            raise GradRuntimeError("Size mismatch between tensors", type_name="AssertionError")
        self.tensors = tuple(tensors)

    def __getitem__(self, index):
        return tuple(FUNCTIONS["index"](t, index) for t in self.tensors)

    def __len__(self):
        return self.tensors[0].data.shape[0] if self.tensors else 0

    def __iter__(self):  # (Python's sequence protocol: items until an IndexError)
        return (self[i] for i in range(len(self)))

    language_getitem = __getitem__
    language_len = __len__
    language_iter = __iter__
    language_attrs = {"tensors": lambda d: d.tensors}

    def __repr__(self):
        return "<torch.utils.data.dataset.TensorDataset object>"


class Subset(Dataset):
    """The samples of `dataset` at `indices`, in that order."""

    def __init__(self, dataset, indices):
        self.dataset, self.indices = dataset, indices

    def __getitem__(self, idx):
        if isinstance(idx, list):
            return [self.dataset[self.indices[i]] for i in idx]
        return self.dataset[self.indices[idx]]

    def __len__(self):
        return len(self.indices)

    def __iter__(self):  # (Python's sequence protocol: items until an IndexError)
        return (self[i] for i in range(len(self.indices)))

    language_getitem = __getitem__
    language_len = __len__
    language_iter = __iter__
    language_attrs = {"dataset": lambda d: d.dataset, "indices": lambda d: d.indices}

    def __repr__(self):
        return "<torch.utils.data.dataset.Subset object>"


class ConcatDataset(Dataset):
    """The samples of each dataset in turn: an index is found in the running totals of
    their lengths (`cumulative_sizes`)."""

    def __init__(self, datasets):
        self.datasets = list(datasets)
        if not self.datasets:
            raise GradRuntimeError(
                "datasets should not be an empty iterable", type_name="AssertionError"
            )
        total, self.cumulative_sizes = 0, []
        for d in self.datasets:
            if isinstance(d, IterableDataset):
                raise GradRuntimeError(
                    "ConcatDataset does not support IterableDataset", type_name="AssertionError"
                )
            total += _length(d)
            self.cumulative_sizes.append(total)

    def __getitem__(self, idx):
        if idx < 0:
            if -idx > len(self):
                raise GradValueError("absolute value of index should not exceed dataset length")
            idx = len(self) + idx
        which = bisect.bisect_right(self.cumulative_sizes, idx)
        if which == len(self.datasets):  # (PyTorch's: its list of datasets indexed past its end)
            raise GradError("list index out of range", type_name="IndexError")
        start = self.cumulative_sizes[which - 1] if which else 0
        return self.datasets[which][idx - start]

    def __len__(self):
        return self.cumulative_sizes[-1]

    def __iter__(self):  # (Python's sequence protocol: items until an IndexError)
        return (self[i] for i in range(len(self)))

    language_getitem = __getitem__
    language_len = __len__
    language_iter = __iter__
    language_attrs = {
        "datasets": lambda d: d.datasets,
        "cumulative_sizes": lambda d: d.cumulative_sizes,
    }

    def __repr__(self):
        return "<torch.utils.data.dataset.ConcatDataset object>"


def random_split(dataset, lengths, generator=None):
    """Subsets of the given lengths (or fractions of the length, the remainder given one
    at a time to the first splits) of one random permutation, as torch's random_split."""
    lengths = list(lengths)
    n = _length(dataset)
    total = sum(lengths)
    if math.isclose(total, 1) and total <= 1:
        split = []
        for i, frac in enumerate(lengths):
            if frac < 0 or frac > 1:
                raise GradValueError(f"Fraction at index {i} is not between 0 and 1")
            split.append(math.floor(n * frac))
        for i in range(n - sum(split)):
            split[i % len(split)] += 1
        lengths = split
        for i, length in enumerate(lengths):
            if length == 0:
                context.warn(
                    f"Length of split at index {i} is 0. This might result in an empty dataset."
                )
    if sum(lengths) != n:
        raise GradValueError("Sum of input lengths does not equal the length of the input dataset!")
    indices = sampling.randperm(draws_from(generator, "random_split"), sum(lengths)).tolist()
    out, end = [], 0
    for length in lengths:
        end += length
        out.append(Subset(dataset, indices[end - length : end]))
    return out


def default_collate(batch):
    elem = batch[0]
    if type(elem) is Tensor:
        return FUNCTIONS["stack"](list(batch), 0)
    if isinstance(elem, dict):  # a dict per sample: a dict of batches
        return {k: default_collate([d[k] for d in batch]) for k in elem}
    if not isinstance(elem, (int, float, tuple, list, str)):
        raise GradTypeError(
            "default_collate: batch must contain tensors, numbers, dicts or "
            f"lists; found {type_name(elem)}"
        )
    if isinstance(elem, bool):
        return Tensor(np.array(batch, dtype=np.bool_))
    if isinstance(elem, float):
        return Tensor(np.array(batch, dtype=np.float64))
    if isinstance(elem, int):
        return Tensor(np.array(batch, dtype=np.int64))
    if isinstance(elem, str):
        return batch  # (as it comes: a list of samples' strings, a tuple of a sample's field)
    if any(len(b) != len(elem) for b in batch):
        raise GradRuntimeError("each element in list of batch should be of equal size")
    fields = [default_collate(samples) for samples in zip(*batch)]  # (each field a tuple)
    if isinstance(elem, tuple) and "_fields" in getattr(type(elem), "language_class_attrs", ()):
        return type(elem)(*fields)  # a namedtuple's batch is one of its kind, as PyTorch's
    return fields


def _length(dataset):
    try:
        n = len(dataset)
    except TypeError:
        raise GradTypeError(f"object of type '{type_name(dataset)}' has no len()") from None
    return n


def _random_order(gen, n, fresh):
    """The indices RandomSampler yields, drawn when torch's are: a new torch.Generator
    seeded by a draw of `gen` when the loader was given none, one permutation, and then
    the permutation torch draws for the remainder (none of it kept) once the first runs out."""
    if fresh:
        gen = gen.clone().manual_seed(sampling.random64_int(gen))
    yield from sampling.randperm(gen, n).tolist()
    sampling.randperm(gen, n)


def _plain_dataset(d):
    """Whether taking a dataset's items runs none of the program's code."""
    while type(d) is Subset:
        d = d.dataset
    return type(d) is TensorDataset


class DataLoader:
    """DataLoader(dataset, batch_size=1, shuffle=False, drop_last=False)."""

    language_methods = {}
    language_callable = True

    def __init__(
        self,
        dataset,
        batch_size=1,
        shuffle=None,
        sampler=None,
        batch_sampler=None,
        num_workers=0,
        collate_fn=None,
        pin_memory=False,
        drop_last=False,
        timeout=0,
        worker_init_fn=None,
        multiprocessing_context=None,
        generator=None,
        *,
        prefetch_factor=None,
        persistent_workers=False,
        pin_memory_device="",
        in_order=True,
    ):
        if batch_size is not None and batch_sampler is None:
            samplers.BatchSampler(range(0), batch_size, drop_last)  # (its checks)
        iterable = isinstance(dataset, IterableDataset)
        if iterable and shuffle not in (None, False):
            raise GradValueError(
                "DataLoader with IterableDataset: expected unspecified shuffle option, "
                f"but got shuffle={shuffle}"
            )
        for name, v in (("sampler", sampler), ("batch_sampler", batch_sampler)):
            if iterable and v is not None:
                raise GradValueError(
                    f"DataLoader with IterableDataset: expected unspecified {name} option, "
                    f"but got {name}={show(v)}"
                )
        if sampler is not None and shuffle:
            raise GradValueError("sampler option is mutually exclusive with shuffle")
        if batch_sampler is not None:
            if batch_size != 1 or shuffle or sampler is not None or drop_last:
                raise GradValueError(
                    "batch_sampler option is mutually exclusive with batch_size, shuffle, "
                    "sampler, and drop_last"
                )
            batch_size, drop_last = None, False
        elif batch_size is None and drop_last:
            raise GradValueError(
                "batch_size=None option disables auto-batching and is mutually exclusive "
                "with drop_last"
            )
        self.dataset, self.batch_size, self.shuffle = dataset, batch_size, bool(shuffle)
        self.drop_last, self.collate_fn = drop_last, collate_fn
        self.num_workers, self.generator = num_workers, generator
        self.sampler, self.batch_sampler = sampler, batch_sampler

    def __len__(self):
        if self.batch_sampler is not None:
            return len(self.batch_sampler)
        n = len(self.sampler) if self.sampler is not None else _length(self.dataset)
        if self.batch_size is None:
            return n
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    def __iter__(self):
        # PyTorch's iterator starts the (batch) sampler's iteration, then draws its base seed
        batches = iter(self.batch_sampler) if self.batch_sampler is not None else None
        indices = iter(self.sampler) if batches is None and self.sampler is not None else None
        gen = draws_from(self.generator, "DataLoader")
        sampling.random64_int(gen)  # _BaseDataLoaderIter's base seed
        return self._batches(gen, batches, indices)

    def _batches(self, gen, batches, indices):
        if batches is not None:  # each a list of indices
            collate = self.collate_fn or default_collate
            for index in batches:
                yield collate([self.dataset[i] for i in index])
            return
        if isinstance(self.dataset, IterableDataset):  # its items in its own order
            yield from self._batched(iter(self.dataset))
            return
        if indices is not None:
            order = indices
        elif self.shuffle:
            # RandomSampler draws from the loader's generator itself when it was given one,
            # else from a new torch.Generator seeded by a draw of the default one
            order = _random_order(gen, _length(self.dataset), self.generator is None)
        else:
            order = range(_length(self.dataset))
        yield from self._batched(self.dataset[i] for i in order)

    def _batched(self, samples):
        collate = self.collate_fn or default_collate
        if self.batch_size is None:
            yield from samples
            return
        batch = []
        for sample in samples:
            batch.append(sample)
            if len(batch) == self.batch_size:
                yield collate(batch)
                batch = []
        if batch and not self.drop_last:
            yield collate(batch)

    def language_plain(self):
        """Whether gradcli's own code makes every batch (stdlib.plain_items: a loop over
        the loader may be replayed): a TensorDataset (or a Subset of one), no sampler,
        batch sampler or collate_fn of the program's."""
        return (
            self.collate_fn is None
            and self.sampler is None
            and self.batch_sampler is None
            and _plain_dataset(self.dataset)
        )

    def language_iter(self):
        return LazyIterator(self.__iter__(), "generator object", self.language_plain())

    language_len = __len__
    language_attrs = {
        "dataset": lambda d: d.dataset,
        "batch_size": lambda d: d.batch_size,
        "drop_last": lambda d: d.drop_last,
        "num_workers": lambda d: d.num_workers,
        "generator": lambda d: d.generator,
    }

    def __repr__(self):
        return "<torch.utils.data.dataloader.DataLoader object>"


def members():
    return {
        "Dataset": Dataset,
        "IterableDataset": IterableDataset,
        "get_worker_info": get_worker_info,
        "TensorDataset": TensorDataset,
        "Subset": Subset,
        "ConcatDataset": ConcatDataset,
        "random_split": random_split,
        "DataLoader": DataLoader,
        "default_collate": default_collate,
        **samplers.members(),
    }
