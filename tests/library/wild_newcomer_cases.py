"""Golden cases of code a new PyTorch user writes that gradcli printed differently from
PyTorch: x.sgn(), a frozen dataclass, np.shares_memory, torch.linalg.LinAlgError,
list() of a tensor, max/min over an empty dim.
tests/library/wild_cases.py adds them to its CASES (recorded into tests/golden/wild.json
by scripts/gen_golden.py wild); its rules apply."""

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
    "newcomer/sgn",
    """
    import torch
    x = torch.tensor([-2.0, 0.0, 3.0, -0.0, float('nan')], requires_grad=True)
    y = x.sgn()
    print(y, y.grad_fn, torch.sgn(x), y.grad_fn._saved_self, y.grad_fn._saved_result)
    y.sum().backward()
    print(x.grad)
    print(torch.tensor([-3, 0, 5]).sgn(), torch.sgn(torch.tensor([1, -1], dtype=torch.int8)))
    z = torch.tensor([-1.5, 2.0])
    z.sgn_()
    print(z, torch.tensor([-1.5, 2.0], dtype=torch.float32).sgn())
    print(torch.tensor([True, False]).sgn())
    a = torch.tensor([-1.0, 2.0], requires_grad=True)
    g, = torch.autograd.grad(a.abs().sum(), a, create_graph=True)
    print(g, g.grad_fn)
    """,
)

errors("newcomer/sgn_errors", "import torch", ["torch.sgn(3.0)"])

errors(
    "newcomer/empty_reductions",
    "import torch",
    [
        "torch.tensor([]).min(dim=0)",
        "torch.tensor([]).max(dim=0)",
        "torch.tensor([]).max(0, keepdim=True)",
        "torch.zeros(0, 3).min(dim=0)",
        "torch.zeros(2, 0).max(dim=-1)",
        "print(torch.zeros(0, 3).max(dim=1))",
        "torch.max(torch.zeros(3, 0), 1)",
    ],
)

case(
    "newcomer/list_of_a_tensor",
    """
    import torch
    a = torch.ones(3, 4, requires_grad=True)
    rows = list(a * 2)
    print([t.grad_fn for t in rows], tuple(a * 3)[0].grad_fn, list(torch.arange(3)))
    print(list(torch.ones(2, 2)), list(torch.tensor([])), list(torch.zeros(0, 2)))
    b = list(a)
    b[0].sum().backward()
    print(a.grad, b[1].grad_fn)
    for f in (list, tuple):
        try:
            f(torch.tensor(1.0))
        except TypeError as e:
            print(e)
    """,
)

case(
    "newcomer/linalg_error",
    """
    import torch
    bad = [
        lambda: torch.linalg.inv(torch.zeros(2, 2)),
        lambda: torch.inverse(torch.zeros(3, 2, 2)),
        lambda: torch.linalg.solve(torch.zeros(2, 2), torch.ones(2)),
        lambda: torch.linalg.cholesky(-torch.eye(2)),
    ]
    for f in bad:
        try:
            f()
        except torch.linalg.LinAlgError as e:
            print(type(e).__name__, type(e), isinstance(e, RuntimeError))
            print(repr(e))
    try:
        torch.linalg.inv(torch.ones(2, 2))
    except RuntimeError as e:
        print("caught:", e)
    print(torch.linalg.LinAlgError, issubclass(torch.linalg.LinAlgError, RuntimeError))
    """,
)

errors("newcomer/linalg_error_uncaught", "import torch", ["torch.linalg.inv(torch.zeros(2, 2))"])

case(
    "newcomer/frozen_dataclass",
    """
    from dataclasses import dataclass, field
    import dataclasses
    import torch
    @dataclass(frozen=True)
    class Config:
        lr: float
        steps: int = 3
        tags: list = field(default_factory=list, compare=False)
        def scaled(self):
            return self.lr * self.steps
    c = Config(0.1)
    print(c, hash(c) == hash(Config(0.1)), c == Config(0.1), c.scaled(), {c: 1}[Config(0.1)])
    for f in (lambda: setattr(c, "lr", 3), lambda: setattr(c, "extra", 3)):
        try:
            f()
        except dataclasses.FrozenInstanceError as e:
            print(type(e).__name__, e, repr(e), isinstance(e, AttributeError))
    try:
        c.lr = 0.5
    except AttributeError as e:
        print(type(e), e)
    try:
        del c.steps
    except AttributeError as e:
        print(type(e).__name__, e)
    d = dataclasses.replace(c, lr=0.5)
    print(d, c.lr, dataclasses.asdict(d))
    @dataclass(frozen=True, order=True)
    class V:
        a: int
        b: int = 0
    print(sorted([V(2), V(1, 3), V(1)]), len({V(1), V(1), V(2)}))
    class W(V):
        pass
    w = W(4)
    w.c = 1
    print(w, w.c)
    @dataclass(frozen=True)
    class Batch:
        x: torch.Tensor
        y: torch.Tensor
    b = Batch(torch.ones(2), torch.zeros(2))
    print(b.x + b.y)
    """,
)

errors(
    "newcomer/frozen_dataclass_uncaught",
    "from dataclasses import dataclass\n@dataclass(frozen=True)\nclass P:\n    x: int = 0\np = P()",
    ["p.x = 1", "del p.x", "p.y = 2"],
)

case(
    "newcomer/shares_memory",
    """
    import torch
    import numpy as np
    a = np.zeros(4)
    print(np.shares_memory(a, a[1:]), np.shares_memory(a, a.copy()))
    print(np.may_share_memory(a[::2], a[1::2]), np.shares_memory(a[::2], a[1::2]))
    t = torch.zeros(3)
    n = t.numpy()
    n[0] = 5
    print(t, np.shares_memory(n, t.numpy()), np.shares_memory(np.asarray(t), n))
    u = torch.from_numpy(a)
    u[1] = 2.0
    print(a, np.shares_memory(u.numpy(), a))
    """,
)

case(
    "newcomer/any_all_of_a_tensor",
    """
    import torch
    torch.manual_seed(0)
    v = torch.randn(1000)
    Y = (v > 0).long()
    print(any(v > 3), all(v > -10), any(Y == 1), all(Y >= 0), any(torch.tensor([])), all(torch.tensor([])))
    print(any(torch.tensor([[0.0], [2.0]])), all(torch.zeros(0, 3)), any(x > 0 for x in v[:3]))
    if any(torch.tensor([0, 0, 1])):
        print("some")
    x = torch.ones(2, 2)
    print(torch.all(x > 0), torch.any(x > 0), torch.all(x > 0, dim=1), torch.any(x, 0))
    t = torch
    print(t.all(x > 0), any([0, 1]), all(x[0] > 0), (x > 0).all(), torch.all(x == x).item())
    """,
)

errors(
    "newcomer/any_all_errors",
    "import torch",
    ["any(torch.ones(2, 2) > 0)", "all(torch.tensor(1.0))", "any(torch.zeros(2, 0))"],
)

case(
    "newcomer/deque",
    """
    from collections import deque
    import torch
    q = deque([1, 2, 3], maxlen=3)
    q.append(4)
    print(q, q.popleft(), len(q), list(q), q[0], 3 in q, q.maxlen, sum(q), max(q))
    q.appendleft(0)
    q.extend([7, 8])
    q.rotate(1)
    print(q, q.count(7), q.index(8))
    for v in q:
        print(v, end=" ")
    print()
    d = deque()
    d.append("a")
    d.extendleft("xy")
    print(d, d.pop(), d, repr(deque()), deque(range(3)))
    try:
        deque().pop()
    except IndexError as e:
        print(e)
    window = deque(maxlen=2)
    for i in range(4):
        window.append(torch.tensor(i * 1.5))
        print(sum(window) / len(window))
    print(type(q).__name__, q == deque([8, 0, 7]), sorted(q), list(reversed(q)))
    """,
)

case(
    "newcomer/randint_like",
    """
    import torch
    torch.manual_seed(0)
    print(torch.randint_like(torch.zeros(3), 5), torch.randint_like(torch.zeros(2, 2, dtype=torch.int32), 2, 9))
    print(torch.randint_like(torch.zeros(4, dtype=torch.float32), low=1, high=3))
    print(torch.randint_like(torch.zeros(4), 10, dtype=torch.int64))
    g = torch.Generator().manual_seed(3)
    print(torch.randint_like(torch.zeros(5), 0, 100, generator=g))
    """,
)

case(
    "newcomer/finfo_iinfo",
    """
    import torch
    for d in (torch.float32, torch.float64, torch.float16):
        f = torch.finfo(d)
        print(f)
        print(f.bits, f.eps, f.max, f.min, f.tiny, f.smallest_normal, f.resolution, f.dtype)
    print(torch.finfo(), torch.finfo().eps, torch.finfo(torch.float32) == torch.finfo(torch.float32))
    for d in (torch.int8, torch.uint8, torch.int16, torch.int32, torch.int64):
        i = torch.iinfo(d)
        print(i, i.bits, i.min, i.max, i.dtype)
    x = torch.ones(2, dtype=torch.float32)
    print(torch.finfo(x.dtype).eps * 2, x.clamp(min=torch.finfo(x.dtype).tiny))
    print(torch.log(x.clamp(min=torch.finfo(x.dtype).eps)))
    """,
)

errors(
    "newcomer/finfo_iinfo_errors",
    "import torch",
    [
        "torch.finfo(torch.int32)",
        "torch.iinfo(torch.float32)",
        "torch.iinfo(torch.bool)",
        "torch.finfo('float32')",
    ],
)

case(
    "newcomer/tensor_of_what_is_not_a_number",
    """
    import torch
    class Foo:
        pass
    values = ["a", None, [1, "a"], {}, {1: 2}, [None], ["a", "b"], [[1], "ab"], Foo(), (1, None),
              [1.0, [2.0]], {1, 2}, [[1, 2], [3]], [[1.0], 2.0], [1, [2]], [True, [1]],
              [1.0, (2.0,)], [[1, 2], [3, [4]]], [[1, [2]], [3]], [[[1], [2, 3]], [4]],
              [1.5, None], [[1.0, 2.0], [3.0]]]
    for v in values:
        try:
            print(torch.tensor(v))
        except Exception as e:
            print(type(e).__name__, e)
    """,
)

case(
    "newcomer/math_of_a_tensor",
    """
    import math
    import torch
    t = torch.tensor(2.5)
    i = torch.tensor(5)
    loss = torch.tensor(1.25, requires_grad=True) * 1
    print(math.sqrt(t), math.log(t), math.exp(torch.tensor(1.0)), math.isnan(t), math.floor(t))
    print(math.factorial(i), math.comb(i, torch.tensor(2)), math.isclose(t, 2.5, rel_tol=1e-9))
    print(math.pow(t, t), math.atan2(t, t), math.sqrt(torch.tensor([4.0])), math.log(torch.tensor(8), 2))
    print(f"perplexity {math.exp(loss):.4f}", math.sqrt(torch.tensor(16, dtype=torch.int32)))
    for bad in (lambda: math.sqrt(torch.ones(2)), lambda: math.factorial(t), lambda: math.sqrt("a")):
        try:
            bad()
        except (TypeError, ValueError) as e:
            print(type(e).__name__, e)
    """,
)

case(
    "newcomer/slice_or_alias",
    """
    import torch
    x = torch.ones(4, 5, requires_grad=True)
    print(x[:, -1:].grad_fn, (x * 2)[:, -1:].grad_fn, x[:, :].grad_fn, x[:, 0:].grad_fn)
    print(x[:, :5].grad_fn, x[:, -5:].grad_fn, x[0:4].grad_fn, x[:, -1].grad_fn, x[:, :9].grad_fn)
    print(x[:, -9:].grad_fn, x[:, 0:5:1].grad_fn, x[:, 0:-1].grad_fn, x[1:, :].grad_fn, x[:, :0].grad_fn)
    h = torch.ones(2, 3, 4, requires_grad=True)
    print(h[:, -1, :].grad_fn, h[:, -1:, :].grad_fn, h[..., -1:].grad_fn, h[:, :, :].grad_fn, h[-2:].grad_fn)
    e = torch.ones(0, 3, requires_grad=True)
    print(e[:, :].grad_fn, e[:0, :].grad_fn, e[:, -1:].grad_fn)
    for i in range(2):
        y = (x * 2)[:, -5:]
        print(y.grad_fn, y.sum().item())
    """,
)
