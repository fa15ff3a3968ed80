"""Noting an iteration of a replayed loop body (language/replay.py `Run._record`): the
body run as compiled while the engine notes each op (`noting`), what each statement
read, and whether noting would be futile (`futile`: a plan known to fail)."""

from __future__ import annotations

from ..runtime import context
from ..engine import replay as engine
from ..library.nn.module import Module, replay_pure, replay_state
from .replay_checks import read_all
from .replay_plan import MODULE_STATES
from .replay_numbers import NO_GRAD
from .replay_through import held, through_state


def _block_seen(block, loads, s):
    """(the values of the variables a no_grad block reads, the value of its `with`
    expression when each name in it holds gradcli's own value, else None: the
    program's own code is not run an extra time)."""
    read = read_all(loads, s)
    if read is None or any(
        own is None or read[name] is not own for name, _, _, own in loads if name in block[2]
    ):
        return read, None
    try:
        return read, block[0](s)
    except Exception:
        return read, None


def _held(load, s):
    """The value of a variable, None when it is unbound."""
    try:
        return load(s)
    except Exception:
        return None


def _states(read):
    """(module, Module.replay_state's state and the values it holds, so no identity is
    reused meanwhile) of each module among a statement's values that holds a module
    whose forward's ops depend on its `training` flag (Module.replay_training)."""
    out = []
    for v in read.values():
        if isinstance(v, Module):
            state, held, _ = replay_state(v)
            if any(type(m).replay_training for m in (v, *held) if isinstance(m, Module)):
                out.append((v, state, held))
    return tuple(out)


#: the values a replayed statement's variable may never hold (replay_checks.checks_of)
_CONTAINERS = (list, tuple, dict, set, str)


def futile(body, s):
    """Why a noted iteration would give no plan, seen before it runs, else None: a
    replayed statement reads a module a replayed loop may not call (neither one of
    gradcli's whose forward is a pure op, nor one it sees through) or a list, tuple,
    dict, set or string (`xb = batches[i]`): the Fail of replay_checks.checks_of,
    which noting would find only after running the iteration with the recorder (a loop
    of BatchNorm's modules, run once per epoch)."""
    for kind, _, _, extra, _, _ in body.items:
        if kind != "assign":
            continue
        call = extra[6]  # (a call `name(args)` of a variable: a def's, replay_defs.py, whose
        # arguments may be what its own plan takes; or a module's, `logits, _ = model(xb)`)
        for name, load, _, _ in extra[2]:
            if call is not None and name != call[0]:
                continue
            try:
                v = load(s)
            except Exception:
                continue
            if (type(v) in _CONTAINERS and call is None) or (
                isinstance(v, Module) and not replay_pure(v) and through_state(v) is None
            ):
                return f"`{name}` holds {held(v)}"
    return None


def noting(body, s, seen, drew):
    """The body run as compiled, the engine noting its ops (replay.Run._record): (its signal,
    the notes, the draws made before its first statement that is neither an
    assignment nor an `if`, whose condition was tested before the iteration)."""
    first = None
    tail = None
    with engine.recording() as rec:
        for i, (kind, what, closure, extra, line, col) in enumerate(body.items):
            if first is None and kind != "assign" and kind != "guard":
                first = len(drew)
            if kind == "compiled":  # (a tail, run as compiled after the recording)
                tail = i
                break
            at = len(drew)
            if kind == "assign":
                read = read_all(extra[2], s)
                if read is not None:  # (the modules' state as the statement reads them)
                    read[MODULE_STATES] = _states(read)
                start = len(rec.notes)
                r = closure(s)
                out = extra[1](s)
                seen[i] = (
                    (start, len(rec.notes)),
                    read,
                    rec.index_of(out),
                    out,
                    context.current.grad_enabled,
                )
            elif kind == "number":  # (its ops made under no_grad: its last op's value)
                read = read_all(extra[2], s)
                if read is not None:
                    read[MODULE_STATES] = _states(read)
                start = len(rec.notes)
                r = closure(s)
                end = len(rec.notes)
                seen[i] = ((start, end), read, end - 1 if end > start else None, None, NO_GRAD)
            else:
                if kind == "backward":
                    try:
                        root = extra[0](s)
                    except Exception:
                        root = None
                    seen[i] = (rec.index_of(root), getattr(root, "grad_fn", None))
                elif kind == "updates" and what is not None:  # (and its `with` value)
                    seen[i] = _block_seen(what, extra, s)
                elif kind in ("item", "append"):
                    seen[i] = read_all(extra[2], s)
                elif kind == "batch":
                    seen[i] = read_all(extra[1], s)
                elif kind == "append_call":  # (the call's variables, grad mode, the list)
                    seen[i] = (
                        read_all(extra[1], s),
                        context.current.grad_enabled,
                        _held(extra[0], s),
                    )
                elif kind != "guard":
                    seen[i] = read_all(extra, s)
                r = closure(s)
                if kind == "batch":  # (its tensor, a variable's for the statements
                    # after it: not an op's output, replay_plan._swapped)
                    got = read_all(((what, extra[0]),), s)
                    if got is not None:
                        rec.ids.pop(id(got[what]), None)
            if r is not None:
                return r, None, first
            for x in range(at, len(drew)):
                drew[x] = drew[x] + (i,)
    if tail is not None:  # (its draws, after the first other statement, give no plan)
        r = body.tail(s)
        if r is not None:
            return r, None, first
    return None, rec.notes, len(drew) if first is None else first
