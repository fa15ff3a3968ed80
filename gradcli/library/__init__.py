"""The library: built-ins of the language that are not tensor ops (Python's
built-ins, tensor methods, the autograd API, the `torch` namespace, calculus,
graphs, plots, io, optim, nn, transforms).  `catalog` lists and loads them in
order; this package file imports nothing, so its modules can import each other
without a cycle through it."""
