"""Golden cases of what short programs of a new user met: NumPy scalars beside tensors
(operators, number arguments, torch.tensor's dtype inference), torch.where with a
condition alone, torch.initial_seed, inspect.getdoc.  tests/library/wild_cases.py adds
them to its CASES (recorded into tests/golden/wild.json by scripts/gen_golden.py wild);
its rules apply."""

import textwrap

CASES = []


def case(name, src):
    if any(n == name for n, _ in CASES):
        raise ValueError("duplicate case name: " + name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


case(
    "numpy_scalar/operators",
    """
    import torch
    import numpy as np
    i = torch.tensor([1, 2])
    f = torch.ones(2, dtype=torch.float32)
    d = torch.ones(2)
    h = torch.ones(2, dtype=torch.float16)
    for s in (np.float64(1.5), np.float32(1.5), np.int64(3), np.int32(3)):
        for t in (i, f, d, h):
            r = t * s
            q = s + t
            print(type(s).__name__, r, r.dtype, q.dtype, type(q).__name__)
            print((t - s).dtype, (s - t).dtype, (t / s).dtype, (t > s).dtype, (t ** s).dtype)
    x = torch.tensor([1., 2.], requires_grad=True)
    y = (x * np.float32(3.0) + np.float64(0.5)).sum()
    y.backward()
    print(y, x.grad)
    """,
)

case(
    "numpy_scalar/arguments",
    """
    import torch
    import numpy as np
    for s in (np.float32(3.0), np.int64(2), np.float64(0.5)):
        f = torch.ones(2, dtype=torch.float32)
        print(f.clone().fill_(s), torch.full((2,), s), torch.full((2,), s, dtype=torch.float32))
        print(torch.ones(3, dtype=torch.float32).clamp(max=s), torch.clamp(f, min=s), f.pow(s))
        print(torch.zeros(2, 2).scatter_(1, torch.tensor([[0], [1]]), s))
        print(torch.addcmul(f, f, f, value=s), f.add(f, alpha=s), f.clone().mul_(s))
        print(torch.zeros(3).index_fill_(0, torch.tensor([1]), s), f.new_full((2,), s))
        print(torch.arange(s), f.lerp(torch.zeros(2), s))
        print(f.fmod(s), f.remainder(s), f.masked_fill(torch.tensor([True, False]), s))
        print(torch.where(torch.tensor([True, False]), f, s))
    """,
)

case(
    "numpy_scalar/tensor_inference",
    """
    import torch
    import numpy as np
    print(torch.tensor(np.float32(2.5)), torch.tensor(np.int64(4)), torch.tensor(np.float64(1)))
    for v in ([np.float64(1.0), 2.0], [np.float32(1.0), 2.0], [np.int32(1), 2],
              [[np.float32(1.0)], [np.float64(2)]], [np.int64(1), 2.5], [np.float64(1), True],
              [np.float32(1), np.int64(2)], (np.float64(1.5),), [np.int32(1), True]):
        print(torch.tensor(v), torch.tensor(v).dtype)
    print(torch.tensor([torch.tensor(1., dtype=torch.float32), 2.0]).dtype)
    print(torch.tensor([torch.tensor(1, dtype=torch.int32), 2]).dtype)
    print(torch.tensor([torch.tensor(1, dtype=torch.int32), torch.tensor(2, dtype=torch.int32)]))
    print(torch.tensor([1.5, torch.tensor(2., dtype=torch.float16)]).dtype)
    """,
)

case(
    "where/condition_alone",
    """
    import torch
    x = torch.tensor([[0., 1.5], [2., 0.]], requires_grad=True)
    print(torch.where(x > 1))
    print(torch.where(x))
    print(torch.where(torch.tensor(3.)), torch.where(torch.tensor(0)))
    r, c = torch.where(torch.tensor([[True, False, True]]))
    print(r, c, r.dtype, r.is_contiguous())
    print(torch.where(torch.zeros(2, 0, 3) > 0))
    print(torch.where(condition=torch.tensor([0, 3, 0, 1])))
    print(x[torch.where(x > 1)])
    try:
        torch.where(x > 1, x)
    except TypeError as e:
        print(str(e).splitlines()[0])
    """,
)

case(
    "initial_seed",
    """
    import torch
    torch.manual_seed(42)
    print(torch.initial_seed())
    torch.manual_seed(-1)
    print(torch.initial_seed())
    g = torch.Generator().manual_seed(7)
    print(g.initial_seed(), torch.initial_seed())
    """,
)

case(
    "inspect/getdoc",
    '''
    import inspect
    def f(x):
        """Square x.

        Returns:
            x squared
        """
        return x * x
    def g():
        pass
    class A:
        """An A.
           Second line."""
        def m(self):
            """Method doc."""
    class B(A):
        pass
    print(repr(inspect.getdoc(f)))
    print(inspect.getdoc(g), inspect.getdoc(A), inspect.getdoc(B))
    print(inspect.getdoc(B()), inspect.getdoc(A()), inspect.getdoc(A().m), inspect.getdoc(A.m))
    print(repr(inspect.cleandoc("""  a
        b
          c""")))
    ''',
)

case(
    "combinations",
    """
    import torch
    x = torch.tensor([1., 2., 3.], requires_grad=True)
    c = torch.combinations(x)
    print(c)
    print(torch.combinations(x, r=3), torch.combinations(x, with_replacement=True))
    print(torch.combinations(torch.tensor([1, 2, 3, 4]), r=1), torch.combinations(x, 3, True).shape)
    print(torch.combinations(x, r=0), torch.combinations(x, r=4))
    print(torch.combinations(torch.tensor([]), r=2))
    (c * torch.arange(6.).view(3, 2)).sum().backward()
    print(x.grad)
    try:
        torch.combinations(torch.ones(2, 2))
    except RuntimeError as e:
        print(e)
    try:
        torch.combinations(x, r=-1)
    except RuntimeError as e:
        print(e)
    """,
)

case(
    "linalg/norms",
    """
    import torch
    A = torch.tensor([[1., -2., 3.], [4., 5., -6.]], requires_grad=True)
    n = torch.linalg.norm(A)
    print(n, torch.linalg.norm(A, dim=1), torch.linalg.norm(A[0], ord=1))
    print(torch.linalg.norm(A, ord='fro'), torch.linalg.norm(A, ord=1), torch.linalg.norm(A, ord=float('inf')))
    print(torch.linalg.norm(A, ord=-1, dim=(1, 0)), torch.linalg.norm(A, 3, dim=0, keepdim=True))
    print(torch.linalg.matrix_norm(A), torch.linalg.matrix_norm(A, ord=1), torch.linalg.matrix_norm(A, ord=-1))
    print(torch.linalg.matrix_norm(A, ord=float('inf')), torch.linalg.matrix_norm(A, keepdim=True))
    B = torch.arange(12.).reshape(2, 2, 3)
    print(torch.linalg.matrix_norm(B), torch.linalg.matrix_norm(B, dim=(0, 2)))
    print(torch.linalg.matrix_norm(B, ord=-float('inf'), dim=(2, 0), keepdim=True))
    print(torch.linalg.matrix_norm(B, ord=1, dim=(-1, 0)), torch.linalg.norm(B))
    print(torch.linalg.matrix_norm(A.float(), dtype=torch.float64))
    n.backward()
    print(A.grad)
    A.grad = None
    torch.linalg.matrix_norm(A, ord=1).backward()
    print(A.grad)
    A.grad = None
    (torch.linalg.norm(A, float('inf')) + torch.linalg.norm(A, -float('inf'))).backward()
    print(A.grad)
    """,
)

errors_setup = "import torch\nA = torch.ones(2, 3)\nB = torch.ones(2, 2, 3)"
for _i, _line in enumerate(
    [
        "torch.linalg.matrix_norm(torch.ones(3))",
        "torch.linalg.matrix_norm(A, ord=3)",
        "torch.linalg.matrix_norm(A, ord='abc')",
        "torch.linalg.matrix_norm(A, dim=(0, -2))",
        "torch.linalg.matrix_norm(A, dim=(0,))",
        "torch.linalg.matrix_norm(A, dim=(0, 2))",
        "torch.linalg.matrix_norm(torch.ones(2, 2, dtype=torch.int64))",
        "torch.linalg.norm(B, ord=1)",
        "torch.linalg.norm(B, ord='fro')",
        "torch.linalg.norm(A, dim=(0, 1, 1))",
    ]
):
    case(f"linalg/norm_errors/{_i}", errors_setup + "\n" + _line + "\n")

case(
    "optim/state",
    """
    import torch
    for cls, kw in ((torch.optim.SGD, {"lr": 0.1}), (torch.optim.SGD, {"lr": 0.1, "momentum": 0.9}),
                    (torch.optim.Adam, {}), (torch.optim.AdamW, {"amsgrad": True}),
                    (torch.optim.RMSprop, {"momentum": 0.5, "centered": True}),
                    (torch.optim.Adagrad, {}), (torch.optim.Adadelta, {}), (torch.optim.Adamax, {}),
                    (torch.optim.NAdam, {}), (torch.optim.RAdam, {}), (torch.optim.ASGD, {}),
                    (torch.optim.Rprop, {})):
        p = torch.nn.Parameter(torch.tensor([1., -2.], dtype=torch.float32))
        q = torch.nn.Parameter(torch.tensor([0.5]))
        opt = cls([{"params": [p]}, {"params": [q]}], **kw)
        print(cls.__name__, len(opt.state), opt.state)
        for _ in range(2):
            opt.zero_grad()
            ((p ** 2).sum() + (q ** 3).sum()).backward()
            opt.step()
        print(len(opt.state), list(opt.state[p].keys()), p in opt.state, q in opt.state)
        for k, v in opt.state[p].items():
            print(k, v)
        print(opt.state[q])
        print(opt.state_dict()["state"])
    """,
)

case(
    "compile/functions",
    """
    import torch
    f = torch.compile(lambda a: a.sin() + 1)
    print(f(torch.tensor([0.0, 1.0], dtype=torch.float32)))
    @torch.compile
    def g(x):
        return x * 2
    print(g(torch.ones(2)), g.__name__)
    @torch.compile(mode="reduce-overhead", fullgraph=True)
    def h(x):
        return x + 1
    print(h(torch.ones(2)))
    try:
        torch.compile(3)
    except AssertionError as e:
        print(e)
    """,
)

case(
    "torch_version",
    """
    import torch
    print(torch.__version__, torch.__version__[:4], torch.__version__ >= "2.0")
    print(torch.__version__.split("+")[0], int(torch.__version__.split(".")[0]) >= 2)
    """,
)

case(
    "grad_twice/rounding_saves_nothing",
    """
    import torch
    a = torch.tensor([[0.5, -0.75], [1.5, -2.5]], requires_grad=True)
    for f in (torch.floor, torch.ceil, torch.round, torch.sign, torch.trunc, torch.frac):
        t = (f(a) + a).sum()
        print(torch.autograd.grad(t, a), torch.autograd.grad(t, a))
    t = (a.floor() - a.ceil() + a.sign() - a).sum()
    t.backward()
    t.backward()
    print(a.grad)
    t = (a.floor() * 2).sum()
    t.backward()
    try:
        t.backward()
    except RuntimeError as e:
        print(str(e)[:58])
    """,
)

case(
    "second_order/hardswish_and_empty_masked_select",
    """
    import torch
    import torch.nn.functional as F
    for dt in (torch.float32, torch.float64):
        a = torch.tensor([[0.5, 1.0, -3.25], [3.0, -0.75, 1.5]], dtype=dt, requires_grad=True)
        gx, = torch.autograd.grad((F.hardswish(a).abs() * 2).sum(), a, create_graph=True)
        print(gx)
        (gx.sum() * 2).backward()
        print(a.grad)
    b = torch.tensor([-1.0, 2.5], requires_grad=True)
    for m in (b > 0, b > 5, torch.tensor([[True], [False]])):
        t = (b.masked_select(m) * b.masked_select(m)).sum()
        gx, = torch.autograd.grad(t, b, create_graph=True)
        print(gx, torch.autograd.grad(gx.sum(), b, allow_unused=True))
    """,
)

case(
    "grad_twice/moments_mean",
    """
    import torch
    b = torch.tensor([2.0, 1.5, -0.5], requires_grad=True)
    for f in (torch.std_mean, torch.var_mean):
        s, m = f(b, 0)
        m.backward(retain_graph=True)
        m.backward()
        print(b.grad)
        try:
            m.backward()
        except RuntimeError as e:
            print(str(e)[:58])
        b.grad = None
    """,
)

case(
    "inplace_errors/copy_shapes_and_index_put_on_a_leaf",
    """
    import torch
    pairs = [((1, 3), (2, 3)), ((3,), (2, 3)), ((2, 3), (3, 3)), ((3,), (4,)), ((2, 1), (2, 3)),
             ((), (2,)), ((2,), (1, 1, 2)), ((0,), (2, 0)), ((2, 1, 3), (4, 3))]
    for a, b in pairs:
        try:
            torch.ones(a).copy_(torch.ones(b))
        except RuntimeError as e:
            print(e)
    x = torch.ones(2, 3, requires_grad=True)
    y = x * 2
    def put(t, key, v):
        t[key] = v
    for t, key in ((x[1:], x > 0.5), (x.t(), x > 0.5), (x, torch.ones(3, 3) > 0),
                   (x, [0, 5]), (y, [0, 5]), (y, torch.ones(3, 3) > 0), (x, 5), (x, (0, 7))):
        try:
            put(t, key, 2.0)
        except (RuntimeError, IndexError) as e:
            print(type(e).__name__, e)
    with torch.no_grad():
        try:
            put(x, torch.ones(3, 3) > 0, 2.0)
        except IndexError as e:
            print(e)
    """,
)

case(
    "index_errors/dimension_is_the_keys_position",
    """
    import torch
    def put(t, k, v):
        t[k] = v
    w = torch.ones(1)
    x = torch.ones(2, 3, 4)
    keys = [(w, (Ellipsis, 1)), (w, 1), (torch.ones(2, 1), (0, Ellipsis, 3)),
            (torch.ones(2, 3), (Ellipsis, 5, 0)), (torch.ones(2, 3), (None, 5)),
            (x, (None, 0, None, 9)), (x, (slice(None), None, 5)), (x, (True, 0, 9)),
            (x, (torch.tensor([0]), 0, 9)), (x, (torch.ones(2, 3, dtype=torch.bool), 9)),
            (x, (torch.tensor(True), 0, 9)), (x, (torch.tensor(1), 7)), (x, (1, -4))]
    for t, k in keys:
        for f in (lambda: t[k], lambda: put(t, k, 1.0)):
            try:
                f()
            except IndexError as e:
                print(e)
    """,
)

case(
    "int_dtypes/true_division_by_a_number_outside_the_dtype",
    """
    import torch
    b = torch.tensor([1, 200, 3], dtype=torch.uint8)
    c = torch.tensor([1, -2], dtype=torch.int8)
    print(b / -1, torch.div(b, -2), b.true_divide(-1), -1 / b, 300 / b)
    print(c / 200, 200 / c, c / -129, torch.tensor([True, False]) / -3)
    print(b * -1, b + 300, b - 5, c * 200)
    """,
)
