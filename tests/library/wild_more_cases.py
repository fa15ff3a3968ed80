"""More golden cases of the torch and Python API that published code uses (d2l's
package beside its class-based chapters and what they met): torch.meshgrid, the
optimizers as classes, in-place transposes, list and str methods, a library class's
constructor errors.  tests/library/wild_cases.py adds them to its CASES (recorded into
tests/golden/wild.json by scripts/gen_golden.py wild); its rules apply."""

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
    "meshgrid/values",
    """
    import torch
    a = torch.tensor([1., 2, 3], requires_grad=True)
    b = torch.tensor([4., 5])
    x, y = torch.meshgrid(a, b, indexing='ij')
    print(x, y, x.shape)
    print(torch.meshgrid([a, b], indexing='xy'))
    print(torch.meshgrid((a,), indexing='ij'))
    print(torch.meshgrid(torch.tensor(2.), b, torch.arange(2.), indexing='xy'))
    (x * y).sum().backward()
    print(a.grad)
    print(torch.meshgrid(torch.arange(2), torch.arange(3), indexing='ij'))
    """,
)

case(
    "meshgrid/default_indexing_warns",
    """
    import torch
    x, y = torch.meshgrid(torch.arange(3.), torch.arange(2.))
    print(x, y)
    x, y = torch.meshgrid(torch.arange(2.), torch.arange(2.))
    print(x + y)
    """,
)

errors(
    "meshgrid/errors",
    "import torch\na = torch.tensor([1., 2, 3])",
    [
        "torch.meshgrid(indexing='ij')",
        "torch.meshgrid(a, a, indexing='ab')",
        "torch.meshgrid(a, torch.tensor([1, 2]), indexing='ij')",
        "torch.meshgrid(a, 3, indexing='ij')",
    ],
)

case(
    "optim/classes",
    """
    import torch
    from torch import nn
    m = nn.Linear(2, 1)
    opt = torch.optim.SGD(m.parameters(), lr=0.1)
    print(type(opt) == torch.optim.SGD, type(opt) is torch.optim.SGD, type(opt))
    print(torch.optim.SGD, torch.optim.Adam, torch.optim.AdamW, torch.optim.Optimizer)
    print(isinstance(opt, torch.optim.Optimizer), isinstance(opt, torch.optim.Adam))
    adamw = torch.optim.AdamW(m.parameters())
    print(isinstance(adamw, torch.optim.Adam), issubclass(torch.optim.AdamW, torch.optim.Adam))
    print(torch.optim.SGD.__name__, type(adamw).__name__, opt.__class__.__name__)
    for cls in (torch.optim.SGD, torch.optim.Adam, torch.optim.RMSprop, torch.optim.Adagrad,
                torch.optim.Adadelta, torch.optim.AdamW):
        o = cls(m.parameters(), lr=0.5)
        print(type(o) == cls, type(o).__name__, o.param_groups[0]['lr'])
    def init_weights(mod):
        if type(mod) == nn.Linear:
            nn.init.constant_(mod.weight, 0.25)
    net = nn.Sequential(nn.Linear(2, 2), nn.ReLU(), nn.Linear(2, 1))
    net.apply(init_weights)
    print(net[0].weight, net[2].weight)
    """,
)

errors(
    "optim/constructor_errors",
    "import torch\nfrom torch import nn\nw = torch.ones(2, requires_grad=True)",
    [
        "torch.optim.SGD([w], lr=0.1, foo=1)",
        "torch.optim.SGD()",
        "torch.optim.Adam([w], 0.1, (0.9, 0.9), 1e-8, 0, False, 3)",
        "torch.optim.SGD([w], lr=0.1, momentum=-1)",
        "nn.Linear(2, 3, foo=1)",
        "nn.Linear(2)",
    ],
)

case(
    "inplace_transpose/values",
    """
    import torch
    x = torch.ones(2, 3, requires_grad=True)
    y = x * 2
    print(y.t_(), y.shape, y.grad_fn, y.grad_fn.next_functions)
    y.sum().backward()
    print(x.grad)
    z = torch.arange(6.).reshape(2, 3)
    print(z.transpose_(0, 1), z.is_contiguous(), z._version)
    w = torch.arange(24.).reshape(2, 3, 4)
    print(w.transpose_(0, -1).shape, w._version, w[1, 2])
    v = torch.tensor([1., 2.], requires_grad=True) * 3
    print(v.t_(), v.grad_fn, v._version)
    q = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    r = q * torch.tensor([[1., 0., 2.], [3., 1., 1.]])
    r.transpose_(1, 0)
    print(r.grad_fn, r.shape, r)
    (r * torch.arange(6.).reshape(3, 2)).sum().backward()
    print(q.grad)
    with torch.no_grad():
        s = torch.ones(2, 3, requires_grad=True)
        print(s.t_().shape, s.requires_grad, s.grad_fn, s.is_leaf)
    print(torch.ones(3).t_(), torch.tensor(5.).transpose_(0, -1))
    """,
)

case(
    "inplace_transpose/saved_output",
    """
    import torch
    q = torch.tensor([[1., 2., 3.], [4., 5., 6.]], requires_grad=True)
    r = q.exp()
    r.transpose_(1, 0)
    print(r.grad_fn, r._version)
    (r * 2).sum().backward()
    """,
)

errors(
    "inplace_transpose/errors",
    "import torch\nx = torch.ones(2, 3, requires_grad=True)\nz = torch.ones(2, 3)",
    [
        "x.t_()",
        "x.transpose_(0, 1)",
        "torch.ones(2, 3, 4).t_()",
        "z.transpose_(0, 5)",
    ],
)

case(
    "python/list_methods",
    """
    l = [3, 1, 2]
    l.extend((5, 4))
    l.insert(0, 9)
    l.remove(1)
    print(l, l.count(2), l.copy())
    l.sort()
    print(l)
    l.sort(key=lambda v: -v)
    print(l)
    l.sort(reverse=True)
    l.reverse()
    print(l)
    c = l.copy()
    l.clear()
    print(l, c, list.sort, list.extend)
    """,
)

case(
    "python/str_methods",
    """
    s = "ab\\ncd\\r\\nef"
    print(s.splitlines(), s.splitlines(True), "x-y-z".rsplit("-", 1), "  a ".lstrip() + "|")
    print("ab".center(6, "*"), "7".zfill(3), "abc".find("c"), "abc".rfind("z"), "a.b.c".count("."))
    print("key=value".partition("="), "a/b/c".rpartition("/"), "  x  ".rstrip() + "|")
    print("hello world".title(), "hello".capitalize(), "AbC".swapcase(), "ABC".casefold())
    print("12".isdigit(), "ab".isalpha(), "a1".isalnum(), " ".isspace(), "AB".isupper())
    print("ab".islower(), "x_1".isidentifier(), "ab".ljust(4, "-"), "ab".rjust(4))
    print("prefix_name".removeprefix("prefix_"), "file.py".removesuffix(".py"))
    print([line.split() for line in "a b\\nc d".splitlines()], str.splitlines("x\\ny"))
    """,
)

errors(
    "python/list_str_errors",
    "l = [1, 2]",
    [
        "l.remove(3)",
        "[1, 'a'].sort()",
        "'a'.center('x')",
        "l.insert()",
    ],
)
