"""Folding a tensor's element formulas into one formula of a generic element.

`collapse(arr, owners)` writes the formulas of all of arr's elements (each a SymPy
expression of the elements of the tensors it reads) as one: sums over every element of
a vector, or of a row of a matrix (Σⱼ Wᵢⱼ xⱼ), become Σ; then each tensor's element at
the position of arr's element becomes the tensor's generic element (xᵢ, Wᵢⱼ, bᵢ by
broadcasting from the right, or from the left for a matrix's rows); when every element
gives the same formula, that is it.
"""

from __future__ import annotations

import itertools
import random

import numpy as np
import sympy as sp

LETTERS = "ijklmn"


class Owners:
    """Which tensor each element symbol belongs to: `whole` (symbol -> (name, array,
    position)), and for folding also the slices of a tensor with some of its indices
    fixed (a row `W@0_*`, a column `x@*_1`: symbol -> [(name, array, position)])."""

    def __init__(self, arrays):
        self.arrays = list(arrays)  # [(name, object array of symbols)]
        self.whole = {}
        self.multi = {}
        self.slices = []  # (name, array, fixed dims)
        for name, arr in self.arrays:
            for idx in np.ndindex(*arr.shape):
                s = arr[idx]
                self.whole[s] = (name, arr, idx)
                self.multi.setdefault(s, []).append((name, arr, idx))
            nd = arr.ndim
            if nd < 2 or nd > 3:
                continue
            for fixed in itertools.chain.from_iterable(
                itertools.combinations(range(nd), k) for k in range(1, nd)
            ):
                self.slices.append((name, arr, fixed))
                for at in np.ndindex(*[arr.shape[d] for d in fixed]):
                    key = [slice(None)] * nd
                    parts = ["*"] * nd
                    for d, v in zip(fixed, at):
                        key[d] = v
                        parts[d] = str(v)
                    part = arr[tuple(key)]
                    pname = name + "@" + "_".join(parts)
                    for idx in np.ndindex(*part.shape):
                        self.multi[part[idx]].append((pname, part, idx))


def fold_sums(e, owners, first_letter="j"):
    """Terms f(x_q) for every q of one shape (with the same positions of the other
    tensors and rows of that shape) become Σ_q f(x_q)."""
    if e.is_Atom or isinstance(e, sp.Sum):
        return e
    args = [fold_sums(a, owners, first_letter) for a in e.args]
    if args != list(e.args):
        e = e.func(*args)
    if not e.is_Add or len(e.args) < 2:
        return e
    changed = True
    while changed and e.is_Add:
        changed = False
        terms = list(e.args)
        shapes = set()
        for t in terms:
            for s in t.free_symbols:
                for _, arr, _ in owners.multi.get(s, ()):
                    if arr.size > 1:
                        shapes.add(arr.shape)
        for shape in sorted(shapes, key=lambda sh: (-int(np.prod(sh)), sh)):  # whole first
            folded = _fold_class(terms, shape, owners, first_letter)
            if folded is not None:
                e = folded
                changed = True
                break
    return e


def _fold_class(terms, shape, owners, first_letter):
    n = int(np.prod(shape))
    groups = {}
    for k, t in enumerate(terms):
        members = {}
        for s in t.free_symbols:
            for name, arr, pos in owners.multi.get(s, ()):
                if arr.shape == shape:
                    members.setdefault(s, (name, pos))
        positions = {pos for _, pos in members.values()}
        if len(positions) != 1:
            continue
        (pos,) = positions
        marks = {s: sp.Symbol("\0" + name, real=True) for s, (name, _) in members.items()}
        key = t.xreplace(marks)
        groups.setdefault(key, {})[pos] = k
    for key, by_pos in groups.items():
        if len(by_pos) != n or n < 2:
            continue
        letters = [sp.Idx(c) for c in _letters(first_letter, len(shape))]
        repl = {
            m: sp.Indexed(sp.IndexedBase(m.name[1:]), *letters)
            for m in key.free_symbols
            if m.name.startswith("\0")
        }
        coeff, body = key.xreplace(repl).as_coeff_Mul()
        total = coeff * sp.Sum(body, *[(i, 0, m - 1) for i, m in zip(letters, shape)])
        rest = [t for k, t in enumerate(terms) if k not in set(by_pos.values())]
        return sp.Add(total, *rest)
    return None


def _letters(first, n):
    start = LETTERS.index(first) if first in LETTERS else 1
    pool = LETTERS[start:] + LETTERS[:start]
    return list(pool[:n])


def _align(shape, ref):
    """Per dim of a tensor of `shape`, the dim of ref it follows (None: size 1, fixed at
    0), broadcasting from the right, else (a matrix's rows) from the left; or None."""
    r = len(ref)
    for offset in (r - len(shape), 0):
        if offset < 0 and offset != 0:
            continue
        dims, ok = [], True
        for d, m in enumerate(shape):
            dd = d + offset
            if dd >= r or dd < 0:
                ok = False
                break
            if m == ref[dd]:
                dims.append(dd)
            elif m == 1:
                dims.append(None)
            else:
                ok = False
                break
        if ok:
            return dims
    return None


def generic_map(pos, ref_shape, owners, letters):
    """σ_pos: each tensor's element at position pos (broadcast to ref_shape) -> its
    generic symbol (name__letters); and for the slices of tensors (IndexedBase `W@0_*`)
    whose fixed indices are pos's, their generic name (`W@i_*`)."""
    sub, bases = {}, {}
    for name, arr in owners.arrays:
        sh = arr.shape
        if sh and len(sh) <= len(ref_shape):
            dims = _align(sh, ref_shape)
            if dims is not None:
                idx = tuple(0 if d is None else pos[d] for d in dims)
                lets = "".join(letters[d] for d in dims if d is not None)
                sub[arr[idx]] = sp.Symbol(name + ("__" + lets if lets else ""), real=True)
    for name, arr, fixed in owners.slices:
        dims = _align(tuple(arr.shape[d] for d in fixed), ref_shape)
        if dims is None or None in dims:
            continue
        parts, generic = ["*"] * arr.ndim, ["*"] * arr.ndim
        for d, dd in zip(fixed, dims):
            parts[d] = str(pos[dd])
            generic[d] = letters[dd]
        bases[name + "@" + "_".join(parts)] = name + "@" + "_".join(generic)
    return sub, bases


def _rename_bases(e, bases):
    if not bases:
        return e
    found = {b for b in e.atoms(sp.IndexedBase) if str(b.label) in bases}
    if not found:
        return e
    return e.xreplace({b: sp.IndexedBase(bases[str(b.label)]) for b in found})


def collapse(arr, owners, letters=None):
    """One formula of a generic element for all of arr's elements, or None."""
    shape = arr.shape
    letters = letters or LETTERS[: len(shape)]
    if not shape:
        return fold_sums(arr[()], owners, "i")
    temps = []
    first_sum = LETTERS[len(shape)] if len(shape) < len(LETTERS) else "j"
    for pos in np.ndindex(*shape):
        e = fold_sums(arr[pos], owners, first_sum)
        sub, bases = generic_map(pos, shape, owners, letters)
        temps.append(_rename_bases(e.xreplace(sub), bases))
    first = temps[0]
    if any(s in owners.whole for s in first.free_symbols):
        return None  # still reads single elements of some tensor
    if any(
        any(c.isdigit() for c in str(b.label).partition("@")[2])
        for b in first.atoms(sp.IndexedBase)
    ):
        return None  # a slice of a tensor that is not this element's
    if all(t == first for t in temps[1:]):
        return first
    if _numerically_equal(temps):
        return first
    return _with_deltas(temps, shape, letters)


def _with_deltas(temps, shape, letters):
    """For a vector whose elements share one formula but for a constant at one or two
    positions (a cross entropy's target class): the formula plus constant·δᵢₜ."""
    if len(shape) != 1 or len(temps) < 3:
        return None
    common = max(set(temps), key=temps.count)
    odd = [p for p, t in enumerate(temps) if t != common]
    if len(odd) > 2 or len(temps) - len(odd) < 2:
        return None
    out = common
    for p in odd:
        d = temps[p] - common
        if d.free_symbols or d.has(sp.Sum):
            return None
        out = out + d * sp.KroneckerDelta(sp.Symbol(letters[0], integer=True), p)
    return out


def _numerically_equal(exprs):
    sums = {}

    def sub_sums(e):
        return e.replace(lambda a: isinstance(a, sp.Sum), lambda a: sums.setdefault(a, sp.Dummy()))

    exprs = [sub_sums(e) for e in exprs]
    syms = set().union(*(e.free_symbols for e in exprs))
    rng = random.Random(7)
    for _ in range(2):
        vals = {s: sp.Float(rng.uniform(0.3, 1.7)) for s in syms}
        ref = None
        for e in exprs:
            try:
                v = complex(e.xreplace(vals).evalf())
            except (TypeError, ValueError):
                return False
            if ref is None:
                ref = v
            elif abs(v - ref) > 1e-9 * max(1.0, abs(ref)):
                return False
    return True
