"""The built-in reference as Markdown, made from the tables themselves: the op table
(`BUILTINS`, `METHOD_ONLY`), the `torch` namespace (library/name_docs.py), the Python
built-ins of the language (language/prelude.py) and its importable modules.

The documentation site's build writes it as reference/builtins.md (scripts/docs_hooks.py),
so the reference lists exactly what gradcli has; `python -m gradcli.repl.reference` prints
it.  The same entries are what `:help NAME` shows in the REPL.
"""

from __future__ import annotations

from .. import driver  # noqa: F401  (a session's imports: every built-in registered)
from ..language import prelude
from ..library import help as library_help
from ..library import name_docs, stdlib, torch_ns
from ..ops.registry import BUILTINS, METHOD_ONLY

CATEGORIES = [
    ("creation", "Creating tensors"),
    ("arith", "Arithmetic"),
    ("math", "Element-wise math"),
    ("compare", "Comparisons and tests"),
    ("bitwise", "Bitwise and logical"),
    ("reduce", "Reductions"),
    ("linalg", "Linear algebra"),
    ("shape", "Shapes, joining and indexing"),
    ("autograd", "Autograd and calculus"),
    ("loss", "Losses"),
    ("nn", "Neural-network functions"),
    ("optim", "Optimizers"),
    ("tensor", "Tensor methods"),
    ("misc", "Everything else"),
]

_PYTHON_MODULES = ["math", "random", "functools", "itertools", "collections", "copy", "time"]


def _cell(text: str) -> str:
    return text.replace("|", "\\|").replace("\n", " ")


def _entries():
    """{category: [(names, entry)]}: each op-table entry once, with all its names."""
    by_entry: dict[int, tuple[list[str], object]] = {}
    for table, method_only in ((BUILTINS, False), (METHOD_ONLY, True)):
        for name, e in table.items():
            shown = f"x.{name}" if method_only else name
            if id(e) in by_entry:
                by_entry[id(e)][0].append(shown)
            else:
                by_entry[id(e)] = ([shown], e)
    cats: dict[str, list] = {}
    for names, e in by_entry.values():
        cat = e.category if e.category in dict(CATEGORIES) else "misc"
        cats.setdefault(cat, []).append((names, e))
    for items in cats.values():
        items.sort(key=lambda it: it[0][0].lstrip("x.").lower())
    return cats


def _entry_md(names, e) -> list[str]:
    head = ", ".join(f"`{n}`" for n in names)
    out = [f"- {head}: `{_cell(e.sig)}`", f"    {e.doc}"]
    extra = []
    if e.method and e.function:
        extra.append(f"also `x.{e.name}(...)`")
    torch_name = library_help.pytorch_name(e)
    if torch_name:
        extra.append(f"PyTorch: `{torch_name}`")
    elif e.name in library_help._OWN:
        extra.append("gradcli's own")
    if extra:
        out.append("    (" + "; ".join(extra) + ")")
    return out


def markdown() -> str:
    torch_ns.namespace()
    lines = [
        "# Built-ins",
        "",
        "Every built-in of gradcli, made from its op table when this site is built. In the",
        "REPL, `:help NAME` (or `NAME?`) shows the same entry with an example computed by",
        "gradcli. `torch.NAME`, `torch.nn.functional.NAME` and `F.NAME` reach the same",
        "built-ins; names marked `x.` exist only as tensor methods.",
        "",
    ]
    cats = _entries()
    for cat, title in CATEGORIES:
        if cat not in cats:
            continue
        lines += [f"## {title}", ""]
        for names, e in cats[cat]:
            lines += _entry_md(names, e)
        lines.append("")
    lines += [
        "## The torch namespace",
        "",
        "Modules, classes and functions under `torch` that are not in the lists above.",
        "",
        "| name | signature | what |",
        "| --- | --- | --- |",
    ]
    for q, v in name_docs.walk():
        sig = name_docs.signature(q, v)
        what = name_docs.doc(q, v) or name_docs.kind(v)
        lines.append(f"| `{q}` | `{_cell(sig)}` | {_cell(what)} |")
    lines += [
        "",
        "## Python built-ins",
        "",
        "These have Python's meaning (see [the language](../language.md)):",
        "",
        ", ".join(f"`{n}`" for n in sorted(prelude.prelude())),
        "",
        "## Python modules",
        "",
        "`import NAME` works for these modules, each gradcli's own with Python's surface:",
        "",
    ]
    for name in _PYTHON_MODULES:
        members = sorted(k for k in stdlib.module(name).members if not k.startswith("_"))
        lines.append(f"- `{name}`: " + ", ".join(f"`{m}`" for m in members))
    lines.append("")
    return "\n".join(lines)


def names() -> set[str]:
    """Every name the reference must list (for its test)."""
    out = set(BUILTINS) | {f"x.{n}" for n in METHOD_ONLY}
    out |= {q for q, _ in name_docs.walk()}
    return out


if __name__ == "__main__":
    print(markdown())
