"""PyTorch's CPU arithmetic reproduced on NumPy, bit for bit, grouped by concern:

* `sums`: the orders in which PyTorch's CPU kernels add (whole sums, sums over dims,
  variance, norms); entry point `sums.summation.torch_sum`.
* `floats`: element-wise float math as SLEEF/VML and ATen's vectorised kernels compute
  it (fused multiply-add, exp/log/pow/atan2/hypot, softmax, float16, 0-d arithmetic).
* `linalg`: matrix products and the inverse (batched products, LAPACK's order).
* `random`: PyTorch's CPU generator, its samplers, and the C++ library's orderings.
* `mkl`, `parallel`: Intel MKL when installed (the `exact` extra), and how ATen cuts
  ranges between threads; shared by the groups above.
"""
