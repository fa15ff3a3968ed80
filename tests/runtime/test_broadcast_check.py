"""The memory cap's check of a broadcast result (runtime/limits.check_broadcast): two
shapes broadcast in Python as NumPy broadcasts them, every pair of small shapes."""

import itertools

import numpy as np
import pytest

from gradcli.runtime import limits

SHAPES = [()] + [s for r in (1, 2, 3) for s in itertools.product((0, 1, 2, 3), repeat=r)]


def test_two_shapes_broadcast_as_numpy_broadcasts_them():
    for a in SHAPES:
        for b in SHAPES:
            try:
                want = np.broadcast_shapes(a, b)
            except ValueError:
                want = None
            assert limits._broadcast2(a, b) == want, (a, b)


@pytest.mark.parametrize("shapes", [((100000, 1), (100000,)), ((1, 100000), (100000, 1))])
def test_a_broadcast_over_the_cap_is_refused(shapes):
    with pytest.raises(limits.LimitError, match="memory cap"):
        limits.check_broadcast(*shapes)
    limits.check_broadcast((100000, 2), (3,))  # (does not broadcast: the op says so)
    limits.check_broadcast((128, 16), (16,))
