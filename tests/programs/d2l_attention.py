# Published code: Dive into Deep Learning, chapter "Attention Mechanisms and Transformers",
# sections "Queries, Keys, and Values", "Attention Pooling by Similarity" and "Attention
# Scoring Functions" (pytorch tab), one after the other, with the d2l package's names they
# use: show_heatmaps, Nadaraya-Watson regression with four kernels, masked_softmax (a
# boolean-mask assignment and repeat_interleave), scaled dot-product and additive
# attention (bmm, LazyLinear, Dropout in eval mode).
# Source: d2l-ai/d2l-en at 23d7a5aecceee57d1292c56e90cce307f183bb0a:
#         chapter_attention-mechanisms-and-transformers/queries-keys-values.md,
#         attention-pooling.md, attention-scoring-functions.md (the `%%tab pytorch` and
#         `%%tab all` code cells, in order; prose and the other frameworks' tabs left out),
#         d2l/torch.py (the aliases, use_svg_display, check_shape)
# Adaptations:
#   - `from d2l import torch as d2l` cannot run (the package needs torchvision and
#     matplotlib): a class `d2l` stands for the package, with the names these sections use
#     as the package defines them, and show_heatmaps (`#@save`) set on it.
#   - matplotlib draws nothing here: a class `plt` stands for matplotlib.pyplot, its
#     subplots giving axes that keep what they are given (in `drawn`: arrays as their
#     shape and sum); use_svg_display (a notebook's) does nothing.
#   - `if tab.selected(...)` blocks are replaced by their pytorch bodies, the others left
#     out (what d2l's build does for its pytorch tab).
#   - The sections are notebooks: the last line of a cell, when it is a bare expression,
#     is shown by Jupyter; run as a script it would print nothing, so each such line is
#     wrapped in print(...) (marked "# print added").
#   - added: torch.manual_seed(0) first, and at the end the attention weights, outputs
#     and a Nadaraya-Watson estimate with every digit, and what the figures were given.
import math

import numpy as np
import torch
from torch import nn
from torch.nn import functional as F

torch.manual_seed(0)  # added


class d2l:  # added: stands for the package (`d2l = sys.modules[__name__]` in it)
    pass


# the package's aliases (d2l/torch.py) that these sections use
d2l.ones = torch.ones
d2l.tensor = torch.tensor
d2l.arange = torch.arange
d2l.sin = torch.sin
d2l.exp = torch.exp
d2l.normal = torch.normal
d2l.rand = torch.rand
d2l.randn = torch.randn
d2l.float32 = torch.float32
d2l.abs = torch.abs
d2l.eye = torch.eye
d2l.numpy = lambda x, *args, **kwargs: x.detach().numpy(*args, **kwargs)
d2l.reshape = lambda x, *args, **kwargs: x.reshape(*args, **kwargs)
d2l.reduce_sum = lambda x, *args, **kwargs: x.sum(*args, **kwargs)
d2l.astype = lambda x, *args, **kwargs: x.type(*args, **kwargs)
d2l.transpose = lambda x, *args, **kwargs: x.t(*args, **kwargs)


# --- d2l/torch.py: matplotlib's pyplot stood in for (it draws nothing here)
drawn = []  # added: what would be drawn


def _kept(v):  # added: a short account of a value given to a figure
    if isinstance(v, (torch.Tensor, np.ndarray)):
        return ('array', tuple(v.shape), round(float(v.sum()), 4))
    return v


class _Axes:  # added: stands for a matplotlib Axes, keeping what it is given
    def __init__(self, where):
        self.where = where

    def imshow(self, X, cmap=None):
        drawn.append((self.where, 'imshow', _kept(X), cmap))
        return ('image', self.where)

    def plot(self, *args, **kwargs):
        drawn.append((self.where, 'plot', [_kept(a) for a in args], kwargs))

    def set_xlabel(self, s):
        drawn.append((self.where, 'xlabel', s))

    def set_ylabel(self, s):
        drawn.append((self.where, 'ylabel', s))

    def set_title(self, s):
        drawn.append((self.where, 'title', s))

    def legend(self, labels):
        drawn.append((self.where, 'legend', labels))


class _Figure:  # added: stands for a matplotlib Figure
    def colorbar(self, mappable, ax=None, shrink=1.0):
        drawn.append(('colorbar', mappable, shrink))


class plt:  # added: stands for matplotlib.pyplot, keeping what it is given
    def subplots(nrows=1, ncols=1, figsize=None, sharex=False, sharey=False,
                 squeeze=True):
        drawn.append(('subplots', nrows, ncols, figsize))
        axes = [[_Axes((i, j)) for j in range(ncols)] for i in range(nrows)]
        if squeeze and nrows == 1:
            axes = axes[0]
        return _Figure(), axes

    def show():
        drawn.append(('show',))
d2l.plt = plt  # added


def use_svg_display():
    """Use the svg format to display a plot in Jupyter.

    Defined in :numref:`sec_calculus`"""
    pass  # changed: backend_inline.set_matplotlib_formats('svg') (a notebook's)
d2l.use_svg_display = use_svg_display  # added


def check_shape(a, shape):
    """Check the shape of a tensor.

    Defined in :numref:`sec_rnn-scratch`"""
    assert a.shape == shape, \
            f'tensor\'s shape {a.shape} != expected shape {shape}'
d2l.check_shape = check_shape  # added


# --- queries-keys-values.md
import torch

#@save
def show_heatmaps(matrices, xlabel, ylabel, titles=None, figsize=(2.5, 2.5),
                  cmap='Reds'):
    """Show heatmaps of matrices."""
    d2l.use_svg_display()
    num_rows, num_cols, _, _ = matrices.shape
    fig, axes = d2l.plt.subplots(num_rows, num_cols, figsize=figsize,
                                 sharex=True, sharey=True, squeeze=False)
    for i, (row_axes, row_matrices) in enumerate(zip(axes, matrices)):
        for j, (ax, matrix) in enumerate(zip(row_axes, row_matrices)):
            pcm = ax.imshow(d2l.numpy(matrix), cmap=cmap)
            if i == num_rows - 1:
                ax.set_xlabel(xlabel)
            if j == 0:
                ax.set_ylabel(ylabel)
            if titles:
                ax.set_title(titles[j])
    fig.colorbar(pcm, ax=axes, shrink=0.6);
d2l.show_heatmaps = show_heatmaps  # added: #@save puts it in the package

attention_weights = d2l.reshape(d2l.eye(10), (1, 1, 10, 10))
show_heatmaps(attention_weights, xlabel='Keys', ylabel='Queries')

# --- attention-pooling.md
import torch
from torch import nn
from torch.nn import functional as F
import numpy as np

d2l.use_svg_display()

# Define some kernels
def gaussian(x):
    return d2l.exp(-x**2 / 2)

def boxcar(x):
    return d2l.abs(x) < 1.0

def constant(x):
    return 1.0 + 0 * x
 
def epanechikov(x):
    return torch.max(1 - d2l.abs(x), torch.zeros_like(x))

fig, axes = d2l.plt.subplots(1, 4, sharey=True, figsize=(12, 3))

kernels = (gaussian, boxcar, constant, epanechikov)
names = ('Gaussian', 'Boxcar', 'Constant', 'Epanechikov')
x = d2l.arange(-2.5, 2.5, 0.1)
for kernel, name, ax in zip(kernels, names, axes):
    ax.plot(d2l.numpy(x), d2l.numpy(kernel(x)))
    ax.set_xlabel(name)

d2l.plt.show()

def f(x):
    return 2 * d2l.sin(x) + x

n = 40
x_train, _ = torch.sort(d2l.rand(n) * 5)
y_train = f(x_train) + d2l.randn(n)
x_val = d2l.arange(0, 5, 0.1)
y_val = f(x_val)

def nadaraya_watson(x_train, y_train, x_val, kernel):
    dists = d2l.reshape(x_train, (-1, 1)) - d2l.reshape(x_val, (1, -1))
    # Each column/row corresponds to each query/key
    k = d2l.astype(kernel(dists), d2l.float32)
    # Normalization over keys for each query
    attention_w = k / d2l.reduce_sum(k, 0)
    y_hat = y_train@attention_w
    return y_hat, attention_w

def plot(x_train, y_train, x_val, y_val, kernels, names, attention=False):
    fig, axes = d2l.plt.subplots(1, 4, sharey=True, figsize=(12, 3))
    for kernel, name, ax in zip(kernels, names, axes):
        y_hat, attention_w = nadaraya_watson(x_train, y_train, x_val, kernel)
        if attention:
            pcm = ax.imshow(d2l.numpy(attention_w), cmap='Reds')
        else:
            ax.plot(x_val, y_hat)
            ax.plot(x_val, y_val, 'm--')
            ax.plot(x_train, y_train, 'o', alpha=0.5);
        ax.set_xlabel(name)
        if not attention:
            ax.legend(['y_hat', 'y'])
    if attention:
        fig.colorbar(pcm, ax=axes, shrink=0.7)

plot(x_train, y_train, x_val, y_val, kernels, names)

plot(x_train, y_train, x_val, y_val, kernels, names, attention=True)

sigmas = (0.1, 0.2, 0.5, 1)
names = ['Sigma ' + str(sigma) for sigma in sigmas]

def gaussian_with_width(sigma): 
    return (lambda x: d2l.exp(-x**2 / (2*sigma**2)))

kernels = [gaussian_with_width(sigma) for sigma in sigmas]
plot(x_train, y_train, x_val, y_val, kernels, names)

plot(x_train, y_train, x_val, y_val, kernels, names, attention=True)

# --- attention-scoring-functions.md
import math
import torch
from torch import nn

def masked_softmax(X, valid_lens):  #@save
    """Perform softmax operation by masking elements on the last axis."""
    # X: 3D tensor, valid_lens: 1D or 2D tensor 
    def _sequence_mask(X, valid_len, value=0):
        maxlen = X.size(1)
        mask = torch.arange((maxlen), dtype=torch.float32,
                            device=X.device)[None, :] < valid_len[:, None]
        X[~mask] = value
        return X
    
    if valid_lens is None:
        return nn.functional.softmax(X, dim=-1)
    else:
        shape = X.shape
        if valid_lens.dim() == 1:
            valid_lens = torch.repeat_interleave(valid_lens, shape[1])
        else:
            valid_lens = valid_lens.reshape(-1)
        # On the last axis, replace masked elements with a very large negative
        # value, whose exponentiation outputs 0
        X = _sequence_mask(X.reshape(-1, shape[-1]), valid_lens, value=-1e6)
        return nn.functional.softmax(X.reshape(shape), dim=-1)

print(masked_softmax(torch.rand(2, 2, 4), torch.tensor([2, 3])))  # print added

print(masked_softmax(torch.rand(2, 2, 4), d2l.tensor([[1, 3], [2, 4]])))  # print added

Q = d2l.ones((2, 3, 4))
K = d2l.ones((2, 4, 6))
d2l.check_shape(torch.bmm(Q, K), (2, 3, 6))

class DotProductAttention(nn.Module):  #@save
    """Scaled dot product attention."""
    def __init__(self, dropout):
        super().__init__()
        self.dropout = nn.Dropout(dropout)

    # Shape of queries: (batch_size, no. of queries, d)
    # Shape of keys: (batch_size, no. of key-value pairs, d)
    # Shape of values: (batch_size, no. of key-value pairs, value dimension)
    # Shape of valid_lens: (batch_size,) or (batch_size, no. of queries)
    def forward(self, queries, keys, values, valid_lens=None):
        d = queries.shape[-1]
        # Swap the last two dimensions of keys with keys.transpose(1, 2)
        scores = torch.bmm(queries, keys.transpose(1, 2)) / math.sqrt(d)
        self.attention_weights = masked_softmax(scores, valid_lens)
        return torch.bmm(self.dropout(self.attention_weights), values)

queries = d2l.normal(0, 1, (2, 1, 2))
keys = d2l.normal(0, 1, (2, 10, 2))
values = d2l.normal(0, 1, (2, 10, 4))
valid_lens = d2l.tensor([2, 6])

attention = DotProductAttention(dropout=0.5)
attention.eval()
d2l.check_shape(attention(queries, keys, values, valid_lens), (2, 1, 4))

d2l.show_heatmaps(d2l.reshape(attention.attention_weights, (1, 1, 2, 10)),
                  xlabel='Keys', ylabel='Queries')
dot_weights = attention.attention_weights  # added

class AdditiveAttention(nn.Module):  #@save
    """Additive attention."""
    def __init__(self, num_hiddens, dropout, **kwargs):
        super(AdditiveAttention, self).__init__(**kwargs)
        self.W_k = nn.LazyLinear(num_hiddens, bias=False)
        self.W_q = nn.LazyLinear(num_hiddens, bias=False)
        self.w_v = nn.LazyLinear(1, bias=False)
        self.dropout = nn.Dropout(dropout)

    def forward(self, queries, keys, values, valid_lens):
        queries, keys = self.W_q(queries), self.W_k(keys)
        # After dimension expansion, shape of queries: (batch_size, no. of
        # queries, 1, num_hiddens) and shape of keys: (batch_size, 1, no. of
        # key-value pairs, num_hiddens). Sum them up with broadcasting
        features = queries.unsqueeze(2) + keys.unsqueeze(1)
        features = torch.tanh(features)
        # There is only one output of self.w_v, so we remove the last
        # one-dimensional entry from the shape. Shape of scores: (batch_size,
        # no. of queries, no. of key-value pairs)
        scores = self.w_v(features).squeeze(-1)
        self.attention_weights = masked_softmax(scores, valid_lens)
        # Shape of values: (batch_size, no. of key-value pairs, value
        # dimension)
        return torch.bmm(self.dropout(self.attention_weights), values)

queries = d2l.normal(0, 1, (2, 1, 20))

attention = AdditiveAttention(num_hiddens=8, dropout=0.1)
attention.eval()
d2l.check_shape(attention(queries, keys, values, valid_lens), (2, 1, 4))

d2l.show_heatmaps(d2l.reshape(attention.attention_weights, (1, 1, 2, 10)),
                  xlabel='Keys', ylabel='Queries')

# --- added: what the sections computed and what the figures were given
print(dot_weights.tolist())
print(attention.attention_weights.tolist())
print(attention(queries, keys, values, valid_lens).tolist())
y_hat, attention_w = nadaraya_watson(x_train, y_train, x_val, gaussian)
print(y_hat.tolist())
for d in drawn:
    print(d)
