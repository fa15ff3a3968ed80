"""`import re`: CPython's regular expressions on strings, the functions that give
strings and lists of strings (`sub`, `subn`, `split`, `findall`, `escape`) and the flags,
what text-preparing code uses (d2l's `re.sub('[^A-Za-z]+', ' ', text)`).

The flags are plain ints.  Match and Pattern objects are not here (they are Python objects with their own
attributes), nor a function as `sub`'s replacement (CPython would call it with a Match).
Strings are checked against the string limit before and after (docs/limits.md); a
pattern's backtracking runs inside CPython's engine, which `--max-steps` does not count."""

from __future__ import annotations

import re as _re

from ..core.convert import type_name
from ..runtime.errors import GradError, GradTypeError
from ..runtime.limits import check_items
from .stdlib import EXCEPTION_CLASSES
from .values import BuiltinFunction

#: the flags, as plain ints (they print as numbers, not as re.IGNORECASE ...)
FLAGS = {
    "ASCII": int(_re.ASCII),
    "IGNORECASE": int(_re.IGNORECASE),
    "MULTILINE": int(_re.MULTILINE),
    "DOTALL": int(_re.DOTALL),
    "VERBOSE": int(_re.VERBOSE),
}
FLAGS.update(A=FLAGS["ASCII"], I=FLAGS["IGNORECASE"], M=FLAGS["MULTILINE"])
FLAGS.update(S=FLAGS["DOTALL"], X=FLAGS["VERBOSE"])


def _text(v, what):
    if not isinstance(v, str):
        raise GradTypeError(f"expected string or bytes-like object, got '{type_name(v)}'")
    check_items(len(v), what, "characters")
    return v


def _flags(flags):
    if isinstance(flags, bool) or not isinstance(flags, int):
        raise GradTypeError(f"unsupported operand type(s) for &: '{type_name(flags)}' and 'int'")
    return flags


def _run(fn, *args):
    try:
        return fn(*args)
    except _re.error as e:
        raise GradError(str(e), type_name="error") from None


def sub(pattern, repl, string, count=0, flags=0):
    return subn(pattern, repl, string, count, flags)[0]


def subn(pattern, repl, string, count=0, flags=0):
    pattern, string = _text(pattern, "the pattern"), _text(string, "the string")
    if not isinstance(repl, str):
        what = "a function" if callable(repl) else f"'{type_name(repl)}'"
        raise GradTypeError(
            f"re.sub's replacement must be a string, not {what} (gradcli's re has no Match "
            "objects to call a function with)"
        )
    out, n = _run(_re.subn, pattern, repl, string, count, _flags(flags))
    check_items(len(out), "the result", "characters")
    return out, n


def split(pattern, string, maxsplit=0, flags=0):
    pattern, string = _text(pattern, "the pattern"), _text(string, "the string")
    out = _run(_re.split, pattern, string, maxsplit, _flags(flags))
    check_items(len(out), "the result")
    return out


def findall(pattern, string, flags=0):
    pattern, string = _text(pattern, "the pattern"), _text(string, "the string")
    out = _run(_re.findall, pattern, string, _flags(flags))
    check_items(len(out), "the result")
    return out


def escape(pattern):
    return _re.escape(_text(pattern, "the pattern"))


def make_module(module_class):
    members: dict = dict(FLAGS)
    for fn in (sub, subn, split, findall, escape):
        members[fn.__name__] = BuiltinFunction(f"re.{fn.__name__}", fn)
    members["error"] = EXCEPTION_CLASSES["error"]  # (what a bad pattern raises)
    return module_class("re", members)
