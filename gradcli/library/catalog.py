"""Every module of the library, imported in this order: each registers its names
in the op table (`ops.registry.register`) and the namespaces.  Importing this
module loads the whole library (the session does), but for the namespaces made at a
program's first read of them (library/torch_ns.py: torch.nn, torch.utils.data,
torch.optim.lr_scheduler), which register nothing."""

from . import values, python, methods, inplace, inplace_views, autograd_api, torch_ns  # noqa: F401
from . import composite, composite_more, composite_docs, integration, correlation  # noqa: F401,E402
from . import linalg_norms  # noqa: F401,E402

methods.fill_methods()  # every op registered with method=True is a tensor method too
from . import calculus, graphviz, io, optim, optim_more, transforms, einsum  # noqa: E402,F401
from . import optim_adafactor  # noqa: E402,F401
from . import stdlib_more  # noqa: E402,F401
from . import plot, pyplot, trace, help  # noqa: E402,F401  (plot: plotext imported on first use)
from . import explain  # noqa: E402,F401  (sympy imported on first use)
