# NumPy beside torch, as lectures use it: constants, array creation, element-wise math
# and reductions, np.random's seeded legacy stream, arrays in the operators, indexing
# and iteration, and arrays to and from tensors (torch.from_numpy shares memory,
# t.numpy()).  (Written for this suite; the output is NumPy's and torch's.)
import numpy as np
import torch
print(np.pi, np.e, np.sum([1, 2, 3]), np.mean([1.0, 2.0, 4.0]), np.exp(1.0), np.log(2.0), np.sqrt(2.0))
a = np.arange(6)
print(a, a.shape, a.dtype, a.reshape(2, 3), a.sum(), a.mean())
b = np.linspace(0, 1, 5)
print(b, repr(b), b * 2, b + b, 1 - b, b ** 2, -b, b[1:3], b[-1], len(b), b > 0.5)
print(np.multiply(a, 2), np.zeros((2, 3)), np.ones(3), np.array([[1, 2], [3, 4]]), np.array([1.5, 2.5], dtype=np.float32))
np.random.seed(0)
print(np.random.rand(3), np.random.randn(2, 2), np.random.randint(0, 10, size=5), np.random.normal(0, 1, (2,)))
print(np.random.rand(), np.random.permutation(5), np.random.choice(10, 3))
t = torch.from_numpy(np.arange(3.0))
print(t, torch.tensor(np.array([1.0, 2.0])), torch.ones(3).numpy(), t.numpy())
x = np.array([1.0, 2.0, 3.0])
tx = torch.from_numpy(x)
x[0] = 10.0
print(tx, x)
print(torch.ones(3) + np.ones(3), np.float64(2.0) * 3, type(np.float64(1.0)))
for row in np.eye(2):
    print(row)
print([v for v in np.arange(3)], float(np.float32(1.5)), int(np.int64(3)))
m = np.random.randn(3, 4)
print(m.shape, m.T.shape, np.dot(m, m.T).shape, (m @ m.T).shape, m.max(), m.argmax(), np.max(m, axis=0))
print(np.sum(torch.tensor([1.0, 2.0]).numpy()), x.tolist(), np.where(x > 2, x, 0.0))
idx = np.random.permutation(6)[:3]
print(idx, np.arange(6)[idx], np.arange(12).reshape(3, 4)[:, 1], np.arange(12).reshape(3, 4)[1])
print(np.outer([1, 2], [3, 4]), np.meshgrid([1, 2], [3, 4, 5])[0].shape)
print(np.random.choice(5, 3, replace=False), np.random.uniform(-1, 1, 2), np.random.random(2))
z = np.zeros(4)
z[1:3] = 5.0
z[0] += 1
print(z, z.astype(np.int64), np.float32(1.5) * 2, np.int64(7) // 2, np.clip(np.arange(5), 1, 3))
print(np.array(torch.tensor([1.0, 2.0])), torch.tensor(np.float64(2.5)), np.isclose(0.1 + 0.2, 0.3), np.linalg.norm([3.0, 4.0]))
print(type(z), type(z) == np.ndarray, isinstance(z, np.ndarray), type(np.int64(1)), z.ndim, z.size)
try:
    np.ones(3) + np.ones(4)
except ValueError as e:
    print("ValueError:", e)
try:
    if np.ones(2):
        pass
except ValueError as e:
    print("ValueError:", e)
import numpy as np
lst = [10, 20, 30, 40]
i = np.arange(4)[2]
print(lst[i], "abcd"[i], (1, 2, 3)[np.int64(1)], list(range(np.int64(3))), range(10)[np.int32(4)])
lst[np.int64(0)] = 5
print(lst)
