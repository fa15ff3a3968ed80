"""In-place tensor operations: golden cases from PyTorch 2.13
(tests/golden/inplace.json, recorded by scripts/gen_golden.py inplace from
tests/ops/inplace_cases.py) replayed through the language, and the functions the
compiler calls for `x[i] = v` and `x op= y` (gradcli.library.inplace.setitem and
AUGMENTED) also tested from Python, with values recorded from torch."""

import numpy as np
import pytest

from conftest import check_result, load_golden, run_cases

import gradcli.library  # noqa: F401  (fills the op table)
from gradcli.runtime import context
from gradcli.runtime.errors import GradError
from gradcli.core.tensor import Tensor
from gradcli.engine import versions
from gradcli.library.autograd_api import backward_leaves
from gradcli.library.inplace import AUGMENTED, setitem
from gradcli.library.values import GradModeContext
from gradcli.ops.registry import FUNCTIONS, METHOD_ONLY

GOLDEN = load_golden("inplace.json")


@pytest.mark.parametrize("name", list(GOLDEN))
def test_inplace_golden(name):
    case = GOLDEN[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )


# ---------------------------------------------------------------- from Python


def t(values, requires_grad=False, dtype=np.float64):
    return Tensor(np.array(values, dtype=dtype), requires_grad)


def m(name):
    return METHOD_ONLY[name].fn


def grad_of(loss):
    backward_leaves(FUNCTIONS["sum"](loss), None, None, False)


def test_setitem_basic_shares_and_counts():  # pending/setitem_basic
    a = t(np.zeros((2, 3)))
    setitem(a, 0, t([1.0, 2.0, 3.0]))
    setitem(a, (slice(None), 1), 7)
    setitem(FUNCTIONS["index"](a, 1), 2, 5)
    assert a.data.tolist() == [[1.0, 7.0, 3.0], [0.0, 7.0, 5.0]]
    assert versions.version(a) == 3


def test_setitem_graph_and_augmented():  # pending/setitem_graph
    x = t([1.0, 2.0, 3.0], True)
    y = x * 1
    setitem(y, 0, 5)
    assert y.grad_fn.name == "CopySlices" and versions.version(y) == 1
    setitem(y, slice(1, None), FUNCTIONS["index"](x, slice(None, 2)))
    assert y.grad_fn.name == "CopySlices"
    assert AUGMENTED["+="](y, 1) is y and y.grad_fn.name == "AddBackward0"
    assert AUGMENTED["*="](y, x) is y and y.grad_fn.name == "MulBackward0"
    grad_of(y)
    assert x.grad.data.tolist() == [8.0, 5.0, 3.0]


def test_setitem_into_plain_tensor():  # pending/setitem_into_plain
    x = t([1.0, 2.0, 3.0], True)
    a = t([0.0, 0.0, 0.0])
    setitem(a, 0, FUNCTIONS["index"](x, 1) * 3)
    assert a.grad_fn.name == "CopySlices" and not a.is_leaf
    grad_of(a)
    assert x.grad.data.tolist() == [0.0, 3.0, 0.0]


def test_setitem_advanced():  # pending/setitem_advanced
    x = t([1.0, 2.0, 3.0], True)
    y = x * 1
    setitem(y, y > 1, 0)
    assert y.grad_fn.name == "IndexPutBackward0"
    setitem(y, [0, 1], FUNCTIONS["index"](x, slice(None, 2)))
    grad_of(y)
    assert x.grad.data.tolist() == [1.0, 1.0, 0.0]
    b = t([0.0, 0.0, 0.0])
    setitem(b, t([0, 0], dtype=np.int64), t([1.0, 2.0]))
    assert b.data.tolist() == [2.0, 0.0, 0.0]


def test_setitem_cast_and_errors():
    a = t([0, 0, 0], dtype=np.int64)
    setitem(a, 0, 2.7)
    assert a.data.tolist() == [2, 0, 0]
    setitem(a, slice(None), t([1.5, 2.5, 3.5]))
    assert a.data.tolist() == [1, 2, 3]
    x = t([1.0, 2.0, 3.0], True)
    cases = [
        (
            x,
            0,
            1,
            "a view of a leaf Variable that requires grad is being used in an in-place operation.",
        ),
        (t([0.0, 0.0, 0.0]), 0, "a", "can't assign a str to a torch.DoubleTensor"),
        (t([0.0, 0.0, 0.0]), 5, 1, "index 5 is out of bounds for dimension 0 with size 3"),
        (
            t([0.0, 0.0, 0.0]),
            slice(0, 2),
            t([1.0, 1.0, 1.0]),
            "The expanded size of the tensor (2) must match the existing size (3) at "
            "non-singleton dimension 0.  Target sizes: [2].  Tensor sizes: [3]",
        ),
    ]
    for target, key, value, msg in cases:
        with pytest.raises(GradError) as e:
            setitem(target, key, value)
        assert e.value.message == msg


def test_augmented_aliases_and_errors():  # pending/iadd_*
    a = t([0.0, 0.0, 0.0])
    b = a
    b = AUGMENTED["+="](b, 1)
    b = AUGMENTED["-="](b, 0.5)
    b = AUGMENTED["*="](b, 4)
    b = AUGMENTED["/="](b, 2)
    assert b is a and a.data.tolist() == [1.0, 1.0, 1.0] and versions.version(a) == 4
    x = t([1.0, 2.0, 3.0], True)
    y = t([0.0, 0.0, 0.0])
    AUGMENTED["+="](y, x)
    assert y.grad_fn.name == "AddBackward0" and not y.is_leaf
    for target, value, msg in [
        (x, 1, "a leaf Variable that requires grad is being used in an in-place operation."),
        (
            t([0, 0, 0], dtype=np.int64),
            1.5,
            "result type Double can't be cast to the desired output type Long",
        ),
        (
            t([0.0, 0.0, 0.0]),
            t(np.ones((2, 3))),
            "output with shape [3] doesn't match the broadcast shape [2, 3]",
        ),
    ]:
        with pytest.raises(GradError) as e:
            AUGMENTED["+="](target, value)
        assert e.value.message == msg


def test_sgd_step_in_place_under_no_grad():  # pending/sgd_step
    w = t([1.0, -2.0, 3.0], True)
    for _ in range(3):
        grad_of(w * w)
        with GradModeContext(False, "no_grad"):
            AUGMENTED["-="](w, w.grad * 0.25)
        m("zero_")(w.grad)
    assert w.data.tolist() == [0.125, -0.25, 0.375] and w.is_leaf and versions.version(w) == 3


def test_saved_values_are_not_changed_by_rebase():
    # the out-of-place op computes on a snapshot: what it saved keeps the old values
    x = t([1.0, 2.0, 3.0], True)
    y = x * 1
    m("mul_")(y, x)
    m("mul_")(y, x)
    grad_of(y)
    assert x.grad.data.tolist() == [3.0, 12.0, 27.0]


def test_no_grad_writes_into_the_same_array():
    a = t([1.0, 2.0])
    arr = a.data
    with GradModeContext(False, "no_grad"):
        m("add_")(a, 1)
    assert a.data is arr and arr.tolist() == [2.0, 3.0]
    assert context.current.grad_enabled
