"""What the code of the fast tier's objects (fast_objects.py) calls at run time: for
each operation, what the closure compiler does for the cases the generated guards
leave out, and the operators' functions with the plain class's case taken first."""

from __future__ import annotations

import sys
from types import FunctionType

from ..core.printing import show, show_str
from ..core.tensor import Tensor
from ..runtime.errors import GradError, GradTypeError
from ..library.values import python_protocol
from ..library.values import METHODS, BoundMethod
from ..library.values import Module as Namespace
from ..library.numpy_ns import NUMPY_VALUES
from ..library.torch_ns import namespace
from ..library.nn.module import Module
from . import runtime as rt
from .arity import MethodName
from .callsites import _other_method
from .calls import backward_hint
from .classes import NAMES, USER, direct_name, is_user_class, library_method, plain_class_attr
from .classes import plain_lookup
from . import bitwise
from .datamodel import _DUNDER, BINARY, NO, _sign, refused
from .fast_support import framed as in_frames
from .functions import UserFunction, call_user
from .invoke import call, call_failed


def attr_reader(attr):
    """`o.attr` for what the generated guard leaves out."""

    def read(o):
        return rt.get_attr(o, attr)

    return read


_LIBRARY: dict = {}  # type -> library_object(type)
#: the types _LIBRARY keeps, at most (then forgotten: a program may make classes in a loop)
_LIBRARY_KINDS = 256


def library_object(t):
    """Whether `o.name` of an object o of t, for a name not a special method's, is
    runtime.get_attr's `classes.instance_attr` of a library class (no class of the
    program in its MRO): o's own variable first (a custom Function's `ctx.lo`), then
    its class's allowlist; and `o.name = v` is set_instance_attr's, o's own variable
    set (no `language_setattr`), when t has `language_methods` and o a `__dict__`."""
    kind = _LIBRARY.get(t)
    if kind is None:
        if len(_LIBRARY) > _LIBRARY_KINDS:
            _LIBRARY.clear()
        kind = _LIBRARY[t] = (
            not issubclass(t, (Tensor, Namespace, GradError, type, *NUMPY_VALUES))
            and not any(c.__dict__.get(USER) for c in t.__mro__)
            and any(
                hasattr(t, hook)
                for hook in (
                    "language_attrs",
                    "language_getattr",
                    "language_subclassable",
                    "language_setattr",
                    "language_methods",
                )
            )
        )
    return kind


def attr_writer(attr):
    """`o.attr = v` for what the generated guard leaves out, as statements.py's
    `store_attr` does it (an object of a library class that keeps the program's
    variables, library_object: its own variable set here)."""
    plain = direct_name(attr)
    store = rt.store_attr

    def write(o, v):
        t = type(o)
        if (
            plain
            and t is not Tensor
            and library_object(t)
            and getattr(t, "language_setattr", None) is None
            and hasattr(t, "language_methods")
        ):
            d = getattr(o, "__dict__", None)
            if d is not None:
                d[attr] = v
                return
        store(o, attr, plain, v)

    return write


def method_caller(attr, line, col):
    """`o.attr(*a)` as callsites.method_site's closures call it, for what the
    generated guard leaves out (a method of a library class's allowlist called as
    its BoundMethod would be, when the object has no variable of that name)."""
    other = _other_method(attr, line, col, {})
    mattr = MethodName(attr)
    get = METHODS.get
    plain = direct_name(attr)

    def run(o, a):
        t = type(o)
        if t is Tensor:
            m = get(attr)
            if m is not None:
                args = (o, *a)
                if type(m) is not FunctionType:
                    return call(m, args, {}, mattr, line, col, {})
                try:
                    return m(*args)
                except Exception as e:
                    return call_failed(e, m, args, {}, mattr, line, col, {})
        elif plain and library_object(t):
            d = getattr(o, "__dict__", None)
            attrs = getattr(t, "language_attrs", None)
            methods = getattr(t, "language_methods", None)
            if (
                d is not None
                and attr not in d
                and not (attrs and attr in attrs)
                and methods
                and attr in methods
            ):
                m = methods[attr]
                try:
                    return m(o, *a)
                except Exception as e:
                    return call_failed(e, BoundMethod(o, attr, m), list(a), {}, attr, line, col, {})
        elif t is Namespace and plain:  # torch.no_grad(): the member as get_attr reads it
            try:
                m = o.get(attr, namespace())
            except GradError as e:
                raise e.at(line, col)
            return call(m, list(a), {}, attr, line, col, {})
        elif plain and isinstance(o, type):  # a library base's class method of the program's
            m = library_method(o, attr)  # class (LeakyClamp.apply): what get_attr gives
            if m is not None:
                try:
                    return m(*a)
                except Exception as e:
                    return call_failed(e, m, list(a), {}, attr, line, col, {})
        return other(o, list(a))

    return run


def hinted_caller(run, name):
    """run(o, a) (a method_caller of `backward`), its errors given calls.py's hint of
    `name.backward()`, as calls.py's method call of that name gives them."""

    def hinted(o, a):
        try:
            return run(o, a)
        except GradError as e:
            raise backward_hint(e, name, "method")

    return hinted


def init_returned(cls, args, r, name, line, col):
    """What callsites.call_other does when `__init__` returned r, not None."""
    try:
        raise TypeError(f"__init__() should return None, not '{type(r).__name__}'")
    except Exception as e:
        return call_failed(e, cls, list(args), {}, name, line, col, {})


def repr_returned(fn, v, r, name, line, col):
    """What invoke.call does when the `__repr__` that repr(v) called returned r, not a
    str (Python's repr refuses it)."""
    try:
        raise TypeError(f"__repr__ returned non-string (type {type(r).__name__})")
    except Exception as e:
        return call_failed(e, fn, [v], {}, name, line, col, {})


_NUMBERS = (int, float, bool)


def plain_check(op, augmented=False):
    """check(a, b): the case of datamodel.plain_binary whose special method has a fast
    function (an object of a plain class and one of the same class or a number, or a
    number and an object: its reflected method), answered by that method, or NO for
    any other pair; None when op has no special method."""
    name = _DUNDER.get(op)
    if name is None:
        return None
    dname, rname, iname = f"__{name}__", f"__r{name}__", f"__i{name}__"
    lookup = plain_lookup

    def check(a, b):
        ta = type(a)
        if ta is not Tensor:
            tb = type(b)
            if ta in _NUMBERS:
                if tb is not Tensor:
                    t = getattr(tb, "__gradcli_lookup__", None)  # (a plain class's)
                    if t is not None:
                        f = t[rname] if rname in t else lookup(t, tb, rname)
                        if type(f) is UserFunction and f.fastn == 2:
                            r = f.fast(b, a)
                            if r is NotImplemented:
                                raise refused(op, name, ta, tb, augmented)
                            return r
            elif tb is ta or tb in _NUMBERS:
                t = getattr(ta, "__gradcli_lookup__", None)
                if t is not None and not (
                    augmented and (t[iname] if iname in t else lookup(t, ta, iname)) is not None
                ):
                    f = t[dname] if dname in t else lookup(t, ta, dname)
                    if type(f) is UserFunction and f.fastn == 2:
                        r = f.fast(a, b)
                        if r is NotImplemented:
                            raise refused(op, name, ta, tb, augmented)
                        return r
        return NO

    return check


def plain_first(op, fallback, augmented=False):
    """`fallback` (runtime.binary_op's function for op), with the case of
    datamodel.plain_binary taken first when the special method it calls has a fast
    function (`plain_check`): the same method called, the same answer and error."""
    check = plain_check(op, augmented)
    if check is None:
        return fallback

    def run(a, b):
        r = check(a, b)
        return fallback(a, b) if r is NO else r

    return run


def plain_binary_op(op):
    """plain_first(op, runtime.binary_op(op)) made as one function: binary_op's run
    asks `plain_check` where no tensor or number pair has answered (the only pairs the
    check answers), so an operator on tensors runs no wrapper's frame."""
    check = plain_check(op)
    if check is None or op in bitwise.OPS:
        return plain_first(op, rt.binary_op(op))
    return rt.binary_op(op, first=check)


_COMPARED = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}
_REFLECTED = {"<": ">", "<=": ">=", ">": "<", ">=": "<=", "==": "==", "!=": "!="}


def compare_method(op):
    """The special method of the comparison `op` (`__lt__` for `<`)."""
    return f"__{_COMPARED[op]}__"


def compare_rest(op):
    """What Python's `a op b` does for two objects of one plain class after a's special
    method (its fast function, called by fast_objects.object_compare) answered
    NotImplemented: b's reflected method (`__gt__` for `<`: the class's, or object's,
    which answers NotImplemented), then identity for `==` and `!=`, else Python's
    TypeError; the first method is not called again."""
    reflected = compare_method(_REFLECTED[op])

    def run(a, b):
        t = type(b)
        f = plain_class_attr(t, reflected)
        if type(f) is UserFunction:
            r = f.fast(b, a) if f.fastn == 2 else call_user(f, (b, a))
        else:  # (object's own: NotImplemented but for the same object's `==`)
            r = python_protocol(f, b, a)
        if r is not NotImplemented:
            return r
        if op == "==":
            return a is b
        if op == "!=":
            return a is not b
        raise GradTypeError(
            f"'{op}' not supported between instances of '{t.__name__}' and '{t.__name__}'"
        )

    return run


def inplace_rest(op):
    """What Python's `a op= b` does after a's in-place special method (`__iadd__`: its
    fast function, called by fast_objects.object_op) answered NotImplemented: `a op b`
    by Python's binary protocol, its TypeError naming the augmented operator (`+=`), as
    datamodel.inplace gives it; the in-place method is not called again."""
    name, fn = _DUNDER[op], BINARY[op]
    head = f"unsupported operand type(s) for {_sign(op, name, False)}: "

    def run(a, b):
        try:
            return python_protocol(fn, a, b)
        except GradTypeError as e:
            if not e.message.startswith(head):
                raise
            words = f"unsupported operand type(s) for {_sign(op, name, True)}: "
            raise GradTypeError(words + e.message[len(head) :]) from None

    return run


def refusal(op, name, augmented=False):
    """What `a op b` raises when the special method plain_first (fast_objects.object_op)
    called answered NotImplemented."""

    def run(a, b):
        raise refused(op, name, type(a), type(b), augmented)

    return run


def framed(run, *args):
    """run(*args) from inside a fast function: the fast functions running there are the
    running frames the callee sees (inspect.currentframe, a frame's f_back), as
    fast_support.frame_call makes them for a call of a name."""
    return in_frames(sys._getframe(1), run, *args)


def framed_reader(attr):
    """attr_reader(attr) for a fast function: a tensor's attribute read as it is, any
    other object's with the running frames made (a property runs the program's code, a
    frame's f_back reads them).  A module of the program's class (`self.weight` in its
    forward) whose classes have no attribute `attr` has it read here as
    classes.instance_attr would find it, running no code: its own variable, else
    Module's parameter, buffer or submodule of that name.  An object of a library class
    (library_object) has its own variable read so, and an attribute of its allowlist
    (`language_attrs`) that its class's `language_quiet_attrs` says runs no code of the
    program for this object (a custom Function's `ctx.saved_tensors` unless saved-tensor
    hooks packed them)."""
    read = attr_reader(attr)
    direct = direct_name(attr)
    kinds: dict = {}  # type -> whether its objects are such modules (what stays true)

    def run(o):
        t = type(o)
        if t is Tensor:
            return read(o)
        if direct and library_object(t):  # its own variable: no code of the program runs
            d = getattr(o, "__dict__", None)
            if d is not None and attr in d:
                return d[attr]
            quiet = getattr(t, "language_quiet_attrs", None)  # (its allowlist's, said quiet)
            if quiet is not None and attr in quiet and quiet[attr](o):
                return t.language_attrs[attr](o)
        if direct:
            kind = kinds.get(t)
            if kind is None:
                if len(kinds) > _KINDS:
                    kinds.clear()
                kind = kinds[t] = _module_reads(t, attr)
            if kind and attr not in t.__dict__[NAMES]:  # (no class of the program has it)
                d = o.__dict__
                if attr in d:
                    return d[attr]
                for key in _MODULE_TABLES:
                    table = d.get(key)
                    if table is not None and attr in table:
                        return table[attr]
        return in_frames(sys._getframe(1), read, o)

    return run


#: the types framed_reader keeps per attribute, at most (then forgotten)
_KINDS = 32
#: where Module.__getattr__ looks, in its order
_MODULE_TABLES = ("_parameters", "_buffers", "_modules")


def _module_reads(t, attr):
    """Whether `o.attr` of an object of t, a class of the program, is read as
    classes.instance_attr reads it by framed_reader's steps when no class of the program
    has `attr` (what its classes.NAMES says at each read): t derives from nn.Module, whose
    allowlist has no `attr` but its language_getattr (Module.__getattr__'s tables), and
    from no class runtime.get_attr answers first (an exception's `args`)."""
    return (
        is_user_class(t)
        and issubclass(t, Module)
        and not issubclass(t, GradError)
        and NAMES in t.__dict__
        and getattr(t, "language_getattr", None) is Module.language_getattr
        and attr not in (getattr(t, "language_attrs", None) or ())
        and attr not in (getattr(t, "language_methods", None) or ())
    )


def field_formatter(spec, conv):
    """One {field} of an f-string, as expressions._fmt_piece formats its value."""
    fmt = rt.format_field

    def piece(v):
        if conv == "r":
            v = show(v)
            if not spec:
                return v
        elif conv == "s":
            v = show_str(v)
        return fmt(v, spec)

    return piece
