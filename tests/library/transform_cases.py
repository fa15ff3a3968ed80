"""Golden cases for the transforms: torch.func, torch.autograd.functional,
torch.autograd.forward_ad and gradgradcheck.  Programs in the common subset of Python
and gradcli, recorded from torch by scripts/gen_golden.py transforms."""

import textwrap

CASES = []


def case(name, *parts):
    src = "".join(textwrap.dedent(p).strip("\n") + "\n" for p in parts)
    CASES.append((name, src))


X = "x = torch.tensor([0.5, -1.2, 2.0])\n"

# --------------------------------------------------------------- forward_ad (tutorial)
case(
    "forward_ad/tutorial",
    """
    import torch.autograd.forward_ad as fwAD
    primal = torch.tensor([[0.5, 1.0], [-2.0, 0.3]])
    tangent = torch.tensor([[1.0, 0.0], [0.5, 2.0]])
    def fn(x, y):
        return x ** 2 + y ** 2
    with fwAD.dual_level():
        dual_input = fwAD.make_dual(primal, tangent)
        dual_input
        plain_tensor = torch.tensor([[1.0, 2.0], [3.0, 4.0]])
        dual_output = fn(dual_input, plain_tensor)
        jvp = fwAD.unpack_dual(dual_output).tangent
        jvp
        fwAD.unpack_dual(dual_output)
        fwAD.unpack_dual(dual_output).primal
    dual_input
""",
)
case(
    "forward_ad/ops",
    X,
    """
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.tensor([1.0, 2.0, -1.0]))
        y = (d.exp() * d.sin() + d.tanh() / (d * d + 1)).sum()
        print(fwAD.unpack_dual(y).tangent)
        z = torch.softmax(d, 0) @ torch.stack([d, d * 2, d ** 3])
        print(fwAD.unpack_dual(z).tangent)
        w = d.reshape(3, 1) @ d.reshape(1, 3)
        print(fwAD.unpack_dual(w.max(dim=1)[0]).tangent)
        print(fwAD.unpack_dual(d[1:] * d.norm()).tangent)
""",
)
case(
    "forward_ad/requires_grad",
    """
    import torch.autograd.forward_ad as fwAD
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(2))
        d
        y = d * d
        y
        u = fwAD.unpack_dual(y)
        u.tangent.sum().backward()
    x.grad
""",
)
case(
    "forward_ad/inplace",
    """
    import torch.autograd.forward_ad as fwAD
    T = torch.tensor
    def isub(p, g):
        p -= g
    def show(name, f, g):
        for ng in (False, True):
            p = fwAD.make_dual(T(2.0), T(1.0))
            if ng:
                with torch.no_grad():
                    f(p, g)
            else:
                f(p, g)
            print(name, ng, fwAD.unpack_dual(p).tangent)
    with fwAD.dual_level():
        g = fwAD.make_dual(T(0.5), T(3.0))
        show("isub", isub, g)
        show("step", lambda p, g: p.sub_(0.1 * g), g)
        show("mul_", lambda p, g: p.mul_(2), g)
        show("zero_", lambda p, g: p.zero_(), g)
        show("fill_", lambda p, g: p.fill_(3.0), g)
        show("copy_", lambda p, g: p.copy_(T(5.0)), g)
        show("exp_", lambda p, g: p.exp_(), g)
        p = T(2.0)
        _ = p.add_(g)
        print(fwAD.unpack_dual(p).tangent)
        v = fwAD.make_dual(T([0.5, 1.5]), T([3.0, 4.0]))
        p = fwAD.make_dual(T([1.0, 2.0, 3.0]), T([1.0, 1.0, 1.0]))
        p[T([2, 0])] = v
        print(fwAD.unpack_dual(p).tangent)
        p = fwAD.make_dual(torch.zeros(2, 3), torch.ones(2, 3))
        p[:, 1] = T(5.0)
        print(fwAD.unpack_dual(p).tangent)
        p[1] = v[0]
        print(fwAD.unpack_dual(p).tangent)
        q = T([1.0, 2.0])
        q[1] = g
        print(fwAD.unpack_dual(q).tangent)
        r = fwAD.make_dual(T([1.0, 2.0]), T([1.0, 1.0]))
        r[0] += g
        print(fwAD.unpack_dual(r).tangent)
""",
)
case(
    "forward_ad/print_0d",
    """
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        d = fwAD.make_dual(torch.tensor(1.5), torch.tensor(0.375))
        d
        d * 2
        d.exp()
        fwAD.make_dual(torch.tensor(0.0), torch.tensor(2.0)).sqrt()
        fwAD.make_dual(torch.tensor(1.0, dtype=torch.float32), torch.tensor(0.1, dtype=torch.float32))
        fwAD.make_dual(torch.tensor(1.0), torch.tensor(-0.0))
        print(d + 1)
        e = fwAD.make_dual(torch.tensor([1.5]), torch.tensor([0.375]))
        e[0]
        e.sum()
""",
)
case(
    "forward_ad/signed_zero_tangents",
    """
    import torch.autograd.forward_ad as fwAD
    t = torch.tensor([-0.0, 0.0, 1.5])
    p = torch.tensor([-0.0, 0.0, -1.0])
    with fwAD.dual_level():
        d = fwAD.make_dual(p, t)
        print(fwAD.unpack_dual(d + 2.0).tangent)
        print(fwAD.unpack_dual(2.0 + d).tangent)
        print(fwAD.unpack_dual(d - 2.0).tangent)
        print(fwAD.unpack_dual(2.0 - d).tangent)
        print(fwAD.unpack_dual(d + p).tangent)
        print(fwAD.unpack_dual(p + d).tangent)
        print(fwAD.unpack_dual(d - p).tangent)
        print(fwAD.unpack_dual(p - d).tangent)
        print(fwAD.unpack_dual(d.relu()).tangent)
        print(fwAD.unpack_dual(fwAD.make_dual(p, -t).relu()).tangent)
        print(fwAD.unpack_dual(d.clamp(min=0)).tangent)
        print(fwAD.unpack_dual(fwAD.make_dual(p, -t).clamp(min=0)).tangent)
        print(fwAD.unpack_dual(d.abs()).tangent)
        print(fwAD.unpack_dual(d * 0).tangent)
        print(fwAD.unpack_dual(torch.where(p > 0, d, p)).tangent)
        print(fwAD.unpack_dual(torch.where(p > 0, p, d)).tangent)
        print(fwAD.unpack_dual(torch.cat([d, p])).tangent)
        print(fwAD.unpack_dual(torch.maximum(d, p)).tangent)
        print(fwAD.unpack_dual(d.sum()).tangent)
        print(fwAD.unpack_dual(d.mean()).tangent)
        print(fwAD.unpack_dual(-d).tangent)
""",
)
case(
    "forward_ad/reciprocal_order",
    """
    import torch.autograd.forward_ad as fwAD
    torch.set_printoptions(precision=20)
    x = torch.tensor([0.25, -1.25, -2.0, 3.0, -0.7])
    with fwAD.dual_level():
        print(fwAD.unpack_dual(1 / fwAD.make_dual(x, torch.tensor([0.25, 1.25, 2.0, 0.1, 0.3]))).tangent)
    torch.set_printoptions(precision=4)
""",
)
case(
    "forward_ad/inplace_views",
    """
    import torch.autograd.forward_ad as fwAD
    T = torch.tensor
    with fwAD.dual_level():
        g = fwAD.make_dual(T(0.5), T(3.0))
        p = fwAD.make_dual(T([1.0, 2.0, 3.0]), T([1.0, 1.0, 1.0]))
        v = p[0:2]
        _ = v.mul_(2)
        print(fwAD.unpack_dual(p).tangent, fwAD.unpack_dual(v).tangent)
        w = p.view(3)
        _ = w.add_(g)
        print(fwAD.unpack_dual(p).tangent, fwAD.unpack_dual(w).tangent)
        q = T([1.0, 2.0])
        u = q[1:]
        _ = u.add_(g)
        print(fwAD.unpack_dual(q).tangent, fwAD.unpack_dual(u).tangent)
        t = T([1.0, 1.0])
        p = fwAD.make_dual(T([1.0, 2.0]), t)
        print(fwAD.unpack_dual(p).tangent is t)
        _ = p.mul_(2)
        print(t)
        for name, f in [("clone", lambda p: p.clone()), ("add0", lambda p: p + 0),
                        ("to", lambda p: p.to(torch.float64)), ("contiguous", lambda p: p.contiguous()),
                        ("reshape", lambda p: p.reshape(2)), ("t", lambda p: p.t()),
                        ("neg", lambda p: -p), ("pos", lambda p: +p), ("alias", lambda p: p[:]),
                        ("flatten", lambda p: p.flatten()), ("squeeze", lambda p: p.squeeze()),
                        ("expand_as", lambda p: p.expand_as(p))]:
            p = fwAD.make_dual(T([1.0, 2.0]), T([1.0, 1.0]))
            c = f(p)
            _ = c.mul_(3)
            print(name, fwAD.unpack_dual(p).tangent, fwAD.unpack_dual(c).tangent)
""",
)
case(
    "forward_ad/no_rule",
    X,
    """
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(3))
        d // 2
""",
)
case(
    "forward_ad/nested_error",
    """
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        with fwAD.dual_level():
            print(1)
""",
)
case(
    "forward_ad/no_level",
    X,
    """
    import torch.autograd.forward_ad as fwAD
    fwAD.make_dual(x, torch.ones(3))
""",
)
case(
    "forward_ad/bad_size",
    X,
    """
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        fwAD.make_dual(x, torch.ones(2))
""",
)

# --------------------------------------------------------------- autograd.functional
F_ = "from torch.autograd.functional import vjp, jvp, hvp, vhp, jacobian, hessian\n"
case(
    "functional/vjp",
    F_,
    X,
    """
    def f(t):
        return t ** 2 * 3 + t.sin()
    vjp(f, x, torch.tensor([1.0, 0.5, -2.0]))
    vjp(lambda t: t.exp().sum(), x)
""",
)
case(
    "functional/vjp_tuple",
    F_,
    """
    def f(a, b):
        return a * b, a + b ** 2
    a = torch.tensor([1.0, 2.0])
    b = torch.tensor([3.0, -1.0])
    vjp(f, (a, b), (torch.ones(2), torch.tensor([0.5, 2.0])))
""",
)
case(
    "functional/vjp_create_graph",
    F_,
    X,
    """
    vjp(lambda t: t ** 2 * 3, x, torch.ones(3), create_graph=True)
""",
)
case(
    "functional/jvp",
    F_,
    X,
    """
    def f(t):
        return t ** 2 * 3 + t.sin()
    jvp(f, x, torch.tensor([1.0, 0.5, -2.0]))
""",
)
case(
    "functional/jvp_none_error",
    F_,
    X,
    """
    jvp(lambda t: t * 2, x)
""",
)
case(
    "functional/hvp_vhp",
    F_,
    X,
    """
    def f(t):
        return (t.exp() * t.sin()).sum()
    v = torch.tensor([1.0, -1.0, 0.5])
    hvp(f, x, v)
    vhp(f, x, v)
""",
)
case(
    "functional/hvp_two_inputs",
    F_,
    """
    def f(a, b):
        return (a ** 2 * b + b.exp()).sum()
    a = torch.tensor([1.0, 2.0])
    b = torch.tensor([0.5, -1.0])
    hvp(f, (a, b), (torch.ones(2), torch.tensor([1.0, 0.0])))
    vhp(f, (a, b), (torch.ones(2), torch.tensor([1.0, 0.0])))
""",
)
case(
    "functional/hvp_not_scalar",
    F_,
    X,
    """
    hvp(lambda t: t * 2, x, torch.ones(3))
""",
)
case(
    "functional/jacobian_forward",
    F_,
    X,
    """
    def f(t):
        return t ** 2 * 3 + t.sin()
    jacobian(f, x, strategy="forward-mode", vectorize=True)
    jacobian(lambda a, b: a * b, (x, x * 2), strategy="forward-mode", vectorize=True)
""",
)
case(
    "functional/jacobian_forward_vectorize_error",
    F_,
    X,
    """
    jacobian(lambda t: t * 2, x, strategy="forward-mode")
""",
)
# --------------------------------------------------------------- torch.func
FN = "from torch.func import grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, linearize\n"
case(
    "func/grad_docs",
    FN,
    """
    x = torch.tensor([0.3, -1.1, 2.0])
    cos_x = grad(lambda x: torch.sin(x).sum())(x)
    cos_x
    torch.allclose(cos_x, x.cos())
    neg_sin_x = grad(grad(lambda x: torch.sin(x)))(torch.tensor(0.7))
    neg_sin_x
""",
)
case(
    "func/grad_argnums",
    FN,
    """
    def f(x, y):
        return (x ** 2 + y ** 2).sum()
    x = torch.tensor([1.0, 2.0])
    y = torch.tensor([3.0, -1.0])
    grad(f, argnums=1)(x, y)
    grad(f, argnums=(0, 1))(x, y)
""",
)
case(
    "func/grad_has_aux",
    FN,
    """
    def f(x):
        r = x.sin().sum()
        return r, (x.cos(), r * 2)
    x = torch.tensor([0.5, 1.0])
    grad(f, has_aux=True)(x)
    grad_and_value(f, has_aux=True)(x)
    grad_and_value(lambda t: (t ** 3).sum())(x)
""",
)
case(
    "func/grad_not_scalar",
    FN,
    X,
    """
    grad(lambda t: t * 2)(x)
""",
)
case(
    "func/grad_bad_argnum",
    FN,
    X,
    """
    grad(lambda t: t.sum(), argnums=1)(x)
""",
)
case(
    "func/vjp_jvp",
    FN,
    X,
    """
    out, vjp_fn = vjp(torch.sin, x)
    out
    vjp_fn(torch.tensor([1.0, 2.0, 3.0]))
    jvp(torch.sin, (x,), (torch.tensor([1.0, 2.0, 3.0]),))
    jvp(lambda a, b: a * b, (x, x + 1), (torch.ones(3), torch.zeros(3)))
""",
)
case(
    "func/jacrev_jacfwd",
    FN,
    X,
    """
    jacrev(torch.sin)(x)
    jacfwd(torch.sin)(x)
    def f(a, b):
        return a * b.exp()
    jacrev(f, argnums=(0, 1))(x, x * 2)
    jacfwd(f, argnums=1)(x, x * 2)
    jacrev(lambda t: (t.sum(), t * 2))(x)
""",
)
case(
    "func/hessian_compose",
    FN,
    X,
    """
    def f(t):
        return (t.sin() * t.exp()).sum()
    hessian(f)(x)
    jacfwd(jacrev(f))(x)
    jacrev(jacfwd(f))(x)
    grad(grad(lambda t: t.tanh()))(torch.tensor(0.4))
    jacfwd(jacfwd(f))(x)
    jacfwd(jacfwd(jacfwd(lambda t: (t.exp() * t ** 3).sum())))(torch.tensor([0.5, 1.5]))
""",
)
case(
    "func/vmap",
    FN,
    """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    vmap(torch.sum)(x)
    vmap(torch.sum, in_dims=1)(x)
    vmap(lambda a, b: a * b, in_dims=(0, None))(x, torch.tensor([1.0, 0.0, -1.0]))
    vmap(lambda r: r * 2, out_dims=1)(x)
    vmap(vmap(lambda v: v ** 2))(x)
    vmap(torch.dot)(x, x)
""",
)
case(
    "func/vmap_size_error",
    FN,
    """
    vmap(lambda a, b: a + b)(torch.ones(3), torch.ones(4))
""",
)
case(
    "func/vmap_randomness_error",
    FN,
    """
    vmap(lambda t: t + torch.randn(2))(torch.ones(3, 2))
""",
)
case(
    "func/vmap_randomness_same",
    FN,
    """
    gen = torch.manual_seed(0)
    r = vmap(lambda t: t * 0 + torch.rand(2), randomness="same")(torch.ones(3, 2))
    r
    torch.rand(2)
""",
)
case(
    "func/per_sample_grads",
    FN,
    """
    w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]])
    def loss(w, x, y):
        return ((w @ x - y) ** 2).mean()
    xs = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0], [2.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
    ys = torch.tensor([[1.0, 0.25], [0.0, 1.0], [2.0, -1.0], [0.5, 0.5]])
    vmap(grad(loss), in_dims=(None, 0, 0))(w, xs, ys)
""",
)
case(
    "func/requires_grad_inputs",
    FN,
    """
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    grad(lambda t: (t.sin() * t).sum())(x)
    jacrev(torch.sin)(x)
    jacfwd(torch.sin)(x)
    hessian(lambda t: (t ** 3).sum())(x)
    jvp(torch.sin, (x,), (torch.ones(2),))
    vjp(torch.sin, x)[0]
    g = grad(lambda t: (t ** 3).sum())(x)
    g.sum().backward()
    x.grad
""",
)
case(
    "func/linearize",
    FN,
    X,
    """
    out, jvp_fn = linearize(torch.sin, x)
    out
    jvp_fn(torch.ones(3))
""",
)

# --------------------------------------------------------------- vmap's batching rules
M = (
    "from torch.func import vmap, grad, jacrev, jacfwd, hessian\n"
    "import torch.nn.functional as F\n"
    "xs = torch.tensor([[0.5, -1.2, 2.0, 0.1], [1.5, 0.3, -0.7, 2.2], [-0.4, 0.9, 1.1, -2.5]])\n"
)
case(
    "vmap/elementwise",
    M,
    """
    vmap(lambda r: r.exp() * r.sin() - r.abs().sqrt() / (1 + r ** 2))(xs)
    vmap(lambda a, b: a + b, in_dims=(0, None))(torch.tensor([1.0, 2.0]), torch.ones(3))
    vmap(lambda a, b: torch.where(a > 0, a, b))(xs, -xs)
    vmap(lambda r: r.clamp(min=-1.0, max=1.0).relu() + torch.sigmoid(r))(xs)
    vmap(lambda r, s: torch.maximum(r, s) * (r >= s))(xs, xs.flip(0))
    vmap(lambda r: r.masked_fill(r < 0, 0.0) + torch.zeros_like(r))(xs)
    vmap(lambda r: (r * 2).to(torch.int64))(xs)
""",
)
case(
    "vmap/reductions",
    M,
    """
    vmap(torch.sum)(xs)
    vmap(lambda r: r.mean() + r.std() + r.var() + r.norm() + r.logsumexp(0))(xs)
    vmap(lambda r: (r.max(), r.min(), r.argmax(), r.argmin(), r.prod()))(xs)
    vmap(lambda r: r.reshape(2, 2).sum(0))(xs)
    vmap(lambda r: r.reshape(2, 2).max(dim=1))(xs)
    vmap(lambda r: r.reshape(2, 2).mean(dim=-1, keepdim=True))(xs)
    vmap(lambda r: r.sum(0, keepdim=True))(xs)
    vmap(lambda r: torch.softmax(r, 0))(xs)
    vmap(lambda r: F.log_softmax(r.reshape(2, 2), dim=1))(xs)
    vmap(lambda r: r.cumsum(0))(xs)
    vmap(lambda s: s.sum())(torch.tensor([1.0, 2.0, 3.0]))
    vmap(lambda r: torch.stack([(r > 0).any(), (r < 3).all()]))(xs)
""",
)
case(
    "vmap/shape_ops",
    M,
    """
    vmap(lambda r: r.reshape(2, 2).t())(xs)
    vmap(lambda r: r.view(2, -1).T)(xs)
    vmap(lambda r: r.unsqueeze(0).unsqueeze(-1) * r.dim())(xs)
    vmap(lambda r: r.reshape(1, 4, 1).squeeze())(xs)
    vmap(lambda r: r.reshape(2, 1, 2).squeeze(1).transpose(0, 1))(xs)
    vmap(lambda r: r.reshape(2, 2, 1).permute(2, 0, 1).flatten())(xs)
    vmap(lambda r: r.reshape(2, 2).movedim(0, 1).flip(0))(xs)
    vmap(lambda r: r.reshape(1, 4).expand(2, 4).sum(0))(xs)
    vmap(lambda r: r.chunk(2)[1] + r.split(1)[0] + r.unbind(0)[3])(xs)
    vmap(lambda r: r * r.numel() + r.size(0) + r.shape[0] + len(r))(xs)
""",
)
case(
    "vmap/non_tensor_output",
    M,
    """
    vmap(lambda r: r.shape)(xs)
""",
)
case(
    "vmap/indexing",
    M,
    """
    vmap(lambda r: r[0])(xs)
    vmap(lambda r: r[1:3])(xs)
    vmap(lambda r: r.reshape(2, 2)[:, 0])(xs)
    vmap(lambda r: r[torch.tensor([3, 0])])(xs)
    vmap(lambda r: r[None, ..., 2])(xs)
    vmap(lambda r: r.reshape(2, 2)[torch.tensor([1, 0]), torch.tensor([0, 1])])(xs)
""",
)
case(
    "vmap/cat_stack",
    M,
    """
    vmap(lambda r: torch.cat([r, torch.ones(2)]))(xs)
    vmap(lambda r: torch.stack([r, r * 2], dim=1))(xs)
    vmap(lambda r, s: torch.stack([r, s]), in_dims=(0, None))(xs, torch.zeros(4))
""",
)
case(
    "vmap/matmul",
    M,
    """
    A = torch.tensor([[1.0, 2.0, 0.5, -1.0], [0.0, 1.0, -2.0, 3.0]])
    vmap(lambda r: A @ r)(xs)
    vmap(lambda r: r @ A.T)(xs)
    vmap(torch.dot)(xs, xs.flip(1))
    vmap(lambda r: torch.outer(r, r[:2]))(xs)
    vmap(lambda r: r.reshape(2, 2) @ r.reshape(2, 2))(xs)
    vmap(torch.mv, in_dims=(None, 0))(A, xs)
    vmap(lambda r: torch.mm(r.reshape(2, 2), A[:, :2]))(xs)
    vmap(lambda r: F.linear(r, A, torch.tensor([0.5, -0.5])))(xs)
    vmap(lambda w: F.linear(xs, w), in_dims=0)(torch.stack([A, -A]))
""",
)
case(
    "vmap/mv_of_a_matrix_and_batched_vectors_float64",
    M,
    """
    torch.manual_seed(0)
    A = torch.randn(7, 13, dtype=torch.float64)
    V = torch.randn(5, 13, dtype=torch.float64)
    r = vmap(lambda v: A @ v)(V)
    print([x.hex() for x in r.flatten().tolist()], r.stride())
    r = vmap(torch.mv, in_dims=(None, 0))(A.T, torch.randn(6, 7, dtype=torch.float64))
    print([x.hex() for x in r.flatten().tolist()], r.stride())
""",
)
case(
    "vmap/dims",
    M,
    """
    vmap(torch.sum, in_dims=1)(xs)
    vmap(lambda r: r * 2, in_dims=-1, out_dims=1)(xs)
    vmap(lambda p, s: p[0] * s + p[1], in_dims=((0, None), 0))((xs, torch.ones(4)), torch.tensor([1.0, 2.0, 3.0]))
    vmap(lambda r: (r.sum(), r * 0), out_dims=(0, 1))(xs)
    vmap(vmap(lambda a, b: a * b, in_dims=(0, None)), in_dims=(None, 0))(torch.tensor([1.0, 2.0]), torch.tensor([3.0, 4.0, 5.0]))
    vmap(vmap(torch.sum))(xs.reshape(3, 2, 2))
    vmap(lambda r: vmap(lambda e: e * r.sum())(r))(xs)
""",
)
case(
    "vmap/transforms",
    M,
    """
    def f(w, x):
        return (torch.tanh(w @ x) ** 2).sum()
    w = torch.tensor([[0.3, -0.2, 0.5, 0.1], [0.7, 0.4, -0.6, 0.2]])
    vmap(grad(f), in_dims=(None, 0))(w, xs)
    vmap(grad(f, argnums=1), in_dims=(None, 0))(w, xs)
    vmap(jacrev(lambda x: torch.sin(x) * x.sum()))(xs)
    vmap(jacfwd(lambda x: torch.sin(x) * x.sum()))(xs)
    vmap(hessian(lambda x: (x.exp() * x ** 2).sum()))(xs[:, :2])
    grad(lambda w: vmap(lambda x: f(w, x))(xs).sum())(w)
    jacrev(lambda w: vmap(lambda x: (w * x).sum())(xs))(xs[0])
""",
)
case(
    "vmap/randomness",
    M,
    """
    gen = torch.manual_seed(0)
    vmap(lambda t: t + torch.rand(2), randomness="different")(torch.zeros(3, 2))
    vmap(lambda t: t + torch.rand(2), randomness="same")(torch.zeros(3, 2))
    vmap(lambda t: torch.rand_like(t) + t, randomness="same")(torch.zeros(3, 2))
    vmap(lambda t: F.dropout(t, 0.5), randomness="same")(torch.ones(3, 4))
    torch.rand(2)
    vmap(lambda t: t, randomness="bogus")(torch.zeros(3, 2))
""",
)
case(
    "vmap/item_error",
    M,
    """
    vmap(lambda r: r.sum().item())(xs)
""",
)
case(
    "vmap/control_flow_error",
    M,
    """
    vmap(lambda r: r if r.sum() > 0 else -r)(xs)
""",
)
case(
    "vmap/in_dim_error",
    M,
    """
    vmap(torch.sum, in_dims=2)(xs)
""",
)
case(
    "vmap/losses",
    M,
    """
    ys = torch.tensor([[1.0], [0.0], [2.0]])
    w = torch.tensor([[0.2, -0.1, 0.4, 0.3]])
    def loss(w, x, y):
        return F.mse_loss(x @ w.T, y) + F.l1_loss(x @ w.T, y, reduction="sum")
    vmap(grad(loss), in_dims=(None, 0, 0))(w, xs, ys)
""",
)
case(
    "vmap/functional_call",
    M,
    """
    from torch.func import functional_call
    import torch.nn as nn
    torch.manual_seed(0)
    model = nn.Linear(4, 2)
    params = {k: v.detach() for k, v in model.named_parameters()}
    def loss(params, x):
        return functional_call(model, params, (x,)).pow(2).sum()
    g = vmap(grad(loss), in_dims=(None, 0))(params, xs)
    g["weight"]
    g["bias"]
    functional_call(model, {"bias": torch.zeros(2)}, xs)
    model.bias
""",
)

# --------------------------------------------------------------- custom autograd.Function
AF = "import torch.autograd.forward_ad as fwAD\nfrom torch.autograd.function import once_differentiable\n"
case(
    "function/exp",
    AF,
    """
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, i):
            result = i.exp()
            ctx.save_for_backward(result)
            return result
        @staticmethod
        def backward(ctx, grad_output):
            result, = ctx.saved_tensors
            return grad_output * result
    x = torch.tensor([0.5, -1.0, 2.0], requires_grad=True)
    y = Exp.apply(x)
    y
    y.grad_fn.name()
    y.sum().backward()
    x.grad
    torch.autograd.gradcheck(Exp.apply, (x,))
""",
)
case(
    "function/linear",
    AF,
    """
    class LinearFunction(torch.autograd.Function):
        @staticmethod
        def forward(input, weight, bias):
            output = input.mm(weight.t())
            if bias is not None:
                output += bias.unsqueeze(0).expand_as(output)
            return output
        @staticmethod
        def setup_context(ctx, inputs, output):
            input, weight, bias = inputs
            ctx.save_for_backward(input, weight, bias)
        @staticmethod
        def backward(ctx, grad_output):
            input, weight, bias = ctx.saved_tensors
            grad_input = grad_weight = grad_bias = None
            if ctx.needs_input_grad[0]:
                grad_input = grad_output.mm(weight)
            if ctx.needs_input_grad[1]:
                grad_weight = grad_output.t().mm(input)
            if bias is not None and ctx.needs_input_grad[2]:
                grad_bias = grad_output.sum(0)
            return grad_input, grad_weight, grad_bias
    x = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0]])
    w = torch.tensor([[0.1, 0.2, 0.3], [-0.4, 0.5, 0.6]], requires_grad=True)
    b = torch.tensor([0.5, -0.5], requires_grad=True)
    out = LinearFunction.apply(x, w, b)
    out
    out.pow(2).sum().backward()
    w.grad
    b.grad
    x.grad
    LinearFunction.apply(x, w, None)
""",
)
case(
    "function/mul_constant",
    AF,
    """
    class MulConstant(torch.autograd.Function):
        @staticmethod
        def forward(tensor, constant):
            return tensor * constant
        @staticmethod
        def setup_context(ctx, inputs, output):
            tensor, constant = inputs
            ctx.constant = constant
        @staticmethod
        def backward(ctx, grad_output):
            return grad_output * ctx.constant, None
    x = torch.tensor([1.0, -2.0], requires_grad=True)
    y = MulConstant.apply(x, 3.0)
    y
    y.sum().backward()
    x.grad
""",
)
case(
    "function/ctx_features",
    AF,
    """
    class MaxWithIndex(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            values, idx = x.max(dim=1)
            ctx.mark_non_differentiable(idx)
            ctx.save_for_backward(x, idx)
            return values, idx
        @staticmethod
        def backward(ctx, g1, g2):
            x, idx = ctx.saved_tensors
            grad_input = torch.zeros_like(x)
            grad_input.index_add_(1, idx, g1.unsqueeze(1) * torch.eye(2))
            return grad_input
    x = torch.tensor([[3.0, 1.0], [2.0, 5.0]], requires_grad=True)
    v, i = MaxWithIndex.apply(x)
    v
    i
    i.requires_grad
    (v * torch.tensor([1.0, 10.0])).sum().backward()
    x.grad
    class Twice(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.set_materialize_grads(False)
            return x.clone(), x.clone()
        @staticmethod
        def backward(ctx, g1, g2):
            if g2 is None:
                return g1 * 2
            return g1 + g2
    z = torch.tensor([1.0, 2.0], requires_grad=True)
    a, c = Twice.apply(z)
    a.sum().backward()
    z.grad
""",
)
case(
    "function/once_differentiable",
    AF,
    """
    class Cube(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            ctx.save_for_backward(x)
            return x ** 3
        @staticmethod
        @once_differentiable
        def backward(ctx, g):
            x, = ctx.saved_tensors
            return g * 3 * x ** 2
    x = torch.tensor([1.0, 2.0], requires_grad=True)
    y = Cube.apply(x).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
    g
    g.requires_grad
""",
)
case(
    "function/jvp_and_double_backward",
    AF,
    """
    class Exp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            result = x.exp()
            ctx.save_for_backward(result)
            ctx.result = result
            return result
        @staticmethod
        def backward(ctx, g):
            result, = ctx.saved_tensors
            return g * result
        @staticmethod
        def jvp(ctx, t):
            return t * ctx.result
    x = torch.tensor([0.5, 1.0], requires_grad=True)
    with fwAD.dual_level():
        d = fwAD.make_dual(x.detach(), torch.tensor([1.0, 2.0]))
        fwAD.unpack_dual(Exp.apply(d)).tangent
    y = Exp.apply(x).sum()
    g, = torch.autograd.grad(y, x, create_graph=True)
    g
    g.sum().backward()
    x.grad
    torch.autograd.gradgradcheck(Exp.apply, (x,))
    class NoJvp(torch.autograd.Function):
        @staticmethod
        def forward(ctx, x):
            return x * 2
        @staticmethod
        def backward(ctx, g):
            return g * 2
    with fwAD.dual_level():
        NoJvp.apply(fwAD.make_dual(torch.ones(2), torch.ones(2)))
""",
)

# --------------------------------------------------------------- published examples' corners
case(
    "func/jacfwd_argnums_tangents",  # each input of argnums has a tangent: 0 + -0 is 0
    """
    from torch.func import jacfwd, jacrev
    def f(x, y):
        return x + y ** 2
    x, y = torch.tensor([1., 2.]), torch.tensor([-1., -3.])
    jacfwd(f, argnums=1)(x, y)
    jacfwd(f, argnums=(0, 1))(x, y)
    jacfwd(f, argnums=(1, 0))(x, y)
    jacrev(f, argnums=(0, 1))(x, y)
    jacfwd(lambda a, b: a * b, argnums=(0, 1))(torch.tensor([2., -1.]), torch.tensor([-3., 4.]))
""",
)
case(
    "func/grad_aux_gives_the_input",  # has_aux: an input given back is the argument itself
    """
    from torch.func import grad, grad_and_value
    def g(x, y):
        return (x * y).sum(), (x, y, x * 2)
    y = torch.tensor([-1., -3.])
    w = torch.tensor([1., 2.], requires_grad=True)
    out = grad(g, argnums=0, has_aux=True)(w, y)
    out
    print(out[1][0] is w, out[1][1] is y)
    x = torch.tensor([1., 2.])
    out = grad(g, argnums=(0, 1), has_aux=True)(x, y)
    out
    print(out[1][0] is x, out[1][1] is y)
    gv = grad_and_value(g, has_aux=True)(w, y)
    gv
    print(gv[1][1][0] is w)
""",
)
case(
    "func/vmap_of_autograd_grad",  # the vmap docs' vectorized Jacobian: one batched backward
    """
    N = 4
    f = lambda x: x**2
    x = torch.tensor([0.5, -1.0, 2.0, 3.0], requires_grad=True)
    y = f(x)
    I_N = torch.eye(N)
    def get_vjp(v):
        return torch.autograd.grad(y, x, v)
    torch.vmap(get_vjp)(I_N)
    a = torch.tensor([0.1, 0.2, 0.3], requires_grad=True)
    b = a.exp()
    torch.vmap(lambda v: torch.autograd.grad(b, a, v, retain_graph=True)[0] * 2)(torch.eye(3))
    torch.vmap(lambda v: torch.autograd.grad([b], [a], [v])[0])(torch.eye(3))
    torch.vmap(lambda v: torch.autograd.grad(b, a, v))(torch.eye(3))
""",
)
