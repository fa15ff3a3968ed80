"""Functions of the language: the scope a call runs in, a `def`/`lambda` as a value
(UserFunction: binding arguments to parameters, the call-depth limit, methods bound
as Python functions are), and generators."""

from __future__ import annotations

import sys

from ..runtime.errors import GradAttributeError, GradError, GradTypeError, did_you_mean
from ..runtime.limits import depth_exceeded
from ..runtime import context
from ..library.stdlib import bounded_values
from .state import state


_new = object.__new__


class Scope:
    """Variables of the program (globals), of one function call (locals), of a class
    body (its namespace) or of a comprehension.  `parent` is the scope the code was
    written in (closures see its variables); `closure` is what a function defined
    here closes over (a class body's functions skip the class, as in Python)."""

    __slots__ = ("vars", "globals", "depth", "parent", "_closure")

    def __init__(self, vars=None, globals=None, depth=0, parent=None, closure=True):
        self.vars = {} if vars is None else vars
        self.globals = globals
        self.depth = depth
        self.parent = parent
        # None stands for the scope itself: a reference to itself would make every
        # call's scope a reference cycle, freed only by the cyclic collector
        self._closure = None if closure is True else closure

    @property
    def closure(self):
        c = self._closure
        return self if c is None else c


class Return:
    __slots__ = ("value",)

    def __init__(self, value):
        self.value = value


CLASS_CELL = " class"  # a method's hidden local: [the class it was defined in] (no
#                           program can write this name)
BREAK = object()
CONTINUE = object()
#: a replayed loop's iteration that ran as compiled with no plan left to make: the loop's
#: other iterations are the fast tier's (replay.Run.iteration, control._looped)
HANDED = object()


class Signature:
    """A function's parameters: positional (with defaults), *args, keyword-only
    (with defaults), **kwargs."""

    __slots__ = ("params", "defaults", "star", "kwonly", "kwstar", "plain", "posonly", "all")

    def __init__(self, params=(), defaults=None, star=None, kwonly=(), kwstar=None, posonly=0):
        self.params, self.defaults = tuple(params), defaults or {}
        self.star, self.kwonly, self.kwstar = star, tuple(kwonly), kwstar
        self.posonly = posonly  # how many of the params are positional-only (before `/`)
        self.plain = star is None and not self.kwonly and kwstar is None and not posonly
        self.all = tuple(self.names())  # (a fast function's parameters: UserFunction.run)

    def names(self):
        out = list(self.params)
        if self.star:
            out.append(self.star)
        out.extend(self.kwonly)
        if self.kwstar:
            out.append(self.kwstar)
        return out

    def bind(self, fname, args, kwargs, defaults):
        """The local variables of a call, or Python's TypeError in gradcli's words."""
        params = self.params
        n = len(params)
        if len(args) == n and not kwargs and self.plain:  # each parameter given once,
            return dict(zip(params, args))  # by position: nothing to check
        if len(args) > n and self.star is None:
            raise GradTypeError(_too_many(fname, n, defaults, self, args, kwargs))
        local = dict(zip(params, args))
        if self.star is not None:
            local[self.star] = tuple(args[n:])
        extra = {} if self.kwstar is not None else None
        if self.posonly and kwargs:
            positional = params[: self.posonly]
            named = [k for k in kwargs if k in positional]
            if named and extra is None:
                raise GradTypeError(
                    f"{fname}() got some positional-only arguments passed as keyword "
                    f"arguments: '{', '.join(named)}'"
                )
            for k in named:  # (into **kwargs, as Python puts them)
                extra[k] = kwargs[k]
            kwargs = {k: v for k, v in kwargs.items() if k not in named}
        for k, v in kwargs.items():
            if k in local and k != self.star:
                raise GradTypeError(f"{fname}() got multiple values for argument '{k}'")
            if k in params or k in self.kwonly:
                local[k] = v
            elif extra is not None:
                extra[k] = v
            else:
                raise GradTypeError(
                    f"{fname}() got an unexpected keyword argument '{k}'",
                    hint=did_you_mean(k, list(params) + list(self.kwonly)),
                )
        for group, kind in ((params, "positional"), (self.kwonly, "keyword-only")):
            missing = []
            for p in group:
                if p not in local:
                    if p in defaults:
                        local[p] = defaults[p]
                    else:
                        missing.append(p)
            if missing:
                names = [f"'{m}'" for m in missing]
                listed = (
                    names[0]
                    if len(names) == 1
                    else ", ".join(names[:-1])
                    + (", and " if len(names) > 2 else " and ")
                    + names[-1]
                )
                raise GradTypeError(
                    f"{fname}() missing {len(missing)} required {kind} argument"
                    f"{'s' if len(missing) > 1 else ''}: {listed}"
                )
        if extra is not None:
            local[self.kwstar] = extra
        return local


def _too_many(fname, n, defaults, sig, args, kwargs):
    """CPython's words for too many positional arguments (ceval's too_many_positional)."""
    with_default = sum(p in defaults for p in sig.params)
    if with_default:
        takes, plural = f"from {n - with_default} to {n}", "s"
    else:
        takes, plural = str(n), "s" if n != 1 else ""
    given = len(args)
    kwonly = sum(k in sig.kwonly for k in kwargs)
    extra = (
        f" positional argument{'s' if given != 1 else ''} (and {kwonly} keyword-only "
        f"argument{'s' if kwonly != 1 else ''})"
        if kwonly
        else ""
    )
    verb = "was" if given == 1 and not kwonly else "were"
    return f"{fname}() takes {takes} positional argument{plural} but {given}{extra} {verb} given"


class _Depth:
    n = 0


call_depth = _Depth()
frames = []  # (function, scope) of each call running, innermost last (inspect.currentframe)


class PendingFrames:
    """An entry of `frames` standing for calls running as Python functions (the fast
    tier's, which call each other directly): `make(frame, depth)` gives their entries,
    innermost last, made only when the frames are read (`expand_frames`); `start` is
    where they begin in `frames`, so that the call that put it there takes them out."""

    __slots__ = ("make", "frame", "depth", "start")

    def __init__(self, make, frame, depth, start):
        self.make, self.frame, self.depth, self.start = make, frame, depth, start


def expand_frames():
    """Each PendingFrames of `frames` replaced by the entries it stands for."""
    i = 0
    while i < len(frames):
        e = frames[i]
        if type(e) is not PendingFrames:
            i += 1
            continue
        made = e.make(e.frame, e.depth)
        frames[i : i + 1] = made
        e.start = i
        for later in frames[i + len(made) :]:
            if type(later) is PendingFrames:
                later.start += len(made) - 1
        i += len(made)


class UserFunction:
    """A `def` or `lambda`: its body runs again (building a new graph) at every call.
    As a class attribute it is a descriptor, like a Python function: `obj.f` is f
    bound to obj (so library code calling `self.forward(x)` on a user subclass works)."""

    __slots__ = (
        "name",
        "sig",
        "defaults",
        "body",
        "globals",
        "is_lambda",
        "origin",
        "closure",
        "nests",
        "generator",
        "qualname",
        "doc",
        "cell",
        "quick",
        "fast",
        "fastn",
        "fastm",
        "attrs",
        "__weakref__",
    )

    def __init__(
        self,
        name,
        sig,
        defaults,
        body,
        globals,
        is_lambda=False,
        origin=None,
        closure=None,
        generator=False,
        qualname=None,
        doc=None,
        cell=None,
        nests=False,
    ):
        if not isinstance(sig, Signature):
            sig = Signature(sig)
        self.name, self.sig, self.defaults = name, sig, defaults
        self.body, self.globals, self.is_lambda = body, globals, is_lambda
        self.origin = origin  # (file, source) where it was defined, for error reports
        self.closure = closure if closure is not None else globals
        self.generator = generator
        self.qualname = qualname or name
        self.doc = doc  # its docstring (`f.__doc__`)
        self.cell = cell  # a method: [its class] (super() reads it)
        self.nests = nests  # its body defines functions (see `release`)
        # its parameters when a call giving each one by position has nothing to check
        # (no *args, keyword-only or **kwargs, not a generator): `quick_call`
        self.quick = sig.params if sig.plain and not generator else None
        # its body as a Python function of its parameters (language/fast_tier.py), called
        # when `fastn` arguments are given by position
        self.fast = None
        self.fastn = -1
        # the other numbers of arguments by position it takes (its trailing parameters'
        # defaults Python's own in `fast`: given_defaults)
        self.fastm = ()
        self.attrs = None  # the attributes a program gives it (`f.calls = 0`), or None

    @property
    def params(self):
        return self.sig.params

    def __repr__(self):
        return f"<function {self.qualname}>"

    def __get__(self, obj, cls=None):
        if obj is None:
            return self
        return BoundUserMethod(self, obj)

    def copy_names(self, other):
        """functools.wraps(other)(self): other's __name__, __qualname__, __doc__."""
        if type(other) is UserFunction:
            self.name, self.qualname, self.doc = other.name, other.qualname, other.doc
            if other.attrs:  # (Python's update_wrapper updates the wrapper's __dict__)
                self.attrs = {**(self.attrs or {}), **other.attrs}

    def __call__(self, *args, **kwargs):
        if (self.fastn == len(args) or len(args) in self.fastm) and not kwargs:
            return self.fast(*args)
        q = self.quick
        if q is not None and len(args) == len(q) and not kwargs:
            return self.run(dict(zip(q, args)))
        local = self.sig.bind(self.qualname, args, kwargs, self.defaults)
        if self.generator:
            return Generator(self, local)
        return self.run(local)

    def run(self, local):
        fast = self.fast
        if fast is not None:
            return fast(*map(local.__getitem__, self.sig.all))
        depth = call_depth.n + 1
        if depth > context.current.limits.max_depth:
            raise depth_exceeded()
        call_depth.n = depth
        if self.cell is not None:
            local[CLASS_CELL] = self.cell
        scope = _new(Scope)  # Scope(local, self.globals, depth, self.closure)
        scope.vars = local
        scope.globals = self.globals
        scope.depth = depth
        scope.parent = self.closure
        scope._closure = None
        frames.append((self, scope))
        try:
            r = self.body(scope)
        except GradError as e:
            if e.origin is None:  # positioned in this function's body: in its file
                e.origin = self.origin
            for frame in e.calls:  # calls made in this body: in its file too
                if frame[0] is None:
                    frame[0] = self.origin
            e.left(self.name, state.origin)  # (a step of the chain where it was called)
            raise
        finally:
            call_depth.n = depth - 1
            frames.pop()
        if self.nests:
            release(scope)
        if self.is_lambda:
            return r
        return r.value if type(r) is Return else None

    def scope_for(self, args):
        """The scope a call f(*args) runs its body in, made as `run` makes it (its
        parameters bound as the call binds them: its errors), for `run_in` (a replayed
        loop calls a `def` in one scope again and again: language/replay_defs.py)."""
        q = self.quick
        if q is not None and len(args) == len(q):
            local = dict(zip(q, args))
        else:
            local = self.sig.bind(self.qualname, args, {}, self.defaults)
        if self.cell is not None:
            local[CLASS_CELL] = self.cell
        return Scope(local, self.globals, call_depth.n + 1, self.closure)

    def run_in(self, scope):
        """The body run in a scope `scope_for` made, as `run` runs it (the call's depth,
        its frame, its errors placed in its file); returns what the body gives (a
        Return, None)."""
        depth = call_depth.n + 1
        if depth > context.current.limits.max_depth:
            raise depth_exceeded()
        call_depth.n = depth
        frames.append((self, scope))
        try:
            return self.body(scope)
        except GradError as e:
            if e.origin is None:
                e.origin = self.origin
            for frame in e.calls:
                if frame[0] is None:
                    frame[0] = self.origin
            e.left(self.name, state.origin)  # (a step of the chain where it was called)
            raise
        finally:
            call_depth.n = depth - 1
            frames.pop()


def given_defaults(f, after=()):
    """f's fast function given the defaults of f's trailing positional parameters as
    Python's own (`__defaults__`: the same values, computed once where the `def` ran),
    so that a call giving fewer arguments by position calls it directly (`fastm`);
    `after`: the defaults of the fast function's own parameters after them."""
    params, d = f.sig.params, f.defaults
    k = len(params)
    while k and params[k - 1] in d:
        k -= 1
    f.fast.__defaults__ = (*(d[p] for p in params[k:]), *after)
    if k < len(params):
        f.fastm = tuple(range(k, len(params)))


def call_user(f, args):
    """f(*args) for a UserFunction f: its parameters bound here when each is given
    by position (`UserFunction.quick`)."""
    q = f.quick
    if q is not None and len(q) == len(args):
        return f.run(dict(zip(q, args)))
    return f(*args)


def release(scope):
    """Break the reference cycle between a finished call's scope and the functions
    defined in it (each closes over the scope, which holds them) when nothing else
    holds either, so reference counting frees the call's values at once, as CPython's
    cells allow, instead of the cyclic collector much later (runtime/gctune.py runs it
    rarely).  A function that escaped (returned, stored elsewhere) keeps it all."""
    own = [v for v in scope.vars.values() if type(v) is UserFunction and v.closure is scope]
    # scope: run()'s variable, this parameter, getrefcount's argument, the closures
    if not own or sys.getrefcount(scope) != 3 + len(own):
        return
    for f in own:  # each held by the scope's variables, `own`, `f` and the argument only
        if sys.getrefcount(f) != 4:
            return
    scope.vars.clear()


def own_attrs(f):
    """The attributes the program gave a function (or the function of a bound method)."""
    return getattr(f if type(f) is UserFunction else f.fn, "attrs", None) or {}


def set_function_attr(f, name, value):
    """`f.name = value` on a function: kept as Python's function keeps it in __dict__; a
    bound method takes none (Python's words)."""
    if type(f) is not UserFunction or (name.startswith("__") and name.endswith("__")):
        what = "function" if type(f) is UserFunction else "method"
        raise GradAttributeError(f"'{what}' object has no attribute '{name}'")
    if f.attrs is None:
        f.attrs = {}
    f.attrs[name] = value


class BoundUserMethod:
    """A user function bound to an object (`obj.method`)."""

    __slots__ = ("fn", "obj")

    def __init__(self, fn, obj):
        self.fn, self.obj = fn, obj

    def __call__(self, *args, **kwargs):
        return self.fn(self.obj, *args, **kwargs)

    def __repr__(self):
        return f"<bound method {self.fn.qualname}>"


def _generator_next(g):
    """g.__next__(), as next(g) does (its end the language's StopIteration)."""
    try:
        return g.__next__()
    except StopIteration:
        raise GradError("", type_name="StopIteration") from None


def _generator_send(g, value):
    """g.send(value): the generator resumed with `value` as its `yield`'s value."""
    try:
        return g.send(value)
    except StopIteration:
        raise GradError("", type_name="StopIteration") from None


class Generator:
    """What calling a function with `yield` gives: its body (compiled by
    control.py into a Python generator function) runs only as far as the
    consumer asks, one value at a time, as in Python.  Each resumption runs one
    call deeper than its consumer (the depth limit), its loops count --max-steps,
    and it holds no values it has handed out."""

    __slots__ = ("fn", "local", "gen", "running", "done", "result", "grad_mode")
    language_lazy = True  # iteration.iterate hands it out as it is, unlisted
    language_methods = {
        "__next__": _generator_next,
        "__iter__": lambda g: g,
        "send": _generator_send,
    }

    def __init__(self, fn, local):
        self.fn, self.local, self.gen = fn, local, None
        self.running = self.done = False
        self.result = None  # what the body returned (`x = yield from g` reads it)
        self.grad_mode = None  # @no_grad() on the function: each resumption's grad mode

    def __iter__(self):
        return self

    def __next__(self):
        return self.send(None)

    def throw(self, err):
        """Raise err at the `yield` the body stopped at (contextlib.contextmanager's exit):
        the body's `except` and `finally` see it; what the body raises or returns next is
        the result, as Python's generator.throw."""
        if self.gen is None or self.done:
            raise err
        return self.send(None, err)

    def send(self, value, thrown=None):
        """Resume the body with `value` as the value of the `yield` it stopped at (or with
        `thrown` raised there)."""
        if self.done:
            raise StopIteration
        if value is not None and self.gen is None:
            raise GradError(
                "can't send non-None value to a just-started generator", type_name="TypeError"
            )
        if self.running:
            raise GradError("generator already executing", type_name="ValueError")
        fn = self.fn
        depth = call_depth.n + 1
        if depth > context.current.limits.max_depth:
            raise depth_exceeded()
        if self.gen is None:
            local = self.local
            if fn.cell is not None:
                local[CLASS_CELL] = fn.cell
            self.gen = fn.body(Scope(local, fn.globals, depth, fn.closure))
            self.local = None
        outer = call_depth.n
        call_depth.n = depth
        self.running = True
        run = context.current
        mode = self.grad_mode
        if mode is not None:
            mode, run.grad_enabled = run.grad_enabled, mode
        try:
            if thrown is not None:
                return self.gen.throw(thrown)
            return next(self.gen) if value is None else self.gen.send(value)
        except StopIteration as stop:
            self.done, self.gen = True, None
            r = stop.value
            self.result = r.value if isinstance(r, Return) else None
            raise StopIteration from None
        except GradError as e:
            self.done, self.gen = True, None
            if e.origin is None:  # positioned in the generator's body: in its file
                e.origin = fn.origin
            for frame in e.calls:
                if frame[0] is None:
                    frame[0] = fn.origin
            e.left(fn.name, state.origin)  # (a step of the chain where it was resumed)
            raise
        except BaseException:
            self.done, self.gen = True, None
            raise
        finally:
            self.running = False
            call_depth.n = outer
            if mode is not None:
                run.grad_enabled = mode

    def language_remaining(self):
        """The values not handed out yet, as a list within the list limit (and the
        generator is then exhausted)."""
        return bounded_values(self, "the values a generator yields")

    def __repr__(self):
        return f"<generator object {self.fn.qualname}>"
