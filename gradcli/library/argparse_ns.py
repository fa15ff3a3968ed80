"""`import argparse`: the options a script declares, parsed as Python's argparse parses
them (CPython's own parser does the work), from the list a program gives
`parse_args([...])`, or from none: a program has no command line of its own, so
`parser.parse_args()` gives every option its default (what the published examples
print when run as they are).  The result is a Namespace whose attributes the program
reads and sets; `--help` and a bad option are errors in argparse's words, never an
exit of gradcli."""

from __future__ import annotations

import argparse as _argparse

from ..core.printing import show
from ..runtime.errors import GradError, GradTypeError
from . import stdlib
from .values import BuiltinFunction


class _ParseError(Exception):
    pass


class _Parser(_argparse.ArgumentParser):
    def error(self, message):
        raise _ParseError(f"{self.prog}: error: {message}")

    def exit(self, status=0, message=None):
        raise _ParseError(message or f"{self.prog}: exited")

    def print_help(self, file=None):
        raise _ParseError(self.format_help())


class Namespace:
    """The parsed options: `args.lr` (read and set)."""

    def __init__(self, values):
        self.values = dict(values)

    def language_getattr(self, name):
        if name in self.values:
            return self.values[name]
        raise AttributeError(name)

    def language_setattr(self, name, value):
        self.values[name] = value

    def language_vars(self):
        """vars(args) / args.__dict__: the dict of its options itself, as Python's."""
        return self.values

    def __repr__(self):
        return "Namespace(" + ", ".join(f"{k}={show(v)}" for k, v in self.values.items()) + ")"


class ArgumentParser:
    """argparse.ArgumentParser(description=..., ...)."""

    __slots__ = ("parser",)

    def __init__(self, prog=None, description=None, epilog=None, **kwargs):
        self.parser = _Parser(prog=prog or "main.py", description=description, epilog=epilog)

    def add_argument(self, *names, **options):
        for k in ("type", "action"):
            v = options.get(k)
            if k == "action" and v is not None and not isinstance(v, str):
                raise GradTypeError("add_argument(): action must be the name of an action")
            if k == "type" and v is not None and not callable(v):
                raise GradTypeError(f"add_argument(): type {show(v)} is not callable")
        try:
            self.parser.add_argument(*names, **options)
        except (ValueError, TypeError, _argparse.ArgumentError) as e:
            raise GradError(str(e), type_name="ValueError") from None

    def parse_args(self, args=None, namespace=None):
        words = [] if args is None else [str(a) for a in args]
        try:
            parsed = self.parser.parse_args(words)
        except _ParseError as e:
            raise GradError(str(e).strip(), type_name="SystemExit") from None
        return Namespace(parsed.__dict__)

    def parse_known_args(self, args=None, namespace=None):
        words = [] if args is None else [str(a) for a in args]
        try:
            parsed, rest = self.parser.parse_known_args(words)
        except _ParseError as e:
            raise GradError(str(e).strip(), type_name="SystemExit") from None
        return Namespace(parsed.__dict__), rest

    def format_help(self):
        return self.parser.format_help()

    def __repr__(self):
        return f"ArgumentParser(prog={self.parser.prog!r})"

    language_methods = {
        "add_argument": add_argument,
        "parse_args": parse_args,
        "parse_known_args": parse_known_args,
        "format_help": format_help,
    }
    language_callable = True


def make_module():
    return stdlib.StdModule(
        "argparse",
        {
            "ArgumentParser": BuiltinFunction("argparse.ArgumentParser", ArgumentParser),
            "Namespace": BuiltinFunction("argparse.Namespace", lambda **kw: Namespace(kw)),
        },
    )
