"""The namespaces whose library most programs never use (torch.nn and torch.nn.functional,
torch.utils.data, torch.optim.lr_scheduler) are made when a program first reads them:
a program that does not name them does not import their modules, one that does sees the
same members, classes named as PyTorch names them, and the same "did you mean"."""

from __future__ import annotations

import os
import subprocess
import sys

from gradcli.library.torch_names import name_classes
from gradcli.library.values import Module

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
LAZY = (
    "gradcli.library.nn.namespace",
    "gradcli.library.nn.layers",
    "gradcli.library.data",
    "gradcli.library.lr_scheduler",
    "gradcli.library.saved_hooks",
)
#: modules of one feature each, imported at its first use
FEATURES = (
    "gradcli.language.loop_shapes",
    "gradcli.language.dataclass",
    "gradcli.language.inspection",
    "gradcli.library.graph_view",
    "gradcli.library.svg",
    "gradcli.library.name_docs",
    "gradcli.library.lbfgs_search",
)


def _run(program, watched=LAZY):
    code = (
        "import sys; from gradcli.cli import main\n"
        f"try:\n    main(['eval', '-q', '-e', {program!r}])\n"
        "except SystemExit as e:\n    assert not e.code, e.code\n"
        f"print(sorted(m for m in {watched!r} if m in sys.modules))\n"
    )
    r = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=120, cwd=ROOT
    )
    assert r.returncode == 0, r.stderr
    return r.stdout


def test_a_program_that_does_not_name_them_does_not_import_them():
    assert _run("x = ones(2, requires_grad=true)\nbackward sum(x * x)\nprint(x.grad)") == (
        "tensor([2., 2.])\n[]\n"
    )


def test_a_feature_s_modules_are_imported_at_its_first_use():
    plain = "x = ones(2, requires_grad=true)\nbackward sum(x * x)\nprint(x.grad)"
    assert _run(plain, LAZY + FEATURES) == "tensor([2., 2.])\n[]\n"
    program = (
        "import dataclasses, inspect\n"
        "@dataclasses.dataclass\nclass P:\n    a: int = 1\n"
        "def f(x):\n    return x * 2\n"
        "print(P(), inspect.isfunction(f), f(3))\n"
        "print(type(torch.autograd.graph.Node))"
    )
    out = _run(program, LAZY + FEATURES).splitlines()
    assert out[0] == "P(a=1) True 6"
    assert out[-1] == str(
        sorted(
            [
                "gradcli.language.dataclass",
                "gradcli.language.inspection",
                "gradcli.language.loop_shapes",
                "gradcli.library.saved_hooks",
            ]
        )
    )


def test_reading_a_namespace_imports_it():
    out = _run("import torch.nn as nn\nprint(type(nn.Linear(2, 3)))")
    assert out == (
        "<class 'torch.nn.modules.linear.Linear'>\n"
        "['gradcli.library.nn.layers', 'gradcli.library.nn.namespace']\n"
    )
    out = _run(
        "from torch.optim.lr_scheduler import StepLR\n"
        "from torch.utils.data import DataLoader\nprint(StepLR, DataLoader)"
    )
    assert out.splitlines() == [
        "<class 'torch.optim.lr_scheduler.StepLR'> "
        "<class 'torch.utils.data.dataloader.DataLoader'>",
        "['gradcli.library.data', 'gradcli.library.lr_scheduler']",
    ]


def test_parameter_and_module_are_named_before_torch_nn_is_read():
    from gradcli.core.printing import CLASS_NAMES
    from gradcli.library import catalog  # noqa: F401  (the whole library, as the session)
    from gradcli.library.nn.module import Module as NNModule, Parameter
    from gradcli.library.torch_ns import namespace

    namespace()
    names = {q for _, q in CLASS_NAMES.values()}
    assert {"torch.nn.parameter.Parameter", "torch.nn.modules.module.Module"} <= names
    assert NNModule and Parameter


def test_did_you_mean_lists_the_lazy_members():
    r = subprocess.run(
        [sys.executable, "-m", "gradcli", "eval", "-e", "torch.nn.Lineer(2, 3)"],
        capture_output=True,
        text=True,
        timeout=120,
        cwd=ROOT,
    )
    assert "module 'torch.nn' has no attribute 'Lineer'" in r.stderr
    assert "did you mean 'Linear'?" in r.stderr


def test_a_lazy_namespace_makes_its_members_once_at_their_first_read():
    made = []

    class Thing:
        pass

    def load():
        made.append(1)
        return {"Thing": Thing, "one": 1}

    ns = Module("lazy", load=load)
    outer = {"lazy": ns}
    name_classes(outer)  # does not read a namespace not yet made
    assert made == [] and not ns.loaded
    assert ns.members["one"] == 1 and ns.loaded
    assert ns.get("Thing", {}) is Thing and made == [1]
    assert Module("eager", {"a": 2}).loaded
