"""torch.nn.utils.rnn: sequences of different lengths padded into one tensor
(`pad_sequence`), packed time step by time step into a `PackedSequence` (its `data`,
the rows of each step's sequences still running, and `batch_sizes`, how many those
are; `pack_padded_sequence`, `pack_sequence`) and padded back (`pad_packed_sequence`),
each made by PyTorch's ops in its order: a padded tensor is a full tensor whose slices
the sequences are copied into (CopySlices), the packed data one node
(PackPaddedSequenceBackward0).  nn.RNN, nn.GRU and nn.LSTM run a PackedSequence as
PyTorch's packed layers do (recurrent.py)."""

from __future__ import annotations

import numpy as np

from ...core.convert import type_name
from ...core.printing import show
from ...core.tensor import Tensor
from ...engine.declare import none
from ...engine.function import Function
from ...ops.registry import FUNCTIONS
from ...runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ..inplace import setitem

_FIELDS = ("data", "batch_sizes", "sorted_indices", "unsorted_indices")


def _f(name, *args, **kw):
    return FUNCTIONS[name](*args, **kw)


def invert_permutation(permutation):
    if permutation is None:
        return None
    out = np.empty_like(permutation.data)
    out[permutation.data] = np.arange(permutation.data.size, dtype=out.dtype)
    return Tensor(out)


class PackedSequence(tuple):
    """(data, batch_sizes, sorted_indices, unsorted_indices), as PyTorch's namedtuple."""

    language_callable = True
    language_attrs = {name: (lambda i: lambda p: p[i])(i) for i, name in enumerate(_FIELDS)}
    language_attrs["_fields"] = lambda p: _FIELDS

    def __new__(cls, data, batch_sizes=None, sorted_indices=None, unsorted_indices=None):
        if unsorted_indices is None:
            unsorted_indices = invert_permutation(sorted_indices)
        if batch_sizes is None:  # PackedSequence((data, batch_sizes), ...)
            if not (isinstance(data, (list, tuple)) and len(data) == 2):
                raise GradRuntimeError(
                    "Expected data to be a list or tuple of length 2", type_name="AssertionError"
                )
            data, batch_sizes = data
        return super().__new__(cls, (data, batch_sizes, sorted_indices, unsorted_indices))

    def __repr__(self):
        shown = ", ".join(f"{name}={show(v)}" for name, v in zip(_FIELDS, self))
        return f"PackedSequence({shown})"


class PackPaddedSequence(Function):
    """The rows of each time step's running sequences, one step after another."""

    __slots__ = ("shape", "sizes", "batch_first")
    name = "PackPaddedSequenceBackward0"
    saved_names = ()
    jvp = none("gradcli has no forward-mode rule for packing")
    formula = none("a gather of rows: shown as a named function")
    differentiable_twice = False

    def forward(self, x, sizes, batch_first):
        self.shape, self.sizes, self.batch_first = x.shape, sizes, batch_first
        steps = x.swapaxes(0, 1) if batch_first else x
        return np.concatenate([steps[t, :n] for t, n in enumerate(sizes)])

    def backward(self, g, F):
        shape = list(self.shape)
        if self.batch_first:
            shape[0], shape[1] = shape[1], shape[0]
        out = np.zeros(shape, g.dtype)
        offset = 0
        for t, n in enumerate(self.sizes):
            out[t, :n] = g[offset : offset + n]
            offset += n
        return (out.swapaxes(0, 1) if self.batch_first else out,)


def _lengths(lengths):
    if isinstance(lengths, Tensor):
        return _f("to", lengths, np.int64)
    return Tensor(np.asarray(lengths, dtype=np.int64).reshape(-1))


def pack_padded_sequence(input, lengths, batch_first=False, enforce_sorted=True):  # noqa: A002
    lengths = _lengths(lengths)
    sorted_indices = None
    if not enforce_sorted:
        lengths, sorted_indices = _f("sort", lengths, descending=True)
        input = _f("index_select", input, 0 if batch_first else 1, sorted_indices)
    if type(input) is not Tensor:
        raise GradTypeError(
            f"_pack_padded_sequence(): argument 'input' (position 1) must be Tensor, "
            f"not {type_name(input)}"
        )
    if lengths.data.ndim != 1:
        raise GradRuntimeError(
            f"'lengths' argument should be a 1D CPU int64 tensor, but got "
            f"{lengths.data.ndim}D cpu Long tensor"
        )
    if input.data.size == 0:
        raise GradRuntimeError("Cannot pack empty tensors.")
    batch = input.data.shape[0 if batch_first else 1]
    ls = [int(n) for n in lengths.data]
    if len(ls) != batch:
        raise GradRuntimeError(
            f"Expected `len(lengths)` to be equal to batch_size, but got {len(ls)} "
            f"(batch_size={batch})"
        )
    if ls[-1] <= 0:
        raise GradRuntimeError(
            "Length of all samples has to be greater than 0, but found an element in "
            "'lengths' that is <= 0"
        )
    if any(a < b for a, b in zip(ls, ls[1:])):
        raise GradRuntimeError(
            "`lengths` array must be sorted in decreasing order when `enforce_sorted` is "
            "True. You can pass `enforce_sorted=False` to pack_padded_sequence and/or "
            "pack_sequence to sidestep this requirement if you do not need ONNX "
            "exportability."
        )
    sizes = tuple(sum(1 for n in ls if n > t) for t in range(ls[0]))
    data = PackPaddedSequence.apply(input, sizes=sizes, batch_first=bool(batch_first))
    batch_sizes = Tensor(np.asarray(sizes, dtype=np.int64))
    return PackedSequence(data, batch_sizes, sorted_indices, None)


def pad_packed_sequence(sequence, batch_first=False, padding_value=0.0, total_length=None):
    data, batch_sizes, _, unsorted_indices = sequence
    sizes = [int(n) for n in batch_sizes.data]
    steps = len(sizes)
    if total_length is not None:
        if total_length < steps:
            raise GradValueError(
                "Expected total_length to be at least the length of the longest sequence in "
                f"input, but got total_length={total_length} and max sequence length being "
                f"{steps}"
            )
        steps = total_length
    rest = tuple(data.data.shape[1:])
    output = _f("full", (steps, sizes[0], *rest), padding_value, dtype=data.data.dtype)
    lengths = [0] * sizes[0]
    offset, prev, start = 0, sizes[0], 0
    for i in range(len(sizes) + 1):
        size = sizes[i] if i < len(sizes) else 0
        if size != prev:  # the steps start..i ran `prev` sequences: one block of rows
            n = prev * (i - start)
            block = _f("view", _f("narrow", data, 0, offset, n), i - start, prev, *rest)
            setitem(output, (slice(start, i), slice(0, prev)), block)
            offset, start = offset + n, i
        for j in range(size, prev):
            lengths[j] = i
        prev = size
    if batch_first:
        output = _f("transpose", output, 0, 1)
    lengths_t = Tensor(np.asarray(lengths, dtype=np.int64))
    if unsorted_indices is not None:
        output = _f("index_select", output, 0 if batch_first else 1, unsorted_indices)
        lengths_t = Tensor(lengths_t.data[unsorted_indices.data])
    return output, lengths_t


def pad_sequence(sequences, batch_first=False, padding_value=0.0, padding_side="right"):
    if isinstance(sequences, Tensor):
        sequences = _f("unbind", sequences, 0)
    sequences = list(sequences)
    if padding_side not in ("left", "right"):
        raise GradValueError(
            f"Expected padding_side to be one of left or right, but got {padding_side}."
        )
    if not sequences:
        raise GradRuntimeError("received an empty list of sequences")
    first = sequences[0]
    longest = max(int(s.data.shape[0]) for s in sequences)
    rest = tuple(first.data.shape[1:])
    shape = (len(sequences), longest, *rest) if batch_first else (longest, len(sequences), *rest)
    out = _f("full", shape, padding_value, dtype=first.data.dtype)
    for i, seq in enumerate(sequences):
        n = int(seq.data.shape[0])
        start = longest - n if padding_side == "left" else 0
        rows = slice(start, start + n)
        setitem(out, (i, rows) if batch_first else (rows, i), seq)
    return out


def pack_sequence(sequences, enforce_sorted=True):
    lengths = [int(s.data.shape[0]) for s in sequences]
    return pack_padded_sequence(pad_sequence(sequences), lengths, enforce_sorted=enforce_sorted)


FUNCTIONS_RNN = {
    "PackedSequence": PackedSequence,
    "pad_sequence": pad_sequence,
    "pack_padded_sequence": pack_padded_sequence,
    "pad_packed_sequence": pad_packed_sequence,
    "pack_sequence": pack_sequence,
    "invert_permutation": invert_permutation,
}
