"""Golden cases for the transforms (issue 15): torch.func, torch.autograd.functional,
torch.autograd.forward_ad and gradgradcheck.  Programs in the common subset of Python
and gradcli, recorded from torch by scripts/gen_golden_transforms.py."""
import textwrap

CASES = []


def case(name, *parts):
    src = "".join(textwrap.dedent(p).strip("\n") + "\n" for p in parts)
    CASES.append((name, src))


X = "x = torch.tensor([0.5, -1.2, 2.0])\n"

# --------------------------------------------------------------- forward_ad (tutorial)
case("forward_ad/tutorial", """
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
""")
case("forward_ad/ops", X, """
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
""")
case("forward_ad/requires_grad", """
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
""")
case("forward_ad/no_rule", X, """
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        d = fwAD.make_dual(x, torch.ones(3))
        d // 2
""")
case("forward_ad/nested_error", """
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        with fwAD.dual_level():
            print(1)
""")
case("forward_ad/no_level", X, """
    import torch.autograd.forward_ad as fwAD
    fwAD.make_dual(x, torch.ones(3))
""")
case("forward_ad/bad_size", X, """
    import torch.autograd.forward_ad as fwAD
    with fwAD.dual_level():
        fwAD.make_dual(x, torch.ones(2))
""")

# --------------------------------------------------------------- autograd.functional
F_ = "from torch.autograd.functional import vjp, jvp, hvp, vhp, jacobian, hessian\n"
case("functional/vjp", F_, X, """
    def f(t):
        return t ** 2 * 3 + t.sin()
    vjp(f, x, torch.tensor([1.0, 0.5, -2.0]))
    vjp(lambda t: t.exp().sum(), x)
""")
case("functional/vjp_tuple", F_, """
    def f(a, b):
        return a * b, a + b ** 2
    a = torch.tensor([1.0, 2.0])
    b = torch.tensor([3.0, -1.0])
    vjp(f, (a, b), (torch.ones(2), torch.tensor([0.5, 2.0])))
""")
case("functional/vjp_create_graph", F_, X, """
    vjp(lambda t: t ** 2 * 3, x, torch.ones(3), create_graph=True)
""")
case("functional/jvp", F_, X, """
    def f(t):
        return t ** 2 * 3 + t.sin()
    jvp(f, x, torch.tensor([1.0, 0.5, -2.0]))
""")
case("functional/jvp_none_error", F_, X, """
    jvp(lambda t: t * 2, x)
""")
case("functional/hvp_vhp", F_, X, """
    def f(t):
        return (t.exp() * t.sin()).sum()
    v = torch.tensor([1.0, -1.0, 0.5])
    hvp(f, x, v)
    vhp(f, x, v)
""")
case("functional/hvp_two_inputs", F_, """
    def f(a, b):
        return (a ** 2 * b + b.exp()).sum()
    a = torch.tensor([1.0, 2.0])
    b = torch.tensor([0.5, -1.0])
    hvp(f, (a, b), (torch.ones(2), torch.tensor([1.0, 0.0])))
    vhp(f, (a, b), (torch.ones(2), torch.tensor([1.0, 0.0])))
""")
case("functional/hvp_not_scalar", F_, X, """
    hvp(lambda t: t * 2, x, torch.ones(3))
""")
case("functional/jacobian_forward", F_, X, """
    def f(t):
        return t ** 2 * 3 + t.sin()
    jacobian(f, x, strategy="forward-mode", vectorize=True)
    jacobian(lambda a, b: a * b, (x, x * 2), strategy="forward-mode", vectorize=True)
""")
case("functional/jacobian_forward_vectorize_error", F_, X, """
    jacobian(lambda t: t * 2, x, strategy="forward-mode")
""")
# --------------------------------------------------------------- torch.func
FN = "from torch.func import grad, grad_and_value, vjp, jvp, jacrev, jacfwd, hessian, vmap, linearize\n"
case("func/grad_docs", FN, """
    x = torch.tensor([0.3, -1.1, 2.0])
    cos_x = grad(lambda x: torch.sin(x).sum())(x)
    cos_x
    torch.allclose(cos_x, x.cos())
    neg_sin_x = grad(grad(lambda x: torch.sin(x)))(torch.tensor(0.7))
    neg_sin_x
""")
case("func/grad_argnums", FN, """
    def f(x, y):
        return (x ** 2 + y ** 2).sum()
    x = torch.tensor([1.0, 2.0])
    y = torch.tensor([3.0, -1.0])
    grad(f, argnums=1)(x, y)
    grad(f, argnums=(0, 1))(x, y)
""")
case("func/grad_has_aux", FN, """
    def f(x):
        r = x.sin().sum()
        return r, (x.cos(), r * 2)
    x = torch.tensor([0.5, 1.0])
    grad(f, has_aux=True)(x)
    grad_and_value(f, has_aux=True)(x)
    grad_and_value(lambda t: (t ** 3).sum())(x)
""")
case("func/grad_not_scalar", FN, X, """
    grad(lambda t: t * 2)(x)
""")
case("func/grad_bad_argnum", FN, X, """
    grad(lambda t: t.sum(), argnums=1)(x)
""")
case("func/vjp_jvp", FN, X, """
    out, vjp_fn = vjp(torch.sin, x)
    out
    vjp_fn(torch.tensor([1.0, 2.0, 3.0]))
    jvp(torch.sin, (x,), (torch.tensor([1.0, 2.0, 3.0]),))
    jvp(lambda a, b: a * b, (x, x + 1), (torch.ones(3), torch.zeros(3)))
""")
case("func/jacrev_jacfwd", FN, X, """
    jacrev(torch.sin)(x)
    jacfwd(torch.sin)(x)
    def f(a, b):
        return a * b.exp()
    jacrev(f, argnums=(0, 1))(x, x * 2)
    jacfwd(f, argnums=1)(x, x * 2)
    jacrev(lambda t: (t.sum(), t * 2))(x)
""")
case("func/hessian_compose", FN, X, """
    def f(t):
        return (t.sin() * t.exp()).sum()
    hessian(f)(x)
    jacfwd(jacrev(f))(x)
    jacrev(jacfwd(f))(x)
    grad(grad(lambda t: t.tanh()))(torch.tensor(0.4))
    jacfwd(jacfwd(f))(x)
    jacfwd(jacfwd(jacfwd(lambda t: (t.exp() * t ** 3).sum())))(torch.tensor([0.5, 1.5]))
""")
case("func/vmap", FN, """
    x = torch.tensor([[1.0, 2.0, 3.0], [4.0, 5.0, 6.0]])
    vmap(torch.sum)(x)
    vmap(torch.sum, in_dims=1)(x)
    vmap(lambda a, b: a * b, in_dims=(0, None))(x, torch.tensor([1.0, 0.0, -1.0]))
    vmap(lambda r: r * 2, out_dims=1)(x)
    vmap(vmap(lambda v: v ** 2))(x)
    vmap(torch.dot)(x, x)
""")
case("func/vmap_size_error", FN, """
    vmap(lambda a, b: a + b)(torch.ones(3), torch.ones(4))
""")
case("func/vmap_randomness_error", FN, """
    vmap(lambda t: t + torch.randn(2))(torch.ones(3, 2))
""")
case("func/vmap_randomness_same", FN, """
    gen = torch.manual_seed(0)
    r = vmap(lambda t: t * 0 + torch.rand(2), randomness="same")(torch.ones(3, 2))
    r
    torch.rand(2)
""")
case("func/per_sample_grads", FN, """
    w = torch.tensor([[0.5, -1.0, 2.0], [1.5, 0.3, -0.7]])
    def loss(w, x, y):
        return ((w @ x - y) ** 2).mean()
    xs = torch.tensor([[1.0, 2.0, 3.0], [0.5, -1.0, 0.0], [2.0, 0.0, 1.0], [1.0, 1.0, 1.0]])
    ys = torch.tensor([[1.0, 0.25], [0.0, 1.0], [2.0, -1.0], [0.5, 0.5]])
    vmap(grad(loss), in_dims=(None, 0, 0))(w, xs, ys)
""")
case("func/requires_grad_inputs", FN, """
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
""")
case("func/linearize", FN, X, """
    out, jvp_fn = linearize(torch.sin, x)
    out
    jvp_fn(torch.ones(3))
""")
