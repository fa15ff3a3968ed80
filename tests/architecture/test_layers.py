"""The package's layers, read from its source (nothing is imported or run).

gradcli is built in layers; a module imports only from its own layer or the
layers below it (docs/developer/architecture.md).  This test reads every import in
gradcli/ (at the top of a module or inside a function) and fails on:

  * an import that reaches up a layer, or a module in no layer;
  * an import cycle among the package's modules;
  * an import inside a function outside the places where start-up time needs
    one (the command line, the REPL, the notebook kernel, the lazily made random
    generator), so the import graph is what the top of each file says;
  * a module over 1,000 lines or a class over 400.
"""

from __future__ import annotations

import ast
from pathlib import Path

PACKAGE = Path(__file__).resolve().parents[2] / "gradcli"

# lowest first; a module may import from its own layer and the ones before it
LAYERS = [
    ("runtime", ["gradcli", "gradcli.runtime"]),
    ("numerics", ["gradcli.numerics"]),
    ("core", ["gradcli.core"]),
    ("engine", ["gradcli.engine"]),
    ("ops", ["gradcli.ops"]),
    ("library", ["gradcli.library"]),
    ("language", ["gradcli.language", "gradcli.grammar"]),
    ("session", ["gradcli.session", "gradcli.output"]),
    ("driver", ["gradcli.driver", "gradcli.notebook", "gradcli.notebook_check"]),
    (
        "frontends",
        ["gradcli.cli", "gradcli.quickargs", "gradcli.__main__", "gradcli.repl", "gradcli.kernel"],
    ),
]

# in-function imports of the package are allowed here only (start-up time)
LAZY_OK = ("gradcli.cli", "gradcli.repl", "gradcli.kernel", "gradcli.runtime.context")

# ... and these single imports, each a module that most runs never need, imported
# where it is first needed (start-up time); each still obeys the layers and cycles
# rules above, which read in-function imports too.  The share of start-up is what
# importing the module adds to importing the driver and the command line, in
# instructions (callgrind, bytecode cached): a module that costs under about 0.1% is
# imported at the top instead
LAZY_IMPORTS = {
    ("gradcli.driver", "gradcli.notebook"): (
        "only a notebook (.ipynb) or `gradcli check` runs it (json, dataclasses: 1.7%)"
    ),
    ("gradcli.driver", "gradcli.notebook_check"): "only `gradcli check` runs it (difflib: 1.1%)",
    ("gradcli.language.control", "gradcli.language.replay_head"): (
        "only a program with a loop runs it (with replay: 1.8%)"
    ),
    ("gradcli.language.definitions", "gradcli.language.replay_defs"): (
        "only a program with a `def` whose body may replay runs it (with replay: 1.9%)"
    ),
    ("gradcli.library.autograd_function", "gradcli.library.function_plans"): (
        "only a program that applies a custom autograd.Function runs it (0.4%)"
    ),
    ("gradcli.language.definitions", "gradcli.language.op_bodies"): (
        "only a program with a method runs it (a custom autograd.Function's plans)"
    ),
    ("gradcli.language.compiler", "gradcli.language.fast_tier"): (
        "only a program with a loop, a def or a comprehension runs the fast tier (1.6%)"
    ),
    ("gradcli.language.definitions", "gradcli.language.fast_tier"): (
        "only a program with a def (the fast tier)"
    ),
    ("gradcli.language.comprehensions", "gradcli.language.fast_comprehensions"): (
        "only a program with a comprehension (the fast tier)"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_sleef"): (
        "only compiling the native loops, once per machine and version, needs it (0.12%)"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_sleef32"): (
        "only compiling the native loops, once per machine and version, needs it (0.13%)"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_steps"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_sums"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_pow"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_pool"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_act"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_softmax"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_norms"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_grads"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_recurrent"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_bn"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.numerics.native", "gradcli.numerics.native_random"): (
        "only compiling the native loops, once per machine and version, needs it"
    ),
    ("gradcli.library.explain", "gradcli.library.explain_report"): (
        "only explain runs it (SymPy: 1.5 times the start-up)"
    ),
    ("gradcli.library.explain", "gradcli.library.explain_diff"): "only diff runs it (SymPy)",
    ("gradcli.library.stdlib_more", "gradcli.library.argparse_ns"): (
        "only `import argparse` runs it (argparse: 1.3%)"
    ),
    ("gradcli.library.io", "gradcli.library.torch_file"): (
        "only a .pt file (zipfile, pickle: 1.7%)"
    ),
    ("gradcli.language.definitions", "gradcli.language.loop_shapes"): (
        "only a program with a def or a lambda (the replay's reading of loops and defs: 1.1%)"
    ),
    ("gradcli.language.definitions", "gradcli.language.through_shapes"): (
        "only a program with a def"
    ),
    ("gradcli.language.compiler", "gradcli.language.dataclass"): (
        "only `import dataclasses` runs it"
    ),
    ("gradcli.language.compiler", "gradcli.language.ordering"): (
        "only functools.total_ordering runs it"
    ),
    ("gradcli.language.compiler", "gradcli.language.pylogging"): ("only `import logging` runs it"),
    ("gradcli.language.statements", "gradcli.language.inspection"): (
        "only `import inspect` runs it"
    ),
    ("gradcli.library.torch_ns", "gradcli.library.saved_hooks"): (
        "only a program that reads torch.autograd.graph"
    ),
    ("gradcli.library.graphviz", "gradcli.library.graph_view"): (
        "only graph() runs it (and svg.py)"
    ),
    ("gradcli.library.plot", "gradcli.library.svg"): "only a plot runs it",
    ("gradcli.library.help", "gradcli.library.name_docs"): (
        "only help() on a name that is not a built-in runs it"
    ),
    ("gradcli.library.optim_more", "gradcli.library.lbfgs_search"): (
        "only LBFGS's strong-Wolfe line search runs it"
    ),
    ("gradcli.library.torch_ns", "gradcli.library.nn.namespace"): (
        "only a program that reads torch.nn or F (the layers, losses, containers: 3.4%)"
    ),
    ("gradcli.library.torch_ns", "gradcli.library.data"): (
        "only a program that reads torch.utils.data (0.2%)"
    ),
    ("gradcli.library.torch_ns", "gradcli.library.lr_scheduler"): (
        "only a program that reads torch.optim.lr_scheduler (0.3%)"
    ),
    ("gradcli.library.torch_ns", "gradcli.library.lr_cycles"): (
        "only a program that reads torch.optim.lr_scheduler"
    ),
    ("gradcli.library.torch_ns", "gradcli.library.distributions"): (
        "only a program that reads torch.distributions"
    ),
    ("gradcli.library.torch_ns", "gradcli.library.swa_utils"): (
        "only a program that reads torch.optim.swa_utils (it imports the schedulers)"
    ),
}

# the one import that reaches up a layer, made inside a function when first needed
UPWARD_OK = {
    (
        "gradcli.runtime.context",
        "gradcli.numerics.random.generator",
    ): "the run's state owns its random generator, made from the numerics when first drawn from",
}

MAX_MODULE_LINES = 1000
MAX_CLASS_LINES = 400


def _modules():
    mods = {}
    for p in PACKAGE.rglob("*.py"):
        parts = list(p.relative_to(PACKAGE.parent).with_suffix("").parts)
        if parts[-1] == "__init__":
            parts = parts[:-1]
        mods[".".join(parts)] = p
    return mods


MODULES = _modules()


def layer_of(mod):
    best = None
    for i, (_, prefixes) in enumerate(LAYERS):
        for pre in prefixes:
            if mod == pre or mod.startswith(pre + ".") and pre != "gradcli":
                if best is None or len(pre) > best[1]:
                    best = (i, len(pre))
    return None if best is None else best[0]


def _imports(mod, path):
    """[(target module, line, inside a function)] for every import of the package."""
    tree = ast.parse(path.read_text())
    is_pkg = path.name == "__init__.py"
    in_fn = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            for sub in ast.walk(node):
                if isinstance(sub, (ast.Import, ast.ImportFrom)):
                    in_fn.add(id(sub))
    out = []
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = mod.split(".") if is_pkg else mod.split(".")[:-1]
                base = base[: len(base) - node.level + 1]
                target = ".".join(base + ([node.module] if node.module else []))
            else:
                target = node.module or ""
            names = [f"{target}.{a.name}" for a in node.names]
            # `from . import x` imports the package too (its __init__ runs first)
            targets = [n for n in names if n in MODULES] + ([target] if target in MODULES else [])
        elif isinstance(node, ast.Import):
            targets = [a.name for a in node.names if a.name in MODULES]
        else:
            continue
        for t in targets:
            if t != mod:
                out.append((t, node.lineno, id(node) in in_fn))
    return out


GRAPH = {m: _imports(m, p) for m, p in MODULES.items()}


def test_every_module_is_in_a_layer():
    lost = sorted(m for m in MODULES if layer_of(m) is None)
    assert not lost, (
        f"modules in no layer (put them in a layer folder, or add them to LAYERS): {lost}"
    )


def test_imports_go_down_only():
    bad = []
    for m, imports in GRAPH.items():
        lm = layer_of(m)
        for t, line, _ in imports:
            lt = layer_of(t)
            if lm is not None and lt is not None and lt > lm and (m, t) not in UPWARD_OK:
                bad.append(
                    f"{MODULES[m].relative_to(PACKAGE.parent)}:{line}: {m} ({LAYERS[lm][0]}) "
                    f"imports {t} ({LAYERS[lt][0]})"
                )
    assert not bad, "imports that reach up a layer:\n" + "\n".join(bad)


def test_no_import_cycles():
    edges = {m: {t for t, _, _ in imps} for m, imps in GRAPH.items()}
    index, low, stack, on, cycles, counter = {}, {}, [], set(), [], [0]

    def strong(v):
        index[v] = low[v] = counter[0]
        counter[0] += 1
        stack.append(v)
        on.add(v)
        for w in edges[v]:
            if w not in index:
                strong(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = []
            while True:
                w = stack.pop()
                on.discard(w)
                comp.append(w)
                if w == v:
                    break
            if len(comp) > 1:
                cycles.append(sorted(comp))

    for v in edges:
        if v not in index:
            strong(v)
    assert not cycles, f"import cycles: {cycles}"


def test_imports_at_the_top():
    lazy = [
        f"{MODULES[m].relative_to(PACKAGE.parent)}:{line}: {t}"
        for m, imps in GRAPH.items()
        for t, line, in_fn in imps
        if in_fn
        and not any(m == p or m.startswith(p + ".") for p in LAZY_OK)
        and (m, t) not in LAZY_IMPORTS
    ]
    assert not lazy, (
        "imports inside functions (import at the top; only the command line, "
        "the REPL and the kernel import lazily, for start-up time):\n" + "\n".join(lazy)
    )


def test_modules_and_classes_are_small():
    big = []
    for m, p in MODULES.items():
        src = p.read_text()
        n = src.count("\n")
        if n > MAX_MODULE_LINES:
            big.append(f"{p.relative_to(PACKAGE.parent)}: {n} lines")
        for node in ast.walk(ast.parse(src)):
            if isinstance(node, ast.ClassDef):
                size = node.end_lineno - node.lineno + 1
                if size > MAX_CLASS_LINES:
                    big.append(
                        f"{p.relative_to(PACKAGE.parent)}:{node.lineno}: class {node.name} "
                        f"{size} lines"
                    )
    assert not big, "split these by what they hold:\n" + "\n".join(big)


def test_the_check_sees_a_violation(tmp_path):
    """The rules above are not vacuous: the layer order and the reading of imports
    catch an upward import and an in-function import in a made-up core module."""
    assert len(MODULES) > 30 and "gradcli.language.runtime" in MODULES  # the tree was read
    probe = tmp_path / "_layers_probe.py"
    probe.write_text(
        "from ..language import runtime\n\ndef f():\n    from ..runtime import errors\n"
    )
    imps = _imports("gradcli.core._layers_probe", probe)
    ups = [t for t, _, _ in imps if layer_of(t) > layer_of("gradcli.core._layers_probe")]
    lazy = [t for t, _, in_fn in imps if in_fn]
    assert "gradcli.language.runtime" in ups and "gradcli.runtime.errors" in lazy
    assert "gradcli.runtime.errors" not in ups
