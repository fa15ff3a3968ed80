"""`torch.save` / `torch.load` of `.pt`, `.pth` and `.tar` files in PyTorch's own zip format.

A file is a zip archive `NAME/data.pkl` (a pickle, protocol 2, whose tensors are
`torch._utils._rebuild_tensor_v2(storage, offset, size, stride, requires_grad, hooks)`
calls with each storage a persistent id `('storage', torch.FloatStorage, key, location,
numel)`), the storages' raw little-endian bytes in `NAME/data/KEY`, `NAME/version` and
`NAME/byteorder`.  The values are dicts, OrderedDicts, lists, tuples, numbers, strings,
booleans, None and tensors (float32/float64/int64/int32/int16/int8/uint8/bool), nested:
what a `state_dict()` and a training checkpoint hold.

Writing emits the pickle's opcodes itself (no object is pickled by Python).  Reading is
as safe as PyTorch's `weights_only=True`: the Unpickler's `find_class` answers only the
few globals such files use, each with a value of this module (never an import), and
anything else is refused in PyTorch's words; a loaded OrderedDict keeps no attributes
(`BUILD` of its `_metadata` is dropped); sizes are checked against the memory cap before
anything is read or made, and the result is checked to hold only the values above.
"""

from __future__ import annotations

import io
import pickle
import struct
import zipfile
from collections import OrderedDict

import numpy as np

from ..core import parameter
from ..core.convert import type_name
from ..core.tensor import Tensor
from ..runtime.errors import GradError, GradValueError
from ..runtime.limits import check_alloc
from .methods import requires_grad_
from .nn.state import StateDict

#: PyTorch's storage classes by the numpy dtype they hold (little-endian on disk)
STORAGES = {
    "FloatStorage": np.dtype("<f4"),
    "DoubleStorage": np.dtype("<f8"),
    "LongStorage": np.dtype("<i8"),
    "IntStorage": np.dtype("<i4"),
    "ShortStorage": np.dtype("<i2"),
    "CharStorage": np.dtype("i1"),
    "ByteStorage": np.dtype("u1"),
    "BoolStorage": np.dtype("?"),
}
_STORAGE_OF = {dt.newbyteorder("="): name for name, dt in STORAGES.items()}


class UnpicklingError(GradError):
    type_name = "UnpicklingError"


def _refused(what):
    return UnpicklingError(f"Weights only load failed. {what}")


# ---------------------------------------------------------------- writing


class _Writer:
    """The pickle of one value, opcode by opcode, and the storages it refers to."""

    def __init__(self):
        self.out = bytearray(b"\x80\x02")  # PROTO 2
        self.storages: list[np.ndarray] = []
        self.memo: dict[int, int] = {}  # id of a tensor -> its memo slot
        self.keep: list = []  # the tensors memoized (their ids stay theirs)

    def global_(self, module, name):
        self.out += b"c" + module.encode() + b"\n" + name.encode() + b"\n"

    def int_(self, v):
        if 0 <= v < 256:
            self.out += b"K" + bytes([v])
        elif -(2**31) <= v < 2**31:
            self.out += b"J" + struct.pack("<i", v)
        else:
            n = (v.bit_length() + 8) // 8
            self.out += b"\x8a" + bytes([n]) + v.to_bytes(n, "little", signed=True)

    def str_(self, v):
        b = v.encode("utf-8", "surrogatepass")
        self.out += b"X" + struct.pack("<I", len(b)) + b

    def empty_ordered_dict(self):
        self.global_("collections", "OrderedDict")
        self.out += b")R"  # EMPTY_TUPLE, REDUCE

    def value(self, v, depth=0):
        if depth > 500:
            raise GradValueError("save(): the value is nested too deeply")
        if v is None:
            self.out += b"N"
        elif v is True or v is False:
            self.out += b"\x88" if v else b"\x89"
        elif isinstance(v, int) and not isinstance(v, bool):
            self.int_(int(v))
        elif isinstance(v, float):
            self.out += b"G" + struct.pack(">d", v)
        elif isinstance(v, str):
            self.str_(v)
        elif type(v) is Tensor:
            self.tensor(v)
        elif isinstance(v, dict):
            if isinstance(v, OrderedDict):
                self.empty_ordered_dict()
            else:
                self.out += b"}"
            if v:
                self.out += b"("
                for k, x in v.items():
                    self.value(k, depth + 1)
                    self.value(x, depth + 1)
                self.out += b"u"  # SETITEMS
        elif isinstance(v, list):
            self.out += b"]"
            if v:
                self.out += b"("
                for x in v:
                    self.value(x, depth + 1)
                self.out += b"e"  # APPENDS
        elif isinstance(v, tuple):
            if not v:
                self.out += b")"
            else:
                self.out += b"("
                for x in v:
                    self.value(x, depth + 1)
                self.out += b"t"
        else:
            raise GradValueError(
                f"save(): a .pt file holds tensors, numbers, strings, None and dicts, lists "
                f"and tuples of them, not {type_name(v)}",
                hint="save a module's or an optimizer's state_dict()",
            )

    def tensor(self, t):
        slot = self.memo.get(id(t))
        if slot is not None:
            self.out += b"h" + bytes([slot]) if slot < 256 else b"j" + struct.pack("<I", slot)
            return
        a = t.data if t.data.flags.c_contiguous else t.data.copy(order="C")  # 0-d stays 0-d
        name = _STORAGE_OF.get(a.dtype)
        if name is None:
            raise GradValueError(f"save(): a .pt file cannot hold a tensor of dtype {a.dtype}")
        param = parameter.is_parameter(t)
        if param:
            self.global_("torch._utils", "_rebuild_parameter")
            self.out += b"("
        key = len(self.storages)
        self.storages.append(a)
        self.global_("torch._utils", "_rebuild_tensor_v2")
        self.out += b"(("  # the arguments, then the storage's persistent id
        self.str_("storage")
        self.global_("torch", name)
        self.str_(str(key))
        self.str_("cpu")
        self.int_(a.size)
        self.out += b"tQ"  # TUPLE, BINPERSID
        self.int_(0)
        self.value(tuple(a.shape))
        strides, n = [], 1
        for d in reversed(a.shape):
            strides.append(n)
            n *= d
        self.value(tuple(reversed(strides)))
        self.out += b"\x88" if t.requires_grad and not param else b"\x89"
        self.empty_ordered_dict()
        self.out += b"tR"
        if param:
            self.out += b"\x88" if t.requires_grad else b"\x89"
            self.empty_ordered_dict()
            self.out += b"tR"
        slot = len(self.memo)
        self.memo[id(t)] = slot
        self.keep.append(t)
        self.out += b"q" + bytes([slot]) if slot < 256 else b"r" + struct.pack("<I", slot)


def write(obj, f, archive="archive"):
    """Write `obj` to the open binary file `f` as PyTorch's zip format."""
    w = _Writer()
    w.value(obj)
    w.out += b"."
    with zipfile.ZipFile(f, "w", zipfile.ZIP_STORED) as z:
        z.writestr(f"{archive}/data.pkl", bytes(w.out))
        z.writestr(f"{archive}/byteorder", "little")
        for key, a in enumerate(w.storages):
            le = a.astype(a.dtype.newbyteorder("<"), copy=False)
            with z.open(f"{archive}/data/{key}", "w") as out:
                if le.size:
                    out.write(memoryview(le.reshape(-1)).cast("B"))
        z.writestr(f"{archive}/version", "3\n")


# ---------------------------------------------------------------- reading


class _StorageType:
    """What `torch.FloatStorage` ... stand for in a file: the dtype of a storage."""

    __slots__ = ("name", "dtype")

    def __init__(self, name, dtype):
        self.name, self.dtype = name, dtype

    def __setstate__(self, state):
        raise _refused("Unsupported operand: BUILD of a storage type")


class _Storage:
    __slots__ = ("dtype", "array")

    def __init__(self, dtype, array):
        self.dtype, self.array = dtype, array

    def __setstate__(self, state):
        raise _refused("Unsupported operand: BUILD of a storage")


class _Record:
    """A tensor read from the pickle, before it becomes gradcli's."""

    __slots__ = ("tensor", "param")

    def __init__(self, tensor, param=False):
        self.tensor, self.param = tensor, param

    def __setstate__(self, state):
        raise _refused("Unsupported operand: BUILD of a tensor")


class _ODict(OrderedDict):
    def __setstate__(self, state):
        """A state_dict's `_metadata` (its modules' versions): gradcli keeps none."""
        if not isinstance(state, dict):
            raise _refused("Unsupported operand: BUILD of an OrderedDict with a non-dict state")


def _nonneg_ints(v, what):
    if not isinstance(v, tuple) or not all(type(i) is int and i >= 0 for i in v):
        raise _refused(f"{what} must be a tuple of non-negative integers")
    return v


def _rebuild_tensor_v2(storage, offset, size, stride, requires_grad=False, hooks=None, *_):
    if not isinstance(storage, _Storage):
        raise _refused("_rebuild_tensor_v2 of something that is not a storage")
    if type(offset) is not int or offset < 0:
        raise _refused("a tensor's storage offset must be a non-negative integer")
    size, stride = _nonneg_ints(size, "a tensor's size"), _nonneg_ints(stride, "its stride")
    if len(size) != len(stride) or len(size) > 64:
        raise _refused("a tensor's size and stride differ in length")
    check_alloc(size, max(8, storage.dtype.itemsize))
    numel = 1
    for d in size:
        numel *= d
    last = offset + sum((d - 1) * s for d, s in zip(size, stride)) if numel else offset
    if numel and last >= storage.array.size:
        raise _refused(
            f"a tensor of size {list(size)} and stride {list(stride)} at offset {offset} "
            f"goes beyond its storage of {storage.array.size} elements"
        )
    base = storage.array
    item = base.dtype.itemsize
    view = np.lib.stride_tricks.as_strided(
        base[offset:] if numel else base[:0],
        shape=size,
        strides=tuple(s * item for s in stride),
        writeable=False,
    )
    arr = np.array(view, dtype=storage.dtype.newbyteorder("="), order="C", copy=True)
    t = Tensor(arr)
    if requires_grad is True:
        requires_grad_(t, True)
    return _Record(t)


def _rebuild_parameter(data, requires_grad=True, hooks=None, *_):
    if not isinstance(data, _Record):
        raise _refused("_rebuild_parameter of something that is not a tensor")
    t = Tensor(data.tensor.data)
    if requires_grad is True:
        requires_grad_(t, True)
    return _Record(parameter.mark(t), param=True)


_GLOBALS = {
    ("collections", "OrderedDict"): _ODict,
    ("torch._utils", "_rebuild_tensor_v2"): _rebuild_tensor_v2,
    ("torch._utils", "_rebuild_parameter"): _rebuild_parameter,
    **{("torch", n): _StorageType(n, dt) for n, dt in STORAGES.items()},
}


class _Unpickler(pickle.Unpickler):
    def __init__(self, data, archive, prefix):
        super().__init__(io.BytesIO(data))
        self.archive, self.prefix, self.loaded = archive, prefix, {}

    def find_class(self, module, name):
        found = _GLOBALS.get((module, name))
        if found is None:
            raise _refused(
                f"Unsupported global: GLOBAL {module}.{name} was not an allowed global by default"
            )
        return found

    def persistent_load(self, pid):
        if (
            not isinstance(pid, tuple)
            or len(pid) != 5
            or pid[0] != "storage"
            or not isinstance(pid[1], _StorageType)
            or not isinstance(pid[2], str)
            or type(pid[4]) is not int
            or pid[4] < 0
        ):
            raise _refused(f"Unsupported persistent id {type(pid).__name__}")
        _, kind, key, _location, numel = pid
        got = self.loaded.get(key)
        if got is not None:
            return got
        check_alloc((numel,), max(8, kind.dtype.itemsize))
        name = f"{self.prefix}/data/{key}"
        try:
            info = self.archive.getinfo(name)
        except KeyError:
            raise _damaged(f"it has no record {name!r}") from None
        nbytes = numel * kind.dtype.itemsize
        if info.file_size != nbytes:
            raise _damaged(f"{name!r} holds {info.file_size} bytes, not {nbytes}")
        with self.archive.open(info) as f:
            raw = f.read(nbytes)
        if len(raw) != nbytes:
            raise _damaged(f"{name!r} is short")
        got = _Storage(kind.dtype, np.frombuffer(raw, dtype=kind.dtype))
        self.loaded[key] = got
        return got


class _Damaged(GradError):
    type_name = "RuntimeError"


def _damaged(why):
    return _Damaged(f"PytorchStreamReader failed reading zip archive: {why}")


def read(f, path):
    """The value in the PyTorch zip file open (binary) as `f`."""
    try:
        archive = zipfile.ZipFile(f)
    except (zipfile.BadZipFile, ValueError, EOFError):
        raise _Damaged(
            f"PytorchStreamReader failed reading zip archive: failed finding central "
            f"directory ({path!r} is not a PyTorch zip file)"
        ) from None
    with archive:
        names = archive.namelist()
        prefix = names[0].split("/", 1)[0] if names and "/" in names[0] else ""
        try:
            info = archive.getinfo(f"{prefix}/data.pkl")
        except KeyError:
            raise _damaged("file not found: data.pkl") from None
        check_alloc((info.file_size,), 8)
        try:
            with archive.open(info) as pf:
                data = pf.read(info.file_size + 1)
            if len(data) != info.file_size:
                raise _damaged("data.pkl is not the size its header says")
            result = _Unpickler(data, archive, prefix).load()
        except GradError:
            raise
        except (zipfile.BadZipFile, OSError, EOFError) as e:
            raise _damaged(str(e)) from None
        except RecursionError:
            raise _refused("the pickle is nested too deeply") from None
        except Exception as e:  # a malformed pickle: a damaged file, never a traceback
            raise _refused(f"{type(e).__name__}: {e}") from None
    return _language_value(result, 0)


def _language_value(v, depth):
    if depth > 500:
        raise _refused("the value is nested too deeply")
    if v is None or type(v) in (bool, int, float, str):
        return v
    if type(v) is _Record:
        return v.tensor
    if type(v) is _ODict:
        return StateDict(
            (_language_value(k, depth + 1), _language_value(x, depth + 1)) for k, x in v.items()
        )
    if type(v) is dict:
        return {_language_value(k, depth + 1): _language_value(x, depth + 1) for k, x in v.items()}
    if type(v) is list:
        return [_language_value(x, depth + 1) for x in v]
    if type(v) is tuple:
        return tuple(_language_value(x, depth + 1) for x in v)
    raise _refused(f"Unsupported type {type(v).__name__} in the file")
