"""Golden cases for torch.optim's Adamax, NAdam, RAdam, Rprop and ASGD, the options of
the optimizers torch's other implementations would take (refused), and step(closure),
recorded from real PyTorch by scripts/gen_golden.py optim into tests/golden/optim.json
and replayed by tests/library/test_optim.py (the rules of nn_cases.py)."""

import textwrap

CASES = []


def case(name, src):
    if any(n == name for n, _ in CASES):
        raise ValueError("duplicate case name: " + name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


# Hundreds of steps printed with every digit, float32 and float64, tensors of 1 to 100
# elements (torch's kernels' scalar and vector paths), as nn_cases.py's long runs; the
# loss is elementwise, so the gradients are exact and only the optimizer is compared.
_LONG = """
    import torch
    torch.set_default_dtype(torch.{dt})
    torch.manual_seed({seed})
    ps = [torch.randn(n, requires_grad=True) for n in (1, 3, 7, 8, 20, 100)]
    ts = [torch.randn(p.shape) for p in ps]
    ws = [torch.rand(p.shape) * 4 + 0.01 for p in ps]
    opt = {opt}
    for step in range({steps}):
        opt.zero_grad()
        for p, t, w in zip(ps, ts, ws):
            (((p - t) ** 2) * w).sum().backward()
        opt.step()
    for p in ps:
        print(p.tolist())
    torch.set_default_dtype(torch.float64)
"""

# NAdam and RAdam divide by a square root: torch's is MKL's (nn_cases.py NEEDS_MKL)
NEEDS_MKL = set()
for _dt in ("float64", "float32"):
    for _name, _opt, _mkl in [
        ("adamax", "torch.optim.Adamax(ps, lr=0.01)", False),
        (
            "adamax_wd_max",
            "torch.optim.Adamax(ps, lr=0.02, betas=(0.8, 0.99), weight_decay=0.1, maximize=False)",
            False,
        ),
        ("rprop", "torch.optim.Rprop(ps)", False),
        (
            "rprop_options",
            "torch.optim.Rprop(ps, lr=0.003, etas=(0.3, 1.5), step_sizes=(1e-4, 0.2))",
            False,
        ),
        ("asgd", "torch.optim.ASGD(ps, lr=0.01)", False),
        (
            "asgd_averaging",
            "torch.optim.ASGD(ps, lr=0.02, lambd=0.01, alpha=0.5, t0=20, weight_decay=0.05)",
            False,
        ),
        ("nadam", "torch.optim.NAdam(ps, lr=0.01)", True),
        (
            "nadam_decoupled",
            "torch.optim.NAdam(ps, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True, momentum_decay=0.01)",
            True,
        ),
        ("nadam_wd", "torch.optim.NAdam(ps, lr=0.01, weight_decay=0.1, betas=(0.5, 0.9))", True),
        ("radam", "torch.optim.RAdam(ps, lr=0.01)", True),
        (
            "radam_decoupled",
            "torch.optim.RAdam(ps, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True)",
            True,
        ),
        (
            "radam_wd_betas",
            "torch.optim.RAdam(ps, lr=0.02, weight_decay=0.1, betas=(0.5, 0.8))",
            True,
        ),
    ]:
        _case = "optim/long_%s_%s" % (_name, _dt)
        case(_case, _LONG.format(dt=_dt, seed=23, steps=200, opt=_opt))
        if _mkl:
            NEEDS_MKL.add(_case)

# foreach=True: torch's foreach step on the CPU rounds as its single-tensor one for these
# (NAdam's, RAdam's and ASGD's do not, and gradcli refuses them)
for _dt in ("float64", "float32"):
    for _name, _opt in [
        ("sgd", "torch.optim.SGD(ps, lr=0.01, momentum=0.9, nesterov=True, foreach=True)"),
        ("adamax", "torch.optim.Adamax(ps, lr=0.01, foreach=True)"),
        ("rprop", "torch.optim.Rprop(ps, foreach=True)"),
        ("adam", "torch.optim.Adam(ps, lr=0.01, foreach=True)"),
    ]:
        _case = "optim/foreach_%s_%s" % (_name, _dt)
        case(_case, _LONG.format(dt=_dt, seed=24, steps=100, opt=_opt))
        if _name == "adam":
            NEEDS_MKL.add(_case)

# The options of the older optimizers together (maximize, weight_decay, dampening,
# nesterov, amsgrad, decoupled_weight_decay, centered, rho), 60 steps, every digit
_OPTIONS = """
    import torch
    torch.set_default_dtype(torch.{dt})
    torch.manual_seed(25)
    ps = [torch.randn(n, requires_grad=True) for n in (1, 3, 7, 8, 20, 100)]
    ts = [torch.randn(p.shape) for p in ps]
    ws = [torch.rand(p.shape) * 4 + 0.01 for p in ps]
    O = torch.optim
    makers = [
        lambda q: O.SGD(q, lr=0.01, maximize=True, weight_decay=0.1),
        lambda q: O.SGD(q, lr=0.01, momentum=0.9, maximize=True, dampening=0.1, weight_decay=0.05),
        lambda q: O.SGD(q, lr=0.01, momentum=0.8, nesterov=True, maximize=True),
        lambda q: O.Adam(q, lr=0.01, maximize=True, amsgrad=True, weight_decay=0.1),
        lambda q: O.Adam(q, lr=0.01, weight_decay=0.1, decoupled_weight_decay=True),
        lambda q: O.AdamW(q, lr=0.01, maximize=True),
        lambda q: O.RMSprop(q, lr=0.01, maximize=True, centered=True),
        lambda q: O.RMSprop(q, lr=0.01, momentum=0.3, weight_decay=0.1),
        lambda q: O.Adagrad(q, lr=0.1, maximize=True, weight_decay=0.1),
        lambda q: O.Adadelta(q, maximize=True, weight_decay=0.1, rho=0.8),
        lambda q: O.Adadelta(q, lr=0.5),
    ]
    for make in makers:
        qs = [p.detach().clone().requires_grad_() for p in ps]
        opt = make(qs)
        for step in range(60):
            opt.zero_grad()
            for p, t, w in zip(qs, ts, ws):
                (-(((p - t) ** 2) * w).sum() if opt.param_groups[0]['maximize'] else (((p - t) ** 2) * w).sum()).backward()
            opt.step()
        print(type(opt).__name__, [q.tolist() for q in qs])
    torch.set_default_dtype(torch.float64)
"""
for _dt in ("float64", "float32"):
    _case = "optim/options_" + _dt
    case(_case, _OPTIONS.format(dt=_dt))
    NEEDS_MKL.add(_case)

# state_dict() and load_state_dict(): the state of each parameter under its index, the
# groups' options; loaded into a new optimizer (one group per parameter group), which then
# steps on from it
_STATE = """
    import torch
    torch.set_default_dtype(torch.{dt})
    torch.manual_seed(3)
    m = torch.nn.Linear(2, 1)
    x = torch.tensor([[1., 2.], [3., -1.]])
    for make in [lambda ps: torch.optim.SGD(ps, lr=0.1), lambda ps: torch.optim.SGD(ps, lr=0.1, momentum=0.9),
                 lambda ps: torch.optim.Adam(ps, lr=0.1, amsgrad=True), lambda ps: torch.optim.NAdam(ps),
                 lambda ps: torch.optim.ASGD(ps, t0=1), lambda ps: torch.optim.Rprop(ps), lambda ps: torch.optim.Adagrad(ps)]:
        opt = make([{{'params': [m.weight]}}, {{'params': [m.bias], 'lr': 0.5}}])
        for i in range(2):
            opt.zero_grad()
            m(x).pow(2).sum().backward()
            opt.step()
        sd = opt.state_dict()
        print(sd)
        opt2 = make(m.parameters())
        try:
            opt2.load_state_dict(sd)
        except ValueError as e:
            print("ValueError:", e)
        opt2 = make([{{'params': [m.weight]}}, {{'params': [m.bias]}}])
        opt2.load_state_dict(sd)
        print(opt2.param_groups[1]['lr'], len(opt2.state_dict()['state']))
        opt2.zero_grad()
        m(x).pow(2).sum().backward()
        opt2.step()
        print(m.weight.tolist(), m.bias.tolist())
    torch.set_default_dtype(torch.float64)
"""
for _dt in ("float64", "float32"):
    _case = "optim/state_dict_" + _dt
    case(_case, _STATE.format(dt=_dt))
    NEEDS_MKL.add(_case)

case(
    "optim/state_dict_program_optimizer",
    """
    import torch
    class Mom(torch.optim.Optimizer):
        def __init__(self, params, lr=0.1, beta=0.5):
            super().__init__(params, dict(lr=lr, beta=beta))
        def step(self):
            for g in self.param_groups:
                for p in g['params']:
                    st = self.state[p]
                    if 'buf' not in st:
                        st['buf'] = torch.zeros_like(p)
                        st['n'] = 0
                    st['buf'].mul_(g['beta']).add_(p.grad)
                    st['n'] += 1
                    p.data.add_(st['buf'], alpha=-g['lr'])
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = Mom([w])
    for i in range(3):
        opt.zero_grad()
        (w * w).sum().backward()
        opt.step()
    sd = opt.state_dict()
    print(sd)
    o2 = Mom([w], lr=1.0)
    o2.load_state_dict(sd)
    print(o2.state_dict(), o2.param_groups[0]['lr'])
    o2.zero_grad()
    (w * w).sum().backward()
    o2.step()
    print(w.tolist())
""",
)

# LBFGS, with the fixed step and with the strong-Wolfe line search: the closure's loss is
# elementwise (no matrix product), the values printed with every digit
_LBFGS = """
    import torch
    torch.set_default_dtype(torch.{dt})
    torch.manual_seed(5)
    a = torch.randn(6)
    c = torch.rand(6) + 0.5
    w = torch.zeros(6, requires_grad=True)
    b = torch.zeros(2, requires_grad=True)
    opt = torch.optim.LBFGS([w, b], lr={lr}, max_iter=15, history_size=4, line_search_fn={ls})
    def closure():
        opt.zero_grad()
        loss = (c * (w - a) ** 2).sum() + ((b - 1) ** 4).sum() + (w[:2] * b).sum() ** 2
        loss.backward()
        return loss
    for i in range(4):
        loss = opt.step(closure)
        print(i, loss.item(), w.tolist(), b.tolist(), opt.state[w]['func_evals'], opt.state[w]['n_iter'])
    v = torch.tensor([-1.2, 1.0], requires_grad=True)
    opt2 = torch.optim.LBFGS([v], lr=0.5, max_iter=40, line_search_fn={ls})
    def rosen():
        opt2.zero_grad()
        l = (1 - v[0]) ** 2 + 100 * (v[1] - v[0] ** 2) ** 2
        l.backward()
        return l
    for i in range(4):
        print(opt2.step(rosen).item(), v.tolist())
    torch.set_default_dtype(torch.float64)
"""
for _dt in ("float64", "float32"):
    for _name, _ls, _lr in [
        ("fixed", "None", 1),
        ("strong_wolfe", "'strong_wolfe'", 1),
        ("fixed_lr", "None", 0.3),
    ]:
        case("optim/lbfgs_%s_%s" % (_name, _dt), _LBFGS.format(dt=_dt, ls=_ls, lr=_lr))

# Adafactor on vectors, matrices and a 3-d tensor (factored row and column variances),
# with its options
_ADAFACTOR = """
    import torch
    torch.set_default_dtype(torch.{dt})
    torch.manual_seed(7)
    ps = [torch.randn(5, requires_grad=True), torch.randn(3, 4, requires_grad=True), torch.randn(2, 3, 5, requires_grad=True), torch.randn(1, requires_grad=True)]
    ts = [torch.randn(p.shape) for p in ps]
    for kw in [{{}}, {{"lr": 0.05, "weight_decay": 0.1, "maximize": False}}, {{"eps": (1e-6, 1e-2), "d": 2.0, "beta2_decay": -0.5}}]:
        qs = [p.detach().clone().requires_grad_() for p in ps]
        opt = torch.optim.Adafactor(qs, **kw)
        for i in range(30):
            opt.zero_grad()
            for q, t in zip(qs, ts):
                ((q - t) ** 2 * (t + 2)).sum().backward()
            opt.step()
        for q in qs:
            print(q.tolist())
    torch.set_default_dtype(torch.float64)
"""
for _dt in ("float64", "float32"):
    case("optim/adafactor_" + _dt, _ADAFACTOR.format(dt=_dt))

case(
    "optim/maximize_and_reprs",
    """
    import torch
    w = torch.tensor([0.5, -1.5, 2.0], requires_grad=True)
    for make in [torch.optim.Adamax, torch.optim.NAdam, torch.optim.RAdam, torch.optim.Rprop, torch.optim.ASGD]:
        v = w.detach().clone().requires_grad_()
        opt = make([v], lr=0.05, maximize=True)
        for i in range(8):
            opt.zero_grad()
            (-(v - 1) ** 2).sum().backward()
            opt.step()
        print(type(opt).__name__, v.tolist())
    torch.optim.Adamax([w])
    torch.optim.NAdam([w])
    torch.optim.RAdam([w])
    torch.optim.Rprop([w])
    torch.optim.ASGD([w])
    torch.optim.Adafactor([w])
    print(type(torch.optim.NAdam([w])), isinstance(torch.optim.ASGD([w]), torch.optim.Optimizer))
""",
)

case(
    "optim/step_closure",
    """
    import torch
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1, momentum=0.5)
    def closure():
        opt.zero_grad()
        loss = (w * w).sum()
        loss.backward()
        return loss
    for i in range(3):
        with torch.no_grad():
            loss = opt.step(closure)
        print(loss, w.tolist())
    print(opt.step())
    opt = torch.optim.Rprop([w])
    print(opt.step(closure), w.tolist())
""",
)

for _name, _src in [
    ("adamax_lr", "torch.optim.Adamax([w], lr=-1.0)"),
    ("adamax_beta", "torch.optim.Adamax([w], betas=(0.9, 1.0))"),
    ("nadam_momentum_decay", "torch.optim.NAdam([w], momentum_decay=-0.1)"),
    ("nadam_eps", "torch.optim.NAdam([w], eps=-1e-8)"),
    ("radam_wd", "torch.optim.RAdam([w], weight_decay=-0.1)"),
    ("rprop_etas", "torch.optim.Rprop([w], etas=(1.5, 1.2))"),
    ("asgd_wd", "torch.optim.ASGD([w], weight_decay=-1)"),
    ("capturable_adam", "torch.optim.Adam([w], capturable=True).step()"),
    ("capturable_adadelta", "torch.optim.Adadelta([w], capturable=True).step()"),
    ("capturable_nadam", "torch.optim.NAdam([w], capturable=True).step()"),
    ("capturable_asgd", "torch.optim.ASGD([w], capturable=True).step()"),
    ("capturable_rprop", "torch.optim.Rprop([w], capturable=True).step()"),
    ("sgd_capturable", "torch.optim.SGD([w], capturable=True)"),
    ("rmsprop_fused", "torch.optim.RMSprop([w], fused=True)"),
    ("nadam_fused", "torch.optim.NAdam([w], fused=True)"),
    ("sgd_momentum", "torch.optim.SGD([w], lr=0.1, momentum=-0.5)"),
    ("sgd_nesterov", "torch.optim.SGD([w], lr=0.1, nesterov=True)"),
    (
        "sgd_nesterov_dampening",
        "torch.optim.SGD([w], lr=0.1, momentum=0.9, dampening=0.1, nesterov=True)",
    ),
    ("sgd_wd", "torch.optim.SGD([w], lr=0.1, weight_decay=-1)"),
    ("adam_beta", "torch.optim.Adam([w], betas=(1.0, 0.9))"),
    ("adam_beta2", "torch.optim.Adam([w], betas=(0.9, -0.1))"),
    ("adam_eps", "torch.optim.Adam([w], eps=-1.0)"),
    ("adamw_lr", "torch.optim.AdamW([w], lr=-0.1)"),
    # two options wrong: the first of torch's checks (lr, eps, betas, weight_decay) speaks
    ("adam_lr_and_beta", "torch.optim.Adam([w], lr=-1.0, betas=(2.0, 0.9))"),
    ("adamw_eps_and_beta", "torch.optim.AdamW([w], eps=-1.0, betas=(2.0, 0.9))"),
    ("adam_nan_lr", "torch.optim.Adam([w], lr=float('nan'))"),
    ("rmsprop_alpha", "torch.optim.RMSprop([w], alpha=-0.5)"),
    ("adadelta_rho", "torch.optim.Adadelta([w], rho=1.5)"),
    ("adagrad_lr_decay", "torch.optim.Adagrad([w], lr_decay=-1)"),
    (
        "lbfgs_groups",
        "torch.optim.LBFGS([{'params': [w]}, {'params': [torch.zeros(1, requires_grad=True)]}])",
    ),
    (
        "lbfgs_line_search",
        "torch.optim.LBFGS([w], line_search_fn='armijo').step(lambda: (w * w).sum())",
    ),
    ("lbfgs_no_closure", "torch.optim.LBFGS([w]).step()"),
    ("lbfgs_lr", "torch.optim.LBFGS([w], lr=-1)"),
    ("adafactor_lr", "torch.optim.Adafactor([w], lr=-1)"),
    ("adafactor_beta2_decay", "torch.optim.Adafactor([w], beta2_decay=0.5)"),
    ("adafactor_eps", "torch.optim.Adafactor([w], eps=(-1.0, 1e-3))"),
    ("adafactor_d", "torch.optim.Adafactor([w], d=0.5)"),
    (
        "load_group_size",
        "torch.optim.SGD([w], lr=0.1).load_state_dict(torch.optim.SGD([w, torch.zeros(1, requires_grad=True)]).state_dict())",
    ),
]:
    case(
        "optim/errors_" + _name,
        """
        import torch
        w = torch.tensor([1.0], requires_grad=True)
        w.grad = torch.tensor([0.5])
        """
        + _src
        + "\n",
    )
