"""The checks a replayed loop body's plan makes before each iteration (language/replay_plan.py
makes the plan, language/replay.py runs the checks): per variable a statement reads, what it
must still hold (`checks_of` for a replayed statement, `kinds` for one run as compiled), and
whether a method call may run as compiled in a replayed iteration (`compiled_call`, `keeps`)."""

from __future__ import annotations

import math
from types import FunctionType

from ..runtime.limits import SAMPLE
from ..core.tensor import Tensor
from ..library.nn.module import Module, replay_pure, replay_state
from ..library.values import program_object
from ..library.values import Module as Namespace
from .replay_through import function_checks, held as _held
from .replay_through import literals, through_state


class Fail(Exception):
    pass


def compiled_call(v, attr):
    """Whether `v.attr(numbers)` may run as compiled in a replayed iteration: v is an
    object of gradcli's own class that declares `replay_calls` (its methods run no code
    of the program), the method its class's (for a module: every module in it
    gradcli's own)."""
    if attr in (getattr(v, "__dict__", None) or ()):
        return False
    if program_object(v):  # (a module the loop sees through, its method Module's: each
        # module of the program's classes in it seen through, none overriding Module's)
        return (
            isinstance(v, Module)
            and hasattr(Module, attr)
            and all(not program_object(m) or through_state(m) is not None for m in v.modules())
            and all(
                attr not in c.__dict__
                for m in v.modules()
                for c in type(m).__mro__
                if "__gradcli_user__" in c.__dict__
            )
        )
    if not getattr(type(v), "replay_calls", False):
        return False
    if isinstance(v, Module):
        return not any(program_object(m) for m in v.modules())
    return True


def keeps(v, attr):
    """Whether the call `v.attr(numbers)` (`compiled_call` allowed it) leaves every check of a
    plan as it found it: its class declares the method in `replay_keeps` (an
    optimizer's `step`: the parameters' values change in place, not their tensors,
    dtypes, shapes or graphs, nor any module, list or name), so the iteration after
    it may be steady and no assignment after it is checked again (`_rechecked`)."""
    return not program_object(v) and attr in getattr(type(v), "replay_keeps", ())


def read_all(loads, s):
    """{name: value} of the variables of `loads` ((name, load, ...)), or None if one is
    unbound (its statement then raises as compiled)."""
    try:
        return {x[0]: x[1](s) for x in loads}
    except Exception:
        return None


def checks_of(loads, read):
    """Per variable a replayed statement reads: (load, kind, value, ...) for `_check`: a
    float tensor (the same object, dtype, shape, requires_grad, grad_fn), a number (taken
    as a constant: so not one the body changes, `lr *= 0.9` between two statements), or
    gradcli's own value of that name (`torch`, `mean`)."""
    if read is None:
        raise Fail
    for name, load, changed, own in loads:
        v = read[name]
        if type(v) is Tensor and v.data.dtype.kind in "fiub":
            yield name, (load, 0, v, v.requires_grad, v.grad_fn, v.data.dtype, v.data.shape)
        elif type(v) in (int, float, bool) and not changed:
            yield name, (load, 1, v, type(v), negative_zero(v), None, None)
        elif (own is not None and v is own) or type(v) is Namespace:  # (a namespace
            # cannot be changed: the same object is the same functions)
            yield name, (load, 2, v, None, None, None, None)
        elif replay_pure(v) or through_state(v) is not None:
            # gradcli's own module, or one of the program's classes whose forward the loop
            # sees through (replay_through.py): the same object, in the same state (its
            # parameters, buffers, attributes; Module.replay_state; its program classes'
            # attributes and its forwards' globals), its tensors checked as variables' are
            # and taken as what the statement reads
            state, held, found = replay_state(v)
            yield from program_classes(name, load, v, state, held)
            for i, x in enumerate(sorted(literals(v), key=repr)):  # (its forwards' numbers)
                read[(name, "literal", i)] = x
            for path, t in found:
                read[(name, path)] = t
                if type(t) is Tensor:
                    yield (
                        (name, path),
                        (
                            lambda s, t=t: t,
                            0,
                            t,
                            t.requires_grad,
                            t.grad_fn,
                            t.data.dtype,
                            t.data.shape,
                        ),
                    )
        else:  # a function the statement sees through (replay_through.py), or Fail
            got = function_checks(name, load, v, read, checks_of, namespaces)
            if got is None:
                raise Fail(f"`{name}` holds {_held(v)}")
            yield from got


def program_classes(name, load, v, state, held):
    """The checks of the module v (Module.replay_state's `state` and `held`), with those
    of its program classes and its forwards' globals when it is one of the program's
    classes (replay_through.through_state)."""
    got = through_state(v)
    if got is not None:
        state = state + got[0]
        held = held + got[1]
    yield name, (load, 4, v, state, held, None, None)
    if got is not None:
        yield from got[2]


def namespaces(calls, read):
    """Fail unless each call `name.a.b.attr(...)` of a statement
    (loop_shapes.namespace_calls: (name, (a, b), attr, the language's built-in of that
    name)) is a tensor's method `x.attr(...)` or the built-in op's function reached
    through gradcli's namespaces (`torch.mean`, `F.cross_entropy`,
    `torch.nn.functional.nll_loss`; a namespace's own function of that name declares the
    op it calls, as `F.softmax`'s `op_function`).  (A namespace cannot be changed: the
    same objects, checked, hold the same functions.)"""
    for name, path, attr, fn in calls:
        v = read.get(name)
        if type(v) is Tensor and not path:
            continue
        for a in path:
            v = v.members.get(a) if type(v) is Namespace else None
        got = v.members.get(attr, fn) if type(v) is Namespace else None
        if fn is None or (got is not fn and getattr(got, "op_function", None) != attr):
            raise Fail(f"`{name}.{attr}` is not a pure op's function")


def kinds(loads, read):
    """Per variable a statement run as compiled reads: a check that it still holds a
    tensor, a number or gradcli's own value (so the statement runs no code of the
    program, which could see a made name)."""
    if read is None:
        raise Fail
    for name, load, changed, own in loads:
        v = read[name]
        if type(v) is Tensor:
            yield name, (load, 3, (Tensor,), None, None, None, None)
        elif type(v) in (int, float):
            yield name, (load, 3, (int, float), None, None, None, None)
        elif own is not None and v is own:
            yield name, (load, 2, v, None, None, None, None)
        elif not program_object(v) and getattr(type(v), "replay_calls", False):
            yield name, (load, 3, (type(v),), None, None, None, None)
        elif through_state(v) is not None:  # (its methods gradcli's own: `compiled_call`)
            state, held, _ = replay_state(v)
            yield from program_classes(name, load, v, state, held)
        elif type(v) is list and len(v) < SAMPLE and all(type(x) is Tensor for x in v):
            yield name, list_check(load, v)  # (`for p in params:`, a list of tensors)
        else:
            raise Fail(f"`{name}` holds {_held(v)}")


def library_checks(what, loads, read):
    """The checks of a statement calling a library function that declares
    `replay_compiled` (loop_shapes._library_call: `what`): the variable naming it holds
    it, or a namespace whose attributes reach it (the same object, checked); the
    variables whose `parameters()` it passes gradcli's own modules or modules seen
    through whose `parameters` is Module's (`compiled_call`); each variable it reads a
    tensor, a number, a list of tensors or such a module (`kinds`); else Fail."""
    if read is None:
        raise Fail
    name, path, attr, params = what
    v = root = read.get(name)
    for a in path + ((attr,) if attr is not None else ()):
        v = v.members.get(a) if type(v) is Namespace else None
    if type(v) is not FunctionType or v.__dict__.get("replay_compiled") is not True:
        raise Fail(f"`{name}` holds {_held(root)}")
    for recv in params:
        m = read.get(recv)
        if not (
            isinstance(m, Module)
            and type(m).parameters is Module.parameters
            and compiled_call(m, "parameters")
        ):
            raise Fail(f"`{recv}` holds {_held(m)}")
    load = next(x[1] for x in loads if x[0] == name)
    yield name, (load, 2, root, None, None, None, None)
    yield from kinds(tuple(x for x in loads if x[0] != name), read)


def list_check(load, v):
    """The check that a variable holds a list of the same items as v (replay._check's
    kind 6: its items the same objects; a list made anew for each call, `sgd([w, b],
    lr, bs)`, too)."""
    return (load, 6, v, list(map(id, v)), tuple(v), None, None)


def once(checks):
    """The checks, (name, check) each, one per variable and what it checks: the same
    check made for two statements once, and a check of a variable's type (kind 3) left
    out where another check of it (the same object, an equal number, gradcli's own
    value) implies it.  (Each statement reads the same value of a variable: what the
    body changes, it changes in place, loop_shapes.py.)"""
    strict = {name for name, c in checks if c[1] != 3}
    out, seen = [], set()
    for name, c in checks:
        kind = c[1]
        if kind == 3 and name in strict:
            continue
        key = (name, kind, id(c[2]) if kind != 1 else (c[2], c[3], c[4]))
        if key not in seen:
            seen.add(key)
            out.append(c)
    return tuple(out)


def negative_zero(v):
    return type(v) is float and v == 0 and math.copysign(1.0, v) < 0
