"""What the code of the fast tier (fast_tier.py) calls at run time: the operators'
functions for the cases its guards leave out, the reading of a global or a built-in,
calls that are not a fast function's, the loop limits, and `fail`, which turns what a
generated function raised into the error the closure compiler would have raised there.

Generated code names these under keys that no program can write (`@binary` ...), in
the one namespace of its module; it has no Python built-ins (`__builtins__` is empty),
so a program reaches nothing but what is listed here."""

from __future__ import annotations

import opcode
import sys
import weakref
from types import FunctionType

from ..runtime import context
from ..core.tensor import Tensor
from ..library.inplace import AUGMENTED
from ..runtime.errors import GradError, GradNameError, GradRuntimeError
from ..runtime.limits import SAMPLE, depth_exceeded
from . import runtime as rt
from .callsites import call_other
from .expressions import _unknown
from .functions import PendingFrames, Scope, UserFunction, call_depth, frames
from .invoke import call, call_failed
from .iteration import iterate, sample, step
from .positions import located
from .state import state
from .statements import _refusing

_MISSING = object()
_FOR_ITER = opcode.opmap["FOR_ITER"]
#: the file name of generated code, and the prefix of a fast function's code name (the
#: rest is the function's name: a call chain names the callee)
FAST_FILE = "<gradcli fast tier>"
FAST_DEF = "@def "
_POSITIONS = weakref.WeakKeyDictionary()  # code object -> its instructions' (line, col)


#: the code of a nested function's Python function -> its site (fast_closures.
#: nested_function's `site`, whose second item is the function standing for it: same
#: name, signature, scopes and file), for an error or a read of the running frames there
SITES = weakref.WeakKeyDictionary()


def function_of(me, code):
    """The UserFunction running generated code `code` (`me`: its `@me`, None for a
    nested function's or a loop's), None for a loop of the program."""
    if me is None:
        site = SITES.get(code)
        if site is not None:
            return site[1]
    return me


SELF_CALLED = " self"  # (the name's end of a recursive function's second function)


def fast_name(code):
    """The function's name if `code` is a fast function's, else None."""
    if code.co_filename == FAST_FILE and code.co_name.startswith(FAST_DEF):
        return code.co_name[len(FAST_DEF) :].split(" ")[0]
    return None


def global_missing(gs, builtins, name, line, col, around=()):
    """A global the program has not bound: the built-in of that name, or NameError
    (`around`: the names of the functions it is read in, for the error's hint)."""
    v = builtins.get(name, _MISSING)
    if v is _MISSING:
        raise _unknown(name, gs, builtins, line, col, around)
    return v


def plain_call(fn, args, name, line, col, kwargs=None, kwpos=None):
    """fn(*args) for a callee that is not a fast function, as callsites.function_site
    calls it (the line is the call's while it runs); with keywords, fn(*args,
    **kwargs) as calls.py's general call makes it."""
    state.line = line
    if kwargs is not None:
        return call(fn, args, kwargs, name, line, col, kwpos)
    if type(fn) is UserFunction or type(fn) is FunctionType:
        try:
            return fn(*args)
        except Exception as e:
            return call_failed(e, fn, list(args), {}, name, line, col, {})
    return call_other(fn, list(args), name, line, col, {})


def frame_call(fn, args, name, line, col, kwargs=None, kwpos=None):
    """plain_call from inside a fast function: the fast functions running there (this
    one and those that called it directly, which UserFunction.run did not enter) are
    the running frames the callee sees (inspect.currentframe), each with the variables
    it has bound (`running`, made only if the callee reads the frames)."""
    return framed(sys._getframe(1), plain_call, fn, args, name, line, col, kwargs, kwpos)


def framed(f, run, *args):
    """run(*args) called from the fast function running in Python frame f, with the
    fast functions running there among the running frames (PendingFrames)."""
    mark = PendingFrames(running, f, call_depth.n, len(frames))
    frames.append(mark)
    try:
        return run(*args)
    finally:
        del frames[mark.start :]


def running(f, depth):
    """The entries of `frames` for the fast functions running in Python frame f and
    those that called it directly, outermost first."""
    fast = []
    while f is not None and fast_name(f.f_code) is not None:
        fast.append(f)
        f = f.f_back
    out = []
    for f in reversed(fast):
        v = f.f_locals
        me = function_of(v["@me"], f.f_code)
        local = {k: x for k, x in v.items() if k[:1] != "@"}
        out.append((me, Scope(local, me.globals, depth, me.closure)))
    return out


#: a generator expression's loop (fast_comprehensions.py): an error out of a generator
#: it takes its items from goes on to where its own items are asked for
PASS_ON = 1 << 22
#: an attribute whose node ends this far past its column reads an object's own variable
#: as Python reads it (fast_objects.py: no class of the object's plain class has that
#: name): the AttributeError Python raises when the object has no such variable becomes
#: the closure compiler's error for that read (runtime.get_attr's words and hint)
OWN_ATTR = 1 << 21
#: a read of the program's variable as a dict's item (fast_ast.load: no built-in has its
#: name): the KeyError when the program has not bound it becomes global_missing's
#: NameError (the names around the read for its hint kept in GLOBAL_AROUND)
GLOBAL_READ = 1 << 20
#: code object of generated code -> {(line, col) of such a read: the names around it}
GLOBAL_AROUND = weakref.WeakKeyDictionary()


def position(code, lasti):
    """(line, col, what the instruction is: OWN_ATTR for an own variable's read,
    PASS_ON for a generator expression's loop, else 0) of the instruction at byte
    offset `lasti` of generated code."""
    table = _POSITIONS.get(code)
    if table is None:
        table = _POSITIONS[code] = [(p[0], p[2], _marked(p)) for p in code.co_positions()]
    return table[lasti // 2]


def _marked(p):
    if p[2] is None or p[3] is None:
        return 0
    mark = p[3] - p[2]
    return mark if mark in (OWN_ATTR, PASS_ON, GLOBAL_READ) else 0


def fail(e, me):
    """The error to raise for `e`, caught by the generated function (`me`: the
    UserFunction it runs, None for a loop of the program): placed where the
    instruction that raised it stands, in a call chain when it came out of a fast
    function called there, its origin the function's file."""
    tb = e.__traceback__
    if tb is None:
        return e
    line, col, mark = position(tb.tb_frame.f_code, tb.tb_lasti)
    nxt = tb.tb_next
    if type(e) is UnboundLocalError and nxt is None:
        e = GradNameError(str(e), line, col, type_name="UnboundLocalError")
    elif (
        type(e) is RuntimeError
        and nxt is None
        and tb.tb_frame.f_code.co_code[tb.tb_lasti] == _FOR_ITER
    ):
        # a set or dict changed while a loop goes through it (fast_calls.iterated), in
        # the words of iteration.iterate's `live`
        e = GradRuntimeError(str(e))
    elif mark == OWN_ATTR and type(e) is AttributeError and nxt is None:
        e = _no_variable(e)
    elif mark == GLOBAL_READ and type(e) is KeyError and nxt is None:
        e = _unbound(tb.tb_frame, e.args[0], line, col)
    elif mark == PASS_ON and isinstance(e, GradError) and e.pending_call is not None:
        return e
    # (an error out of a function called there: a step of the call chain, GradError.at)
    err = located(e, line, col)
    me = function_of(me, tb.tb_frame.f_code)
    if me is not None and isinstance(err, GradError):  # as UserFunction.run does
        if err.origin is None:
            err.origin = me.origin
        for frame in err.calls:
            if frame[0] is None:
                frame[0] = me.origin
        err.left(me.name, state.origin)
    return err


def _unbound(frame, name, line, col):
    """global_missing's NameError for the read of the program's variable `name` at
    (line, col) that found it unbound in the fast function running in `frame`."""
    v = frame.f_locals
    around = GLOBAL_AROUND.get(frame.f_code, {}).get((line, col), ())
    try:
        global_missing(v["@gs"], v["@builtins"], name, line, col, around)
    except GradError as err:
        return err
    # (not reached: no built-in has the name)
    return GradNameError(f"name '{name}' is not defined", line, col)


def _no_variable(e):
    """The closure compiler's error for the read of an own variable that Python found
    missing (e: its AttributeError): runtime.get_attr's, which finds no variable and no
    class attribute of that name either (nothing of the program runs there)."""
    try:
        rt.get_attr(e.obj, e.name)
    except GradError as err:
        return err
    return e  # (not reached: the read had found no variable and no class attribute)


def augmented_op(op_sym):
    """`old op= b` for operands the generated guard leaves out, as updates.augmented
    computes it (a tensor target in place)."""
    binary = rt.binary_op(op_sym, augmented=True)
    inplace = _refusing(AUGMENTED.get(op_sym + "="), op_sym)

    if inplace is None:
        return binary

    def run(old, b):
        if type(old) is Tensor:
            return inplace(old, b)
        return binary(old, b)

    return run


def helpers():
    """The namespace of generated code: what it calls, under names no program has."""
    return {
        "__builtins__": {},
        "@type": type,
        "@int": int,
        "@float": float,
        "@bool": bool,
        "@str": str,
        "@truth": rt.truth,
        "@unary": rt.unary,
        "@global_missing": global_missing,
        "@plain_call": plain_call,
        "@frame_call": frame_call,
        "@depth_exceeded": depth_exceeded,
        "@call_depth": call_depth,
        "@fail": fail,
        "@iterate": iterate,
        "@step": step,
        "@sample": sample,
        "@SAMPLE": SAMPLE,
        "@context": context,
        "@state": state,
        "@UserFunction": UserFunction,
    }
