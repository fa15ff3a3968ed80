"""Programs on index_select, gather, scatter, scatter_add, repeat, topk, inverse /
linalg.inv, ravel and softmax without a dim (gradcli/ops/gathering.py, repeating.py,
topk.py, inverse.py, softmax.py), run by scripts/gen_golden.py indexing under torch 2.13
to record tests/golden/indexing.json and by tests/ops/test_indexing_ops.py under gradcli.
Each is (name, source)."""

_X = """x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
"""

# a row of many ties made by a small LCG (the same numbers in Python and gradcli)
_TIES = """def ties(n, m, seed):
    out = []
    s = seed
    for i in range(n):
        s = (s * 1103515245 + 12345) % 2147483648
        out.append(float(s % m))
    return out
"""


def _errors(setup, exprs):
    """One case per expression that must fail as torch fails."""
    return [(f"{name}", setup + src + "\n") for name, src in exprs]


CASES = [
    # ------------------------------------------------------------ index_select
    (
        "index_select/basic",
        _X
        + """idx = torch.tensor([2, 0, 2])
y = torch.index_select(x, 1, idx)
y
y.grad_fn
x.index_select(0, torch.tensor([1, 1, 0]))
x.index_select(dim=-1, index=torch.tensor([1]))
x.index_select(1, torch.tensor([0, 2], dtype=torch.int32))
x.index_select(1, torch.tensor(1))
x.index_select(1, torch.tensor([], dtype=torch.long))
y.sum().backward()
x.grad
""",
    ),
    (
        "index_select/zero_dim",
        """a = torch.tensor(5.0, requires_grad=True)
y = torch.index_select(a, 0, torch.tensor([0]))
y
y.backward()
a.grad
torch.index_select(torch.tensor(5.0), -1, torch.tensor(0))
""",
    ),
    (
        "index_select/ints",
        """t = torch.arange(12).reshape(3, 4)
t.index_select(1, torch.tensor([3, 0]))
t.index_select(0, torch.tensor([2, 2, 1]))
""",
    ),
    (
        "index_select/create_graph",
        _X
        + """y = x.index_select(1, torch.tensor([2, 0, 2]))
g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
g
g.grad_fn
g.grad_fn.next_functions
h, = torch.autograd.grad((g * g).sum(), x)
h
""",
    ),
    *_errors(
        _X,
        [
            ("index_select/err_dim", "torch.index_select(x, 2, torch.tensor([0]))"),
            ("index_select/err_dim_neg", "x.index_select(-3, torch.tensor([0]))"),
            ("index_select/err_range", "torch.index_select(x, 1, torch.tensor([0, 3]))"),
            ("index_select/err_negative", "torch.index_select(x, 1, torch.tensor([-1]))"),
            ("index_select/err_float_index", "torch.index_select(x, 1, torch.tensor([0.0]))"),
            ("index_select/err_bool_index", "torch.index_select(x, 1, torch.tensor([True]))"),
            ("index_select/err_matrix_index", "torch.index_select(x, 1, torch.tensor([[0]]))"),
            ("index_select/err_list_index", "torch.index_select(x, 1, [0, 1])"),
            ("index_select/err_float_dim", "torch.index_select(x, 1.5, torch.tensor([0]))"),
            (
                "index_select/err_zero_dim",
                "torch.index_select(torch.tensor(5.0), 0, torch.tensor([1]))",
            ),
            (
                "index_select/err_zero_dim_two",
                "torch.index_select(torch.tensor(5.0), 0, torch.tensor([0, 0]))",
            ),
            (
                "index_select/err_empty_input",
                "torch.zeros(3, 0).index_select(0, torch.tensor([2, 7, -1]))",
            ),
            (
                "index_select/err_empty_axis",
                "torch.zeros(0, 3).index_select(0, torch.tensor([4]))",
            ),
            (
                "index_select/err_empty_vector",
                "torch.zeros(0).index_select(0, torch.tensor([0]))",
            ),
        ],
    ),
    (
        "index_select/empty_input",
        """torch.zeros(3, 0).index_select(0, torch.tensor([2, 0]))
torch.zeros(0, 3).index_select(0, torch.tensor([], dtype=torch.long))
""",
    ),
    (
        "index/empty_result_unchecked",
        """x = torch.zeros(3, 0, requires_grad=True)
y = x[torch.tensor([5, 1, -9])]
y
y.sum().backward()
x.grad
torch.zeros(0, 3)[:, torch.tensor([5])]
torch.zeros(3, 0, 2)[torch.tensor([5]), :, torch.tensor([9])]
torch.zeros(3, 2)[torch.tensor([5]), :0]
torch.zeros(3, 2)[:0, torch.tensor([5])]
torch.zeros(3, 0)[[5]]
torch.zeros(3, 0)[torch.tensor([[5]])]
""",
    ),
    *_errors(
        "",
        [
            ("index/err_empty_dim", "torch.zeros(0, 0)[torch.tensor([5])]"),
            ("index/err_empty_result_read", "torch.zeros(3, 2)[torch.tensor([5])][:, :0]"),
            (
                "index/err_empty_mask_dim",
                "torch.zeros(3, 0)[torch.tensor([True, False, True]), torch.tensor([4])]",
            ),
            (
                "index/err_bool_0d_counts",
                "torch.zeros(3, 2)[torch.tensor(True), torch.tensor([5])]",
            ),
            (
                "index/err_bool_0d_between",
                "torch.zeros(3, 2)[torch.tensor([0]), torch.tensor(True), torch.tensor([7])]",
            ),
            (
                "index/err_bool_0d_false_shapes",
                "torch.zeros(3, 2)[torch.tensor(False), torch.tensor([0, 1])]",
            ),
            ("index/err_float_after_tensor", "torch.zeros(3, 2)[torch.tensor([0, 9]), 1.5]"),
            ("index/err_float_after_list", "torch.zeros(3, 2)[[0, 9], 1.5]"),
            ("index/err_int_before_float", "torch.zeros(3, 2)[5, 1.5]"),
            ("index/err_float_alone", "torch.zeros(3, 2)[1.5]"),
            ("index/err_str", "torch.zeros(3, 2)[torch.tensor([0]), 'a']"),
            (
                "index/err_setitem_bool_0d",
                "x = torch.zeros(3, 2)\nx[torch.tensor(True), torch.tensor([5])] = 1.0",
            ),
            (
                "index/err_setitem_float",
                "x = torch.zeros(3, 2)\nx[torch.tensor([0, 9]), 1.5] = 0.0",
            ),
        ],
    ),
    (
        "index/bool_0d_values",
        """x = torch.zeros(3, 2)
x[torch.tensor(True), torch.tensor([1])] = 7.0
x
x[torch.tensor(True)]
x[torch.tensor(False)]
x[torch.tensor(True), 1]
x[torch.tensor(False), torch.tensor([0])]
""",
    ),
    # ------------------------------------------------------------ gather / scatter
    (
        "gather/basic",
        _X
        + """idx = torch.tensor([[0, 0], [1, 0]])
y = torch.gather(x, 1, idx)
y
y.grad_fn
x.gather(0, torch.tensor([[1, 0, 1], [1, 1, 0]]))
x.gather(1, torch.tensor([[0, 1, 0, 1, 2]], dtype=torch.int32))
x.gather(1, torch.tensor([[2], [1]]), sparse_grad=False)
y.sum().backward()
x.grad
""",
    ),
    (
        "gather/repeated_sum_order",
        """w = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
y = w.gather(0, torch.tensor([0, 0, 0, 0, 0, 0, 0, 1]))
(y * torch.tensor([1e-17, 1.0, 1e-17, -1.0, 3e-17, 0.7, 1e-16, 2.0])).sum().backward()
torch.set_printoptions(precision=20)
w.grad
torch.set_printoptions(profile="default")
""",
    ),
    (
        "gather/zero_dim",
        """a = torch.tensor(5.0, requires_grad=True)
torch.gather(a, 0, torch.tensor(0))
y = torch.gather(a, 0, torch.tensor([0, 0]))
y
y.sum().backward()
a.grad
torch.zeros(3).gather(0, torch.tensor(1))
""",
    ),
    (
        "gather/create_graph",
        _X
        + """y = x.gather(1, torch.tensor([[0, 0], [1, 0]]))
g, = torch.autograd.grad((y ** 2).sum(), x, create_graph=True)
g
g.grad_fn
g.grad_fn.next_functions
h, = torch.autograd.grad((g ** 2).sum(), x)
h
""",
    ),
    (
        "gather/forward_ad",
        _X
        + """import torch.autograd.forward_ad as fwAD
with fwAD.dual_level():
    d = fwAD.make_dual(x.detach(), torch.tensor([[1.0, 10.0, 100.0], [2.0, 20.0, 200.0]]))
    out = d.gather(1, torch.tensor([[2, 0], [1, 1]]))
    print(fwAD.unpack_dual(out).tangent)
    out = d.index_select(0, torch.tensor([1, 0, 1]))
    print(fwAD.unpack_dual(out).tangent)
    out = d.topk(2).values
    print(fwAD.unpack_dual(out).tangent)
    out = d.repeat(1, 2)
    print(fwAD.unpack_dual(out).tangent)
""",
    ),
    (
        "scatter/basic",
        """s = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
z = torch.zeros(2, 4, requires_grad=True)
y = torch.scatter(z, 1, torch.tensor([[0, 1], [2, 3]]), s)
y
y.grad_fn
(y * torch.arange(8.0).reshape(2, 4)).sum().backward()
z.grad
s.grad
w = z.scatter(1, torch.tensor([[0, 1]]), 2.5)
w
w.grad_fn
z.scatter(0, torch.tensor([[1, 0, 1]]), value=-1.0)
z.scatter(1, torch.tensor([[3, 0]]), src=s)
""",
    ),
    (
        "scatter/add_order_3d",
        """torch.set_printoptions(precision=20)
src = torch.tensor([1e-16, 1.0, 3e-16, -1.0, 0.7, 1e-16, 2e-16, 0.1]).reshape(2, 2, 2)
torch.zeros(1, 2, 2).scatter_add(0, torch.zeros(2, 2, 2, dtype=torch.long), src)
torch.zeros(2, 1, 2).scatter_add(1, torch.zeros(2, 2, 2, dtype=torch.long), src)
torch.zeros(2, 2, 1).scatter_add(2, torch.zeros(2, 2, 2, dtype=torch.long), src)
torch.zeros(1, 3, 3).scatter_add(0, torch.zeros(3, 2, 2, dtype=torch.long),
                                  torch.tensor([1e-16, 1.0, 0.7, 1.0, -1.0, 1e-16, 3e-16, -1.0, 0.1, 0.2,
                                                0.3, 2e-16]).reshape(3, 2, 2))
s = torch.tensor([0.1, 1.0, 1e-16, -1.0, 3e-16, 0.5, 0.25, 2e-16, 1e-16, 0.3, -0.3, 7e-17],
                 requires_grad=True)
y = s.reshape(3, 2, 2).gather(0, torch.zeros(4, 2, 2, dtype=torch.long))
(y * torch.arange(16.0).reshape(4, 2, 2) * 0.1).sum().backward()
s.grad
torch.set_printoptions(profile="default")
""",
    ),
    (
        "scatter/scatter_add",
        """s = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
z = torch.zeros(2, 4, requires_grad=True)
y = z.scatter_add(1, torch.tensor([[0, 0], [2, 3]]), s)
y
y.grad_fn
(y * torch.arange(8.0).reshape(2, 4)).sum().backward()
z.grad
s.grad
torch.scatter_add(torch.ones(5), 0, torch.tensor([4, 4, 0, 4]), torch.tensor([1.0, 2.0, 3.0, 4.0]))
torch.zeros(()).scatter_add(0, torch.tensor([0, 0]), torch.tensor([1.0, 2.0]))
torch.zeros(3).scatter(0, torch.tensor(1), torch.tensor(2.0))
""",
    ),
    (
        "scatter/create_graph",
        """s = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
z = torch.ones(2, 4, requires_grad=True)
y = z.scatter(1, torch.tensor([[0, 1], [2, 3]]), s)
gz, gs = torch.autograd.grad((y ** 2).sum(), (z, s), create_graph=True)
gz
gz.grad_fn
gs
gs.grad_fn
y = z.scatter_add(1, torch.tensor([[0, 0], [2, 3]]), s)
gz, gs = torch.autograd.grad((y ** 2).sum(), (z, s), create_graph=True)
gz
gs
gs.grad_fn
""",
    ),
    *_errors(
        """z = torch.zeros(2, 4, requires_grad=True)
s = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
""",
        [
            ("scatter/err_float_index", "z.scatter(1, torch.tensor([[0.0, 1.0]]), s)"),
            ("scatter/err_range", "z.scatter(1, torch.tensor([[0, 4]]), s)"),
            ("scatter/err_size", "z.scatter(1, torch.tensor([[0, 1, 2]]), s)"),
            ("scatter/err_dims", "z.scatter(1, torch.tensor([0, 1]), s)"),
            ("scatter/err_dtype", "z.scatter(1, torch.tensor([[0, 0]]), s.int())"),
            ("scatter/err_add_number", "z.scatter_add(1, torch.tensor([[0, 0]]), 2.0)"),
            ("scatter/err_add_range", "z.scatter_add(1, torch.tensor([[0, 5]]), s)"),
            ("scatter/err_add_dim", "z.scatter_add(3, torch.tensor([[0, 0]]), s)"),
            (
                "scatter/err_src_bigger_backward",
                "y = z.scatter_add(1, torch.tensor([[0, 3]]), s)\ny.sum().backward()",
            ),
        ],
    ),
    *_errors(
        _X,
        [
            ("gather/err_range", "torch.gather(x, 1, torch.tensor([[0], [3]]))"),
            ("gather/err_negative", "torch.gather(x, 1, torch.tensor([[0], [-1]]))"),
            ("gather/err_float_index", "torch.gather(x, 1, torch.tensor([[0.0]]))"),
            ("gather/err_dims", "torch.gather(x, 1, torch.tensor([0]))"),
            ("gather/err_dim", "torch.gather(x, 2, torch.tensor([[0]]))"),
            ("gather/err_size", "torch.gather(x, 1, torch.tensor([[0], [1], [0]]))"),
            ("gather/err_size_dim0", "torch.gather(x, 0, torch.tensor([[0, 1, 0, 1]]))"),
            ("gather/err_list_index", "torch.gather(x, 1, [[0]])"),
            ("gather/err_range_order", "x.gather(0, torch.tensor([[0, 5, 1], [7, 0, 0]]))"),
            (
                "gather/err_range_order_3d",
                "torch.ones(2, 2, 2).gather(0, torch.tensor([[[0, 0], [0, 6]], [[5, 0], [0, 0]]]))",
            ),
            (
                "gather/err_range_order_3d_wide",
                "torch.ones(2, 3, 3).gather(0, torch.tensor([[[0, 0], [6, 0]], [[5, 0], [0, 0]]]))",
            ),
            (
                "gather/err_range_order_3d_mid",
                "torch.ones(2, 2, 2).gather(1, torch.tensor([[[0, 0], [0, 6]], [[5, 0], [0, 0]]]))",
            ),
        ],
    ),
    # ------------------------------------------------------------ repeat
    (
        "repeat/basic",
        _X
        + """y = x.repeat(2, 1)
y
y.grad_fn
x.repeat((1, 2, 2))
x.repeat([2, 2])
x.repeat(0, 2)
torch.tensor(5.0).repeat(3)
torch.tensor([1, 2]).repeat(2, 2)
(y * torch.arange(12.0).reshape(4, 3)).sum().backward()
x.grad
""",
    ),
    (
        "repeat/backward_shapes",
        _X
        + """for sizes in [(1, 1), (3, 1, 2), (2, 3, 1, 1), (1, 0), (2, 2)]:
    x.grad = None
    y = x.repeat(*sizes)
    (y * y).sum().backward()
    print(sizes, y.shape, x.grad)
""",
    ),
    (
        "repeat/create_graph",
        _X
        + """y = x.repeat(2, 1, 2)
g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
g
g.grad_fn
g.grad_fn.next_functions
h, = torch.autograd.grad((g * g).sum(), x)
h
""",
    ),
    *_errors(
        _X,
        [
            ("repeat/err_fewer", "x.repeat(2)"),
            ("repeat/err_none", "x.repeat()"),
            ("repeat/err_negative", "x.repeat(2, -1)"),
            ("repeat/err_tensor", "x.repeat(torch.tensor([2, 2]))"),
            ("repeat/err_float", "x.repeat(2, 2.0)"),
        ],
    ),
    # ------------------------------------------------------------ topk
    (
        "topk/basic",
        _X
        + """r = torch.topk(x, 2)
r
r.values
r.indices
v, i = x.topk(1, dim=0)
v
i
x.topk(2, largest=False)
torch.topk(x, 2, 0, False, False)
x.topk(0)
torch.arange(5).topk(2)
torch.tensor(5.0).topk(1)
(r.values * torch.tensor([[1.0, 10.0], [100.0, 1000.0]])).sum().backward()
x.grad
""",
    ),
    (
        "topk/ties",
        _TIES
        + """t = torch.tensor([1.0, 3.0, 3.0, 2.0, 3.0])
torch.topk(t, 2)
torch.topk(t, 3, largest=False)
torch.topk(t, 4, sorted=False)
for n, m, k in [(10, 3, 4), (40, 5, 7), (100, 4, 1), (100, 4, 2), (200, 3, 3), (130, 2, 2), (300, 7, 60)]:
    row = torch.tensor(ties(n, m, n + k))
    print(n, k, row.topk(k).indices.tolist())
    print(n, k, row.topk(k, largest=False).indices.tolist())
    print(n, k, row.topk(k, sorted=False).indices.tolist())
""",
    ),
    (
        "topk/ties_2d",
        _TIES
        + """m = torch.tensor(ties(60, 3, 7)).reshape(6, 10)
m.topk(3)
m.topk(4, dim=0)
m.topk(2, dim=0, largest=False, sorted=False)
""",
    ),
    (
        "topk/nan",
        """t = torch.tensor([1.0, float('nan'), 3.0, float('nan'), 2.0, 3.0])
t.topk(3)
t.topk(3, largest=False)
t.topk(6, sorted=False)
""",
    ),
    (
        "topk/create_graph",
        _X
        + """v, i = x.topk(2)
g, = torch.autograd.grad((v * v).sum(), x, create_graph=True)
g
g.grad_fn
g.grad_fn.next_functions
h, = torch.autograd.grad((g * g).sum(), x)
h
a = torch.tensor(3.0, requires_grad=True)
v, i = a.topk(1)
v.backward()
a.grad
""",
    ),
    *_errors(
        _X,
        [
            ("topk/err_k", "x.topk(4)"),
            ("topk/err_k_negative", "x.topk(-1)"),
            ("topk/err_dim", "x.topk(2, dim=2)"),
            ("topk/err_float_k", "x.topk(2.0)"),
            ("topk/err_zero_dim_k", "torch.tensor(5.0).topk(2)"),
            ("topk/err_bool", "torch.tensor([True, False]).topk(1)"),
        ],
    ),
    # ------------------------------------------------------------ inverse
    (
        "inverse/basic",
        """a = torch.tensor([[4.0, 7.0], [2.0, 6.0]], requires_grad=True)
y = torch.inverse(a)
y
y.grad_fn
a.inverse()
torch.linalg.inv(a)
y.is_contiguous()
y.reshape(-1)
torch.inverse(torch.tensor([[0.0, 1.0], [1.0, 0.0]]))
torch.inverse(torch.tensor([[2.0]]))
torch.inverse(torch.zeros(0, 0))
torch.linalg.inv(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 10.0]]))
y.sum().backward()
a.grad
""",
    ),
    (
        "inverse/bits",
        """torch.manual_seed(0)
torch.set_printoptions(precision=17)
a = torch.randn(5, 5)
torch.linalg.inv(a)
torch.linalg.inv(a.t())
torch.linalg.inv(torch.randn(2, 3, 3))
torch.linalg.inv(torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]))
b = torch.randn(6, 6, dtype=torch.float32)
torch.linalg.inv(b)
w = torch.randn(4, 4, requires_grad=True)
(torch.linalg.inv(w) * torch.randn(4, 4)).sum().backward()
w.grad
torch.set_printoptions(profile="default")
""",
    ),
    (
        "inverse/create_graph",
        """a = torch.tensor([[4.0, 7.0], [2.0, 6.0]], requires_grad=True)
y = torch.inverse(a)
g, = torch.autograd.grad((y * y).sum(), a, create_graph=True)
g
g.grad_fn
g.grad_fn.next_functions
h, = torch.autograd.grad(g.sum(), a)
h
""",
    ),
    (
        "inverse/forward_ad",
        """import torch.autograd.forward_ad as fwAD
a = torch.tensor([[4.0, 7.0], [2.0, 6.0]])
with fwAD.dual_level():
    d = fwAD.make_dual(a, torch.tensor([[1.0, 0.0], [0.5, 2.0]]))
    print(fwAD.unpack_dual(torch.inverse(d)).tangent)
""",
    ),
    *_errors(
        "",
        [
            ("inverse/err_singular", "torch.inverse(torch.tensor([[1.0, 2.0], [2.0, 4.0]]))"),
            ("inverse/err_singular_linalg", "torch.linalg.inv(torch.zeros(3, 3))"),
            (
                "inverse/err_batch",
                "torch.inverse(torch.tensor([[[1.0, 0.0], [0.0, 1.0]], [[1.0, 2.0], [2.0, 4.0]]]))",
            ),
            ("inverse/err_square", "torch.inverse(torch.ones(2, 3))"),
            ("inverse/err_vector", "torch.inverse(torch.tensor([1.0, 2.0]))"),
            ("inverse/err_int", "torch.inverse(torch.tensor([[1, 2], [3, 4]]))"),
        ],
    ),
    # ------------------------------------------------------------ ravel
    (
        "ravel/basic",
        _X
        + """r = x.ravel()
r
r.grad_fn
torch.ravel(x.t())
torch.ravel(x.t()).grad_fn.next_functions
torch.ravel(torch.tensor(5.0))
d = x.detach()
v = d.ravel()
v[0] = 100.0
d
u = d.t().ravel()
u[1] = -1.0
d
(r * torch.arange(6.0)).sum().backward()
x.grad
""",
    ),
    # ------------------------------------------------------------ softmax without dim
    (
        "softmax/implicit_functional",
        _X
        + """F.softmax(x)
F.log_softmax(x)
torch.nn.functional.softmax(torch.ones(2, 2, 2))
F.softmax(x, dim=0)
F.softmax(x, None)
torch.nn.Softmax()(x)
torch.nn.LogSoftmax(dim=None)(torch.ones(3))
torch.nn.Softmax(dim=1)(x)
torch.func.vmap(F.softmax)(x)
x.softmax(1)
x.log_softmax(dim=-1)
""",
    ),
    *_errors(
        _X,
        [
            ("softmax/err_method", "x.softmax()"),
            ("softmax/err_log_method", "x.log_softmax()"),
            ("softmax/err_function", "torch.softmax(x)"),
            ("softmax/err_log_function", "torch.log_softmax(x)"),
            ("softmax/err_none", "x.softmax(dim=None)"),
            ("softmax/err_log_none", "torch.log_softmax(x, dim=None)"),
        ],
    ),
]

CASES += [
    (
        "saved/attributes",
        _X
        + """y = x.index_select(1, torch.tensor([2, 0]))
print(y.grad_fn._saved_dim, y.grad_fn._saved_index, y.grad_fn._saved_self_sym_sizes)
g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
print(g.grad_fn._saved_dim, g.grad_fn._saved_index, g.grad_fn._saved_alpha, g.grad_fn._saved_source_dim)
y = x.gather(1, torch.tensor([[0], [1]]))
print(y.grad_fn._saved_dim, y.grad_fn._saved_index, y.grad_fn._saved_sparse_grad)
g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
print(g.grad_fn._saved_dim, g.grad_fn._saved_index)
print(y.grad_fn._saved_self is x)
y = x.repeat(2, 1)
print(y.grad_fn._saved_repeats, y.grad_fn._saved_self_sym_sizes)
y = x.topk(2, dim=1).values
print(y.grad_fn._saved_dim, y.grad_fn._saved_indices, y.grad_fn._saved_self_sym_sizes)
y = torch.inverse(x[:, :2])
print(y.grad_fn._saved_inverse)
print(y.grad_fn._saved_inverse.equal(y))
y = x.scatter(1, torch.tensor([[0], [1]]), x[:, :1])
print(y.grad_fn._saved_dim, y.grad_fn._saved_index)
y = x.scatter_add(1, torch.tensor([[0], [1]]), x[:, :1])
print(y.grad_fn._saved_dim, y.grad_fn._saved_index)
y = x.scatter(1, torch.tensor([[0], [1]]), 2.0)
print(y.grad_fn._saved_dim, y.grad_fn._saved_index)
""",
    ),
    (
        "saved/gather_self_modified",
        _X
        + """y = x.gather(1, torch.tensor([[0], [1]]))
with torch.no_grad():
    x.add_(1)
y.sum().backward()
""",
    ),
    (
        "saved/inverse_modified",
        """a = torch.tensor([[4.0, 7.0], [2.0, 6.0]], requires_grad=True)
y = a.inverse()
with torch.no_grad():
    y.mul_(2)
y.sum().backward()
""",
    ),
    (
        "saved/index_select_self_modified",
        _X
        + """y = x.index_select(1, torch.tensor([2, 0]))
with torch.no_grad():
    x.add_(1)
y.sum().backward()
x.grad
""",
    ),
    # ------------------------------------------ advanced indices: ATen's order and words
    *_errors(
        """a = torch.zeros(4, 6, 5, 7)
m = torch.tensor([[True, False, True, False, True, False]] * 4)
""",
        [
            ("advanced/err_second_dim", "a[:, torch.tensor([0, 6, -7])]"),
            ("advanced/err_last_dim", "a[..., torch.tensor([9])]"),
            ("advanced/err_after_int", "a[1, :, torch.tensor([9])]"),
            ("advanced/err_after_none", "a[None, :, torch.tensor([7])]"),
            ("advanced/err_two_apart", "a[torch.tensor([0]), :, torch.tensor([9])]"),
            ("advanced/err_first_met", "a[torch.tensor([-7, 9])]"),
            (
                "advanced/err_broadcast_order",
                "a[:, :, torch.tensor([[1], [9]]), torch.tensor([0, 8])]",
            ),
            ("advanced/err_after_mask", "a[m, torch.tensor([7, 0, 1, 2, 3, 4, 0, 0, 0, 0, 0, 0])]"),
            ("advanced/err_shapes", "a[torch.tensor([0, 9]), torch.tensor([0, 1, 2])]"),
            ("advanced/err_shapes_mask", "a[m, torch.tensor([1, 2])]"),
            ("advanced/err_shapes_2d", "a[torch.tensor([[0, 1]]), :, torch.tensor([0, 1, 2])]"),
            ("advanced/err_put_second_dim", "a[:, torch.tensor([6])] = 1.0"),
            ("advanced/err_put_order", "a[:, :, torch.tensor([1, 9]), torch.tensor([8, 0])] = 1.0"),
            ("advanced/err_put_shapes", "a[torch.tensor([0, 1]), torch.tensor([0, 1, 2])] = 1.0"),
            (
                "advanced/err_index_put",
                "a.index_put_((torch.tensor([0]), torch.tensor([9])), torch.tensor(1.0))",
            ),
        ],
    ),
    # ------------------------------ x[indices]: one index array, its bounds left to NumPy
    (
        "getitem/index_array_bounds",
        _X
        + """i = torch.tensor([1, -2, 0, 1])
y = x[i]
y
(y * torch.arange(12.0).reshape(4, 3)).sum().backward()
x.grad
x[:, torch.tensor([[2, -3], [0, 1]])]
x[torch.tensor([-1]), 1:]
with torch.no_grad():
    x[torch.tensor([1, 1])]
""",
    ),
    *_errors(
        _X,
        [
            ("getitem/err_index_array_high", "x[torch.tensor([0, 2, 5])]"),
            ("getitem/err_index_array_low", "x[torch.tensor([-3, 0, -9])]"),
            ("getitem/err_index_array_dim1", "x[0:1, torch.tensor([1, 5, 7])]"),
            ("getitem/err_index_array_2d", "x[torch.tensor([[1, 0], [4, -9]])]"),
            ("getitem/err_index_array_empty_dim", "torch.zeros(0, 3)[torch.tensor([0])]"),
            ("getitem/err_index_array_no_grad", "with torch.no_grad():\n    x[torch.tensor([9])]"),
        ],
    ),
]

# slice bounds as torch's slicing converts them: each bound by __index__, then the step
CASES += [
    (
        "getitem/slice_bound_kinds",
        _X
        + """
print(x[True:3], x[torch.tensor(True):2], x[1:torch.tensor(3)], x[torch.tensor([1]):3])
""",
    ),
    *_errors(
        _X,
        [
            ("getitem/err_slice_step_zero", "x[1:3:0]"),
            ("getitem/err_slice_step_negative", "x[::-1]"),
            ("getitem/err_slice_float_bound", "x[1.5:3]"),
            ("getitem/err_slice_str_bound", "x['a':3]"),
            ("getitem/err_slice_float_step", "x[1:3:1.0]"),
            ("getitem/err_slice_float_tensor_bound", "x[torch.tensor(1.0):3]"),
            ("getitem/err_slice_long_tensor_bound", "x[torch.tensor([1, 2]):3]"),
            ("getitem/err_slice_float_before_zero_step", "x[1.5:3:0]"),
            ("getitem/err_slice_step_zero_2d", "x[0:1, 1:2:0]"),
        ],
    ),
]
