"""Golden cases for what the wider programs of the differential test found
(tests/differential/widegen.py: more of the op table, Python numbers, casts, views,
in-place ops and grad modes), shrunk, each recorded from real PyTorch 2.13.

Same rules and format as tests/fidelity/golden_cases.py (``case(name, src)``); recorded into
tests/golden/differential_wide.json by ``scripts/gen_golden.py cases --differential`` and
checked by tests/fidelity/test_differential_cases.py.
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
# the gradient of a pad under create_graph: a node torch names (a constant pad's
# gradient is a constant pad), differentiable again in either mode of the engine
# ---------------------------------------------------------------------------

case(
    "pad/second_order_through_a_constant_pad",
    """
    a = torch.tensor([-1.25, 1.5, -2.5], dtype=torch.float32, requires_grad=True)
    t3 = torch.nn.functional.pad(a * a, (0, 2), value=-1.5)
    t4 = (t3 * t3).sum()
    t4.backward(create_graph=True)
    print(a.grad)
    h, = torch.autograd.grad(a.grad.sum(), a, retain_graph=True)
    print(h)
    gx, = torch.autograd.grad((t3 * t3).sum(), a, create_graph=True)
    print(gx)
    print(torch.autograd.grad((gx * gx).sum(), a))
    """,
)
case(
    "pad/gradient_names_of_each_mode",
    """
    for mode in ["constant", "reflect", "replicate"]:
        for pad, shape in [((2, 1), (1, 1, 3)), ((1, 1, 1, 0), (1, 1, 2, 3))]:
            x = torch.arange(1.0, 1.0 + torch.Size(shape).numel()).reshape(shape)
            x.requires_grad_()
            y = torch.nn.functional.pad(x, pad, mode=mode)
            g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
            print(mode, g)
            print(torch.autograd.grad((g * g).sum(), x))
    x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = torch.nn.functional.pad(x, (-1, 1))
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    print(g, torch.autograd.grad(g.sum(), x))
    """,
)

# ---------------------------------------------------------------------------
# ATen's compositions call at::norm (NormBackward1), not linalg_vector_norm
# ---------------------------------------------------------------------------

case(
    "norm/pairwise_distance_is_norm_backward1",
    """
    a = torch.tensor([[3.0, -0.75, -0.5], [0.5, 3.0, 1.75]], requires_grad=True)
    d = torch.nn.functional.pairwise_distance(a, a.flip(0))
    print(d)
    print(torch.nn.functional.pairwise_distance(a, a.flip(0), p=1.0, keepdim=True))
    print(torch.nn.functional.pairwise_distance(a[0], a[1]))
    print(a.norm(dim=1), torch.norm(a, 3, 0))
    d.asinh().sum().backward()
    print(a.grad)
    """,
)

# ---------------------------------------------------------------------------
# a saved input's source is the argument in its place: `x * x.detach()` shares one
# array between its operands, and the detached one is a constant to create_graph
# ---------------------------------------------------------------------------

case(
    "saved/detached_operand_sharing_the_array_is_a_constant",
    """
    a = torch.tensor([[0.25, -0.75], [-1.25, 0.25], [0.25, 3.0]], requires_grad=True)
    t1 = a.swapaxes(0, 1)
    t2 = t1 * t1.detach()
    t3 = t2.clone().detach().requires_grad_() * t2
    t4 = t3.sum()
    gx, = torch.autograd.grad(t4, a, create_graph=True)
    print(gx, gx.requires_grad)
    t4.backward(create_graph=True)
    print(a.grad)
    h, = torch.autograd.grad(a.grad.sum(), a, allow_unused=True)
    print(h)
    b = torch.tensor([1.5, -2.0], requires_grad=True)
    g, = torch.autograd.grad((b.detach() * b).sum(), b, create_graph=True)
    print(g, g.requires_grad)
    g, = torch.autograd.grad((b * b).sum(), b, create_graph=True)
    print(g)
    """,
)

# ---------------------------------------------------------------------------
# a 0-d tensor's dim: the ops that take dim 0 (or -1) of a scalar and those that
# refuse it, in PyTorch's words (no Python IndexError or ValueError)
# ---------------------------------------------------------------------------

case(
    "dims/zero_dim_tensor_dims",
    """
    x = torch.tensor(1.5, requires_grad=True)
    fs = [
        lambda: x.roll(-2, 0), lambda: x.roll(1, -1), lambda: x.roll(1), lambda: x.roll(3),
        lambda: x.roll(1, 1), lambda: x.squeeze(0), lambda: x.squeeze(-1),
        lambda: x.squeeze((0,)), lambda: x.squeeze(1), lambda: x.movedim(0, 0),
        lambda: x.movedim(-1, 0), lambda: x.movedim(1, 0), lambda: x.mT,
        lambda: x.chunk(1, 0), lambda: x.split(1, 0), lambda: x.split([1], 0),
        lambda: x.repeat_interleave(2, 0), lambda: x.repeat_interleave(2),
        lambda: x.index_add(0, torch.tensor([0]), torch.ones(1)),
        lambda: x.index_add(0, torch.tensor(0), torch.tensor(2.0)),
        lambda: x.stride(0), lambda: x.stride(-1),
        lambda: torch.take_along_dim(x, torch.tensor(0), 0), lambda: x.unique(dim=0),
    ]
    for i, f in enumerate(fs):
        try:
            print(i, f())
        except Exception as e:
            print(i, type(e).__name__, str(e).split("\\n")[0])
    y = x.roll(1)
    y.backward()
    print(x.grad)
    """,
)

# ---------------------------------------------------------------------------
# what a node saves is freed by a backward without retain_graph: index_fill's index,
# scatter's (of a value), masked_fill's mask (of a tensor value), embedding's indices
# ---------------------------------------------------------------------------

case(
    "freed/second_backward_through_index_and_mask_ops",
    """
    i = torch.tensor([0])
    fs = {
        "index_fill": lambda a: a.index_fill(0, i, 3.0),
        "index_fill_t": lambda a: a.index_fill(0, i, torch.tensor(3.0)),
        "index_fill_": lambda a: a.index_fill_(0, i, 3.0),
        "scatter": lambda a: a.scatter(0, torch.zeros(1, 2, dtype=torch.int64), 2.0),
        "scatter_src": lambda a: a.scatter(0, torch.zeros(1, 2, dtype=torch.int64), torch.ones(1, 2)),
        "masked_fill": lambda a: a.masked_fill(a > 0, 1.0),
        "masked_fill_t": lambda a: a.masked_fill(a > 0, torch.tensor(1.0)),
        "embedding": lambda a: torch.nn.functional.embedding(torch.tensor([1, 0]), a),
        "index_select": lambda a: a.index_select(0, i),
        "sum": lambda a: a.sum(),
    }
    for name, f in fs.items():
        a = torch.tensor([[1.0, -2.0], [0.5, 3.0]], requires_grad=True)
        out = f(a * 1).mean()
        out.backward(retain_graph=True)
        out.backward()
        try:
            out.backward()
            print(name, "third ok", a.grad)
        except RuntimeError as e:
            print(name, str(e)[:60], a.grad)
    """,
)

# ---------------------------------------------------------------------------
# deg2rad's and rad2deg's gradients are products by a Scalar (mul.Scalar)
# ---------------------------------------------------------------------------

case(
    "names/deg2rad_gradient_is_a_scalar_product",
    """
    a = torch.tensor([[-1.25, 0.5], [-0.5, 1.0]], dtype=torch.float32, requires_grad=True)
    w = torch.tensor([[0.3, 1.7], [2.9, -0.1]], dtype=torch.float32, requires_grad=True)
    for f in [torch.deg2rad, torch.rad2deg]:
        g, = torch.autograd.grad((f(a) * w).sum(), a, create_graph=True)
        print(g)
        print(torch.autograd.grad(g.sum(), w))
    """,
)

# ---------------------------------------------------------------------------
# an in-place op through a view of the view(-1) kind, its base's gradient arriving in
# another layout (a pad's, a transpose's): CopySlices lays it out as the base
# ---------------------------------------------------------------------------

case(
    "inplace/view_minus_one_write_with_a_gradient_of_another_layout",
    """
    a = torch.tensor([[-0.75, -2.5], [1.0, 0.5]], dtype=torch.float32, requires_grad=True)
    for f in [lambda t: torch.nn.functional.pad(t, (1, 0)), lambda t: t.t() * 2,
              lambda t: t.permute(1, 0).exp()]:
        t1 = a * 1.0
        t1.view(-1)[0] = a.sum()
        t2 = f(t1)
        (t2 * t2).sum().backward()
        print(a.grad)
        a.grad = None
    """,
)

# ---------------------------------------------------------------------------
# clamp with tensor bounds keeps a 0-d input 0-d
# ---------------------------------------------------------------------------

case(
    "shapes/clamp_of_a_scalar_by_tensor_bounds",
    """
    a = torch.tensor(1.75, requires_grad=True)
    t1 = torch.clamp(a, min=torch.tensor(-2.5))
    print(t1, torch.clamp(a, max=torch.tensor(0.5)), torch.clamp(a, torch.tensor(-1.0), torch.tensor(0.5)))
    print(torch.clamp(torch.tensor(1.75), min=torch.tensor([-2.5, 3.0])))
    t1.square().backward()
    print(a.grad)
    """,
)

# ---------------------------------------------------------------------------
# a tensor index into an empty dim: ATen's index kernel's own words
# ---------------------------------------------------------------------------

case(
    "errors/tensor_index_into_an_empty_dim",
    """
    e = torch.ones(0)
    fs = [lambda: e[torch.tensor([0, -1, 0])], lambda: e[torch.tensor([1])], lambda: e[[0]],
          lambda: torch.ones(2, 0)[:, torch.tensor([0])], lambda: torch.ones(2)[torch.tensor([5])],
          lambda: torch.ones(0, 2)[torch.tensor([0])], lambda: e[0]]
    for f in fs:
        try:
            print(f())
        except IndexError as ex:
            print(ex)
    """,
)


# ---------------------------------------------------------------------------
# 0-d tensors through ops that take dims: a scalar's dims are [-1, 0] where ATen wraps
# them, and PyTorch's own errors where it does not (an audit of the op table on 0-d
# inputs against torch found these)
# ---------------------------------------------------------------------------


def _scalar_case(name, call):
    case(
        "zero_d/" + name,
        f"""
        a = torch.tensor(0.75, requires_grad=True)
        b = torch.tensor(-0.5, requires_grad=True)
        r = {call}
        print(r, r.shape)
        r.sum().backward()
        print(a.grad, b.grad)
        """,
    )


for _name, _call in [
    ("flatten_start_dim_1", "torch.flatten(a, start_dim=1)"),
    ("flatten_end_dim_1", "torch.flatten(a, 0, 1)"),
    ("flatten_dims_minus_1", "torch.flatten(a, -1, -1) * b"),
    ("unbind_dim_1", "torch.unbind(a, 1)"),
    ("unbind_dim_minus_1", "torch.unbind(a, -1)"),
    ("unbind_dim_minus_2", "torch.unbind(a, -2)"),
    ("outer_of_scalars", "torch.outer(a, b)"),
    ("outer_scalar_vec2", "torch.outer(torch.ones(2), b)"),
    ("outer_of_a_matrix", "torch.outer(torch.ones(2, 2), torch.ones(2))"),
    ("multilabel_soft_margin_loss", "F.multilabel_soft_margin_loss(a, torch.tensor(1.0))"),
    ("tensordot_dim_lists", "torch.tensordot(a, b, dims=([0], [0]))"),
    ("tensordot_dim_minus_1", "torch.tensordot(a, b, dims=([-1], [0]))"),
    ("tensordot_second_scalar", "torch.tensordot(torch.ones(2), b, dims=([0], [0]))"),
    ("tensordot_dims_0", "torch.tensordot(a, b, dims=0)"),
    ("unflatten_dim_0", "torch.unflatten(a, 0, (1,))"),
    ("unflatten_dim_1", "torch.unflatten(a, 1, (1,))"),
    ("trace_of_a_scalar", "torch.trace(a)"),
    ("trace_of_a_vector", "torch.trace(torch.ones(2))"),
]:
    _scalar_case(_name, _call)

case(
    "zero_d/transpose_is_a_transpose_node",
    """
    a = torch.tensor(0.5, requires_grad=True)
    y = a.transpose(0, -1)
    print(y, y.shape, y.grad_fn._saved_dim0, y.grad_fn._saved_dim1)
    g, = torch.autograd.grad(y * y, a, create_graph=True)
    print(g)
    print(torch.autograd.grad(g, a))
    z = torch.swapaxes(a, 0, 0) * 3
    z.backward()
    print(a.grad, torch.swapdims(a, -1, -1).grad_fn)
    """,
)

# ---------------------------------------------------------------------------
# second backwards and create_graph: torch's node names, what each node saves
# ---------------------------------------------------------------------------

case(
    "grad2/piecewise_activation_double_backward",
    """
    import torch.nn.functional as F
    for v in [[-1.25, 0.25, 2.5], 0.5, 2.0, -3.0]:
        a = torch.tensor(v, requires_grad=True)
        for f in [lambda t: F.softshrink(t, 0.5), lambda t: F.hardtanh(t, -1.0, 2.0),
                  lambda t: F.hardshrink(t, 0.5), F.relu6, lambda t: F.threshold(t, 1.0, -2.0)]:
            y = f(a * a)
            g, = torch.autograd.grad((y * y).sum(), a, create_graph=True)
            gg, = torch.autograd.grad(g.sum(), a, create_graph=True)
            print(g, gg, torch.autograd.grad(gg.sum(), a))
        y = F.hardtanh(a)
        g, = torch.autograd.grad(y.sum(), a, create_graph=True)
        print(g, torch.autograd.grad(g.sum(), a))
    """,
)
case(
    "grad2/none_index_gradient_is_a_squeeze",
    """
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    fs = [lambda t: t[None], lambda t: t[:, None], lambda t: t[None, 1], lambda t: t[1, None],
          lambda t: t[None, None], lambda t: t[..., None], lambda t: t[None, 0:1],
          lambda t: t[None, [1, 0]], lambda t: t[[1, 0], None]]
    for f in fs:
        y = f(a)
        g, = torch.autograd.grad((y * y).sum(), a, create_graph=True)
        print(y, g)
        print(torch.autograd.grad((g * g).sum(), a))
    s = torch.tensor(3.0, requires_grad=True)
    y = s[None]
    g, = torch.autograd.grad((y * y).sum(), s, create_graph=True)
    print(y, g, torch.autograd.grad(g, s))
    """,
)
case(
    "grad2/xlogy_gradient_in_self",
    """
    w = torch.tensor([1.0, 2.0, 3.0], requires_grad=True)
    for o in [3.0, -3.0, float("nan"), 0.0, 1]:
        a = torch.tensor([1.5, 0.0, 2.0], requires_grad=True)
        y = torch.xlogy(a, o)
        g, = torch.autograd.grad((y * w).sum(), a, create_graph=True)
        print(g, torch.autograd.grad(g.sum(), w))
        (y * w).sum().backward()
        print(a.grad)
        ot = torch.tensor([o, 1.0, o])
        y = torch.xlogy(a, ot)
        g, = torch.autograd.grad((y * w).sum(), a, create_graph=True)
        print(g, torch.autograd.grad(g.sum(), w))
    for y in [torch.xlogy(a, 2.0), torch.xlogy(2.0, a + 1), torch.xlogy(a, a + 1), a.xlogy(3)]:
        print(y, len(y.grad_fn.next_functions))
        g, = torch.autograd.grad((y * y).sum(), a, create_graph=True)
        print(g, torch.autograd.grad(g.sum(), a))
    with torch.autograd.forward_ad.dual_level():
        d = torch.autograd.forward_ad.make_dual(torch.tensor([1.5, 2.5]), torch.tensor([1.0, 2.0]))
        print(torch.autograd.forward_ad.unpack_dual(torch.xlogy(d, 3.0)).tangent)
        print(torch.autograd.forward_ad.unpack_dual(torch.xlogy(3.0, d)).tangent)
    a = torch.tensor([[0.0], [2.0]], requires_grad=True)
    y = torch.xlogy(a, torch.tensor([-1.0, 0.0, 4.0]))
    g, = torch.autograd.grad((y * y).sum(), a, create_graph=True)
    print(g)
    """,
)
case(
    "grad2/circular_pad_gradient_names",
    """
    import torch.nn.functional as F
    for pad, shape in [((2, 1), (1, 1, 3)), ((1, 1, 1, 0), (1, 1, 2, 3)),
                       ((0, 0, 1, 1), (1, 1, 2, 3)), ((1, 0, 0, 1, 1, 1), (1, 1, 2, 2, 3)),
                       ((1, 2), (2, 3))]:
        x = torch.arange(1.0, 1.0 + torch.Size(shape).numel()).reshape(shape).requires_grad_()
        y = F.pad(x, pad, mode="circular")
        g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
        print(y.grad_fn, g)
        gg, = torch.autograd.grad((g * g).sum(), x, create_graph=True)
        print(gg, torch.autograd.grad(gg.sum(), x))
    """,
)
case(
    "grad2/remainder_by_a_number_saves_nothing",
    """
    a = torch.tensor([1.5, -2.0], requires_grad=True)
    z = torch.remainder(a, 0.75)
    z.sum().backward()
    z.sum().backward()
    print(a.grad)
    y = a % 2
    g, = torch.autograd.grad(y.sum(), a)
    g, = torch.autograd.grad(y.sum(), a)
    print(g, y)
    y = (a * a).remainder(-0.5)
    g, = torch.autograd.grad((y * y).sum(), a, create_graph=True)
    print(g, torch.autograd.grad(g.sum(), a))
    a2 = a * 1.0
    a2.remainder_(0.5)
    print(a2)
    with torch.autograd.forward_ad.dual_level():
        d = torch.autograd.forward_ad.make_dual(torch.tensor([1.5, 2.5]), torch.tensor([1.0, 2.0]))
        print(torch.autograd.forward_ad.unpack_dual(d % 1.0).tangent)
    print(len((a % 2).grad_fn.next_functions), (a % 2).grad_fn.next_functions[0][0].name())
    w = torch.tensor([0.25, 3.0], requires_grad=True)
    for k in range(4):
        w2 = w % (0.5 + k)
        w2.sum().backward()
        w2.sum().backward()
    print(w.grad, w2)
    print(torch.func.vmap(lambda t: t % 0.5)(torch.tensor([[1.25, -0.75], [2.0, 0.3]])))
    """,
)
case(
    "grad2/index_and_scatter_add_save_for_the_source_only",
    """
    x = torch.zeros(3, requires_grad=True)
    src = torch.tensor([1.0, 2.0])
    idx = torch.tensor([0, 2])
    fs = [lambda x, s: x.index_add(0, idx, s), lambda x, s: x.scatter_add(0, idx, s),
          lambda x, s: x.index_add(0, idx, s, alpha=2.0), lambda x, s: torch.scatter_add(x, 0, idx, s)]
    for f in fs:
        y = f(x, src)
        y.sum().backward()
        y.sum().backward()
        print(x.grad, y)
        s2 = src.clone().requires_grad_()
        w = f(x, s2)
        (w * w).sum().backward()
        print(x.grad, s2.grad)
        try:
            w.sum().backward()
        except RuntimeError as e:
            print("error:", str(e)[:40])
        w = f(x * 1.0, s2)
        g, = torch.autograd.grad((w * w).sum(), x, create_graph=True)
        print(g, torch.autograd.grad(g.sum(), x))
        w = f(torch.zeros(3), s2)
        w.sum().backward()
        try:
            w.sum().backward()
        except RuntimeError as e:
            print("error:", str(e)[:40])
    with torch.autograd.forward_ad.dual_level():
        d = torch.autograd.forward_ad.make_dual(torch.zeros(3), torch.tensor([1.0, 2.0, 3.0]))
        print(torch.autograd.forward_ad.unpack_dual(d.index_add(0, idx, src, alpha=3)).tangent)
    """,
)
case(
    "grad2/unflatten_of_a_scalar",
    """
    a = torch.tensor(2.0)
    for args in [(1, (1,)), (2, ()), (0, ())]:
        try:
            print(a.unflatten(*args).shape)
        except (RuntimeError, IndexError) as e:
            print(type(e).__name__, e)
    print(torch.ones(2, 6).unflatten(-1, (3, -1)).shape)
    torch.unflatten(torch.tensor(1.0), -1, (1,))
    """,
)
case(
    "grad2/unflatten_of_a_scalar_dim_zero",
    """
    torch.tensor(2.0, requires_grad=True).unflatten(0, (1,))
    """,
)

case(
    "zero_d/scatter_and_index_updates_with_a_head_gradient",
    """
    x = torch.tensor(0.5, requires_grad=True)
    s = torch.tensor(0.25, requires_grad=True)
    i = torch.tensor(0)
    for f in [
        lambda: torch.index_fill(x * 2, 0, i, 3.0),
        lambda: torch.index_add(x * 2, 0, i, s * 2),
        lambda: torch.index_copy(x * 2, 0, i, s * 2),
        lambda: torch.scatter_add(x * 2, 0, i, s * 2),
        lambda: torch.scatter(x * 2, 0, i, s * 2),
        lambda: torch.scatter(x * 2, 0, i, 0.0),
    ]:
        y = f()
        print(y, torch.autograd.grad(y * 3, (x, s), allow_unused=True, retain_graph=True))
        print(torch.autograd.grad(y * 3, (x, s), allow_unused=True, create_graph=True))
    """,
)
case(
    "zero_d/scatter_reduce_of_scalars",
    """
    for red in ["amax", "amin", "prod", "mean", "sum"]:
        for inc in [True, False]:
            for v in [0.0, 0.25, -0.52]:
                a0 = torch.tensor(-0.52, requires_grad=True)
                a1 = torch.tensor(v, requires_grad=True)
                r = torch.scatter_reduce(a0, 0, torch.tensor(0), a1, red, include_self=inc)
                g = torch.autograd.grad(r, (a0, a1), create_graph=True)
                print(red, inc, r, g)
                s = g[0] * g[1] + g[0] * a1
                print(torch.autograd.grad(s, (a0, a1), allow_unused=True))
    """,
)

for _name, _call in [
    ("cross_entropy_probabilities", "F.cross_entropy(a, torch.tensor(0.5))"),
    ("cross_entropy_none", "F.cross_entropy(a, torch.tensor(0.5), reduction='none')"),
    ("cross_entropy_smoothed", "F.cross_entropy(a, torch.tensor(0.5), label_smoothing=0.1)"),
    ("cross_entropy_class_index", "F.cross_entropy(a, torch.tensor(0))"),
    ("cross_entropy_vector_target", "F.cross_entropy(a, torch.tensor([0.5]))"),
    ("cosine_embedding_loss", "F.cosine_embedding_loss(a, b, torch.tensor(1.0))"),
    (
        "cosine_embedding_loss_0d_target_2d_inputs",
        "F.cosine_embedding_loss(torch.ones(2, 2), torch.ones(2, 2), torch.tensor(1.0))",
    ),
    (
        "cosine_embedding_loss_1d_target_1d_inputs",
        "F.cosine_embedding_loss(torch.ones(2), torch.ones(2), torch.tensor([1.0]))",
    ),
    ("cummax_dim_1", "torch.cummax(a, 1)"),
    ("cummin_dim_minus_2", "torch.cummin(a, -2)"),
    ("cummax_dim_0", "torch.cummax(a, 0)[0] * b"),
    ("cummin_dim_minus_1", "torch.cummin(a, -1)[0] * b"),
    ("mv_of_scalars", "torch.mv(a, b)"),
    ("mv_scalar_matrix", "torch.mv(a, torch.ones(2))"),
    ("mv_scalar_vector", "torch.mv(torch.ones(2, 2), b)"),
    ("mv_three_dims", "torch.mv(torch.ones(2, 2, 2), torch.ones(2))"),
    ("mv_vector_vector", "torch.mv(torch.ones(2), torch.ones(2))"),
    ("cross_dim_1", "torch.cross(a, b, dim=1)"),
    ("cross_dim_minus_1", "torch.cross(a, b, dim=-1)"),
    ("linalg_cross", "torch.linalg.cross(a, b)"),
    ("linalg_cross_dim_4", "torch.linalg.cross(a, b, dim=4)"),
    ("trapezoid_points", "torch.trapezoid(a, b)"),
    ("trapezoid_points_dim_minus_1", "torch.trapezoid(a, b, dim=-1)"),
    ("trapezoid_points_dim_3", "torch.trapezoid(a, b, dim=3)"),
    ("trapezoid_vector_points", "torch.trapezoid(a, torch.ones(2))"),
    ("trapezoid_spacing", "torch.trapezoid(a, dx=2.0)"),
]:
    _scalar_case(_name, _call)

for _name, _call in [
    ("linear_of_scalars", "F.linear(a, b)"),
    ("linear_scalar_weight", "F.linear(torch.ones(2), b)"),
    ("linear_scalar_input", "F.linear(a, torch.ones(2, 1))"),
    ("repeat_interleave_counts_dim_0", "torch.repeat_interleave(a, torch.tensor([2]), dim=0)"),
    ("repeat_interleave_counts_dim_minus_1", "torch.repeat_interleave(a, torch.tensor(2), dim=-1)"),
    ("repeat_interleave_counts_dim_1", "torch.repeat_interleave(a, torch.tensor([2]), dim=1)"),
    ("repeat_interleave_two_counts", "torch.repeat_interleave(a, torch.tensor([2, 3]), dim=0)"),
    ("repeat_interleave_counts_flat", "torch.repeat_interleave(a, torch.tensor([2])) * b"),
    ("repeat_interleave_number_dim_0", "torch.repeat_interleave(a, 2, dim=0) * b"),
    ("repeat_interleave_number_dim_1", "torch.repeat_interleave(a, 2, dim=1)"),
]:
    _scalar_case(_name, _call)

case(
    "zero_d/repeat_interleave_by_one_count_is_an_index_select",
    """
    x = torch.tensor([1.5, 2.5], requires_grad=True)
    y = torch.repeat_interleave(x, torch.tensor([2]), dim=0)
    print(y)
    y.sum().backward()
    print(x.grad)
    print(torch.repeat_interleave(x, torch.tensor(3)))
    """,
)

case(
    "zero_d/masked_scatter_and_put_of_scalars",
    """
    x = torch.tensor(0.5, requires_grad=True)
    s = torch.tensor(0.25, requires_grad=True)
    for f in [
        lambda: torch.masked_scatter(x * 2, torch.tensor(True), s * 2),
        lambda: torch.masked_scatter(x * 2, torch.tensor(False), s * 2),
        lambda: torch.put(x * 2, torch.tensor(0), s * 2),
        lambda: torch.put(x * 2, torch.tensor(0), s * 2, accumulate=True),
    ]:
        y = f()
        print(y, torch.autograd.grad(y * 3, (x, s), allow_unused=True, retain_graph=True))
        print(torch.autograd.grad(y * 3, (x, s), allow_unused=True, create_graph=True))
    """,
)

for _name, _call in [
    ("nll_loss_of_a_scalar", "F.nll_loss(a, torch.tensor(0))"),
    ("nll_loss_of_a_scalar_float_target", "F.nll_loss(a, torch.tensor(0.5))"),
    ("nll_loss_of_a_scalar_vector_target", "F.nll_loss(a, torch.tensor([0]))"),
]:
    _scalar_case(_name, _call)
