# d2l-style classes of our own: save_hyperparameters through inspect, a generator dataset with random.shuffle, a hand-written SGD, defaultdict stats, numpy beside torch (written for this test: code in the shape people bring, no adaptation).
import torch
import numpy as np
import inspect
import random
import collections
import math
from torch import nn

class HyperParameters:
    def save_hyperparameters(self, ignore=[]):
        frame = inspect.currentframe().f_back
        _, _, _, local_vars = inspect.getargvalues(frame)
        self.hparams = {k: v for k, v in local_vars.items()
                        if k not in set(ignore + ['self']) and not k.startswith('_')}
        for k, v in self.hparams.items():
            setattr(self, k, v)

class SyntheticData(HyperParameters):
    def __init__(self, w, b, noise=0.01, num_train=200, batch_size=16):
        super().__init__()
        self.save_hyperparameters()
        n = num_train
        self.X = torch.randn(n, len(w))
        noise = torch.randn(n, 1) * noise
        self.y = torch.matmul(self.X, w.reshape((-1, 1))) + b + noise
    def __len__(self):
        return self.num_train
    def __iter__(self):
        indices = list(range(self.num_train))
        random.shuffle(indices)
        for i in range(0, self.num_train, self.batch_size):
            batch = torch.tensor(indices[i: i + self.batch_size])
            yield self.X[batch], self.y[batch]

class LinReg(nn.Module, HyperParameters):
    def __init__(self, num_inputs, lr, sigma=0.01):
        super().__init__()
        self.save_hyperparameters()
        self.w = torch.normal(0, sigma, (num_inputs, 1), requires_grad=True)
        self.b = torch.zeros(1, requires_grad=True)
    def forward(self, X):
        return X @ self.w + self.b
    def loss(self, y_hat, y):
        l = (y_hat - y) ** 2 / 2
        return l.mean()

class SGD(HyperParameters):
    def __init__(self, params, lr):
        self.save_hyperparameters()
    def step(self):
        for param in self.params:
            param -= self.lr * param.grad
    def zero_grad(self):
        for param in self.params:
            if param.grad is not None:
                param.grad.zero_()


class Stats:
    def __init__(self):
        self.history = collections.defaultdict(list)
    def add(self, key, value):
        self.history[key].append(value)
    def __repr__(self):
        return f"Stats({', '.join(f'{k}={len(v)}' for k, v in sorted(self.history.items()))})"
    def __getitem__(self, k):
        return self.history[k]

random.seed(1)
torch.manual_seed(1)
data = SyntheticData(w=torch.tensor([2, -3.4]), b=4.2)
model = LinReg(2, lr=0.03)
opt = SGD([model.w, model.b], model.lr)
stats = Stats()
for epoch in range(3):
    for X, y in data:
        l = model.loss(model(X), y)
        opt.zero_grad()
        l.backward()
        with torch.no_grad():
            opt.step()
        stats.add('loss', l.item())
    print(f'epoch {epoch}: {np.mean(stats["loss"][-13:]):.6f}')
print(stats, data.hparams.keys(), len(data), model.hparams)
print(f'error in estimating w: {torch.tensor([2, -3.4]) - model.w.reshape(torch.tensor([2, -3.4]).shape)}')
print(f'error in estimating b: {4.2 - model.b}')
arr = np.array([[1.0, 2.0], [3.0, 4.0]])
t = torch.from_numpy(arr)
print(t.dtype, (t @ t).numpy().tolist(), np.linalg.norm(arr), math.prod([2, 3]), type(t).__name__)
