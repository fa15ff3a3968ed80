"""The seed tutorials as gradcli programs: output must equal PyTorch's.

scripts/examples/seed_00N.ag hold the code of the seed tutorials (random
calls as written: gradcli reproduces torch's random stream).
tests/golden/examples.json is recorded from real PyTorch, one fresh process
per file, after ``torch.manual_seed(SEED)`` (this torch seeds itself
non-deterministically, so the seed is explicit and recorded), by
scripts/gen_golden.py cases.  Each file is run as
``python -m gradcli eval --seed SEED scripts/examples/seed_00N.ag``.
"""

import pytest

from conftest import ROOT, check_result, load_golden, run_gradcli

EXAMPLES = load_golden("examples.json")


@pytest.mark.parametrize("name", list(EXAMPLES))
def test_example(name):
    example = EXAMPLES[name]
    assert (ROOT / example["file"]).is_file(), example["file"]
    args = ("eval", example["file"])
    if example.get("seed") is not None:
        args = ("eval", "--seed", str(example["seed"]), example["file"])
    result = run_gradcli(args=args)
    check_result(
        result,
        example["stdout"],
        example["error"],
        what=example["file"],
        warnings=example.get("warnings", ()),
    )
