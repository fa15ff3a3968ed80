"""Module.replay_state and replay_same: what a replayed loop's check compares of a module
(its attributes, its tables' keys and values by identity, its empty tables' lengths), each
kind of change seen as a change, by the flat comparison (ReplayState.flat) and by the
check a table at a time it stands for."""

import numpy as np
import pytest

from gradcli.core.tensor import Tensor
from gradcli.library.nn.containers import Sequential
from gradcli.library.nn.layers import Linear, Tanh
from gradcli.library.nn.module import ReplayState, _replay_same, replay_same, replay_state


def _model():
    return Sequential(Sequential(Linear(5, 4), Tanh()), Linear(4, 3))


def _new_weight(m):
    m[1]._parameters["weight"] = Tensor(np.zeros((3, 4)), requires_grad=True)


def _new_attribute(m):
    m[0][0].__dict__["extra"] = 1


def _removed_attribute(m):
    del m[1].__dict__["in_features"]


def _other_flag(m):
    m[0].__dict__["training"] = not m[0].training


def _swapped_module(m):
    m[0]._modules["1"] = Tanh()


def _buffer(m):  # (an empty table: its length is checked)
    m[1]._buffers["b"] = Tensor(np.zeros(3))


def _renamed_key(m):
    p = m[1]._parameters
    p["w"] = p.pop("weight")
    p["bias"] = p.pop("bias")


@pytest.mark.parametrize(
    "change",
    [
        _new_weight,
        _new_attribute,
        _removed_attribute,
        _other_flag,
        _swapped_module,
        _buffer,
        _renamed_key,
    ],
)
def test_each_change_is_seen(change):
    m = _model()
    state, _, _ = replay_state(m)
    assert type(state) is ReplayState and state.flat is not None
    assert replay_same(state) and _replay_same(state)
    change(m)
    assert not replay_same(state)
    assert not _replay_same(state)


def test_a_step_of_the_parameters_is_no_change():
    m = _model()
    state, _, _ = replay_state(m)
    for p in m.parameters():
        p.data = p.data * 2  # (an optimizer's step: the same tensors, new arrays)
    assert replay_same(state)


def test_joined_states_keep_the_flat_comparison():
    a, b = _model(), _model()
    sa, sb = replay_state(a)[0], replay_state(b)[0]
    joined = sa + tuple(sb)
    assert type(joined) is ReplayState and joined.flat is not None
    assert replay_same(joined)
    _new_weight(b)
    assert not replay_same(joined)
    assert replay_same(tuple(sa))  # (a plain tuple of entries: checked a table at a time)


def _class_entry(c):
    """A program class's attributes as replay_through.through_state notes them."""
    return (c.__dict__, tuple(c.__dict__), list(map(id, c.__dict__.values())), (), ())


@pytest.mark.parametrize("change", ["rebound", "added", "removed"])
def test_a_class_s_attributes_keep_the_flat_comparison(change):
    class Net:
        scale = 2.0

        def forward(self, x):
            return x

    m = _model()
    joined = replay_state(m)[0] + (_class_entry(Net),)
    assert type(joined) is ReplayState and joined.flat is not None
    assert replay_same(joined) and _replay_same(joined)
    if change == "rebound":
        Net.scale = 3.0
    elif change == "added":
        Net.extra = 1
    else:
        del Net.forward
    assert not replay_same(joined)
    assert not _replay_same(joined)
