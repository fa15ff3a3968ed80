"""torch.save / torch.load of .pt/.pth files in PyTorch's zip format: files written by
PyTorch 2.13 (tests/golden/torch_files/, recorded by scripts/gen_golden.py torch_files)
print in gradcli what torch printed; files gradcli writes load in torch (skipped without a
Python that has torch); hostile files are refused unread, as weights_only=True refuses them."""

import json
import os
import pickle
import subprocess
import zipfile
from pathlib import Path

import pytest

from conftest import assert_refused, run_inprocess
from differential.runner import torch_python

GOLDEN = Path(__file__).resolve().parents[1] / "golden"
FILES = json.loads((GOLDEN / "torch_files.json").read_text("utf-8"))


@pytest.mark.parametrize("name", list(FILES))
def test_files_torch_wrote_print_as_torch_printed(name):
    path = GOLDEN / "torch_files" / f"{name}.pt"
    r = run_inprocess(
        f"import torch\nprint(torch.load({str(path)!r}))\n", ("eval", "--dtype", "float32", "-")
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == FILES[name]


def test_a_checkpoint_restores_a_model(tmp_path):
    path = GOLDEN / "torch_files" / "checkpoint.pt"
    r = run_inprocess(
        "import torch\nimport torch.nn as nn\n"
        f"ck = torch.load({str(path)!r}, map_location='cpu', weights_only=True)\n"
        "m = nn.Linear(3, 2)\nopt = torch.optim.Adam(m.parameters(), lr=0.01)\n"
        "print(m.load_state_dict(ck['model']))\nopt.load_state_dict(ck['optimizer'])\n"
        "print(torch.equal(m.weight, ck['model']['weight']), ck['epoch'])\n",
        ("eval", "--dtype", "float32", "-"),
    )
    assert r.returncode == 0, r.stderr
    assert r.stdout == "<All keys matched successfully>\nTrue 3\n"


ROUND_TRIP = (
    "import torch\nimport torch.nn as nn\nimport collections\ntorch.manual_seed(0)\n"
    "m = nn.Sequential(nn.Linear(3, 4), nn.Tanh(), nn.Linear(4, 1))\n"
    "opt = torch.optim.SGD(m.parameters(), lr=0.1, momentum=0.9)\n"
    "m(torch.ones(2, 3)).sum().backward()\nopt.step()\n"
    "x = torch.arange(12).reshape(3, 4)\n"
    'obj = {"epoch": 3, "model": m.state_dict(), "optimizer": opt.state_dict(), '
    '"views": [x.t(), x[1:, ::2], x[0]], "scalars": (torch.tensor(2.5, dtype=torch.float64), '
    'torch.tensor(True), torch.tensor([7], dtype=torch.int32)), "p": nn.Parameter(torch.ones(2)), '
    '"g": torch.zeros(2, requires_grad=True), "misc": [None, -2**70, 1e-300, "ünï", {}, ()], '
    '"od": collections.OrderedDict([(1, 2)])}\n'
    "torch.save(obj, PATH)\n"
    "print(torch.load(PATH))\n"
)


@pytest.mark.parametrize("name", ["ck.pt", "ck.pth", "ck.tar"])
def test_round_trip_in_gradcli(tmp_path, name):
    path = str(tmp_path / name)
    r = run_inprocess(
        ROUND_TRIP.replace("PATH", repr(path)), ("eval", "-q", "--dtype", "float32", "-")
    )
    assert r.returncode == 0, r.stderr
    assert "'epoch': 3" in r.stdout and "momentum_buffer" in r.stdout
    assert sorted(os.listdir(tmp_path)) == [name]


def test_files_gradcli_wrote_load_in_torch(tmp_path):
    """The same program in gradcli and in torch: each prints what it loaded back; torch also
    loads gradcli's file (weights_only=True) and prints it as gradcli printed it."""
    python = torch_python()
    if python is None:
        pytest.skip("no Python with torch (set GRADCLI_TORCH_PYTHON)")
    ours, theirs = str(tmp_path / "gradcli.pt"), str(tmp_path / "torch.pt")
    r = run_inprocess(
        ROUND_TRIP.replace("PATH", repr(ours)), ("eval", "-q", "--dtype", "float32", "-")
    )
    assert r.returncode == 0, r.stderr
    env = dict(os.environ, ATEN_CPU_CAPABILITY="avx2", MKL_ENABLE_INSTRUCTIONS="AVX2")
    t = subprocess.run(
        [python, "-c", ROUND_TRIP.replace("PATH", repr(theirs))],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert t.returncode == 0, t.stderr
    assert r.stdout == t.stdout
    loaded = subprocess.run(
        [python, "-c", f"import torch\nprint(torch.load({ours!r}, weights_only=True))"],
        capture_output=True,
        text=True,
        env=env,
        timeout=300,
    )
    assert loaded.returncode == 0, loaded.stderr
    assert loaded.stdout == r.stdout


# ---------------------------------------------------------------- hostile files


def _archive(path, pickled, records=()):
    with zipfile.ZipFile(path, "w") as z:
        z.writestr("archive/data.pkl", pickled)
        z.writestr("archive/byteorder", "little")
        for name, data in records:
            z.writestr(f"archive/data/{name}", data)
        z.writestr("archive/version", "3\n")


@pytest.fixture
def workdir(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    return tmp_path


def test_a_global_outside_the_allowlist_is_refused_unimported(workdir):
    marker = workdir / "pwned"

    class Payload:
        def __reduce__(self):
            return (os.system, (f"touch {marker}",))

    _archive(workdir / "evil.pt", pickle.dumps(Payload(), protocol=2))
    e = assert_refused('import torch\ntorch.load("evil.pt")', "UnpicklingError")
    assert "Weights only load failed" in e.message
    assert "Unsupported global: GLOBAL posix.system" in e.message or "os.system" in e.message
    assert not marker.exists()


def test_builtins_and_other_globals_are_refused(workdir):
    for module, name in [
        ("builtins", "eval"),
        ("torch", "load"),
        ("collections", "deque"),
        ("torch._utils", "_rebuild_qtensor"),
        ("numpy", "frombuffer"),
    ]:
        _archive(workdir / "evil.pt", f"\x80\x02c{module}\n{name}\n)R.".encode("latin-1"))
        e = assert_refused('import torch\ntorch.load("evil.pt")', "UnpicklingError")
        assert f"GLOBAL {module}.{name} was not an allowed global" in e.message


TENSOR = (
    b"\x80\x02ctorch._utils\n_rebuild_tensor_v2\n((X\x07\x00\x00\x00storage"
    b"ctorch\nFloatStorage\nX\x01\x00\x00\x000X\x03\x00\x00\x00cpu%stQK\x00%s%s\x89"
    b"ccollections\nOrderedDict\n)RtR."
)


def _int(v):
    return (
        b"J" + v.to_bytes(4, "little", signed=True)
        if v < 2**31
        else b"\x8a\x08" + v.to_bytes(8, "little")
    )


def _tuple(*vs):
    return b"(" + b"".join(_int(v) for v in vs) + b"t"


def test_a_huge_storage_is_refused_before_it_is_made(workdir):
    _archive(workdir / "huge.pt", TENSOR % (_int(10**12), _tuple(10**12), _tuple(1)), [("0", b"")])
    assert_refused('import torch\ntorch.load("huge.pt")', "LimitError")


def test_a_tensor_beyond_its_storage_is_refused(workdir):
    _archive(
        workdir / "over.pt", TENSOR % (_int(4), _tuple(3, 3), _tuple(3, 1)), [("0", bytes(16))]
    )
    e = assert_refused('import torch\ntorch.load("over.pt")', "UnpicklingError")
    assert "goes beyond its storage" in e.message


def test_a_storage_of_the_wrong_size_is_refused(workdir):
    _archive(workdir / "short.pt", TENSOR % (_int(4), _tuple(4), _tuple(1)), [("0", bytes(8))])
    assert_refused('import torch\ntorch.load("short.pt")', "RuntimeError")


def test_build_on_a_tensor_is_refused(workdir):
    tensor = TENSOR % (_int(1), _tuple(1), _tuple(1))
    _archive(workdir / "build.pt", tensor[:-1] + b"}X\x04\x00\x00\x00dataNsb.", [("0", bytes(4))])
    assert_refused('import torch\ntorch.load("build.pt")', "UnpicklingError")


@pytest.mark.parametrize(
    "data",
    [b"", b"hello", b"PK\x03\x04" + bytes(40), pickle.dumps({"a": 1}, protocol=2)],
    ids=["empty", "text", "broken zip", "bare pickle"],
)
def test_files_that_are_not_pytorch_archives(workdir, data):
    (workdir / "bad.pt").write_bytes(data)
    e = assert_refused('import torch\ntorch.load("bad.pt")', "RuntimeError")
    assert "PytorchStreamReader failed" in e.message


def test_a_damaged_pickle_is_an_error_not_a_traceback(workdir):
    for junk in (b"\x80\x02(", b"\x80\x02\xff.", b"\x80\x02]q\x01h\x07.", b"\x80\x02N"):
        _archive(workdir / "junk.pt", junk)
        e = assert_refused('import torch\ntorch.load("junk.pt")')
        assert e.type_name in ("UnpicklingError", "RuntimeError"), e.message


def test_sets_and_bytes_are_not_loaded(workdir):
    _archive(workdir / "set.pt", pickle.dumps({1, 2}, protocol=4))
    assert_refused('import torch\ntorch.load("set.pt")', "UnpicklingError")


def test_save_refuses_values_a_file_cannot_hold(workdir):
    e = assert_refused('import torch\ntorch.save(torch.nn.Linear(2, 2), "m.pt")', "ValueError")
    assert "state_dict" in (e.hint or "")
    assert_refused('import torch\ntorch.save(print, "m.pt")', "ValueError")
    assert os.listdir(workdir) == []
    assert_refused('import torch\ntorch.save({"a": 1}, "missing/m.pt")', "OSError")
    assert os.listdir(workdir) == []


def test_load_reads_only_regular_files(workdir):
    os.mkfifo(workdir / "fifo.pt")
    (workdir / "dir.pt").mkdir()
    assert_refused('import torch\ntorch.load("fifo.pt")', "OSError")
    assert_refused('import torch\ntorch.load("dir.pt")', "OSError")
