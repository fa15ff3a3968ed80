"""Modules of the program's classes that a replayed loop sees through: a module whose
class (and each of its program classes) defines `forward` as a method whose body is
made of pure ops' calls, its own modules' calls and local names (through_shapes.through),
and no special method of its own, may be called in a replayed statement as gradcli's
own modules are (replay_plan.py), and so may the methods of its classes that its
forward calls (`_methods`): its forward runs no code that could see a made name,
and what ops it applies is a function of the module's state, the classes' attributes,
the globals it reads and the shapes and dtypes of what it is given, all checked before
each replayed iteration."""

from __future__ import annotations

from ..core.tensor import Tensor
from ..library.nn.containers import ModuleList, Sequential
from ..library.nn.module import _HOOKS, Module, replay_pure
from ..library.values import Module as Namespace
from ..library.values import program_object
from .functions import UserFunction
from .loop_shapes import SHAPE_READS, THROUGH, THROUGH_DEFS

#: the special names a program's class may hold in its own dict (the class statement's)
_MARKS = frozenset({"__init__", "__module__", "__doc__", "__qualname__"})
#: a forward's global that the program has not bound (a built-in: checked still unbound)
ABSENT = object()
#: the key of `read` under which function_checks notes the globals the functions read
THROUGH_GLOBALS = ("", "globals")
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
        and (
            k.startswith("__")
            and k.endswith("__")
            or (k != "forward" and hasattr(Module, k))
            or k in SHAPE_READS
        )
        for c in own
        for k in c.__dict__
    ):  # (a special method, or one of Module's that Module's own methods may call, or
        # `shape`, which a replayed statement reads without running it: _shape_read)
        return None
    f = next((c.__dict__["forward"] for c in own if "forward" in c.__dict__), None)
    got = _methods(v, own, f)
    if got is None:
        return None
    names, calls, tensors, _, each = got
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
    for name in tensors:  # (self.w: a parameter or buffer, no attribute of a class first;
        # or self.eps: a number, the instance's or its program class's, whose identity the
        # state's check compares, taken as a constant: `numbers`)
        if name in modules or _number_attr(v, name, own) is not None:
            if name in modules:
                return None
            continue
        if name in d or any(name in c.__dict__ for c in mro):
            return None
        if name not in (d.get("_parameters") or {}) and name not in (d.get("_buffers") or {}):
            return None
    for name in calls | each:  # (an attribute of a class or of the instance comes first)
        m = modules.get(name)
        if m is None or name in d or any(name in c.__dict__ for c in mro):
            return None
        if not _called(m, name in each, depth, state, held, checks):
            return None
    return tuple(state), held, checks


def _called(m, iterated, depth, state, held, checks):
    """Whether a forward seen through may call module m (`iterated`: or go over its
    modules, `for block in self.blocks:`, calling each), adding to the state, values and
    checks of the module that holds it what m's program classes add: m a module seen
    through, one of gradcli's own a replayed loop may call (Module.replay_pure), or a
    Sequential (a ModuleList when iterated) of gradcli's with no hooks or forward of its
    own, each of its modules so.  (Module.replay_state compares the containers' tables.)"""
    if program_object(m):
        inner = through_state(m, depth + 1)
        if inner is None:
            return False
        state.extend(inner[0])
        held.extend(inner[1])
        checks.extend(inner[2])
        return True
    if replay_pure(m) and (not iterated or type(m) is Sequential):
        return True
    d = m.__dict__
    if (
        depth >= _DEPTH
        or type(m) not in ((Sequential, ModuleList) if iterated else (Sequential,))
        or "forward" in d
        or any(d.get(k) for k in _HOOKS)
    ):
        return False
    subs = (d.get("_modules") or {}).values()
    return all(s is not None and _called(s, False, depth + 1, state, held, checks) for s in subs)


def literals(v, depth=0):
    """The numbers the forwards of v (a module a replayed loop sees through:
    through_state) and of its modules write: constants its ops may take."""
    if depth > _DEPTH or not isinstance(v, Module):
        return frozenset()
    if not program_object(v):  # (a Sequential or ModuleList: its modules')
        subs = (v.__dict__.get("_modules") or {}).values()
        return frozenset().union(*(literals(m, depth + 1) for m in subs))
    f = next((c.__dict__["forward"] for c in type(v).__mro__ if "forward" in c.__dict__), None)
    own = [c for c in type(v).__mro__ if "__gradcli_user__" in c.__dict__]
    got = _methods(v, own, f)
    out = set()
    if got is not None:  # (self.eps: the numbers of the attributes it reads)
        for g in got[3]:
            out |= THROUGH[g.body][4] | default_numbers(g)
        out |= {x for x in (_number_attr(v, a, own) for a in got[2]) if x is not None}
    for m in (v.__dict__.get("_modules") or {}).values():
        out |= literals(m, depth + 1)
    return frozenset(out)


def _methods(v, own, f):
    """(the globals, the attributes `self.name(...)` calls that are no method, the other
    attributes of `self` read, the functions, the attributes `for x in self.name:` goes
    over) of forward f of module v and of the
    methods of its program classes (`own`) that it calls as `self.name(...)`, and
    those they call, each a method seen through (loop_shapes.THROUGH) with the
    forward's globals and no loop of its own (its draws are the forward's alone),
    else None.  A method comes first when the first class of v's that holds the
    name is one of the program's and the instance's dict does not."""
    if type(f) is not UserFunction:
        return None
    d = v.__dict__
    names, calls, tensors, each = set(), set(), set(), set()
    todo, seen = [f], []
    while todo:
        g = todo.pop()
        if any(g is x for x in seen):
            continue
        got = THROUGH.get(g.body)
        if got is None or g.closure is not g.globals or g.globals is not f.globals:
            return None
        if seen and got[2]:
            return None
        seen.append(g)
        names |= got[0]
        tensors |= got[3]
        each |= got[5]
        for name in got[1]:
            c = next((c for c in type(v).__mro__ if name in c.__dict__), None)
            if name in d or c is None or c not in own:
                calls.add(name)  # (a module's, checked by through_state)
            elif type(c.__dict__[name]) is UserFunction:
                todo.append(c.__dict__[name])
            else:
                return None
    return frozenset(names), frozenset(calls), frozenset(tensors), seen, frozenset(each)


def _number_attr(v, name, own):
    """The number `self.name` reads in a forward of v (an int or float of the instance's
    dict, or of the first of its program classes that holds the name, each checked by
    identity with the module's state), else None."""
    d = v.__dict__
    if name in d:
        x = d[name]
    else:
        c = next((c for c in type(v).__mro__ if name in c.__dict__), None)
        if c is None or c not in own:
            return None
        x = c.__dict__[name]
    return x if type(x) in (int, float) else None


def _loader(variables, name):
    return lambda s: variables.get(name, ABSENT)


def function_checks(name, load, f, read, checks, namespaces):
    """The checks of a variable holding a function of the program that a replayed
    statement sees through (through_shapes.through_def: `loss = loss_fn(X, Y)`, its ops
    noted as the statement's), else None: the same function, and the globals it reads
    checked as the statement's variables are (`checks`: replay_checks.checks_of, a
    function of (loads, values); each under its own name, so a loop that binds the
    name checks it at every iteration), their values taken as what the statement
    reads (in `read`, under (name, global)), and the numbers the function writes as
    numbers it may take as constants (in `read` too); `namespaces` checks its
    namespace calls (replay_checks.namespaces)."""
    got = THROUGH_DEFS.get(f.body) if type(f) is UserFunction and not f.generator else None
    if got is None or f.closure is not f.globals:
        return None
    names, literals, calls, builtins = got
    variables = f.globals.vars
    loads = []
    values = {}
    out = [(name, (load, 2, f, None, None, None, None))]
    for g in sorted(names):
        value = variables.get(g, ABSENT)
        if value is ABSENT:  # (a built-in, gradcli's own `torch`: checked still unbound)
            out.append((g, (_loader(variables, g), 2, ABSENT, None, None, None, None)))
            if g in builtins:
                values[g] = builtins[g]
        else:
            loads.append((g, _loader(variables, g), False, None))
            values[g] = value
    out.extend(checks(tuple(loads), values))
    namespaces(calls, values)
    read.setdefault(THROUGH_GLOBALS, {}).update((g, values[g]) for g, _, _, _ in loads)
    for k, v in values.items():
        read[(name, k)] = v
    for i, v in enumerate(sorted(literals | default_numbers(f), key=repr)):
        read[(name, "literal", i)] = v
    return out


def default_numbers(f):
    """The numbers a function's parameters default to (`eps=1e-05`, `p=2.0`): constants
    its ops may take as the numbers it writes are (computed once, where its `def` ran;
    the function is checked to be the same object before each replayed iteration)."""
    return {v for v in f.defaults.values() if type(v) in (int, float)}


def unsafe_globals(body, through, fail):
    """Raise `fail` (replay_checks.Fail) when a plan cannot take the globals functions seen
    through read (`through`: name -> value) as the statements' variables: a name the
    body binds (a made name, a counter, a loop's target: the function would read a value
    the replay does not bind) or changes with `op=` when it is not a tensor (a number
    the plan takes as a constant); a tensor the body changes in place is read as it is,
    as a variable's."""
    writes = body.writes or frozenset()
    for g, v in through.items():
        if g in writes and (type(v) is not Tensor or g not in body.augmented):
            raise fail(f"a function the statement calls reads `{g}`, which the body changes")


def held(v):
    """What a variable holds, in a Fail's words (the replay's report)."""
    name = type(v).__name__
    if program_object(v):
        return (
            f"an object of the program's class {name} (a module's is seen through when its "
            "forward is made of pure ops' and its modules' calls)"
        )
    if isinstance(v, UserFunction):
        return "a function of the program (its calls replay by themselves if its body qualifies)"
    if isinstance(v, Module):
        return f"a {name} whose forward is not one op declared pure, or has hooks"
    return f"a value of type {name} that the replay does not check"
