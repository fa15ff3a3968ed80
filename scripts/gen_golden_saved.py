"""Record tests/golden/saved.json from real PyTorch: the saved-tensor cases
(tests/saved_cases.py), run as scripts/gen_golden.py runs its cases.

    /work/torchenv/bin/python scripts/gen_golden_saved.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from gen_golden import _record, run_program  # noqa: E402
from saved_cases import CASES  # noqa: E402


def main():
    out = {}
    for name, source in CASES:
        if name in out:
            raise ValueError("duplicate case " + name)
        result = run_program(source, "<%s>" % name, module="__main__")
        # importing torch.autograd.forward_ad the first time warns about torch.jit
        # (torch's own import, not the program's)
        result["warnings"] = [w for w in result["warnings"] if "torch.jit" not in w]
        out[name] = _record(result, source=source)
    path = os.path.join(ROOT, "tests", "golden", "saved.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(out)} cases -> {path}")


if __name__ == "__main__":
    main()
