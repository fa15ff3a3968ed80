#!/usr/bin/env python3
"""Record one suite of gradcli's golden files (tests/golden/) from real PyTorch.

Run with the torch venv (torch is never a test dependency):

    $TORCH_PYTHON scripts/gen_golden.py SUITE [ARGS ...]
    $TORCH_PYTHON scripts/gen_golden.py --list

Each suite is a module of scripts/golden/suites/ (its docstring says what it records
and from which cases, and takes the ARGS), and what the suites share is
scripts/golden/record.py: how a program is run under torch and its output recorded,
where the files go, how arrays are digested.  Only the suite named is imported (the
kernels suite sets torch's CPU capability before torch is imported).

The files were recorded on a machine without AVX-512: several record torch's CPU
capability, and the printing suite's inputs come from NumPy's exp and power, whose
AVX-512 loops round differently in the last place.  Elsewhere, reproduce them byte for
byte with `ATEN_CPU_CAPABILITY=avx2`, `MKL_ENABLE_INSTRUCTIONS=AVX2`,
`ONEDNN_MAX_CPU_ISA=AVX2` (oneDNN, which runs torch's float32 convolutions and float32
GELU, picks its kernels by the CPU on its own) and `NPY_DISABLE_CPU_FEATURES="X86_V4 AVX512F
AVX512CD AVX512_SKX AVX512_CLX AVX512_CNL AVX512_ICL AVX512_SPR AVX512_KNL
AVX512_KNM"`.
"""

import ast
import importlib
import os
import sys

SCRIPTS = os.path.dirname(os.path.abspath(__file__))
SUITES = os.path.join(SCRIPTS, "golden", "suites")
TESTS = os.path.join(os.path.dirname(SCRIPTS), "tests")  # the cases are test data
# folders of tests/ that hold data files, not modules a suite imports
DATA = {"golden", "programs", "tutorials"}


def case_folders():
    """The folders of tests/ whose modules a suite imports by name (each suite's cases live
    beside the tests that read its golden file): every folder but the data and packages."""
    out = []
    for name in sorted(os.listdir(TESTS)):
        path = os.path.join(TESTS, name)
        if name in DATA or not os.path.isdir(path):
            continue
        if os.path.exists(os.path.join(path, "__init__.py")):
            continue  # a package (tests/differential) is imported through tests/
        out.append(path)
    return out


def suites():
    """{name: first line of its docstring} of every suite."""
    out = {}
    for fname in sorted(os.listdir(SUITES)):
        if fname.endswith(".py") and not fname.startswith("_"):
            with open(os.path.join(SUITES, fname), encoding="utf-8") as fh:
                doc = ast.get_docstring(ast.parse(fh.read())) or ""
            out[fname[:-3]] = doc.split("\n")[0]
    return out


def main(argv):
    known = suites()
    if not argv or argv[0] in ("-h", "--help", "--list"):
        print(__doc__ if not argv or argv[0] != "--list" else "", end="")
        for name, doc in known.items():
            print(f"  {name:<12} {doc}")
        return 0 if argv else 2
    name, args = argv[0], argv[1:]
    if name not in known:
        print(f"no suite named {name!r}; the suites: {', '.join(known)}", file=sys.stderr)
        return 2
    # after scripts/ (this file's folder): the case modules, and tests/ for conftest
    sys.path[1:1] = [*case_folders(), TESTS]
    module = importlib.import_module("golden.suites." + name)
    return module.main(args) or 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
