"""torch.nn, optim, data and the tensor API.

Golden cases (tests/golden/nn.json, recorded from PyTorch 2.13 by
scripts/gen_golden.py nn from tests/library/nn_cases.py) replayed through the command
line; and nn.Module subclassed in Python, as a user class of the language is (the
class rules of docs/developer/architecture.md), until the language's classes can be
tested in the language."""

import os
import re
import sys

import numpy as np
import pytest

from conftest import check_result, load_golden, run_cases

import gradcli.library  # noqa: F401  (fills the op table)
from gradcli.runtime import context
from gradcli.numerics import mkl
from gradcli.runtime.errors import GradError
from gradcli.core.printing import show
from gradcli.core.tensor import Tensor
from gradcli.library.nn.module import Module, Parameter
from gradcli.library.nn.containers import Sequential
from gradcli.library.nn.layers import Linear, ReLU

NN = load_golden("nn.json")
sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from nn_cases import NEEDS_MKL  # noqa: E402


def _language_has_classes():
    from gradcli.language.parser import parse

    try:
        parse("class A:\n    pass\n")
    except Exception:
        return False
    return True


HAS_CLASSES = _language_has_classes()


@pytest.mark.parametrize("name", list(NN))
def test_nn_golden(name):
    if name.startswith("classes/") and not HAS_CLASSES:
        pytest.skip("the language has no `class` yet: replayed once it lands")
    if name in NEEDS_MKL and not mkl.available():
        pytest.skip("torch's sqrt is MKL's: bit for bit only with the mkl package (the test extra)")
    case = NN[name]
    result = run_cases({name: case["source"]})[name]
    check_result(
        result, case["stdout"], case["error"], what=name, warnings=case.get("warnings", ())
    )


class TwoLayer(Module):
    def __init__(self):
        super().__init__()
        self.hidden = Linear(2, 3)
        self.out = Linear(3, 1)
        self.scale = Parameter(Tensor(np.array([2.0])))
        self.register_buffer("steps", Tensor(np.zeros(1)))
        self.note = "plain data"

    def forward(self, x):
        return self.out(ReLU()(self.hidden(x))) * self.scale


def test_subclass_registers_parameters_modules_buffers():
    context.current.generator.manual_seed(0)
    m = TwoLayer()
    names = [n for n, _ in m.named_parameters()]
    assert names == ["scale", "hidden.weight", "hidden.bias", "out.weight", "out.bias"]
    assert [n for n, _ in m.named_children()] == ["hidden", "out"]
    assert [n for n, _ in m.named_buffers()] == ["steps"]
    # torch's order: own parameters, own buffers, then each submodule's
    assert list(m.state_dict()) == [
        "scale",
        "steps",
        "hidden.weight",
        "hidden.bias",
        "out.weight",
        "out.bias",
    ]
    assert m.note == "plain data" and "note" in m.__dict__
    assert repr(m) == (
        "TwoLayer(\n  (hidden): Linear(in_features=2, out_features=3, bias=True)\n"
        "  (out): Linear(in_features=3, out_features=1, bias=True)\n)"
    )
    y = m(Tensor(np.ones((4, 2))))
    assert y.data.shape == (4, 1) and y.grad_fn.name == "MulBackward0"


def test_subclass_parameter_reassignment_and_errors():
    m = TwoLayer()
    with pytest.raises(GradError, match="cannot assign 'str' as parameter 'scale'"):
        m.scale = "x"
    with pytest.raises(GradError, match="cannot assign 'int' as child module 'out'"):
        m.out = 3
    m.out = None
    assert [n for n, _ in m.named_children()] == ["hidden"]

    class Early(Module):
        def __init__(self):
            self.w = Parameter(Tensor(np.zeros(1)))

    with pytest.raises(
        GradError, match=r"cannot assign parameters before Module.__init__\(\) call"
    ):
        Early()

    class NoForward(Module):
        pass

    with pytest.raises(GradError, match='missing the required "forward" function'):
        NoForward()(Tensor(np.zeros(1)))


def test_language_hooks_follow_the_contract():
    """language_setattr / language_getattr behave as Python's setattr/getattr."""
    m = Sequential(Linear(1, 1))
    m.language_setattr("extra", Linear(1, 2))
    assert [n for n, _ in m.named_children()] == ["0", "extra"]
    assert m.language_getattr("extra") is m.extra
    with pytest.raises(AttributeError):
        m.language_getattr("missing")
    assert list(Module.language_methods["parameters"](m)) == m.parameters()  # a generator


def test_parameter_is_a_marked_leaf_tensor():
    p = Parameter(Tensor(np.array([1.0, 2.0])))
    assert type(p) is Tensor and isinstance(p, Parameter) and p.requires_grad
    assert not isinstance(p * 2, Parameter)
    assert show(p).startswith("Parameter containing:\ntensor([1., 2.], requires_grad=True)")
    assert not isinstance(Tensor(np.zeros(1)), Parameter)


def test_train_eval_reach_every_submodule():
    m = TwoLayer()
    m.eval()
    assert not any(sub.training for sub in m.modules())
    m.train()
    assert all(sub.training for sub in m.modules())


def test_default_init_matches_recorded_draws():
    """The same seed, the same first weight twice (the generator is consumed in order)."""
    context.current.generator.manual_seed(42)
    a = Linear(3, 2).weight.data.copy()
    context.current.generator.manual_seed(42)
    b = Linear(3, 2).weight.data
    assert np.array_equal(a, b)
    bound = 1 / np.sqrt(3)
    assert np.all(np.abs(a) <= bound)


def test_profiler_is_a_clear_note_that_does_not_stop_the_program():
    src = (
        "import torch\nx = torch.ones(3, requires_grad=True)\n"
        "with torch.autograd.profiler.profile() as prof:\n    y = (x * 2).sum()\n"
        "print(prof.key_averages().table(sort_by='self_cpu_time_total'))\ny\n"
    )
    r = run_cases({"p": src})["p"]
    assert r.returncode == 0, r.stderr
    assert "not supported by gradcli" in r.stderr
    assert r.stdout.endswith("tensor(6., grad_fn=<SumBackward0>)\n")


def test_autograd_graph_is_a_module_of_its_own():
    """torch.autograd.graph is PyTorch's module (saved_tensors_hooks ...: library/
    saved_hooks.py): a name it lacks fails as a module's, not as gradcli's graph()
    picture's."""
    src = (
        "import torch\ntorch.autograd.graph\n"
        "with torch.autograd.graph.saved_tensors_hooks(print, print):\n    pass\n"
        "torch.autograd.graph.get_gradient_edge\n"
    )
    r = run_cases({"g": src})["g"]
    assert r.returncode != 0 and r.stdout == "<module 'torch.autograd.graph'>\n"
    assert (
        "AttributeError: module 'torch.autograd.graph' has no attribute "
        "'get_gradient_edge'" in r.stderr
    )


@pytest.mark.parametrize(
    "kwargs, message",
    [
        (
            "padding='full'",
            r"Invalid padding string 'full', should be one of \{'(same|valid)', '(same|valid)'\}",
        ),
        ("padding='same', stride=2", "padding='same' is not supported for strided convolutions"),
        (
            "padding_mode='mirror'",
            r"padding_mode must be one of \{.*'circular'.*\}, but got padding_mode='mirror'",
        ),
    ],
)
def test_conv2d_option_errors(kwargs, message):
    """torch prints a Python set in these (its order varies between runs), so they are
    checked here rather than in the goldens."""
    r = run_cases({"c": "import torch\ntorch.nn.Conv2d(1, 1, 3, %s)\n" % kwargs})["c"]
    assert r.returncode == 1
    assert re.search("ValueError: " + message, r.stderr), r.stderr


def test_inspect_currentframe_at_the_top_level_is_an_error_naming_it():
    """d2l's save_hyperparameters reads the caller's frame with `inspect` (tests/programs):
    the frames are those of the program's functions; at the top level there is none."""
    r = run_cases(
        {"i": "import inspect\nprint('reached')\ninspect.currentframe()\nprint('not reached')\n"}
    )["i"]
    assert r.returncode == 1 and r.stdout == "reached\n", r.stderr
    assert "currentframe() at the top level" in r.stderr and "Traceback" not in r.stderr
