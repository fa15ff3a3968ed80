"""The tests are in folders by layer (docs/developer/testing.md): no test module or case data
directly in tests/ (only conftest.py, which every folder shares), and no two test modules of
one name (pytest imports each test module by its file name, so names must be unique)."""

from pathlib import Path

TESTS = Path(__file__).resolve().parents[1]
#: the files that stay directly in tests/
ROOT_FILES = {"conftest.py", "__init__.py"}
#: folders of data (goldens, published programs), not test modules
DATA = {"golden", "programs", "tutorials"}


def test_no_module_directly_in_tests():
    flat = sorted(p.name for p in TESTS.iterdir() if p.suffix == ".py" and p.name not in ROOT_FILES)
    assert not flat, (
        f"{flat} directly in tests/: put each in the folder of its layer (tests/numerics, "
        "tests/engine, tests/language ...), case data beside the tests that use it"
    )


def test_every_folder_holds_tests():
    folders = [p for p in TESTS.iterdir() if p.is_dir() and not p.name.startswith((".", "_"))]
    empty = [p.name for p in folders if p.name not in DATA and not any(p.rglob("test_*.py"))]
    assert not empty, f"folders of tests/ without a test module: {empty}"


def test_test_module_names_are_unique():
    seen = {}
    for path in sorted(TESTS.rglob("test_*.py")):
        rel = path.relative_to(TESTS)
        if rel.parts[0] in DATA:
            continue
        seen.setdefault(path.name, []).append(str(rel))
    dupes = {name: paths for name, paths in seen.items() if len(paths) > 1}
    assert not dupes, f"test modules of one name (pytest imports them by name): {dupes}"
