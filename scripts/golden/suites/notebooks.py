"""Record the seed tutorials as Jupyter notebooks with outputs from real PyTorch.

Run with the torch venv (torch is never a test dependency):

    $TORCH_PYTHON scripts/gen_golden.py notebooks

Writes tests/golden/notebooks/seed_00N.ipynb (nbformat 4), one per
scripts/examples/seed_00N.ag.  The .ag file is cut into cells at blank lines
(a paragraph of comments only, such as the file's header, becomes a Markdown
cell); seed_001 keeps the `%matplotlib inline` cell its notebook had.

Each notebook runs in a fresh process after ``torch.manual_seed(SEED)`` (the
seed of the examples (scripts/golden/record.py), stored in the notebook's metadata as
``gradcli.seed``; tests run ``gradcli check --seed SEED``), with
``torch.set_default_dtype(torch.float64)``, as IPython runs a cell: every
statement in order, the last one's value (if it is a bare expression not
ending in ';', and not None) is the cell's ``execute_result``, ``display(v)``
is a ``display_data``, ``print`` a stdout stream, warnings a stderr stream and
an exception an ``error`` output that ends the run.  Magic and shell lines
(``%...``, ``!...``) are skipped.  Reprs are stored as PyTorch gives them,
object addresses included (``<AddBackward0 object at 0x7f...>``): `gradcli
check` must ignore them.
"""

import ast
import io
import json
import os
import subprocess
import sys
import warnings

from golden.record import ENTRY, EXAMPLES, GOLDEN, ROOT
from golden.record import EXAMPLE_SEED as SEED

OUT = os.path.join(GOLDEN, "notebooks")
EXTRA_FIRST_CELL = {"seed_001": "%matplotlib inline"}


def split_cells(text):
    """[(kind, source)]: paragraphs (blank-line separated) of the program; an
    indented line or a line after a line ending in ':' stays in its paragraph."""
    paras, cur = [], []
    for line in text.split("\n"):
        if not line.strip():
            if cur:
                paras.append(cur)
                cur = []
            continue
        cur.append(line)
    if cur:
        paras.append(cur)
    cells = []
    for p in paras:
        if all(ln.lstrip().startswith("#") for ln in p):
            cells.append(("markdown", "\n".join(ln.lstrip("# ").rstrip() for ln in p)))
        else:
            cells.append(("code", "\n".join(p)))
    return cells


class _Cell:
    def __init__(self):
        self.outputs = []
        self.buf = io.StringIO()

    def flush(self):
        text = self.buf.getvalue()
        if text:
            self.outputs.append({"output_type": "stream", "name": "stdout", "text": text})
        self.buf.seek(0)
        self.buf.truncate()

    def data(self, kind, value, count=None):
        self.flush()
        out = {"output_type": kind, "data": {"text/plain": repr(value)}, "metadata": {}}
        if kind == "execute_result":
            out["execution_count"] = count
        self.outputs.append(out)


def run_notebook(cells, seed):
    import torch

    torch.set_default_dtype(torch.float64)
    torch.manual_seed(seed)
    current = [None]

    def display(*values):
        for v in values:
            current[0].data("display_data", v)

    ns = {"__name__": "__main__", "display": display}
    out_cells, count = [], 0
    failed = False
    for kind, source in cells:
        if kind != "code":
            out_cells.append({"cell_type": "markdown", "metadata": {}, "source": source})
            continue
        if failed:
            out_cells.append(
                {
                    "cell_type": "code",
                    "execution_count": None,
                    "metadata": {},
                    "outputs": [],
                    "source": source,
                }
            )
            continue
        count += 1
        cell = current[0] = _Cell()
        code = "\n".join(
            "" if ln.lstrip().startswith(("%", "!")) else ln for ln in source.split("\n")
        )
        tree = ast.parse(code)
        body = tree.body
        last = None
        if body and isinstance(body[-1], ast.Expr) and not code.rstrip().endswith(";"):
            last = ast.Expression(body[-1].value)
            body = body[:-1]
        old = sys.stdout
        sys.stdout = cell.buf
        try:
            with warnings.catch_warnings(record=True) as caught:
                warnings.simplefilter("always")
                exec(compile(ast.Module(body, []), "<cell>", "exec"), ns)
                if last is not None:
                    value = eval(compile(last, "<cell>", "eval"), ns)
                    if value is not None:
                        cell.data("execute_result", value, count)
            cell.flush()
            for w in caught:
                cell.outputs.append(
                    {
                        "output_type": "stream",
                        "name": "stderr",
                        "text": "%s: %s\n" % (w.category.__name__, w.message),
                    }
                )
        except Exception as e:  # noqa: BLE001 - recorded as the notebook records it
            cell.flush()
            cell.outputs.append(
                {
                    "output_type": "error",
                    "ename": type(e).__name__,
                    "evalue": str(e),
                    "traceback": [],
                }
            )
            failed = True
        finally:
            sys.stdout = old
        out_cells.append(
            {
                "cell_type": "code",
                "execution_count": count,
                "metadata": {},
                "outputs": cell.outputs,
                "source": source,
            }
        )
    return out_cells


def notebook(cells, seed):
    import torch

    for i, c in enumerate(cells, 1):
        c["id"] = "cell-%d" % i
        src = c["source"].split("\n")
        c["source"] = [ln + "\n" for ln in src[:-1]] + [src[-1]]
    return {
        "cells": cells,
        "nbformat": 4,
        "nbformat_minor": 5,
        "metadata": {
            "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"},
            "language_info": {"name": "python"},
            "gradcli": {"seed": seed, "recorded_with": "torch " + torch.__version__},
        },
    }


def main(argv):
    if len(argv) == 2 and argv[0] == "--one":
        name = argv[1]
        with open(os.path.join(EXAMPLES, name + ".ag"), encoding="utf-8") as fh:
            cells = split_cells(fh.read())
        if name in EXTRA_FIRST_CELL:
            cells.insert(1, ("code", EXTRA_FIRST_CELL[name]))
        nb = notebook(run_notebook(cells, SEED), SEED)
        sys.__stdout__.write(json.dumps(nb, indent=1, ensure_ascii=False) + "\n")
        return 0
    os.makedirs(OUT, exist_ok=True)
    names = sorted(
        f[:-3] for f in os.listdir(EXAMPLES) if f.startswith("seed_") and f.endswith(".ag")
    )
    for name in names:
        proc = subprocess.run(
            [sys.executable, ENTRY, "notebooks", "--one", name],
            capture_output=True,
            text=True,
            check=True,
        )
        with open(os.path.join(OUT, name + ".ipynb"), "w", encoding="utf-8") as fh:
            fh.write(proc.stdout)
    print("wrote %d notebooks to %s" % (len(names), os.path.relpath(OUT, ROOT)))
    return 0
