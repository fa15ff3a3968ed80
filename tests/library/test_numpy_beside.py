"""`import numpy as np` beside torch (library/numpy_ns.py): what a program may reach of
NumPy is an allowlist, sizes are checked before arrays are made, no file, pickle or
C-level access is in it.  What the allowed part computes is checked against real
NumPy and torch in tests/programs (numpy_beside_torch, polynomial_numpy)."""

import numpy as np
import pytest

from conftest import Run, assert_refused

NP = "import numpy as np\n"

ESCAPES = [
    # files, pickles, memory maps, buffers: not in the namespace
    (NP + "np.load", "AttributeError"),
    (NP + "np.save", "AttributeError"),
    (NP + "np.fromfile", "AttributeError"),
    (NP + "np.frombuffer", "AttributeError"),
    (NP + "np.loadtxt", "AttributeError"),
    (NP + "np.savetxt", "AttributeError"),
    (NP + "np.genfromtxt", "AttributeError"),
    (NP + "np.memmap", "AttributeError"),
    (NP + "np.lib", "AttributeError"),
    (NP + "np.ctypeslib", "AttributeError"),
    (NP + "np.core", "AttributeError"),
    (NP + "np.vectorize", "AttributeError"),
    (NP + "np.frompyfunc", "AttributeError"),
    (NP + "np.__dict__", "AttributeError"),
    (NP + "np.random.RandomState(0).__reduce__()", "AttributeError"),
    (NP + "np.random.RandomState(0)._bit_generator", "AttributeError"),
    (NP + "np.random.RandomState.__self__", "AttributeError"),
    (NP + "np.random.__dict__", "AttributeError"),
    (NP + "np.linalg.__dict__", "AttributeError"),
    # an array's attributes: the allowlist only
    (NP + "np.zeros(2).tofile", "AttributeError"),
    (NP + "np.zeros(2).dump", "AttributeError"),
    (NP + "np.zeros(2).ctypes", "AttributeError"),
    (NP + "np.zeros(2).data", "AttributeError"),
    (NP + "np.zeros(2).base", "AttributeError"),
    (NP + "np.zeros(2).__array_interface__", "AttributeError"),
    (NP + "np.zeros(2).__reduce__()", "AttributeError"),
    (NP + "np.zeros(2).__class__.__subclasses__()", "AttributeError"),
    (NP + "np.float64(1.0).__class__.__mro__", "AttributeError"),
    (NP + "np.ndarray.__subclasses__()", "AttributeError"),
    (NP + "np.ndarray(5)", "TypeError"),
    (NP + "np.random.seed.__self__", "AttributeError"),
    (NP + "np.sum.__wrapped__", "AttributeError"),
    (NP + "np.random.default_rng(0).g", "AttributeError"),
    (NP + "np.random.default_rng(0).bit_generator", "AttributeError"),
    (NP + "np.random.default_rng(0).__class__.__subclasses__()", "AttributeError"),
    (NP + "np.random.default_rng(0).normal(size=(100000, 100000))", "LimitError"),
    (NP + "np.random.default_rng(0).integers(0, 9, 10 ** 12)", "LimitError"),
    # Python objects in arrays
    (NP + "np.array([print])", "TypeError"),
    (NP + "np.array([1, 2], dtype=object)", "TypeError"),
    (NP + "np.zeros(2).astype(object)", "TypeError"),
    (NP + "np.zeros(2).astype('O')", "TypeError"),
    (NP + "np.array([[1], [1, 2]], dtype='O')", "TypeError"),
    # sizes: refused before the memory is taken
    (NP + "np.zeros(10 ** 12)", "LimitError"),
    (NP + "np.ones((100000, 100000))", "LimitError"),
    (NP + "np.arange(0, 1e12)", "LimitError"),
    (NP + "np.linspace(0, 1, 10 ** 12)", "LimitError"),
    (NP + "np.random.rand(100000, 100000)", "LimitError"),
    (NP + "np.random.normal(0, 1, size=(100000, 100000))", "LimitError"),
    (NP + "np.random.choice(10, 10 ** 12)", "LimitError"),
    (NP + "np.ones((100000, 1)) * np.ones((1, 100000))", "LimitError"),
    (NP + "np.outer(np.ones(100000), np.ones(100000))", "LimitError"),
    (NP + "np.meshgrid(np.ones(100000), np.ones(100000))", "LimitError"),
    # NumPy's errors, in its words, as the language's
    (NP + "np.ones(3) + np.ones(4)", "ValueError"),
    (NP + "if np.ones(2):\n    pass", "ValueError"),
    (NP + "np.zeros(2)[5]", "IndexError"),
    (NP + "np.zeros((2, 2)).reshape(3)", "ValueError"),
    (NP + "import torch\ntorch.from_numpy([1.0])", "TypeError"),
    (NP + "import torch\nnp.exp(torch.ones(2, requires_grad=True))", "RuntimeError"),
]


@pytest.mark.parametrize("source,type_name", ESCAPES, ids=[s for s, _ in ESCAPES])
def test_numpy_escapes_and_errors_are_gradcli_errors(source, type_name):
    assert_refused(source, type_name)


def test_what_numpy_gives_a_program_is_numbers_arrays_and_tensors():
    r = Run(
        NP + "import torch\n"
        "v = np.arange(6).reshape(2, 3)\n"
        "v1 = v.sum(axis=0)\n"
        "v2 = np.random.rand(2)\n"
        "v3 = np.float32(1.5)\n"
        "v4 = torch.from_numpy(np.ones(2))\n"
        "v5 = v.tolist()\n"
        "v6 = v.shape\n"
        "v7 = v.dtype\n"
        "v8 = type(v)\n"
        "v9 = v[0] * 2.0 + 1\n"
    )
    assert r.error is None, r.error.message
    vars = r.session.scope.vars
    assert type(vars["v"]) is np.ndarray and vars["v"].dtype.kind != "O"
    assert isinstance(vars["v3"], np.generic) and vars["v5"] == [[0, 1, 2], [3, 4, 5]]
    assert vars["v8"] is np.ndarray and vars["v9"].dtype == np.float64


def test_from_numpy_shares_memory_and_numpy_gives_the_same_values():
    r = Run(
        NP + "import torch\n"
        "a = np.zeros(3)\n"
        "t = torch.from_numpy(a)\n"
        "a[1] = 5.0\n"
        "t[2] = 7.0\n"
        "print(t, a, t.numpy() is a)\n"
    )
    assert r.error is None, r.error.message
    assert "[0. 5. 7.]" in r.out and "tensor([0., 5., 7.]" in r.out


def test_np_random_streams_are_numpys():
    """np.random.seed(s) then draws: NumPy's legacy stream (what `np.random.rand` gives
    in CPython after the same seed)."""
    r = Run(NP + "np.random.seed(7)\nprint(repr(np.random.rand(3)), np.random.randint(0, 100))\n")
    assert r.error is None, r.error.message
    rs = np.random.RandomState(7)
    expected = f"{rs.rand(3)!r} {rs.randint(0, 100)}\n"
    assert r.out == expected
