"""torch.NAME of an element-wise op takes a Tensor: a number, a list or None in its place
is PyTorch's TypeError, and a call with no argument its parser's words, in both tiers
(messages recorded from torch 2.13); the bare name NAME(2.0) stays the calculator's."""

import pytest

from conftest import run_inprocess

# (op, the call's arguments, torch 2.13's TypeError message)
TORCH = [
    ("arctan", "2.0", "arctan(): argument 'input' (position 1) must be Tensor, not float"),
    ("arctan", "", 'arctan() missing 1 required positional arguments: "input"'),
    ("arctan", "2.0, 3.0", "arctan() takes 1 positional argument but 2 were given"),
    ("arctan", "None", "arctan(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("arctan", "[1.0]", "arctan(): argument 'input' (position 1) must be Tensor, not list"),
    ("exp", "2.0", "exp(): argument 'input' (position 1) must be Tensor, not float"),
    ("exp", "", 'exp() missing 1 required positional arguments: "input"'),
    ("exp", "2.0, 3.0", "exp() takes 1 positional argument but 2 were given"),
    ("exp", "None", "exp(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("exp", "[1.0]", "exp(): argument 'input' (position 1) must be Tensor, not list"),
    ("relu", "2.0", "relu(): argument 'input' (position 1) must be Tensor, not float"),
    ("relu", "", 'relu() missing 1 required positional arguments: "input"'),
    ("relu", "2.0, 3.0", "relu() takes 1 positional argument but 2 were given"),
    ("relu", "None", "relu(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("relu", "[1.0]", "relu(): argument 'input' (position 1) must be Tensor, not list"),
    ("sigmoid", "2.0", "sigmoid(): argument 'input' (position 1) must be Tensor, not float"),
    ("sigmoid", "", 'sigmoid() missing 1 required positional arguments: "input"'),
    ("sigmoid", "2.0, 3.0", "sigmoid() takes 1 positional argument but 2 were given"),
    ("sigmoid", "None", "sigmoid(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("sigmoid", "[1.0]", "sigmoid(): argument 'input' (position 1) must be Tensor, not list"),
    ("sqrt", "2.0", "sqrt(): argument 'input' (position 1) must be Tensor, not float"),
    ("sqrt", "", 'sqrt() missing 1 required positional arguments: "input"'),
    ("sqrt", "2.0, 3.0", "sqrt() takes 1 positional argument but 2 were given"),
    ("sqrt", "None", "sqrt(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("sqrt", "[1.0]", "sqrt(): argument 'input' (position 1) must be Tensor, not list"),
    ("tanh", "2.0", "tanh(): argument 'input' (position 1) must be Tensor, not float"),
    ("tanh", "", 'tanh() missing 1 required positional arguments: "input"'),
    ("tanh", "2.0, 3.0", "tanh() takes 1 positional argument but 2 were given"),
    ("tanh", "None", "tanh(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("tanh", "[1.0]", "tanh(): argument 'input' (position 1) must be Tensor, not list"),
    ("trunc", "2.0", "trunc(): argument 'input' (position 1) must be Tensor, not float"),
    ("trunc", "", 'trunc() missing 1 required positional arguments: "input"'),
    ("trunc", "2.0, 3.0", "trunc() takes 1 positional argument but 2 were given"),
    ("trunc", "None", "trunc(): argument 'input' (position 1) must be Tensor, not NoneType"),
    ("trunc", "[1.0]", "trunc(): argument 'input' (position 1) must be Tensor, not list"),
]


@pytest.mark.parametrize("tier", [(), ("--no-fast-tier",)])
@pytest.mark.parametrize("name,args,message", TORCH)
def test_torch_op_refuses_what_torch_refuses(tier, name, args, message):
    r = run_inprocess(f"torch.{name}({args})\n", ("eval", *tier, "-"))
    assert r.returncode != 0
    assert f"TypeError: {message}\n" in r.stderr, r.stderr


@pytest.mark.parametrize("tier", [(), ("--no-fast-tier",)])
def test_bare_name_and_tensor_still_work(tier):
    src = "print(tanh(2.0))\nprint(torch.tanh(torch.tensor([0.5, 1.0])))\n"
    r = run_inprocess(src, ("eval", *tier, "-"))
    assert r.returncode == 0, r.stderr
    assert r.stdout == "tensor(0.9640)\ntensor([0.4621, 0.7616])\n"
