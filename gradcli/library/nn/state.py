"""What nn.Module does with its values as a whole: state_dict / load_state_dict (with
PyTorch's reprs and errors) and conversion to a dtype or device (a mixin of Module)."""

from __future__ import annotations

from collections import OrderedDict

import numpy as np

from ...runtime.device import Device, on_cpu
from ...runtime.errors import GradRuntimeError, GradTypeError
from ...core import dtypes
from ...core.convert import type_name
from ...core.parameter import is_parameter, is_uninitialized, set_uninitialized
from ...core.tensor import Tensor
from ..stdlib import DictView


class IncompatibleKeys(tuple):
    """What load_state_dict returns: (missing_keys, unexpected_keys)."""

    def __repr__(self):
        if not self[0] and not self[1]:
            return "<All keys matched successfully>"
        return f"_IncompatibleKeys(missing_keys={self[0]!r}, unexpected_keys={self[1]!r})"


class StateDict(OrderedDict):
    """state_dict(): prints as Python 3.11's OrderedDict of tensors."""

    def __repr__(self):
        if not self:
            return "OrderedDict()"
        return "OrderedDict([" + ", ".join(f"({k!r}, {v!r})" for k, v in self.items()) + "])"

    def keys_(self):
        return DictView(self, "keys", "odict")

    def values_(self):
        return DictView(self, "values", "odict")

    def items_(self):
        return DictView(self, "items", "odict")

    language_methods = {"keys": keys_, "values": values_, "items": items_}


StateDict.__name__ = StateDict.__qualname__ = "OrderedDict"  # type(sd).__name__, as torch's


class ModuleState:
    """Module's state_dict, load_state_dict, to, double, float, cpu."""

    def state_dict(self, destination=None, prefix="", keep_vars=False):
        out = StateDict() if destination is None else destination
        self._save_to(out, prefix, keep_vars)
        return out

    def _save_to(self, out, prefix, keep_vars):
        d = self.__dict__
        for name, p in d["_parameters"].items():
            if p is not None:
                out[prefix + name] = p if keep_vars else Tensor(p.data)
        for name, b in d["_buffers"].items():
            if b is not None and name not in d["_non_persistent_buffers_set"]:
                out[prefix + name] = b if keep_vars else Tensor(b.data)
        for name, m in d["_modules"].items():
            if m is not None:
                m._save_to(out, prefix + name + ".", keep_vars)

    def load_state_dict(self, state_dict, strict=True, assign=False):
        if not isinstance(state_dict, dict):
            raise GradTypeError(
                f"Expected state_dict to be dict-like, got {_torch_type(state_dict)}."
            )
        own = self.state_dict(keep_vars=True)
        missing = [k for k in own if k not in state_dict]
        unexpected = [k for k in state_dict if k not in own]
        errors = []
        for k, target in own.items():
            if k not in state_dict:
                continue
            src = state_dict[k]
            if type(src) is not Tensor:
                errors.append(
                    f'While copying the parameter named "{k}", expected torch.Tensor '
                    f"or Tensor-like object from checkpoint but received {_torch_type(src)}"
                )
                continue
            if src.data.shape != target.data.shape and not is_uninitialized(target):
                errors.append(
                    f"size mismatch for {k}: copying a param with shape "
                    f"{_size(src)} from checkpoint, the shape in current model is "
                    f"{_size(target)}."
                )
                continue
        if strict:
            if unexpected:
                errors.insert(
                    0,
                    "Unexpected key(s) in state_dict: "
                    + ", ".join(f'"{k}"' for k in unexpected)
                    + ". ",
                )
            if missing:
                errors.insert(
                    0,
                    "Missing key(s) in state_dict: " + ", ".join(f'"{k}"' for k in missing) + ". ",
                )
        if errors:
            raise GradRuntimeError(
                f"Error(s) in loading state_dict for {type(self).__name__}:\n\t"
                + "\n\t".join(errors)
            )
        for k, target in own.items():
            if k in state_dict:
                target.data = np.array(state_dict[k].data, dtype=target.data.dtype, copy=True)
                set_uninitialized(target, False)  # a lazy layer's: made in the loaded shape
        return IncompatibleKeys((missing, unexpected))

    def _apply_arrays(self, fn):
        for m in self.modules():
            for table in ("_parameters", "_buffers"):
                for t in m.__dict__[table].values():
                    if t is not None:
                        t.data = fn(t.data)
                        if t.grad is not None:
                            t.grad.data = fn(t.grad.data)
        return self

    def to(self, *args, **kwargs):
        dtype = kwargs.pop("dtype", None)
        device = kwargs.pop("device", None)
        kwargs.pop("non_blocking", None)
        if kwargs:
            raise GradTypeError("to() received an invalid combination of arguments")
        for a in args:
            if a is None or isinstance(a, (str, Device)):
                device = a
            elif type(a) is Tensor:
                dtype = a.data.dtype
            else:
                dtype = a
        on_cpu(device)
        if dtype is None:
            return self
        dt = dtypes.as_numpy(dtype)
        if dt.kind != "f":
            raise GradTypeError(
                "nn.Module.to only accepts floating point or complex dtypes, "
                f"but got desired dtype={dtypes.DType(dt)}"
            )
        return self._apply_arrays(lambda a: a.astype(dt) if a.dtype.kind == "f" else a)

    def cpu(self):
        return self

    def double(self):
        return self.to(dtypes.DType(np.dtype(np.float64)))

    def float(self):
        return self.to(dtypes.DType(np.dtype(np.float32)))


def _size(t):
    return "torch.Size([" + ", ".join(str(n) for n in t.data.shape) + "])"


def _torch_type(v):
    if type(v) is Tensor:
        return "torch.nn.Parameter" if is_parameter(v) else "torch.FloatTensor"
    return type_name(v)
