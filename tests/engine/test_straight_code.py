"""The straight-line backwards' code kept from one run to the next
(engine/straight_code.py): taken back only for its own key, never from a file that is
not its own, and a later run that takes it builds nothing and prints the same."""

from __future__ import annotations

import os

from conftest import run_inprocess
from gradcli.engine import straight, straight_code


def _code():
    return compile("def run():\n    return 41 + 1\n", "<backward>", "exec")


def test_code_is_taken_back_for_its_key_only(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = ((0, ((0, 1),), straight.LaterF, False), (0, 1), (False, True))
    assert straight_code.read(key) is None
    straight_code.write(key, _code())
    got = straight_code.read(key)
    space: dict = {}
    exec(got, space)  # noqa: S102  (the code written above)
    assert space["run"]() == 42
    other = ((1, ((0, 1),), straight.LaterF, False), (0, 1), (False, True))
    assert straight_code.read(other) is None
    # a file whose key text is not the key's (a hash's collision) is not taken
    (path,) = (tmp_path / "gradcli" / "backward").iterdir()
    data = path.read_bytes()
    path.write_bytes(repr(other).encode() + data[data.index(b"\n") :])
    assert straight_code.read(key) is None
    # nor one cut short
    path.write_bytes(data[: len(data) // 2 + len(repr(key)) // 2 + 1])
    assert straight_code.read(key) is None


def test_a_key_naming_an_object_is_not_kept(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = ((object(),), (), ())
    straight_code.write(key, _code())
    assert straight_code.read(key) is None
    assert not (tmp_path / "gradcli" / "backward").exists()


def test_an_unwritable_folder_costs_only_the_making(tmp_path, monkeypatch):
    (tmp_path / "gradcli").write_text("a file where the folder would be")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    key = ((0, ((0, 1),), straight.LaterF, False), (0, 1), (False, True))
    straight_code.write(key, _code())
    assert straight_code.read(key) is None


def test_a_full_folder_gives_way_to_a_new_code(tmp_path, monkeypatch):
    """At MAX_FILES files a write first removes the quarter used least recently (a read
    marks its file used): the new code and the one read lately are kept."""
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    monkeypatch.setattr(straight_code, "MAX_FILES", 8)
    keys = [((k, ((0, 1),), straight.LaterF, False), (0, 1), (False, True)) for k in range(9)]
    for k in keys[:8]:
        straight_code.write(k, _code())
    folder = tmp_path / "gradcli" / "backward"
    for age, path in enumerate(sorted(folder.iterdir())):
        os.utime(path, (1000.0 + age, 1000.0 + age))
    oldest = min(folder.iterdir(), key=lambda p: p.stat().st_mtime)
    read_lately = next(k for k in keys[:8] if straight_code._named(k)[1] == str(oldest))
    assert straight_code.read(read_lately) is not None
    straight_code.write(keys[8], _code())
    assert straight_code.read(keys[8]) is not None and straight_code.read(read_lately) is not None
    assert len(list(folder.iterdir())) == 7  # (two of the eight removed, the new one written)


LOOP = """x = linspace(-1, 1, 300)
y = 2 * x - x * x
w = tensor(0.5, requires_grad=true)
v = tensor(-0.25, requires_grad=true)
for t in range(30):
    loss = ((w * x + v * x * x) - y).pow(2).sum()
    loss.backward()
    with torch.no_grad():
        w -= 0.001 * w.grad
        v -= 0.001 * v.grad
        w.grad = None
        v.grad = None
print(w, v, loss)
"""


def test_a_later_run_takes_the_code_and_builds_nothing(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    built = []
    real = straight._tree

    def counted(*args):
        built.append(1)
        return real(*args)

    monkeypatch.setattr(straight, "_tree", counted)
    monkeypatch.setattr(straight, "_CODE", {})
    first = run_inprocess(LOOP)
    assert built and os.listdir(tmp_path / "gradcli" / "backward")
    del built[:]
    monkeypatch.setattr(straight, "_CODE", {})  # (as a new process has it)
    second = run_inprocess(LOOP)
    assert not built
    compiled = run_inprocess(LOOP, ("eval", "--no-replay", "-"))
    assert first.stdout == second.stdout == compiled.stdout
    assert first.returncode == 0, first.stderr
