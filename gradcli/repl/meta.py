"""Meta-commands: input lines that start with `:`.

    :help [NAME]   :vars   :graph NAME   :explain OUT [X]   :load FILE   :save FILE
    :reset   :quit

They talk to the REPL (`repl.session`, `repl.transcript`, `repl.run_source`,
`repl.reset`) and print on stdout; a failure prints one line on stderr.
"""

from __future__ import annotations

import os
import shutil
import sys
import textwrap

from ..language import runtime as rt
from ..library import values
from ..runtime.errors import GradError, did_you_mean
from ..ops.registry import BUILTINS, METHOD_ONLY
from ..core.tensor import Tensor
from .completer import META_COMMANDS, describe
from .lexer import keywords
from .undo import cmd_undo
from .paste import cmd_paste
from ..library import help as library_help
from ..library import name_docs
from .help import topic_text as help_topic, topics_line
from ..driver import UsageError, read_source

QUIT = object()

KEYS_HELP = """\
keys: Enter runs a complete input (a line ending in ':' or an open bracket
  continues with '... '; an empty line ends a block), Esc Enter runs as is,
  Tab completes (names, built-ins, keyword=, x.attributes) or indents,
  Up/Down and Ctrl-R recall history, Right arrow takes the grey suggestion,
  Ctrl-C clears the line or interrupts a running statement, Ctrl-D leaves."""

_CATEGORY_ORDER = [
    "creation",
    "arith",
    "math",
    "compare",
    "reduce",
    "linalg",
    "shape",
    "autograd",
    "loss",
    "optim",
    "tensor",
    "misc",
]


def _say(text=""):
    sys.stdout.write(text + "\n")
    sys.stdout.flush()


def _fail(text):
    sys.stdout.flush()
    sys.stderr.write(text + "\n")
    sys.stderr.flush()


def _width():
    return max(40, min(100, shutil.get_terminal_size((80, 24)).columns))


# ---------------------------------------------------------------- :help


def help_overview() -> str:
    width = _width()
    out = ["meta-commands:"]
    for doc in META_COMMANDS.values():
        cmd, _, what = doc.partition("  ")
        out.append(f"  {cmd:<14}{what}")
    out.append(KEYS_HELP)
    out.append(topics_line())
    out.append("built-ins (:help NAME shows one; most are also tensor methods x.NAME(...)):")
    groups: dict[str, list[str]] = {}
    for name, e in BUILTINS.items():
        groups.setdefault(e.category or "misc", []).append(name)
    methods = [n for n in METHOD_ONLY if n != "index"]
    if methods:
        groups.setdefault("tensor", [])
        groups["tensor"] += ["x." + n for n in methods]
    order = [c for c in _CATEGORY_ORDER if c in groups] + sorted(
        c for c in groups if c not in _CATEGORY_ORDER
    )
    for cat in order:
        label = f"  {cat + ':':<11}"
        out.append(
            textwrap.fill(
                " ".join(groups[cat]),
                width=width,
                initial_indent=label,
                subsequent_indent=" " * len(label),
                break_on_hyphens=False,
            )
        )
    label = f"  {'constants:':<11}"
    out.append(
        textwrap.fill(
            "pi e inf nan; dtypes float64 (double) float32 (float) int64 (long) bool; "
            "torch.NAME and F.NAME are the same built-ins",
            width=width,
            initial_indent=label,
            subsequent_indent=" " * len(label),
        )
    )
    label = f"  {'modules:':<11}"
    modules = [q for q, v in name_docs.walk() if name_docs.kind(v) == "module"]
    out.append(
        textwrap.fill(
            " ".join(modules) + " (:help torch.nn lists one's classes and functions)",
            width=width,
            initial_indent=label,
            subsequent_indent=" " * len(label),
            break_on_hyphens=False,
        )
    )
    return "\n".join(out)


def help_name(name: str, session) -> str | None:
    """The help text for NAME, or None if there is none."""
    topic = help_topic(name)
    if topic is not None:
        return topic
    if name.startswith(":") or ":" + name in META_COMMANDS:
        key = name if name.startswith(":") else ":" + name
        if key in META_COMMANDS:
            cmd, _, what = META_COMMANDS[key].partition("  ")
            return f"{cmd}\n    {what}"
    for prefix in ("x.", "torch.", "F.", "torch.nn.functional."):
        if name.startswith(prefix) and name[len(prefix) :].isidentifier():
            name = name[len(prefix) :]
            break
    lines = []
    entry = BUILTINS.get(name) or METHOD_ONLY.get(name)
    if entry is not None:
        lines.append(library_help.help_text(entry, name))
    elif name in rt.TENSOR_ATTRS:
        lines.append(f"x.{name}")
        lines.append("    a tensor attribute")
    elif name in values.METHODS:
        lines.append(f"x.{name}(...)")
        lines.append("    a tensor method")
    elif name_docs.find(name) is not None:
        qualname, value = name_docs.find(name)
        found = library_help.entry_of(value)
        lines.append(
            library_help.help_text(found) if found is not None else name_docs.text(qualname, value)
        )
    if name in session.scope.vars:
        lines.append(f"{name}: a variable, {describe(session.scope.vars[name])}")
    elif entry is None and name in session.builtins:
        lines.append(f"{name}: {describe(session.builtins[name])}")
    elif entry is None and name in keywords():
        lines.append(f"{name}: a keyword of the language")
    return "\n".join(lines) if lines else None


def cmd_help(repl, arg):
    if not arg:
        _say(help_overview())
        return
    text = help_name(arg, repl.session)
    if text is None:
        known = (
            list(BUILTINS)
            + list(METHOD_ONLY)
            + list(repl.session.scope.vars)
            + [k[1:] for k in META_COMMANDS]
        )
        hint = did_you_mean(arg, known)
        _fail(f"no help for {arg!r}" + (f"; {hint}" if hint else "") + " (:help lists all)")
        return
    _say(text)


# ---------------------------------------------------------------- :vars


def var_row(name, v):
    if type(v) is Tensor:
        shape = (
            "(" + ", ".join(str(n) for n in v.data.shape) + ("," if v.data.ndim == 1 else "") + ")"
        )
        return [
            name,
            shape,
            v.data.dtype.name,
            str(v.requires_grad),
            v.grad_fn.name if v.grad_fn is not None else "-",
            "yes" if v.grad is not None else "no",
        ]
    kind = "function" if isinstance(v, rt.UserFunction) else type(v).__name__
    if isinstance(v, (list, tuple)):
        return [name, f"({len(v)},)", kind, "-", "-", "-"]
    return [name, "-", kind, "-", "-", "-"]


def vars_table(scope_vars) -> str:
    if not scope_vars:
        return "no variables"
    rows = [["name", "shape", "dtype", "requires_grad", "grad_fn", ".grad"]]
    rows += [var_row(n, v) for n, v in scope_vars.items()]
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    return "\n".join("  ".join(c.ljust(w) for c, w in zip(r, widths)).rstrip() for r in rows)


def cmd_vars(repl, arg):
    _say(vars_table(repl.session.scope.vars))


# ---------------------------------------------------------------- :graph


def cmd_graph(repl, arg):
    if not arg:
        _fail("usage: :graph NAME")
        return
    fn = repl.session.builtins.get("graph")
    if fn is None:
        _fail(":graph is not available (this gradcli has no graph built-in)")
        return
    if not arg.isidentifier():
        # an expression: the language's own graph(...) call, not recorded
        repl.run_source(f"graph({arg})", record=False)
        return
    if arg not in repl.session.scope.vars:
        hint = did_you_mean(arg, list(repl.session.scope.vars))
        _fail(f"no variable {arg!r}" + (f"; {hint}" if hint else ""))
        return
    repl.session.activate()
    try:
        try:  # with the values and gradients where they are known
            result = fn(repl.session.scope.vars[arg], values=True)
        except (GradError, TypeError):
            result = fn(repl.session.scope.vars[arg])
    except GradError as e:
        repl.session.report(e, None)
        return
    if isinstance(result, str):
        _say(result.rstrip("\n"))
    elif result is not None:
        from ..core.printing import show

        _say(show(result))


# ---------------------------------------------------------------- :explain


def cmd_explain(repl, arg):
    """:explain OUT [X ...]: the language's explain(OUT, X) (not recorded)."""
    parts = arg.split()
    if not parts:
        _fail("usage: :explain OUT [X ...]")
        return
    out, leaves = parts[0], parts[1:]
    if not leaves:
        call = f"explain({out})"
    elif len(leaves) == 1:
        call = f"explain({out}, {leaves[0]})"
    else:
        call = f"explain({out}, [{', '.join(leaves)}])"
    repl.run_source(call, record=False)


# ---------------------------------------------------------------- files


def _file_arg(arg):
    """The FILE of `:load FILE` / `:save FILE`: quotes around it taken off (a name
    with spaces); None when there is no name (`:save ""` wrote a file named "")."""
    arg = arg.strip()
    if len(arg) >= 2 and arg[0] == arg[-1] and arg[0] in "'\"":
        arg = arg[1:-1]
    return arg if arg.strip() else None


def cmd_load(repl, arg):
    arg = _file_arg(arg)
    if arg is None:
        _fail("usage: :load FILE")
        return
    path = os.path.expanduser(arg)
    try:
        name, text = read_source(path)
    except UsageError as e:
        _fail(f":load: {e}")
        return
    repl.run_source(text, filename=name)


def cmd_save(repl, arg):
    arg = _file_arg(arg)
    if arg is None:
        _fail("usage: :save FILE")
        return
    path = os.path.expanduser(arg)
    try:
        n = repl.transcript.save(path, getattr(repl, "args", None))
    except OSError as e:
        _fail(f":save: cannot write {arg}: {e.strerror}")
        return
    finally:
        repl.session.activate()  # a notebook's outputs were made in a session of their own
    how = f"gradcli check {arg}" if arg.lower().endswith(".ipynb") else f"gradcli eval {arg}"
    _say(f"saved {n} statement{'s' if n != 1 else ''} to {arg} (replay: {how})")


def cmd_reset(repl, arg):
    repl.reset()
    _say("variables cleared")


def cmd_quit(repl, arg):
    return QUIT


COMMANDS = {
    ":help": cmd_help,
    ":vars": cmd_vars,
    ":graph": cmd_graph,
    ":explain": cmd_explain,
    ":load": cmd_load,
    ":save": cmd_save,
    ":reset": cmd_reset,
    ":quit": cmd_quit,
    ":undo": cmd_undo,
    ":paste": cmd_paste,
}
ALIASES = {":h": ":help", ":?": ":help", ":q": ":quit", ":exit": ":quit", ":v": ":vars"}


def run(repl, line: str):
    """Run one meta-command line; returns QUIT to leave the REPL."""
    cmd, _, arg = line.strip().partition(" ")
    arg = arg.strip()
    cmd = ALIASES.get(cmd, cmd)
    fn = COMMANDS.get(cmd)
    if fn is None:
        hint = did_you_mean(cmd, list(COMMANDS))
        _fail(f"unknown command {cmd!r}" + (f"; {hint}" if hint else "") + " (:help lists them)")
        return None
    return fn(repl, arg)
