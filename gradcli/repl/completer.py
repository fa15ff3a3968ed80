"""Tab completion: variables, built-ins (from the op registry), keyword
arguments of the function being called, attributes and methods after a dot,
and meta-commands.

After a dot, the value before the dot is found by looking up a plain chain of
names (`x`, `x.grad`, `torch.nn.functional`): variables, built-ins and tensor
attributes that only read a field.  Nothing is ever called, so completing can
neither run user code nor change the graph.
"""

from __future__ import annotations

import inspect
import os
import re
from dataclasses import dataclass

from ..language import runtime as rt
from ..library import values
from ..engine import saved
from ..engine.function import AccumulateGrad, Function
from ..ops.registry import BUILTINS, METHOD_ONLY
from ..ops.return_types import ValuesIndices
from ..core.tensor import Tensor
from .lexer import keywords, tokens

META_COMMANDS = {
    ":help": ":help [NAME]  list the built-ins, or show one's signature",
    ":vars": ":vars  table of the variables",
    ":graph": ":graph NAME  draw the autograd graph behind a tensor",
    ":explain": ":explain OUT [X]  the derivative of OUT by X as a formula, step by step",
    ":load": ":load FILE  run a .ag file in this session",
    ":save": ":save FILE  write the inputs that ran as a .ag file",
    ":reset": ":reset  forget every variable (and reseed)",
    ":paste": ":paste  paste code (prompts taken off), then a line -- to run it (also F6)",
    ":undo": ":undo  go back to before the last input (also one stopped by Ctrl-C or an error)",
    ":quit": ":quit  leave (as Ctrl-D)",
}

_SKIP = {"__IGNORE_0", "__IGNORE_1", "COMMENT"}
_NAME_TYPES = {"NAME", "BACKWARD_CMD"}


@dataclass
class Candidate:
    text: str  # what is inserted
    start: int  # where it starts, relative to the cursor (<= 0)
    display: str = ""
    meta: str = ""


# ---------------------------------------------------------------- values


def describe(v) -> str:
    """A short description of a value (completion menus, :help NAME)."""
    if type(v) is Tensor:
        shape = (
            "(" + ", ".join(str(n) for n in v.data.shape) + ("," if v.data.ndim == 1 else "") + ")"
        )
        bits = [f"tensor {shape} {v.data.dtype.name}"]
        if v.requires_grad:
            bits.append("requires_grad")
        if v.grad_fn is not None:
            bits.append(f"grad_fn={v.grad_fn.name}")
        return " ".join(bits)
    if isinstance(v, rt.UserFunction):
        return f"function {v.name}({', '.join(v.params)})"
    if isinstance(v, values.Module):
        return f"module {v.name}"
    if isinstance(v, (Function, AccumulateGrad)):
        return f"grad_fn {v.name}"
    if isinstance(v, bool) or v is None:
        return repr(v)
    if isinstance(v, (int, float)):
        return f"{type(v).__name__} {v!r}"
    if isinstance(v, (list, tuple)):
        return f"{type(v).__name__} of {len(v)}"
    if callable(v):
        return "built-in"
    return type(v).__name__


def entry_for(name):
    """The registry entry of a built-in function or tensor method, or None."""
    return BUILTINS.get(name) or METHOD_ONLY.get(name)


def _tensor_attr(t, name):
    """A tensor attribute read without side effects (no warnings, no new nodes)."""
    if name == "grad":
        return t.grad
    if name == "grad_fn":
        return t.grad_fn
    if name in ("data", "T", "mT", "real"):
        return t  # a tensor with the same attributes; nothing is computed
    if name in rt.TENSOR_ATTRS:
        return rt.TENSOR_ATTRS[name](t)
    if name in values.METHODS:
        return values.BoundMethod(t, name, values.METHODS[name])
    raise LookupError(name)


def resolve(chain, session):
    """The value of a chain of names `a.b.c`; LookupError if it is not a plain read."""
    first = chain[0]
    if first in session.scope.vars:
        v = session.scope.vars[first]
    elif first in session.builtins:
        v = session.builtins[first]
    else:
        raise LookupError(first)
    for name in chain[1:]:
        if type(v) is Tensor:
            v = _tensor_attr(v, name)
        elif isinstance(v, values.Module):
            v = v.members[name] if name in v.members else session.builtins[name]
        elif isinstance(v, AccumulateGrad) and name == "variable":
            v = v.variable
        elif isinstance(v, ValuesIndices) and name in ("values", "indices"):
            v = v[0] if name == "values" else v[1]
        else:
            raise LookupError(name)
    return v


def attributes(v, session):
    """[(name, meta)] of what `v.` can be followed by."""
    if type(v) is Tensor:
        out = [(n, "attribute") for n in rt.TENSOR_ATTRS]
        for n in values.METHODS:
            e = entry_for(n)
            out.append((n, e.sig if e else "method"))
        return out
    if isinstance(v, values.Module):
        names = dict.fromkeys(list(v.members) + list(session.builtins))
        return [(n, describe_builtin(n, v.members.get(n, session.builtins.get(n)))) for n in names]
    if isinstance(v, Function):
        return [("next_functions", "attribute"), ("name", "method"), ("metadata", "attribute")] + [
            (n, "attribute") for n in saved.attr_names(v)
        ]
    if isinstance(v, AccumulateGrad):
        return [("variable", "attribute"), ("next_functions", "attribute"), ("name", "method")]
    if isinstance(v, ValuesIndices):
        return [("values", "attribute"), ("indices", "attribute")]
    if isinstance(v, str):
        return [(n, "method") for n in rt.STR_METHODS]
    if isinstance(v, list):
        return [(n, "method") for n in rt.LIST_METHODS]
    if isinstance(v, values.Size):
        return [("numel", "method")]
    if isinstance(v, float):
        return [("is_integer", "method")]
    from ..core.dtypes import DType

    if isinstance(v, DType):
        return [("is_floating_point", "attribute")]
    return []


def describe_builtin(name, value=None) -> str:
    e = BUILTINS.get(name)
    if e is not None:
        return e.sig
    return describe(value) if value is not None else "built-in"


# ---------------------------------------------------------------- signatures


def _sig_params(sig: str):
    """Parameter names in a registry signature string such as
    'ones(*size, dtype=None, requires_grad=False)': (with default, without)."""
    m = re.search(r"\((.*)\)", sig)
    if not m:
        return [], []
    with_default, without = [], []
    for part in m.group(1).split(","):
        part = part.strip()
        name = part.split("=")[0].strip()
        if not name.isidentifier():
            continue  # *size, **kw, "data or *size"
        (with_default if "=" in part else without).append(name)
    return with_default, without


def keyword_params(fn) -> list[str]:
    """Names that can be passed as keyword arguments to `fn` (a value)."""
    if isinstance(fn, rt.UserFunction):
        return list(fn.params)
    entry = None
    skip_first = False
    if isinstance(fn, values.BoundMethod):
        entry = entry_for(fn.name)
        skip_first = entry is not None and not entry.sig.startswith("x.")
        target = fn.fn
    elif isinstance(fn, values.BuiltinFunction):
        entry = entry_for(fn.name)
        target = fn.fn
    else:
        target = fn
        for e in list(BUILTINS.values()):
            if e.fn is fn:
                entry = e
                break
    if entry is None:
        return []
    with_default, without = _sig_params(entry.sig)
    if skip_first and without:
        without = without[1:]
    try:
        real = inspect.signature(target).parameters
        accepts_any = any(p.kind is p.VAR_KEYWORD for p in real.values())
    except (TypeError, ValueError):
        real, accepts_any = {}, True
    # documented keywords first; positional names only where the function takes them by name
    names = list(with_default)
    names += [
        n
        for n in without
        if n in real
        and real[n].kind
        in (inspect.Parameter.POSITIONAL_OR_KEYWORD, inspect.Parameter.KEYWORD_ONLY)
    ]
    if not accepts_any and real:
        names = [n for n in names if n in real] or names
    return list(dict.fromkeys(names))


# ---------------------------------------------------------------- the completer


def _significant(toks):
    return [t for t in toks if t[0] not in _SKIP]


def _chain_before(sig, i):
    """Names of the chain `a.b.c` whose last name is sig[i]; None if not a plain chain."""
    if i < 0 or sig[i][0] not in _NAME_TYPES:
        return None
    chain = [sig[i][1]]
    j = i - 1
    while j >= 1 and sig[j][0] == "DOT" and sig[j - 1][0] in _NAME_TYPES:
        chain.insert(0, sig[j - 1][1])
        j -= 2
    if j >= 0 and sig[j][0] == "DOT":
        return None  # `f(x).y`, `a[0].b`: would need a call or an index
    return chain


def _call_context(sig):
    """For the token list up to an argument position: (chain of the callee,
    keyword names already given), or None when not directly in a call."""
    depth = 0
    used = []
    for j in range(len(sig) - 1, -1, -1):
        kind = sig[j][0]
        if kind in ("RPAR", "RSQB", "RBRACE"):
            depth += 1
        elif kind in ("LPAR", "LSQB", "LBRACE"):
            if depth == 0:
                if kind != "LPAR":
                    return None
                chain = _chain_before(sig, j - 1)
                return (chain, used) if chain else None
            depth -= 1
        elif depth == 0 and kind == "EQUAL" and j > 0 and sig[j - 1][0] == "NAME":
            used.append(sig[j - 1][1])
        elif depth == 0 and kind in ("_NEWLINE", "SEMICOLON", "COLON"):
            return None
    return None


def _in_comment_or_string(text, toks):
    if not toks:
        return False
    kind, value, start = toks[-1]
    if start + len(value) < len(text):
        return False
    if kind in ("COMMENT", "ERROR_STRING", "STRING"):
        return True
    if kind == "_NEWLINE":
        return "#" in value.rsplit("\n", 1)[-1]
    return False


def _paths(word):
    d, base = os.path.split(os.path.expanduser(word))
    try:
        names = sorted(os.listdir(d or "."))
    except OSError:
        return []
    out = []
    for n in names:
        if n.startswith(base) and (base.startswith(".") or not n.startswith(".")):
            full = os.path.join(d, n) if d else n
            suffix = "/" if os.path.isdir(full) else ""
            out.append(Candidate(n + suffix, -len(base), n + suffix, ""))
    return out


def _meta_completions(text, session):
    line = text.lstrip()
    if " " not in line:
        return [
            Candidate(name, -len(line), name, doc.split("  ", 1)[-1])
            for name, doc in META_COMMANDS.items()
            if name.startswith(line)
        ]
    cmd, _, arg = line.partition(" ")
    arg = arg.lstrip()
    if cmd in (":load", ":save"):
        return _paths(arg)
    if " " in arg:
        return []
    names = []
    if cmd == ":help":
        names = [(n, e.sig) for n, e in BUILTINS.items()]
        names += [(n, e.sig) for n, e in METHOD_ONLY.items()]
        names += [(n, doc) for n, doc in META_COMMANDS.items()]
        names += [(n, describe(v)) for n, v in session.scope.vars.items()]
    elif cmd in (":graph", ":explain"):
        names = [(n, describe(v)) for n, v in session.scope.vars.items()]
    seen = set()
    out = []
    for n, meta in names:
        if n.startswith(arg) and n not in seen:
            seen.add(n)
            out.append(Candidate(n, -len(arg), n, meta))
    return out


def _subsequence(word, name):
    """`word`'s letters appear in `name` in order, starting with its first."""
    if not name.startswith(word[:1]):
        return False
    it = iter(name)
    return all(ch in it for ch in word)


def _filter(pool, word):
    """Names that start with `word`; if none do, names that contain its letters
    in order (fuzzy: `line` finds `linspace`).  `_names` only when asked for."""
    pool = [p for p in pool if word.startswith("_") or not p[0].startswith("_")]
    seen = set()
    unique = []
    for p in pool:
        if p[0] not in seen:
            seen.add(p[0])
            unique.append(p)
    exact = [p for p in unique if p[0].startswith(word)]
    if exact or not word:
        return exact
    return [p for p in unique if _subsequence(word, p[0])]


def complete(text: str, session) -> list[Candidate]:
    """Candidates for the text before the cursor."""
    if "\n" not in text and text.lstrip().startswith(":"):
        return _meta_completions(text, session)
    toks = tokens(text)
    if _in_comment_or_string(text, toks):
        return []
    sig = _significant(toks)
    word = ""
    if sig:
        kind, value, start = sig[-1]
        if start + len(value) == len(text) and value.isidentifier():
            word = value
            sig = sig[:-1]
        elif kind == "NUMBER" and start + len(value) == len(text):
            return []

    def result(pool):
        return [Candidate(n, -len(word), n, meta) for n, meta in _filter(pool, word)]

    if sig and sig[-1][0] == "DOT":
        chain = _chain_before(sig, len(sig) - 2)
        if not chain:
            return []
        try:
            value = resolve(chain, session)
        except Exception:  # not a plain read, or unknown: nothing to offer
            return []
        return result(attributes(value, session))

    pool = []
    if sig and sig[-1][0] in ("LPAR", "COMMA"):
        ctx = _call_context(sig)
        if ctx:
            chain, used = ctx
            try:
                params = keyword_params(resolve(chain, session))
            except Exception:
                params = []
            pool += [(p + "=", "keyword argument") for p in params if p not in used]
            if not word:
                return result(pool)
    if not word:
        return []
    pool += [(n, describe(v)) for n, v in session.scope.vars.items()]
    pool += [(n, describe_builtin(n, v)) for n, v in session.builtins.items()]
    pool += [(n, "keyword") for n in sorted(keywords())]
    return result(pool)


def make_completer(session_getter):
    """A prompt_toolkit Completer over `complete` (session_getter() -> Session)."""
    from prompt_toolkit.completion import Completer, Completion

    class GradCompleter(Completer):
        def get_completions(self, document, complete_event):
            try:
                cands = complete(document.text_before_cursor, session_getter())
            except Exception:  # completion must never break the prompt
                return
            for c in cands:
                yield Completion(
                    c.text, start_position=c.start, display=c.display, display_meta=c.meta
                )

    return GradCompleter()
