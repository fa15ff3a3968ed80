"""Printing `explain`'s formulas on one line: Unicode for a terminal (∂, Σ, subscripts,
superscripts, ᵀ), ASCII where the terminal is dumb or NO_COLOR is set, plain SymPy text
(what `sympy.sympify` reads back) for --json, and LaTeX for notebooks.

Symbols are named as `symbols_of` makes them: an element `x_0_1` (x[0, 1]), a whole
tensor's generic element `x__ij` (xᵢⱼ; plain text `x`), a scalar `x`.
"""

from __future__ import annotations

import os
import re

import sympy as sp
from sympy.printing.precedence import PRECEDENCE
from sympy.printing.str import StrPrinter

SUB = str.maketrans("0123456789ijklmnr+-()", "₀₁₂₃₄₅₆₇₈₉ᵢⱼₖₗₘₙᵣ₊₋₍₎")
SUP = str.maketrans("0123456789-+", "⁰¹²³⁴⁵⁶⁷⁸⁹⁻⁺")


def ascii_terminal() -> bool:
    """Whether formulas are printed in ASCII: NO_COLOR set, or a dumb terminal."""
    return bool(os.environ.get("NO_COLOR")) or os.environ.get("TERM") == "dumb"


def split_name(name: str):
    """(tensor name, index text) of a symbol's name: 'x__ij' -> ('x', 'ij'),
    'x_0_1' -> ('x', '0,1'), 'x' -> ('x', '')."""
    if "__" in name:
        base, _, letters = name.rpartition("__")
        return base, letters
    m = re.match(r"^(.*?)((?:_\d+)+)$", name)
    if m:
        return m.group(1), ",".join(m.group(2)[1:].split("_"))
    return name, ""


def show_name(name: str, style: str) -> str:
    base, idx = split_name(name)
    if not idx:
        return base
    if style == "unicode":
        if all(c in "0123456789ijklmnr," for c in idx) and "," not in idx:
            return base + idx.translate(SUB)
        return base + "[" + idx + "]"
    if style == "latex":
        return f"{_latex_base(base)}_{{{idx}}}"
    if style == "plain":
        return base if not idx[0].isdigit() else name
    return base + "_" + idx.replace(",", "")  # ascii


def _latex_base(base):
    return base if len(base) == 1 else r"\mathrm{" + base.replace("_", r"\_") + "}"


def _indexed(e):
    """An Indexed element as (tensor name, index text): x[j] -> ('x', 'j'); a slice's
    `W@i_*`[j] -> ('W', 'ij'), `x@*_1`[i] -> ('x', 'i1')."""
    base, parts = indexed_parts(e)
    return base, "".join(parts)


def indexed_parts(e):
    """As _indexed, the index as a list: ('W', ['i', 'j'])."""
    label = str(e.base.label)
    idx = [str(i) for i in e.indices]
    if "@" not in label:
        return label, idx
    base, _, pattern = label.partition("@")
    it = iter(idx)
    return base, [next(it, "?") if p == "*" else p for p in pattern.split("_")]


def sup(n) -> str:
    return str(n).translate(SUP)


class OneLine(StrPrinter):
    """SymPy's str printer with gradcli's names, superscripts and Σ."""

    printmethod = "_gradcli_str"  # (not the objects' own _sympystr: Indexed has one)

    def __init__(self, style):
        super().__init__({"order": None})
        self.style = style

    def _print_Symbol(self, e):
        return show_name(e.name, self.style)

    def _print_Dummy(self, e):
        return e.name

    def _print_Indexed(self, e):
        base, idx = _indexed(e)
        if self.style == "unicode":
            return base + idx.translate(SUB)
        if self.style == "plain":
            return f"{base}[{', '.join(indexed_parts(e)[1])}]"
        return base + "_" + idx

    def _print_Idx(self, e):
        return str(e.label)

    def _print_Float(self, e):
        if self.style == "plain":
            return super()._print_Float(e)
        return f"{float(e):.6g}"

    def _print_Integer(self, e):
        n = int(e)
        if self.style != "plain" and n >= 16 and n & (n - 1) == 0:  # 2^k (a loop's doubling)
            k = n.bit_length() - 1
            return "2" + sup(k) if self.style == "unicode" else f"2^{k}"
        return super()._print_Integer(e)

    def _print_Pow(self, e, rational=False):
        b, x = e.as_base_exp()
        if self.style == "unicode" and x.is_Integer and int(x) > 1:
            return self.parenthesize(b, PRECEDENCE["Pow"], strict=False) + sup(int(x))
        text = super()._print_Pow(e, rational)
        return text.replace("**", "^") if self.style == "ascii" else text

    def _print_Sum(self, e):
        if self.style == "plain":
            return super()._print_Sum(e)
        body = self._print(e.function)
        if e.function.is_Add:
            body = "(" + body + ")"
        letters = "".join(str(lim[0]) for lim in e.limits)
        if self.style == "unicode":
            return "Σ" + letters.translate(SUB) + " " + body
        return "sum_" + letters + " " + body

    def _print_Piecewise(self, e):
        if self.style == "plain":
            return super()._print_Piecewise(e)
        parts = []
        for value, cond in e.args:
            if cond is sp.true:
                parts.append(self._print(value))
            else:
                parts.append(f"{self._print(value)} if {self._print(cond)} else")
        return "(" + " ".join(parts) + ")"

    def _print_Abs(self, e):
        if self.style == "plain":
            return f"Abs({self._print(e.args[0])})"
        return "|" + self._print(e.args[0]) + "|"

    def _print_KroneckerDelta(self, e):
        args = sorted(e.args, key=lambda a: a.is_number)  # the index first: δᵢ₂
        if self.style == "plain":
            return f"KroneckerDelta({self._print(args[0])}, {self._print(args[1])})"
        idx = "".join(str(a) for a in args)
        return "δ" + idx.translate(SUB) if self.style == "unicode" else f"delta_{idx}"

    def _print_Heaviside(self, e):
        return "H(" + self._print(e.args[0]) + ")"

    def _print_Mul(self, e):
        text = super()._print_Mul(e)
        return text.replace("*", "·") if self.style == "unicode" else text


_PRINTERS = {}


def one_line(expr, style: str) -> str:
    p = _PRINTERS.get(style)
    if p is None:
        p = _PRINTERS[style] = OneLine(style)
    text = p.doprint(expr)
    if style == "unicode":
        text = text.replace("**", "^")
    return text


def latex(expr) -> str:
    def indexed(e):
        base, idx = _indexed(e)
        return sp.Symbol(f"{_latex_base(base)}_{{{idx}}}")

    expr = expr.replace(lambda a: isinstance(a, sp.Indexed), indexed)
    names = {
        s: show_name(s.name, "latex")
        for s in expr.free_symbols
        if isinstance(s, sp.Symbol) and not s.name.endswith("}")
    }
    return sp.latex(expr, symbol_names=names)


def tensor_label(name: str, letters: str, style: str) -> str:
    """A tensor's name with its element index: xᵢ, x_i, x_{i}, or x for a scalar."""
    if not letters:
        return name if style != "latex" else _latex_base(name)
    return show_name(name + "__" + letters, style)


def partial(top: str, bottom: str, style: str) -> str:
    if style == "latex":
        return r"\frac{\partial " + top + r"}{\partial " + bottom + "}"
    d = "∂" if style == "unicode" else "d"
    return f"{d}{top}/{d}{bottom}"
