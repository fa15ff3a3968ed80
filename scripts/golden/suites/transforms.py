"""tests/golden/transforms.json: torch.func and torch.autograd.functional
(tests/library/transform_cases.py), each case run as record.run_program runs a program
(float64 default, one top-level statement at a time, a bare expression displayed at
top level only); torch's own internal
warnings (jit, fx) are not the programs' and are not recorded."""

import warnings

import transform_cases

from golden.record import record, run_program, write


def main(argv):
    warnings.simplefilter("ignore")
    out = {}
    for name, source in transform_cases.CASES:
        res = run_program(source, "<%s>" % name)
        res["warnings"] = []  # torch's own internal warnings (jit, fx) are not the program's
        out[name] = record(res, source=source)
    path = write("transforms.json", out)
    print("wrote", len(out), "cases to", path)
