"""torch.nn's containers: Sequential (call in order, index, slice, len, iterate),
ModuleList and ModuleDict, with PyTorch's reprs (ModuleList folds repeated layers
into `(0-2): 3 x Linear(...)`)."""

from __future__ import annotations

from ...runtime.errors import GradRuntimeError, GradTypeError
from ...core.convert import type_name
from ..values import program_object
from .module import _HOOKS, Module, _addindent, replay_pure


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

    language_len = __len__
    language_iter = __iter__
    language_getitem = __getitem__


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


_Indexed.language_methods = dict(
    Module.language_methods, append=_Indexed.append, extend=_Indexed.extend, insert=_Indexed.insert
)
ModuleDict.language_methods = dict(
    Module.language_methods, keys=ModuleDict.keys, values=ModuleDict.values, items=ModuleDict.items
)

CONTAINERS = {c.__name__: c for c in (Sequential, ModuleList, ModuleDict)}
