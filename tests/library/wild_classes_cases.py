"""Golden cases of the library's classes as classes of the language: torch.Size (a
tuple subclass made by `torch.Size([2, 3])`), torch.dtype, torch.device,
torch.Generator, nn.Parameter and the torch.return_types results, as isinstance,
issubclass, type() and __name__ see them. tests/library/wild_cases.py adds them to its
CASES (recorded into tests/golden/wild.json by scripts/gen_golden.py wild)."""

import textwrap

CASES = []


def case(name, src):
    if any(n == name for n, _ in CASES):
        raise ValueError("duplicate case name: " + name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


def errors(prefix, setup, lines):
    """One case per line, each after `setup`: the error each one ends with."""
    for i, line in enumerate(lines):
        case(f"{prefix}/{i}", setup + "\n" + line + "\n")


case(
    "classes/size",
    """
    import torch
    x = torch.ones(2, 3)
    s = x.shape
    print(type(s), type(x.size()), torch.Size)
    print(type(s) is torch.Size, type(s) == torch.Size)
    print(isinstance(s, torch.Size), isinstance(s, tuple), isinstance(s, (list, tuple)))
    print(isinstance((2, 3), torch.Size), isinstance(x.stride(), torch.Size))
    print(issubclass(torch.Size, tuple), issubclass(tuple, torch.Size))
    print(torch.Size.__name__, torch.Size.__qualname__, type(s).__name__)
    print(torch.Size([2, 3]), torch.Size((2, 3)), torch.Size(), torch.Size(range(3)))
    print(torch.Size([True, 2]), torch.Size([torch.tensor(4)]), torch.Size([-1]))
    print(torch.Size(torch.tensor([2, 3])), torch.Size(s), torch.Size(s) == s)
    print(torch.Size([2, 3]) == (2, 3), torch.Size([2, 3]) == [2, 3])
    print(s[0:1], type(s[1:]), s[::-1], s[-1], type(s[0]))
    print(s + (4,), (1,) + s, s * 2, len(s), list(s), s.numel())
    print(torch.zeros(torch.Size([1, 2])), x.view(torch.Size([3, 2])).shape)
    print(x.new_zeros(torch.Size([2])).shape, x.reshape(s[::-1]).shape)
    """,
)

case(
    "classes/size_dispatch",
    """
    import torch

    def dims(v):
        if isinstance(v, torch.Size):
            return "size", len(v)
        if isinstance(v, tuple):
            return "tuple", len(v)
        return "other", v

    x = torch.zeros(4, 5, 6)
    print(dims(x.shape), dims((1, 2)), dims(3))
    print([type(t.shape) is torch.Size for t in (x, x[0], x.sum())])
    print({torch.Size([2]): 'a'}[(2,)])
    """,
)

errors(
    "classes/size_errors",
    "import torch",
    [
        "torch.Size(2)",
        "torch.Size([2.0])",
        "torch.Size('ab')",
        "torch.Size([torch.tensor(2.0)])",
        "torch.Size([2], [3])",
    ],
)

case(
    "classes/dtype_device",
    """
    import torch
    x = torch.ones(2, 3)
    print(type(x.dtype), torch.dtype, type(x.dtype) is torch.dtype)
    print(isinstance(x.dtype, torch.dtype), isinstance(torch.int64, torch.dtype))
    print(isinstance("float32", torch.dtype), torch.dtype.__name__)
    print(type(x.device), torch.device, type(x.device) is torch.device)
    print(isinstance(x.device, torch.device), isinstance("cpu", torch.device))
    print(isinstance(torch.device("cpu"), torch.device), torch.device.__name__)
    d = x.device if isinstance(x.device, torch.device) else torch.device(x.device)
    print(d)
    """,
)

errors("classes/dtype_errors", "import torch", ["torch.dtype()"])

case(
    "classes/generator_parameter",
    """
    import torch
    import torch.nn as nn
    g = torch.Generator().manual_seed(3)
    print(type(g), torch.Generator, type(g) is torch.Generator)
    print(isinstance(g, torch.Generator), torch.Generator.__name__)
    p = nn.Parameter(torch.ones(2))
    print(type(p), nn.Parameter, type(p) is nn.Parameter, type(p) is torch.Tensor)
    print(isinstance(p, nn.Parameter), isinstance(p, torch.Tensor))
    print(isinstance(torch.ones(2), nn.Parameter), issubclass(nn.Parameter, torch.Tensor))
    print(type(p).__name__, nn.Parameter.__name__)
    """,
)

case(
    "classes/return_types",
    """
    import torch
    x = torch.tensor([[3., 1., 2.], [0., 5., 4.]])
    for r in (x.max(1), x.min(0), x.sort(), x.topk(2), x.cummax(1), x.kthvalue(1),
              x.median(1), x.mode(1), torch.histogram(x.flatten(), 3)):
        print(type(r), type(r).__name__, isinstance(r, tuple), len(r))
    print(type(x.max(1)) == type(x.max(0)), type(x.max(1)) == type(x.min(1)))
    """,
)
