# Tutorial: Dive into Deep Learning, section "Concise Implementation of Linear
#           Regression" (pytorch tab)
# Source: d2l-ai/d2l-en chapter_linear-regression/linear-regression-concise.md
#         commit 48e232fef0fb7a07e5faf399a678f01bf475b65b
# The pytorch code cells (`%%tab pytorch`, and `%%tab all` cells with their pytorch
# branches), in order (prose and the other frameworks' tabs left out).
# Adaptations:
#   - torch.manual_seed(0) added at the top (the chapter does not seed).
#   - `from d2l import torch as d2l` replaced by the INLINED HELPER below: d2l's own
#     package is not available, so a minimal stand-in for the names this chapter uses
#     (written for this test suite, not d2l's code) is defined at the top: Module,
#     HyperParameters, DataModule, SyntheticRegressionData, Trainer (with the
#     prepare_batch and fit_epoch of the "from Scratch" section), add_to_class and the
#     aliases normal, zeros, tensor, matmul, reshape, reduce_mean. It behaves as d2l's
#     classes do for this chapter (same data generation, DataLoader with shuffle=True
#     for training, same order of random draws) minus the plotting (d2l's ProgressBoard
#     draws the loss curves with matplotlib; nothing is drawn).
#   - HyperParameters in it has d2l's own save_hyperparameters (which reads the caller's
#     arguments with `inspect`), pasted from d2l/torch.py.
#   - `if tab.selected('pytorch'):` blocks are replaced by their bodies, the other tabs'
#     blocks are left out (as d2lbook does when it builds the PyTorch notebook).

import torch
torch.manual_seed(0)  # added

# ---- INLINED HELPER: minimal stand-in for `from d2l import torch as d2l` ----
import inspect

from torch import nn
from torch.utils.data import DataLoader, TensorDataset


def _add_to_class(Class):
    def register(obj):
        setattr(Class, obj.__name__, obj)
    return register


class _HyperParameters:
    # d2l's own HyperParameters.save_hyperparameters (d2l/torch.py at
    # e52dbadf718ce6d6c3f8f717c74cf811c306f34c), as the package defines it
    def save_hyperparameters(self, ignore=[]):
        """Save function arguments into class attributes.
    
        Defined in :numref:`sec_utils`"""
        frame = inspect.currentframe().f_back
        _, _, _, local_vars = inspect.getargvalues(frame)
        self.hparams = {k:v for k, v in local_vars.items()
                        if k not in set(ignore+['self']) and not k.startswith('_')}
        for k, v in self.hparams.items():
            setattr(self, k, v)


class _Module(nn.Module, _HyperParameters):
    def __init__(self):
        super().__init__()

    def forward(self, X):
        return self.net(X)

    def training_step(self, batch):
        return self.loss(self(*batch[:-1]), batch[-1])

    def validation_step(self, batch):
        self.loss(self(*batch[:-1]), batch[-1])


class _DataModule(_HyperParameters):
    def train_dataloader(self):
        return self.get_dataloader(train=True)

    def val_dataloader(self):
        return self.get_dataloader(train=False)

    def get_tensorloader(self, tensors, train, indices=slice(0, None)):
        tensors = tuple(t[indices] for t in tensors)
        return DataLoader(TensorDataset(*tensors), self.batch_size, shuffle=train)


class _SyntheticRegressionData(_DataModule):
    def __init__(self, w, b, noise=0.01, num_train=1000, num_val=1000, batch_size=32):
        super().__init__()
        self.w = w
        self.b = b
        self.noise = noise
        self.num_train = num_train
        self.num_val = num_val
        self.batch_size = batch_size
        n = num_train + num_val
        self.X = torch.randn(n, len(w))
        noise = torch.randn(n, 1) * noise
        self.y = torch.matmul(self.X, w.reshape((-1, 1))) + b + noise

    def get_dataloader(self, train):
        if train:
            i = slice(0, self.num_train)
        else:
            i = slice(self.num_train, None)
        return self.get_tensorloader((self.X, self.y), train, i)


class _Trainer(_HyperParameters):
    def __init__(self, max_epochs, num_gpus=0, gradient_clip_val=0):
        self.max_epochs = max_epochs
        self.num_gpus = num_gpus
        self.gradient_clip_val = gradient_clip_val

    def prepare_data(self, data):
        self.train_dataloader = data.train_dataloader()
        self.val_dataloader = data.val_dataloader()
        self.num_train_batches = len(self.train_dataloader)
        self.num_val_batches = len(self.val_dataloader)

    def prepare_model(self, model):
        model.trainer = self
        self.model = model

    def fit(self, model, data):
        self.prepare_data(data)
        self.prepare_model(model)
        self.optim = model.configure_optimizers()
        self.epoch = 0
        self.train_batch_idx = 0
        self.val_batch_idx = 0
        for epoch in range(self.max_epochs):
            self.epoch = epoch
            self.fit_epoch()

    # prepare_batch and fit_epoch: d2l.Trainer has them from the "from Scratch"
    # section (saved with #@save); the same code as that section's pytorch cells.
    def prepare_batch(self, batch):
        return batch

    def fit_epoch(self):
        self.model.train()
        for batch in self.train_dataloader:
            loss = self.model.training_step(self.prepare_batch(batch))
            self.optim.zero_grad()
            with torch.no_grad():
                loss.backward()
                if self.gradient_clip_val > 0:
                    self.clip_gradients(self.gradient_clip_val, self.model)
                self.optim.step()
            self.train_batch_idx += 1
        if self.val_dataloader is None:
            return
        self.model.eval()
        for batch in self.val_dataloader:
            with torch.no_grad():
                self.model.validation_step(self.prepare_batch(batch))
            self.val_batch_idx += 1


class d2l:
    HyperParameters = _HyperParameters
    Module = _Module
    DataModule = _DataModule
    SyntheticRegressionData = _SyntheticRegressionData
    Trainer = _Trainer
    add_to_class = _add_to_class
    normal = torch.normal
    zeros = torch.zeros
    tensor = torch.tensor
    matmul = torch.matmul
    reshape = lambda x, *args, **kwargs: x.reshape(*args, **kwargs)
    reduce_mean = lambda x, *args, **kwargs: x.mean(*args, **kwargs)
# ---- end of the inlined helper ----

import numpy as np
import torch
from torch import nn

class LinearRegression(d2l.Module):  #@save
    def __init__(self, lr):
        super().__init__()
        self.save_hyperparameters()
        self.net = nn.LazyLinear(1)
        self.net.weight.data.normal_(0, 0.01)
        self.net.bias.data.fill_(0)

@d2l.add_to_class(LinearRegression)  #@save
def forward(self, X):
    """The linear regression model."""
    return self.net(X)

@d2l.add_to_class(LinearRegression)  #@save
def loss(self, y_hat, y):
    fn = nn.MSELoss()
    return fn(y_hat, y)

@d2l.add_to_class(LinearRegression)  #@save
def configure_optimizers(self):
    return torch.optim.SGD(self.parameters(), self.lr)

model = LinearRegression(lr=0.03)
data = d2l.SyntheticRegressionData(w=d2l.tensor([2, -3.4]), b=4.2)
trainer = d2l.Trainer(max_epochs=3)
trainer.fit(model, data)

@d2l.add_to_class(LinearRegression)  #@save
def get_w_b(self):
    return (self.net.weight.data, self.net.bias.data)

w, b = model.get_w_b()
print(f'error in estimating w: {data.w - d2l.reshape(w, data.w.shape)}')
print(f'error in estimating b: {data.b - b}')
