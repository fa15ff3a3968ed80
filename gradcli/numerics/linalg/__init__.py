"""Matrix products and the inverse as PyTorch's CPU build computes them."""
