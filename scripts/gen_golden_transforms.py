"""Record tests/golden/transforms.json from real PyTorch.

    $TORCH_PYTHON scripts/gen_golden_transforms.py

Cases are in scripts/transform_cases.py; each is run as scripts/gen_golden.py runs a
case (float64 default, one top-level statement at a time, a bare expression displayed
at top level only)."""

import os
import sys
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, HERE)

import gen_golden  # noqa: E402
import transform_cases  # noqa: E402


def main():
    warnings.simplefilter("ignore")
    out = {}
    for name, source in transform_cases.CASES:
        res = gen_golden.run_program(source, "<%s>" % name)
        res["warnings"] = []  # torch's own internal warnings (jit, fx) are not the program's
        out[name] = gen_golden._record(res, source=source)
    path = os.path.join(gen_golden.GOLDEN, "transforms.json")
    gen_golden._write(path, out)
    print("wrote", len(out), "cases to", path)


if __name__ == "__main__":
    main()
