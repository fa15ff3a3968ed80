# PyTorch's "Control Flow + Weight Sharing" tutorial (dynamic_net): a module whose forward
# draws from Python's `random` how many powers to add, SGD with momentum.
import math
import random
import time

import torch

random.seed(0)
torch.manual_seed(0)


class DynamicNet(torch.nn.Module):
    def __init__(self):
        super().__init__()
        self.a = torch.nn.Parameter(torch.randn(()))
        self.b = torch.nn.Parameter(torch.randn(()))
        self.c = torch.nn.Parameter(torch.randn(()))
        self.d = torch.nn.Parameter(torch.randn(()))
        self.e = torch.nn.Parameter(torch.randn(()))

    def forward(self, x):
        y = self.a + self.b * x + self.c * x**2 + self.d * x**3
        for exp in range(4, random.randint(4, 6)):
            y = y + self.e * x**exp
        return y

    def string(self):
        return (
            f"y = {self.a.item()} + {self.b.item()} x + {self.c.item()} x^2 + "
            f"{self.d.item()} x^3 + {self.e.item()} x^4 ? + {self.e.item()} x^5 ?"
        )


x = torch.linspace(-math.pi, math.pi, 2000)
y = torch.sin(x)
model = DynamicNet()
criterion = torch.nn.MSELoss(reduction="sum")
optimizer = torch.optim.SGD(model.parameters(), lr=1e-8, momentum=0.9)
t0 = time.process_time()
for t in range(1000):
    y_pred = model(x)
    loss = criterion(y_pred, y)
    if t % 250 == 249:
        print(t, loss.item())
    optimizer.zero_grad()
    loss.backward()
    optimizer.step()
t1 = time.process_time()
print(f"Result: {model.string()}")
print("loop", t1 - t0)
