"""`contextlib.contextmanager`: a generator function of the program as a `with` block's
context, as Python's: the block runs where the body yields (`as` binds the value
yielded); an error of the block is raised at the `yield`, where the body's `except` may
handle it (the block then ends without it) and its `finally` runs; a body that does not
yield, or yields twice, is refused in Python's words."""

from __future__ import annotations

from ..library.values import BuiltinFunction, Decorated
from ..runtime.errors import GradError, GradRuntimeError, GradTypeError
from .functions import Generator, UserFunction


class GeneratorContext:
    """What a @contextmanager function's call gives: a context around its generator."""

    __slots__ = ("gen",)
    language_context = True

    def __init__(self, gen):
        self.gen = gen

    def __enter__(self):
        try:
            return next(self.gen)
        except StopIteration:
            raise GradRuntimeError("generator didn't yield") from None

    def __exit__(self, kind, err, tb):
        if kind is None:
            try:
                next(self.gen)
            except StopIteration:
                return False
            raise GradRuntimeError("generator didn't stop")
        if not isinstance(err, GradError):
            return False  # (not an error of the program's: it goes on as it is)
        placed, tb = _placement(err), err.__traceback__
        try:
            self.gen.throw(err)
        except StopIteration:
            return True  # the body handled it: the block ends without it
        except GradError as e:
            if e is err:  # (passed through the body: placed in the block, as Python's)
                _place(err, placed)
                err.__traceback__ = tb  # (the fast tier places it by its traceback)
                return False
            raise
        raise GradRuntimeError("generator didn't stop after throw()")

    def __repr__(self):
        return "<contextlib._GeneratorContextManager object>"


_PLACES = ("line", "column", "origin", "calls", "pending_call")


def _placement(err):
    """Where err stands (its position and call chain), to put back once it has passed
    through the generator's body unchanged."""
    return {k: err.__dict__[k] for k in _PLACES if k in err.__dict__}


def _place(err, placed):
    for k in _PLACES:
        if k in placed:
            setattr(err, k, placed[k])
        else:
            err.__dict__.pop(k, None)  # (the class's default again)


def contextmanager(fn):
    """@contextlib.contextmanager on a generator function of the program."""
    if type(fn) is not UserFunction:
        raise GradTypeError("contextmanager() takes a generator function of the program")

    def make(*args, **kwargs):
        gen = fn(*args, **kwargs)
        if not isinstance(gen, Generator):
            raise GradTypeError("'NoneType' object is not an iterator")
        return GeneratorContext(gen)

    return Decorated(make, fn)


def members():
    """What this adds to `import contextlib`."""
    return {"contextmanager": BuiltinFunction("contextlib.contextmanager", contextmanager)}
