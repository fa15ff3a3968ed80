# np.random.RandomState of our own: a seeded legacy stream beside the global one, its draws NumPy's, arrays from it turned into tensors (written for this test: code in the shape people bring, no adaptation).
import numpy as np
import torch
rng = np.random.RandomState(0)
print(rng, type(rng), type(np.random.default_rng(0)))
print(rng.rand(2, 3), rng.randn(3), rng.randint(0, 10, size=5), rng.randint(5))
print(rng.normal(0.0, 2.0, size=(2, 2)), rng.uniform(-1, 1, 3), rng.random_sample(2), rng.random(2))
print(rng.choice(5, 3), rng.choice([10, 20, 30], size=4, replace=True), rng.permutation(6))
a = np.arange(8)
rng.shuffle(a)
print(a, rng.standard_normal(2), rng.exponential(1.0, 2), rng.binomial(10, 0.5, 3), rng.poisson(3.0, 3))
np.random.seed(1)
other = np.random.RandomState(1)
print(np.random.rand(2), other.rand(2), np.random.rand(1), other.rand(1))
other.seed(7)
x = other.rand(4, 3).astype(np.float32)
t = torch.tensor(x)
print(t.dtype, t.shape, t.sum(), torch.from_numpy(x).mean(dim=0))
