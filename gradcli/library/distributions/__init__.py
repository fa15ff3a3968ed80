"""torch.distributions: Normal, Uniform, Exponential, Laplace, Categorical, Bernoulli,
Independent and kl_divergence, as PyTorch 2.13 computes, draws and prints them (base.py:
the Distribution base and its checks; continuous.py, discrete.py, independent.py: the
distributions; kl.py: kl_divergence)."""

from __future__ import annotations

from . import kl
from .base import Distribution
from .continuous import Exponential, Laplace, Normal, Uniform
from .discrete import Bernoulli, Categorical, OneHotCategorical
from .independent import Independent

CLASSES = {
    "Distribution": Distribution,
    "Normal": Normal,
    "Uniform": Uniform,
    "Categorical": Categorical,
    "Bernoulli": Bernoulli,
    "Independent": Independent,
    "Exponential": Exponential,
    "Laplace": Laplace,
    "OneHotCategorical": OneHotCategorical,
}


def members(Namespace):
    """torch.distributions' members, with its modules (`from torch.distributions.normal
    import Normal`) as the language's namespaces (`Namespace(name, members)`)."""
    name = "torch.distributions"
    modules = {
        cls.module: Namespace(f"{name}.{cls.module}", {cls.name: cls}) for cls in CLASSES.values()
    }
    modules["kl"] = Namespace(f"{name}.kl", dict(kl.MEMBERS))
    return {**CLASSES, **kl.MEMBERS, **modules}
