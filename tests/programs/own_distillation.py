# Knowledge distillation (seeded by a helper that also sets torch.backends.cudnn's flags): a teacher trained briefly, then a smaller student trained on a mix of the hard-label cross entropy and the KL divergence between temperature-softened distributions (F.kl_div on log_softmax with reduction="batchmean" and log_target, scaled by T squared), nn.KLDivLoss, label smoothing, soft-target cross entropy with probabilities, agreement and accuracy as metrics in a dict comprehension, f-strings with format specs (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
import torch.nn.functional as F

def seed_everything(seed):
    torch.manual_seed(seed)
    torch.backends.cudnn.deterministic = True
    torch.backends.cudnn.benchmark = False


seed_everything(42)
N, D, C = 64, 10, 4
X = torch.randn(N, D)
true_w = torch.randn(D, C)
y = (X @ true_w + 0.3 * torch.randn(N, C)).argmax(dim=1)
print("class counts:", torch.bincount(y, minlength=C).tolist())


def mlp(hidden):
    return nn.Sequential(nn.Linear(D, hidden), nn.GELU(), nn.Dropout(0.1), nn.Linear(hidden, C))


teacher, student = mlp(32), mlp(6)
n_params = {name: sum(p.numel() for p in m.parameters()) for name, m in [("teacher", teacher), ("student", student)]}
print(n_params, f"ratio {n_params['student'] / n_params['teacher']:.1%}")

opt = torch.optim.AdamW(teacher.parameters(), lr=3e-2, weight_decay=1e-2)
ce = nn.CrossEntropyLoss(label_smoothing=0.1)
teacher.train()
for step in range(25):
    loss = ce(teacher(X), y)
    opt.zero_grad(set_to_none=True)
    loss.backward()
    opt.step()
print(f"teacher loss {loss.item():.4f}")


def distill_loss(s_logits, t_logits, labels, T=3.0, alpha=0.7):
    soft = F.kl_div(
        F.log_softmax(s_logits / T, dim=-1),
        F.log_softmax(t_logits / T, dim=-1),
        reduction="batchmean",
        log_target=True,
    ) * (T * T)
    hard = F.cross_entropy(s_logits, labels)
    return alpha * soft + (1 - alpha) * hard, soft.detach(), hard.detach()


teacher.eval()
with torch.no_grad():
    t_logits = teacher(X)
print(t_logits.requires_grad, teacher.training, student.training)

opt_s = torch.optim.Adam(student.parameters(), lr=2e-2, betas=(0.9, 0.99))
for step in range(1, 31):
    total, soft, hard = distill_loss(student(X), t_logits, y)
    opt_s.zero_grad()
    total.backward()
    opt_s.step()
    if step % 10 == 0:
        print(f"step {step:>3} | total {total.item():8.5f} | soft {soft.item():.3e} | hard {hard.item():+.4f}")

student.eval()
with torch.no_grad():
    s_logits = student(X)
    metrics = {
        "student_acc": (s_logits.argmax(1) == y).float().mean().item(),
        "teacher_acc": (t_logits.argmax(1) == y).float().mean().item(),
        "agreement": (s_logits.argmax(1) == t_logits.argmax(1)).float().mean().item(),
    }
for name, value in sorted(metrics.items(), key=lambda kv: -kv[1]):
    print(f"{name:<12}{value:>8.2%}")

# the same divergence three ways
T = 2.0
log_p = F.log_softmax(s_logits[:5] / T, dim=1)
q = F.softmax(t_logits[:5] / T, dim=1)
kl1 = F.kl_div(log_p, q, reduction="batchmean")
kl2 = nn.KLDivLoss(reduction="sum")(log_p, q) / 5
kl3 = (q * (q.log() - log_p)).sum(1).mean()
print(kl1, torch.allclose(kl1, kl2), torch.allclose(kl1, kl3))
print(F.kl_div(log_p, q, reduction="none").sum(1))
print(F.cross_entropy(s_logits[:5], q), (-(q * F.log_softmax(s_logits[:5], 1)).sum(1)).mean())

# gradients of the soft loss reach the student only
x = X[:3]
s = student(x)
t = teacher(x)
loss = F.kl_div(F.log_softmax(s, 1), F.softmax(t.detach(), 1), reduction="batchmean")
student.zero_grad()
teacher.zero_grad()
loss.backward()
print(student[0].bias.grad)
print(all(p.grad is None for p in teacher.parameters()), loss.grad_fn)
# a differentiable discrete choice of the student's class, soft and straight-through
choice = F.gumbel_softmax(s.detach().requires_grad_(), tau=0.5, hard=True)
print(choice, choice.grad_fn, torch.backends.cudnn.deterministic)
print(F.softmax(torch.tensor([1.0, 2.0, 3.0]) / torch.tensor([0.5, 1.0, 5.0]).unsqueeze(1), dim=1))
