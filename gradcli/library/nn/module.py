"""torch.nn.Module and torch.nn.Parameter, as plain Python classes.

A user class of the language that names `nn.Module` as its base is a real
Python subclass (the class rules of docs/developer/architecture.md): `self.fc = nn.Linear(...)` reaches
`language_setattr`, which files Parameters, submodules and buffers as PyTorch's
`Module.__setattr__` does; `model.fc` finds them again through
`language_getattr`; `model(x)` is `__call__` -> `self.forward(x)`.  The same
registration runs for Python subclasses (`__setattr__`/`__getattr__`), which is
how the unit tests drive it.

A Parameter is an ordinary leaf `Tensor` marked in `core.parameter` (the engine
tests `type(x) is Tensor` on its fast paths, so a subclass would fall off
them); `nn.Parameter(t)` makes one and `isinstance(p, nn.Parameter)` asks the
mark.
"""

from __future__ import annotations

import types
from itertools import chain
from operator import is_

import numpy as np

from ...runtime import context
from ...runtime.errors import GradAttributeError, GradRuntimeError, GradTypeError, GradValueError
from ...core.convert import type_name
from ...core.parameter import is_parameter, mark
from ...core.tensor import Tensor
from ..stdlib import LazyIterator
from ..methods import RemovableHandle, requires_grad_ as tensor_requires_grad_
from .backward_hooks import call_with_hooks
from .state import ModuleState
from ..values import program_object
from ...ops.registry import BUILTINS, METHOD_ONLY


class _ParameterType(type):
    def __instancecheck__(cls, obj):
        return type(obj) is Tensor and is_parameter(obj)

    def __repr__(cls):
        return "<class 'torch.nn.parameter.Parameter'>"


class Parameter(metaclass=_ParameterType):
    """nn.Parameter(data=None, requires_grad=True): a leaf tensor sharing data's values."""

    language_methods = {}
    language_callable = True
    language_bases = (Tensor,)  # issubclass(nn.Parameter, torch.Tensor)

    def __new__(cls, data=None, requires_grad=True):
        if data is None:
            arr = np.empty((0,), dtype=context.current.default_float)
        elif type(data) is Tensor:
            arr = data.data
        else:
            raise GradTypeError(
                f"Parameter(): argument 'data' must be Tensor, not {type_name(data)}"
            )
        if requires_grad and arr.dtype.kind != "f":
            raise GradRuntimeError(
                "Only Tensors of floating point and complex dtype can require gradients"
            )
        return mark(Tensor(arr, requires_grad=bool(requires_grad)))


def new_parameter(array):
    """A fresh Parameter holding array (used by the layers' constructors)."""
    return mark(Tensor(array, requires_grad=True))


def _addindent(s, n):
    lines = s.split("\n")
    if len(lines) == 1:
        return s
    first = lines.pop(0)
    return first + "\n" + "\n".join(" " * n + line for line in lines)


#: where a module keeps the hooks its call runs
_HOOKS = ("_forward_pre_hooks", "_forward_hooks", "_backward_hooks", "_backward_pre_hooks")


class Module(ModuleState):
    """torch.nn.Module: subclass it (in the language or in Python), assign layers and
    Parameters as attributes in __init__, define forward; call the module."""

    language_subclassable = True
    #: the op (its name in the op table) that the class's forward runs on its input, its
    #: parameters and its attributes, and nothing else; None: anything else.  A replayed
    #: loop may call the module when that op declares itself pure (`replay_pure`)
    replay_op = None
    #: its methods, called with numbers or nothing, run no code of the program (a
    #: replayed loop may run `model.zero_grad()` as compiled between replayed statements)
    replay_calls = True
    #: its methods that change nothing a replayed loop's plan checks, when the plan holds
    #: (replay_checks.keeps): `train()` and `eval()` set each module's `training` flag,
    #: which changes no op of a replayed forward but those of `replay_training` modules,
    #: and with those a plan is made only when each module a statement reads ends the
    #: noted iteration in the state the statement found it in (replay_plan.MODULE_STATES)
    replay_keeps = ("train", "eval")
    #: whether the ops its forward runs depend on its `training` flag (Dropout's noise):
    #: a replayed plan is then made only when the flag a statement read it with is the
    #: one the noted iteration ends with (replay_plan.MODULE_STATES)
    replay_training = False

    def replay_pure(self):
        """Whether a replayed loop may call this module: a library class whose forward
        runs one pure op (`replay_op`), with no hooks and no `forward` of the instance's
        own (a Sequential: each of its modules so)."""
        d = self.__dict__
        if program_object(self) or "forward" in d or any(d.get(k) for k in _HOOKS):
            return False
        return _pure_op(type(self).replay_op)

    def __init__(self, *args, **kwargs):
        if args or kwargs:
            raise GradTypeError(
                f"{type(self).__name__}.__init__() takes 1 positional argument "
                f"but {len(args) + 1} were given"
            )
        d = self.__dict__
        d["training"] = True
        d["_parameters"] = {}
        d["_buffers"] = {}
        d["_non_persistent_buffers_set"] = set()
        d["_modules"] = {}

    # ------------------------------------------------------------ attributes
    def __setattr__(self, name, value):
        d = self.__dict__
        params = d.get("_parameters")
        if is_parameter(value):
            if params is None:
                raise GradAttributeError("cannot assign parameters before Module.__init__() call")
            self._remove_from(name, d, d["_buffers"], d["_modules"])
            params[name] = value
            return
        if params is not None and name in params:
            if value is not None:
                raise GradTypeError(
                    f"cannot assign '{_torch_type(value)}' as parameter '{name}' "
                    "(torch.nn.Parameter or None expected)"
                )
            params[name] = None
            return
        modules = d.get("_modules")
        if isinstance(value, Module):
            if modules is None:
                raise GradAttributeError("cannot assign module before Module.__init__() call")
            self._remove_from(name, d, params, d["_buffers"])
            modules[name] = value
            return
        if modules is not None and name in modules:
            if value is not None:
                raise GradTypeError(
                    f"cannot assign '{_torch_type(value)}' as child module "
                    f"'{name}' (torch.nn.Module or None expected)"
                )
            modules[name] = None
            return
        buffers = d.get("_buffers")
        if buffers is not None and name in buffers:
            if value is not None and type(value) is not Tensor:
                raise GradTypeError(
                    f"cannot assign '{_torch_type(value)}' as buffer '{name}' "
                    "(torch.Tensor or None expected)"
                )
            buffers[name] = value
            return
        d[name] = value

    def language_setattr(self, name, value):
        Module.__setattr__(self, name, value)

    @staticmethod
    def _remove_from(name, *dicts):
        for d in dicts:
            d.pop(name, None)

    def __getattr__(self, name):  # only called when normal lookup fails
        if name.startswith("__"):
            raise NoAttribute(f"'{type(self).__name__}' object has no attribute '{name}'")
        d = self.__dict__
        for key in ("_parameters", "_buffers", "_modules"):
            table = d.get(key)
            if table is not None and name in table:
                return table[name]
        raise NoAttribute(f"'{type(self).__name__}' object has no attribute '{name}'")

    def language_getattr(self, name):
        return Module.__getattr__(self, name)

    def __delattr__(self, name):
        d = self.__dict__
        for key in ("_parameters", "_buffers", "_modules"):
            if name in d.get(key, ()):
                del d[key][name]
                return
        object.__delattr__(self, name)

    def language_delattr(self, name):
        d = self.__dict__
        if (
            not any(name in d.get(k, ()) for k in ("_parameters", "_buffers", "_modules"))
            and name not in d
        ):
            raise NoAttribute(f"'{type(self).__name__}' object has no attribute '{name}'")
        Module.__delattr__(self, name)

    # ------------------------------------------------------------ calling
    def forward(self, *args, **kwargs):
        raise GradRuntimeError(
            f'Module [{type(self).__name__}] is missing the required "forward" function',
            type_name="NotImplementedError",
        )

    def __call__(self, *args, **kwargs):
        d = self.__dict__
        for hook in list(d.get("_forward_pre_hooks", ())):
            r = hook(self, args)
            if r is not None:
                args = r if isinstance(r, tuple) else (r,)
        if "_backward_hooks" in d or "_backward_pre_hooks" in d:
            out = call_with_hooks(self, args, kwargs, lambda a, k: self.forward(*a, **k))
        else:
            out = self.forward(*args, **kwargs)
        for hook in list(d.get("_forward_hooks", ())):
            r = hook(self, args, out)
            if r is not None:
                out = r
        return out

    def register_full_backward_hook(self, hook, prepend=False):
        hooks = self.__dict__.setdefault("_backward_hooks", [])
        hooks.insert(0, hook) if prepend else hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_full_backward_pre_hook(self, hook, prepend=False):
        hooks = self.__dict__.setdefault("_backward_pre_hooks", [])
        hooks.insert(0, hook) if prepend else hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_forward_hook(self, hook):
        hooks = self.__dict__.setdefault("_forward_hooks", [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    def register_forward_pre_hook(self, hook):
        hooks = self.__dict__.setdefault("_forward_pre_hooks", [])
        hooks.append(hook)
        return RemovableHandle(hooks, hook)

    # ------------------------------------------------------------ registration
    def register_parameter(self, name, param):
        _check_name(self, name, "parameter")
        if param is not None and not is_parameter(param):
            raise GradTypeError(
                f"cannot assign '{_torch_type(param)}' object to parameter "
                f"'{name}' (torch.nn.Parameter or None required)"
            )
        self.__dict__["_parameters"][name] = param

    def register_buffer(self, name, tensor, persistent=True):
        _check_name(self, name, "buffer")
        if tensor is not None and type(tensor) is not Tensor:
            raise GradTypeError(
                f"cannot assign '{_torch_type(tensor)}' object to buffer "
                f"'{name}' (torch Tensor or None required)"
            )
        d = self.__dict__
        d["_buffers"][name] = tensor
        if persistent:
            d["_non_persistent_buffers_set"].discard(name)
        else:
            d["_non_persistent_buffers_set"].add(name)

    def add_module(self, name, module):
        if module is not None and not isinstance(module, Module):
            raise GradTypeError(f"{_torch_type(module)} is not a Module subclass")
        _check_name(self, name, "module")
        self.__dict__["_modules"][name] = module

    register_module = add_module

    # ------------------------------------------------------------ walking
    def named_modules(self, memo=None, prefix="", remove_duplicate=True):
        out = []
        seen = set() if memo is None else memo

        def walk(pfx, m):  # depth first, children in registration order
            if remove_duplicate:
                if id(m) in seen:
                    return
                seen.add(id(m))
            out.append((pfx, m))
            for name, child in m.__dict__["_modules"].items():
                if child is not None:
                    walk(pfx + ("." if pfx else "") + name, child)

        walk(prefix, self)
        return out

    def modules(self):
        return [m for _, m in self.named_modules()]

    def named_children(self):
        out, seen = [], set()
        for name, m in self.__dict__["_modules"].items():
            if m is not None and id(m) not in seen:
                seen.add(id(m))
                out.append((name, m))
        return out

    def children(self):
        return [m for _, m in self.named_children()]

    def _named_members(self, table, prefix, recurse, remove_duplicate=True):
        mods = (
            self.named_modules(prefix=prefix, remove_duplicate=remove_duplicate)
            if recurse
            else [(prefix, self)]
        )
        out, seen = [], set()
        for pfx, m in mods:
            for name, v in m.__dict__[table].items():
                if v is None or (remove_duplicate and id(v) in seen):
                    continue
                seen.add(id(v))
                out.append((pfx + ("." if pfx else "") + name, v))
        return out

    def named_parameters(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members("_parameters", prefix, recurse, remove_duplicate)

    def parameters(self, recurse=True):
        return [p for _, p in self.named_parameters(recurse=recurse)]

    def named_buffers(self, prefix="", recurse=True, remove_duplicate=True):
        return self._named_members("_buffers", prefix, recurse, remove_duplicate)

    def buffers(self, recurse=True):
        return [b for _, b in self.named_buffers(recurse=recurse)]

    def get_submodule(self, target):
        m = self
        for part in target.split(".") if target else ():
            mods = m.__dict__["_modules"]
            if part not in mods:
                raise GradAttributeError(f"{type(m).__name__} has no attribute `{part}`")
            m = mods[part]
        return m

    # ------------------------------------------------------------ state
    def train(self, mode=True):
        if not isinstance(mode, bool):
            raise GradValueError("training mode is expected to be boolean")
        self.__dict__["training"] = mode
        for m in self.children():
            m.train(mode)
        return self

    def eval(self):
        return self.train(False)

    def requires_grad_(self, requires_grad=True):
        for p in self.parameters():
            tensor_requires_grad_(p, requires_grad)
        return self

    def zero_grad(self, set_to_none=True):
        for p in self.parameters():
            if p.grad is not None:
                if set_to_none:
                    p.grad = None
                else:
                    p.grad = Tensor(np.zeros_like(p.grad.data))

    def apply(self, fn):
        for m in self.children():
            m.apply(fn)
        fn(self)
        return self

    # ------------------------------------------------------------ printing
    def extra_repr(self):
        return ""

    def _get_name(self):
        return type(self).__name__

    def __repr__(self):
        extra = self.extra_repr()
        extra_lines = extra.split("\n") if extra else []
        child_lines = [
            f"({key}): " + _addindent(repr(m), 2) for key, m in self.__dict__["_modules"].items()
        ]
        lines = extra_lines + child_lines
        main = self._get_name() + "("
        if lines:
            if len(extra_lines) == 1 and not child_lines:
                main += extra_lines[0]
            else:
                main += "\n  " + "\n  ".join(lines) + "\n"
        return main + ")"

    language_methods = {}  # filled below: every public method above


def _torch_type(v):
    if type(v) is Tensor:
        return "torch.nn.Parameter" if is_parameter(v) else "torch.FloatTensor"
    return type_name(v)


def _check_name(module, name, what):
    if "_parameters" not in module.__dict__:
        raise GradAttributeError(f"cannot assign {what} before Module.__init__() call")
    if not isinstance(name, str):
        raise GradTypeError(f"{what} name should be a string. Got {type_name(name)}")
    if "." in name:
        got = f", got: {name}" if what == "module" else ""  # PyTorch's words differ so
        # (a KeyError shows its message as Python's repr)
        raise GradRuntimeError(repr(f'{what} name can\'t contain "."{got}'), type_name="KeyError")
    if name == "":
        raise GradRuntimeError(repr(f'{what} name can\'t be empty string ""'), type_name="KeyError")


class NoAttribute(GradAttributeError, AttributeError):
    """gradcli's AttributeError that Python's getattr/hasattr also understand."""


_GENERATORS = frozenset(
    {
        "parameters",
        "named_parameters",
        "buffers",
        "named_buffers",
        "children",
        "named_children",
        "modules",
        "named_modules",
    }
)


def _dispatch(name):
    """x.name(...) through Python's lookup, so a subclass's override is the one called.
    parameters(), children() ... give generators, as PyTorch's do (`next(m.parameters())`)."""
    generator = name in _GENERATORS

    def run(method, args, kwargs):
        if generator and isinstance(method, types.MethodType):  # the library's own
            return LazyIterator(iter(method(*args, **kwargs)), f"generator object Module.{name}")
        return method(*args, **kwargs)

    def call(self, *args, **kwargs):
        return run(getattr(self, name), args, kwargs)

    def above(cls):
        """The method as the library class `cls` defines it, for super() in an override
        (which Python's lookup on the instance would call again)."""
        fn = next(k.__dict__[name] for k in cls.__mro__ if name in k.__dict__)

        def call_above(self, *args, **kwargs):
            return run(types.MethodType(fn, self), args, kwargs)

        call_above.__name__ = name
        return call_above

    call.__name__ = name
    call.above = above  # type: ignore[attr-defined]
    return call


Module.language_methods = {
    name: _dispatch(name)
    for name in (
        "register_parameter",
        "register_buffer",
        "add_module",
        "register_module",
        "named_modules",
        "modules",
        "named_children",
        "children",
        "named_parameters",
        "parameters",
        "named_buffers",
        "buffers",
        "get_submodule",
        "train",
        "eval",
        "requires_grad_",
        "zero_grad",
        "apply",
        "state_dict",
        "load_state_dict",
        "to",
        "cpu",
        "double",
        "float",
        "extra_repr",
        "register_forward_hook",
        "register_forward_pre_hook",
        "register_full_backward_hook",
        "register_full_backward_pre_hook",
        "forward",
    )
}


def replay_pure(m):
    """Whether a replayed loop may call the module m (Module.replay_pure), asked of a
    library class only (a program's class could define a method of that name)."""
    return isinstance(m, Module) and not program_object(m) and m.replay_pure()


def replay_state(m):
    """What a replayed loop's check compares of the module m and every module in it
    (`replay_same`, replay_plan.py): per module its attributes' names and the identity of
    each value (each parameter, buffer and submodule in its tables too; the number of
    hooks in a list, and of entries in an empty table); with the values (held, so no
    identity is reused while the plan holds them) and the tensors and numbers its
    forward may read ((path, value) each)."""
    state, held, found = [], [], []
    todo = [("", m)]
    while todo:
        path, x = todo.pop()
        d = x.__dict__
        held.extend(d.values())
        subs, lists = [], []
        for k, v in d.items():
            if type(v) is dict and not v:  # (a hook table, say: empty is all to check)
                lists.append((v, 0))
            elif type(v) is dict:
                subs.append((v, tuple(v), list(map(id, v.values()))))
                held.extend(v.values())
                for a, b in v.items():
                    if isinstance(b, Module):
                        todo.append((path + a + ".", b))
                    elif type(b) is Tensor:
                        found.append((path + a, b))
            elif type(v) is list:
                lists.append((v, len(v)))
            elif type(v) in (int, float):
                found.append((path + k, v))
        state.append((d, tuple(d), list(map(id, d.values())), tuple(subs), tuple(lists)))
    return ReplayState(state), held, found


_PROXY = types.MappingProxyType  # (a class's __dict__)


class ReplayState(tuple):
    """replay_state's entries (a tuple of them), with every table among them at once
    (`flat`) for replay_same: its tables (each module's attributes and the tables among
    them, a program class's attributes too) in order, their lengths, their keys one after
    another, their values' views and their values, the lists (and empty tables) and their
    lengths; None where a table is neither a dict nor a class's mappingproxy."""

    def __init__(self, entries):
        dicts, lens, keys, values, lists, counts = [], [], [], [], [], []
        for d, dkeys, _, subs, dlists in self:
            dicts.append(d)
            lens.append(len(dkeys))
            keys.extend(dkeys)
            for v, vkeys, _ in subs:
                dicts.append(v)
                lens.append(len(vkeys))
                keys.extend(vkeys)
            for v, n in dlists:
                lists.append(v)
                counts.append(n)
        flat = None
        if all(type(d) is dict or type(d) is _PROXY for d in dicts):
            # (live views of the tables' values: a program class's attributes are a
            # mappingproxy, whose values() is its dict's)
            views = [d.values() for d in dicts]
            values = list(chain.from_iterable(views))
            ids = [i for _, _, dids, subs, _ in self for i in chain(dids, *(x[2] for x in subs))]
            if list(map(id, values)) == ids:  # (as replay_state saw them)
                flat = (dicts, lens, keys, views, values, lists, counts)
        self.flat = flat

    def __add__(self, other):
        """The entries of both, as one state (a module's and its program classes')."""
        return ReplayState(tuple(self) + tuple(other))


def replay_same(state):
    """Whether the modules of `replay_state` are as they were: every table of the state at
    once (ReplayState.flat), each comparison one C call over all of them, the values
    compared by identity (`is`), where a loop over the tables made a few calls each and an
    int of each value's identity (a two-layer autoencoder's nine modules: about 45% less)."""
    flat = state.flat if type(state) is ReplayState else None
    if flat is None:
        return _replay_same(state)
    dicts, lens, keys, views, values, lists, counts = flat
    return (
        list(map(len, dicts)) == lens
        and [*chain.from_iterable(dicts)] == keys
        and all(map(is_, chain.from_iterable(views), values))
        and list(map(len, lists)) == counts
    )


def _replay_same(state):
    """replay_same's check, a table at a time."""
    for d, keys, ids, subs, lists in state:
        if tuple(d) != keys or list(map(id, d.values())) != ids:
            return False
        for v, vkeys, vids in subs:
            if tuple(v) != vkeys or list(map(id, v.values())) != vids:
                return False
        for v, n in lists:
            if len(v) != n:
                return False
    return True


def _pure_op(name):
    """Whether the op `name` declares itself pure (ops/registry.py `register(pure=...)`)."""
    entry = BUILTINS.get(name) or METHOD_ONLY.get(name) if name is not None else None
    return entry is not None and entry.pure is True
