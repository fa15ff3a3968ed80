"""The symbolic side of `explain`: tensors as NumPy object arrays of SymPy expressions,
and `S`, the namespace each op's `formula` rule receives (as `backward` receives `F`).

An op's rule lives on its node class, in the op's own file:

    def formula(self, S, a, b):   # one argument per input of the node
        return a + S.const(b, self, 1)

Each argument is the input as an object array of SymPy expressions of the input's
shape, or None where the input was a constant (no gradient flows to it): the rule asks
`S.const` for its value, which the node kept (`k`, a Python number operand) or saved
(while its saved values live), else a symbol standing for it.  The result is the
output as an object array.  A rule may call `S.named(...)` to say that its op is shown
as a named function with its local Jacobian (sort, topk, indexing with data), though
its values are exact (a selection of its input's elements).

SymPy is imported here only, and this module only when `explain` or `diff` runs.
"""

from __future__ import annotations

import math
from fractions import Fraction

import numpy as np
import sympy as sp


class Unsupported(Exception):
    """A rule that does not cover this use of its op (the op is shown as a named
    function with its local Jacobian instead)."""


def number(k):
    """A Python (or NumPy) number as an exact SymPy number where it is a short decimal
    (0.5 -> 1/2, 2.0 -> 2), else as a float."""
    if isinstance(k, (bool, np.bool_)):
        return sp.Integer(int(k))
    if isinstance(k, (int, np.integer)):
        return sp.Integer(int(k))
    k = float(k)
    if math.isnan(k):
        return sp.nan
    if math.isinf(k):
        return sp.oo if k > 0 else -sp.oo
    if k.is_integer():
        return sp.Integer(int(k))
    text = repr(k)
    if len(text) <= 8:  # a short decimal (0.25, 1e-08): exactly
        f = Fraction(text)
        return sp.Rational(f.numerator, f.denominator)
    for den in (3, 6, 7, 9, 12):  # 1/3 and the like, as float32 or float64 hold them
        f = Fraction(k).limit_denominator(den)
        if f and abs(float(f) - k) <= 1e-7 * abs(k):
            return sp.Rational(f.numerator, f.denominator)
    return sp.Float(k, 17)


def symbols(name, shape):
    """An object array of real symbols `name_i_j` (a 0-d array: `name`)."""
    out = np.empty(shape, dtype=object)
    for idx in np.ndindex(*shape):
        label = name if not idx else name + "_" + "_".join(str(i) for i in idx)
        out[idx] = sp.Symbol(label, real=True)
    return out


def obj(a):
    """Any value as an object array of SymPy expressions."""
    if isinstance(a, np.ndarray) and a.dtype == object:
        return a
    arr = np.asarray(a)
    out = np.empty(arr.shape, dtype=object)
    for idx in np.ndindex(*arr.shape):
        v = arr[idx]
        out[idx] = v if isinstance(v, sp.Basic) else number(v.item() if hasattr(v, "item") else v)
    return out


class Symbolic:
    """The namespace `S` of formula rules."""

    sp = sp
    Unsupported = Unsupported
    obj = staticmethod(obj)

    def __init__(self, constant_name, named_constant=None):
        self._constant_name = constant_name  # shape -> a fresh symbol array's name
        # array -> the symbols of the program's tensor it holds (or views), or None
        self._named_constant = named_constant or (lambda arr: None)
        self.shown_named = False

    # -- inputs
    def const(self, x, node, i, shape=None):
        """Input `i` of `node`: x itself when it is symbolic (it takes gradients), else
        the constant's value (the Python number the node kept as `k`, or the array it
        saved), or symbols standing for it when the node no longer has it."""
        if x is not None:
            return x
        k = getattr(node, "k", None) if i == 1 else None
        if k is not None and not isinstance(k, np.ndarray):
            return obj(k)
        saved = getattr(node, "saved", None)
        if saved and i < len(saved) and saved[i] is not None:
            return self._value(saved[i])
        return self.unknown(None, node, i, shape)

    def _value(self, arr):
        """A constant array: the symbols of the program's tensor it is, or its values."""
        named = self._named_constant(arr) if isinstance(arr, np.ndarray) and arr.ndim else None
        return named if named is not None else obj(arr)

    def saved_const(self, x, node, j, shape):
        """As const, for an input the node saved as its saved value j."""
        if x is not None:
            return x
        saved = getattr(node, "saved", None)
        if saved and j < len(saved) and saved[j] is not None:
            return self._value(saved[j])
        return self.unknown(x, node, ("saved", j), shape)

    def unknown(self, x, node, key, shape):
        """x, or symbols standing for a constant input whose value the node does not keep
        (Unsupported when its shape is not known either)."""
        if x is not None:
            return x
        if shape is None:
            raise Unsupported(key)
        return symbols(self._constant_name(shape, (id(node), key)), shape)

    def number(self, k):
        return number(k)

    # -- element-wise
    def map(self, f, a):
        a = obj(a)
        out = np.empty(a.shape, dtype=object)
        for idx in np.ndindex(*a.shape):
            out[idx] = f(a[idx])
        return out

    def map2(self, f, a, b):
        """f of the elements of a and b, broadcast together."""
        a, b = np.broadcast_arrays(obj(a), obj(b))
        out = np.empty(a.shape, dtype=object)
        for idx in np.ndindex(*a.shape):
            out[idx] = f(a[idx], b[idx])
        return out

    def exp(self, a):
        return self.map(sp.exp, a)

    def log(self, a):
        return self.map(sp.log, a)

    def sigmoid(self, a):
        return self.map(lambda v: 1 / (1 + sp.exp(-v)), a)

    def relu(self, a):
        return self.map(lambda v: sp.Piecewise((v, v > 0), (0, True)), a)

    # -- reductions
    def sum(self, a, axes=None, keepdim=False):
        a = obj(a)
        if axes is None:
            axes = tuple(range(a.ndim))
        if not a.size:
            out = np.zeros(
                tuple(1 if i in axes else n for i, n in enumerate(a.shape))
                if keepdim
                else tuple(n for i, n in enumerate(a.shape) if i not in axes)
            )
            return obj(out)
        return obj(np.sum(a, axis=tuple(axes), keepdims=keepdim))

    def mean(self, a, axes=None, keepdim=False):
        a = obj(a)
        if axes is None:
            axes = tuple(range(a.ndim))
        n = int(np.prod([a.shape[i] for i in axes])) if axes else 1
        return self.map(lambda v: v / n, self.sum(a, axes, keepdim))

    def softmax(self, a, axis, log=False):
        a = obj(a)
        e = self.map(sp.exp, a)
        total = np.sum(e, axis=axis, keepdims=True)
        if log:
            return obj(a - self.map(sp.log, total))
        return obj(e / total)

    def matmul(self, a, b):
        a, b = obj(a), obj(b)
        if a.ndim == 1 and b.ndim == 1:
            return obj(np.array(sum((a * b).tolist(), sp.Integer(0)), dtype=object))
        return obj(np.matmul(a, b))

    # -- ops shown as named functions
    def named(self, out):
        """The result of a rule whose op is shown as a named function with its local
        Jacobian (its values are exact: a selection of its input's elements)."""
        self.shown_named = True
        return obj(out)
