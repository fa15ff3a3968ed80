"""The library: built-ins of the language that are not tensor ops, each module
registering its names in the op table (`ops.registry.register`), in this order."""
from . import values, python, methods, autograd_api, torch_ns  # noqa: F401
methods.fill_methods()     # every op registered with method=True is a tensor method too
from . import calculus, graphviz, io, optim  # noqa: E402,F401
