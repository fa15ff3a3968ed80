"""Golden cases for what the differential test against PyTorch found (programs shrunk
from tests/differential/'s generator, and their neighbours), each recorded from real
PyTorch 2.13.

Same rules and format as tests/fidelity/golden_cases.py (``case(name, src)``); recorded into
tests/golden/differential.json by ``scripts/gen_golden.py cases --differential`` and checked
by tests/fidelity/test_differential_cases.py.
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

# ---------------------------------------------------------------------------
# second derivatives of ops that cast one operand to the result dtype: the saved
# operands are the inputs themselves, so the second order reaches them
# ---------------------------------------------------------------------------

for _fn in ("hypot", "atan2"):
    case(
        f"mixed/{_fn}_second_order",
        f"""
        a = torch.tensor([0.5, -1.25], dtype=torch.float32, requires_grad=True)
        b = torch.tensor([1.5, 2.0], requires_grad=True)
        c = torch.tensor(1.5, requires_grad=True)
        g, = torch.autograd.grad(torch.{_fn}(a, b).sum(), a, create_graph=True)
        print(g)
        print(torch.autograd.grad((g * g).sum(), [a, b]))
        g, = torch.autograd.grad(torch.{_fn}(a, c).sum(), c, create_graph=True)
        print(g)
        print(torch.autograd.grad((g * g).sum(), [a, c]))
        y = torch.{_fn}(a, c)
        print(y)
        y.sum().backward()
        print(a.grad, c.grad)
    """,
    )

# ---------------------------------------------------------------------------
# PyTorch's words, not NumPy's
# ---------------------------------------------------------------------------

_ERRORS = {
    "broadcast/atan2": "torch.atan2(torch.ones(2, 3), torch.ones(7, 5))",
    "broadcast/hypot": "torch.hypot(torch.ones(2, 3), torch.ones(7, 5))",
    "broadcast/pow": "torch.ones(2, 3) ** torch.ones(7, 5)",
    "broadcast/pow_method": "torch.ones(2, 3).pow(torch.ones(7, 5))",
    "broadcast/where_other": "torch.where(torch.ones(2, 3) > 0, torch.ones(2, 3), torch.ones(7, 5))",
    "broadcast/where_condition": "torch.where(torch.ones(7, 5) > 0, torch.ones(2, 3), 1.0)",
    "broadcast/maximum": "torch.maximum(torch.ones(2, 3), torch.ones(7, 5))",
    "broadcast/minimum": "torch.minimum(torch.ones(2, 3), torch.ones(7, 5))",
    "index_select/dim0": "torch.ones(2, 3).index_select(0, torch.tensor([9]))",
    "index_select/vector": "torch.ones(3).index_select(0, torch.tensor([-1]))",
    "index_select/dim1": "torch.ones(2, 3).index_select(1, torch.tensor([9]))",
    "index_select/dim2": "torch.ones(2, 2, 3).index_select(2, torch.tensor([3]))",
    "scalar/float_of_many": "float(torch.ones(3))",
    "scalar/int_of_many": "int(torch.ones(2, 2))",
    "scalar/item_of_many": "torch.ones(3).item()",
    "sizes/zeros_negative": "torch.zeros(2, -1)",
    "sizes/zeros_negative_tuple": "torch.zeros((-3,))",
    "sizes/empty_negative": "torch.empty(2, -1)",
    "sizes/ones_negative": "torch.ones(-1)",
    "bce/float_target": (
        "torch.nn.functional.binary_cross_entropy(torch.tensor([0.2, 0.7], requires_grad=True), "
        "torch.tensor([0.0, 1.0], dtype=torch.float32))"
    ),
    "bce/double_target": (
        "torch.nn.functional.binary_cross_entropy(torch.tensor([0.2, 0.7], dtype=torch.float32), "
        "torch.tensor([0.0, 1.0]))"
    ),
    "bce/with_logits_promotes": (
        "torch.nn.functional.binary_cross_entropy_with_logits("
        "torch.tensor([0.2, 0.7], dtype=torch.float32), torch.tensor([0.0, 1.0]))"
    ),
}
for _name, _src in _ERRORS.items():
    case(f"words/{_name}", _src)
    case(
        f"words/{_name}/caught",
        f"""
        try:
            {_src}
        except Exception as e:
            print(type(e).__name__, str(e))
    """,
    )

# ---------------------------------------------------------------------------
# a second backward through a node that keeps indices or a mask (not values) fails
# ---------------------------------------------------------------------------

_HOLDING = {
    "index": "a[torch.tensor([0, 1, 0])]",
    "bool_mask": "a[a > 1]",
    "min_dim": "a.min(dim=-1)[0]",
    "max_dim": "a.max(dim=0).values",
    "masked_fill": "a.masked_fill(a > 1, 0.5)",
    "index_select": "a.index_select(0, torch.tensor([1, 0]))",
    "sort": "a.sort()[0]",
    "topk": "a.topk(2)[0]",
    "scatter": "torch.zeros(3).scatter(0, torch.tensor([1, 0]), a[:2])",
    "slice": "a[1:]",
    "where": "torch.where(a > 1, a, 0.5)",
}
for _name, _expr in _HOLDING.items():
    case(
        f"second_backward/{_name}",
        f"""
        a = torch.tensor([0.5, 2.0, -1.5], requires_grad=True)
        y = ({_expr}).sum()
        y.backward()
        try:
            y.backward()
            print("no error")
        except RuntimeError as e:
            print(e)
        print(a.grad)
        y = ({_expr}).sum()
        y.backward(retain_graph=True)
        y.backward()
        print(a.grad)
    """,
    )

# ---------------------------------------------------------------------------
# double backward through logsigmoid and binary_cross_entropy
# ---------------------------------------------------------------------------

case(
    "double/logsigmoid_0d",
    """
    a = torch.tensor(2.0, requires_grad=True)
    g, = torch.autograd.grad(torch.nn.functional.logsigmoid(a).pow(2), a, create_graph=True)
    print(g, torch.autograd.grad((g * g).sum(), a))
""",
)
case(
    "double/logsigmoid_backward_of_backward",
    """
    a = torch.tensor([[1.0, 1.75, -1.25], [2.0, -0.5, -2.5]], dtype=torch.float32, requires_grad=True)
    t = torch.nn.functional.logsigmoid(-a)
    (t * t).sum().backward(create_graph=True)
    print(a.grad)
    h, = torch.autograd.grad(a.grad.sum(), a)
    print(h)
    a.grad = None
    g, = torch.autograd.grad(torch.nn.functional.logsigmoid(a).sum(), a, create_graph=True)
    (g.sum() * 2).backward()
    print(a.grad)
""",
)
case(
    "double/binary_cross_entropy_clamped",
    """
    a = torch.tensor([[0.5, -1.25, 2.0]], dtype=torch.float32, requires_grad=True)
    t = (a * 3).T @ (a * 3) - 2.5
    y = torch.nn.functional.binary_cross_entropy(
        t[2].sigmoid(), torch.tensor([0.0, 0.25, 0.0], dtype=torch.float32))
    g, = torch.autograd.grad(y, a, create_graph=True)
    print(g.detach())
""",
)

# ---------------------------------------------------------------------------
# grad_fn names of gradients made with create_graph=True: the op PyTorch's
# derivative formula applies last
# ---------------------------------------------------------------------------

_CREATE_GRAPH = {
    "t": "x.t()",
    "T": "x.T",
    "unsqueeze": "x.unsqueeze(1)",
    "squeeze": "x.unsqueeze(0).squeeze()",
    "squeeze_dim": "x.unsqueeze(0).squeeze(0)",
    "expand": "x.unsqueeze(0).expand(2, 2, 3)",
    "mean": "x.mean()",
    "mean_dim": "x.mean(0)",
    "max_dim": "x.max(0).values",
    "min_dim": "x.min(1)[0]",
    "max_keepdim": "x.max(dim=1, keepdim=True)[0]",
    "index": "x[torch.tensor([0, 1, 0])]",
    "bool_mask": "x[x > 1]",
    "select": "x[0]",
    "select_dim1": "x[:, 0]",
    "slice": "x[1:]",
    "slice_dim1": "x[:, 1:]",
    "step": "x[..., ::2]",
    "narrow": "x.narrow(1, 0, 2)",
    "select_then_expand": "x[0].expand(2, 3)",
    "masked_fill": "x.masked_fill(x > 1, 0.5)",
}
for _name, _expr in _CREATE_GRAPH.items():
    case(
        f"create_graph_names/{_name}",
        f"""
        x = torch.tensor([[0.5, 2.0, -1.5], [1.25, -0.75, 3.0]], requires_grad=True)
        w = torch.tensor(1.5, requires_grad=True)
        y = {_expr}
        g, = torch.autograd.grad((y * w).sum(), x, create_graph=True)
        print(g)
        print(torch.autograd.grad((g * g).sum(), [x, w]))
    """,
    )

case(
    "names/narrow_whole_dim",
    """
    x = torch.ones(2, 3, requires_grad=True)
    for y in (x.narrow(0, 0, 2), x.narrow(1, 0, 3), x.narrow(1, 1, 2), x.narrow(-1, 2, 1)):
        print(y.grad_fn)
    y = x.clone()
    z = y.narrow(1, 0, 3)
    z.mul_(2)
    print(y, z)
    y.sum().backward()
    print(x.grad)
""",
)

# ---------------------------------------------------------------------------
# double backward through an in-place op on a view (CopySlices) and through
# x[index] = v (IndexPutBackward0)
# ---------------------------------------------------------------------------

case(
    "double/copyslices",
    """
    a = torch.tensor([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], requires_grad=True)
    t = a * 1
    t[0].mul_(3)
    t[:, 1] = a[:, 0] ** 2
    y = (t * t).sum()
    g, = torch.autograd.grad(y, a, create_graph=True)
    print(g)
    print(torch.autograd.grad((g * g).sum(), a))
""",
)
case(
    "double/copyslices_float32_view_of_view",
    """
    a = torch.tensor([[0.5, -1.25, 2.0], [1.5, 0.25, -0.75]], dtype=torch.float32, requires_grad=True)
    t = a.exp()
    t[1][1:].sigmoid_()
    g, = torch.autograd.grad(t.pow(2).mean(), a, create_graph=True)
    print(g)
    (g.sum() * 2).backward()
    print(a.grad)
""",
)
case(
    "double/index_put",
    """
    a = torch.tensor([0.5, -1.25, 2.0, 1.5], requires_grad=True)
    v = torch.tensor([3.0, -2.0], requires_grad=True)
    t = a.clone()
    t[torch.tensor([0, 2])] = v * a[1]
    t[t > 1.0] = 0.5
    y = (t * t * a).sum()
    ga, gv = torch.autograd.grad(y, [a, v], create_graph=True)
    print(ga, gv)
    print(torch.autograd.grad((ga * gv.sum()).sum(), [a, v]))
""",
)

case(
    "create_graph_names/sum_to",
    """
    a = torch.tensor(2.0, requires_grad=True)
    b = torch.tensor([[0.5, 1.75]], requires_grad=True)
    c = torch.tensor([0.5, 1.75], requires_grad=True)
    x = torch.tensor([[2.0, -2.5], [1.5, 0.25], [-2.5, 0.25]], requires_grad=True)
    y = (x * a + x * b + x * c) ** 2
    for g in torch.autograd.grad(y.sum(), [a, b, c], create_graph=True):
        print(g)
""",
)
case(
    "create_graph_names/matmul_folded",
    """
    a = torch.tensor([[[0.5, -0.5, 0.25], [-0.75, -0.5, -1.25]], [[1.75, -0.75, 1.5], [3.0, -2.5, 0.5]]], requires_grad=True)
    b = torch.tensor([[-2.5, 1.0], [0.25, 2.0], [1.75, -1.0]], requires_grad=True)
    v = torch.tensor([-2.5, 0.25, 1.75], requires_grad=True)
    for other in (b, v):
        t = a @ other
        w = torch.ones_like(t).requires_grad_()
        ga, gb = torch.autograd.grad((t * t * w).sum(), [a, other], create_graph=True)
        print(ga, gb)
        print(torch.autograd.grad((ga.sum() + gb.sum()) ** 2, [a, other, w]))
""",
)
case(
    "create_graph_names/add_alpha",
    """
    a = torch.tensor([[2.0, -0.75], [-0.75, 2.0]], dtype=torch.float32, requires_grad=True)
    for t in (torch.add(torch.tensor(2.0, dtype=torch.float32), a, alpha=2), torch.sub(1.0, a, alpha=3)):
        g, = torch.autograd.grad((t * t).sum(), a, create_graph=True)
        print(g, torch.autograd.grad(g.sum(), a))
""",
)
case(
    "names/flatten_of_keepdim_sum",
    """
    a = torch.tensor([[-2.5, 1.5, 1.0], [-0.75, -2.5, 3.0]], requires_grad=True)
    print(torch.flatten(a.sum(dim=1, keepdim=True), 0, 1))
    print(a.sum(dim=0, keepdim=True).reshape(-1))
""",
)

case(
    "create_graph_names/sum_expands",
    """
    a = torch.tensor(-1.25, requires_grad=True)
    b = torch.tensor([[0.5, 2.0, -1.0]], requires_grad=True)
    c = torch.tensor([[0.5], [2.0]], requires_grad=True)
    for y in (a.sum(), b.sum(0, keepdim=True), b.sum(0), c.sum(1, keepdim=True), c.sum(), a.sum(0)):
        w = torch.tensor(2.0, requires_grad=True)
        for x in (a, b, c):
            try:
                g, = torch.autograd.grad((y * y * w).sum(), x, create_graph=True)
                print(g, torch.autograd.grad(g.sum(), [x, w], allow_unused=True))
            except RuntimeError as e:
                print(e)
""",
)
case(
    "create_graph_names/narrow_whole_dim",
    """
    a = torch.tensor([[1.75, 0.5, 3.0]], requires_grad=True)
    t = a.narrow(1, 0, 3)
    g, = torch.autograd.grad((t.sigmoid() * t).sum(), a, create_graph=True)
    print(g)
""",
)
case(
    "bce_with_logits/two_dtypes",
    """
    F = torch.nn.functional
    x64 = torch.tensor([[-0.75, -1.25, 1.75], [-1.25, -2.5, -0.5]], requires_grad=True)
    x32 = torch.tensor([[-0.75, -1.25, 1.75], [-1.25, -2.5, -0.5]], dtype=torch.float32, requires_grad=True)
    t64 = torch.tensor([[0.25, 0.75, 1.0], [0.0, 0.3, 0.7]])
    t32 = t64.float()
    for x, t in ((x64, t32), (x32, t64), (x32, t32)):
        for red in ("mean", "sum", "none"):
            l = F.binary_cross_entropy_with_logits(x * 1.7, t, reduction=red)
            print(l)
            g, = torch.autograd.grad(l.sum(), x, create_graph=True)
            print(g)
            print(torch.autograd.grad(g.sum(), x))
        print(F.binary_cross_entropy_with_logits(x, t, weight=torch.tensor([0.5, 2.0, 1.0])))
""",
)
case(
    "second_backward/index_put_list",
    """
    a = torch.tensor([[3.0, 2.0, -1.25], [0.25, -2.5, -0.5]], requires_grad=True)
    t = a.clone()
    t[[0, 1]] = 0.5
    y = t.clone().sum()
    y.backward()
    try:
        y.backward()
    except RuntimeError as e:
        print(e)
    print(a.grad)
""",
)
for _name, _src in {
    "matmul/folded_vector": "torch.ones(2, 1, 3) @ torch.ones(7)",
    "matmul/folded_4d_vector": "torch.ones(4, 2, 1, 3) @ torch.ones(7)",
    "matmul/folded_matrix": "torch.ones(2, 2, 3) @ torch.ones(7, 5)",
    "matmul/dot_dtypes_first": "torch.ones(3) @ torch.ones(7, dtype=torch.float32)",
}.items():
    case(f"words/{_name}", _src)
for _name, _src in {
    "zero_dim/ellipsis_slice": "x = torch.tensor(2.0)\nx[..., ::2]",
    "zero_dim/slice": "x = torch.tensor(2.0)\nx[::2]",
    "zero_dim/ellipsis_int": "x = torch.tensor(2.0)\nx[..., 0]",
    "zero_dim/int": "x = torch.tensor(2.0)\nx[0]",
    "zero_dim/tuple_int": "x = torch.tensor(2.0)\nx[(0,)]",
}.items():
    case(f"words/{_name}", _src)

case(
    "std/not_contiguous",
    """
    torch.set_printoptions(precision=10)
    for dt in (torch.float32, torch.float64):
        a = torch.tensor([[0.5, -1.25, 0.1], [1.5, 3.0, 0.7], [-2.5, 1.75, 0.3], [0.33, 1.1, -0.9]], dtype=dt, requires_grad=True)
        for t in (a.permute(1, 0), a.t()[1:], a.unsqueeze(0).transpose(0, 2)):
            for r in (t.std(), t.var(), t.std(unbiased=False)):
                print(r, torch.autograd.grad(r, a))
    torch.set_printoptions(profile="default")
""",
)

case(
    "index/zero_dim_bool_mask",
    """
    a = torch.tensor([3.0, 0.5], requires_grad=True)
    t2 = a[-1]
    print(t2[t2 > 0], t2[t2 > 5])
    x = torch.tensor([[2.0, 1.0], [0.5, 3.0]], requires_grad=True)
    print(x[torch.tensor(True)], x[torch.tensor(False)], x[..., torch.tensor(True)], x[0, torch.tensor(True)])
    y = x[torch.tensor(True)].sum() + t2[t2 > 0].sum()
    y.backward()
    print(x.grad, a.grad)
    z = torch.tensor(2.0)
    print(z[z > 1], z[..., z > 1])
""",
)

case(
    "setitem/augmented_on_a_row_of_one",
    """
    a = torch.tensor([[[0.25, 1.0, 2.0]], [[3.0, 3.0, -1.25]]], requires_grad=True)
    t = a.clone()
    t[-1] += 2
    t[0] = t[0] * 3
    t[:, 0] -= 1
    print(t)
    t.sum().backward()
    print(a.grad)
""",
)

case(
    "create_graph_names/max_all_std_var",
    """
    for dt in (torch.float32, torch.float64):
        a = torch.tensor([[0.5, 2.0, -1.5], [2.0, -0.75, 1.0]], dtype=dt, requires_grad=True)
        for y in ((a * a).max(), (a * a).min(), a.std(), a.var(1, keepdim=True), a.std(0)):
            g, = torch.autograd.grad(y.sum() * 3, a, create_graph=True)
            print(g.grad_fn)
            if dt == torch.float64 and y.grad_fn.name().startswith(("Max", "Min")):
                print(g, torch.autograd.grad((g * g).sum(), a))
""",
)

case(
    "promotion/zero_dim_double_with_float_tensor",
    """
    torch.set_printoptions(precision=10)
    a = torch.tensor([0.1, 0.7, 1.3, 2.9, 1e-3, 3.3], dtype=torch.float32, requires_grad=True)
    s = torch.tensor(0.3, requires_grad=True)
    i = torch.tensor([3, -2, 7, 1, 5, 2])
    for y in (a * s, s * a, a + s, a - s, s - a, a / s, s / a, torch.add(a, s, alpha=3), a * i, i / s):
        print(y)
        print(torch.autograd.grad(y.sum(), [a, s], allow_unused=True))
    torch.set_printoptions(profile="default")
""",
)

case(
    "layout/elementwise_of_transposed",
    """
    # an element-wise op of a transposed tensor is transposed too (TensorIterator lays
    # its output out in the input's memory order), so reshape copies: UnsafeViewBackward0
    a = torch.tensor([[0.25, -2.5, 0.5], [3.0, -2.5, -2.5]], requires_grad=True)
    t = (a @ a.t()).T * 0.1
    for y in (t.exp(), t.sin(), t.tanh(), t.sigmoid(), t.sqrt(), torch.sinh(t), torch.exp2(t),
              torch.nn.functional.softplus(t), torch.nn.functional.silu(t),
              torch.nn.functional.elu(t), t ** 2.5, t ** 3, torch.atan2(t, t), torch.hypot(t, t),
              torch.pow(t, t), t + t):
        r = y.reshape(-1)
        print(r.grad_fn.name(), y.is_contiguous())
        print(torch.autograd.grad(r.sum(), a)[0])
""",
)

case(
    "conv/float64_bias_inside_gemm",
    """
    # float64 conv2d is PyTorch's slow_conv2d: per sample, gemm adds weight @ columns onto
    # the bias (not bias added after), the weight gradient is gemm-accumulated one sample
    # after another, and the columns' gradient is weight.T @ grad_output before col2im
    torch.manual_seed(1)
    x = torch.randn(5, 4, 9, 8, requires_grad=True)
    w = torch.randn(6, 2, 3, 3, requires_grad=True)
    b = torch.randn(6, requires_grad=True)
    y = torch.nn.functional.conv2d(x, w, b, padding=1, groups=2)
    print(y.sum().item(), y[1, 3, 2].tolist())
    (y * y).sum().backward()
    print(x.grad[2, 1, 3].tolist())
    print(w.grad.flatten().tolist())
    print(b.grad.tolist())
    x2 = torch.randn(7, 3, 10, 10, requires_grad=True)
    w2 = torch.randn(8, 3, 5, 5, requires_grad=True)
    y2 = torch.nn.functional.conv2d(x2, w2, stride=2)
    y2.sin().sum().backward()
    print(y2[3, 5].flatten().tolist())
    print(x2.grad[4, 1, 2].tolist())
    print(w2.grad.flatten().tolist()[:40])
""",
)

case(
    "conv/float64_threads_buffers_and_bias_sums",
    """
    # float64 conv2d as PyTorch runs slow_conv2d and slow_conv_dilated2d: the per-sample
    # gemms of the forward and of the columns' gradient on one thread each (inside
    # at::parallel_for), each sample's columns' gradient in a buffer of its own, the
    # dilated convolution's columns in one buffer reused per sample, and the bias
    # gradient summed group by group (the dilated one sample after sample)
    torch.manual_seed(5)
    F = torch.nn.functional
    y = F.conv2d(torch.randn(5, 3, 2, 32), torch.randn(7, 3, 2, 2))
    print(y[3].flatten().tolist())
    y = F.conv2d(torch.randn(8, 4, 5, 53), torch.randn(7, 4, 3, 3))
    print(y[0, :, 1].flatten().tolist())
    x = torch.randn(7, 3, 10, 10, requires_grad=True)
    y = F.conv2d(x, torch.randn(8, 3, 5, 5), stride=2)
    y.backward(torch.randn(y.shape))
    print(x.grad[1].flatten().tolist())
    b = torch.randn(2, requires_grad=True)
    y = F.conv2d(torch.randn(2, 6, 13, 36), torch.randn(2, 3, 2, 3), b, padding=(1, 0), groups=2)
    y.backward(torch.randn(y.shape))
    print(b.grad.tolist())
    b = torch.randn(1, requires_grad=True)
    y = F.conv2d(torch.randn(5, 3, 19, 36), torch.randn(1, 3, 1, 4), b, padding=(1, 0), dilation=(2, 1))
    y.backward(torch.randn(y.shape))
    print(b.grad.tolist())
    w = torch.randn(6, 1, 5, 3, requires_grad=True)
    y = F.conv2d(torch.randn(3, 1, 11, 37), w, padding=(2, 0), dilation=(2, 1))
    y.backward(torch.randn(y.shape))
    print(w.grad.flatten().tolist())
""",
)

case(
    "conv/float32_onednn_direct_forward_and_bias",
    """
    # float32 conv2d as PyTorch runs it: a batch through oneDNN's direct AVX2 kernels
    # (each output from its bias, one fused multiply-add per tap, input channels in
    # blocks of 8 by kernel row, kernel column, channel; the bias gradient split between
    # the threads by image), one small sample through slow_conv2d (MKL's sgemm per
    # sample, col2im in float32)
    torch.manual_seed(11)
    f32 = torch.float32
    F = torch.nn.functional
    x = torch.randn(4, 3, 9, 9, dtype=f32)
    w = torch.randn(5, 3, 3, 3, dtype=f32)
    b = torch.randn(5, dtype=f32, requires_grad=True)
    y = F.conv2d(x, w, b, stride=2, padding=1)
    print(y[1].flatten().tolist())
    y.backward(torch.randn(y.shape, dtype=f32))
    print(b.grad.tolist())
    x = torch.randn(3, 20, 7, 8, dtype=f32)
    w = torch.randn(12, 20, 3, 2, dtype=f32)
    b = torch.randn(12, dtype=f32)
    y = F.conv2d(x, w, b, padding=(1, 0), dilation=(1, 2))
    print(y[2, 5].flatten().tolist())
    print(F.conv2d(x, w, stride=(2, 1))[0, 7].flatten().tolist())
    b = torch.randn(6, dtype=f32, requires_grad=True)
    y = F.conv2d(torch.randn(32, 1, 12, 12, dtype=f32), torch.randn(6, 1, 3, 3, dtype=f32), b)
    print(y[17, 4].flatten().tolist())
    y.backward(torch.randn(y.shape, dtype=f32))
    print(b.grad.tolist())
    x = torch.randn(1, 3, 7, 30, dtype=f32, requires_grad=True)
    w = torch.randn(7, 3, 2, 2, dtype=f32, requires_grad=True)
    b = torch.randn(7, dtype=f32, requires_grad=True)
    y = F.conv2d(x, w, b, dilation=2)
    y.backward(torch.randn(y.shape, dtype=f32))
    print(y.flatten().tolist()[:60])
    print(x.grad.flatten().tolist()[:90])
    print(w.grad.flatten().tolist(), b.grad.tolist())
    x = torch.randn(1, 2, 9, 9, dtype=f32, requires_grad=True)
    y = F.conv2d(x, torch.randn(4, 2, 3, 3, dtype=f32), padding=1, stride=2)
    y.backward(torch.randn(y.shape, dtype=f32))
    print(y.flatten().tolist(), x.grad.flatten().tolist())
""",
)

case(
    "conv/float32_onednn_input_gradient",
    """
    # float32 conv2d's input gradient through oneDNN's direct AVX2 kernel (stride 1, no
    # dilation): each input value from zero, one fused multiply-add per tap, the output
    # channels in blocks of 8 by kernel row, kernel column, channel
    torch.manual_seed(12)
    f32 = torch.float32
    F = torch.nn.functional
    x = torch.randn(3, 5, 8, 9, dtype=f32, requires_grad=True)
    y = F.conv2d(x, torch.randn(11, 5, 3, 2, dtype=f32), padding=(1, 1))
    y.backward(torch.randn(y.shape, dtype=f32))
    print(x.grad[2].flatten().tolist())
    x = torch.randn(4, 2, 7, 7, dtype=f32, requires_grad=True)
    y = F.conv2d(x, torch.randn(3, 2, 3, 3, dtype=f32), torch.randn(3, dtype=f32))
    (y * y).sum().backward()
    print(x.grad[1].flatten().tolist())
""",
)

case(
    "conv/float32_onednn_weight_gradient",
    """
    # float32 conv2d's weight gradient through oneDNN's direct AVX2 kernel: the images
    # split between the threads by the reduce balancer, each thread's sum of a weight a
    # chain of fused multiply-adds over its images, output rows and columns (taps in the
    # padding skipped), then the first thread's sum plus the other's
    torch.manual_seed(13)
    f32 = torch.float32
    F = torch.nn.functional
    for n, c, o, h, w, k, stride, padding in [
        (32, 1, 6, 12, 12, (3, 3), 1, 0),
        (7, 3, 5, 9, 11, (3, 2), (2, 1), (1, 1)),
        (9, 20, 12, 6, 7, (2, 3), 1, (0, 2)),
        (4, 16, 17, 5, 5, (3, 3), 2, 1),
        (5, 2, 3, 4, 30, (4, 13), (1, 3), (3, 2)),
    ]:
        x = torch.randn(n, c, h, w, dtype=f32)
        wt = torch.randn(o, c, *k, dtype=f32, requires_grad=True)
        b = torch.randn(o, dtype=f32, requires_grad=True)
        y = F.conv2d(x, wt, b, stride=stride, padding=padding)
        y.backward(torch.randn(y.shape, dtype=f32))
        print(wt.grad.flatten().tolist()[:80], b.grad.tolist())
""",
)

case(
    "conv/float32_bias_and_groups",
    """
    x = torch.arange(2 * 4 * 5 * 5, dtype=torch.float32).reshape(2, 4, 5, 5) % 7 - 3
    w = (torch.arange(6 * 2 * 3 * 3, dtype=torch.float32).reshape(6, 2, 3, 3) % 5 - 2).requires_grad_()
    b = torch.tensor([1., -2., 0.5, 3., -1., 2.], dtype=torch.float32, requires_grad=True)
    y = torch.nn.functional.conv2d(x, w, b, padding=1, groups=2)
    print(y.dtype, y.shape, y.sum().item(), y[1, 4, 2].tolist())
    y.square().sum().backward()
    print(w.grad.sum().item(), b.grad.tolist())
    print(torch.nn.functional.conv2d(x[:, :2], w[:3], b[:3], stride=2).sum().item())
""",
)

# ---------------------------------------------------------------------------
# the error functions: MKL's VML forward, derivatives.yaml's gradients
# ---------------------------------------------------------------------------

for _dt in ("float32", "float64"):
    case(
        f"erf/{_dt}_values_and_gradients",
        f"""
        x = torch.linspace(-3, 3, 41, dtype=torch.{_dt}, requires_grad=True)
        y = torch.linspace(-0.99, 0.99, 37, dtype=torch.{_dt}, requires_grad=True)
        a = torch.erf(x)
        b = x.erfc()
        c = torch.erfinv(y)
        print(a.grad_fn, b.grad_fn, c.grad_fn)
        print(a.tolist())
        print(b.tolist())
        print(c.tolist())
        (a * x).sum().backward()
        print(x.grad.tolist())
        (b.sum() + y.erf().sum()).backward()
        c.sum().backward()
        print(x.grad.tolist())
        print(y.grad.tolist())
        """,
    )

case(
    "erf/second_order_and_inplace",
    """
    x = torch.tensor([-1.5, -0.25, 0.0, 0.5, 2.0], requires_grad=True)
    g, = torch.autograd.grad(torch.erf(x).sum(), x, create_graph=True)
    print(g, g.grad_fn)
    g.sum().backward()
    print(x.grad)
    z = torch.tensor([0.1, -0.7, 0.95])
    z.erfinv_()
    print(z)
    w = torch.tensor([0.1, -0.7, 3.0])
    print(w.erf_(), torch.erfc(torch.tensor([30.0, -30.0, float("nan")])))
    print(torch.erfinv(torch.tensor([1.0, -1.0, 1.5, 0.0])))
    """,
)

# ---------------------------------------------------------------------------
# lerp: ATen's fused multiply-add on either side of weight 0.5, a number weight
# (LerpBackward0) or a tensor weight (LerpBackward1), broadcast
# ---------------------------------------------------------------------------

for _dt in ("float32", "float64"):
    case(
        f"lerp/{_dt}_values_and_gradients",
        f"""
        x = torch.linspace(-3, 5, 37, dtype=torch.{_dt}, requires_grad=True)
        e = torch.linspace(2, -1, 37, dtype=torch.{_dt}).requires_grad_()
        w = torch.linspace(-0.7, 1.6, 37, dtype=torch.{_dt}, requires_grad=True)
        r = torch.lerp(x, e, w)
        s = x.lerp(e, 0.3)
        t = torch.lerp(x, e, 0.7)
        print(r.grad_fn, s.grad_fn, t.grad_fn, s.grad_fn._saved_weight)
        print(r.tolist())
        print(s.tolist())
        print(t.tolist())
        (r * x).sum().backward()
        print(x.grad.tolist())
        print(e.grad.tolist())
        print(w.grad.tolist())
        (s.sum() + t.sum() * 3).backward()
        print(x.grad.tolist())
        print(e.grad.tolist())
        a = torch.arange(6, dtype=torch.{_dt}).reshape(2, 3).requires_grad_()
        b = torch.tensor([1.5, -2.0, 0.25], dtype=torch.{_dt}, requires_grad=True)
        c = torch.tensor([[0.1], [0.9]], dtype=torch.{_dt}, requires_grad=True)
        o = torch.lerp(b, a, c)
        o.square().sum().backward()
        print(o, a.grad, b.grad, c.grad)
        k = torch.tensor(0.3, dtype=torch.float64, requires_grad=True)
        o = torch.lerp(a, a * 2, k)
        o.sum().backward()
        print(o, k.grad)
        z = torch.zeros(4, dtype=torch.{_dt})
        z.lerp_(torch.ones(4, dtype=torch.{_dt}), 0.1)
        print(z)
        g, = torch.autograd.grad(torch.lerp(x, e, w).pow(2).sum(), w, create_graph=True)
        print(g.grad_fn, g[:4])
        """,
    )

case(
    "lerp/many_lengths_and_errors",
    """
    for n in (7, 8, 9, 15, 16, 17, 33, 100):
        a = torch.sin(torch.arange(n) * 1.7) * 10
        b = torch.cos(torch.arange(n) * 0.3) * 7
        w = torch.sin(torch.arange(n) * 0.9) + 0.4
        print(torch.lerp(a, b, w).tolist(), torch.lerp(a, b, 0.45).tolist(), a.lerp(b, 0.55).tolist())
    print(torch.lerp(torch.zeros(3, dtype=torch.float16), torch.tensor([1., 3., -7.], dtype=torch.float16), 0.3))
    for f in (lambda: torch.lerp(torch.zeros(2), torch.zeros(3), 0.2),
              lambda: torch.lerp(torch.zeros(2), torch.zeros(2, dtype=torch.float64), 0.2),
              lambda: torch.lerp(torch.zeros(2), torch.zeros(2), torch.zeros(2, dtype=torch.float64)),
              lambda: torch.lerp(torch.zeros(2, dtype=torch.long), torch.zeros(2, dtype=torch.long), 1),
              lambda: torch.zeros(2).lerp_(torch.ones(3, 2), 0.25)):
        try:
            print(f())
        except Exception as ex:
            print(type(ex).__name__, ex)
    """,
)

# ---------------------------------------------------------------------------
# amax / amin: ties share the gradient evenly (scale_grad_by_count), unlike max(dim)
# ---------------------------------------------------------------------------

case(
    "amax/ties_dims_nan_and_errors",
    """
    import torch
    x = torch.tensor([[1., 3., 3.], [2., 2., 0.]], requires_grad=True)
    r = torch.amax(x, 1)
    print(r, r.grad_fn, r.grad_fn._saved_dim, r.grad_fn._saved_keepdim, r.grad_fn._saved_result, r.grad_fn._saved_self)
    r.sum().backward(); print(x.grad)
    print(torch.amax(x), torch.amin(x, (0, 1), keepdim=True), x.amax(dim=0), x.amin(-1, True), torch.amax(x, dim=[]))
    print(torch.amax(x, -1).grad_fn._saved_dim, torch.amax(x).grad_fn._saved_dim, torch.amax(x, (1, 0)).grad_fn._saved_dim)
    for dt in (torch.float32, torch.float64):
        y = torch.tensor([[[1., 5., 5.], [5., 0., -1.]], [[2., 2., 2.], [-3., -3., 7.]]], dtype=dt, requires_grad=True)
        w = torch.arange(12, dtype=dt).reshape(2, 2, 3) / 7
        for args in ((), (0,), (1,), (2,), ((0, 2),), ((-1, 0), True), (1, True)):
            y.grad = None
            a = torch.amax(y, *args); b = torch.amin(y, *args)
            ((a * a).sum() + (b * 3).sum() + (torch.amax(y * w, *args)).sum()).backward()
            print(args, a, b, y.grad)
        z = torch.tensor([1., float('nan'), 2., float('nan')], dtype=dt, requires_grad=True)
        torch.amax(z).backward()
        print(z.grad)
        v = torch.tensor([3., 1., 3., 3.], dtype=dt, requires_grad=True)
        g, = torch.autograd.grad(torch.amin(v * v, 0) + torch.amax(v * v), v, create_graph=True)
        print(g, g.grad_fn)
    print(torch.amax(torch.tensor([1, 5, 2])), torch.amin(torch.tensor([True, False])), torch.amax(torch.zeros(0, 3), 1))
    for f in (lambda: torch.amax(torch.zeros(0, 3), 0), lambda: torch.amax(torch.zeros(0, 3)),
              lambda: torch.amax(x, 2), lambda: torch.amax(x, (0, 0)), lambda: torch.amax(x, 0.5), lambda: x.amin(0.5)):
        try: print(f())
        except Exception as e: print(type(e).__name__, e)
    """,
)

case(
    "amax/forward_mode",
    """
    import torch.autograd.forward_ad as fwAD
    for dt in (torch.float32, torch.float64):
        y = torch.tensor([[[1., 5., 5.], [5., 0., -1.]], [[2., 2., 2.], [-3., -3., 7.]]], dtype=dt)
        t = torch.tensor([[[0.1, 0.7, 0.3], [0.9, -2., 1.]], [[0.3, 0.1, 0.7], [1.1, 0.2, 0.4]]], dtype=dt)
        with fwAD.dual_level():
            d = fwAD.make_dual(y, t)
            for args in ((), (0,), (1,), (2,), ((0, 2),), ((-1, 0), True), (1, True)):
                print(args, fwAD.unpack_dual(torch.amax(d, *args)).tangent, fwAD.unpack_dual(torch.amin(d, *args)).tangent)
    """,
)
case(
    "lerp/forward_mode",
    """
    import torch.autograd.forward_ad as fwAD
    for dt in (torch.float32, torch.float64):
        x = torch.linspace(-3, 5, 11, dtype=dt)
        e = torch.linspace(2, -1, 11, dtype=dt)
        w = torch.linspace(-0.7, 1.6, 11, dtype=dt)
        tx = torch.linspace(0.3, 1.9, 11, dtype=dt)
        te = torch.linspace(-1.1, 0.7, 11, dtype=dt)
        tw = torch.linspace(0.2, -0.9, 11, dtype=dt)
        with fwAD.dual_level():
            for wv in (0.3, 0.7):
                print(fwAD.unpack_dual(torch.lerp(fwAD.make_dual(x, tx), e, wv)).tangent.tolist())
                print(fwAD.unpack_dual(torch.lerp(x, fwAD.make_dual(e, te), wv)).tangent.tolist())
                print(fwAD.unpack_dual(torch.lerp(fwAD.make_dual(x, tx), fwAD.make_dual(e, te), wv)).tangent.tolist())
            print(fwAD.unpack_dual(torch.lerp(fwAD.make_dual(x, tx), fwAD.make_dual(e, te), fwAD.make_dual(w, tw))).tangent.tolist())
            print(fwAD.unpack_dual(torch.lerp(x, e, fwAD.make_dual(w, tw))).tangent.tolist())
            print(fwAD.unpack_dual(torch.lerp(fwAD.make_dual(x, tx), e, w)).tangent.tolist())
    """,
)

# ---------------------------------------------------------------------------
# abs's derivative under create_graph is grad * self.sgn() (SgnBackward0), whose own
# derivative for a real tensor is an efficient zero tensor: skipped where gradients
# are added (a -0. elsewhere stays -0.), plain zeros where nothing else arrives
# ---------------------------------------------------------------------------

case(
    "efficient_zeros/sgn_of_abs",
    """
    import torch
    for dt in (torch.float32, torch.float64):
        a = torch.tensor([[1.75, -2.5, 1.5], [-1.25, 3.0, 0.0]], dtype=dt, requires_grad=True)
        gx, = torch.autograd.grad((a.abs()[-1] ** 2).sum(), a, create_graph=True)
        print(gx, gx.grad_fn.next_functions[1][0].name())
        print(torch.autograd.grad((gx * gx).sum(), a))
        gx, = torch.autograd.grad(a.abs().sum(), a, create_graph=True)
        print(torch.autograd.grad(gx.sum(), a), torch.autograd.grad(gx.sum(), a, create_graph=True)[0].grad_fn)
        gx, = torch.autograd.grad((a * -2).exp().abs().sum() + a[0].sum(), a, create_graph=True)
        (gx * torch.tensor([1., -1., 2.], dtype=dt)).sum().backward()
        print(a.grad)
        a.grad = None
        (a * -3).abs().sum().backward(create_graph=True)
        print(a.grad)
        h, = torch.autograd.grad(a.grad.sum(), a, create_graph=True)
        print(h, h.grad_fn)
        b = a.detach().clone().requires_grad_()
        b.register_hook(lambda g: print("hook", g))
        gx, = torch.autograd.grad(b.abs().sum(), b, create_graph=True)
        gx.sum().backward()
        print(b.grad)
        c = torch.tensor([1.75, -2.5, 0.0, -1.0], dtype=dt, requires_grad=True)
        (c * torch.tensor([0., -0., 0., 0.], dtype=dt)).sum().backward()
        print(c.grad)
        for i in range(2):
            gx, = torch.autograd.grad((c * -2).abs().sum(), c, create_graph=True)
            (gx * 3).sum().backward()
            print(c.grad)
    """,
)

# ---------------------------------------------------------------------------
# the losses whose backward is a kernel: under create_graph a node of its own
# (SmoothL1LossBackwardBackward0, HuberLossBackwardBackward0,
# BinaryCrossEntropyBackwardBackward0) with FunctionsManual's double backward
# ---------------------------------------------------------------------------

case(
    "fused_loss_grads/smooth_l1_and_huber",
    """
    import torch
    F = torch.nn.functional
    for dt in (torch.float32, torch.float64):
        a = torch.tensor([[-0.5, 3.0, 1.75], [1.5, 1.75, 0.25]], dtype=dt, requires_grad=True)
        y = torch.tensor([[1.5, -2.5, 1.0], [2.0, 1.25, 0.5]], dtype=dt, requires_grad=True)
        for red in ("mean", "sum", "none"):
            for f in (lambda x, t: F.smooth_l1_loss(x, t, reduction=red),
                      lambda x, t: F.smooth_l1_loss(x, t, reduction=red, beta=2.0),
                      lambda x, t: F.huber_loss(x, t, reduction=red, delta=0.5)):
                out = f(a * -1.5, y * 0.5)
                if red == "none":
                    out = (out * torch.tensor([1., -2., 0.5], dtype=dt)).sum()
                ga, gy = torch.autograd.grad(out, (a, y), create_graph=True)
                print(red, ga, gy)
                s = (ga * ga * torch.tensor([1., -1., 2.], dtype=dt)).sum() + (gy * a).sum()
                print(torch.autograd.grad(s, (a, y)))
                if red != "none":
                    go = torch.ones((), dtype=dt, requires_grad=True)
                    ga, = torch.autograd.grad(f(a, y), a, go, create_graph=True)
                    print(torch.autograd.grad((ga * ga).sum(), go))
    """,
)
case(
    "fused_loss_grads/binary_cross_entropy",
    """
    import torch
    F = torch.nn.functional
    for dt in (torch.float32, torch.float64):
        z = torch.tensor([[-0.5, 3.0, 1.75], [1.5, 9.75, -12.25]], dtype=dt, requires_grad=True)
        y = torch.tensor([[1., 0., 0.25], [1., 0., 1.]], dtype=dt)
        w = torch.tensor([0.5, 2.0, 1.5], dtype=dt)
        for red in ("mean", "sum", "none"):
            for wt in (None, w):
                out = F.binary_cross_entropy(z.sigmoid(), y, weight=wt, reduction=red)
                if red == "none":
                    out = (out * torch.tensor([1., -2., 0.5], dtype=dt)).sum()
                gx, = torch.autograd.grad(out, z, create_graph=True)
                print(red, gx, torch.autograd.grad((gx * gx).sum(), z))
                p = z.sigmoid().detach().requires_grad_()
                go = torch.ones((), dtype=dt, requires_grad=True) if red != "none" else torch.ones(2, 3, dtype=dt, requires_grad=True)
                gp, = torch.autograd.grad(F.binary_cross_entropy(p, y, weight=wt, reduction=red), p, go, create_graph=True)
                print(gp, torch.autograd.grad((gp * gp).sum(), (p, go)))
    """,
)
case(
    "copy_slices/second_backward_fails",
    """
    import torch
    a = torch.tensor([[-1.25, 0.25], [0.5, 0.5]], requires_grad=True)
    t3 = a.clone()
    _ = t3[:, 0].zero_()
    t4 = t3.mean()
    t4.backward(retain_graph=True)
    t4.backward()
    print(a.grad)
    try:
        t4.backward()
    except RuntimeError as e:
        print("err:", str(e).split("\\n")[0])
    print(a.grad)
    c = a.detach().clone().requires_grad_()
    t = c.clone()
    _ = t[0].mul_(3)
    g, = torch.autograd.grad(t.sum(), c, create_graph=True)
    print(g)
    try:
        print(torch.autograd.grad(t.sum(), c))
    except RuntimeError as e:
        print("err:", str(e).split("\\n")[0])
    """,
)
case(
    "create_graph_grad/plain_backward_after_keeps_grad_fn",
    """
    import torch
    a = torch.tensor([1.5, -2.0, 0.5], requires_grad=True)
    (a ** 3).sum().backward(create_graph=True)
    print(a.grad)
    (a * 2).sum().backward()
    print(a.grad)
    c = torch.tensor([1.5, -2.0], requires_grad=True)
    (c ** 2).sum().backward(create_graph=True)
    g = c.grad
    (c * 2).sum().backward()
    print(g, c.grad, g is c.grad)
    (c * 2).sum().backward(create_graph=True)
    print(c.grad)
    """,
)
case(
    "layout/number_to_the_power_of_a_transposed_tensor",
    """
    import torch
    a = torch.tensor([[1.5, -2.0, 0.5], [0.25, 1.0, -1.0]], requires_grad=True)
    t = a.t()
    for r in (2.0 ** t, 2 ** t, torch.pow(2.0, t), t ** 2.0, torch.tensor(2.0) ** t, 2.0 * t):
        print(r.is_contiguous(), r.reshape(-1))
    b = torch.arange(24.).reshape(2, 3, 4).permute(2, 0, 1).requires_grad_()
    for r in (2.0 ** b, 3 ** b.int(), 2 ** b[::2]):
        print(r.is_contiguous(), r.reshape(-1).grad_fn.name())
    c = torch.tensor(-1.25, requires_grad=True)
    print(2 ** c, 2.0 ** c.t(), torch.stack([c, 2 ** c]))
    """,
)
case(
    "efficient_zeros/zero_dim",
    """
    import torch
    for dt in (torch.float32, torch.float64):
        a = torch.tensor(0.5, dtype=dt, requires_grad=True)
        t1 = a * 1
        t1.abs_()
        gx, = torch.autograd.grad(t1, a, create_graph=True)
        t1.backward(create_graph=True)
        print(gx, a.grad, torch.autograd.grad(a.grad.sum(), a, allow_unused=True))
        b = torch.tensor([0.5, -1.0], dtype=dt, requires_grad=True)
        gx, = torch.autograd.grad(b.abs().sum() * 2, b, create_graph=True)
        print(torch.autograd.grad(gx.sum(), b, retain_graph=True), torch.autograd.grad(gx[0] * 3, b))
    """,
)
case(
    "second_order/std_var_of_every_dim",
    """
    import torch
    for dt in (torch.float32, torch.float64):
        a = torch.tensor([[1.5, -2.0, 0.5, 3.25], [0.25, 1.0, -1.0, 2.5], [1.75, -0.5, 0.125, -3.0]], dtype=dt, requires_grad=True)
        for f in (lambda x: x.std(), lambda x: x.var(), lambda x: x.std(0).sum(), lambda x: x.var(1).sum(),
                  lambda x: x[:, ::2].std(), lambda x: x[::2].var(), lambda x: x.t().std(), lambda x: x.t().var(),
                  lambda x: x[:, 1::2].std(1).sum(), lambda x: x.permute(1, 0).std(0).sum()):
            g, = torch.autograd.grad(f(a), a, create_graph=True)
            print(g, torch.autograd.grad((g * g).sum(), a))
        s = torch.tensor([[1., 2.], [3., 4.]], dtype=dt, requires_grad=True)
        print(torch.autograd.grad((s.t() * torch.tensor([[0.1, 0.7], [0.3, 0.9]], dtype=dt)).sum(), s))
    """,
)
case(
    "fused_loss_grads/nll_loss",
    """
    import torch
    F = torch.nn.functional
    for dt in (torch.float32, torch.float64):
        a = torch.tensor([[1.5, -2.0, 0.5], [0.25, 1.0, -1.0]], dtype=dt, requires_grad=True)
        t = torch.tensor([2, 0])
        w = torch.tensor([0.5, 1., 2.], dtype=dt)
        for red in ("mean", "sum", "none"):
            for f in (lambda x: F.nll_loss(x, t, reduction=red), lambda x: F.nll_loss(x.log_softmax(1), t, reduction=red),
                      lambda x: F.cross_entropy(x, t, reduction=red), lambda x: F.nll_loss(x * 2, t, weight=w, reduction=red)):
                y = f(a)
                if red == "none":
                    y = (y * torch.tensor([1., -2.], dtype=dt)).sum()
                g, = torch.autograd.grad(y, a, create_graph=True)
                print(g, torch.autograd.grad((g * g).sum(), a, allow_unused=True) if g.requires_grad else None)
            go = torch.ones(() if red != "none" else (2,), dtype=dt, requires_grad=True)
            g, = torch.autograd.grad(F.nll_loss(a, t, weight=w, reduction=red), a, go, create_graph=True)
            print(g, torch.autograd.grad((g * g).sum(), go))
    """,
)
case(
    "copy_slices/runs_the_in_place_op_as_torch",
    """
    import torch
    for dt in (torch.float32, torch.float64):
        a = torch.tensor([[1.0, -2.5, -0.5], [0.25, 2.0, -1.5]], dtype=dt, requires_grad=True)
        b = torch.tensor([0.5, -1.25, 2.0], dtype=dt, requires_grad=True)
        for k in range(7):
            t = a * 1
            if k == 0: t[0] = 1.25
            if k == 1: t[0].mul_(b)
            if k == 2: t[:, 1] += b[:2]
            if k == 3: _ = t[1].zero_()
            if k == 4: _ = t[0, ::2].exp_()
            if k == 5: t[1] = b
            if k == 6: _ = t.t()[1].clamp_(min=0.0)
            y = (t * t * torch.tensor([1., -1., 2.], dtype=dt)).sum()
            g = torch.autograd.grad(y, (a, b), create_graph=True, allow_unused=True)
            print(k, g)
            s = sum((x * x).sum() for x in g if x is not None and x.requires_grad)
            if isinstance(s, torch.Tensor):
                print(k, torch.autograd.grad(s, (a, b), allow_unused=True))
            t2 = a.clone()
            v = t2[1]
            _ = v.mul_(-1)
            (t2 ** 2).sum().backward()
            print(k, a.grad, t2.grad_fn.name(), [n[0].name() if n[0] else None for n in t2.grad_fn.next_functions])
            a.grad = None
    """,
)
case(
    "second_order/cumsum_of_a_dim_of_one",
    """
    import torch
    a = torch.tensor([[-2.5, 3.0, 0.25]], dtype=torch.float32, requires_grad=True)
    for d in (0, 1):
        g, = torch.autograd.grad((a.cumsum(d).t() ** 2).sum(), a, create_graph=True)
        print(g, torch.autograd.grad((g * g).sum(), a))
    b = torch.tensor([1.5], requires_grad=True)
    g, = torch.autograd.grad((b.cumsum(0) ** 2).sum(), b, create_graph=True)
    print(g)
    c = torch.tensor(1.5, requires_grad=True)
    g, = torch.autograd.grad((c.cumsum(0) ** 2).sum(), c, create_graph=True)
    print(g)
    e = torch.zeros(0, 3, requires_grad=True)
    print(torch.autograd.grad(e.cumsum(0).sum(), e))
    """,
)
case(
    "second_order/folded_matmul_in_the_operands_layout",
    """
    import torch
    for dt in (torch.float32, torch.float64):
        a = torch.tensor([[[1.0, 3.0, 0.5]], [[2.0, 1.5, -2.5]]], dtype=dt, requires_grad=True)
        for b in (torch.tensor([[-0.5]], dtype=dt, requires_grad=True), torch.tensor([[-0.5, 1.5]], dtype=dt, requires_grad=True),
                  torch.tensor([[-0.5, 1.5], [2.0, 0.25]], dtype=dt).t().requires_grad_(), torch.tensor([[0.5], [1.0], [-2.0]], dtype=dt, requires_grad=True)):
            x = a.sin()
            t2 = torch.bmm(x, x.transpose(1, 2)) if b.shape[0] == 1 else (x if b.shape[0] == 3 else x[..., :2])
            out = ((t2 @ b) ** 2).sum()
            g = torch.autograd.grad(out, (a, b), create_graph=True)
            print(g, torch.autograd.grad(sum((v * v).sum() for v in g), (a, b)))
    """,
)
case(
    "efficient_zeros/kept_or_materialised_by_each_op",
    """
    import torch
    F = torch.nn.functional
    for dt in (torch.float32, torch.float64):
        b = torch.tensor([[-2.5, 3.0, 0.5], [1.5, -0.25, 2.0]], dtype=dt, requires_grad=True)
        c = torch.tensor([[1.5, -1.0, 0.75], [0.5, 2.25, -1.0]], dtype=dt, requires_grad=True)
        for f in (lambda: -b, lambda: b - c, lambda: c - b, lambda: 2 - b, lambda: torch.where(b > 0, b, c), lambda: b.clamp(-1, 1),
                  lambda: torch.maximum(b, c), lambda: b.relu(), lambda: b.sigmoid(), lambda: b.tanh(), lambda: b.mean() + b,
                  lambda: b.mean(0) * b, lambda: b[0] * b, lambda: b[:, ::2].sum() * b, lambda: b[0].expand(2, 3) * c, lambda: b * c,
                  lambda: b.exp(), lambda: torch.sub(b, c, alpha=2), lambda: b.neg() * b):
            g = torch.autograd.grad(f().abs().sum(), (b, c), create_graph=True, allow_unused=True)
            print(torch.autograd.grad(sum(x.sum() for x in g if x is not None), (b, c), allow_unused=True))
        t2 = b.clone()
        _ = t2.neg_()
        g, = torch.autograd.grad(F.l1_loss(t2, c), b, create_graph=True)
        print(torch.autograd.grad((g * g).sum(), b))
    """,
)
case(
    "partial/grad_runs_only_the_nodes_leading_to_its_inputs",
    """
    import torch
    b = torch.tensor([1.0, -0.75], dtype=torch.float64, requires_grad=True)
    c = torch.tensor([-2.5], requires_grad=True)
    t1 = b ** 2
    t2 = t1 + c
    print(torch.autograd.grad(t2.sum(), c))
    print(torch.autograd.grad(t2.sum(), c))
    print(torch.autograd.grad(t2.sum(), t1))
    print(torch.autograd.grad(t2.sum(), t1))
    print(torch.autograd.grad(t2.sum(), (t1, b)))
    try:
        print(torch.autograd.grad(t2.sum(), b))
    except RuntimeError as e:
        print("err", str(e)[:40])
    x = torch.tensor([0.5, 2.0], requires_grad=True)
    y = x.exp()
    z = (y * y).sum() + x.sum()
    z.backward(inputs=[y])
    print(y.grad, x.grad)
    try:
        z.backward(inputs=[x])
    except RuntimeError as e:
        print("err", str(e)[:40])
    print(x.grad)
    u = x.sin() * 3
    w = u.cos().sum()
    g, = torch.autograd.grad(w, u, create_graph=True)
    print(g, torch.autograd.grad(w, x))
    """,
)


# ---------------------------------------------------------------------------
# the torch namespace's losses take ATen's signature: reduction an int whose
# default is none (torch.kl_div(x, t) is per-element, F.kl_div(x, t) a mean)
# ---------------------------------------------------------------------------

case(
    "torch_ns/bce_with_logits_default_none",
    """
    x = torch.tensor([[0.5, -1.], [2., 0.]], requires_grad=True)
    t = torch.tensor([[0.2, 0.3], [0.9, 0.5]])
    w = torch.tensor([1., 2.])
    print(torch.binary_cross_entropy_with_logits(x, t))
    print(F.binary_cross_entropy_with_logits(x, t))
    print(torch.binary_cross_entropy_with_logits(x, t, w))
    print(torch.binary_cross_entropy_with_logits(x, t, None, w, 1))
    print(torch.binary_cross_entropy_with_logits(x, t, reduction=2))
    print(torch.binary_cross_entropy_with_logits(x, t, pos_weight=w, reduction=7))
    torch.binary_cross_entropy_with_logits(x, t).sum().backward()
    print(x.grad)
    try:
        torch.binary_cross_entropy_with_logits(x, t, reduction="mean")
    except TypeError as e:
        print(e)
    torch.binary_cross_entropy_with_logits(x)
""",
)
case(
    "torch_ns/kl_div_default_none",
    """
    x = torch.tensor([[0.5, -1.], [2., 0.]], requires_grad=True)
    t = torch.tensor([[0.2, 0.3], [0.9, 0.]])
    print(torch.kl_div(x, t))
    print(torch.kl_div(x, t, 1))
    print(torch.kl_div(x, t, reduction=2))
    print(torch.kl_div(x, t, log_target=True))
    print(F.kl_div(x, t, reduction="sum"))
    try:
        torch.kl_div(x, t, "sum")
    except TypeError as e:
        print(e)
    torch.kl_div(x, t, 0, True)
""",
)
case(
    "torch_ns/embedding_losses_default_none",
    """
    x = torch.tensor([[0.5, -1., 0.3], [2., 0., -0.4]], requires_grad=True)
    c = torch.tensor([[0.1, 0.2, -0.5], [0.3, 0.4, 0.6]], requires_grad=True)
    s = torch.tensor([[1., -1., 1.], [-1., 1., -1.]])
    y = torch.tensor([1., -1.])
    print(torch.hinge_embedding_loss(x, s))
    print(torch.hinge_embedding_loss(x, s, 0.5, 1))
    print(torch.cosine_embedding_loss(x, c, y))
    print(torch.cosine_embedding_loss(x, c, y, 0.1, 2))
    print(torch.margin_ranking_loss(x[0], c[0], s[0]))
    print(torch.margin_ranking_loss(x[0], c[0], s[0], 0.2, 1))
    try:
        torch.margin_ranking_loss(x[0], c[0], s[0], 0.0, "sum")
    except TypeError as e:
        print(e)
    torch.hinge_embedding_loss(x, s, 1.0, 0, 5)
""",
)
case(
    "torch_ns/poisson_nll_loss_all_positional",
    """
    x = torch.tensor([[0.5, -1.], [2., 0.]], requires_grad=True)
    t = torch.tensor([[0.1, 0.2], [0.3, 0.4]])
    print(torch.poisson_nll_loss(x, t, True, False, 1e-8, 0))
    print(torch.poisson_nll_loss(x, t, True, True, 1e-8, 1))
    print(torch.poisson_nll_loss(x.exp(), t, False, False, 1e-8, 2))
    torch.poisson_nll_loss(x, t, True)
""",
)
case(
    "torch_ns/embedding_weight_first",
    """
    w = torch.tensor([[1., 2.], [3., 4.], [5., 6.]], requires_grad=True)
    i = torch.tensor([0, 2, 2, 1])
    y = torch.embedding(w, i)
    print(y)
    y.sum().backward()
    print(w.grad)
    w.grad = None
    torch.embedding(w, i, 2).sum().backward()
    print(w.grad)
    w.grad = None
    torch.embedding(w, i, -2).sum().backward()
    print(w.grad)
    print(F.embedding(i, w, -2))
    try:
        torch.embedding(w, i, padding_idx=0.5)
    except TypeError as e:
        print(e)
    try:
        torch.embedding(i, w)
    except RuntimeError as e:
        print(e)
    torch.embedding(w)
""",
)


# ---------------------------------------------------------------------------
# max_pool2d of an unbatched (C, H, W) input is one MaxPool2DWithIndicesBackward0
# node, as PyTorch's kernel takes it whole (not an unsqueeze, a pool and a squeeze)
# ---------------------------------------------------------------------------

case(
    "max_pool2d/unbatched_one_node",
    """
    x = torch.tensor([[[0.5, -1., 2., 3.], [1., 4., -2., 0.], [2., 2., 1., -1.]],
                      [[1., 0., 3., 3.], [-1., -4., 2., 0.5], [0., 2., 7., 1.]]],
                     requires_grad=True)
    y = F.max_pool2d(x, 2)
    print(y)
    y.sum().backward()
    print(x.grad)
    y = torch.max_pool2d(x, 3, 1, 1)
    print(y)
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    print(g.detach())
    x.grad = None
    g.sum().backward()
    print(x.grad)
    print(torch.nn.MaxPool2d(2, 1)(x))
    print(F.max_pool2d(x[None], 2, 1, ceil_mode=True))
    print(F.max_pool2d(x.float(), 2, 1, 1))
""",
)


# ---------------------------------------------------------------------------
# clone keeps its input's layout (memory_format=torch.preserve_format), so a view
# of a transposed clone fails as torch's does; contiguous() and reshape's copy are
# contiguous; a leaf's .grad takes the leaf's strides when the leaf is dense
# ---------------------------------------------------------------------------

case(
    "layout/clone_of_transpose_keeps_strides",
    """
    import torch
    a = torch.arange(6.).reshape(2, 3).requires_grad_()
    b = a.T.clone()
    print(b.is_contiguous(), b.stride(), b.grad_fn)
    try:
        b.view(-1)
    except RuntimeError as e:
        print(e)
    r = b.reshape(-1)
    print(r, r.grad_fn, r.grad_fn.next_functions)
    print(r.grad_fn.next_functions[0][0].next_functions)
    (r * torch.arange(6.)).sum().backward()
    print(a.grad, a.grad.stride(), a.grad.view(-1))
    """,
)
case(
    "layout/clone_memory_format",
    """
    import torch
    a = torch.arange(6.).reshape(2, 3).requires_grad_()
    c = a.T.clone(memory_format=torch.contiguous_format)
    print(c.is_contiguous(), c.stride(), c.view(-1))
    p = torch.clone(a.T, memory_format=torch.preserve_format)
    print(p.stride(), p.T.view(-1), p.grad_fn)
    print(torch.contiguous_format, torch.preserve_format)
    print(a.T.contiguous().stride(), a.T.clone().contiguous().stride(), a.T.clone().contiguous().grad_fn)
    try:
        a.clone(memory_format=3)
    except TypeError as e:
        print(e)
    (p * torch.arange(6.).reshape(3, 2) + c).sum().backward()
    print(a.grad, a.grad.stride())
    """,
)
case(
    "layout/clone_of_non_dense_input",
    """
    import torch
    x = torch.arange(24.).reshape(2, 3, 4)
    print(x.permute(1, 2, 0).clone().stride(), x[:, :1].transpose(1, 2).clone().stride())
    print(x[:, :, 1].clone().stride(), x.transpose(0, 1)[::2].clone().stride())
    print(x.permute(2, 0, 1)[1:].clone().stride(), x[:, :, ::2].transpose(0, 2).clone().stride())
    print(x.unsqueeze(0).expand(2, 2, 3, 4).clone().stride(), x.stride(1), x.stride(-1))
    z = torch.zeros(3, 1, 2).transpose(0, 2)
    print(z.stride(), z.clone().stride(), z.contiguous().stride())
    y = x.permute(2, 1, 0).clone()
    print(y.reshape(-1).grad_fn, y.permute(2, 1, 0).view(-1).shape, y.flatten().stride())
    print(x.mT.reshape(-1).stride(), x.mT.flatten().stride(), x.mT.ravel().stride())
    """,
)
case(
    "layout/leaf_grad_takes_the_leaf_strides",
    """
    import torch
    w = torch.arange(6.).reshape(3, 2).T.detach().requires_grad_()
    print(w.stride(), w.is_contiguous())
    (w * torch.arange(6.).reshape(2, 3)).sum().backward()
    print(w.grad, w.grad.stride())
    s = torch.arange(12.).reshape(3, 4)[:, ::2].requires_grad_()
    (s.T * 2).sum().backward()
    print(s.grad.stride(), s.grad.view(-1))
    v = torch.arange(6.).reshape(2, 3).requires_grad_()
    (v.T.clone() * 3).sum().backward()
    print(v.grad.stride(), v.grad.view(-1))
    """,
)
case(
    "reduce/logsumexp_dim_required",
    """
    x = torch.tensor([[0.5, -1., 2.], [1., 4., -2.]], requires_grad=True)
    print(torch.logsumexp(x, 1))
    print(x.logsumexp(0, True))
    print(torch.logsumexp(x, dim=(0, 1)))
    try:
        x.logsumexp()
    except TypeError as e:
        print(e)
    torch.logsumexp(x)
""",
)
case(
    "layout/contiguous_memory_format",
    """
    import torch
    x = torch.arange(6.).reshape(2, 3)
    print(x.T.contiguous(memory_format=torch.contiguous_format).stride())
    for bad in (3, None):
        try:
            x.T.contiguous(memory_format=bad)
        except TypeError as e:
            print(e)
    print(x.T.clone(memory_format=None).stride())
    x.T.contiguous(memory_format=torch.preserve_format)
    """,
)
case(
    "layout/cat_and_stack_are_contiguous",
    """
    import torch
    b = torch.tensor([[0.25, 1.0], [3.0, 1.5], [-1.25, -0.5]], requires_grad=True)
    t1 = b.permute(1, 0)
    t2 = torch.abs(t1)
    for t in [torch.stack([t1, t2], 0), torch.stack([t1, t2], 2), torch.cat([t1, t2], 1)]:
        print(t.is_contiguous(), t.stride())
    x = torch.arange(24.).reshape(1, 2, 3, 4)
    cl = x.permute(0, 3, 1, 2)
    for t in [torch.cat([cl, cl], 0), torch.cat([cl, cl], 1), torch.cat([x.permute(3, 2, 1, 0)] * 2, 0)]:
        print(t.is_contiguous(), t.stride())
    s = torch.stack([t1, t2], 0)
    (s.view(-1) * torch.arange(12.)).sum().backward()
    print(b.grad)
    """,
)
case(
    "layout/arithmetic_of_mixed_layouts",
    """
    import torch
    a = torch.arange(12.).reshape(2, 2, 3).requires_grad_()
    t2 = a.transpose(0, 1)
    b = torch.ones(2, 2, 3)
    for r in [t2 + b, b + t2, torch.add(t2, b, alpha=2), torch.sub(b, t2, alpha=2), t2 * b,
              b * t2, t2 / b, b / t2, t2 - b]:
        print(r.stride(), r.grad_fn)
    try:
        torch.add(t2, b, alpha=2).view(-1)
    except RuntimeError as e:
        print(e)
    (t2 * b).reshape(-1).sum().backward()
    print(a.grad)
    """,
)

case(
    "conv/float32_one_by_one_forward",
    """
    # a float32 1 x 1 convolution without padding runs oneDNN's jit_avx2_1x1 kernel: each
    # output a chain of fused multiply-adds over the input channels from the bias, a
    # chain of its own from zero for each later block of 128 channels (stride 1), added
    # to the output in turn
    torch.manual_seed(11)
    F = torch.nn.functional
    f32 = torch.float32
    for n, c, o, h, w, s, bias in [(4, 16, 8, 7, 7, 1, True), (3, 100, 5, 6, 5, 2, False),
                                    (2, 300, 6, 5, 4, 1, True), (5, 129, 3, 3, 9, 1, False),
                                    (2, 64, 9, 9, 8, 3, True)]:
        x = torch.randn(n, c, h, w, dtype=f32)
        wt = torch.randn(o, c, 1, 1, dtype=f32)
        b = torch.randn(o, dtype=f32) if bias else None
        y = F.conv2d(x, wt, b, stride=s)
        print(y.sum().item(), y[1, 2].flatten().tolist())
""",
)
