"""torch.utils.data's samplers: Sampler (a base for the program's own),
SequentialSampler, RandomSampler (with or without replacement, num_samples),
SubsetRandomSampler, WeightedRandomSampler (torch.multinomial of its weights, from the
default generator itself when given none) and BatchSampler, drawing what PyTorch's draw: a sampler given no
generator seeds a fresh one from a draw of the default generator when its iteration
starts, and with replacement draws its indices 32 at a time (torch.randint)."""

from __future__ import annotations

import numpy as np

from ..numerics.random import sampling
from ..runtime.errors import GradTypeError, GradValueError
from ..core.tensor import Tensor
from ..ops.creation import draws_from
from .random_api import multinomial


class Sampler:
    """torch.utils.data.Sampler: a base for the program's samplers (their __iter__
    gives indices, their __len__ how many)."""

    language_subclassable = True
    language_methods = {}
    language_vars = True  # (its objects hold only the program's variables)

    def __init__(self, data_source=None):
        pass


def _fresh_or(generator, name):
    """The generator a sampler's iteration draws from: its own, or (given none) a new
    one seeded by a draw of the default generator, as PyTorch's samplers make it."""
    if generator is None:
        gen = draws_from(None, name)
        return gen.clone().manual_seed(sampling.random64_int(gen))
    return draws_from(generator, name)


def _positive_int(name, v):
    if isinstance(v, bool) or not isinstance(v, int) or v <= 0:
        raise GradValueError(f"{name} should be a positive integer value, but got {name}={v}")
    return v


class SequentialSampler(Sampler):
    """Indices 0, 1, ... len(data_source) - 1."""

    def __init__(self, data_source):
        self.data_source = data_source

    def __iter__(self):
        return iter(range(len(self.data_source)))

    def __len__(self):
        return len(self.data_source)

    language_iter = __iter__
    language_len = __len__
    language_attrs = {"data_source": lambda s: s.data_source}

    def __repr__(self):
        return "<torch.utils.data.sampler.SequentialSampler object>"


class RandomSampler(Sampler):
    """A random permutation of the indices (each pass a new one), or with replacement
    `num_samples` indices drawn independently."""

    def __init__(self, data_source, replacement=False, num_samples=None, generator=None):
        self.data_source, self.replacement = data_source, replacement
        self._num_samples, self.generator = num_samples, generator
        if not isinstance(replacement, bool):
            raise GradTypeError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        _positive_int("num_samples", self.num_samples)

    @property
    def num_samples(self):
        return len(self.data_source) if self._num_samples is None else self._num_samples

    def __iter__(self):
        n = len(self.data_source)
        gen = _fresh_or(self.generator, "RandomSampler")
        count = self.num_samples
        if self.replacement:
            for _ in range(count // 32):
                yield from gen.randint(0, n, (32,), np.int64).tolist()
            yield from gen.randint(0, n, (count % 32,), np.int64).tolist()
        else:
            for _ in range(count // n):
                yield from sampling.randperm(gen, n).tolist()
            yield from sampling.randperm(gen, n).tolist()[: count % n]

    def __len__(self):
        return self.num_samples

    language_iter = __iter__
    language_len = __len__
    language_attrs = {
        "data_source": lambda s: s.data_source,
        "replacement": lambda s: s.replacement,
        "num_samples": lambda s: s.num_samples,
        "generator": lambda s: s.generator,
    }

    def __repr__(self):
        return "<torch.utils.data.sampler.RandomSampler object>"


class SubsetRandomSampler(Sampler):
    """The given indices in a random order (each pass a new one)."""

    def __init__(self, indices, generator=None):
        self.indices, self.generator = indices, generator

    def __iter__(self):
        gen = draws_from(self.generator, "SubsetRandomSampler")
        for i in sampling.randperm(gen, len(self.indices)).tolist():
            yield self.indices[i]

    def __len__(self):
        return len(self.indices)

    language_iter = __iter__
    language_len = __len__
    language_attrs = {"indices": lambda s: s.indices, "generator": lambda s: s.generator}

    def __repr__(self):
        return "<torch.utils.data.sampler.SubsetRandomSampler object>"


class WeightedRandomSampler(Sampler):
    """`num_samples` indices drawn with the given weights (torch.multinomial: with
    replacement unless told otherwise), a new draw each pass."""

    def __init__(self, weights, num_samples, replacement=True, generator=None):
        _positive_int("num_samples", num_samples)
        if not isinstance(replacement, bool):
            raise GradValueError(
                f"replacement should be a boolean value, but got replacement={replacement}"
            )
        if type(weights) is Tensor:
            w = Tensor(weights.data.astype(np.float64))
        else:
            values = [v.item() if type(v) is Tensor else v for v in weights]
            w = Tensor(np.asarray(values, dtype=np.float64))
        if w.data.ndim != 1:
            raise GradValueError(
                "weights should be a 1d sequence but given weights have shape "
                f"{tuple(w.data.shape)}"
            )
        self.weights, self.num_samples = w, num_samples
        self.replacement, self.generator = replacement, generator

    def __iter__(self):
        drawn = multinomial(
            self.weights, self.num_samples, self.replacement, generator=self.generator
        )
        yield from drawn.data.tolist()

    def __len__(self):
        return self.num_samples

    language_iter = __iter__
    language_len = __len__
    language_attrs = {
        "weights": lambda s: s.weights,
        "num_samples": lambda s: s.num_samples,
        "replacement": lambda s: s.replacement,
        "generator": lambda s: s.generator,
    }

    def __repr__(self):
        return "<torch.utils.data.sampler.WeightedRandomSampler object>"


class BatchSampler(Sampler):
    """Lists of `batch_size` indices of another sampler (the last one shorter unless
    drop_last)."""

    def __init__(self, sampler, batch_size, drop_last):
        _positive_int("batch_size", batch_size)
        if not isinstance(drop_last, bool):
            raise GradValueError(
                f"drop_last should be a boolean value, but got drop_last={drop_last}"
            )
        self.sampler, self.batch_size, self.drop_last = sampler, batch_size, drop_last

    def __iter__(self):
        batch = []
        for i in iter(self.sampler):
            batch.append(i)
            if len(batch) == self.batch_size:
                yield batch
                batch = []
        if batch and not self.drop_last:
            yield batch

    def __len__(self):
        n = len(self.sampler)
        return n // self.batch_size if self.drop_last else -(-n // self.batch_size)

    language_iter = __iter__
    language_len = __len__
    language_attrs = {
        "sampler": lambda s: s.sampler,
        "batch_size": lambda s: s.batch_size,
        "drop_last": lambda s: s.drop_last,
    }

    def __repr__(self):
        return "<torch.utils.data.sampler.BatchSampler object>"


def members():
    return {
        "Sampler": Sampler,
        "SequentialSampler": SequentialSampler,
        "RandomSampler": RandomSampler,
        "SubsetRandomSampler": SubsetRandomSampler,
        "WeightedRandomSampler": WeightedRandomSampler,
        "BatchSampler": BatchSampler,
    }
