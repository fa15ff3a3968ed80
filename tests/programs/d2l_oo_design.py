# Published code: Dive into Deep Learning, section "Object-Oriented Design for
# Implementation" (pytorch tab), with the d2l package's HyperParameters it calls.
# Source: d2l-ai/d2l-en at e52dbadf718ce6d6c3f8f717c74cf811c306f34c:
#         chapter_linear-regression/oo-design.md (the `%%tab pytorch` and `%%tab all` code
#         cells, in order), d2l/torch.py (class HyperParameters, as the package defines it)
# Adaptations:
#   - `from d2l import torch as d2l` cannot run (the package needs torchvision and
#     matplotlib): the package's HyperParameters is pasted first, and a class `d2l`
#     stands for the package, holding HyperParameters, nn_Module (the package's own
#     `nn_Module = nn.Module`) and ProgressBoard once the chapter defines it.
#   - the cell drawing sin and cos on a d2l.ProgressBoard is left out (matplotlib).
#   - `if tab.selected('mxnet', 'pytorch')` / `('pytorch', 'mxnet', 'tensorflow')` blocks
#     are replaced by their bodies, the jax and tensorflow ones left out (what d2l's
#     build does for its pytorch tab).
#   - at the end, added: objects of the chapter's classes are made and the attributes
#     save_hyperparameters gave them printed.
import inspect

import torch
from torch import nn


# --- d2l/torch.py
class HyperParameters:
    """The base class of hyperparameters."""
    def save_hyperparameters(self, ignore=[]):
        """Defined in :numref:`sec_oo-design`"""
        raise NotImplemented

    def save_hyperparameters(self, ignore=[]):
        """Save function arguments into class attributes.
    
        Defined in :numref:`sec_utils`"""
        frame = inspect.currentframe().f_back
        _, _, _, local_vars = inspect.getargvalues(frame)
        self.hparams = {k:v for k, v in local_vars.items()
                        if k not in set(ignore+['self']) and not k.startswith('_')}
        for k, v in self.hparams.items():
            setattr(self, k, v)


class d2l:  # added: stands for the d2l package
    pass
d2l.HyperParameters = HyperParameters  # added
d2l.nn_Module = nn.Module  # added


# --- oo-design.md
import time
import numpy as np
import torch
from torch import nn

def add_to_class(Class):  #@save
    """Register functions as methods in created class."""
    def wrapper(obj):
        setattr(Class, obj.__name__, obj)
    return wrapper

class A:
    def __init__(self):
        self.b = 1

a = A()

@add_to_class(A)
def do(self):
    print('Class attribute "b" is', self.b)

a.do()

class HyperParameters:  #@save
    """The base class of hyperparameters."""
    def save_hyperparameters(self, ignore=[]):
        raise NotImplemented

# Call the fully implemented HyperParameters class saved in d2l
class B(d2l.HyperParameters):
    def __init__(self, a, b, c):
        self.save_hyperparameters(ignore=['c'])
        print('self.a =', self.a, 'self.b =', self.b)
        print('There is no self.c =', not hasattr(self, 'c'))

b = B(a=1, b=2, c=3)

class ProgressBoard(d2l.HyperParameters):  #@save
    """The board that plots data points in animation."""
    def __init__(self, xlabel=None, ylabel=None, xlim=None,
                 ylim=None, xscale='linear', yscale='linear',
                 ls=['-', '--', '-.', ':'], colors=['C0', 'C1', 'C2', 'C3'],
                 fig=None, axes=None, figsize=(3.5, 2.5), display=True):
        self.save_hyperparameters()

    def draw(self, x, y, label, every_n=1):
        raise NotImplemented

d2l.ProgressBoard = ProgressBoard  # added

class Module(d2l.nn_Module, d2l.HyperParameters):  #@save
    """The base class of models."""
    def __init__(self, plot_train_per_epoch=2, plot_valid_per_epoch=1):
        super().__init__()
        self.save_hyperparameters()
        self.board = ProgressBoard()

    def loss(self, y_hat, y):
        raise NotImplementedError

    def forward(self, X):
        assert hasattr(self, 'net'), 'Neural network is defined'
        return self.net(X)

    def plot(self, key, value, train):
        """Plot a point in animation."""
        assert hasattr(self, 'trainer'), 'Trainer is not inited'
        self.board.xlabel = 'epoch'
        if train:
            x = self.trainer.train_batch_idx / \
                self.trainer.num_train_batches
            n = self.trainer.num_train_batches / \
                self.plot_train_per_epoch
        else:
            x = self.trainer.epoch + 1
            n = self.trainer.num_val_batches / \
                self.plot_valid_per_epoch
        self.board.draw(x, d2l.numpy(d2l.to(value, d2l.cpu())),
                        ('train_' if train else 'val_') + key,
                        every_n=int(n))

    def training_step(self, batch):
        l = self.loss(self(*batch[:-1]), batch[-1])
        self.plot('loss', l, train=True)
        return l

    def validation_step(self, batch):
        l = self.loss(self(*batch[:-1]), batch[-1])
        self.plot('loss', l, train=False)

    def configure_optimizers(self):
        raise NotImplementedError

class DataModule(d2l.HyperParameters):  #@save
    """The base class of data."""
    def __init__(self, root='../data', num_workers=4):
        self.save_hyperparameters()

    def get_dataloader(self, train):
        raise NotImplementedError

    def train_dataloader(self):
        return self.get_dataloader(train=True)

    def val_dataloader(self):
        return self.get_dataloader(train=False)

class Trainer(d2l.HyperParameters):  #@save
    """The base class for training models with data."""
    def __init__(self, max_epochs, num_gpus=0, gradient_clip_val=0):
        self.save_hyperparameters()
        assert num_gpus == 0, 'No GPU support yet'

    def prepare_data(self, data):
        self.train_dataloader = data.train_dataloader()
        self.val_dataloader = data.val_dataloader()
        self.num_train_batches = len(self.train_dataloader)
        self.num_val_batches = (len(self.val_dataloader)
                                if self.val_dataloader is not None else 0)

    def prepare_model(self, model):
        model.trainer = self
        model.board.xlim = [0, self.max_epochs]
        self.model = model

    def fit(self, model, data):
        self.prepare_data(data)
        self.prepare_model(model)
        self.optim = model.configure_optimizers()
        self.epoch = 0
        self.train_batch_idx = 0
        self.val_batch_idx = 0
        for self.epoch in range(self.max_epochs):
            self.fit_epoch()

    def fit_epoch(self):
        raise NotImplementedError

# --- added: what save_hyperparameters gave the chapter's objects
print(b.hparams)
board = ProgressBoard('x')
print(board.hparams)
print(board.xlabel, board.ls, board.figsize, board.display)
model = Module(plot_train_per_epoch=3)
print(model.hparams, model.plot_train_per_epoch, model.plot_valid_per_epoch)
print(model.board.hparams == ProgressBoard().hparams, type(model.board).__name__)
print(isinstance(model, nn.Module), isinstance(model, d2l.HyperParameters), model)
data = DataModule(num_workers=2)
print(data.hparams, data.root)
trainer = Trainer(max_epochs=3)
print(trainer.hparams, trainer.max_epochs, trainer.gradient_clip_val)
trainer.prepare_model(model)
print(model.board.xlim, model.trainer is trainer)
try:
    HyperParameters().save_hyperparameters()
except TypeError as e:
    print("TypeError:", e)
