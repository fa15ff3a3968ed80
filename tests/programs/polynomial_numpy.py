# Published code: "Warm-up: numpy" (PyTorch's "Learning PyTorch with Examples"), the
# tutorial before "PyTorch: Tensors" (tests/tutorials/polynomial_tensor.py): the same
# polynomial fit computed with numpy only.
# Source: pytorch/tutorials beginner_source/examples_tensor/polynomial_numpy.py
#         commit 06782c92ebe7f6bf491fd4e03446a3c17200914c
# The code as published, in order (the module docstring, which is prose, left out).
# Adaptations:
#   - np.random.seed(0) added at the top (the tutorial does not seed).

import numpy as np
np.random.seed(0)  # added

import numpy as np
import math

# Create random input and output data
x = np.linspace(-math.pi, math.pi, 2000)
y = np.sin(x)

# Randomly initialize weights
a = np.random.randn()
b = np.random.randn()
c = np.random.randn()
d = np.random.randn()

learning_rate = 1e-6
for t in range(2000):
    # Forward pass: compute predicted y
    # y = a + b x + c x^2 + d x^3
    y_pred = a + b * x + c * x ** 2 + d * x ** 3

    # Compute and print loss
    loss = np.square(y_pred - y).sum()
    if t % 100 == 99:
        print(t, loss)

    # Backprop to compute gradients of a, b, c, d with respect to loss
    grad_y_pred = 2.0 * (y_pred - y)
    grad_a = grad_y_pred.sum()
    grad_b = (grad_y_pred * x).sum()
    grad_c = (grad_y_pred * x ** 2).sum()
    grad_d = (grad_y_pred * x ** 3).sum()

    # Update weights
    a -= learning_rate * grad_a
    b -= learning_rate * grad_b
    c -= learning_rate * grad_c
    d -= learning_rate * grad_d

print(f'Result: y = {a} + {b} x + {c} x^2 + {d} x^3')
