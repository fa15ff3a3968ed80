"""Every op's saved values, from the sample arguments its built-in declares (`checks`):
for each sample, a program that makes the op's node and prints, under torch 2.13, every
`grad_fn._saved_<name>` torch has (names found with dir() by scripts/gen_golden.py
saved_ops, recorded in tests/golden/saved_ops.json) and what the pack hook of
`saved_tensors_hooks` sees, in order; tests/engine/test_saved_ops.py runs them under
gradcli.  `prefix(entry, i)` is the program up to the call; `CALLS` the forms tried."""

from __future__ import annotations

import math

import numpy as np

import gradcli.session  # noqa: F401  (registers every built-in)
from gradcli.ops import registry as ops
from gradcli.ops.registry import Arg


def entries():
    """Every built-in with sample arguments, once each."""
    seen, out = set(), []
    for table in (ops.BUILTINS, ops.METHOD_ONLY):
        for entry in table.values():
            if id(entry) in seen or not entry.checks:
                continue
            seen.add(id(entry))
            out.append(entry)
    return out


def _number(v):
    if isinstance(v, float) and not math.isfinite(v):
        return f"float({str(v)!r})"
    return repr(v)


def _literal(values):
    if isinstance(values, list):
        return "[" + ", ".join(_literal(v) for v in values) + "]"
    return repr(float(values))


class _Builder:
    def __init__(self, seed):
        self.rng = np.random.default_rng(seed)
        self.lines = []

    def arg(self, spec):
        if isinstance(spec, Arg):
            data = np.round(self.rng.uniform(spec.lo, spec.hi, size=spec.shape), 2)
            name = f"x{len(self.lines)}"
            grad = ", requires_grad=True" if spec.grad else ""
            self.lines.append(f"{name} = torch.tensor({_literal(data.tolist())}{grad})")
            return name
        if isinstance(spec, list):
            return "[" + ", ".join(self.arg(s) for s in spec) + "]"
        if isinstance(spec, tuple):
            return "(" + "".join(self.arg(s) + ", " for s in spec) + ")"
        if isinstance(spec, float):
            return _number(spec)
        return repr(spec)


# the forms a call is tried in (the first torch accepts is the case's)
CALLS = ("torch.{name}({args})", "F.{name}({args})", "{first}.{name}({rest})")


def prefix(entry, i):
    """(lines making the sample's inputs, [the call in each form of CALLS], the name of the
    first input that requires grad or None)."""
    args, kwargs = entry.checks[i]
    b = _Builder(sum(map(ord, entry.name)) * 1000 + i)
    texts = [b.arg(a) for a in args]
    kw = [f"{k}={b.arg(v)}" for k, v in kwargs.items()]
    calls = []
    for form in CALLS:
        if "{first}" in form and not texts:
            continue
        calls.append(
            form.format(
                name=entry.name,
                args=", ".join(texts + kw),
                first=texts[0] if texts else "",
                rest=", ".join(texts[1:] + kw),
            )
        )
    first = next((ln.split(" = ")[0] for ln in b.lines if "requires_grad" in ln), None)
    return "\n".join(b.lines) + "\n", calls, first


# the node a case looks at: the op's own, or (a "/grad" case) the node of its first
# input's gradient made with create_graph=True (a backward's own node)
NODES = {
    "": "g = y.grad_fn",
    "/grad": "g = torch.autograd.grad(y.sum(), {x}, create_graph=True)[0].grad_fn",
}


def program(inputs, call, pick, names, node=NODES[""]):
    """The case's program: the node's name, each `_saved_<name>` torch has, and the pack
    hook's tensors in order (`pick`: "[0]" when the op returns several tensors)."""
    lines = [inputs.rstrip("\n"), f"y = {call}{pick}", node, "print(g.name())"]
    lines += [f"print({n!r}, g.{n})" for n in names]
    lines += [
        "def pk(t):",
        "    print('pack', t)",
        "    return t",
        "with torch.autograd.graph.saved_tensors_hooks(pk, lambda t: t):",
        f"    y = {call}{pick}",
    ]
    if node != NODES[""]:
        lines.append("    " + node)
    return "\n".join(lines) + "\n"


def case_name(entry, i):
    return f"{entry.name}[{i}]"
