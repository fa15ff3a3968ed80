"""Modules of the program's classes that a replayed loop sees through: a module whose
class (and each of its program classes) defines `forward` as a method whose body is
made of pure ops' calls, its own modules' calls and local names (loop_shapes.through),
and no special method of its own, may be called in a replayed statement as gradcli's
own modules are (replay_plan.py): its forward runs no code that could see a made name,
and what ops it applies is a function of the module's state, the classes' attributes,
the globals it reads and the shapes and dtypes of what it is given, all checked before
each replayed iteration."""

from __future__ import annotations

from ..library.nn.module import _HOOKS, Module, replay_pure
from ..library.values import Module as Namespace
from ..library.values import program_object
from .functions import UserFunction
from .loop_shapes import THROUGH

#: the special names a program's class may hold in its own dict (the class statement's)
_MARKS = frozenset({"__init__", "__module__", "__doc__", "__qualname__"})
#: a forward's global that the program has not bound (a built-in: checked still unbound)
ABSENT = object()
#: modules inside modules, at most
_DEPTH = 8


def through_state(v, depth=0):
    """(the state entries of v's program classes, as Module.replay_state's, the values
    they hold, the checks of the globals its forwards read) when v is a module of the
    program's class a replayed loop sees through, else None."""
    if depth > _DEPTH or not isinstance(v, Module) or not program_object(v):
        return None
    d = v.__dict__
    if "forward" in d or any(d.get(k) for k in _HOOKS):
        return None
    mro = type(v).__mro__
    own = [c for c in mro if "__gradcli_user__" in c.__dict__]
    if tuple(mro[len(own) :]) != Module.__mro__ or any(
        k not in _MARKS
        and "__gradcli_" not in k
        and (k.startswith("__") and k.endswith("__") or (k != "forward" and hasattr(Module, k)))
        for c in own
        for k in c.__dict__
    ):  # (a special method, or one of Module's that Module's own methods may call)
        return None
    f = next((c.__dict__["forward"] for c in own if "forward" in c.__dict__), None)
    got = THROUGH.get(f.body) if type(f) is UserFunction else None
    if got is None or f.closure is not f.globals:
        return None
    names, calls = got
    variables = f.globals.vars
    checks = []
    for name in sorted(names):
        value = variables.get(name, ABSENT)
        if value is not ABSENT and type(value) is not Namespace:
            return None
        load = _loader(variables, name)
        checks.append((("forward", name), (load, 2, value, None, None, None, None)))
    state = [
        (c.__dict__, tuple(c.__dict__), list(map(id, c.__dict__.values())), (), ()) for c in own
    ]
    held = [x for c in own for x in c.__dict__.values()]
    modules = d.get("_modules") or {}
    for name in calls:  # (an attribute of a class or of the instance comes first)
        m = modules.get(name)
        if m is None or name in d or any(name in c.__dict__ for c in mro):
            return None
        if program_object(m):
            inner = through_state(m, depth + 1)
            if inner is None:
                return None
            state.extend(inner[0])
            held.extend(inner[1])
            checks.extend(inner[2])
        elif not replay_pure(m):
            return None
    return tuple(state), held, checks


def _loader(variables, name):
    return lambda s: variables.get(name, ABSENT)
