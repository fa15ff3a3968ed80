"""Golden cases of torch.distributions (Normal, Uniform, Categorical, Bernoulli,
kl_divergence) and the ops they draw with (torch.bernoulli, broadcast_tensors), recorded
from real PyTorch by scripts/gen_golden.py distributions into
tests/golden/distributions.json and replayed by tests/library/test_distributions.py.

The rules of tests/library/nn_cases.py apply: the common subset of Python and the
language, float64 default (a case in float32 makes its tensors float32), randomness
seeded; a case that turns validation off turns it on again at its end."""

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


for _dt in ("float64", "float32"):
    case(
        f"normal/methods/{_dt}",
        f"""
        import torch
        from torch.distributions import Normal
        torch.manual_seed(0)
        loc = torch.tensor([0.5, -1.0, 2.25], dtype=torch.{_dt}, requires_grad=True)
        scale = torch.tensor([1.5, 0.3, 0.05], dtype=torch.{_dt}, requires_grad=True)
        d = Normal(loc, scale)
        print(d, d.batch_shape, d.event_shape, d.has_rsample)
        print(d.sample(), d.sample((2,)), d.sample([2, 1]).shape)
        r = d.rsample((4,))
        print(r)
        lp = d.log_prob(r)
        print(lp)
        lp.sum().backward()
        print(loc.grad, scale.grad)
        v = torch.tensor([0.2, 0.1, 2.3], dtype=torch.{_dt})
        print(d.entropy(), d.cdf(v), d.icdf(torch.tensor([0.2, 0.9, 0.5], dtype=torch.{_dt})))
        print(d.mean, d.mode, d.stddev, d.variance, d.perplexity())
        print(d.loc is loc, d.scale is scale)
        for x in (d.rsample(), d.log_prob(v), d.cdf(v), d.entropy()):
            print(x.grad_fn)
        """,
    )
    case(
        f"normal/broadcast/{_dt}",
        f"""
        import torch
        import torch.distributions as D
        torch.manual_seed(5)
        loc = torch.tensor([[0.1], [0.7]], dtype=torch.{_dt}, requires_grad=True)
        d = D.Normal(loc, 0.5)
        print(d, d.batch_shape, d.scale, d.loc is loc)
        x = d.rsample((3,))
        print(x.shape, x)
        y = d.log_prob(torch.tensor([0.0, 1.0, 2.0], dtype=torch.{_dt}))
        print(y)
        y.sum().backward()
        print(loc.grad)
        e = D.Normal(torch.tensor(0.1, dtype=torch.{_dt}), 2)
        print(e, e.batch_shape, e.sample(), e.rsample((5,)), e.scale.dtype)
        print(D.Normal(torch.tensor([0.1], dtype=torch.{_dt}), torch.tensor([3.0], dtype=torch.{_dt})))
        print(D.normal.Normal(1, 2), D.Normal(1.0, 2).sample((2,)))
        """,
    )
    case(
        f"categorical/logits/{_dt}",
        f"""
        import torch
        from torch.distributions import Categorical
        torch.manual_seed(3)
        logits = torch.tensor([[0.2, -1.0, 0.7], [1.5, 0.1, -0.3]], dtype=torch.{_dt}, requires_grad=True)
        c = Categorical(logits=logits)
        print(c, c.batch_shape, c.event_shape, c.param_shape)
        a = c.sample()
        print(a, c.sample((4,)), c.sample((2, 2)).shape)
        lp = c.log_prob(a)
        print(lp, c)
        print(c.probs, c.logits)
        print(c.entropy(), c.mode, c.mean, c.enumerate_support(), c.enumerate_support(False))
        (lp.sum() + c.entropy().sum()).backward()
        print(logits.grad)
        print(c.log_prob(torch.tensor([[1], [2], [0]])))
        """,
    )
    case(
        f"categorical/probs/{_dt}",
        f"""
        import torch
        from torch.distributions.categorical import Categorical
        torch.manual_seed(11)
        w = torch.tensor([1.0, 2.0, 5.0, 0.0], dtype=torch.{_dt}, requires_grad=True)
        p = Categorical(probs=w)
        print(p, p.probs)
        print(p.sample((2, 3)), p.sample())
        print(p.log_prob(torch.tensor([0, 2, 3])), p.entropy(), p)
        print(p.logits, p, p.variance, p.perplexity())
        p.entropy().backward()
        print(w.grad)
        q = Categorical(torch.tensor([[0.25, 0.75], [0.5, 0.5]], dtype=torch.{_dt}))
        print(q.sample((3,)), q.log_prob(torch.tensor([1.0, 0.0])), q.entropy())
        """,
    )
    case(
        f"bernoulli/{_dt}",
        f"""
        import torch
        from torch.distributions import Bernoulli
        torch.manual_seed(2)
        pr = torch.tensor([0.3, 0.9, 0.5, 0.0], dtype=torch.{_dt}, requires_grad=True)
        b = Bernoulli(pr)
        print(b, b.sample(), b.sample((2,)), b.batch_shape)
        v = torch.tensor([1.0, 0.0, 1.0, 0.0], dtype=torch.{_dt})
        lp = b.log_prob(v)
        print(lp, b.entropy(), b.logits, b.mean, b.variance, b.mode, b)
        lp.sum().backward()
        print(pr.grad)
        b2 = Bernoulli(logits=torch.tensor([0.3, -2.0], dtype=torch.{_dt}))
        print(b2, b2.probs, b2.sample((3,)), b2, b2.enumerate_support())
        b3 = Bernoulli(0.25)
        print(b3, b3.sample((5,)), b3.batch_shape, b3.log_prob(torch.tensor(1.0)))
        print(torch.bernoulli(torch.rand(6, dtype=torch.{_dt})))
        print(torch.rand(3, 4, dtype=torch.{_dt}).bernoulli())
        """,
    )
    case(
        f"uniform/{_dt}",
        f"""
        import torch
        from torch.distributions import Uniform
        torch.manual_seed(8)
        low = torch.tensor([0.0, 1.0], dtype=torch.{_dt}, requires_grad=True)
        high = torch.tensor([2.0, 5.0], dtype=torch.{_dt}, requires_grad=True)
        u = Uniform(low, high)
        print(u, u.sample(), u.sample((2,)))
        r = u.rsample((3,))
        print(r)
        v = torch.tensor([1.0, 4.0], dtype=torch.{_dt})
        print(u.log_prob(v), u.entropy(), u.mean, u.stddev, u.variance, u.cdf(v), u.icdf(torch.tensor([0.5, 0.25], dtype=torch.{_dt})))
        (r.sum() + u.log_prob(v).sum()).backward()
        print(low.grad, high.grad)
        print(Uniform(-1.0, 3), Uniform(-1.0, 3).sample((4,)))
        """,
    )
    case(
        f"kl/normal_normal/{_dt}",
        f"""
        import torch
        from torch.distributions import Normal, kl_divergence
        import torch.distributions.kl as kl
        mu = torch.tensor([[0.3, -1.2], [2.0, 0.0]], dtype=torch.{_dt}, requires_grad=True)
        logvar = torch.tensor([[-0.5, 0.4], [1.2, -2.0]], dtype=torch.{_dt}, requires_grad=True)
        q = Normal(mu, torch.exp(0.5 * logvar))
        p = Normal(torch.zeros_like(mu), torch.ones_like(mu))
        k = kl_divergence(q, p)
        print(k, kl.kl_divergence(p, q))
        k.sum(-1).mean().backward()
        print(mu.grad, logvar.grad)
        """,
    )
    case(
        f"kl/categorical/{_dt}",
        f"""
        import torch
        from torch.distributions import Categorical
        from torch.distributions.kl import kl_divergence
        a = torch.tensor([[0.2, 0.3, 0.5], [0.0, 0.4, 0.6]], dtype=torch.{_dt}, requires_grad=True)
        b = torch.tensor([[1.0, -1.0, 0.5], [0.2, 0.2, 0.2]], dtype=torch.{_dt}, requires_grad=True)
        k = kl_divergence(Categorical(probs=a), Categorical(logits=b))
        print(k)
        k.sum().backward()
        print(a.grad, b.grad)
        print(kl_divergence(Categorical(logits=b), Categorical(probs=a)))
        """,
    )
    case(
        f"kl/more/{_dt}",
        f"""
        import torch
        from torch.distributions import Bernoulli, Normal, Uniform, kl_divergence
        p = torch.tensor([0.2, 0.0, 1.0, 0.7], dtype=torch.{_dt}, requires_grad=True)
        q = torch.tensor([0.5, 0.3, 0.9, 0.0], dtype=torch.{_dt}, requires_grad=True)
        k = kl_divergence(Bernoulli(p), Bernoulli(q))
        print(k, kl_divergence(Bernoulli(logits=q), Bernoulli(p)))
        k[0].backward()
        print(p.grad, q.grad)
        lo = torch.tensor([0.0, -1.0], dtype=torch.{_dt}, requires_grad=True)
        hi = torch.tensor([1.0, 2.0], dtype=torch.{_dt}, requires_grad=True)
        u = Uniform(lo, hi)
        w = Uniform(torch.tensor([-0.5, 0.0], dtype=torch.{_dt}), torch.tensor([1.5, 3.0], dtype=torch.{_dt}))
        print(kl_divergence(u, w), kl_divergence(w, u))
        n = Normal(torch.tensor([0.3, 0.1], dtype=torch.{_dt}), torch.tensor([2.0, 0.5], dtype=torch.{_dt}))
        kun = kl_divergence(u, n)
        print(kun, kl_divergence(n, u))
        kun.sum().backward()
        print(lo.grad, hi.grad)
        """,
    )

case(
    "reinforce/policy",
    """
    import torch
    import torch.nn as nn
    from torch.distributions import Categorical
    torch.manual_seed(1)
    policy = nn.Sequential(nn.Linear(4, 16), nn.Tanh(), nn.Linear(16, 3))
    opt = torch.optim.Adam(policy.parameters(), lr=0.01)
    for episode in range(5):
        states = torch.randn(6, 4)
        dist = Categorical(logits=policy(states))
        actions = dist.sample()
        rewards = (actions == 1).double() - 0.1 * actions.double()
        returns = (rewards - rewards.mean()) / (rewards.std() + 1e-8)
        loss = -(dist.log_prob(actions) * returns).sum() - 0.01 * dist.entropy().mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(episode, actions.tolist(), loss.item())
    print(policy[2].bias)
    """,
)

case(
    "vae/reparameterised",
    """
    import torch
    import torch.nn as nn
    from torch.distributions import Normal, kl_divergence
    torch.manual_seed(4)
    enc = nn.Linear(5, 4)
    dec = nn.Linear(2, 5)
    opt = torch.optim.SGD(list(enc.parameters()) + list(dec.parameters()), lr=0.05)
    x = torch.rand(8, 5)
    for step in range(4):
        h = enc(x)
        mu, logvar = h[:, :2], h[:, 2:]
        q = Normal(mu, torch.exp(0.5 * logvar))
        z = q.rsample()
        recon = torch.sigmoid(dec(z))
        prior = Normal(torch.zeros_like(mu), torch.ones_like(mu))
        loss = ((recon - x) ** 2).sum(-1).mean() + kl_divergence(q, prior).sum(-1).mean()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(step, loss.item())
    print(enc.weight.grad)
    """,
)

case(
    "normal/gradcheck",
    """
    import torch
    from torch.distributions import Normal
    loc = torch.tensor([0.3, -0.7], requires_grad=True)
    scale = torch.tensor([1.2, 0.4], requires_grad=True)
    v = torch.tensor([0.5, 0.1], requires_grad=True)
    print(torch.autograd.gradcheck(lambda a, b, x: Normal(a, b).log_prob(x), (loc, scale, v)))
    print(torch.autograd.gradcheck(lambda a, b, x: Normal(a, b).cdf(x), (loc, scale, v)))
    print(torch.autograd.gradcheck(lambda a, b: Normal(a, b).entropy(), (loc, scale)))
    def reparam(a, b):
        torch.manual_seed(0)
        return Normal(a, b).rsample((3,))
    print(torch.autograd.gradcheck(reparam, (loc, scale)))
    """,
)

case(
    "validate_args/off",
    """
    import torch
    from torch.distributions import Normal, Distribution
    d = Normal(0.0, -1.0, validate_args=False)
    print(d, d.log_prob(torch.tensor(0.5)))
    Distribution.set_default_validate_args(False)
    e = Normal(torch.tensor([0.0]), torch.tensor([-2.0]))
    print(e, e.log_prob(torch.tensor([1.0, 2.0])))
    Distribution.set_default_validate_args(True)
    try:
        Normal(0.0, 0.0)
    except ValueError as err:
        print("ValueError", err)
    """,
)

case(
    "broadcast_tensors/same_shape",
    """
    import torch
    a = torch.tensor([1.0, 2.0], requires_grad=True)
    x, y = torch.broadcast_tensors(a, torch.tensor([3.0, 4.0]))
    print(x is a, x.grad_fn)
    x, y = torch.broadcast_tensors(a, torch.tensor([[3.0], [4.0]]))
    print(x is a, x.grad_fn, y.shape)
    """,
)

errors(
    "errors/construct",
    "import torch\nfrom torch.distributions import Normal, Categorical, Bernoulli, Uniform",
    [
        "Normal(0.0, -1.0)",
        "Normal(torch.tensor([0.0, float('nan')]), 1.0)",
        "Normal(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 0.0], requires_grad=True))",
        "Normal([0.0], 1.0)",
        "Normal(0.0, 'a')",
        "Categorical(torch.tensor([0.2, -0.1]))",
        "Categorical()",
        "Categorical(torch.tensor([0.5]), torch.tensor([0.5]))",
        "Categorical(torch.tensor(0.5))",
        "Categorical(logits=torch.tensor(0.5))",
        "Categorical(logits=torch.tensor([0.0, float('nan')]))",
        "Bernoulli(1.5)",
        "Bernoulli(torch.tensor([0.5, -0.1]))",
        "Bernoulli()",
        "Uniform(2.0, 1.0)",
        "Uniform(torch.tensor([0.0, 1.0]), torch.tensor([1.0, 1.0]))",
        "torch.bernoulli(torch.tensor([0.5, 1.5]))",
        "torch.bernoulli([0.5])",
    ],
)

errors(
    "errors/values",
    "import torch\nfrom torch.distributions import Normal, Categorical, Bernoulli, Uniform\n"
    "n = Normal(torch.zeros(2), torch.ones(2))\n"
    "c = Categorical(logits=torch.zeros(2, 3))\n"
    "b = Bernoulli(torch.tensor([0.3]))\n"
    "u = Uniform(torch.zeros(2), torch.ones(2))",
    [
        "n.log_prob(torch.zeros(3))",
        "n.log_prob(0.5)",
        "n.log_prob(torch.tensor([0.0, float('nan')]))",
        "n.cdf(torch.zeros(3, 1, 4))",
        "c.log_prob(torch.tensor([3, 0]))",
        "c.log_prob(torch.tensor([0.5, 1.0]))",
        "c.log_prob(torch.tensor([0, 1, 2]))",
        "b.log_prob(torch.tensor([0.5]))",
        "u.log_prob(torch.tensor([0.5, 1.0]))",
        "u.cdf(torch.tensor([-0.5, 0.5]))",
        "n.sample(2)",
        "torch.distributions.kl_divergence(b, c)",
        "n.mode2",
    ],
)

case(
    "classes",
    """
    import torch
    import torch.distributions as D
    d = D.Normal(0.0, 1.0)
    print(D.Normal, type(d), isinstance(d, D.Distribution), type(d).__name__)
    print(D.Categorical, D.Bernoulli, D.Uniform, D.Distribution)
    print(d.support, d.arg_constraints, D.Categorical(logits=torch.zeros(3)).support)
    print(D.Bernoulli(0.5).support, D.Uniform(0.0, 2.0).support, D.Uniform(0.0, 2.0).arg_constraints)
    print(str(d), repr(d), f"{d}", [d])
    """,
)

for _dt in ("float64", "float32"):
    case(
        f"independent/{_dt}",
        f"""
        import torch
        from torch.distributions import Independent, Normal, Bernoulli, kl_divergence
        torch.manual_seed(6)
        loc = torch.tensor([[0.1, -0.4, 1.0], [0.5, 0.0, -2.0]], dtype=torch.{_dt}, requires_grad=True)
        scale = torch.tensor([[1.0, 0.5, 2.0], [0.3, 1.5, 0.8]], dtype=torch.{_dt}, requires_grad=True)
        d = Independent(Normal(loc, scale), 1)
        print(d, d.batch_shape, d.event_shape, d.has_rsample, d.reinterpreted_batch_ndims)
        print(d.support, d.base_dist, d.mean, d.stddev, d.variance)
        x = d.rsample((2,))
        print(x, d.sample())
        lp = d.log_prob(x)
        print(lp, d.entropy())
        e = Independent(Normal(torch.zeros(2, 3, dtype=torch.{_dt}), torch.ones(2, 3, dtype=torch.{_dt})), 2)
        print(e, e.batch_shape, e.event_shape, e.log_prob(loc), kl_divergence(e, Independent(Normal(loc, scale), 2)))
        k = kl_divergence(d, Independent(Normal(torch.zeros_like(loc), torch.ones_like(loc)), 1))
        print(k)
        (lp.sum() + k.sum()).backward()
        print(loc.grad, scale.grad)
        b = Independent(Bernoulli(torch.tensor([0.2, 0.7], dtype=torch.{_dt})), 0)
        print(b, b.has_enumerate_support, b.enumerate_support(), b.log_prob(torch.tensor([1.0, 0.0], dtype=torch.{_dt})))
        """,
    )

errors(
    "errors/independent",
    "import torch\nfrom torch.distributions import Independent, Normal, Bernoulli, kl_divergence\n"
    "n = Normal(torch.zeros(2), torch.ones(2))",
    [
        "Independent(n, 2)",
        "Independent(n, 1).log_prob(torch.zeros(3))",
        "Independent(Bernoulli(torch.tensor([0.5, 0.5])), 1).enumerate_support()",
        "kl_divergence(Independent(n, 1), Independent(n, 0))",
        "Independent(n, 1).log_prob(torch.tensor([0.0, float('nan')]))",
    ],
)

case(
    "expand",
    """
    import torch
    from torch.distributions import Normal, Categorical, Bernoulli, Uniform, Independent
    torch.manual_seed(9)
    loc = torch.tensor([0.2, -0.5], requires_grad=True)
    n = Normal(loc, 1.0)
    e = n.expand([3, 2])
    print(e, e.batch_shape, e.loc.grad_fn.name(), e.rsample(), e.log_prob(torch.zeros(3, 2)))
    print(n.expand((2,)).loc.grad_fn.name(), e._validate_args)
    m = Normal(0.0, 1.0, validate_args=False).expand(torch.Size([4]))
    print(m, m._validate_args, m.sample())
    c = Categorical(logits=torch.tensor([0.1, 0.3, -1.0]))
    ce = c.expand([2])
    print(ce, ce.batch_shape, ce.sample(), ce.logits, ce.log_prob(torch.tensor([2, 0])))
    cp = Categorical(probs=torch.tensor([0.2, 0.8]))
    cp.logits
    print(cp.expand((3,)), cp.expand((3,)).param_shape)
    b = Bernoulli(torch.tensor([0.3]))
    print(b.expand([2, 1]), b.expand([4]).sample())
    u = Uniform(0.0, 2.0).expand([3])
    print(u, u.rsample(), u.log_prob(torch.tensor([0.5, 1.0, 1.9])))
    i = Independent(Normal(torch.zeros(2), torch.ones(2)), 1).expand([3])
    print(i, i.batch_shape, i.event_shape, i.base_dist.batch_shape, i.log_prob(torch.zeros(3, 2)))
    for bad in [lambda: n.expand([3]), lambda: n.expand(3)]:
        try:
            bad()
        except Exception as err:
            print(type(err).__name__, err)
    """,
)

errors(
    "errors/more",
    "import torch\nfrom torch.distributions import Normal, Categorical, Bernoulli, Uniform",
    [
        "Categorical([0.5, 0.5])",
        "Categorical(logits=[0.5, 0.5])",
        "Bernoulli([0.5])",
        "Normal(0.0, 1.0).sample((2.5,))",
        "Normal(torch.zeros(2), torch.ones(3))",
        "Normal(0.0, 1.0).enumerate_support()",
        "Categorical(logits=torch.zeros(3)).rsample()",
        "Categorical(logits=torch.zeros(3)).cdf(torch.tensor(1))",
        "Normal(torch.tensor(0.0), torch.tensor(1.0)).icdf(0.3)",
        "Uniform(0.0, 1.0).log_prob(0.5)",
    ],
)

case(
    "exponential_laplace",
    """
    import torch
    from torch.distributions import Exponential, Laplace
    torch.manual_seed(12)
    for dt in (torch.float32, torch.float64):
        rate = torch.tensor([0.5, 2.0, 10.0], dtype=dt, requires_grad=True)
        e = Exponential(rate)
        print(e, e.sample(), e.sample((2,)), e.batch_shape)
        x = e.rsample((2,))
        v = torch.tensor([0.3, 1.0, 0.01], dtype=dt)
        print(x, e.log_prob(v), e.cdf(v), e.icdf(torch.tensor([0.1, 0.5, 0.9], dtype=dt)), e.entropy(), e.mean, e.mode, e.stddev, e.variance)
        (x.sum() + e.log_prob(v).sum()).backward()
        print(rate.grad, Exponential(2.0), Exponential(2.0).sample((3,)), e.support, e.expand([2, 3]))
        loc = torch.tensor([0.0, 1.0, -2.0], dtype=dt, requires_grad=True)
        scale = torch.tensor([1.0, 0.5, 3.0], dtype=dt, requires_grad=True)
        l = Laplace(loc, scale)
        r = l.rsample((4,))
        print(l, r, l.sample(), l.log_prob(v), l.cdf(v), l.icdf(torch.tensor([0.1, 0.5, 0.9], dtype=dt)), l.entropy(), l.mean, l.stddev, l.variance)
        (r.sum() + l.log_prob(v).sum() + l.cdf(v).sum()).backward()
        print(loc.grad, scale.grad, Laplace(0.0, 1.0).sample((20,)))
    for bad in [lambda: Exponential(-1.0), lambda: Exponential(torch.tensor([1.0])).log_prob(torch.tensor([-0.5])), lambda: Laplace(0.0, 0.0)]:
        try:
            bad()
        except ValueError as err:
            print(err)
    """,
)

case(
    "one_hot_categorical",
    """
    import torch
    from torch.distributions import OneHotCategorical
    torch.manual_seed(21)
    for dt in (torch.float32, torch.float64):
        logits = torch.tensor([[0.2, -1.0, 0.7], [1.5, 0.1, -0.3]], dtype=dt, requires_grad=True)
        d = OneHotCategorical(logits=logits)
        print(d, d.batch_shape, d.event_shape, d.param_shape, d.support)
        s = d.sample()
        print(s, d.sample((2,)), d.log_prob(s), d.entropy(), d.mean, d.mode, d.variance)
        (d.log_prob(s).sum() + d.entropy().sum()).backward()
        print(logits.grad, d.enumerate_support(), d.enumerate_support(False).shape)
        p = OneHotCategorical(torch.tensor([0.2, 0.3, 0.5], dtype=dt))
        print(p, p.probs, p.logits, p.sample((4,)), p.expand([2]).sample(), p.expand([2]))
    for bad in [lambda: OneHotCategorical(torch.tensor([0.2, -0.3])), lambda: OneHotCategorical(torch.tensor([0.2, 0.8])).log_prob(torch.tensor([0.5, 0.5])), lambda: OneHotCategorical(logits=torch.tensor([0.0, float('nan')]))]:
        try:
            bad()
        except ValueError as err:
            print(err)
    """,
)

case(
    "kl/cross_types",
    """
    import torch
    from torch.distributions import Exponential, Laplace, Normal, Uniform, OneHotCategorical, kl_divergence
    for dt in (torch.float32, torch.float64):
        r = torch.tensor([0.5, 2.0], dtype=dt, requires_grad=True)
        l = torch.tensor([0.1, -1.0], dtype=dt, requires_grad=True)
        s = torch.tensor([1.0, 0.3], dtype=dt, requires_grad=True)
        lo = torch.tensor([0.2, -0.5], dtype=dt, requires_grad=True)
        E, L, N = Exponential(r), Laplace(l, s), Normal(l * 2, s + 0.5)
        U = Uniform(lo, torch.tensor([1.0, 2.0], dtype=dt))
        E2 = Exponential(torch.tensor([1.0, 3.0], dtype=dt))
        ks = [kl_divergence(E, E2), kl_divergence(L, Laplace(torch.tensor([0.5, 0.0], dtype=dt), torch.tensor([2.0, 0.7], dtype=dt))),
              kl_divergence(N, U), kl_divergence(N, E), kl_divergence(N, L), kl_divergence(E, U), kl_divergence(E, N),
              kl_divergence(L, E), kl_divergence(L, U), kl_divergence(L, N), kl_divergence(U, E2), kl_divergence(U, N)]
        for k in ks:
            print(k)
        tot = sum(k[torch.isfinite(k)].sum() for k in ks)
        tot.backward()
        print(r.grad, l.grad, s.grad, lo.grad)
        o = OneHotCategorical(logits=torch.tensor([0.1, 0.4, -0.3], dtype=dt, requires_grad=True))
        print(kl_divergence(o, OneHotCategorical(torch.tensor([0.2, 0.0, 0.8], dtype=dt))), kl_divergence(OneHotCategorical(torch.tensor([0.2, 0.0, 0.8], dtype=dt)), o))
    try:
        kl_divergence(Uniform(0.0, 1.0), Laplace(0.0, 1.0))
    except NotImplementedError as e:
        print("NotImplementedError", e)
    """,
)
