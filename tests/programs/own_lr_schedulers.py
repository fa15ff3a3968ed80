# Learning-rate schedules and parameter groups: nn.init schemes (orthogonal_, kaiming_uniform_, trunc_normal_, constant_, calculate_gain), an optimizer over two parameter groups with their own lr and weight_decay and add_param_group, then CosineAnnealingLR, LambdaLR, MultiStepLR, ExponentialLR, LinearLR + SequentialLR, CosineAnnealingWarmRestarts, CyclicLR and ReduceLROnPlateau stepped as people step them, printing get_last_lr() and param_groups (written for this test: code in the shape people bring, no adaptation).
import math
import torch
import torch.nn as nn
from torch.optim import lr_scheduler

torch.manual_seed(5)

backbone = nn.Sequential(nn.Linear(4, 6), nn.ReLU(), nn.Linear(6, 6))
head = nn.Linear(6, 2)
nn.init.orthogonal_(backbone[0].weight, gain=nn.init.calculate_gain("relu"))
nn.init.kaiming_uniform_(backbone[2].weight, a=math.sqrt(5), nonlinearity="leaky_relu")
nn.init.trunc_normal_(head.weight, std=0.02, a=-0.04, b=0.04)
nn.init.constant_(head.bias, 0.1)
for m in backbone.modules():
    if isinstance(m, nn.Linear):
        nn.init.zeros_(m.bias)
w0 = backbone[0].weight
print(torch.allclose(w0.T @ w0, 2 * torch.eye(4), atol=1e-5), round(nn.init.calculate_gain("tanh"), 4))
print(head.weight.abs().max().item() <= 0.04, head.bias)

opt = torch.optim.SGD(
    [
        {"params": backbone.parameters(), "lr": 0.01},
        {"params": head.parameters(), "lr": 0.1, "weight_decay": 1e-3},
    ],
    lr=0.05,
    momentum=0.9,
)
print([(g["lr"], g["weight_decay"], g["momentum"], len(g["params"])) for g in opt.param_groups])

x = torch.randn(32, 4)
y = torch.randint(0, 2, (32,))
loss_fn = nn.CrossEntropyLoss()


def train_step():
    opt.zero_grad()
    loss = loss_fn(head(backbone(x)), y)
    loss.backward()
    opt.step()
    return loss.item()


def fmt(lrs):
    return "[" + ", ".join(f"{lr:.5f}" for lr in lrs) + "]"


def run(name, sched, steps, metric=False):
    lrs = []
    for _ in range(steps):
        loss = train_step()
        if metric:
            sched.step(loss)
            lrs.append(fmt([g["lr"] for g in opt.param_groups]))
        else:
            sched.step()
            lrs.append(fmt(sched.get_last_lr()))
    print(name, " ".join(lrs[:3]), "...", lrs[-1])


def reset(lrs=(0.01, 0.1)):
    for g, lr in zip(opt.param_groups, lrs):
        g["lr"] = lr
        g["initial_lr"] = lr


run("cosine", lr_scheduler.CosineAnnealingLR(opt, T_max=6, eta_min=1e-4), 6)
reset()
run("lambda", lr_scheduler.LambdaLR(opt, lr_lambda=[lambda e: 0.5 ** e, lambda e: 1 / (1 + e)]), 4)
reset()
run("multistep", lr_scheduler.MultiStepLR(opt, milestones=[2, 4], gamma=0.1), 5)
reset()
run("exp", lr_scheduler.ExponentialLR(opt, gamma=0.8), 3)
reset()
warm = lr_scheduler.LinearLR(opt, start_factor=0.25, total_iters=3)
decay = lr_scheduler.StepLR(opt, step_size=2, gamma=0.5)
run("sequential", lr_scheduler.SequentialLR(opt, schedulers=[warm, decay], milestones=[3]), 7)
reset()
run("restarts", lr_scheduler.CosineAnnealingWarmRestarts(opt, T_0=3, T_mult=2, eta_min=0.001), 9)
reset()
cyc = lr_scheduler.CyclicLR(opt, base_lr=[0.001, 0.01], max_lr=[0.01, 0.1], step_size_up=2, mode="triangular2")
run("cyclic", cyc, 8)
reset()
plateau = lr_scheduler.ReduceLROnPlateau(opt, mode="min", factor=0.5, patience=1, threshold=0.5)
run("plateau", plateau, 6, metric=True)
print(plateau.num_bad_epochs, plateau.best < 1.0, plateau.get_last_lr() == [g["lr"] for g in opt.param_groups])

extra = nn.Parameter(torch.ones(3))
opt.add_param_group({"params": [extra], "lr": 1.0})
print(len(opt.param_groups), opt.param_groups[2]["momentum"], opt.param_groups[2]["weight_decay"])
(extra * torch.arange(3.0)).sum().backward()
opt.step()
print(extra.data)
sched = lr_scheduler.StepLR(opt, step_size=1, gamma=0.5)
state = sched.state_dict()
print(sorted(k for k in state if not k.startswith("_")), state["step_size"], state["last_epoch"])
print(train_step() > 0, sched.get_last_lr()[2])
