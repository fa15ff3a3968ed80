"""Element-wise float math as PyTorch's CPU kernels compute it: SLEEF's vector
functions, fused multiply-add, powers, softmax, float16 and 0-d float32 arithmetic,
and fused array helpers for VJPs (`fused`)."""
