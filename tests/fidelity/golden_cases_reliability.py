"""Golden cases from an adversarial review (what it found): wrong values, wrong
words and accepted-but-invalid inputs, each recorded from real PyTorch 2.13.

Same rules and format as tests/fidelity/golden_cases.py (``case(name, src)``); recorded
into tests/golden/reliability.json by ``scripts/gen_golden.py cases`` (or only this
file with ``scripts/gen_golden.py cases --reliability``) and checked by tests/fidelity/test_reliability.py.
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
# 1. silent wrong values
# ---------------------------------------------------------------------------

case(
    "values/norm_minus_inf",
    """
    x = torch.tensor([2.0, 3.0, 2.0], requires_grad=True)
    y = torch.norm(x, p=-float("inf"))
    y
    y.backward()
    x.grad
""",
)
case(
    "values/norm_minus_inf_dim",
    """
    x = torch.tensor([[2.0, -3.0], [5.0, -4.0]], requires_grad=True)
    y = x.norm(p=-float("inf"), dim=1)
    y
    y.sum().backward()
    x.grad
""",
)
case(
    "values/norm_half_at_zero",
    """
    z = torch.tensor([0.0, 1.0], requires_grad=True)
    torch.norm(z, p=0.5).backward()
    z.grad
""",
)
case(
    "values/norm_minus_one_at_zero",
    """
    z = torch.tensor([0.0, 1.0], requires_grad=True)
    torch.norm(z, p=-1).backward()
    z.grad
""",
)
case(
    "values/norm_three_at_zero",
    """
    z = torch.tensor([0.0, 1.0, -2.0], requires_grad=True)
    torch.norm(z, p=3).backward()
    z.grad
""",
)
case(
    "values/std_constant",
    """
    a = torch.tensor([1.0, 1.0, 1.0], requires_grad=True)
    a.std().backward()
    a.grad
""",
)
case(
    "values/std_constant_row",
    """
    a = torch.tensor([[1.0, 1.0], [1.0, 2.0]], requires_grad=True)
    a.std(1).sum().backward()
    a.grad
""",
)
case(
    "values/max_nan",
    """
    m = torch.tensor([float("nan"), 1.0], requires_grad=True)
    m.max().backward()
    m.grad
""",
)
case(
    "values/min_two_nans",
    """
    m = torch.tensor([float("nan"), 1.0, float("nan")], requires_grad=True)
    torch.min(m).backward()
    m.grad
""",
)
case(
    "values/cross_entropy_all_ignored",
    """
    l = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = F.cross_entropy(l, torch.tensor([1, 1]), ignore_index=1)
    y
    y.backward()
    l.grad
""",
)
case(
    "values/cross_entropy_zero_weights",
    """
    l = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = F.cross_entropy(l, torch.tensor([1, 1]), weight=torch.tensor([1.0, 0.0]))
    y
    y.backward()
    l.grad
""",
)
case(
    "values/nll_all_ignored",
    """
    l = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = F.nll_loss(l, torch.tensor([0, 0]), ignore_index=0)
    y
    y.backward()
    l.grad
""",
)
case("values/permute_out_of_range", "torch.ones(2, 3).permute(5, 0)\n")
case("values/permute_negative_out_of_range", "torch.ones(2, 3).permute(0, -3)\n")
case("values/permute_duplicate", "torch.ones(2, 3).permute(0, 0)\n")
case("values/permute_too_few", "torch.ones(2, 3).permute(1)\n")
case(
    "values/sum_dim_empty_list",
    """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]], requires_grad=True)
    y = x.sum(dim=[])
    y
    y.backward()
    x.grad
""",
)
case("values/sum_empty_tuple", "torch.tensor([[1.0, 2.0], [3.0, 4.0]]).sum(())\n")
case("values/sum_empty_keepdim", "torch.tensor([[1.0, 2.0], [3.0, 4.0]]).sum((), keepdim=True)\n")
case(
    "values/mean_empty_dims",
    "torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True).mean(dim=[])\n",
)
case(
    "values/std_empty_dims",
    "torch.tensor([[1.0, 2.0], [3.0, 5.0]], requires_grad=True).std(dim=[])\n",
)
case("values/norm_empty_dims", "torch.tensor([[1.0, 2.0], [3.0, 5.0]]).norm(dim=())\n")
case("values/sum_dim_twice", "torch.ones(2, 3).sum((0, 0))\n")
case("values/mean_dim_twice_negative", "torch.ones(2, 3).mean((1, -1))\n")
case("values/norm_dim_twice", "torch.ones(2, 3).norm(dim=(0, 0))\n")
case(
    "values/contiguous_view",
    """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
    x.t().contiguous().view(4)
""",
)
case(
    "values/contiguous_grad",
    """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    y = x.t().contiguous()
    y
    y.view(4)
    (y.view(4) * torch.tensor([1.0, 2.0, 3.0, 4.0])).sum().backward()
    x.grad
""",
)
case(
    "values/grad_same_input_twice",
    """
    x = torch.tensor(1.0, requires_grad=True)
    torch.autograd.grad(x * 2, [x, x])
""",
)
case(
    "values/grad_same_input_twice_mixed",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    u = torch.tensor([3.0, 4.0], requires_grad=True)
    torch.autograd.grad((x * u).sum(), (x, u, x))
""",
)
case("values/legacy_tensor_empty", "torch.Tensor()\n")

# ---------------------------------------------------------------------------
# 5. PyTorch's words, not NumPy's or Python's
# ---------------------------------------------------------------------------

case("words/cat_zero_dim", "torch.cat([torch.tensor(1.0), torch.tensor(2.0)])\n")
case("words/cat_zero_dim_second", "torch.cat([torch.tensor([1.0]), torch.tensor(2.0)])\n")
case(
    "words/prod_backward_empty_dim",
    """
    x = torch.ones(2, 0, requires_grad=True)
    x.prod(1).sum().backward()
    x.grad
""",
)
case("words/full_string", "torch.full((2, 2), 'a')\n")
case(
    "words/data_changed_shape",
    """
    x = torch.ones(2, requires_grad=True)
    y = (x * x).sum()
    x.data = torch.ones(3)
    y.backward()
""",
)
case(
    "words/softmax_empty",
    """
    torch.softmax(torch.tensor([]), 0)
    torch.log_softmax(torch.tensor([]), 0)
""",
)
case("words/argmax_empty", "torch.argmax(torch.tensor([]))\n")
case("words/argmin_empty", "torch.argmin(torch.tensor([]))\n")
case("words/argmax_empty_dim", "torch.argmax(torch.ones(0, 2), 0)\n")
case("words/argmax_empty_other_dim", "torch.argmax(torch.ones(2, 0), 0)\n")
case("words/print_sep_int", "print(1, sep=1)\n")
case("words/print_end_int", "print(1, end=2)\n")
case(
    "words/self_referencing_list",
    """
    l = [1]
    l.append(l)
    print(l)
    l
""",
)
case(
    "words/cross_entropy_float_classes",
    "F.cross_entropy(torch.ones(2, 3), torch.tensor([1.0, 2.0]))\n",
)

# ---------------------------------------------------------------------------
# 6. accepted but invalid
# ---------------------------------------------------------------------------

case(
    "invalid/grad_is_self",
    """
    x = torch.ones(2, requires_grad=True)
    x.grad = x
""",
)
case(
    "invalid/data_int_on_float_leaf",
    """
    x = torch.ones(2, requires_grad=True)
    x.data = torch.tensor([1, 2])
""",
)
case(
    "invalid/grad_int_on_float_leaf",
    """
    x = torch.ones(2, requires_grad=True)
    x.grad = torch.tensor([1, 2])
""",
)
case(
    "invalid/grad_of_another_size",
    """
    x = torch.ones(3, requires_grad=True)
    x.grad = torch.ones(2, 3)
""",
)
case(
    "invalid/operands_no_tensor_operator_takes",
    """
    def attempt(f):
        try:
            print(f())
        except TypeError as e:
            print("TypeError:", e)
    t = torch.ones(2)
    attempt(lambda: t + "a")
    attempt(lambda: "a" + t)
    attempt(lambda: t - None)
    attempt(lambda: None * t)
    attempt(lambda: t * "a")
    attempt(lambda: t ** "a")
    attempt(lambda: t / {})
    attempt(lambda: t @ {1})
    attempt(lambda: t // None)
    attempt(lambda: t < "a")
    attempt(lambda: None >= t)
    attempt(lambda: (t == "a", t != None, None == t))
    def add_to(x, y):
        x += y
    def pow_to(x, y):
        x **= y
    attempt(lambda: add_to(t, "a"))
    attempt(lambda: pow_to(t, None))
    attempt(lambda: 1 < "a")
""",
)
case("invalid/bce_target_two", "F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([2.0]))\n")
case(
    "invalid/bce_target_negative",
    "F.binary_cross_entropy(torch.tensor([0.5]), torch.tensor([-0.5]))\n",
)
case(
    "invalid/nll_weight_length",
    "F.nll_loss(torch.ones(2, 3), torch.tensor([0, 1]), weight=torch.ones(2))\n",
)
case(
    "invalid/cross_entropy_weight_length",
    "F.cross_entropy(torch.ones(2, 3), torch.tensor([0, 1]), weight=torch.ones(4))\n",
)
case(
    "invalid/where_float_condition",
    "torch.where(torch.tensor([1.0, 0.0]), torch.ones(2), torch.zeros(2))\n",
)
case(
    "invalid/where_int_condition",
    "torch.where(torch.tensor([1, 0]), torch.ones(2), torch.zeros(2))\n",
)
case("words/manual_seed_overflow", "torch.manual_seed(2 ** 64)\n")
case("words/manual_seed_too_negative", "torch.manual_seed(-(2 ** 63) - 1)\n")

# ---------------------------------------------------------------------------
# found by comparing random programs with torch (scripts/diff_torch.py)
# ---------------------------------------------------------------------------


def cases(prefix, pairs):
    """One one-line case per (name, source) pair, named prefix + name."""
    for name, src in pairs:
        case(prefix + name, src + "\n")


case(
    "diff/signed_zero_selections",
    """
    x = torch.tensor([-0.0, 0.0, -1.0, 2.0])
    1 / x.clamp(min=0)
    1 / x.clamp(min=-0.0)
    1 / x.clamp(max=0)
    1 / x.clamp(0, 0)
    1 / x.relu()
    1 / torch.relu(x.float())
    1 / torch.maximum(x, torch.zeros(4))
    1 / torch.minimum(x, torch.zeros(4))
    1 / torch.maximum(torch.zeros(4), x)
    1 / torch.minimum(torch.zeros(4), x)
    1 / torch.maximum(torch.zeros(4), -x)
    x = torch.tensor([-0.0, 0.0, -1.0, 2.0], requires_grad=True)
    y = x.clamp(min=0)
    (y.sqrt()).sum().backward()
    x.grad
""",
)
cases(
    "diff/matmul_dtypes_",
    [
        ("dot", "torch.tensor([1, 2]) @ torch.tensor([1.0, 2.0])"),
        (
            "dot_fn",
            "torch.dot(torch.ones(3, dtype=torch.int32), torch.ones(3, dtype=torch.float16))",
        ),
        ("mv", "torch.ones(2, 3) @ torch.ones(3, dtype=torch.float32)"),
        ("mv_batched", "torch.ones(2, 2, 3) @ torch.ones(3, dtype=torch.int64)"),
        ("mm_long", "torch.ones(3, dtype=torch.int64) @ torch.ones(3, 2)"),
        ("mm_half", "torch.ones(2, 3) @ torch.ones(3, 2, dtype=torch.float16)"),
        ("bmm", "torch.ones(2, 2, 3) @ torch.ones(2, 3, 2, dtype=torch.int64)"),
    ],
)
case("diff/index_0d_int", "x = torch.tensor(5.0)\nx[None]\nx[...]\nx[0]\n")
case("diff/index_0d_slice", "torch.ones(3)[1][0:1]\n")
case(
    "diff/int_pow_negative_exponents",
    """
    a = torch.tensor([-3, -2, -1, 0, 1, 3])
    2 ** a
    (-1) ** a
    0 ** a
    True ** a
    a ** a
    torch.tensor([2, -1, 1, 0, -1, 2]) ** a
    torch.tensor([1, 2, 3], dtype=torch.uint8) ** torch.tensor([-1, 2, -2])
    torch.pow(-1, a)
    a.pow(torch.tensor(-1))
""",
)
cases(
    "diff/bool_sub_",
    [
        ("scalar_right", "torch.tensor(1) - True"),
        ("scalar_left", "True - torch.tensor([1.0])"),
        ("tensor", "torch.tensor([1.0]) - torch.tensor([True])"),
        ("method", "torch.tensor([1.0]).sub_(True)"),
        ("two", "True - torch.tensor([True])"),
    ],
)
case(
    "diff/reciprocal_grad_order",
    """
    torch.set_printoptions(precision=20)
    x = torch.tensor([0.25, -1.25, -2.0, 3.0, -0.7], requires_grad=True)
    y = (1 / x) * -x
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    g
    torch.autograd.grad(x.reciprocal(), x, torch.tensor([0.25, 1.25, 2.0, 0.1, 0.3]))
    torch.autograd.grad(g.sum(), x)
    torch.set_printoptions(precision=4)
""",
)
case(
    "diff/second_order_without_graph",
    """
    x = torch.tensor([0.8, 2.5, 2.7], requires_grad=True)
    t = torch.tensor([1.0, 2.0, -1.0], requires_grad=True)
    y = torch.softmax(x, 0).tanh()
    g, = torch.autograd.grad(y.sum(), x, create_graph=True)
    torch.autograd.grad(g.sum(), x)
    y = torch.softmax(x, 0)
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    torch.autograd.grad(g.sum(), x)
    y = torch.log_softmax(x, 0)
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    torch.autograd.grad(g.sum(), x)
    l = F.mse_loss(x * x, t, reduction='none')
    g, = torch.autograd.grad((l * l).sum(), x, create_graph=True, retain_graph=True)
    torch.autograd.grad(g.sum(), [x, t], retain_graph=True)
    g, gt = torch.autograd.grad((l * l).sum(), [x, t], create_graph=True)
    torch.autograd.grad((g * gt).sum(), [x, t])
    l = F.elu(x - 2)
    g, = torch.autograd.grad((l * l).sum(), x, create_graph=True, retain_graph=True)
    torch.autograd.grad(g.sum(), x)
""",
)
case(
    "diff/rsqrt_grad_order",
    """
    torch.set_printoptions(precision=17)
    w = torch.tensor([1.59, 0.58, 1.98, 0.7, 1.3])
    for dt in (torch.float64, torch.float32):
        x = torch.tensor([1.372919, 2.680528, 0.735104, 0.1, 2.08732], dtype=dt, requires_grad=True)
        y = w.to(dt) * x.rsqrt().rsqrt()
        y.sum().backward(retain_graph=True)
        print(x.grad)
        g, = torch.autograd.grad((y * w.to(dt)).sum(), x, create_graph=True)
        print(g)
        print(torch.autograd.grad(g.sum(), x))
    torch.set_printoptions(precision=4)
""",
)
case(
    "diff/relu_abs_grads_at_nan",
    """
    x = torch.tensor([float('nan'), -0.0, 0.0, 1.0, -2.0, float('inf')], requires_grad=True)
    w = torch.tensor([-1.5, -2.0, -3.0, 0.5, -0.5, 2.0])
    y = x.relu()
    (y * w).sum().backward(retain_graph=True)
    x.grad
    g, = torch.autograd.grad((y * w).sum(), x, create_graph=True)
    g
    g, = torch.autograd.grad((y * y * w).sum(), x, create_graph=True)
    torch.autograd.grad((g * w).sum(), x)
    x.grad = None
    x.abs().sum().backward()
    x.grad
    torch.sign(x)
    g, = torch.autograd.grad((x.abs() * w).sum(), x, create_graph=True)
    g
    x = torch.tensor([0.922405, -0.113, 2.516022], dtype=torch.float32, requires_grad=True)
    y = (x.log() * 0.1).relu()
    y.sum().backward()
    x.grad
""",
)
case(
    "diff/maximum_double_backward",
    """
    x = torch.tensor([-2.516, 2.13, -1.151226, 0.5], requires_grad=True)
    w = torch.tensor([1.18, 0.89, 0.79, 0.5], requires_grad=True)
    for f in (torch.maximum, torch.minimum):
        y = f(x, w) ** 3
        g, gw = torch.autograd.grad((y * w).sum(), [x, w], create_graph=True)
        print(g, gw)
        print(torch.autograd.grad((g * gw).sum(), [x, w]))
    y = torch.maximum(x, torch.tensor(0.5, requires_grad=True))
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    g
""",
)
case(
    "diff/softmax_second_derivative_bits",
    """
    torch.set_printoptions(precision=17)
    w = torch.tensor([1.47, 1.04, 1.62, 1.08, 0.73])
    for dt in (torch.float32, torch.float64):
        x = torch.tensor([1.59, 2.85, 2.4, 1.9, 1.75], dtype=dt, requires_grad=True)
        for f in (torch.softmax, torch.log_softmax):
            y = f(x.abs(), 0)
            g, = torch.autograd.grad((y * w.to(dt)).sum(), x, create_graph=True)
            print(g)
            print(torch.autograd.grad(g.sum(), x))
        x = torch.tensor([[0.8, 2.5, 2.713], [1.4603, -1.68, 0.3]], dtype=dt, requires_grad=True)
        y = torch.softmax(x, 1).tanh()
        g, = torch.autograd.grad(y.sum(), x, create_graph=True)
        print(torch.autograd.grad(g.sum(), x))
    torch.set_printoptions(precision=4)
""",
)
cases(
    "diff/ragged_list_",
    [
        ("dim1", "torch.tensor([[1, 2], [3]])"),
        ("dim2", "torch.tensor([[[1], [2]], [[3], [4, 5]]])"),
        ("empty_row", "torch.tensor([[1.0, 2.0], []])"),
        ("tuple_row", "torch.tensor([[1, 2], (3, 4, 5)])"),
        ("depth_first", "torch.tensor([[[1, 2], [3]], [[5, 6], [7, 8, 9]]])"),
    ],
)
case("diff/backward_checks_gradient_shape_first", "torch.tensor(1.0).backward(torch.ones(2))\n")
case(
    "diff/backward_names_the_element",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    torch.autograd.backward([x.sum(), torch.ones(2)], [None, torch.ones(2)])
""",
)
case(
    "diff/float16_sum",
    """
    x = torch.tensor([[0.1, 4.0, 3.0, -0.0, -1.25]], dtype=torch.float16, requires_grad=True)
    x.sum()
    x.mean()
    torch.tensor([60000.0, 60000.0, -60000.0], dtype=torch.float16).sum()
    torch.tensor([0.1] * 100, dtype=torch.float16).sum()
    torch.tensor([0.1] * 3000, dtype=torch.float16).sum()
    torch.tensor([0.1] * 3000, dtype=torch.float16).mean()
    x.sum().backward()
    x.grad
""",
)
cases(
    "diff/mask_shape_",
    [
        ("too_many", "torch.ones(3)[torch.ones(2, 3) > 0]"),
        ("first_dim", "torch.ones(1, 3)[torch.ones(2, 3) > 0]"),
        ("second_dim", "torch.ones(2, 2, 3)[torch.ones(2, 3) > 0]"),
        ("after_slice", "torch.ones(2, 3, 4)[1:, torch.ones(2, 3) > 0]"),
        ("after_int", "torch.ones(2, 3, 4)[None, 0, torch.ones(2) > 0]"),
        ("after_ellipsis", "torch.ones(2, 3, 4)[..., torch.ones(3) > 0]"),
        ("setitem", "v = torch.ones(3)\nv[torch.ones(2, 3) > 0] = 2.0"),
    ],
)
cases(
    "diff/write_into_expanded_",
    [
        ("method", "y = torch.ones(2, 3).expand(2, 2, 3)\ny.sqrt_()"),
        ("in_graph", "y = torch.ones(2, 3, requires_grad=True).abs().expand(2, 2, 3)\ny.sqrt_()"),
        (
            "setitem",
            "y = torch.ones(2, 3).expand(2, 2, 3)\ny[0] = 4.0\nw = y.permute(2, 1, 0)\nw[0][1] = 4.0",
        ),
    ],
)
case(
    "diff/views_regenerated_after_no_grad",
    """
    x = torch.tensor([[1., 2, 3], [4, 5, 6]], requires_grad=True)
    y = x * 2
    a = y[0]
    b = y.t()
    c = x[1]
    with torch.no_grad():
        y.add_(1)
    print(a.grad_fn, b.grad_fn, c.grad_fn, y.grad_fn)
    with torch.no_grad():
        x.mul_(1)
    print(a.grad_fn, b.grad_fn, c.grad_fn, y.grad_fn, x.grad_fn)
    (a * b.t()[1]).sum().backward()
    x.grad
    c.sum().backward()
    x.grad
    z = torch.zeros(3)
    zv = z[:2]
    with torch.no_grad():
        z.add_(1)
    print(zv.grad_fn)
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    v = x.unsqueeze(0)
    with torch.no_grad():
        v.mul_(2)
    v
    g, = torch.autograd.grad((v * v).sum(), x, create_graph=True)
    g
    torch.autograd.grad(g.sum(), x)
    y = x * 2
    w = y[1:]
    with torch.no_grad():
        y.add_(1)
    g, = torch.autograd.grad((w ** 3).sum(), x, create_graph=True)
    g
    torch.autograd.grad(g.sum(), x)
    w
    w.sum().backward()
    x.grad
""",
)
case(
    "diff/saved_only_what_is_used",
    """
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = x * 2
    z = 3 * x
    w = x / 4
    with torch.no_grad():
        x.mul_(1)
    y.sum().backward()
    z.sum().backward()
    w.sum().backward()
    x.grad
""",
)
case(
    "diff/products_save_only_what_is_used",
    """
    x = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    W = torch.tensor([[0.5, -1.0], [2.0, 0.25]])
    v = torch.tensor([1.0, -2.0])
    y1 = x @ W
    y2 = W @ x
    y3 = x @ v
    y4 = x[0] @ v
    y5 = x.unsqueeze(0) @ W
    with torch.no_grad():
        x.mul_(2)
    for y in (y1, y2, y3, y4, y5):
        y.sum().backward()
    x.grad
    p = torch.tensor([1.0, 2.0], requires_grad=True)
    q = torch.tensor([3.0, 4.0], requires_grad=True)
    r = p * q
    with torch.no_grad():
        p.add_(1)
    r.sum().backward()
""",
)
cases(
    "diff/expand_",
    [
        ("last_dim_first", "torch.ones(3, 2).expand(2, 2, 3)"),
        ("middle", "torch.ones(2, 3, 4).expand(3, 2, 4)"),
        ("float32_too_few", "torch.ones(3, 2, dtype=torch.float32).expand(2)"),
        ("bool_too_few", "torch.ones(3, 2, dtype=torch.bool).expand(2)"),
    ],
)
case(
    "diff/float_remainder_as_fmod",
    """
    torch.set_printoptions(precision=17)
    a = torch.tensor([5.3, -5.3, 1e10 + 0.3, -0.0, 0.7, 3.0, -7.25, 0.0, -1.0])
    b = torch.tensor([0.1, 0.1, 0.7, 1.0, -0.1, -1.5, 2.0, -3.0, 1.0])
    a % b
    a.float() % b.float()
    a % 0.1
    -0.0 % a[3:4]
    torch.remainder(a, 0.3)
    torch.remainder(torch.tensor(-0.0), True)
    x = a.clone().requires_grad_()
    y = x % b
    y.sum().backward()
    x.grad
    torch.set_printoptions(precision=4)
""",
)
case(
    "diff/maximum_in_result_dtype",
    """
    a = torch.tensor([0, 3, 3], dtype=torch.uint8)
    b = torch.tensor(-2, dtype=torch.int32)
    torch.min(a, b)
    torch.maximum(a, b)
    torch.minimum(b, a)
    torch.maximum(torch.tensor([1, 2]), torch.tensor([1.5, 0.5]))
    torch.maximum(torch.tensor([0.1, 2.0], dtype=torch.float32), torch.tensor(0.1))
""",
)
cases(
    "diff/bool_",
    [
        ("remainder", "torch.tensor([True]) % torch.tensor([True])"),
        ("rremainder", "True % torch.tensor([True, False])"),
        ("floor_divide", "torch.tensor([False]) // True"),
    ],
)
for _name, _view in [
    ("squeeze_nothing", "x.squeeze()"),
    ("squeeze_dim_nothing", "x.squeeze(0)"),
    ("expand_same_shape", "x.expand(2, 3)"),
    ("expand_leading_one", "x.expand(1, 2, 3)"),
]:
    case(
        "diff/inplace_through_" + _name,
        """
        x0 = torch.tensor([[-0.0, 4.0, -2.0], [-2.0, -1.25, 1.5]], requires_grad=True)
        x = x0.sin()
        v = %s
        v.relu_()
        x.grad_fn
        (x - 0.5).sum().backward()
        x0.grad
    """
        % _view,
    )
case(
    "diff/inplace_through_squeeze_of_leaf",
    """
    x = torch.tensor([[-0.0, 3.0, -2.0], [1.5, 2.0, 1.5]], requires_grad=True)
    v = x.squeeze()
    v[1] = v[0]
""",
)
case("diff/index_0d_other_int", "x = torch.tensor(5.0)\nx[-1]\n")
case("diff/setitem_0d_int", "x = torch.tensor([1.0, 2.0])\nx[0][1] = 4.0\n")
case(
    "diff/T_of_vectors_and_scalars",
    """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    x.T
    (x * 2).T
    s = torch.tensor(2.0, requires_grad=True)
    s.T
    y = torch.ones(2, 2, 3, requires_grad=True)
    y.T.shape
    (x.T * x.T).sum().backward()
    x.grad
    s.T.backward()
    s.grad
""",
)
case(
    "diff/int_scalars_wrapped",
    """
    torch.tensor(0, dtype=torch.uint8) + -1
    torch.tensor([0, 5], dtype=torch.uint8) % -1
    torch.tensor([0, 5], dtype=torch.uint8) * 300
    torch.tensor([0, 5], dtype=torch.uint8) - 256
    -1 + torch.tensor([3], dtype=torch.uint8)
    torch.tensor([3], dtype=torch.int32) + 2**40
    torch.tensor([3], dtype=torch.uint8) & -1
    torch.tensor([3], dtype=torch.uint8) > -1
    torch.tensor([3], dtype=torch.uint8) == 259
""",
)
cases(
    "diff/int_negative_power_",
    [("uint8", "torch.tensor([3], dtype=torch.uint8) ** -1"), ("int64", "torch.tensor([3]) ** -2")],
)
case(
    "diff/int8_dtype",
    """
    a = torch.tensor([1, -2, 100], dtype=torch.int8)
    a
    a.dtype
    b = torch.tensor([3, 200, 0], dtype=torch.uint8)
    a + b
    (a + b).dtype
    a + 100
    a * 2
    a + torch.tensor([1, 2, 3], dtype=torch.int32)
    a + 1.5
    a.sum()
    torch.ones(2, dtype=torch.int8) / 2
    -a
    a // 3
    a % 3
    torch.tensor([1.7, -2.9]).to(torch.int8)
    torch.tensor([1.7, -2.9]).char()
    torch.tensor([1.7, -2.9]).short()
    torch.arange(3, dtype=torch.int8)
    a.max()
    torch.tensor(5, dtype=torch.int8) + 2.5
    torch.tensor(5, dtype=torch.int8) * torch.tensor(3)
    torch.tensor(5, dtype=torch.int8) * torch.tensor([3], dtype=torch.uint8)
    torch.int16
    torch.short
    torch.tensor([1, 2], dtype=torch.int16)
    a.tolist()
    a[1].item()
    torch.tensor([1, 2], dtype=torch.int8, requires_grad=True)
""",
)
case(
    "diff/add_sub_alpha",
    """
    torch.set_printoptions(precision=17)
    x = torch.tensor([1.1, -2.3, 0.7, 3.9, -0.1, 2.2, 5.5, -1.7, 0.3, 0.9, 1.3], requires_grad=True)
    y = torch.tensor([0.3, 1.7, -2.9, 0.1, 4.4, -0.6, 2.1, 0.8, -3.3, 1.9, 0.2])
    torch.add(x, y, alpha=0.1)
    x.add(y, alpha=-1.3)
    torch.sub(x, y, alpha=0.7)
    x.sub(y, alpha=3)
    torch.add(x, 0.3, alpha=0.1)
    torch.sub(x, 1.7, alpha=0.3)
    torch.add(2, x, alpha=0.3)
    torch.sub(2, x)
    torch.sub(2, x, alpha=0.3)
    torch.add(input=x, other=y, alpha=2)
    xf = x.detach().float()
    torch.add(xf, y.float(), alpha=0.1)
    torch.add(xf, 0.3, alpha=0.1)
    torch.add(xf.reshape(1, 11).expand(3, 11) * 1, y.float().reshape(1, 11), alpha=1.7)
    torch.add(xf[:10].reshape(2, 5), torch.tensor([[0.3], [1.1]], dtype=torch.float32), alpha=0.7)
    big = torch.linspace(-3, 3, 37, dtype=torch.float32)
    torch.add(big, 0.3, alpha=0.1)
    torch.add(big.double(), 0.3, alpha=0.1)
    x.add(y, alpha=1.0)
    r = torch.sub(x, y.requires_grad_(), alpha=3)
    r.grad_fn.next_functions
    gx, gy = torch.autograd.grad(r.sum(), (x, y), create_graph=True)
    gx, gy
    z = torch.add(x, y, alpha=0.5)
    z.sum().backward()
    x.grad, y.grad
    w = torch.tensor([[1.0, 2.0], [3.0, 4.0]], requires_grad=True)
    b = torch.tensor([0.5, -1.5], requires_grad=True)
    torch.sub(w, b, alpha=0.25).sum().backward()
    w.grad, b.grad
    torch.add(torch.tensor([100], dtype=torch.int8), torch.tensor([100], dtype=torch.int8), alpha=2)
    torch.add(torch.tensor([1, 2]), torch.tensor([3, 4]), alpha=-2)
    torch.add(torch.tensor([True, False]), torch.tensor([True, True]), alpha=2)
    torch.add(torch.tensor([1]), 2.5, alpha=2)
    torch.add(x, y, alpha=torch.tensor(2.0))
    torch.add(x, y, alpha=float('inf'))
    v = torch.tensor([1.0, 2.0, 3.0])
    v.add_(torch.tensor([0.3, 0.7, 1.1]), alpha=0.1)
    v.sub_(0.3, alpha=0.7)
    v
    torch.set_printoptions(precision=4)
""",
)
cases(
    "diff/add_alpha_error_",
    [
        ("float_alpha_on_ints", "torch.add(torch.tensor([1, 2]), torch.tensor([1, 2]), alpha=2.5)"),
        ("bool_alpha", "torch.add(torch.ones(2), torch.ones(2), alpha=True)"),
        ("str_alpha", "torch.add(torch.ones(2), torch.ones(2), alpha='a')"),
        ("none_alpha", "torch.sub(torch.ones(2), torch.ones(2), alpha=None)"),
        ("int8_overflow", "torch.add(torch.tensor([1], dtype=torch.int8), 1, alpha=300)"),
        ("bool_sub", "torch.sub(torch.tensor([True]), torch.tensor([True]), alpha=2)"),
        ("unexpected", "torch.add(torch.ones(2), torch.ones(2), beta=2)"),
    ],
)
case(
    "diff/add_alpha_forward_ad",
    """
    fwAD = torch.autograd.forward_ad
    x = torch.tensor([1.0, 2.0, -0.5])
    y = torch.tensor([3.0, 4.0, 0.25])
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.tensor([1.0, 0.5, -2.0]))
        print(fwAD.unpack_dual(torch.add(d, y, alpha=3)).tangent)
        print(fwAD.unpack_dual(torch.sub(y, d, alpha=3)).tangent)
        print(fwAD.unpack_dual(torch.sub(d, y, alpha=0.1)).tangent)
        print(fwAD.unpack_dual(torch.add(d, d, alpha=0.1)).tangent)
""",
)
case(
    "diff/atan2_hypot_exp2",
    """
    torch.set_printoptions(precision=17)
    y = torch.tensor([1.25, -0.3, 0.0, -0.0, 2.5, -7.1], requires_grad=True)
    x = torch.tensor([0.5, -2.0, 0.0, -1.0, 1e-3, 3.3], requires_grad=True)
    a = torch.atan2(y, x)
    a
    y.atan2(x)
    torch.arctan2(y, x)
    h = torch.hypot(y, x)
    h
    e = torch.exp2(y)
    e
    x.exp2()
    gy, gx = torch.autograd.grad(a.sum(), (y, x), create_graph=True)
    gy, gx
    gy.grad_fn, gy.grad_fn.next_functions
    hy, hx = torch.autograd.grad(h.sum(), (y, x), create_graph=True)
    hy, hx
    hy.grad_fn, hy.grad_fn.next_functions
    (ey,) = torch.autograd.grad(e.sum(), y, create_graph=True)
    ey
    ey.grad_fn, ey.grad_fn.next_functions
    torch.autograd.grad(ey.sum(), y)
    yf, xf = y.detach().float(), x.detach().float()
    torch.atan2(yf, xf), torch.hypot(yf, xf), torch.exp2(yf)
    torch.atan2(yf, x.detach())
    torch.atan2(torch.tensor([1, -2]), torch.tensor([3, 4]))
    torch.exp2(torch.tensor([1, 2, -3])), torch.exp2(torch.tensor([True, False]))
    torch.atan2(torch.tensor([[1.0], [-2.0]]), torch.tensor([3.0, -4.0, 0.5]))
    torch.hypot(torch.tensor([3.0], dtype=torch.float32), torch.tensor([4, 5]))
    torch.exp2(torch.tensor([float('inf'), -float('inf'), float('nan'), 1024.0, -1075.0, 0.5]))
    torch.set_printoptions(precision=4)
    torch.autograd.grad(gy.sum(), (y, x))
""",
)
case(
    "diff/atan2_hypot_exp2_forward_ad",
    """
    fwAD = torch.autograd.forward_ad
    y = torch.tensor([1.25, -0.3, 2.5])
    x = torch.tensor([0.5, -2.0, 1e-3])
    with fwAD.dual_level():
        dy = fwAD.make_dual(y, torch.tensor([1.0, 0.5, -2.0]))
        dx = fwAD.make_dual(x, torch.tensor([0.25, -1.0, 3.0]))
        print(fwAD.unpack_dual(torch.atan2(dy, dx)).tangent)
        print(fwAD.unpack_dual(torch.atan2(dy, x)).tangent)
        print(fwAD.unpack_dual(torch.atan2(y, dx)).tangent)
        print(fwAD.unpack_dual(torch.hypot(dy, dx)).tangent)
        print(fwAD.unpack_dual(torch.hypot(y, dx)).tangent)
        print(fwAD.unpack_dual(torch.exp2(dy)).tangent)
""",
)
cases(
    "diff/tensor_only_",
    [
        ("atan2", "torch.atan2(torch.ones(2), 3)"),
        ("atan2_method", "torch.ones(2).atan2(3)"),
        ("hypot_first", "torch.hypot(2.0, torch.ones(2))"),
        ("hypot_long", "torch.hypot(torch.tensor([3, 4]), torch.tensor([4, 3]))"),
    ],
)
cases(
    "diff/tensor_only_",
    [
        ("maximum", "torch.maximum(torch.ones(2), 3)"),
        ("minimum", "torch.minimum(torch.ones(2), 2.5)"),
        ("maximum_method", "torch.ones(2).maximum(3)"),
        ("minimum_first", "torch.minimum(3, torch.ones(2))"),
        ("maximum_none", "torch.maximum(torch.ones(2), None)"),
        ("maximum_str", "torch.maximum(torch.ones(2), 'a')"),
        ("maximum_list", "torch.maximum(torch.ones(2), [1.0, 2.0])"),
        ("maximum_tuple", "torch.maximum(torch.ones(2), (1, 2))"),
        ("logical_and", "torch.logical_and(torch.ones(2), 3)"),
        ("logical_or_method", "torch.ones(2).logical_or(1.5)"),
        ("logical_xor_first", "torch.logical_xor(True, torch.ones(2))"),
        ("dot", "torch.dot(torch.ones(2), 3)"),
        ("dot_method", "torch.ones(2).dot(3)"),
        ("mv", "torch.mv(torch.ones(2, 2), 3)"),
        ("mm_method", "torch.ones(2, 2).mm(3)"),
        ("outer", "torch.outer(torch.ones(2), 3)"),
    ],
)
case(
    "diff/tensor_only_still_work",
    """
    x = torch.tensor([1.0, -2.0, 3.0])
    torch.maximum(x, torch.tensor(0.5))
    torch.minimum(x, torch.tensor([2.0, 2.0, 2.0]))
    x.maximum(torch.tensor(0))
    torch.logical_and(x, torch.tensor([True, False, True]))
    torch.dot(x, x), x.dot(x), torch.outer(x, x[:2])
    torch.mv(torch.ones(2, 3), x), torch.ones(2, 3).mm(torch.ones(3, 1))
""",
)
case(
    "diff/diagonal",
    """
    x = torch.arange(12.).reshape(3, 4).requires_grad_()
    x.diagonal()
    torch.diagonal(x, 1)
    x.diagonal(-1)
    x.diagonal(offset=2)
    x.diagonal(5)
    x.diagonal(-4)
    x.diagonal(0, 1, 0)
    x.diagonal(dim1=1, dim2=0)
    torch.ones(2, 3, 4).diagonal(1, 0, 2)
    torch.ones(2, 3, 4).diagonal(0, -1, -2).shape
    torch.diagonal(input=x, offset=1)
    y = x.diagonal(1)
    y.sum().backward()
    x.grad
    g, = torch.autograd.grad((x.diagonal(-1) ** 2).sum(), x, create_graph=True)
    g
    g.grad_fn
    g.grad_fn.next_functions
    h, = torch.autograd.grad((g * torch.arange(12.).reshape(3, 4)).sum(), x)
    h
    z = x.detach().clone()
    z.diagonal().zero_()
    z
    z._version
    w = torch.ones(3, 3, requires_grad=True) * 2
    w.diagonal().mul_(5)
    w
    w.grad_fn
    d = w.diagonal(1)
    w.diagonal(1).add_(1)
    d
    d.grad_fn
    w.sum().backward()
    v = torch.arange(6.).reshape(2, 3)
    dv = v.diagonal()
    v.add_(1)
    dv
    dv._version
    fwAD = torch.autograd.forward_ad
    with fwAD.dual_level():
        p = fwAD.make_dual(torch.ones(2, 3), torch.arange(6.).reshape(2, 3))
        print(fwAD.unpack_dual(p.diagonal(1)).tangent)
""",
)
cases(
    "diff/diagonal_error_",
    [
        ("same_dims", "torch.ones(2, 3).diagonal(0, 0, 0)"),
        ("same_dims_negative", "torch.ones(2, 3).diagonal(0, 0, -2)"),
        ("dim_range", "torch.ones(2, 3).diagonal(0, 0, 2)"),
        ("vector", "torch.ones(3).diagonal()"),
        ("scalar", "torch.tensor(3.0).diagonal()"),
        ("float_offset", "torch.diagonal(torch.ones(2, 2), 1.5)"),
        ("not_tensor", "torch.diagonal(3)"),
        ("leaf_view_inplace", "x = torch.ones(2, 2, requires_grad=True)\nx.diagonal().zero_()"),
    ],
)
cases(
    "diff/missing_argument_",
    [
        ("python_pow", "pow(torch.ones(2))"),
        ("python_pow_none", "pow()"),
        ("torch_pow", "torch.pow(torch.ones(2))"),
        ("pow_method", "torch.ones(2).pow()"),
        ("mul", "torch.mul(torch.ones(2))"),
        ("mul_method", "torch.ones(2).mul()"),
        ("mul_none", "torch.mul()"),
        ("mul_alias", "f = torch.mul\nf(torch.ones(2))"),
        ("add", "torch.add(torch.ones(2))"),
        ("add_method", "torch.ones(2).add()"),
        ("sub_method", "torch.ones(2).sub()"),
        ("div", "torch.div(torch.ones(2))"),
        ("eq_method", "torch.ones(2).eq()"),
        ("maximum", "torch.maximum(torch.ones(2))"),
        ("atan2_method", "torch.ones(2).atan2()"),
        ("transpose", "torch.ones(2, 2).transpose()"),
        ("select", "torch.select(torch.ones(2, 2))"),
        ("mm", "torch.mm(torch.ones(2, 2))"),
        ("mm_method", "torch.ones(2, 2).mm()"),
        ("dot", "torch.dot(torch.ones(2))"),
        ("unsqueeze", "torch.ones(2).unsqueeze()"),
        ("user_function", "def pow(a):\n    return a\npow()"),
    ],
)
case(
    "diff/scalar_bool_index",
    """
    x = torch.tensor([1., 2.], requires_grad=True)
    r = x[True]
    r
    r.grad_fn
    r.grad_fn.next_functions
    r.sum().backward()
    x.grad
    x[False]
    x[False].sum()
    m = torch.arange(6.).reshape(2, 3)
    m[True]
    m[False]
    m[True, 0]
    m[0, True]
    m[True, True]
    m[..., True]
    m[True, None]
    m[False, 1]
    m[1, True, 1]
    m[True, [0, 1]]
    m[True, 1:]
    m[0, :, True]
    m[[0, 1], True, [0, 1]]
    m[[[0], [1]], True, [0, 1, 2]]
    torch.tensor(3.)[True]
    torch.tensor(3.)[False]
    m[torch.tensor(True)]
    m[torch.tensor(False)]
    torch.ones(2)[True, ..., False].shape
    torch.ones(2, 3)[True, [0, 1], [1, 2]]
    m[True]._version
    y = torch.tensor([1., 2.])
    y[True] = 5.0
    y
    y[False] = 7.0
    y
    m[True, 0] = -1.0
    m
    m[0, True] = 9.0
    m
    m[True] += 1
    m
    z = torch.tensor([1., 2.], requires_grad=True) * 1
    z[True] = 3.0
    z
    torch.ones(2)[True, True, True, 0, 0]
""",
)
case(
    "diff/overlap_detached_expand",
    """
    x = torch.ones(2)
    e = x.expand(3, 2).detach()
    e.zero_()
    x
    e.fill_(2.0)
    x
    e.add_(1)
""",
)
case(
    "diff/overlap_isub",
    """
    x = torch.tensor([1.0, 2.0, 3.0])
    v = x.expand(2, 3)
    v -= torch.ones(2, 3)
""",
)
case(
    "diff/overlap_expand_fill_zero",
    """
    x = torch.tensor([1.0, 2.0, 3.0])
    v = x.expand(2, 3)
    v.zero_()
    x
    v.fill_(4.0)
    x
    v.exp_()
""",
)
case(
    "diff/overlap_in_graph",
    """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    v = y.expand(2, 3)
    v.zero_()
    z = x * 3
    w = z.expand(2, 3)
    w.fill_(5.0)
    u = x * 4
    u.unsqueeze(0).expand(2, 3).fill_(torch.tensor(1.5))
    u
    (z + u).sum().backward()
    x.grad
    v.mul_(2)
""",
)
case(
    "diff/overlap_isub_detached",
    """
    x = torch.tensor([1.0, 2.0, 3.0])
    v = x.unsqueeze(0).expand(2, 3).detach()
    v -= torch.ones(3)
""",
)
case(
    "diff/overlap_copy",
    """
    x = torch.tensor([1.0, 2.0, 3.0])
    v = x.expand(2, 3).detach()
    v.copy_(torch.ones(2, 3))
""",
)
case(
    "diff/overlap_setitem",
    """
    x = torch.tensor([1.0, 2.0, 3.0])
    v = x.expand(2, 3).detach()
    v[0] = 5.0
    x
    v[:, 1] = 7.0
""",
)
case(
    "diff/overlap_view_of_view",
    """
    x = torch.tensor([1.0, 2.0, 3.0])
    v = x.expand(2, 3).detach()
    w = v[0]
    w.add_(1)
    x
    v.t().mul_(2)
""",
)
case(
    "diff/overlap_masked_fill_index_put",
    """
    x = torch.ones(3)
    x.expand(2, 3).masked_fill_(torch.tensor([[True, False, True], [False, False, False]]), 2.0)
    x
    x.expand(2, 3)[torch.tensor([0])] = 5.0
    x
    x.expand(2, 3).clamp_(min=0)
""",
)
case(
    "diff/overlap_zero_backward",
    """
    x = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    y = x * 2
    v = y.expand(2, 3)
    v.zero_()
    y
    y.grad_fn
    (y * torch.tensor([1.0, 2.0, 3.0])).sum().backward()
""",
)
case(
    "diff/slice_backward_keeps_negative_zero",
    """
    x = torch.tensor([[-0.0, 0.5, 0.25], [-2.0, 0.0, 1.5]], requires_grad=True)
    y = x.sin()
    v = y.t()
    w = v[::2]
    (w * w).sum().backward()
    x.grad
    a = torch.tensor([-0.0, 1.0, -0.0], requires_grad=True)
    (a[1:] * a[1:]).sum().backward()
    a.grad
    b = torch.tensor([[-0.0, 2.0], [1.0, -0.0]], requires_grad=True)
    (b[0] * b[0]).sum().backward()
    b.grad
    c = torch.tensor([-0.0, 3.0], requires_grad=True)
    g, = torch.autograd.grad((c[0:1] ** 2).sum(), c, create_graph=True)
    g.detach()
    d = torch.tensor([1.0, -0.0, 2.0], requires_grad=True)
    (d[[1, 1, 2]] * d[[1, 1, 2]]).sum().backward()
    d.grad
""",
)
cases(
    "diff/partial_overlap_",
    [
        ("view", "x = torch.ones(2, 3)\nx.add_(x.view(6))"),
        ("transpose", "x = torch.ones(3, 3)\nx.add_(x.t())"),
        ("copy_transpose", "x = torch.ones(3, 3)\nx.copy_(x.t())"),
        ("shifted", "x = torch.ones(4)\nx[1:].add_(x[:3])"),
        ("copy_shifted", "x = torch.ones(4)\nx[1:].copy_(x[:3])"),
        ("mul_shifted", "x = torch.arange(4.)\nx[1:].mul_(x[:3])"),
        ("isub_shifted", "x = torch.ones(4)\ny = x[1:]\ny -= x[:3]"),
        ("clamp_min_tensor", "x = torch.ones(4)\nx[1:].clamp_(min=x[:3])"),
        ("mul_row", "x = torch.ones(2, 2)\nx.mul_(x[0])"),
        ("detached_view", "x = torch.ones(2, 3)\nx.add_(x.detach().view(6))"),
        (
            "flatten_in_graph",
            "x = torch.tensor([[2.0, -1.25, -2.0], [0.0, 3.0, 3.0]], requires_grad=True)\ny = x.log()\nw = y.flatten().squeeze()\nw.add_(y, alpha=2)",
        ),
        (
            "permute_detached",
            "x = torch.tensor([[-2.0, -0.0, -0.0], [3.0, -1.25, -1.25]], requires_grad=True)\ny = x ** 2\nw = y.detach().permute(1, 0)\nw -= y",
        ),
    ],
)
case(
    "diff/partial_overlap_allowed",
    """
    x = torch.ones(2, 3)
    x.add_(x)
    x
    x = torch.ones(2, 3)
    x.view(6).add_(x.view(6))
    x
    x = torch.ones(4)
    x[:2].add_(x[2:])
    x
    x = torch.ones(4)
    x[::2].add_(x[1::2])
    x
    x = torch.ones(4)
    x[1:].masked_fill_(x[:3] > 0, 2.0)
    x
    x = torch.ones(2, 2)
    x.add_(x.detach())
    x
""",
)
case(
    "diff/exp2_blocks",
    """
    torch.set_printoptions(precision=17)
    x = torch.linspace(-30, 30, 41)
    torch.exp2(x * 1.37)
    torch.exp2(x.float() * 1.37)
    torch.exp2((x * 1.37).reshape(41, 1).expand(41, 2).t())
    torch.exp2(torch.tensor([float('nan'), float('inf'), -float('inf'), 1024.0, 1023.5, -1074.5, -2001.0, 0.5, -0.5, 2.5, 127.9, -149.5, 3.3, 7.7, -9.1, 0.1, 0.2]))
    torch.exp2(torch.tensor([float('nan'), float('inf'), -float('inf'), 128.0, 127.5, -149.5, -150.5, 0.5, -0.5, 2.5, 127.9, -149.5, 3.3, 7.7, -9.1, 0.1, 0.2]).float())
    torch.set_printoptions(precision=4)
""",
)
case(
    "diff/hypot_blocks",
    """
    torch.set_printoptions(precision=17)
    x = torch.linspace(-30, 30, 41) * 1.37
    y = torch.linspace(5, -7, 41) ** 3
    torch.hypot(x, y)
    torch.hypot(x.float(), y.float())
    torch.hypot(x.reshape(41, 1).expand(41, 2).t(), torch.tensor(2.5))
    torch.hypot(x * 1e-300, y * 1e-300)
    torch.hypot(x * 1e300, y * 1e300)
    torch.hypot(x * 1e-310, y * 1e-310)
    torch.hypot(torch.tensor([float('nan'), float('inf'), -float('inf'), 0.0, -0.0, 3.0, 1e-310, 1e308, 5.0, 2.0, 0.0, 8.0, 3.3, 7.7, -9.1, 0.1, 0.2]), torch.tensor([float('inf'), float('nan'), 1.0, 0.0, 0.0, 4.0, 1e-310, 1e308, 0.0, -0.0, 7.0, -6.0, 1.1, 2.2, 3.3, 4.4, 5.5]))
    torch.set_printoptions(precision=4)
""",
)
case(
    "diff/add_alpha_range_ends",
    """
    torch.set_printoptions(precision=17)
    a = torch.linspace(-3, 3, 19) * 1e-310
    b = torch.linspace(2, -1, 19)
    torch.add(a, b, alpha=1.3e-310)
    torch.sub(a * 1e618, b * 1e300, alpha=1e8)
    torch.set_printoptions(precision=4)
""",
)
case(
    "diff/atan2_blocks",
    """
    torch.set_printoptions(precision=17)
    y = torch.linspace(-30, 30, 41) * 1.37
    x = torch.linspace(5, -7, 41) ** 3
    torch.atan2(y, x)
    torch.atan2(y.float(), x.float())
    torch.atan2(y.reshape(41, 1).expand(41, 2).t(), torch.tensor(-2.5))
    torch.atan2(y * 1e-300, x)
    torch.atan2(y * 1e300, x * 1e-10)
    torch.atan2(y * 1e-310, x * 1e-310)
    torch.atan2(torch.tensor([float('nan'), float('inf'), -float('inf'), 0.0, -0.0, 3.0, 1e-310, 1e308, 5.0, 2.0, 0.0, -0.0, float('inf'), -float('inf'), -9.1, 0.1, 0.2]), torch.tensor([float('inf'), float('nan'), 1.0, 0.0, -0.0, -4.0, 1e-310, -1e308, 0.0, -0.0, -7.0, -6.0, float('inf'), -float('inf'), 3.3, -4.4, 5.5]))
    torch.set_printoptions(precision=4)
""",
)
case(
    "diff/flatten_copies",
    """
    x = torch.ones(2, 3, requires_grad=True)
    y = x * 1
    y.t().flatten()
    y.t().flatten(0, 1)
    y.expand(2, 2, 3).flatten()
    y.expand(2, 2, 3).flatten(1)
    y.expand(2, 2, 3).flatten(0, 1)
    y.flatten()
    y.flatten(0, 0)
    w = y.t().flatten()
    w.mul_(3)
    y
    (w * w).sum().backward()
    x.grad
""",
)
case(
    "diff/add_alpha_signed_zeros",
    """
    v = torch.tensor([-0.0, 0.0, -0.0, 0.0, -0.0])
    y = torch.tensor([-0.0, -0.0, 0.0, 0.0, 1e-300])
    v.add(y, alpha=2)
    torch.sub(v, y, alpha=2)
    v.add(-0.0, alpha=3)
    v.clone().add_(y, alpha=-1)
    v.float().add(y.float(), alpha=2)
    torch.add(v.reshape(5, 1).expand(5, 9), y.reshape(5, 1), alpha=0.5)
""",
)
case(
    "diff/add_alpha_broadcast_error",
    """
    torch.ones(2, 3).add(torch.ones(2), alpha=2)
""",
)
case(
    "diff/sub_alpha_broadcast_error",
    """
    torch.sub(torch.ones(4, 1), torch.ones(2, 3), alpha=0.5)
""",
)
case(
    "diff/bool_dot",
    """
    b = torch.tensor([True, False])
    torch.outer(b, b)
    b @ b
""",
)
case(
    "diff/bool_mv",
    """
    torch.ones(2, 2, 2, dtype=torch.bool) @ torch.tensor([True, False])
""",
)
case(
    "diff/bool_mm",
    """
    torch.ones(2, 2, 2, dtype=torch.bool) @ torch.ones(2, 2, dtype=torch.bool)
""",
)
case(
    "diff/bool_bmm",
    """
    torch.tensor([True, False]) @ torch.ones(2, 2, 2, dtype=torch.bool)
""",
)
case(
    "diff/div_jvp_order",
    """
    import torch.autograd.forward_ad as fwAD
    torch.set_printoptions(precision=17)
    p = torch.tensor([-1.25, 2.0, 0.0, 0.3, 1.7, -2.9, 1e-300])
    t = torch.tensor([-0.0, 2.0, -1.25, 0.7, 0.11, 3.3, 1e300])
    q = torch.tensor([0.6, -0.7, 3.1, 0.9, 2.3, 1e-10, 5.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(p, t)
        print(fwAD.unpack_dual(d / d).tangent)
        print(fwAD.unpack_dual(d / q).tangent)
        print(fwAD.unpack_dual(q / d).tangent)
        print(fwAD.unpack_dual(3 / d).tangent)
        print(fwAD.unpack_dual(d / 3).tangent)
        print(fwAD.unpack_dual(d.float() / q.float()).tangent)
        print(fwAD.unpack_dual(q.float() / d.float()).tangent)
        e = fwAD.make_dual(q, p.flip(0))
        print(fwAD.unpack_dual(e / d).tangent)
        print(fwAD.unpack_dual(torch.div(e, d)).tangent)
    torch.set_printoptions(precision=4)
""",
)
case(
    "diff/copy_view_of_leaf_first",
    """
    x = torch.ones(2, 3, requires_grad=True)
    with torch.no_grad():
        x[:, 1] = 0.0
    x
    x[:, 1].copy_(torch.ones_like(x))
""",
)
case(
    "diff/copy_leaf_first",
    """
    x = torch.ones(2, 3, requires_grad=True)
    x.copy_(torch.ones(3, 3))
""",
)
case(
    "diff/fill_leaf_first",
    """
    x = torch.ones(2, 3, requires_grad=True)
    x.fill_(torch.ones(2))
""",
)
case(
    "diff/fill_dims_error",
    """
    x = torch.ones(2, 3)
    x.fill_(torch.ones(2))
""",
)
case(
    "diff/printoptions_all",
    """
    torch.tensor([-0.0, 0.0])
    torch.set_printoptions(sci_mode=True)
    torch.tensor([1.5, 2.25])
    torch.tensor(0.5)
    torch.set_printoptions(sci_mode=False)
    torch.tensor([1e-10, 1e10])
    torch.set_printoptions(precision=2)
    torch.tensor([1.23456, 2.5])
    torch.set_printoptions(profile='default')
    torch.tensor([1.23456, 2.5])
    torch.set_printoptions(threshold=5)
    torch.arange(10.)
    torch.arange(100).reshape(10, 10)
    torch.set_printoptions(edgeitems=1)
    torch.arange(10.)
    torch.set_printoptions(profile='default')
    torch.set_printoptions(linewidth=20)
    torch.arange(10.)
    torch.set_printoptions(profile='full')
    torch.arange(1001.)[-3:]
    torch.set_printoptions(profile='short')
    torch.tensor([1.23456, 2.5])
    torch.arange(10.)
    torch.set_printoptions(profile='default')
    torch.set_printoptions(profile="default")
""",
)
case(
    "diff/printoptions_more",
    """
    torch.set_printoptions(sci_mode=True)
    torch.tensor([1., 2., 3.])
    torch.zeros(3)
    torch.tensor([1, 2])
    torch.tensor([0.5, float('nan'), float('inf')], requires_grad=True)
    torch.tensor([0.5, 2.0], dtype=torch.float16)
    torch.set_printoptions(sci_mode=False, precision=3)
    torch.tensor([1e20, 1.0])
    torch.tensor([1e-8, 1.0, float('-inf')])
    torch.tensor([1e20, 1.5])
    torch.set_printoptions(threshold=10, edgeitems=2)
    torch.arange(24.).reshape(2, 3, 4)
    torch.arange(60.).reshape(3, 4, 5) * 1.5
    torch.arange(11) * torch.tensor(2.0, requires_grad=True)
    torch.set_printoptions(threshold=float('inf'))
    torch.arange(1200.)[-4:]
    torch.arange(1200).reshape(40, 30).sum(1)
    torch.set_printoptions(profile='short', linewidth=40)
    torch.linspace(0, 1, 17, requires_grad=True)
    torch.set_printoptions()
    torch.linspace(0, 1, 17)
    torch.set_printoptions(linewidth=120, precision=6)
    torch.linspace(0, 1, 17)
    torch.set_printoptions(profile='default')
    torch.linspace(0, 1, 1500)
    torch.set_printoptions(edgeitems=1, threshold=0)
    torch.tensor(3.5)
    torch.tensor([[1., 2.], [3., 4.]])
    torch.set_printoptions(profile="default")
""",
)
case(
    "diff/set_grad_enabled",
    """
    x = torch.ones(2, requires_grad=True)
    with torch.no_grad():
        with torch.enable_grad():
            y = x * 2
        z = x * 2
    y.requires_grad, z.requires_grad
    with torch.set_grad_enabled(False):
        w = x * 3
    w.requires_grad
    torch.set_grad_enabled(False)
    torch.is_grad_enabled()
    a = x + 1
    torch.set_grad_enabled(True)
    a.requires_grad
    torch.is_grad_enabled()
    @torch.no_grad()
    def f(t):
        return t * 2
    f(x).requires_grad
    d = x.detach()
    d.requires_grad_()
    d.requires_grad_(False)
    d.is_leaf
    e = (x * 2).detach().requires_grad_()
    e
    e.is_leaf
    x.detach().requires_grad
    @torch.set_grad_enabled(False)
    def f(t):
        return t * 2
    torch.is_grad_enabled()
    f(x).requires_grad
    torch.is_grad_enabled()
    with torch.no_grad():
        with torch.set_grad_enabled(True):
            y = x * 2
        torch.is_grad_enabled()
    y.requires_grad
    is_train = False
    with torch.set_grad_enabled(is_train):
        z = x * 2
    z
    g = torch.set_grad_enabled(False)
    g
    (x * 2).requires_grad
    torch.set_grad_enabled(True)
    (x * 2).requires_grad
""",
)
case(
    "diff/set_grad_enabled_bool",
    """
    torch.set_grad_enabled(1)
""",
)
case(
    "diff/mean_int_dtype_name",
    """
    torch.arange(3).mean()
""",
)
case(
    "diff/softmax_long_dtype_name",
    """
    torch.arange(3).softmax(0)
""",
)
case(
    "diff/norm_byte_dtype_name",
    """
    torch.tensor([1, 2], dtype=torch.uint8).norm()
""",
)
case(
    "diff/reduce_dtype_kwarg",
    """
    x = torch.tensor([[0.1, 0.2, 0.3], [1.7, 2.9, -3.3]], requires_grad=True)
    torch.set_printoptions(precision=10)
    x.sum(dtype=torch.float32)
    x.mean(dtype=torch.float32)
    x.sum(1, dtype=torch.float32)
    x.mean(0, dtype=torch.float32)
    torch.sum(x, dtype=torch.float32)
    torch.arange(5).sum(dtype=torch.float64)
    torch.arange(5).mean(dtype=torch.float64)
    torch.arange(5).sum(dtype=torch.int32)
    torch.tensor([True, True]).sum(dtype=torch.uint8)
    x.sum(dtype=torch.float32).backward()
    x.grad
    x.sum(dtype=torch.int64)
""",
)
case(
    "diff/mean_int_dtype_kwarg",
    """
    torch.ones(2, 3).mean(dtype=torch.int64)
""",
)
case(
    "diff/cat_empty_list",
    """
    torch.cat([], dim=1)
""",
)
case(
    "diff/stack_empty_list",
    """
    torch.stack(())
""",
)
case(
    "diff/norm_backward_orders",
    """
    torch.manual_seed(5)
    x = torch.randn(4, 9, dtype=torch.float32, requires_grad=True)
    for p in (2, 3.0, 1.5, 1, float('inf')):
        x.grad = None
        x.norm(p).backward()
        print(p, x.grad.tolist())
    for p in (2, 3.0, 1.5, 0.5):
        x.grad = None
        torch.norm(x, p, dim=0, keepdim=True).sum().backward()
        print(p, x.grad.tolist())
    z = torch.zeros(2, 3, dtype=torch.float32, requires_grad=True)
    for p in (2, 3.0, 1.5, 0.5):
        z.grad = None
        z.norm(p, dim=1).sum().backward()
        print(p, z.grad.tolist())
    w = torch.tensor([0.0, -1.5, 2.0, 0.0, 0.25], requires_grad=True)
    for p in (3.0, 1.5, 0.5):
        w.grad = None
        w.norm(p).backward()
        print(p, w.grad.tolist())
    y = torch.randn(6, dtype=torch.float32, requires_grad=True)
    g, = torch.autograd.grad((y / y.norm() * torch.randn(6)).sum(), y, create_graph=True)
    print(g.tolist(), g.dtype)
    g, = torch.autograd.grad((y * torch.randn(6)).sum(), y)
    print(g.dtype)
""",
)

# the backward engine's order (PyTorch's ready queue by sequence number; a leaf's gradients
# summed before they reach its .grad): random graphs of shared values, .grad accumulated
# over three passes (the third through a backward schedule)
case(
    "diff/engine_order_0",
    """
    torch.manual_seed(0)
    v0 = torch.randn((), dtype=torch.float32, requires_grad=True)
    v1 = torch.randn((), dtype=torch.float32, requires_grad=True)
    for it in range(3):
        v2 = (v0 - v0)
        v3 = (v1 + v2).tanh()
        v4 = (v1 + v0) * 0.5
        v5 = (v3 + v0)
        v6 = (v4 + v3).tanh()
        v7 = (v0 - v1).tanh()
        v8 = (v0 + v6).sin()
        v9 = (v0 + v8).exp()
        v10 = (v6 - v2)
        v11 = (v9 - v4).sin()
        v12 = (v1 - v9).sin()
        v13 = (v5 - v1)
        v14 = (v9 - v0).sin()
        (v12 + v13 + v14 + v0 + v1).sum().backward()
        print([v.grad.tolist() for v in (v0, v1,)])
""",
)
case(
    "diff/engine_order_5",
    """
    torch.manual_seed(5)
    v0 = torch.randn(5, dtype=torch.float64, requires_grad=True)
    for it in range(3):
        v1 = (v0 - v0).tanh()
        v2 = (v0 - v1).exp()
        v3 = (v2 - v0)
        v4 = (v3 * v1).sin()
        v5 = (v3 + v2) * 0.5
        v6 = (v3 - v3)
        v7 = (v5 + v1).sin()
        v8 = (v0 - v2) * 0.5
        (v6 + v7 + v8 + v0).sum().backward()
        print([v.grad.tolist() for v in (v0,)])
""",
)
case(
    "diff/engine_order_10",
    """
    torch.manual_seed(10)
    v0 = torch.randn((), dtype=torch.float32, requires_grad=True)
    for it in range(3):
        v1 = (v0 * v0) * 0.5
        v2 = (v0 * v1)
        v3 = (v1 + v0)
        v4 = (v1 + v3) * 0.5
        v5 = (v0 - v3) * 0.5
        v6 = (v4 - v3).exp()
        v7 = (v5 + v1).exp()
        v8 = (v3 * v2).exp()
        v9 = (v0 + v2)
        v10 = (v4 + v6)
        v11 = (v1 * v10).tanh()
        v12 = (v10 - v4).sin()
        v13 = (v11 + v4) * 0.5
        (v11 + v12 + v13 + v0).sum().backward()
        print([v.grad.tolist() for v in (v0,)])
""",
)
case(
    "diff/engine_order_15",
    """
    torch.manual_seed(15)
    v0 = torch.randn(5, dtype=torch.float32, requires_grad=True)
    v1 = torch.randn(5, dtype=torch.float32, requires_grad=True)
    v2 = torch.randn(5, dtype=torch.float32, requires_grad=True)
    for it in range(3):
        v3 = (v1 * v2).sin()
        v4 = (v2 + v3) * 0.5
        v5 = (v4 + v4)
        v6 = (v0 * v5) * 0.5
        v7 = (v4 + v6).exp()
        v8 = (v7 - v0).sin()
        v9 = (v2 * v7).exp()
        (v7 + v8 + v9 + v0 + v1 + v2).sum().backward()
        print([v.grad.tolist() for v in (v0, v1, v2,)])
""",
)
case(
    "diff/engine_order_20",
    """
    torch.manual_seed(20)
    v0 = torch.randn((), dtype=torch.float32, requires_grad=True)
    for it in range(3):
        v1 = (v0 + v0).exp()
        v2 = (v1 * v1) * 0.5
        v3 = (v0 + v0)
        v4 = (v2 * v0) * 0.5
        v5 = (v0 + v4) * 0.5
        v6 = (v2 * v2)
        (v4 + v5 + v6 + v0).sum().backward()
        print([v.grad.tolist() for v in (v0,)])
""",
)
case(
    "diff/engine_order_25",
    """
    torch.manual_seed(25)
    v0 = torch.randn(5, dtype=torch.float32, requires_grad=True)
    for it in range(3):
        v1 = (v0 * v0).tanh()
        v2 = (v0 - v1).exp()
        v3 = (v2 + v0).tanh()
        v4 = (v2 + v1).exp()
        v5 = (v2 + v1).sin()
        v6 = (v2 - v0).sin()
        v7 = (v6 * v0) * 0.5
        v8 = (v5 - v2).exp()
        v9 = (v1 + v3) * 0.5
        v10 = (v8 + v7) * 0.5
        v11 = (v1 - v6).tanh()
        v12 = (v2 - v10)
        (v10 + v11 + v12 + v0).sum().backward()
        print([v.grad.tolist() for v in (v0,)])
""",
)
case(
    "diff/engine_order_30",
    """
    torch.manual_seed(30)
    v0 = torch.randn((), dtype=torch.float64, requires_grad=True)
    v1 = torch.randn((), dtype=torch.float64, requires_grad=True)
    v2 = torch.randn((), dtype=torch.float64, requires_grad=True)
    for it in range(3):
        v3 = (v1 - v0)
        v4 = (v2 - v3).tanh()
        v5 = (v4 * v0).tanh()
        v6 = (v5 - v3).exp()
        v7 = (v2 * v3).tanh()
        (v5 + v6 + v7 + v0 + v1 + v2).sum().backward()
        print([v.grad.tolist() for v in (v0, v1, v2,)])
""",
)
case(
    "diff/engine_order_35",
    """
    torch.manual_seed(35)
    v0 = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    for it in range(3):
        v1 = (v0 * v0).tanh()
        v2 = (v0 + v0)
        v3 = (v0 + v0).tanh()
        v4 = (v1 + v2)
        v5 = (v0 + v0)
        v6 = (v5 - v0)
        (v4 + v5 + v6 + v0).sum().backward()
        print([v.grad.tolist() for v in (v0,)])
""",
)
case(
    "diff/engine_order_40",
    """
    torch.manual_seed(40)
    v0 = torch.randn((), dtype=torch.float32, requires_grad=True)
    v1 = torch.randn((), dtype=torch.float32, requires_grad=True)
    v2 = torch.randn((), dtype=torch.float32, requires_grad=True)
    for it in range(3):
        v3 = (v1 + v1)
        v4 = (v3 - v3).sin()
        v5 = (v4 * v2)
        v6 = (v1 - v2) * 0.5
        v7 = (v0 + v5) * 0.5
        v8 = (v6 - v3).tanh()
        (v6 + v7 + v8 + v0 + v1 + v2).sum().backward()
        print([v.grad.tolist() for v in (v0, v1, v2,)])
""",
)
case(
    "diff/engine_order_45",
    """
    torch.manual_seed(45)
    v0 = torch.randn(3, 4, dtype=torch.float32, requires_grad=True)
    v1 = torch.randn(3, 4, dtype=torch.float32, requires_grad=True)
    v2 = torch.randn(3, 4, dtype=torch.float32, requires_grad=True)
    for it in range(3):
        v3 = (v0 - v0).exp()
        v4 = (v2 - v0).sin()
        v5 = (v1 * v1).exp()
        (v3 + v4 + v5 + v0 + v1 + v2).sum().backward()
        print([v.grad.tolist() for v in (v0, v1, v2,)])
""",
)
case(
    "diff/engine_order_50",
    """
    torch.manual_seed(50)
    v0 = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    v1 = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    v2 = torch.randn(3, 4, dtype=torch.float64, requires_grad=True)
    for it in range(3):
        v3 = (v2 * v0) * 0.5
        v4 = (v0 - v0) * 0.5
        v5 = (v1 - v1)
        v6 = (v3 + v0)
        v7 = (v6 + v0)
        v8 = (v2 + v7).exp()
        v9 = (v3 - v7).sin()
        v10 = (v0 - v5).sin()
        v11 = (v1 - v4).tanh()
        v12 = (v11 * v7).exp()
        v13 = (v0 + v11)
        v14 = (v0 - v0).tanh()
        (v12 + v13 + v14 + v0 + v1 + v2).sum().backward()
        print([v.grad.tolist() for v in (v0, v1, v2,)])
""",
)
case(
    "diff/engine_order_55",
    """
    torch.manual_seed(55)
    v0 = torch.randn((), dtype=torch.float32, requires_grad=True)
    v1 = torch.randn((), dtype=torch.float32, requires_grad=True)
    for it in range(3):
        v2 = (v1 - v0).sin()
        v3 = (v0 * v0).exp()
        v4 = (v0 + v0).exp()
        v5 = (v4 + v3)
        v6 = (v1 + v2).sin()
        (v4 + v5 + v6 + v0 + v1).sum().backward()
        print([v.grad.tolist() for v in (v0, v1,)])
""",
)
case(
    "diff/engine_order_60",
    """
    torch.manual_seed(60)
    v0 = torch.randn((), dtype=torch.float64, requires_grad=True)
    for it in range(3):
        v1 = (v0 + v0).sin()
        v2 = (v0 - v0).sin()
        v3 = (v0 * v0).exp()
        v4 = (v0 + v0).sin()
        v5 = (v2 - v0).tanh()
        v6 = (v3 + v4) * 0.5
        v7 = (v0 + v2).sin()
        v8 = (v0 + v4) * 0.5
        v9 = (v7 * v8)
        v10 = (v1 * v1).sin()
        v11 = (v8 + v9).sin()
        (v9 + v10 + v11 + v0).sum().backward()
        print([v.grad.tolist() for v in (v0,)])
""",
)
case(
    "diff/engine_order_65",
    """
    torch.manual_seed(65)
    v0 = torch.randn(3, 4, dtype=torch.float32, requires_grad=True)
    v1 = torch.randn(3, 4, dtype=torch.float32, requires_grad=True)
    for it in range(3):
        v2 = (v1 - v1)
        v3 = (v2 - v0).sin()
        v4 = (v3 - v2).exp()
        v5 = (v1 - v1).tanh()
        v6 = (v2 + v4) * 0.5
        v7 = (v2 - v6).sin()
        v8 = (v6 + v1) * 0.5
        v9 = (v8 * v1) * 0.5
        v10 = (v9 * v2).exp()
        (v8 + v9 + v10 + v0 + v1).sum().backward()
        print([v.grad.tolist() for v in (v0, v1,)])
""",
)
case(
    "diff/engine_order_70",
    """
    torch.manual_seed(70)
    v0 = torch.randn(5, dtype=torch.float64, requires_grad=True)
    for it in range(3):
        v1 = (v0 + v0)
        v2 = (v0 * v0)
        v3 = (v1 * v1).tanh()
        v4 = (v2 + v3).sin()
        v5 = (v3 + v4) * 0.5
        v6 = (v2 - v3) * 0.5
        v7 = (v0 + v6)
        v8 = (v2 * v2) * 0.5
        v9 = (v2 * v0) * 0.5
        v10 = (v8 + v5).exp()
        v11 = (v8 * v6) * 0.5
        v12 = (v10 + v1) * 0.5
        (v10 + v11 + v12 + v0).sum().backward()
        print([v.grad.tolist() for v in (v0,)])
""",
)
case(
    "diff/engine_order_75",
    """
    torch.manual_seed(75)
    v0 = torch.randn(5, dtype=torch.float64, requires_grad=True)
    v1 = torch.randn(5, dtype=torch.float64, requires_grad=True)
    v2 = torch.randn(5, dtype=torch.float64, requires_grad=True)
    for it in range(3):
        v3 = (v0 + v2).tanh()
        v4 = (v2 + v1).sin()
        v5 = (v2 * v2)
        v6 = (v1 * v5).sin()
        v7 = (v1 - v5) * 0.5
        v8 = (v7 - v3).sin()
        v9 = (v0 - v8) * 0.5
        v10 = (v2 - v5).exp()
        v11 = (v2 - v2).tanh()
        v12 = (v3 - v5)
        v13 = (v8 + v6).sin()
        (v11 + v12 + v13 + v0 + v1 + v2).sum().backward()
        print([v.grad.tolist() for v in (v0, v1, v2,)])
""",
)
