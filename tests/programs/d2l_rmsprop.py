# Published code: Dive into Deep Learning, section "RMSProp"
# (pytorch tab), with the d2l package's names it uses.
# Source: d2l-ai/d2l-en at 23d7a5aecceee57d1292c56e90cce307f183bb0a:
#         chapter_optimization/rmsprop.md (the `#@tab pytorch` and `#@tab all` code cells,
#         in order), d2l/torch.py (the package's aliases, set_figsize, plot, load_array, linreg, squared_loss, Animator,
#         Accumulator, evaluate_loss, train_2d, show_trace_2d, Timer, get_data_ch11,
#         train_ch11 and train_concise_ch11, as the package defines them)
# Adaptations:
#   - `from d2l import torch as d2l` cannot run (the package needs torchvision and
#     matplotlib): the package's code is pasted first, and a class `d2l` stands for the
#     package, each name set on it after its definition.
#   - matplotlib draws nothing here: set_figsize leaves out its rcParams, plot and
#     Animator keep the lines they would draw (in `drawn`), and a class `plt` stands for
#     matplotlib.pyplot, keeping what it is given.
#   - the download of the airfoil self-noise data (np.genfromtxt(d2l.download('airfoil'),
#     ...) in get_data_ch11) is replaced by seeded random data of its shape: 1503 rows of
#     five features and a target linear in them, with noise.
#   - `time` stands for Python's time module: its clock advances 1 ms at each reading, so
#     that the timings printed are the same at every run.
#   - added: torch.manual_seed(0) before the section's code, and at the end a summary of
#     what would have been drawn and the parameters of the models trained.
import math
import time

import numpy as np
import torch
from torch import nn


class d2l:  # added: stands for the package (`d2l = sys.modules[__name__]` in it)
    pass


# --- d2l/torch.py
d2l.DATA_HUB = dict()
d2l.DATA_URL = 'http://d2l-data.s3-accelerate.amazonaws.com/'


# the package's aliases (config.ini)
d2l.nn_Module = nn.Module
d2l.ones_like = torch.ones_like
d2l.ones = torch.ones
d2l.zeros_like = torch.zeros_like
d2l.zeros = torch.zeros
d2l.tensor = torch.tensor
d2l.arange = torch.arange
d2l.meshgrid = torch.meshgrid
d2l.sin = torch.sin
d2l.sinh = torch.sinh
d2l.cos = torch.cos
d2l.cosh = torch.cosh
d2l.tanh = torch.tanh
d2l.linspace = torch.linspace
d2l.exp = torch.exp
d2l.log = torch.log
d2l.normal = torch.normal
d2l.rand = torch.rand
d2l.randn = torch.randn
d2l.matmul = torch.matmul
d2l.int32 = torch.int32
d2l.int64 = torch.int64
d2l.float32 = torch.float32
d2l.concat = torch.cat
d2l.stack = torch.stack
d2l.abs = torch.abs
d2l.eye = torch.eye
d2l.sigmoid = torch.sigmoid
d2l.batch_matmul = torch.bmm
d2l.numpy = lambda x, *args, **kwargs: x.detach().numpy(*args, **kwargs)
d2l.size = lambda x, *args, **kwargs: x.numel(*args, **kwargs)
d2l.reshape = lambda x, *args, **kwargs: x.reshape(*args, **kwargs)
d2l.to = lambda x, *args, **kwargs: x.to(*args, **kwargs)
d2l.reduce_sum = lambda x, *args, **kwargs: x.sum(*args, **kwargs)
d2l.argmax = lambda x, *args, **kwargs: x.argmax(*args, **kwargs)
d2l.astype = lambda x, *args, **kwargs: x.type(*args, **kwargs)
d2l.transpose = lambda x, *args, **kwargs: x.t(*args, **kwargs)
d2l.reduce_mean = lambda x, *args, **kwargs: x.mean(*args, **kwargs)
d2l.expand_dims = lambda x, *args, **kwargs: x.unsqueeze(*args, **kwargs)
d2l.swapaxes = lambda x, *args, **kwargs: x.swapaxes(*args, **kwargs)
d2l.repeat = lambda x, *args, **kwargs: x.repeat(*args, **kwargs)


class time:  # added: stands for Python's time module, a clock that advances 1 ms a reading
    now = 0.0  # (the real timings differ from run to run)

    def time():
        time.now += 0.001
        return time.now


# --- d2l/torch.py: plot, its drawing left out; matplotlib's pyplot stood in for
drawn = []  # added: what would be drawn


class _Axes:  # added: stands for a matplotlib Axes, keeping what it is given
    def set_xscale(self, scale):
        drawn.append(('xscale', scale))


class plt:  # added: stands for matplotlib.pyplot, keeping what it is given
    def plot(*args, **kwargs):
        drawn.append(('plot', args, kwargs))

    def contour(x1, x2, z, **kwargs):
        drawn.append(('contour', x1.shape, x2.shape, z.shape, z.sum(), kwargs))

    def xlabel(s):
        drawn.append(('xlabel', s))

    def ylabel(s):
        drawn.append(('ylabel', s))

    def legend():
        drawn.append(('legend',))

    def gca():
        return _Axes()
d2l.plt = plt  # added


def set_figsize(figsize=(3.5, 2.5)):
    """Set the figure size for matplotlib.

    Defined in :numref:`sec_calculus`"""
    # changed: use_svg_display() and matplotlib's rcParams are left out
d2l.set_figsize = set_figsize  # added


def plot(X, Y=None, xlabel=None, ylabel=None, legend=[], xlim=None,
         ylim=None, xscale='linear', yscale='linear',
         fmts=('-', 'm--', 'g-.', 'r:'), figsize=(3.5, 2.5), axes=None):
    """Plot data points.

    Defined in :numref:`sec_calculus`"""

    def has_one_axis(X):  # True if X (tensor or list) has 1 axis
        return (hasattr(X, "ndim") and X.ndim == 1 or isinstance(X, list)
                and not hasattr(X[0], "__len__"))

    if has_one_axis(X): X = [X]
    if Y is None:
        X, Y = [[]] * len(X), X
    elif has_one_axis(Y):
        Y = [Y]
    if len(X) != len(Y):
        X = X * len(Y)

    # changed: the figure (set_figsize, axes, set_axes) is left out; each line is kept
    for x, y, fmt in zip(X, Y, fmts):
        drawn.append(('line', xlabel, ylabel, fmt, len(x), len(y), y[:2], y[-2:]))
d2l.plot = plot  # added


def load_array(data_arrays, batch_size, is_train=True):
    """Construct a PyTorch data iterator.

    Defined in :numref:`sec_utils`"""
    dataset = torch.utils.data.TensorDataset(*data_arrays)
    return torch.utils.data.DataLoader(dataset, batch_size, shuffle=is_train)
d2l.load_array = load_array  # added


def linreg(X, w, b):
    """The linear regression model.

    Defined in :numref:`sec_utils`"""
    return d2l.matmul(X, w) + b
d2l.linreg = linreg  # added


def squared_loss(y_hat, y):
    """Squared loss.

    Defined in :numref:`sec_utils`"""
    return (y_hat - d2l.reshape(y, y_hat.shape)) ** 2 / 2
d2l.squared_loss = squared_loss  # added


class Animator:
    """For plotting data in animation."""
    def __init__(self, xlabel=None, ylabel=None, legend=None, xlim=None,
                 ylim=None, xscale='linear', yscale='linear',
                 fmts=('-', 'm--', 'g-.', 'r:'), nrows=1, ncols=1,
                 figsize=(3.5, 2.5)):
        """Defined in :numref:`sec_utils`"""
        # Incrementally plot multiple lines
        if legend is None:
            legend = []
        # changed: the figure (use_svg_display, subplots, set_axes) is left out
        self.X, self.Y, self.fmts = None, None, fmts
        drawn.append(('animator', self))  # added

    def add(self, x, y):
        # Add multiple data points into the figure
        if not hasattr(y, "__len__"):
            y = [y]
        n = len(y)
        if not hasattr(x, "__len__"):
            x = [x] * n
        if not self.X:
            self.X = [[] for _ in range(n)]
        if not self.Y:
            self.Y = [[] for _ in range(n)]
        for i, (a, b) in enumerate(zip(x, y)):
            if a is not None and b is not None:
                self.X[i].append(a)
                self.Y[i].append(b)
        # changed: the drawing (cla, plot, config_axes, display) is left out
d2l.Animator = Animator  # added


class Accumulator:
    """For accumulating sums over `n` variables."""
    def __init__(self, n):
        """Defined in :numref:`sec_utils`"""
        self.data = [0.0] * n

    def add(self, *args):
        self.data = [a + float(b) for a, b in zip(self.data, args)]

    def reset(self):
        self.data = [0.0] * len(self.data)

    def __getitem__(self, idx):
        return self.data[idx]
d2l.Accumulator = Accumulator  # added


def evaluate_loss(net, data_iter, loss):
    """Evaluate the loss of a model on the given dataset.

    Defined in :numref:`sec_utils`"""
    metric = d2l.Accumulator(2)  # Sum of losses, no. of examples
    for X, y in data_iter:
        out = net(X)
        y = d2l.reshape(y, out.shape)
        l = loss(out, y)
        metric.add(d2l.reduce_sum(l), d2l.size(l))
    return metric[0] / metric[1]
d2l.evaluate_loss = evaluate_loss  # added


# --- d2l/torch.py: train_2d, show_trace_2d, Timer, get_data_ch11, train_ch11 and
# train_concise_ch11, as the package defines them
def train_2d(trainer, steps=20, f_grad=None):
    """Optimize a 2D objective function with a customized trainer.

    Defined in :numref:`subsec_gd-learningrate`"""
    # `s1` and `s2` are internal state variables that will be used in Momentum, adagrad, RMSProp
    x1, x2, s1, s2 = -5, -2, 0, 0
    results = [(x1, x2)]
    for i in range(steps):
        if f_grad:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2, f_grad)
        else:
            x1, x2, s1, s2 = trainer(x1, x2, s1, s2)
        results.append((x1, x2))
    print(f'epoch {i + 1}, x1: {float(x1):f}, x2: {float(x2):f}')
    return results
d2l.train_2d = train_2d  # added

def show_trace_2d(f, results):
    """Show the trace of 2D variables during optimization.

    Defined in :numref:`subsec_gd-learningrate`"""
    d2l.set_figsize()
    d2l.plt.plot(*zip(*results), '-o', color='#ff7f0e')
    x1, x2 = d2l.meshgrid(d2l.arange(-5.5, 1.0, 0.1),
                          d2l.arange(-3.0, 1.0, 0.1), indexing='ij')
    d2l.plt.contour(x1, x2, f(x1, x2), colors='#1f77b4')
    d2l.plt.xlabel('x1')
    d2l.plt.ylabel('x2')
d2l.show_trace_2d = show_trace_2d  # added

class Timer:
    """Record multiple running times."""
    def __init__(self):
        """Defined in :numref:`sec_minibatch_sgd`"""
        self.times = []
        self.start()

    def start(self):
        """Start the timer."""
        self.tik = time.time()

    def stop(self):
        """Stop the timer and record the time in a list."""
        self.times.append(time.time() - self.tik)
        return self.times[-1]

    def avg(self):
        """Return the average time."""
        return sum(self.times) / len(self.times)

    def sum(self):
        """Return the sum of time."""
        return sum(self.times)

    def cumsum(self):
        """Return the accumulated time."""
        return np.array(self.times).cumsum().tolist()
d2l.Timer = Timer  # added


d2l.DATA_HUB['airfoil'] = (d2l.DATA_URL + 'airfoil_self_noise.dat',
                           '76e5be1548fd8222e5074cf0faae75edff8cf93f')

def airfoil():  # added: seeded data of airfoil_self_noise.dat's shape and scales
    g = torch.Generator().manual_seed(1)
    X = torch.rand(1503, 5, generator=g) * torch.tensor([20000., 22., .3, 70., .06])
    noise = torch.randn(1503, 1, generator=g)
    y = 130 - (X * torch.tensor([3e-4, .2, 20., -.02, 80.])).sum(1, keepdim=True) + noise * 2.5
    return torch.cat([X, y], 1).numpy()


def get_data_ch11(batch_size=10, n=1500):
    """Defined in :numref:`sec_minibatches`"""
    # changed: np.genfromtxt(d2l.download('airfoil'), dtype=np.float32, delimiter='\t')
    data = airfoil()
    data = torch.from_numpy((data - data.mean(axis=0)) / data.std(axis=0))
    data_iter = d2l.load_array((data[:n, :-1], data[:n, -1]),
                               batch_size, is_train=True)
    return data_iter, data.shape[1]-1
d2l.get_data_ch11 = get_data_ch11  # added

def train_ch11(trainer_fn, states, hyperparams, data_iter,
               feature_dim, num_epochs=2):
    """Defined in :numref:`sec_minibatches`"""
    # Initialization
    w = torch.normal(mean=0.0, std=0.01, size=(feature_dim, 1),
                     requires_grad=True)
    b = torch.zeros((1), requires_grad=True)
    net, loss = lambda X: d2l.linreg(X, w, b), d2l.squared_loss
    # Train
    animator = d2l.Animator(xlabel='epoch', ylabel='loss',
                            xlim=[0, num_epochs], ylim=[0.22, 0.35])
    n, timer = 0, d2l.Timer()
    for _ in range(num_epochs):
        for X, y in data_iter:
            l = loss(net(X), y).mean()
            l.backward()
            trainer_fn([w, b], states, hyperparams)
            n += X.shape[0]
            if n % 200 == 0:
                timer.stop()
                animator.add(n/X.shape[0]/len(data_iter),
                             (d2l.evaluate_loss(net, data_iter, loss),))
                timer.start()
    print(f'loss: {animator.Y[0][-1]:.3f}, {timer.sum()/num_epochs:.3f} sec/epoch')
    return timer.cumsum(), animator.Y[0]
d2l.train_ch11 = train_ch11  # added

def train_concise_ch11(trainer_fn, hyperparams, data_iter, num_epochs=4):
    """Defined in :numref:`sec_minibatches`"""
    # Initialization
    net = nn.Sequential(nn.Linear(5, 1))
    def init_weights(module):
        if type(module) == nn.Linear:
            torch.nn.init.normal_(module.weight, std=0.01)
    net.apply(init_weights)

    optimizer = trainer_fn(net.parameters(), **hyperparams)
    loss = nn.MSELoss(reduction='none')
    animator = d2l.Animator(xlabel='epoch', ylabel='loss',
                            xlim=[0, num_epochs], ylim=[0.22, 0.35])
    n, timer = 0, d2l.Timer()
    for _ in range(num_epochs):
        for X, y in data_iter:
            optimizer.zero_grad()
            out = net(X)
            y = y.reshape(out.shape)
            l = loss(out, y)
            l.mean().backward()
            optimizer.step()
            n += X.shape[0]
            if n % 200 == 0:
                timer.stop()
                # `MSELoss` computes squared error without the 1/2 factor
                animator.add(n/X.shape[0]/len(data_iter),
                             (d2l.evaluate_loss(net, data_iter, loss) / 2,))
                timer.start()
    print(f'loss: {animator.Y[0][-1]:.3f}, {timer.sum()/num_epochs:.3f} sec/epoch')
    summaries.append(net)  # added: the trained model, for the summary
d2l.train_concise_ch11 = train_concise_ch11  # added
summaries = []  # added


def summary():  # added: what would have been drawn, and the models trained
    for item in drawn:
        if item[0] == 'animator':
            print('animator', item[1].X, item[1].Y)
        elif item[0] == 'plot':
            print('plot', [a if isinstance(a, str) else len(a) for a in item[1]],
                  [a[-2:] for a in item[1] if not isinstance(a, str)], item[2])
        else:
            print(item)
    for net in summaries:
        print([p.tolist() for p in net.parameters()])


# --- rmsprop.md
torch.manual_seed(0)  # added

import torch
import math

d2l.set_figsize()
gammas = [0.95, 0.9, 0.8, 0.7]
for gamma in gammas:
    x = d2l.numpy(d2l.arange(40))
    d2l.plt.plot(x, (1-gamma) * gamma ** x, label=f'gamma = {gamma:.2f}')
d2l.plt.xlabel('time');

def rmsprop_2d(x1, x2, s1, s2):
    g1, g2, eps = 0.2 * x1, 4 * x2, 1e-6
    s1 = gamma * s1 + (1 - gamma) * g1 ** 2
    s2 = gamma * s2 + (1 - gamma) * g2 ** 2
    x1 -= eta / math.sqrt(s1 + eps) * g1
    x2 -= eta / math.sqrt(s2 + eps) * g2
    return x1, x2, s1, s2

def f_2d(x1, x2):
    return 0.1 * x1 ** 2 + 2 * x2 ** 2

eta, gamma = 0.4, 0.9
d2l.show_trace_2d(f_2d, d2l.train_2d(rmsprop_2d))

def init_rmsprop_states(feature_dim):
    s_w = d2l.zeros((feature_dim, 1))
    s_b = d2l.zeros(1)
    return (s_w, s_b)

def rmsprop(params, states, hyperparams):
    gamma, eps = hyperparams['gamma'], 1e-6
    for p, s in zip(params, states):
        with torch.no_grad():
            s[:] = gamma * s + (1 - gamma) * torch.square(p.grad)
            p[:] -= hyperparams['lr'] * p.grad / torch.sqrt(s + eps)
        p.grad.data.zero_()

data_iter, feature_dim = d2l.get_data_ch11(batch_size=10)
d2l.train_ch11(rmsprop, init_rmsprop_states(feature_dim),
               {'lr': 0.01, 'gamma': 0.9}, data_iter, feature_dim);

trainer = torch.optim.RMSprop
d2l.train_concise_ch11(trainer, {'lr': 0.01, 'alpha': 0.9},
                       data_iter)

summary()  # added
