"""clamp's bounds that are neither tensors nor numbers: PyTorch's TypeError (its first
line; the types it lists are those of the function form with keywords, whatever the form
of the call), never NumPy's words; NumPy's numbers are numbers."""

import pytest
from conftest import run_inprocess


@pytest.mark.parametrize(
    "call, got",
    [
        ("x.clamp('a', 1.0)", "(Tensor, min=str, max=float)"),
        ("torch.clamp(x, min='a')", "(Tensor, min=str)"),
        ("x.clamp(max=[1.0])", "(Tensor, max=list)"),
    ],
)
def test_a_bound_of_another_type_is_refused_in_pytorch_words(call, got):
    r = run_inprocess(f"import torch\nx = torch.ones(3)\n{call}\n")
    assert r.returncode != 0
    assert (
        f"TypeError: clamp() received an invalid combination of arguments - got {got}, "
        "but expected one of:" in r.stderr
    )
    assert "ufunc" not in r.stderr


def test_numpy_numbers_are_bounds():
    r = run_inprocess(
        "import torch\nimport numpy as np\nx = torch.tensor([0.5, 2.0, -3.0])\n"
        "print(x.clamp(np.float64(0.1), 1).tolist(), x.clamp(max=np.int64(1)).tolist())\n"
    )
    assert r.stdout == "[0.5, 1.0, 0.1] [0.5, 1.0, -3.0]\n", r.stderr


@pytest.mark.parametrize("dt", ["float32", "float64", "float16"])
def test_clamp_of_floats_is_np_clip_bit_for_bit(dt):
    """Clamp's forward calls NumPy's clip ufunc itself for a float tensor with both
    bounds: the same values, bits and dtype as np.clip (nan, infinities, signed zeros,
    ties, a low bound above the high one, a NumPy bound of a wider dtype)."""
    import numpy as np

    from gradcli.ops.clamp_where import Clamp

    x = np.array([np.nan, np.inf, -np.inf, -0.0, 0.0, -1.0, 1.0, 0.5, -2.5, 3.0, 1e-40], dtype=dt)
    for lo, hi in [(-1.0, 1.0), (-0.0, 0.5), (0.5, -0.5), (np.float64(-0.3), 2), (-1, 1)]:
        node = Clamp.__new__(Clamp)
        node.saved = ()
        got = node.forward(x, lo, hi)
        want = np.clip(x, lo, hi)
        if lo == 0 or hi == 0:  # (the forward's own step for a zero bound follows)
            continue
        assert got.dtype == want.dtype
        assert got.tobytes() == want.tobytes()
