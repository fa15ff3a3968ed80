"""More of Python's standard library, the parts scripts use beside torch: `contextlib`'s
`nullcontext`, `json` (strings
only: `dumps`, `loads`), `string`'s constants, `statistics`, `warnings` (`warn`, and the
filters accepted), `heapq`, `bisect`, `textwrap`, `pprint`, `operator`'s functions of
values (not `attrgetter`/`methodcaller`, which would read attributes around the
language's rules), `re`'s functions of strings (library/re_ns.py).  Each is CPython's own function, given only the language's values;
what reads or writes files (`json.dump`/`json.load`) is not here.  Lists made from an
iterator stay within the list limit (docs/limits.md)."""

from __future__ import annotations


from ..core.printing import show
from ..core.tensor import Tensor
from ..runtime import context
from ..runtime.errors import GradError, GradTypeError, GradValueError
from ..runtime.limits import check_items
from . import re_ns, stdlib
from .stdlib import EXCEPTION_CLASSES, StdModule, bounded_list, counted
from .values import BuiltinFunction


def _module(name, members):
    return StdModule(name, {k: _fn(f"{name}.{k}", v) for k, v in members.items()})


def _fn(name, v):
    return BuiltinFunction(name, v) if callable(v) and not isinstance(v, type) else v


def _checked_text(s, what):
    check_items(len(s), what)
    return s


def _dumps(obj, *, indent=None, sort_keys=False, separators=None, default=None, **kw):
    import json as _json  # (imported when a program imports it: start-up time)

    def fallback(o):
        if default is not None:
            return default(o)
        kind = "Tensor" if isinstance(o, Tensor) else type(o).__name__
        raise GradTypeError(f"Object of type {kind} is not JSON serializable")

    try:
        text = _json.dumps(
            obj, indent=indent, sort_keys=sort_keys, separators=separators, default=fallback
        )
    except ValueError as e:
        raise GradTypeError(str(e), type_name="ValueError") from None
    return _checked_text(text, "json.dumps()")


def _loads(s, **kw):
    import json as _json  # (imported when a program imports it: start-up time)

    if not isinstance(s, (str, bytes)):
        raise GradTypeError(
            f"the JSON object must be str, bytes or bytearray, not {type(s).__name__}"
        )
    try:
        return _json.loads(s)
    except _json.JSONDecodeError as e:
        raise GradTypeError(str(e), type_name="JSONDecodeError") from None


def _json_module():
    members = {"dumps": _dumps, "loads": _loads}
    members["JSONDecodeError"] = EXCEPTION_CLASSES["JSONDecodeError"]  # (what loads raises)
    return _module("json", members)


def _string_module():
    import string as _string  # (imported when a program imports it: start-up time)

    return _module(
        "string",
        {
            "ascii_letters": _string.ascii_letters,
            "ascii_lowercase": _string.ascii_lowercase,
            "ascii_uppercase": _string.ascii_uppercase,
            "digits": _string.digits,
            "hexdigits": _string.hexdigits,
            "octdigits": _string.octdigits,
            "punctuation": _string.punctuation,
            "printable": _string.printable,
            "whitespace": _string.whitespace,
            "capwords": _string.capwords,
        },
    )


def _listed(fn, name):
    import statistics as _statistics  # (imported when a program imports it: start-up time)

    def run(data, *args, **kwargs):
        values = data if isinstance(data, (list, tuple)) else bounded_list(counted(iter(data)))
        try:
            return fn(values, *args, **kwargs)
        except _statistics.StatisticsError as e:
            raise GradTypeError(str(e), type_name="StatisticsError") from None

    run.__name__ = name
    return run


def _statistics_module():
    import statistics as _statistics  # (imported when a program imports it: start-up time)

    st = _statistics
    fns = (
        st.mean, st.fmean, st.geometric_mean, st.harmonic_mean, st.median, st.median_low,
        st.median_high, st.mode, st.multimode, st.pstdev, st.pvariance, st.stdev, st.variance,
    )  # fmt: skip
    members = {f.__name__: _listed(f, f.__name__) for f in fns}
    members["StatisticsError"] = EXCEPTION_CLASSES["StatisticsError"]
    return _module("statistics", members)


def _warn(message, category=None, stacklevel=1, **kw):
    kind = getattr(category, "__name__", None) if category is not None else None
    context.current.warn(str(message), kind or "UserWarning")


def _accept(*args, **kwargs):
    return None


def _warnings_module():
    return _module(
        "warnings",
        {
            "warn": _warn,
            "filterwarnings": _accept,
            "simplefilter": _accept,
            "resetwarnings": _accept,
        },
    )


def _heapq_module():
    import heapq as _heapq  # (imported when a program imports it: start-up time)

    h = _heapq
    fns = (h.heappush, h.heappop, h.heapify, h.heappushpop, h.heapreplace, h.nlargest,
           h.nsmallest, h.merge)  # fmt: skip
    return _module("heapq", {f.__name__: f for f in fns})


def _bisect_module():
    import bisect as _bisect  # (imported when a program imports it: start-up time)

    b = _bisect
    fns = {"bisect": b.bisect, "insort": b.insort}
    fns.update(
        (f.__name__, f) for f in (b.bisect_left, b.bisect_right, b.insort_left, b.insort_right)
    )
    return _module("bisect", fns)


def _textwrap_module():
    import textwrap as _textwrap  # (imported when a program imports it: start-up time)

    def texts(fn):
        return lambda *a, **k: _checked_text(fn(*a, **k), "the text")

    return _module(
        "textwrap",
        {
            "dedent": _textwrap.dedent,
            "indent": texts(_textwrap.indent),
            "fill": texts(_textwrap.fill),
            "wrap": _textwrap.wrap,
            "shorten": _textwrap.shorten,
        },
    )


def _pformat(obj, indent=1, width=80, depth=None, *, compact=False, sort_dicts=True, **kw):
    import pprint as _pprint  # (imported when a program imports it: start-up time)

    if isinstance(obj, (list, tuple, dict, set)) and not _has_objects(obj):
        return _pprint.pformat(obj, indent, width, depth, compact=compact, sort_dicts=sort_dicts)
    return show(obj)


def _has_objects(obj):
    """Does a container hold anything but numbers, strings, None and containers of them
    (whose reprs pprint may call)?"""
    stack, seen = [obj], 0
    while stack:
        v = stack.pop()
        seen += 1
        if seen > 100_000:
            return True
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple, set, frozenset)):
            stack.extend(v)
        elif not (v is None or isinstance(v, (bool, int, float, str))):
            return True
    return False


def _pprint_fn(obj, *args, **kwargs):
    context.current.out.print(_pformat(obj, *args, **kwargs) + "\n")


def _pprint_module():
    return _module("pprint", {"pformat": _pformat, "pprint": _pprint_fn})


def _operator_module():
    import operator as _operator  # (imported when a program imports it: start-up time)

    o = _operator
    fns = (
        o.add, o.sub, o.mul, o.truediv, o.floordiv, o.mod, o.pow, o.neg, o.pos, o.abs, o.eq,
        o.ne, o.lt, o.le, o.gt, o.ge, o.not_, o.truth, o.and_, o.or_, o.xor, o.matmul, o.index,
        o.contains, o.concat, o.countOf, o.indexOf,
    )  # fmt: skip
    members = {f.__name__: f for f in fns}
    members["itemgetter"] = _itemgetter
    return _module("operator", members)


def _itemgetter(*items):
    import operator as _operator  # (imported when a program imports it: start-up time)

    return BuiltinFunction(
        f"operator.itemgetter({', '.join(show(i) for i in items)})", _operator.itemgetter(*items)
    )


class NullContext:
    """contextlib.nullcontext(): a `with` block's context that does nothing (nanoGPT's
    `ctx = nullcontext() if device_type == 'cpu' else torch.amp.autocast(...)`)."""

    __slots__ = ("enter_result",)
    language_context = True

    def __init__(self, enter_result=None):
        self.enter_result = enter_result

    def __enter__(self):
        return self.enter_result

    def __exit__(self, *exc):
        return False

    def __repr__(self):
        return "<contextlib.nullcontext object>"


def _contextlib_module():
    return StdModule(
        "contextlib", {"nullcontext": BuiltinFunction("contextlib.nullcontext", NullContext)}
    )


def _re_module():
    return re_ns.make_module(StdModule)


def _literal_eval(node_or_string):
    """ast.literal_eval of a string: Python's own, for the literals the language has (no
    complex numbers, no bytes); a parse tree (the other thing Python takes) there is none."""
    import ast as _ast  # (imported when a program imports it: start-up time)
    import re

    if not isinstance(node_or_string, str):
        raise GradValueError(f"malformed node or string: {show(node_or_string)}")
    check_items(len(node_or_string), "literal_eval()'s text", "characters")
    try:
        value = _ast.literal_eval(node_or_string)
    except SyntaxError as e:
        raise GradError(str(e), type_name="SyntaxError") from None
    except (ValueError, TypeError) as e:  # (the node it names, without its address)
        raise GradValueError(re.sub(r" at 0x[0-9a-fA-F]+", "", str(e))) from None
    except (RecursionError, MemoryError):
        raise GradValueError("literal_eval(): the literal is nested too deeply") from None
    _check_literal(value)
    return value


def _check_literal(value):
    stack = [value]
    while stack:
        v = stack.pop()
        if isinstance(v, (complex, bytes)) or v is Ellipsis:
            raise GradError(
                f"{type(v).__name__} values are not supported (gradcli has no {type(v).__name__})",
                type_name="NotImplementedError",
            )
        if isinstance(v, dict):
            stack.extend(v.keys())
            stack.extend(v.values())
        elif isinstance(v, (list, tuple, set, frozenset)):
            stack.extend(v)


def _ast_module():
    return _module("ast", {"literal_eval": _literal_eval})


def _argparse_module():
    from .argparse_ns import make_module  # (CPython's argparse: only when a program imports it)

    return make_module()


for _name, _make in (
    ("ast", _ast_module),
    ("argparse", _argparse_module),
    ("re", _re_module),
    ("contextlib", _contextlib_module),
    ("json", _json_module),
    ("string", _string_module),
    ("statistics", _statistics_module),
    ("warnings", _warnings_module),
    ("heapq", _heapq_module),
    ("bisect", _bisect_module),
    ("textwrap", _textwrap_module),
    ("pprint", _pprint_module),
    ("operator", _operator_module),
):
    stdlib.add_module(_name, _make)
