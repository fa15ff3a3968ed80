"""The items of a replayed loop body's bookkeeping (language/replay_plan.py makes the plan):
`total += loss.item()` and `losses.append(...)` (`bookkeeping_item`), a no_grad block of steps
`w -= lr * w.grad` with its entries (`block_item`, `updates`), and `zero_grad()` of gradcli's
own module or optimizer (`zero_grad`)."""

from __future__ import annotations

from typing import Any

from ..runtime.limits import SAMPLE
from ..core.tensor import Tensor
from ..library.nn.module import Module, replay_state
from ..library.scalar_steps import ARRAY_STEPS, SCALED_STEPS, number_factor
from ..library.values import GradModeContext
from ..library.optim import Optimizer
from .replay_checks import Fail, checks_of, compiled_call, kinds, list_check
from .replay_records import APPEND, AS_COMPILED, ITEM, NO_GRAD
from .replay_records import ARRAY_STEP, CLEAR_GRAD, EACH, ENTRY_AS_COMPILED, STEP, ZERO_GRAD
from .replay_records import DATA_STEP, DIV_STEP, LIVE_STEP
from .replay_records import Append, AsCompiled, Item, NoGrad
from .replay_through import held as _held


def bookkeeping_item(kind, what, extra, read, checks, i, line):
    """The item of `total op= name.item()` (Item), or of `recv.append(...)`
    (loop_shapes._append) when recv holds a list (a check that it still holds one),
    else Fail."""
    if kind == "item":
        checks.extend(kinds(extra[2], read))
        return Item(ITEM, extra[0], extra[1], what[1], extra[3], i, line, extra[4])
    recv, name, _ = what
    held, key = read and read.get(recv), extra[4]
    if key is not None:  # (a dict of str keys: its lookup of the key runs no code)
        if type(held) is not dict or any(type(k) is not str for k in held):
            raise Fail(f"`{recv}` holds {_held(held)}")
        held = held.get(key)
    if read is None or type(held) is not list:
        raise Fail(f"`{recv}` holds {_held(held)}")
    checks.append(
        (
            recv,
            (extra[3] or extra[0], 3, (dict if key is not None else list,), None, None, None, None),
        )
    )
    return Append(APPEND, extra[0], name, extra[1], i, line)


def block_item(kind, block, loads, seen, checks, closure):
    """The item of a no_grad block (`updates`: its `seen` the values read and the `with`
    expression's) or of a loop of the body (`each`, `for p in params: p.grad = None`: the
    values read; run in the body's grad mode): `updates`, else AsCompiled."""
    read, head = seen if kind == "updates" else (seen, None)
    checks.extend(kinds(loads, read))
    if kind == "updates" and (type(head) is not GradModeContext or head.enabled):
        return AsCompiled(AS_COMPILED, closure)
    got = updates(block, loads, read, checks)
    if got is None:
        return AsCompiled(AS_COMPILED, closure)
    return got if kind == "updates" else got._replace(off=False)


def updates(block, loads, read, checks):
    """The item of a no_grad block (loop_compile._block) whose `with` gave gradcli's
    no_grad: NoGrad, with per statement an entry: (STEP, w, v, y,
    op, closure, line) for `w op= factor * v.grad` where w is a 0-d float tensor and
    the factor a number (the step scalar_steps.step_by makes, y its number_factor);
    (ARRAY_STEP, w, v, y, ufunc, closure, line) for such a step where w has dims
    (scalar_steps.array_step, y the factor as written, `w.sub_(factor * v.grad)` too);
    (CLEAR_GRAD, w, line) for `w.grad = None`; (ZERO_GRAD, w, closure, line) for
    `w.grad.zero_()` (scalar_steps.zero_grad_array); (EACH, where, store, params,
    entries per param) for `for p in model.parameters(): ...` of gradcli's own module
    (`_each`); (ENTRY_AS_COMPILED, closure) for any other statement (as compiled).  The
    variables the entries take as they are now get checks (`checks`).  None when a
    `for` loop of the block is not one `_each` takes (the block then runs as compiled)."""
    kept = set()
    changed = {name for name, _, ch, _ in loads if ch}
    mine = []  # (the checks of the entries: made only if the block is replayed)
    entries = _entries(block[1], loads, read, mine, changed, kept)
    if entries is None:  # (a loop the replay cannot run: the block as compiled)
        return None
    checks.extend(mine)
    checks.extend(checks_of(tuple(x for x in loads if x[0] in kept), read))
    return NoGrad(NO_GRAD, tuple(entries))


def _entries(stmts, loads, read, checks, changed, kept):
    """The entries of `updates` for these statements ((closure, line, shape) each);
    `kept` gets the names whose values they take."""
    entries = []
    for fn, line, shape in stmts:
        entry: tuple = (ENTRY_AS_COMPILED, fn)
        if shape is not None and shape[0] in ("none", "zero"):
            v = read.get(shape[1])
            if type(v) is Tensor and v.data.dtype.char in "fd":
                entry = (CLEAR_GRAD, v, line) if shape[0] == "none" else (ZERO_GRAD, v, fn, line)
                kept.add(shape[1])
        elif shape is not None and shape[0] == "each":
            entry = _each(shape, loads, read, checks, changed, kept)
            if entry is None:
                return None
        elif shape is not None:
            kind, target, op, (how, f), name, divisor = shape
            w, v = read.get(target), read.get(name)
            if divisor is not None:  # (`factor * v.grad / divisor`: DIV_STEP, or as compiled)
                entry = _divided(kind, w, v, (how, f), divisor, read, changed, op, fn, line)
                if entry[0] == DIV_STEP:
                    kept.update(x for x in (target, name, f, divisor[1]) if type(x) is str)
                entries.append(entry)
                continue
            live = None
            if how != "number":  # (a name, or its negation: Python's)
                kept_f, f = (f, read.get(f)) if f not in changed else (None, None)
                if f is None:  # (a number the iteration changes: read as the step runs)
                    live = _live(shape[3][1], loads, read, w)
                    if live is not None and how == "-name":
                        live = _negated(live)
                elif how == "-name":
                    f = -f if type(f) in (int, float) else None
            else:
                kept_f = None
            if kind == "data":  # (`w.data op= factor * v.grad`: data_step, or as compiled)
                entry = _data_entry(w, v, f, live, ARRAY_STEPS.get(op), fn, line)
                if entry[0] == DATA_STEP:
                    kept.update(x for x in (target, name, kept_f) if x is not None)
                entries.append(entry)
                continue
            step = SCALED_STEPS.get(op)
            if live is not None and step is not None and type(v) is Tensor:
                if v.data.dtype.char in "fd":
                    entry = (LIVE_STEP, w, v, live, ARRAY_STEPS[op], fn, line)
                    kept.update((target, name))
            if (
                step is not None
                and type(w) is Tensor
                and type(v) is Tensor
                and v.data.dtype.char in "fd"
                and type(f) in (int, float)
            ):
                y = number_factor(f, w.data.dtype) if not w.data.ndim else f
                if y is not None:
                    entry = (
                        (STEP, w, v, y, step, fn, line)
                        if not w.data.ndim
                        else (ARRAY_STEP, w, v, y, ARRAY_STEPS[op], fn, line)
                    )
                    kept.update(x for x in (target, name, kept_f) if x is not None)
        entries.append(entry)
    return tuple(entries)


def _divided(kind, w, v, factor, divisor, read, changed, op, fn, line):
    """The entry of `w op= factor * v.grad / divisor` (DIV_STEP: w a float tensor with
    dims, v a tensor, the factor and the divisor numbers the iteration does not change;
    else the statement as compiled)."""
    y, z = (_constant(x, read, changed) for x in (factor, divisor))
    ufunc = ARRAY_STEPS.get(op)
    if (
        kind != "step"
        or ufunc is None
        or y is None
        or z is None
        or type(w) is not Tensor
        or not w.data.ndim
        or type(v) is not Tensor
        or v.data.dtype.char not in "fd"
    ):
        return (ENTRY_AS_COMPILED, fn)
    return (DIV_STEP, w, v, y, z, ufunc, fn, line)


def _constant(spec, read, changed):
    """The number a step's factor or divisor ((how, what): loop_compile._factor) is, when
    the iteration does not change it, else None."""
    how, x = spec
    if how != "number":
        x = read.get(x) if x not in changed else None
        if how == "-name" and type(x) in (int, float):
            x = -x
    return x if type(x) in (int, float) else None


def _data_entry(w, v, f, live, ufunc, fn, line):
    """The entry of `w.data op= factor * v.grad` (DATA_STEP: w a float tensor with dims,
    v a tensor, the factor a number or `live`'s load; else the statement as compiled)."""
    if (
        ufunc is None
        or type(w) is not Tensor
        or not w.data.ndim
        or type(v) is not Tensor
        or v.data.dtype.char not in "fd"
        or (live is None and type(f) not in (int, float))
    ):
        return (ENTRY_AS_COMPILED, fn)
    return (DATA_STEP, w, v, f, live, ufunc, fn, line)


def _negated(load):
    """A number's load giving its negation (`-lr`, as Python negates it), or None."""

    def negated(s):
        v = load(s)
        return -v if type(v) in (int, float) else None

    return negated


def _live(name, loads, read, w):
    """The load of the number `name` holds for a step of w, a float tensor with dims
    (its factor: LIVE_STEP, the number read as the step runs), else None."""
    if type(read.get(name)) not in (int, float) or type(w) is not Tensor or not w.data.ndim:
        return None
    return next((x[1] for x in loads if x[0] == name), None)


#: the keyword arguments of a zero_grad that sets each .grad to None (its default)
_CLEARING = ((), (("set_to_none", "true"),))


def zero_grad(what, loads, read, checks, line):
    """`model.zero_grad()` of gradcli's own module whose `zero_grad` is Module's (each
    parameter's .grad set to None), its state checked as a called module's (so its
    parameters are the same), or `opt.zero_grad()` of gradcli's own optimizer (its
    groups checked: Optimizer.replay_groups): NoGrad of CLEAR_GRAD entries, no program
    code run (no Check after it); else None (the call runs as compiled)."""
    recv, method, nargs, keywords = what
    m = read.get(recv)
    load = next((x[1] for x in loads if x[0] == recv), None)
    if load is None or nargs or method != "zero_grad" or keywords not in _CLEARING:
        return None
    if isinstance(m, Optimizer):  # (its groups checked: Optimizer.replay_groups)
        if type(m).zero_grad is not Optimizer.zero_grad:
            return None
        state = m.replay_groups()
        params = [p for _, _, items in state[2] for p in items]
        check: tuple = (load, 5, m, state, None, None, None)
    elif (
        isinstance(m, Module)
        and type(m).zero_grad is Module.zero_grad
        and type(m).parameters is Module.parameters
    ):
        params = m.parameters()
        state, held, _ = replay_state(m)
        check = (load, 4, m, state, held, None, None)
    else:
        return None
    if any(type(p) is not Tensor for p in params):
        return None
    checks.append((recv, check))
    return NoGrad(NO_GRAD, tuple((CLEAR_GRAD, p, line) for p in params))


def _each(shape, loads, read, checks, changed, kept):
    """The entry of `for p in m.parameters(): ...` (loop_shapes._simple's "each" shape)
    when m is gradcli's own module whose `parameters` is Module's (its parameters are
    those of the module's state, checked as a called module's is: `replay_state`), or
    of `for p in params: ...` over a list of tensors (checked by identity and items,
    `list_check`), with fewer than SAMPLE of them (the loop then never looks at the
    run's memory): (EACH, the loop's (line, column), its target's store, the
    parameters, per parameter the entries of the body with the target holding it), else
    None."""
    _, target, recv, method, store, inner, at = shape
    if type(recv) is tuple:  # `for p in (w, b):` each variable's tensor (checked: kept)
        return _looped(shape, [read.get(name) for name in recv], loads, read, checks, changed, kept)
    m = read.get(recv)
    load = next((x[1] for x in loads if x[0] == recv), None)
    if load is None:
        return None
    if method is None:  # a list of tensors
        if type(m) is not list:
            return None
        params = m
        check: Any = list_check(load, m)
    elif (
        not isinstance(m, Module)
        or method != "parameters"
        or type(m).parameters is not Module.parameters
        or not compiled_call(m, method)
    ):
        return None
    else:
        params = m.parameters()
        check = None
    got = _looped(shape, params, loads, read, checks, changed, kept)
    if got is None:
        return None
    if check is None:
        state, held, _ = replay_state(m)
        check = (load, 4, m, state, held, None, None)
    checks.append((recv, check))
    return got


def _looped(shape, params, loads, read, checks, changed, kept):
    """`_each`'s entry over these tensors (`kept` gets the names the entries take; for a
    display `(w, b)`, its names too: their tensors checked by identity), else None."""
    _, target, recv, _, store, inner, at = shape
    if len(params) >= SAMPLE or any(type(p) is not Tensor for p in params):
        return None
    per, names = [], set()
    for p in params:
        sub = _entries(inner, loads, dict(read, **{target: p}), checks, changed, names)
        if sub is None:
            return None
        per.append(sub)
    kept.update(names - {target})
    if type(recv) is tuple:
        kept.update(recv)
    return (EACH, at, store, tuple(params), tuple(per))
