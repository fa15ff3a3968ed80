"""torch.distributions.kl_divergence: KL(p || q) for the pairs of types PyTorch has a
formula for here (its ops, in its order), PyTorch's NotImplementedError for the others."""

from __future__ import annotations

import math

from ...ops.registry import FUNCTIONS
from ...runtime.errors import GradRuntimeError
from ..inplace import setitem
from .continuous import Normal, Uniform
from .discrete import Bernoulli, Categorical
from .independent import Independent, sum_rightmost


def _normal_normal(p, q):
    var_ratio = FUNCTIONS["pow"](p.params["scale"] / q.params["scale"], 2)
    t1 = FUNCTIONS["pow"]((p.params["loc"] - q.params["loc"]) / q.params["scale"], 2)
    return 0.5 * (var_ratio + t1 - 1 - FUNCTIONS["log"](var_ratio))


def _categorical_categorical(p, q):
    t = p.param("probs") * (p.param("logits") - q.param("logits"))
    setitem(t, FUNCTIONS["expand_as"](q.param("probs") == 0, t), math.inf)
    setitem(t, FUNCTIONS["expand_as"](p.param("probs") == 0, t), 0)
    return FUNCTIONS["sum"](t, -1)


def _bernoulli_bernoulli(p, q):
    softplus = FUNCTIONS["softplus"]
    pp, qp, pl, ql = p.param("probs"), q.param("probs"), p.param("logits"), q.param("logits")
    t1 = pp * (softplus(-ql) - softplus(-pl))
    setitem(t1, qp == 0, math.inf)
    setitem(t1, pp == 0, 0)
    t2 = (1 - pp) * (softplus(ql) - softplus(pl))
    setitem(t2, qp == 1, math.inf)
    setitem(t2, pp == 1, 0)
    return t1 + t2


def _uniform_uniform(p, q):
    plo, phi, qlo, qhi = (d.params[k] for d in (p, q) for k in ("low", "high"))
    result = FUNCTIONS["log"]((qhi - qlo) / (phi - plo))
    setitem(result, (qlo > plo) | (qhi < phi), math.inf)
    return result


def _uniform_normal(p, q):
    common_term = p.params["high"] - p.params["low"]
    loc, scale = q.params["loc"], q.params["scale"]
    t1 = FUNCTIONS["log"](math.sqrt(math.pi * 2) * scale / common_term)
    t2 = FUNCTIONS["pow"](common_term, 2) / 12
    t3 = FUNCTIONS["pow"]((p.params["high"] + p.params["low"] - 2 * loc) / 2, 2)
    return t1 + 0.5 * (t2 + t3) / FUNCTIONS["pow"](scale, 2)


def _normal_uniform(p, q):
    return FUNCTIONS["full_like"](p.params["loc"], math.inf)


def _independent_independent(p, q):
    if p.ndims != q.ndims:
        raise GradRuntimeError("", type_name="NotImplementedError")
    return sum_rightmost(kl_divergence(p.base_dist, q.base_dist), p.ndims)


_KL = {
    (Independent, Independent): _independent_independent,
    (Normal, Normal): _normal_normal,
    (Categorical, Categorical): _categorical_categorical,
    (Bernoulli, Bernoulli): _bernoulli_bernoulli,
    (Uniform, Uniform): _uniform_uniform,
    (Uniform, Normal): _uniform_normal,
    (Normal, Uniform): _normal_uniform,
}


def kl_divergence(p, q):
    """KL(p || q) of two distributions, batched over their batch shape."""
    fn = _KL.get((type(p), type(q)))
    if fn is None:
        raise GradRuntimeError(
            f"No KL(p || q) is implemented for p type {_name(p)} and q type {_name(q)}",
            type_name="NotImplementedError",
        )
    return fn(p, q)


def _name(d):
    return getattr(type(d), "name", type(d).__name__)


MEMBERS = {"kl_divergence": kl_divergence}
