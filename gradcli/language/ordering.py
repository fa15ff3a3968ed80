"""functools.total_ordering for a class of the program: the comparison methods it lacks,
given its `__eq__` and one of `__lt__`, `__le__`, `__gt__`, `__ge__` (the root: of those
it defines, the one Python's picks), written in the language as Python's functools
writes them (each asks the root through `type(self)` and answers NotImplemented when the
root does), compiled as dataclass.py compiles its methods."""

from __future__ import annotations

from ..library.values import BuiltinFunction
from ..runtime.errors import GradTypeError, GradValueError
from .classes import changed, is_user_class
from .dataclass import made_methods

# root -> (the method made, its answer from the root's `r`), as functools' _convert
_CONVERT = {
    "__lt__": [
        ("__gt__", "not r and self != other"),
        ("__le__", "r or self == other"),
        ("__ge__", "not r"),
    ],
    "__le__": [
        ("__ge__", "not r or self == other"),
        ("__lt__", "r and self != other"),
        ("__gt__", "not r"),
    ],
    "__gt__": [
        ("__lt__", "not r and self != other"),
        ("__ge__", "r or self == other"),
        ("__le__", "not r"),
    ],
    "__ge__": [
        ("__le__", "(not r) or self == other"),
        ("__gt__", "r and self != other"),
        ("__lt__", "not r"),
    ],
}


def _source(root, made):
    out = ["def _make():"]
    for name, answer in made:
        out += [
            f"    def {name}(self, other):",
            f"        r = type(self).{root}(self, other)",
            "        if r is NotImplemented:",
            "            return r",
            f"        return {answer}",
        ]
    out.append(f"    return ({''.join(n + ', ' for n, _ in made)})")
    return "\n".join(out) + "\n"


def total_ordering(make_compiler):
    """The built-in `functools.total_ordering` (`make_compiler()`: the compiler of the
    methods, made on first use)."""
    compilers = []

    def total_ordering(cls):
        if not is_user_class(cls):
            raise GradTypeError("total_ordering() should be called on a class of the program")
        roots = [op for op in _CONVERT if any(op in c.__dict__ for c in cls.__mro__[:-2])]
        if not roots:
            raise GradValueError("must define at least one ordering operation: < > <= >=")
        root = max(roots)  # (Python's choice: __lt__ over __le__ over __gt__ over __ge__)
        made = [(n, a) for n, a in _CONVERT[root] if n not in roots]
        if made:
            if not compilers:
                compilers.append(make_compiler())
            methods = made_methods(compilers[0], _source(root, made), (), "<total_ordering>")
            for (name, _), fn in zip(made, methods):
                # (Python's: the name of the method, the qualified name of functools'
                # function, `_gt_from_lt`)
                fn.qualname = f"_{name.strip('_')}_from_{root.strip('_')}"
                setattr(cls, name, fn)
            changed(cls)  # (its methods as the fast tier looks them up: classes.LOOKUP)
        return cls

    return BuiltinFunction("functools.total_ordering", total_ordering)
