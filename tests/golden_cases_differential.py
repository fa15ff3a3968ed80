"""Golden cases for what the differential test against PyTorch found (programs shrunk
from tests/differential/'s generator, and their neighbours), each recorded from real
PyTorch 2.13.

Same rules and format as tests/golden_cases.py (``case(name, src)``); recorded into
tests/golden/differential.json by ``scripts/gen_golden.py --differential`` and checked
by tests/test_differential_cases.py.
"""

import textwrap

CASES = []
_names = set()


def case(name, src):
    if name in _names:
        raise ValueError("duplicate case name: " + name)
    _names.add(name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


# ---------------------------------------------------------------------------
# a backward that fails part-way: only the leaves whose every consumer ran get
# their gradients (PyTorch runs a leaf's AccumulateGrad when its last input is in)
# ---------------------------------------------------------------------------

case(
    "partial/second_backward_freed",
    """
    x = torch.tensor([1., 2.], requires_grad=True)
    out = (x * x).sum() + x.sum()
    out.backward()
    try:
        out.backward()
    except RuntimeError as e:
        print("error")
    print(x.grad)
""",
)
case(
    "partial/complete_leaf_still_gets_its_gradient",
    """
    x = torch.tensor([1., 2.], requires_grad=True)
    y = torch.tensor([1., 3.], requires_grad=True)
    for i in range(3):
        out = (x * x).sum() + x.sum() + (y * 2).sum() + y.sum()
        out.backward()
        try:
            out.backward()
        except RuntimeError as e:
            print("error")
        print(x.grad, y.grad)
""",
)
case(
    "partial/version_counter",
    """
    x = torch.tensor([1., 2.], requires_grad=True)
    y = torch.tensor([1., 3.], requires_grad=True)
    z = x * 1
    w = (z * z).sum() + x.sum() + y.sum()
    z.add_(1)
    try:
        w.backward()
    except RuntimeError as e:
        print("error")
    print(x.grad, y.grad)
""",
)
case(
    "partial/with_a_hook",
    """
    x = torch.tensor([1., 2.], requires_grad=True)
    y = torch.tensor([1., 3.], requires_grad=True)
    h = x.register_hook(lambda g: g * 2)
    out = (x * x).sum() + x.sum() + y.sum()
    out.backward()
    try:
        out.backward()
    except RuntimeError as e:
        print("error")
    print(x.grad, y.grad)
""",
)
