# A physics-informed network fitting the ODE u'' + u = 0 with u(0) = 0, u'(0) = 1 on [0, pi]: first and second derivatives of the network's output by torch.autograd.grad(create_graph=True, grad_outputs=torch.ones_like), the residual and boundary losses weighted in a dict, a few Adam steps then L-BFGS with a closure, the error against sin(t), and a Hessian-vector product by double backward (written for this test: code in the shape people bring, no adaptation).
import math
import torch
from torch import nn

torch.manual_seed(7)


class PINN(nn.Module):
    def __init__(self, width=16):
        super().__init__()
        self.net = nn.Sequential(
            nn.Linear(1, width), nn.Tanh(),
            nn.Linear(width, width), nn.Tanh(),
            nn.Linear(width, 1),
        )
        for m in self.net:
            if isinstance(m, nn.Linear):
                nn.init.xavier_normal_(m.weight)
                nn.init.zeros_(m.bias)

    def forward(self, t):
        return self.net(t)


def derivative(y, x):
    return torch.autograd.grad(y, x, grad_outputs=torch.ones_like(y), create_graph=True)[0]


model = PINN()
t = torch.linspace(0, math.pi, 25).unsqueeze(1).requires_grad_(True)
t0 = torch.zeros(1, 1, requires_grad=True)
weights = {"ode": 1.0, "u0": 10.0, "du0": 10.0}


def losses():
    u = model(t)
    du = derivative(u, t)
    d2u = derivative(du, t)
    u_at0 = model(t0)
    du_at0 = derivative(u_at0, t0)
    return {
        "ode": (d2u + u).pow(2).mean(),
        "u0": u_at0.pow(2).sum(),
        "du0": (du_at0 - 1).pow(2).sum(),
    }


adam = torch.optim.Adam(model.parameters(), lr=0.01)
for it in range(40):
    adam.zero_grad()
    parts = losses()
    total = sum(weights[k] * v for k, v in parts.items())
    total.backward()
    adam.step()
    if it % 10 == 0:
        shown = " ".join(f"{k}={v.item():.5f}" for k, v in parts.items())
        print(f"adam {it:3d} total={total.item():.5f} {shown}")

lbfgs = torch.optim.LBFGS(model.parameters(), lr=0.5, max_iter=10, history_size=5, line_search_fn="strong_wolfe")


def closure():
    lbfgs.zero_grad()
    parts = losses()
    total = sum(weights[k] * v for k, v in parts.items())
    total.backward()
    return total


for outer in range(3):
    value = lbfgs.step(closure)
    print(f"lbfgs {outer} loss {value.item():.6f}")

with torch.no_grad():
    probe = torch.tensor([[0.5], [1.0], [2.0], [3.0]])
    pred = model(probe)
    err = (pred - torch.sin(probe)).abs().max()
print(torch.cat([probe, pred, torch.sin(probe)], dim=1))
print(f"max error {err.item():.4f}")

# second derivative at one point, and a Hessian-vector product of the loss
x = torch.tensor([[1.0]], requires_grad=True)
u = model(x)
(du,) = torch.autograd.grad(u, x, create_graph=True)
(d2u,) = torch.autograd.grad(du, x)
print(u.item() + d2u.item() < 0.1, du.requires_grad, d2u.requires_grad)
params = [p for p in model.parameters()]
loss = losses()["ode"]
grads = torch.autograd.grad(loss, params, create_graph=True)
vec = [torch.ones_like(g) for g in grads]
hv = torch.autograd.grad(grads, params, grad_outputs=vec)
print([tuple(h.shape) for h in hv])
print(hv[-1], sum(h.abs().sum() for h in hv).item() > 0)
