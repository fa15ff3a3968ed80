"""torch.nn's containers: Sequential (call in order, index, slice, len, iterate),
ModuleList and ModuleDict, with PyTorch's reprs (ModuleList folds repeated layers
into `(0-2): 3 x Linear(...)`); ParameterList and ParameterDict, which register the
tensors they hold as Parameters under '0', '1', ... or their keys."""

from __future__ import annotations

from ...runtime.errors import GradRuntimeError, GradTypeError, GradValueError
from ...core import dtypes
from ...core.convert import type_name
from ...core.parameter import is_parameter
from ...core.tensor import Tensor
from ..values import program_object
from .module import _HOOKS, Module, Parameter, _addindent, replay_pure


def _index(n, idx, what):
    if isinstance(idx, bool) or not isinstance(idx, int):
        raise GradTypeError(f"{what} indices must be integers or slices, not {type_name(idx)}")
    if not -n <= idx < n:
        raise GradRuntimeError(f"index {idx} is out of range", type_name="IndexError")
    return idx % n


class _Indexed(Module):
    """What Sequential and ModuleList share: modules under the keys '0', '1', ..."""

    def _items(self):
        return list(self.__dict__["_modules"].values())

    def __len__(self):
        return len(self.__dict__["_modules"])

    def __iter__(self):
        return iter(self._items())

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            if isinstance(self, Sequential):  # keeps the keys ('1', '2', ...)
                return Sequential(dict(list(self.__dict__["_modules"].items())[idx]))
            return ModuleList(self._items()[idx])
        items = self._items()
        return items[_index(len(items), idx, type(self).__name__)]

    def append(self, module):
        self.add_module(str(len(self)), module)
        return self

    def extend(self, modules):
        for m in modules:
            self.append(m)
        return self

    def insert(self, index, module):
        items = self._items()
        n = len(items)
        index = max(0, min(n, index + n if index < 0 else index))
        items.insert(index, module)
        mods = self.__dict__["_modules"]
        mods.clear()
        for i, m in enumerate(items):
            self.add_module(str(i), m)

    def __setitem__(self, idx, module):
        items = self._items()
        key = list(self.__dict__["_modules"])[_index(len(items), idx, type(self).__name__)]
        self.add_module(key, module)

    def __delitem__(self, idx):
        mods = self.__dict__["_modules"]
        items = list(mods.items())
        if isinstance(idx, slice):
            del items[idx]
        else:
            del items[_index(len(items), idx, type(self).__name__)]
        mods.clear()
        for i, (_, m) in enumerate(items):  # numbered again from 0, as PyTorch does
            mods[str(i)] = m

    language_len = __len__
    language_iter = __iter__
    language_getitem = __getitem__
    language_setitem = __setitem__
    language_delitem = __delitem__


class Sequential(_Indexed):
    def __init__(self, *args):
        super().__init__()
        if len(args) == 1 and isinstance(args[0], dict):
            for key, m in args[0].items():
                self.add_module(key, m)
        else:
            for i, m in enumerate(args):
                self.add_module(str(i), m)

    def forward(self, input):
        for m in self.__dict__["_modules"].values():
            input = m(input)
        return input

    def replay_pure(self):
        """(Module.replay_pure) Its forward calls its modules in turn: each pure."""
        mods = self.__dict__["_modules"].values()
        d = self.__dict__
        return (
            not program_object(self)
            and "forward" not in d
            and not any(d.get(k) for k in _HOOKS)
            and bool(mods)
            and all(m is not None and replay_pure(m) for m in mods)
        )


class ModuleList(_Indexed):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            self.extend(modules)

    def forward(self, *args, **kwargs):
        raise GradRuntimeError(
            'Module [ModuleList] is missing the required "forward" function',
            type_name="NotImplementedError",
        )

    def __repr__(self):
        reprs = [repr(m) for m in self._items()]
        if not reprs:
            return "ModuleList()"
        lines, start = [], 0
        while start < len(reprs):
            end = start
            while end + 1 < len(reprs) and reprs[end + 1] == reprs[start]:
                end += 1
            body = _addindent(reprs[start], 2)
            if end > start:
                lines.append(f"({start}-{end}): {end - start + 1} x {body}")
            else:
                lines.append(f"({start}): {body}")
            start = end + 1
        return "ModuleList(\n  " + "\n  ".join(lines) + "\n)"


class ModuleDict(Module):
    def __init__(self, modules=None):
        super().__init__()
        if modules is not None:
            items = modules.items() if isinstance(modules, dict) else modules
            for key, m in items:
                self.add_module(key, m)

    def __getitem__(self, key):
        mods = self.__dict__["_modules"]
        if key not in mods:
            raise GradRuntimeError(repr(key), type_name="KeyError")
        return mods[key]

    def __setitem__(self, key, module):
        self.add_module(key, module)

    def __delitem__(self, key):
        del self.__dict__["_modules"][key]

    def __len__(self):
        return len(self.__dict__["_modules"])

    def __iter__(self):
        return iter(list(self.__dict__["_modules"]))

    def keys(self):
        return list(self.__dict__["_modules"])

    def values(self):
        return list(self.__dict__["_modules"].values())

    def items(self):
        return list(self.__dict__["_modules"].items())

    def forward(self, *args, **kwargs):
        raise GradRuntimeError(
            'Module [ModuleDict] is missing the required "forward" function',
            type_name="NotImplementedError",
        )

    language_len = __len__
    language_iter = __iter__
    language_getitem = __getitem__
    language_setitem = __setitem__
    language_delitem = __delitem__


def _as_parameter(value):
    """What ParameterList and ParameterDict store: a tensor as a Parameter (sharing its
    values), anything else as it is."""
    if type(value) is Tensor and not is_parameter(value):
        return Parameter(value)
    return value


def _describe(value, dtype_name):
    """A line of ParameterList's and ParameterDict's reprs (dtype_name: how each names
    a tensor's dtype, 'torch.float32' or 'torch.FloatTensor')."""
    if type(value) is Tensor:
        size = "x".join(str(n) for n in value.data.shape)
        kind = "Parameter" if is_parameter(value) else "Tensor"
        return f"{kind} containing: [{dtype_name(value)} of size {size}]"
    return "Object of type: " + type_name(value)


class ParameterList(Module):
    """nn.ParameterList(values=None): a list whose tensors are the module's parameters."""

    def __init__(self, values=None):
        super().__init__()
        self.__dict__["_size"] = 0
        if values is not None:
            self.extend(values)

    def _key(self, idx):
        if isinstance(idx, bool) or not isinstance(idx, int):
            raise GradTypeError(f"'{type_name(idx)}' object cannot be interpreted as an integer")
        n = len(self)
        if not -n <= idx < n:
            raise GradRuntimeError(f"index {idx} is out of range", type_name="IndexError")
        return str(idx % n)

    def _get(self, key):
        d = self.__dict__
        return d["_parameters"][key] if key in d["_parameters"] else d[key]

    def __getitem__(self, idx):
        if isinstance(idx, slice):
            return ParameterList(self[i] for i in range(*idx.indices(len(self))))
        return self._get(self._key(idx))

    def __setitem__(self, idx, value):
        Module.__setattr__(self, self._key(idx), _as_parameter(value))

    def __len__(self):
        return self.__dict__["_size"]

    def __iter__(self):
        return iter([self._get(str(i)) for i in range(len(self))])

    def append(self, value):
        self.__dict__["_size"] += 1
        self[len(self) - 1] = value
        return self

    def extend(self, values):
        if type(values) is Tensor or isinstance(values, (int, float, bool)) or values is None:
            raise GradTypeError(
                "ParameterList.extend should be called with an iterable, but got "
                + type_name(values)
            )
        for v in list(values):
            self.append(v)
        return self

    def extra_repr(self):
        return "\n".join(
            f"  ({i}): " + _describe(v, lambda t: repr(dtypes.DType(t.data.dtype)))
            for i, v in enumerate(self)
        )

    def __call__(self, *args, **kwargs):
        raise GradRuntimeError("ParameterList should not be called.")

    language_len = __len__
    language_iter = __iter__
    language_getitem = __getitem__
    language_setitem = __setitem__


class ParameterDict(Module):
    """nn.ParameterDict(parameters=None): a dict (str keys) whose tensors are the module's
    parameters; a dict given is taken in sorted order, as PyTorch's update takes it."""

    def __init__(self, parameters=None):
        super().__init__()
        self.__dict__["_keys"] = {}
        if parameters is not None:
            self.update(parameters)

    @staticmethod
    def _check(key):
        if not isinstance(key, str):
            raise GradTypeError(
                "Index given to ParameterDict cannot be used as a key as it is not a string "
                f"(type is '{type_name(key)}'). Open an issue on github if you need "
                "non-string keys."
            )
        return key

    def __getitem__(self, key):
        self._check(key)
        d = self.__dict__
        if key in d["_parameters"]:
            return d["_parameters"][key]
        if key in d["_keys"] and key in d:
            return d[key]
        raise GradRuntimeError(
            f"'ParameterDict' object has no attribute '{key}'", type_name="AttributeError"
        )

    def __setitem__(self, key, value):
        self.__dict__["_keys"][key] = None
        Module.__setattr__(self, self._check(key), _as_parameter(value))

    def __delitem__(self, key):
        d = self.__dict__
        if key not in d["_keys"]:
            raise GradRuntimeError(repr(key), type_name="KeyError")
        del d["_keys"][key]
        d["_parameters"].pop(key, None)
        d.pop(key, None)

    def __len__(self):
        return len(self.__dict__["_keys"])

    def __iter__(self):
        return iter(list(self.__dict__["_keys"]))

    def __contains__(self, key):
        return key in self.__dict__["_keys"]

    def keys(self):
        return list(self.__dict__["_keys"])

    def values(self):
        return [self[k] for k in self.__dict__["_keys"]]

    def items(self):
        return [(k, self[k]) for k in self.__dict__["_keys"]]

    def get(self, key, default=None):
        return self[key] if key in self else default

    def pop(self, key):
        v = self[key]
        del self[key]
        return v

    def update(self, parameters):
        if isinstance(parameters, ParameterDict):
            pairs = parameters.items()
        elif isinstance(parameters, dict):
            pairs = sorted(parameters.items(), key=lambda kv: kv[0])
        elif isinstance(parameters, (list, tuple)):
            pairs = []
            for j, p in enumerate(parameters):
                if not isinstance(p, (list, tuple)):
                    raise GradTypeError(
                        f"ParameterDict update sequence element #{j} should be Iterable; "
                        f"is{type_name(p)}"
                    )
                if len(p) != 2:
                    raise GradValueError(
                        f"ParameterDict update sequence element #{j} has length {len(p)}; "
                        "2 is required"
                    )
                pairs.append(p)
        else:
            raise GradTypeError(
                "ParametersDict.update should be called with an iterable of key/value "
                "pairs, but got " + type_name(parameters)
            )
        for key, value in pairs:
            self[key] = value

    def extra_repr(self):
        return "\n".join(
            f"  ({k}): " + _describe(v, lambda t: dtypes.legacy_type(t.data))
            for k, v in self.items()
        )

    def __call__(self, *args, **kwargs):
        raise GradRuntimeError("ParameterDict should not be called.")

    language_len = __len__
    language_iter = __iter__
    language_getitem = __getitem__
    language_setitem = __setitem__
    language_delitem = __delitem__


_Indexed.language_methods = dict(
    Module.language_methods, append=_Indexed.append, extend=_Indexed.extend, insert=_Indexed.insert
)
ModuleDict.language_methods = dict(
    Module.language_methods, keys=ModuleDict.keys, values=ModuleDict.values, items=ModuleDict.items
)

ParameterList.language_methods = dict(
    Module.language_methods, append=ParameterList.append, extend=ParameterList.extend
)
ParameterDict.language_methods = dict(
    Module.language_methods,
    keys=ParameterDict.keys,
    values=ParameterDict.values,
    items=ParameterDict.items,
    get=ParameterDict.get,
    pop=ParameterDict.pop,
    update=ParameterDict.update,
)

CONTAINERS = {
    c.__name__: c for c in (Sequential, ModuleList, ModuleDict, ParameterList, ParameterDict)
}
