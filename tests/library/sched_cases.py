"""Golden cases for torch.optim.lr_scheduler, recorded from real PyTorch by
scripts/gen_golden.py sched into tests/golden/sched.json and replayed by
tests/library/test_sched.py (the rules of nn_cases.py: float64 default, `display`).

A schedule is Python-float arithmetic, so every lr is printed with all its digits: the
recursive ("chainable") forms and the closed forms of `step(epoch)` must agree with
torch's bit for bit, as must the parameters an optimizer moves with them."""

import textwrap

CASES = []


def case(name, src):
    if any(n == name for n, _ in CASES):
        raise ValueError("duplicate case name: " + name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


# Each scheduler on two parameter groups, stepped after the optimizer, with the lr of
# the second group set by hand halfway (the chainable forms go on from it).
_RUN = """
    import torch
    w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    b = torch.tensor([0.25], requires_grad=True)
    opt = torch.optim.SGD([{{'params': [w]}}, {{'params': [b], 'lr': 0.3}}], lr=0.1, momentum=0.9)
    sched = {sched}
    print(sched.get_last_lr(), [g['initial_lr'] for g in opt.param_groups])
    for i in range({steps}):
        opt.zero_grad()
        ((w * w).sum() + (b ** 3).sum()).backward()
        opt.step()
        sched.step()
        if i == {touch}:
            opt.param_groups[1]['lr'] = 0.2
        print(i, sched.last_epoch, sched.get_last_lr())
    print(w.tolist(), b.tolist())
    print(sched.state_dict())
"""

for _name, _sched, _steps in [
    ("lambda", "torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 0.95 ** e)", 8),
    (
        "lambda_per_group",
        "torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1 / (e + 1), lambda e: 0.9 ** e])",
        8,
    ),
    ("multiplicative", "torch.optim.lr_scheduler.MultiplicativeLR(opt, lambda e: 0.95)", 8),
    ("step", "torch.optim.lr_scheduler.StepLR(opt, step_size=3, gamma=0.7)", 10),
    (
        "multistep",
        "torch.optim.lr_scheduler.MultiStepLR(opt, milestones=[2, 5, 5, 7], gamma=0.3)",
        10,
    ),
    ("constant", "torch.optim.lr_scheduler.ConstantLR(opt, factor=0.3, total_iters=4)", 8),
    ("constant_default", "torch.optim.lr_scheduler.ConstantLR(opt)", 8),
    ("linear", "torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.1, total_iters=6)", 9),
    (
        "linear_down",
        "torch.optim.lr_scheduler.LinearLR(opt, start_factor=1.0, end_factor=0.05, total_iters=7)",
        9,
    ),
    ("exponential", "torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.87)", 8),
    ("polynomial", "torch.optim.lr_scheduler.PolynomialLR(opt, total_iters=6, power=2.0)", 9),
    ("polynomial_default", "torch.optim.lr_scheduler.PolynomialLR(opt)", 7),
    ("cosine", "torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=5, eta_min=0.01)", 14),
    ("cosine_zero", "torch.optim.lr_scheduler.CosineAnnealingLR(opt, 7)", 9),
    (
        "warm_restarts",
        "torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001)",
        12,
    ),
    ("warm_restarts_1", "torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 4)", 9),
    (
        "cyclic",
        "torch.optim.lr_scheduler.CyclicLR(opt, base_lr=0.01, max_lr=0.1, step_size_up=3, "
        "step_size_down=2)",
        12,
    ),
    (
        "cyclic_triangular2",
        "torch.optim.lr_scheduler.CyclicLR(opt, [0.01, 0.02], [0.1, 0.3], step_size_up=2, "
        "mode='triangular2', cycle_momentum=False)",
        12,
    ),
    (
        "cyclic_exp_range",
        "torch.optim.lr_scheduler.CyclicLR(opt, 0.001, 0.05, step_size_up=3, mode='exp_range', "
        "gamma=0.9, base_momentum=0.7, max_momentum=0.95)",
        12,
    ),
    (
        "cyclic_scale_fn",
        "torch.optim.lr_scheduler.CyclicLR(opt, 0.001, 0.05, step_size_up=2, "
        "scale_fn=lambda x: 0.5 ** x, scale_mode='iterations')",
        9,
    ),
    ("one_cycle", "torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=0.5, total_steps=12)", 12),
    (
        "one_cycle_three_phase_linear",
        "torch.optim.lr_scheduler.OneCycleLR(opt, max_lr=[0.5, 1.0], epochs=3, steps_per_epoch=4, "
        "pct_start=0.25, anneal_strategy='linear', three_phase=True, div_factor=10.0)",
        12,
    ),
]:
    case("sched/" + _name, _RUN.format(sched=_sched, steps=_steps, touch=_steps // 2))

case(
    "sched/momentum_cycled",
    """
    import torch
    w = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    sched = torch.optim.lr_scheduler.CyclicLR(opt, 0.01, 0.2, step_size_up=2)
    print(opt.param_groups[0]['momentum'], opt.param_groups[0]['max_momentum'])
    for i in range(6):
        opt.zero_grad()
        (w * w).sum().backward()
        opt.step()
        sched.step()
        print(i, sched.get_last_lr(), opt.param_groups[0]['momentum'], w.tolist())
    v = torch.tensor([1.0, -2.0, 0.5], requires_grad=True)
    adam = torch.optim.Adam([v], lr=0.1, betas=(0.8, 0.99))
    oc = torch.optim.lr_scheduler.OneCycleLR(adam, max_lr=0.3, total_steps=7)
    print(adam.param_groups[0]['betas'], adam.param_groups[0]['initial_lr'], adam.param_groups[0]['min_lr'])
    for i in range(7):
        adam.zero_grad()
        (v * v).sum().backward()
        adam.step()
        oc.step()
        print(i, oc.get_last_lr(), adam.param_groups[0]['betas'], v.tolist())
    oc.step()
""",
)

case(
    "sched/plateau",
    """
    import torch
    w = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.SGD([{'params': [w]}, {'params': [torch.zeros(1, requires_grad=True)], 'lr': 0.05}], lr=0.1)
    sched = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, patience=2, factor=0.5, cooldown=1, min_lr=[0.01, 0.02])
    losses = [1.0, 0.9, 0.95, 0.91, 0.9, 0.92, 0.93, 0.94, 0.5, 0.6, 0.7, 0.8, 0.9, 1.0, 1.1, 1.2, 1.3]
    for i, loss in enumerate(losses):
        sched.step(loss)
        print(i, sched.get_last_lr(), sched.best, sched.num_bad_epochs, sched.cooldown_counter, sched.in_cooldown)
    print(sched.state_dict())
    up = torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='max', threshold=0.1, threshold_mode='abs', patience=0)
    for m in [1.0, 1.05, 1.2, 1.25, torch.tensor(1.5), torch.tensor([1.55])]:
        up.step(m)
        print(up.get_last_lr(), up.best)
    up.step(0.1, 10)
    print(up.last_epoch)
""",
)

case(
    "sched/sequential",
    """
    import torch
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.5)
    warm = torch.optim.lr_scheduler.LinearLR(opt, start_factor=0.2, total_iters=3)
    decay = torch.optim.lr_scheduler.CosineAnnealingLR(opt, T_max=6, eta_min=0.01)
    sched = torch.optim.lr_scheduler.SequentialLR(opt, schedulers=[warm, decay], milestones=[3])
    print(sched.get_last_lr(), warm.last_epoch, decay.last_epoch)
    for i in range(10):
        opt.zero_grad()
        (w * w).sum().backward()
        opt.step()
        sched.step()
        print(i, sched.get_last_lr(), warm.last_epoch, decay.last_epoch, w.tolist())
    print(sched.state_dict())
    opt2 = torch.optim.SGD([w], lr=1.0)
    s3 = torch.optim.lr_scheduler.SequentialLR(opt2, [
        torch.optim.lr_scheduler.ConstantLR(opt2, factor=0.5, total_iters=2),
        torch.optim.lr_scheduler.ExponentialLR(opt2, gamma=0.9),
        torch.optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.5)], milestones=[2, 5])
    for i in range(9):
        opt2.step()
        s3.step()
        print(i, s3.get_last_lr())
""",
)

case(
    "sched/chained_and_several",
    """
    import torch
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=1.0)
    s1 = torch.optim.lr_scheduler.ConstantLR(opt, factor=0.1, total_iters=2)
    s2 = torch.optim.lr_scheduler.ExponentialLR(opt, gamma=0.9)
    sched = torch.optim.lr_scheduler.ChainedScheduler([s1, s2], optimizer=opt)
    print(sched.get_last_lr())
    for i in range(6):
        opt.step()
        sched.step()
        print(i, sched.get_last_lr(), s1.get_last_lr(), s2.last_epoch)
    print(sched.state_dict())
    opt2 = torch.optim.Adam([w], lr=0.1)
    a = torch.optim.lr_scheduler.StepLR(opt2, step_size=2, gamma=0.5)
    b = torch.optim.lr_scheduler.MultiStepLR(opt2, milestones=[3], gamma=0.1)
    c = torch.optim.lr_scheduler.LambdaLR(opt2, lambda e: 1.0)
    for i in range(5):
        opt2.step()
        a.step()
        b.step()
        print(i, a.get_last_lr(), b.get_last_lr(), opt2.param_groups[0]['lr'])
""",
)

case(
    "sched/closed_form_epochs",
    """
    import torch
    w = torch.tensor([1.0], requires_grad=True)
    for make in [
        lambda o: torch.optim.lr_scheduler.StepLR(o, 3, 0.5),
        lambda o: torch.optim.lr_scheduler.MultiStepLR(o, [2, 4, 4], 0.5),
        lambda o: torch.optim.lr_scheduler.ConstantLR(o, 0.25, 3),
        lambda o: torch.optim.lr_scheduler.LinearLR(o, 0.2, 0.9, 4),
        lambda o: torch.optim.lr_scheduler.ExponentialLR(o, 0.8),
        lambda o: torch.optim.lr_scheduler.PolynomialLR(o, 4, 0.5),
        lambda o: torch.optim.lr_scheduler.CosineAnnealingLR(o, 5, 0.001),
        lambda o: torch.optim.lr_scheduler.LambdaLR(o, lambda e: 1 / (1 + e)),
        lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, 2, 3, 0.01),
        lambda o: torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(o, 3),
    ]:
        opt = torch.optim.SGD([w], lr=0.7)
        s = make(opt)
        out = []
        for e in [0, 1, 2, 5, 3, 7, 6, 11, 4]:
            opt.step()
            s.step(e)
            out.append(s.get_last_lr()[0])
        s.step()
        print(type(s).__name__, out, s.get_last_lr(), s.last_epoch)
""",
)

case(
    "sched/warnings_and_state",
    """
    import torch
    w = torch.tensor([1.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    s = torch.optim.lr_scheduler.ExponentialLR(opt, 0.5)
    s.step()
    s.step()
    print(s.get_last_lr())
    print(s.get_lr(), s.get_last_lr())
    sd = s.state_dict()
    print(sd)
    opt2 = torch.optim.SGD([w], lr=0.1)
    s2 = torch.optim.lr_scheduler.ExponentialLR(opt2, 0.5)
    s2.load_state_dict(sd)
    print(s2.last_epoch, s2.get_last_lr(), s2.base_lrs, opt2.param_groups[0]['lr'])
    opt2.step()
    s2.step()
    print(s2.get_last_lr(), s2.last_epoch)
    s.last_epoch = 10
    s.step()
    print(s.last_epoch, s.get_last_lr())
    r = torch.optim.lr_scheduler.StepLR(opt, 2, last_epoch=4)
    print(r.last_epoch, r.get_last_lr(), r.base_lrs)
    ls = torch.optim.lr_scheduler.LambdaLR(opt, lambda e: 2.0)
    print(ls.state_dict())
    print(isinstance(ls, torch.optim.lr_scheduler.LRScheduler), type(ls), ls)
""",
)

for _name, _src in [
    ("not_optimizer", "torch.optim.lr_scheduler.StepLR([w], 2)"),
    ("resume_no_initial_lr", "torch.optim.lr_scheduler.StepLR(opt, 2, last_epoch=3)"),
    ("lambda_count", "torch.optim.lr_scheduler.LambdaLR(opt, [lambda e: 1.0, lambda e: 2.0])"),
    ("multiplicative_not_callable", "torch.optim.lr_scheduler.MultiplicativeLR(opt, 0.9)"),
    ("constant_factor", "torch.optim.lr_scheduler.ConstantLR(opt, factor=1.5)"),
    ("linear_start", "torch.optim.lr_scheduler.LinearLR(opt, start_factor=0)"),
    ("linear_end", "torch.optim.lr_scheduler.LinearLR(opt, end_factor=2)"),
    ("plateau_factor", "torch.optim.lr_scheduler.ReduceLROnPlateau(opt, factor=1.0)"),
    ("plateau_mode", "torch.optim.lr_scheduler.ReduceLROnPlateau(opt, mode='low')"),
    (
        "plateau_threshold_mode",
        "torch.optim.lr_scheduler.ReduceLROnPlateau(opt, threshold_mode='x')",
    ),
    ("plateau_min_lrs", "torch.optim.lr_scheduler.ReduceLROnPlateau(opt, min_lr=[0.1, 0.2])"),
    ("cyclic_mode", "torch.optim.lr_scheduler.CyclicLR(opt, 0.1, 1.0, mode='sawtooth')"),
    ("cyclic_base_lr_count", "torch.optim.lr_scheduler.CyclicLR(opt, [0.1, 0.2], 1.0)"),
    ("cyclic_no_momentum", "torch.optim.lr_scheduler.CyclicLR(torch.optim.Adagrad([w]), 0.1, 1.0)"),
    ("warm_t0", "torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 0)"),
    ("warm_tmult", "torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2, T_mult=0)"),
    (
        "warm_negative_epoch",
        "torch.optim.lr_scheduler.CosineAnnealingWarmRestarts(opt, 2).step(-1)",
    ),
    ("one_cycle_no_steps", "torch.optim.lr_scheduler.OneCycleLR(opt, 0.1)"),
    ("one_cycle_total", "torch.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=0)"),
    (
        "one_cycle_pct",
        "torch.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=5, pct_start=1.5)",
    ),
    (
        "one_cycle_anneal",
        "torch.optim.lr_scheduler.OneCycleLR(opt, 0.1, total_steps=5, anneal_strategy='exp')",
    ),
    (
        "one_cycle_epochs",
        "torch.optim.lr_scheduler.OneCycleLR(opt, 0.1, epochs=0, steps_per_epoch=3)",
    ),
    ("sequential_empty", "torch.optim.lr_scheduler.SequentialLR(opt, [], [])"),
    (
        "sequential_milestones",
        "torch.optim.lr_scheduler.SequentialLR(opt, [torch.optim.lr_scheduler.StepLR(opt, 2)], [1])",
    ),
    (
        "sequential_plateau",
        "torch.optim.lr_scheduler.SequentialLR(opt, [torch.optim.lr_scheduler.ReduceLROnPlateau(opt)], [])",
    ),
    ("chained_empty", "torch.optim.lr_scheduler.ChainedScheduler([])"),
]:
    case(
        "sched/errors_" + _name,
        """
        import torch
        w = torch.tensor([1.0], requires_grad=True)
        opt = torch.optim.SGD([w], lr=0.1)
        """
        + _src
        + "\n",
    )

case(
    "sched/program_optimizers",
    """
    import torch
    class MySGD(torch.optim.Optimizer):
        def __init__(self, params, lr=0.1):
            super().__init__(params, dict(lr=lr))
        def step(self, closure=None):
            for g in self.param_groups:
                for p in g['params']:
                    if p.grad is not None:
                        p.data.add_(p.grad, alpha=-g['lr'])
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    opt = MySGD([w])
    s = torch.optim.lr_scheduler.StepLR(opt, 1, 0.5)
    for i in range(3):
        (w * w).sum().backward()
        opt.step()
        opt.zero_grad()
        s.step()
        print(s.get_last_lr(), w.tolist())
    class Loud(torch.optim.SGD):
        def step(self, closure=None):
            print("my step")
            super().step()
    opt = Loud([w], lr=0.1)
    s = torch.optim.lr_scheduler.StepLR(opt, 1, 0.5)
    s2 = torch.optim.lr_scheduler.ExponentialLR(opt, 0.9)
    (w * w).sum().backward()
    opt.step()
    s.step()
    s2.step()
    print(s.get_last_lr(), w.tolist())
""",
)

case(
    "sched/program_optimizer_not_stepped",
    """
    import torch
    w = torch.tensor([1.0, 2.0], requires_grad=True)
    class Idle(torch.optim.Optimizer):
        def __init__(self, params):
            super().__init__(params, {'lr': 0.5})
        def step(self):
            pass
    o = Idle([w])
    e = torch.optim.lr_scheduler.ExponentialLR(o, 0.5)
    e.step()
    print(e.get_last_lr())
""",
)

case(
    "sched/program_schedulers",
    """
    import torch
    class WarmupLR(torch.optim.lr_scheduler.LRScheduler):
        def __init__(self, optimizer, warmup, last_epoch=-1):
            self.warmup = warmup
            super().__init__(optimizer, last_epoch)
        def get_lr(self):
            return [base * min(1.0, (self.last_epoch + 1) / self.warmup) for base in self.base_lrs]
    class Halve(torch.optim.lr_scheduler.StepLR):
        def get_lr(self):
            lrs = super().get_lr()
            return [lr / 2 for lr in lrs]
    w = torch.tensor([1.0, -2.0], requires_grad=True)
    opt = torch.optim.SGD([w], lr=0.1)
    s = WarmupLR(opt, 4)
    print(s.get_last_lr(), s.warmup)
    for i in range(6):
        opt.step()
        s.step()
        print(i, s.get_last_lr(), s.last_epoch)
    print(s.state_dict())
    print(isinstance(s, torch.optim.lr_scheduler.LRScheduler), type(s))
    h = Halve(opt, 2)
    for i in range(3):
        opt.step()
        h.step()
        print(h.get_last_lr())
    print(s, h)
    class Old(torch.optim.lr_scheduler._LRScheduler):
        def get_lr(self):
            return [g['lr'] * 0.5 for g in self.optimizer.param_groups]
    o = Old(opt)
    opt.step()
    o.step()
    print(o.get_last_lr(), o, isinstance(o, torch.optim.lr_scheduler.LRScheduler))
""",
)

# Edge values (zero factors and lengths, a float step_size, a cosine of period 1, one-step
# cycles) under plain steps, step(epoch) going back and forth, and an lr set by hand:
# torch's rates, its ZeroDivisionErrors and ValueErrors caught by the program
case(
    "sched/edges",
    """
    import torch
    L = torch.optim.lr_scheduler
    w = torch.tensor([1.0], requires_grad=True)
    makers = [
     ('L.StepLR(o, 2, 0.5)', lambda o: L.StepLR(o, 2, 0.5)),
     ('L.MultiStepLR(o, [1, 3, 3], 0.5)', lambda o: L.MultiStepLR(o, [1, 3, 3], 0.5)),
     ('L.ConstantLR(o, 0.0, 3)', lambda o: L.ConstantLR(o, 0.0, 3)),
     ('L.ConstantLR(o, 0.5, 0)', lambda o: L.ConstantLR(o, 0.5, 0)),
     ('L.LinearLR(o, 0.5, 0.0, 3)', lambda o: L.LinearLR(o, 0.5, 0.0, 3)),
     ('L.LinearLR(o, 1.0, 1.0, 0)', lambda o: L.LinearLR(o, 1.0, 1.0, 0)),
     ('L.ExponentialLR(o, 1.5)', lambda o: L.ExponentialLR(o, 1.5)),
     ('L.PolynomialLR(o, 0, 1.0)', lambda o: L.PolynomialLR(o, 0, 1.0)),
     ('L.PolynomialLR(o, 3, 0.5)', lambda o: L.PolynomialLR(o, 3, 0.5)),
     ('L.CosineAnnealingLR(o, 1)', lambda o: L.CosineAnnealingLR(o, 1)),
     ('L.CosineAnnealingLR(o, 3, 0.2)', lambda o: L.CosineAnnealingLR(o, 3, 0.2)),
     ('L.CosineAnnealingWarmRestarts(o, 1, 3)', lambda o: L.CosineAnnealingWarmRestarts(o, 1, 3)),
     ('L.CosineAnnealingWarmRestarts(o, 2, 2, 0.05)', lambda o: L.CosineAnnealingWarmRestarts(o, 2, 2, 0.05)),
     ("L.CyclicLR(o, 0.01, 0.1, 1, 1, mode='triangular2')", lambda o: L.CyclicLR(o, 0.01, 0.1, 1, 1, mode='triangular2')),
     ('L.CyclicLR(o, 0.1, 0.01, 2)', lambda o: L.CyclicLR(o, 0.1, 0.01, 2)),
     ('L.OneCycleLR(o, 1.0, total_steps=3)', lambda o: L.OneCycleLR(o, 1.0, total_steps=3)),
     ('L.OneCycleLR(o, 1.0, total_steps=1)', lambda o: L.OneCycleLR(o, 1.0, total_steps=1)),
     ('L.OneCycleLR(o, 1.0, total_steps=6, pct_start=0.0)', lambda o: L.OneCycleLR(o, 1.0, total_steps=6, pct_start=0.0)),
     ('L.ReduceLROnPlateau(o, patience=0, factor=0.5, threshold=0.0)', lambda o: L.ReduceLROnPlateau(o, patience=0, factor=0.5, threshold=0.0)),
     ('L.StepLR(o, 0)', lambda o: L.StepLR(o, 0)),
     ('L.StepLR(o, 2.5)', lambda o: L.StepLR(o, 2.5)),
     ('L.MultiStepLR(o, [])', lambda o: L.MultiStepLR(o, [])),
    ]
    plans = [[None]*5, [3, None, 0, None, 7, 7], [None, 'lr', None, 2, None]]
    for mk, make in makers:
        for plan in plans:
            out = []
            try:
                o = torch.optim.SGD([w], lr=0.1, momentum=0.5)
                s = make(o)
                out.append(s.get_last_lr())
                for a in plan:
                    o.step()
                    if a == 'lr':
                        o.param_groups[0]['lr'] = 0.3
                    elif 'Plateau' in mk:
                        s.step(1.0 if a is None else a)
                    elif a is None:
                        s.step()
                    else:
                        s.step(a)
                    out.append(s.get_last_lr())
            except Exception as e:
                out.append(type(e).__name__ + ': ' + str(e).splitlines()[0])
            print(mk, out)
""",
)
