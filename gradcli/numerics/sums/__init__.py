"""Summation in PyTorch's CPU order: whole sums, sums over dims, several rows at
once, Welford's variance, vector norms."""
