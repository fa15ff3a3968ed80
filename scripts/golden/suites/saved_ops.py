"""tests/golden/saved_ops.json: every op's `grad_fn._saved_*` and pack-hook order, from
its built-in's sample arguments (tests/engine/saved_ops_cases.py), and the same of the
node of its first input's gradient made with create_graph=True when that node is a
backward's own (as TanhBackwardBackward0; other nodes of gradients are ops' nodes,
recorded from the ops' own samples).

Each sample is first run here to find the call form torch accepts and the names dir()
lists on its node; the program printing them is then recorded as record.run_program
runs a program.  A sample torch rejects in every form, or whose result has no grad_fn,
is left out."""

import warnings

import torch
from saved_ops_cases import NODES, case_name, entries, prefix, program

from golden.record import record, run_program, write


def _discover(inputs, calls, node):
    """(call, pick, names, node name) of the first form torch accepts, or None."""
    torch.set_default_dtype(torch.float64)
    for call in calls:
        ns = {"torch": torch, "F": torch.nn.functional}
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(inputs + "y = " + call + "\n", ns)
        except Exception:  # noqa: BLE001 - a form torch does not accept
            continue
        y, pick = ns["y"], ""
        if isinstance(y, (tuple, list)):
            if not y:
                return None
            y, pick = y[0], "[0]"
        if not isinstance(y, torch.Tensor) or y.grad_fn is None:
            return None
        ns["y"] = y
        try:
            with warnings.catch_warnings():
                warnings.simplefilter("ignore")
                exec(node + "\n", ns)
        except Exception:  # noqa: BLE001 - no such node (an integer output, no gradient)
            return None
        g = ns["g"]
        if g is None:
            return None
        names = sorted(n for n in dir(g) if n.startswith("_saved_"))
        return call, pick, names, g.name()
    return None


def main(argv):
    out = {}
    for entry in entries():
        for i in range(len(entry.checks)):
            inputs, calls, first = prefix(entry, i)
            for suffix, node in NODES.items():
                if first is None:
                    continue
                node = node.format(x=first)
                found = _discover(inputs, calls, node)
                if found is None:
                    continue
                call, pick, names, node_name = found
                if suffix and node_name.count("Backward") < 2:
                    continue  # a gradient's node that is not a backward's own (an op's)
                name = case_name(entry, i) + suffix
                source = program(inputs, call, pick, names, node)
                result = run_program(source, "<%s>" % name, module="__main__")
                result["warnings"] = [w for w in result["warnings"] if "torch.jit" not in w]
                out[name] = record(
                    result, source=source, node=node_name, names=[n[7:] for n in names]
                )
    path = write("saved_ops.json", out)
    print(f"{len(out)} cases -> {path}")
