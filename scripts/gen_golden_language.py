"""Record tests/golden/language.json from real PyTorch: the language cases of
issue 13 (tests/language_cases.py), run as scripts/gen_golden.py runs its cases.

    /work/torchenv/bin/python scripts/gen_golden_language.py
"""
import json
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
sys.path.insert(0, HERE)
sys.path.insert(0, os.path.join(ROOT, "tests"))

from gen_golden import _record, run_program  # noqa: E402
from language_cases import CASES  # noqa: E402


def main():
    out = {}
    for name, source in CASES:
        if name in out:
            raise ValueError("duplicate case " + name)
        source = source.lstrip("\n")
        # classes print as a program's own do: <class '__main__.C'>
        out[name] = _record(run_program(source, "<%s>" % name, module="__main__"), source=source)
    path = os.path.join(ROOT, "tests", "golden", "language.json")
    with open(path, "w", encoding="utf-8") as f:
        json.dump(out, f, indent=1, ensure_ascii=False)
        f.write("\n")
    print(f"{len(out)} cases -> {path}")


if __name__ == "__main__":
    main()
