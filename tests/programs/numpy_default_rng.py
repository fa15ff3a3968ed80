# np.random.default_rng: NumPy's Generator (PCG64) and its methods, the draws NumPy's.
# (Written for this suite; the output is NumPy's.)
import numpy as np
rng = np.random.default_rng(42)
print(rng)
print(rng.random(3), rng.normal(0, 1, size=(2, 2)), rng.integers(0, 10, size=5), rng.standard_normal(2))
print(rng.uniform(-1, 1, 3), rng.choice(5, 2, replace=False), rng.permutation(4), rng.normal())
x = np.arange(5)
rng.shuffle(x)
print(x)
