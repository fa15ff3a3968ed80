# Published code: Dive into Deep Learning, chapter "Convolutional Neural Networks", sections
# "Convolutions for Images", "Padding and Stride", "Multiple Input and Multiple Output
# Channels" and "Pooling" (pytorch tab), one after the other, with the d2l package's
# aliases they use: cross-correlation and pooling written as Python loops over tensor
# slices, a kernel learned by gradient descent through nn.LazyConv2d, output shapes of
# padded and strided convolutions, multi-channel and 1x1 convolutions, nn.MaxPool2d.
# Source: d2l-ai/d2l-en at 23d7a5aecceee57d1292c56e90cce307f183bb0a:
#         chapter_convolutional-neural-networks/conv-layer.md, padding-and-strides.md,
#         channels.md, pooling.md (the `%%tab pytorch` and `%%tab all` code cells, in
#         order; prose and the other frameworks' tabs left out), d2l/torch.py (the aliases)
# Adaptations:
#   - `from d2l import torch as d2l` cannot run (the package needs torchvision and
#     matplotlib): a class `d2l` stands for the package, with the aliases these sections
#     use as the package defines them, and corr2d (`#@save`) set on it after its definition.
#   - The sections are notebooks: the last line of a cell, when it is a bare expression,
#     is shown by Jupyter; run as a script it would print nothing, so each such line is
#     wrapped in print(...) (marked "# print added").
#   - added: torch.manual_seed(0) first, and at the end the strided convolution's initial
#     weight and both multi-channel results (Y1, Y2) with every digit.
import torch
torch.manual_seed(0)  # added


class d2l:  # added: stands for the package (`d2l = sys.modules[__name__]` in it)
    pass


# the package's aliases (d2l/torch.py) that these sections use
d2l.ones = torch.ones
d2l.zeros = torch.zeros
d2l.tensor = torch.tensor
d2l.arange = torch.arange
d2l.normal = torch.normal
d2l.matmul = torch.matmul
d2l.float32 = torch.float32
d2l.concat = torch.cat
d2l.stack = torch.stack
d2l.abs = torch.abs
d2l.reshape = lambda x, *args, **kwargs: x.reshape(*args, **kwargs)
d2l.reduce_sum = lambda x, *args, **kwargs: x.sum(*args, **kwargs)
d2l.transpose = lambda x, *args, **kwargs: x.t(*args, **kwargs)

# --- conv-layer.md
import torch
from torch import nn

def corr2d(X, K):  #@save
    """Compute 2D cross-correlation."""
    h, w = K.shape
    Y = d2l.zeros((X.shape[0] - h + 1, X.shape[1] - w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            Y[i, j] = d2l.reduce_sum((X[i: i + h, j: j + w] * K))
    return Y

d2l.corr2d = corr2d  # added: #@save puts it in the package

X = d2l.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
K = d2l.tensor([[0.0, 1.0], [2.0, 3.0]])
print(corr2d(X, K))  # print added

class Conv2D(nn.Module):
    def __init__(self, kernel_size):
        super().__init__()
        self.weight = nn.Parameter(torch.rand(kernel_size))
        self.bias = nn.Parameter(torch.zeros(1))

    def forward(self, x):
        return corr2d(x, self.weight) + self.bias

X = d2l.ones((6, 8))
X[:, 2:6] = 0
print(X)  # print added

K = d2l.tensor([[1.0, -1.0]])

Y = corr2d(X, K)
print(Y)  # print added

print(corr2d(d2l.transpose(X), K))  # print added

# Construct a two-dimensional convolutional layer with 1 output channel and a
# kernel of shape (1, 2). For the sake of simplicity, we ignore the bias here
conv2d = nn.LazyConv2d(1, kernel_size=(1, 2), bias=False)

# The two-dimensional convolutional layer uses four-dimensional input and
# output in the format of (example, channel, height, width), where the batch
# size (number of examples in the batch) and the number of channels are both 1
X = X.reshape((1, 1, 6, 8))
Y = Y.reshape((1, 1, 6, 7))
lr = 3e-2  # Learning rate

for i in range(10):
    Y_hat = conv2d(X)
    l = (Y_hat - Y) ** 2
    conv2d.zero_grad()
    l.sum().backward()
    # Update the kernel
    conv2d.weight.data[:] -= lr * conv2d.weight.grad
    if (i + 1) % 2 == 0:
        print(f'epoch {i + 1}, loss {l.sum():.3f}')

print(d2l.reshape(conv2d.weight.data, (1, 2)))  # print added

# --- padding-and-strides.md
import torch
from torch import nn

# We define a helper function to calculate convolutions. It initializes the
# convolutional layer weights and performs corresponding dimensionality
# elevations and reductions on the input and output
def comp_conv2d(conv2d, X):
    # (1, 1) indicates that batch size and the number of channels are both 1
    X = X.reshape((1, 1) + X.shape)
    Y = conv2d(X)
    # Strip the first two dimensions: examples and channels
    return Y.reshape(Y.shape[2:])

# 1 row and column is padded on either side, so a total of 2 rows or columns
# are added
conv2d = nn.LazyConv2d(1, kernel_size=3, padding=1)
X = torch.rand(size=(8, 8))
print(comp_conv2d(conv2d, X).shape)  # print added

# We use a convolution kernel with height 5 and width 3. The padding on either
# side of the height and width are 2 and 1, respectively
conv2d = nn.LazyConv2d(1, kernel_size=(5, 3), padding=(2, 1))
print(comp_conv2d(conv2d, X).shape)  # print added

conv2d = nn.LazyConv2d(1, kernel_size=3, padding=1, stride=2)
print(comp_conv2d(conv2d, X).shape)  # print added

conv2d = nn.LazyConv2d(1, kernel_size=(3, 5), padding=(0, 1), stride=(3, 4))
print(comp_conv2d(conv2d, X).shape)  # print added

# --- channels.md
import torch

def corr2d_multi_in(X, K):
    # Iterate through the 0th dimension (channel) of K first, then add them up
    return sum(d2l.corr2d(x, k) for x, k in zip(X, K))

X = d2l.tensor([[[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]],
               [[1.0, 2.0, 3.0], [4.0, 5.0, 6.0], [7.0, 8.0, 9.0]]])
K = d2l.tensor([[[0.0, 1.0], [2.0, 3.0]], [[1.0, 2.0], [3.0, 4.0]]])

print(corr2d_multi_in(X, K))  # print added

def corr2d_multi_in_out(X, K):
    # Iterate through the 0th dimension of K, and each time, perform
    # cross-correlation operations with input X. All of the results are
    # stacked together
    return d2l.stack([corr2d_multi_in(X, k) for k in K], 0)

K = d2l.stack((K, K + 1, K + 2), 0)
print(K.shape)  # print added

print(corr2d_multi_in_out(X, K))  # print added

def corr2d_multi_in_out_1x1(X, K):
    c_i, h, w = X.shape
    c_o = K.shape[0]
    X = d2l.reshape(X, (c_i, h * w))
    K = d2l.reshape(K, (c_o, c_i))
    # Matrix multiplication in the fully connected layer
    Y = d2l.matmul(K, X)
    return d2l.reshape(Y, (c_o, h, w))

X = d2l.normal(0, 1, (3, 3, 3))
K = d2l.normal(0, 1, (2, 3, 1, 1))
Y1 = corr2d_multi_in_out_1x1(X, K)
Y2 = corr2d_multi_in_out(X, K)
assert float(d2l.reduce_sum(d2l.abs(Y1 - Y2))) < 1e-6

# --- pooling.md
import torch
from torch import nn

def pool2d(X, pool_size, mode='max'):
    p_h, p_w = pool_size
    Y = d2l.zeros((X.shape[0] - p_h + 1, X.shape[1] - p_w + 1))
    for i in range(Y.shape[0]):
        for j in range(Y.shape[1]):
            if mode == 'max':
                Y[i, j] = X[i: i + p_h, j: j + p_w].max()
            elif mode == 'avg':
                Y[i, j] = X[i: i + p_h, j: j + p_w].mean()
    return Y

X = d2l.tensor([[0.0, 1.0, 2.0], [3.0, 4.0, 5.0], [6.0, 7.0, 8.0]])
print(pool2d(X, (2, 2)))  # print added

print(pool2d(X, (2, 2), 'avg'))  # print added

X = d2l.reshape(d2l.arange(16, dtype=d2l.float32), (1, 1, 4, 4))
print(X)  # print added

pool2d = nn.MaxPool2d(3)
# Pooling has no model parameters, hence it needs no initialization
print(pool2d(X))  # print added

pool2d = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d(X))  # print added

pool2d = nn.MaxPool2d((2, 3), stride=(2, 3), padding=(0, 1))
print(pool2d(X))  # print added

X = d2l.concat((X, X + 1), 1)
print(X)  # print added

pool2d = nn.MaxPool2d(3, padding=1, stride=2)
print(pool2d(X))  # print added

# added: what the chapter computed, with every digit
print(conv2d.weight.tolist(), Y1.tolist(), Y2.tolist())
