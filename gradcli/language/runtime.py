"""The language's values and their behaviour: scopes, user functions, modules,
operators on mixed values, and the allowlist of attributes a program can reach."""

from __future__ import annotations

import math
import operator
from collections import Counter
import string
from _string import formatter_field_name_split

import numpy as np

from ..core import dtypes
from ..engine.function import AccumulateGrad, Function
from ..runtime.device import CPU, Device
from ..runtime.errors import (
    GradAttributeError,
    GradError,
    GradRuntimeError,
    GradTypeError,
    GradValueError,
    did_you_mean,
)
from ..runtime import context
from ..runtime.limits import check_format_spec, check_items
from ..core.convert import type_name
from ..core.printing import show, show_str
from ..ops import batching
from ..ops.batching import Batched
from ..ops.registry import FUNCTIONS, OPERATOR_NODES, operator_function
from ..ops.return_types import ValuesIndices
from ..core.tensor import Tensor
from ..library.values import METHODS, BoundMethod, Module, Size, truth
from ..library.values import program_object, python_protocol
from ..library import numpy_ns
from ..library.stdlib import DictView
from ..library.numpy_ns import NUMPY_VALUES
from ..library.methods import node_hook, requires_grad_
from ..library.torch_ns import namespace
from .classes import LanguageObject, Super, class_attr, instance_attr, is_user_class
from .classes import set_class_attr, set_instance_attr, set_plain
from . import bitwise, datamodel, unbound
from .datamodel import NO, plain_binary, tensor_binary
from .bitwise import view_set_op
from .percent import percent_format
from .names import NAME_ATTRS, name_attr, type_of, type_shown
from .containers import DICT_METHODS, LIST_MORE, SET_METHODS, STR_MORE, TUPLE_METHODS
from .containers import (
    COUNTER_METHODS,
    FLOAT_ATTRS,
    FLOAT_METHODS,
    FROZENSET_METHODS,
    INT_ATTRS,
    INT_METHODS,
)
from .exceptions import LanguageException
from .items import get_item
from .instance_vars import instance_vars, refused as vars_refused, set_vars
from .functions import BREAK, CONTINUE, BoundUserMethod, Return, Scope, UserFunction, call_depth  # noqa: F401
from .functions import own_attrs, set_function_attr
from ..engine import versions
from ..engine.number_nodes import F32, F64, number_node, pair_node
from ..numerics.floats.singles import EXACT_INT
from ..engine.saved import raw_saved_attr, saved_attr
from ..engine.nograd_views import NoGradView, visible_grad_fn


# ---------------------------------------------------------------- operators


def _int_result(op, a, b):
    """int op int for + - *: an integer beyond context.current.limits.max_int_bits overflows to inf,
    as `**` does (so `x = x * x` in a loop cannot eat the memory)."""
    if op == "*":
        if a.bit_length() + b.bit_length() > context.current.limits.max_int_bits + 1:
            return math.inf if (a < 0) == (b < 0) else -math.inf
        return a * b
    r = _PY_OPS[op](a, b)
    if type(r) is int and r.bit_length() > context.current.limits.max_int_bits:
        return math.inf if r > 0 else -math.inf
    return r


def _py_binary(op, a, b, augmented=False):
    """Python semantics on plain values (numbers, strings, lists, tuples); an object of
    the program's classes by its special methods (`__iadd__` first when `augmented`),
    NumPy's values by NumPy's operators."""
    ta, tb = type(a), type(b)
    num = (int, float, bool)
    if ta in num and tb in num:
        if op in ("^", "**"):
            return _number_power(a, b)
        if op == "@":
            raise GradTypeError("@ needs tensors")
        if ta is int and tb is int and op in ("+", "-", "*"):
            return _int_result(op, a, b)
        try:
            return _PY_OPS[op](a, b)
        except ZeroDivisionError as e:  # `/`, `//`, `%` by zero: Python's error and words
            raise _zero_division(e) from None
    if (op == "-" and (ta in _SETS or tb in _SETS)) or (augmented and ta is list):
        r = _in_place(op, a, b, augmented)
        if r is not NO:
            return r
    if op == "-" and (ta is DictView or tb is DictView):
        r = view_set_op(operator.sub, a, b)
        if r is not NO:
            return r
    if op == "+" and ta is tb and ta in (str, list, tuple):
        check_items(len(a) + len(b), "the result", "characters" if ta is str else "elements")
        return a + b
    if op == "*" and (
        (ta in (str, list, tuple) and tb is int) or (tb in (str, list, tuple) and ta is int)
    ):
        seq, n = (a, b) if tb is int else (b, a)
        check_items(
            len(seq) * max(n, 0), "the result", "characters" if type(seq) is str else "elements"
        )
        return seq * n
    if op == "%" and ta is str:
        return percent_format(a, b)
    if ta is Size or tb is Size:
        return _size_binary(op, a, b)
    if program_object(a) or program_object(b):  # its __add__, __radd__ ... (datamodel.py)
        return (datamodel.inplace if augmented else datamodel.binary)(op, a, b)
    if isinstance(a, NUMPY_VALUES) or isinstance(b, NUMPY_VALUES):
        return numpy_ns.binary(op, a, b)  # NumPy's arrays and scalars: NumPy's operator
    _sequence_refused(op, a, b)
    if ta in (list, tuple) or tb in (list, tuple):
        return None  # caller turns lists into tensors
    sign = "** or pow()" if op in ("**", "^") else op
    if augmented:
        sign = "**=" if op in ("**", "^") else op + "="
    raise GradTypeError(
        f"unsupported operand type(s) for {sign}: '{_pyname(a)}' and '{_pyname(b)}'"
    )


def _zero_division(e):
    """Python's ZeroDivisionError `e` (a number by zero, `0 ** -1`) as the program's
    ZeroDivisionError, in Python's words."""
    return GradRuntimeError(str(e), type_name="ZeroDivisionError")


def _number_power(a, b):
    """`a ** b` of two Python numbers: Python's, except that a result that overflows
    (or an int past the size limit) is inf and a complex one nan (README); zero to a
    negative power is Python's ZeroDivisionError."""
    if (
        isinstance(a, int)
        and isinstance(b, int)
        and abs(a) > 1
        and (
            abs(b) > 4096
            or (b > 0 and (abs(a).bit_length() - 1) * b > context.current.limits.max_int_bits)
        )
    ):
        return float(a) ** b if b < 0 else math.inf if a > 0 or b % 2 == 0 else -math.inf
    try:
        r = a**b
    except OverflowError:
        return math.inf
    except ZeroDivisionError as e:
        raise _zero_division(e) from None
    if isinstance(r, complex):
        return math.nan
    return r


def _size_binary(op, a, b):
    """torch.Size's operators: with a tuple (or a Size) `+` concatenates and with an int
    `*` repeats, each giving a Size (its __add__, __radd__, __mul__, __rmul__); anything
    else is refused in Python's and PyTorch's words (never a tensor's arithmetic)."""
    if op == "+" and isinstance(a, tuple) and isinstance(b, tuple):
        check_items(len(a) + len(b), "the result", "elements")
        return Size(tuple(a) + tuple(b))
    if op == "+" and type(a) is Size:
        raise GradTypeError(f"can only concatenate tuple (not {_pyname(b)}) to torch.Size")
    if op == "+" and type(a) is list:
        raise GradTypeError('can only concatenate list (not "torch.Size") to list')
    if op == "*" and (type(a) is int or type(b) is int):
        seq, n = (a, b) if type(b) is int else (b, a)
        check_items(len(seq) * max(n, 0), "the result", "elements")
        return Size(tuple(seq) * n)
    if op == "*":
        other = b if type(a) is Size else a
        raise GradTypeError(f"can't multiply sequence by non-int of type '{_pyname(other)}'")
    names = ["torch.Size" if type(v) is Size else _pyname(v) for v in (a, b)]
    sign = "** or pow()" if op in ("**", "^") else op
    raise GradTypeError(f"unsupported operand type(s) for {sign}: '{names[0]}' and '{names[1]}'")


def _in_place(op, a, b, augmented):
    """Sets' `-` and `-=`, and `lst += items`, `lst *= n`: the set or list itself changed
    by an augmented assignment, as in Python (another name bound to it sees the change);
    NO for operands that are not these."""
    ta, tb = type(a), type(b)
    if op == "-" and ta in _SETS and tb in _SETS:
        if augmented:
            a -= b
            return a
        return a - b
    if op == "-" and (ta in _SETS or tb in _SETS) and (ta in (list, tuple) or tb in (list, tuple)):
        raise GradTypeError(f"unsupported operand type(s) for -: '{_tname(a)}' and '{_tname(b)}'")
    if ta is list and (op == "+" and tb in _ITERABLE or op == "*" and tb is int):
        n = len(a) + len(b) if op == "+" else len(a) * max(b, 0)
        check_items(n, "the result", "elements")
        if op == "+":
            a.extend(b)
        else:
            a *= b
        return a
    return NO


def _sequence_refused(op, a, b):
    """Python's TypeError for a string, list or tuple with an operand it does not take
    (a list with a number stays, for the caller to make a tensor of)."""
    ta, tb = type(a), type(b)
    if op == "+" and (ta is str or (ta in (list, tuple) and tb in NOT_OPERANDS)):
        raise GradTypeError(f'can only concatenate {_tname(a)} (not "{_pyname(b)}") to {_tname(a)}')
    if op == "*" and (ta is str or tb is str):
        other = b if ta in (str, list, tuple) else a
        raise GradTypeError(f"can't multiply sequence by non-int of type '{_pyname(other)}'")


_SETS = (set, frozenset)
_ITERABLE = (list, tuple, str, range, dict, set, frozenset)
_PY_OPS = {
    "+": lambda a, b: a + b,
    "-": lambda a, b: a - b,
    "*": lambda a, b: a * b,
    "//": lambda a, b: a // b,
    "%": lambda a, b: a % b,
    "/": lambda a, b: a / b,
}

_FLOAT_OPS = {"+": float.__add__, "-": float.__sub__, "*": float.__mul__}
_INT_OPS = {"+": operator.add, "-": operator.sub, "*": operator.mul}
INT_DIV = {"%": operator.mod, "//": operator.floordiv}  # int op nonzero int: Python's result
SMALL_INT = 1 << 31  # int op int below this in size: far from max_int_bits, no check needed


def binary_op(op, augmented=False, first=None):  # noqa: C901 (one dispatch over the kinds of operand)
    """`binary` for one operator, its lookups done once (the compiler calls this
    when it compiles `a op b`; `augmented`: for `a op= b`).  `first(a, b)`: asked
    where neither operand is a tensor and no two numbers of one type answered, before
    the rest (fast_dispatch.plain_binary_op); its answer unless it is NO."""
    if op in bitwise.OPS:
        return bitwise.binary_op(op, augmented)
    tensor_fn = operator_function(op)  # (the op that declares the operator)
    fast = _FLOAT_OPS.get(op)  # float op float: nothing to check
    ints = op in ("+", "-", "*")  # int op int: only the size to check (_int_result)
    int_op = _INT_OPS.get(op)
    int_div = INT_DIV.get(op)
    node, tensor_b, swap = OPERATOR_NODES.get(op, (None, False, False))
    div = operator.truediv if op == "/" else None  # int / int, float / float, b nonzero
    # 0-d float tensors' nodes made without apply2's general steps (engine/number_nodes.py)
    numbers = node is not None and node.number_forward is not None
    pairs = node is not None and node.pair_forward is not None

    def run(a, b):  # noqa: C901
        ta = type(a)
        if ta is type(b):  # two numbers of one type: Python's operator (the common case)
            if ta is int:
                if ints:
                    if -SMALL_INT < a < SMALL_INT and -SMALL_INT < b < SMALL_INT:
                        return int_op(a, b)
                    return _int_result(op, a, b)
                if int_div is not None and b:
                    return int_div(a, b)
                if div is not None and b:
                    return div(a, b)
            elif ta is float:
                if fast is not None:
                    return fast(a, b)
                if div is not None and b:
                    return div(a, b)
        if node is not None:  # a floating tensor and a number, or two alike: the node itself
            tb = type(b)
            if ta is Tensor:
                da = a.data
                dt = da.dtype
                if dt.char in "fd":  # (not float16: ops/half_nodes.py)
                    if tb is float or tb is int:
                        if numbers and (dt is F64 or dt is F32) and not da.ndim and a.requires_grad:
                            if (
                                tb is float or -EXACT_INT <= b <= EXACT_INT
                            ) and context.current.grad_enabled:
                                return number_node(node, a, b)  # (engine/number_nodes.py)
                        return node.apply2(a, b, dt)
                    if tb is Tensor and tensor_b:
                        db = b.data
                        if dt is db.dtype and (da.shape == db.shape or not da.ndim or not db.ndim):
                            if (
                                pairs
                                and not da.ndim
                                and not db.ndim
                                and da is not db
                                and (a.requires_grad or b.requires_grad)
                                and context.current.grad_enabled
                            ):
                                return pair_node(node, a, b)  # (engine/number_nodes.py)
                            return node.apply2(a, b, dt)
            elif swap and tb is Tensor and (ta is float or ta is int):
                db = b.data
                dt = db.dtype
                if dt.char in "fd":
                    if numbers and (dt is F64 or dt is F32) and not db.ndim and b.requires_grad:
                        if (
                            ta is float or -EXACT_INT <= a <= EXACT_INT
                        ) and context.current.grad_enabled:
                            return number_node(node, b, a)
                    return node.apply2(b, a, dt)
        if ta is Tensor or type(b) is Tensor:
            if ta is str and op == "%":  # "%.3f" % loss
                return percent_format(a, b)
            to = type(b if ta is Tensor else a)
            if to in NOT_OPERANDS:
                refuse_operands(op, a, b, augmented)
            if to is not Tensor and to is not float and getattr(to, "__gradcli_plain__", False):
                r = tensor_binary(op, a, b, augmented)  # (its special methods only)
                if r is not NO:
                    return r
            try:
                return tensor_fn(a, b)
            except Exception:
                if ta is Batched or type(b) is Batched:  # inside vmap
                    return batching.dispatch(tensor_fn, (a, b), {})
                if program_object(a) or program_object(b):  # torch: NotImplemented
                    return (datamodel.inplace if augmented else datamodel.binary)(op, a, b)
                raise
        if first is not None:
            r = first(a, b)
            if r is not NO:
                return r
        if ta is Batched or type(b) is Batched:
            return batching.dispatch(tensor_fn, (a, b), {})
        r = plain_binary(op, a, b, augmented)  # an object of a plain class of the program
        if r is not NO:
            return r
        r = _py_binary(op, a, b, augmented)
        if r is None:
            return tensor_fn(a, b)
        return r

    run.op = op  # (fastops.specialize)
    return run


# what no tensor operator takes: PyTorch's return NotImplemented, and Python's words follow
NOT_OPERANDS, _OPERANDS = (str, type(None), dict, set, frozenset), (Tensor, float, int, bool)


def refuse_operands(op, a, b, augmented=False):
    """Python's TypeError for a tensor and an operand of NOT_OPERANDS under `op`."""
    tensor, other = (a, b) if type(a) is Tensor else (b, a)
    if op in _CMP:
        raise GradTypeError(
            f"'{op}' not supported between instances of '{_pyname(a)}' and '{_pyname(b)}'"
        )
    if op == "+" and type(a) is str and not augmented:
        raise GradTypeError('can only concatenate str (not "Tensor") to str')
    if op == "*" and type(other) is str and not augmented:  # str * n: the tensor as an index
        raise GradTypeError("only integer tensors of a single element can be converted to an index")
    sign = "** or pow()" if op in ("**", "^") else op
    if augmented:
        sign = "**=" if op in ("**", "^") else op + "="
    raise GradTypeError(
        f"unsupported operand type(s) for {sign}: '{_pyname(a)}' and '{_pyname(b)}'"
    )


def _tname(v):
    return type_name(v)


def _pyname(v):
    """The type's name as Python's own messages give it (None is a 'NoneType')."""
    return "NoneType" if v is None else _tname(v)


_CMP = {  # Python's comparisons (on tensors: the op that declares the operator)
    "<": operator.lt,
    "<=": operator.le,
    ">": operator.gt,
    ">=": operator.ge,
    "==": operator.eq,
    "!=": operator.ne,
}


def compare_op(op):
    """`compare` for one operator, looked up once; numbers compared directly."""
    if op in ("in", "not in"):
        return lambda a, b: compare(op, a, b)
    if op == "is":
        return operator.is_
    if op == "is not":
        return operator.is_not
    py, tensor_fn, number = _CMP[op], operator_function(op), (int, float)

    def run(a, b):
        ta = type(a)
        if ta in number and type(b) in number:
            return py(a, b)
        if ta is Tensor and type(b) in _OPERANDS:  # (compare's answer, its tests left out)
            return tensor_fn(a, b)
        return compare(op, a, b)

    run.numeric = py  # what two numbers get (fastops.specialize)
    return run


def compare(op, a, b):
    if op in ("in", "not in"):
        if program_object(b):
            r = datamodel.contains(a, b)
            return r if op == "in" else not r
        if isinstance(b, Tensor):
            r = bool(np.any(b.data == (a.data if isinstance(a, Tensor) else a)))
        elif isinstance(b, range):
            r = a in b
        elif isinstance(b, (list, tuple, str)):
            if isinstance(b, str):
                if not isinstance(a, str):
                    raise GradTypeError("'in <string>' requires string as left operand")
                r = a in b
            else:
                r = any(_same(a, x) for x in b)
        elif isinstance(b, (dict, set, frozenset)):
            try:
                r = a in b
            except TypeError:
                raise GradTypeError(f"unhashable type: '{_tname(a)}'")
        elif getattr(type(b), "language_lazy", False):  # consumed up to the first match
            r = any(_same(a, x) for x in b)
        elif hasattr(b, "language_remaining"):  # an iterator
            r = any(_same(a, x) for x in b.language_remaining())
        elif hasattr(type(b), "language_iter"):  # a dict's view, library containers
            r = any(_same(a, x) for x in type(b).language_iter(b))
        else:
            raise GradTypeError(f"argument of type '{_tname(b)}' is not iterable")
        return r if op == "in" else not r
    py = _CMP[op]
    if program_object(a) or program_object(b):
        return datamodel.compare(op, a, b)
    if type(a) is not Tensor and type(b) is not Tensor:
        if isinstance(a, NUMPY_VALUES) or isinstance(b, NUMPY_VALUES):
            return numpy_ns.binary(op, a, b)
    if type(a) is Batched or type(b) is Batched:
        return batching.dispatch(operator_function(op), (a, b), {})
    if (type(a) is Tensor and type(b) in NOT_OPERANDS) or (
        type(b) is Tensor and type(a) in NOT_OPERANDS
    ):
        if op in ("==", "!="):  # never equal, as in PyTorch
            return op == "!="
        refuse_operands(op, a, b)
    if (
        type(a) is Tensor
        or type(b) is Tensor
        or isinstance(a, (list, tuple))
        and not isinstance(b, (list, tuple))
        or isinstance(b, (list, tuple))
        and not isinstance(a, (list, tuple))
    ):
        return operator_function(op)(a, b)
    try:
        return py(a, b)
    except TypeError:
        return _unordered(op, a, b)


def _unordered(op, a, b):
    """Python's TypeError for `a op b` that CPython's operator refused; two lists or
    tuples: their first items that differ compared, in those items' types' words."""
    if type(a) is type(b) and type(a) in (list, tuple):
        for x, y in zip(a, b):
            if x is y:
                continue
            eq = compare("==", x, y)
            if type(eq) is not bool:
                break
            if not eq:
                return compare(op, x, y)
    raise GradTypeError(
        f"'{op}' not supported between instances of '{_pyname(a)}' and '{_pyname(b)}'"
    )


def _same(a, b):
    """`a in [.., b, ..]` as Python tests it: `a is b or bool(a == b)`; a tensor is
    equal to a number or a tensor elementwise (one element, or the ambiguous-truth
    error, as in PyTorch), never to anything else."""
    if a is b:
        return True
    if type(a) is Tensor or type(b) is Tensor:
        other = b if type(a) is Tensor else a
        if type(other) is not Tensor and not isinstance(other, (int, float)):
            return False
        return truth(FUNCTIONS["eq"](a, b))
    return a == b


def unary(op, v):
    if op == "~":
        if program_object(v) or isinstance(v, NUMPY_VALUES):
            return _other_unary(op, v)
        return bitwise.invert_value(v)
    if op == "-":
        if type(v) is Tensor:
            return FUNCTIONS["neg"](v)
        if isinstance(v, (int, float)):
            return -v
        if isinstance(v, (list, tuple)):
            return FUNCTIONS["neg"](v)
        if type(v) is Batched:
            return batching.dispatch(FUNCTIONS["neg"], (v,), {})
        return _other_unary(op, v)
    if type(v) is Tensor or isinstance(v, (int, float)) or type(v) is Batched:
        if isinstance(v, np.generic):
            return _other_unary(op, v)
        return v if not isinstance(v, bool) else int(v)
    return _other_unary(op, v)


def _other_unary(op, v):
    if program_object(v):  # its __neg__, __pos__, __invert__
        return datamodel.unary(op, v)
    if isinstance(v, NUMPY_VALUES):
        return numpy_ns.call(datamodel.UNARY[op], v)
    raise GradTypeError(f"bad operand type for unary {op}: '{_tname(v)}'")


# ---------------------------------------------------------------- attributes


def _grad_get(t):
    if (
        t.grad_fn is not None
        and not t.retains_grad
        and t.grad is None
        and type(t.grad_fn) is not NoGradView
    ):  # (a leaf: engine/nograd_views.py)
        context.warn(
            "The .grad attribute of a Tensor that is not a leaf Tensor is being accessed. Its "
            ".grad attribute won't be populated during autograd.backward(). If you indeed want "
            "the .grad field to be populated for a non-leaf Tensor, use .retain_grad() on the "
            "non-leaf Tensor. If you access the non-leaf Tensor by mistake, make sure you access "
            "the leaf Tensor instead. See github.com/pytorch/pytorch/pull/30531 for more "
            "information."
        )
    return t.grad


def _matrix_T(t):
    """`.mT`: the last two dims swapped; a 0-d tensor is returned as it is, with PyTorch's
    deprecation warning."""
    if t.data.ndim == 0:
        context.warn(
            "Tensor.mT is deprecated on 0-D tensors. This function is the identity in these cases."
        )
        return t
    return FUNCTIONS["transpose"](t, -2, -1)


TENSOR_ATTRS = {
    "data": lambda t: Tensor(t.data),
    "grad": _grad_get,
    "grad_fn": visible_grad_fn,  # (engine/nograd_views.py: views made under no_grad)
    "requires_grad": lambda t: t.requires_grad,
    "is_leaf": lambda t: visible_grad_fn(t) is None,
    "shape": lambda t: Size(t.data.shape),
    "dtype": lambda t: dtypes.DType(t.data.dtype),
    "T": lambda t: FUNCTIONS["numpy_T"](t),
    "mT": _matrix_T,
    "ndim": lambda t: t.data.ndim,
    "device": lambda t: CPU,
    "is_cuda": lambda t: False,
    "is_cpu": lambda t: True,
    "retains_grad": lambda t: t.retains_grad,
    "_version": versions.version,
    "_base": lambda t: t.view_of[0] if t.view_of is not None else None,  # (the storage's owner)
    "real": lambda t: t,
    "itemsize": lambda t: t.data.dtype.itemsize,
}


def get_attr(obj, name):  # noqa: C901 (one dispatch over the kinds of object)
    """`obj.name` through the allowlist: nothing else of Python is reachable."""
    t = type(obj)
    if t is Tensor:
        f = TENSOR_ATTRS.get(name)
        if f is not None:
            return f(obj)
        m = METHODS.get(name)
        if m is not None:
            return BoundMethod(obj, name, m)
        if name == "__class__":
            return type_of(obj)
        raise GradAttributeError(
            f"'Tensor' object has no attribute '{name}'",
            hint=did_you_mean(name, list(TENSOR_ATTRS) + list(METHODS)),
        )
    if t is Module and name not in NAME_ATTRS:  # torch.no_grad ...: before the searches below
        return obj.get(name, namespace())
    if isinstance(obj, GradError) and name == "args":
        if isinstance(obj, LanguageException):
            return obj.args
        return (obj.message,) if obj.message else ()  # (a bare StopIteration: no args)
    if name in NAME_ATTRS:  # __name__, __qualname__, __doc__
        return name_attr(obj, name)
    if name == "__class__":  # what type(obj) gives
        return type_of(obj)
    if name == "__dict__":  # an object's variables, in Python's names (instance_vars.py)
        d = instance_vars(obj)
        if d is not None:
            return d
        e = vars_refused(obj, "__dict__")
        if e is not None:
            raise e
    if isinstance(obj, NUMPY_VALUES):
        return numpy_ns.array_attr(obj, name)
    if isinstance(obj, type):
        return class_attr(obj, name)
    if (
        is_user_class(t)
        or hasattr(t, "language_attrs")
        or hasattr(t, "language_getattr")
        or hasattr(t, "language_subclassable")
        or hasattr(t, "language_setattr")
        or (hasattr(t, "language_methods") and hasattr(obj, "__dict__"))
    ):
        return instance_attr(obj, name)
    if t is Super:
        return obj.get(name)
    if isinstance(obj, Module):
        return obj.get(name, namespace())
    if isinstance(obj, Function):
        if name == "next_functions":
            return obj.next_functions()
        if name == "name":  # (a node of PyTorch's C++ autograd: its qualified name)
            return BoundMethod(obj, "name", lambda o: getattr(o, "qualified_name", o.name))
        if name == "metadata":
            return {}
        if name in ("register_hook", "register_prehook"):  # the node's own hooks
            kind = "post" if name == "register_hook" else "pre"
            return BoundMethod(obj, name, lambda o, hook: node_hook(o, hook, kind))
        if name.startswith("_saved_"):  # what the node saved (engine/saved.py)
            return saved_attr(obj, name)
        if name.startswith("_raw_saved_"):
            return raw_saved_attr(obj, name)
        read = getattr(obj, "ctx_attr", None)  # a custom Function's node: its ctx's
        v = NO if read is None else read(name, NO)
        if v is not NO:
            return v
        raise GradAttributeError(
            f"'{obj.name}' object has no attribute '{name}'",
            hint=did_you_mean(name, ["next_functions", "name"]),
        )
    if isinstance(obj, AccumulateGrad):
        if name == "variable":
            return obj.variable
        if name == "next_functions":
            return ()
        if name == "name":
            return BoundMethod(obj, "name", lambda o: "torch::autograd::AccumulateGrad")
    if isinstance(obj, ValuesIndices) and name in obj.fields:
        return obj[obj.fields.index(name)]
    methods = getattr(type(obj), "language_methods", None)  # a class's own allowlist
    if methods is not None and name in methods:
        return BoundMethod(obj, name, methods[name])
    if type(obj) is Device and name in ("type", "index"):
        return obj.type if name == "type" else obj.index
    if isinstance(obj, dtypes.DType) and name == "is_floating_point":
        return obj.is_floating_point
    if isinstance(obj, str) and name in STR_METHODS:
        return BoundMethod(obj, name, STR_METHODS[name])
    if isinstance(obj, list) and name in LIST_METHODS:
        return BoundMethod(obj, name, LIST_METHODS[name])
    if isinstance(obj, tuple) and name in TUPLE_METHODS:
        return BoundMethod(obj, name, TUPLE_METHODS[name])
    if isinstance(obj, Counter) and name in COUNTER_METHODS:
        return BoundMethod(obj, name, COUNTER_METHODS[name])
    if isinstance(obj, dict) and name in DICT_METHODS:
        return BoundMethod(obj, name, DICT_METHODS[name])
    if isinstance(obj, set) and name in SET_METHODS:
        return BoundMethod(obj, name, SET_METHODS[name])
    if isinstance(obj, frozenset) and name in FROZENSET_METHODS:
        return BoundMethod(obj, name, FROZENSET_METHODS[name])
    if isinstance(obj, property) and name in ("setter", "getter", "deleter"):
        return {"setter": obj.setter, "getter": obj.getter, "deleter": obj.deleter}[name]
    if t is int or t is float or t is bool:  # (7).real, (2.5).is_integer()
        attrs, methods = (FLOAT_ATTRS, FLOAT_METHODS) if t is float else (INT_ATTRS, INT_METHODS)
        if name in attrs:
            return attrs[name](obj)
        if name in methods:
            return BoundMethod(obj, name, methods[name])
    if isinstance(obj, Size) and name == "numel":
        return BoundMethod(obj, name, lambda s: math.prod(s))
    if (t is UserFunction or t is BoundUserMethod) and name in own_attrs(obj):  # `f.calls`
        return own_attrs(obj)[name]
    m = unbound.method(obj, name, _TYPE_METHODS)  # str.lower, list.append ...
    if m is not None:
        return m
    if unbound.PY_TYPES.get(id(obj)) is not None:  # str.nope, torch.Tensor.nope
        raise GradAttributeError(
            f"type object '{name_attr(obj, '__name__')}' has no attribute '{name}'"
        )
    raise GradAttributeError(
        f"'{type_shown(obj)}' object has no attribute '{name}'",
        hint=_LEFT_OUT.get((type(obj), name)),
    )


_LEFT_OUT = {  # methods of Python's that stay out, and why
    (str, "encode"): "gradcli has no bytes: a program's text is str (it reads no files)",
}


_C_NAMES = {
    "float64": "double",
    "float32": "float",
    "float16": "c10::Half",
    "int64": "long int",
    "int32": "int",
    "uint8": "unsigned char",
    "bool": "bool",
}  # as PyTorch names dtypes


def store_attr(o, name, plain, v):
    """`o.name = v` as an assignment statement runs it: `x.grad = None`, and a plain
    object's own variable (plain: classes.direct_name(name)) set at once; else set_attr."""
    t = type(o)
    if v is None and t is Tensor and name == "grad":  # x.grad = None
        o.grad = None
    elif not (plain and set_plain(o, t, name, v)):
        set_attr(o, name, v)


def set_attr(obj, name, value):
    """`obj.name = value`: an attribute of a class or object of the program (or of a
    library class that allows it); of a tensor only requires_grad, grad and data."""
    t = type(obj)
    if t is not Tensor:
        if isinstance(obj, type):
            return set_class_attr(obj, name, value)
        if name == "__dict__":
            return set_vars(obj, value)
        if (
            is_user_class(t)
            or hasattr(t, "language_setattr")
            or (hasattr(t, "language_methods") and hasattr(obj, "__dict__"))
        ):
            return set_instance_attr(obj, name, value)  # rule 3 of classes.py
        if t is LanguageObject:  # (`object()`: no variables, in Python's words)
            raise GradAttributeError(f"'object' object has no attribute '{name}'")
        if t is UserFunction or t is BoundUserMethod:  # `f.calls = 0`
            return set_function_attr(obj, name, value)
        raise GradAttributeError(f"cannot set attribute '{name}' of a {_tname(obj)}")
    if name == "requires_grad":
        if value is not True and value is not False:
            raise GradRuntimeError("requires_grad must be a bool")
        if not value and obj.grad_fn is not None:
            raise GradRuntimeError(
                "you can only change requires_grad flags of leaf variables. If you want to use "
                "a computed variable in a subgraph that doesn't require differentiation use "
                "var_no_grad = var.detach()."
            )
        if value and obj.data.dtype.kind != "f":
            raise GradRuntimeError(
                "only Tensors of floating point and complex dtype can require gradients"
            )
        requires_grad_(obj, value)
    elif name == "grad":
        if value is not None:
            if type(value) is not Tensor:
                raise GradTypeError(
                    "assigned grad expected to be a Tensor or None but got grad "
                    f"of type {_pyname(value)}"
                )
            if value is obj:
                raise GradRuntimeError("can't assign Variable as its own grad")
            if value.data.shape != obj.data.shape:
                raise GradRuntimeError(
                    "attempting to assign a gradient of size "
                    f"'{list(value.data.shape)}' to a tensor of size '{list(obj.data.shape)}'. "
                    "Please ensure that the gradient and the tensor are the same size"
                )
            if value.data.dtype != obj.data.dtype:
                raise GradRuntimeError(
                    f"attempting to assign a gradient with dtype '{_C_NAMES.get(value.data.dtype.name)}'"
                    f" to a tensor with grad_dtype '{dtypes.scalar_type_name(obj.data.dtype)}'. "
                    "The gradient must match the tensor's grad_dtype (defaults to the tensor's "
                    "dtype)."
                )
        obj.grad = value
    elif name == "data":
        if type(value) is not Tensor:
            raise GradTypeError(f"Variable data has to be a tensor, but got {_pyname(value)}")
        data = value.data
        if obj.requires_grad and data.dtype.kind != "f":
            raise GradRuntimeError(
                "data set to a tensor that requires gradients must be "
                "floating point or complex dtype"
            )
        obj.data = data
    else:
        raise GradAttributeError(
            f"cannot set attribute '{name}' of a Tensor (only requires_grad, grad and data)",
            hint=did_you_mean(name, ["requires_grad", "grad", "data"]),
        )


_FORMATTER = string.Formatter()


def _fmt(s, *args, **kwargs):
    """str.format: a field's `.name` and `[key]` go through the language's own attribute
    and item access (get_attr's allowlist), never Python's."""
    return _formatted(s, args, kwargs)


def _format_map(s, mapping):
    return _formatted(s, (), mapping)


def _formatted(s, args, kwargs):
    auto = 0  # the next automatic field's number; None once a field is numbered

    def value(field):
        nonlocal auto
        try:
            first, rest = formatter_field_name_split(field)
            rest = list(rest)
        except ValueError as e:  # ("Missing ']' in format string" ...)
            raise GradValueError(str(e)) from None
        if first == "":
            if auto is None:
                raise GradValueError(
                    "cannot switch from manual field specification to automatic field numbering"
                )
            first, auto = auto, auto + 1
        elif isinstance(first, int):
            if auto:
                raise GradValueError(
                    "cannot switch from automatic field numbering to manual field specification"
                )
            auto = None
        if isinstance(first, int):
            if first >= len(args):
                raise GradRuntimeError(
                    f"Replacement index {first} out of range for positional args tuple",
                    type_name="IndexError",
                )
            v = args[first]
        else:
            if first not in kwargs:
                raise GradRuntimeError(repr(first), type_name="KeyError")
            v = kwargs[first]
        for is_attr, key in rest:  # the language's attribute and item access
            v = get_attr(v, key) if is_attr else get_item(v, key)
        return v

    def fields(text):
        try:
            return list(_FORMATTER.parse(text))
        except ValueError as e:  # ("Single '}' encountered in format string" ...)
            raise GradValueError(str(e)) from None

    out = []
    total = 0
    for lit, field, spec, conv in fields(s):
        out.append(lit)
        total += len(lit)
        if field is None:
            continue
        v = value(field)
        if spec and "{" in spec:  # nested fields in the spec ('{:{}}'), numbered on
            parts = []
            for lit2, field2, spec2, conv2 in fields(spec):
                parts.append(lit2)
                if field2 is not None:
                    if spec2 and "{" in spec2:
                        raise GradValueError("Max string recursion exceeded")
                    inner = value(field2)
                    if conv2 is not None:
                        inner = _converted(inner, conv2)
                    parts.append(format_field(inner, spec2))
            spec = "".join(parts)
        if conv is not None:  # !r, !s, !a: the text formatted by the spec
            v = _converted(v, conv)
        try:
            text = format_field(v, spec)
        except ValueError as e:
            raise GradValueError(str(e)) from None
        except TypeError as e:
            raise GradTypeError(str(e)) from None
        total += len(text)
        check_items(total, "the formatted string", "characters")
        out.append(text)
    return "".join(out)


def _converted(v, conv):
    if conv == "r":
        return show(v)
    if conv == "s":
        return show_str(v)
    if conv == "a":
        return show(v).encode("ascii", "backslashreplace").decode("ascii")
    raise GradValueError(f"Unknown conversion specifier {conv}")


def format_field(v, spec):
    """One `{v:spec}` of an f-string or of str.format (conversion !r aside).  A 0-d
    tensor formats its value, as PyTorch's Tensor.__format__ does (f"{loss}" shows
    0.25, not tensor(0.2500)); another tensor only without a spec."""
    if type(v) is Tensor:
        if not v.data.ndim:
            v = v.item()
        elif spec:
            raise GradTypeError("unsupported format string passed to Tensor.__format__")
    elif program_object(v) and (spec or type(v).__format__ is not object.__format__):
        check_format_spec(spec)
        return python_protocol(format, v, spec)  # its __format__ (object's: no spec)
    if spec:
        check_format_spec(spec)
        return format(v, spec)
    return show_str(v)


def _str_replace(s, old, new, *count):
    if len(new) > len(old):
        n = s.count(old) if old else len(s) + 1
        if count and isinstance(count[0], int) and count[0] >= 0:
            n = min(n, count[0])
        check_items(len(s) + n * (len(new) - len(old)), "the result", "characters")
    return s.replace(old, new, *count)


def _str_join(s, items):
    if hasattr(items, "__len__"):  # range(10**8): refused before a part is made
        check_items(len(items), "the result", "parts")
    parts, total = [], -len(s)
    for n, part in enumerate(items):
        if type(part) is not str:  # (Python joins strings only)
            raise GradTypeError(f"sequence item {n}: expected str instance, {_pyname(part)} found")
        total += len(part) + len(s)
        check_items(total, "the result", "characters")
        parts.append(part)
    check_items(len(parts), "the result", "parts")
    return s.join(parts)


def _list_append(lst, *args):
    if len(args) != 1:  # (Python's words for its arity)
        raise GradTypeError(f"list.append() takes exactly one argument ({len(args)} given)")
    check_items(len(lst) + 1, "the list")
    lst.append(args[0])


STR_METHODS = {
    "format": _fmt,
    "format_map": _format_map,
    "upper": str.upper,
    "lower": str.lower,
    "strip": str.strip,
    "join": _str_join,
    "startswith": str.startswith,
    "endswith": str.endswith,
    "replace": _str_replace,
    "split": str.split,
    **STR_MORE,
}
LIST_METHODS = {
    "append": _list_append,
    "pop": lambda l, *i: l.pop(*i),
    "index": lambda l, *args: l.index(*args),
    **LIST_MORE,
}
_TYPE_METHODS = {
    int: INT_METHODS,
    float: FLOAT_METHODS,
    str: STR_METHODS,
    list: LIST_METHODS,
    tuple: TUPLE_METHODS,
    dict: DICT_METHODS,
    set: SET_METHODS,
    frozenset: FROZENSET_METHODS,
    Tensor: METHODS,  # torch.Tensor.add, map(torch.Tensor.item, xs)
}
