"""torch.distributions.kl_divergence: KL(p || q) for the pairs of types PyTorch has a
formula for here (its ops, in its order), PyTorch's NotImplementedError for the others."""

from __future__ import annotations

import math

from ...ops.registry import FUNCTIONS
from ...runtime.errors import GradRuntimeError
from ..inplace import setitem
from .continuous import Exponential, Laplace, Normal, Uniform
from .discrete import Bernoulli, Categorical, OneHotCategorical
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


def _exponential_exponential(p, q):
    rate_ratio = q.params["rate"] / p.params["rate"]
    t1 = -FUNCTIONS["log"](rate_ratio)
    return t1 + rate_ratio - 1


def _laplace_laplace(p, q):
    scale_ratio = p.params["scale"] / q.params["scale"]
    loc_abs_diff = FUNCTIONS["abs"](p.params["loc"] - q.params["loc"])
    t1 = -FUNCTIONS["log"](scale_ratio)
    t2 = loc_abs_diff / q.params["scale"]
    t3 = scale_ratio * FUNCTIONS["exp"](-loc_abs_diff / p.params["scale"])
    return t1 + t2 + t3 - 1


def _infinite(name):
    """KL of a pair whose supports make it infinite: inf of p's parameter's shape."""
    return lambda p, q: FUNCTIONS["full_like"](p.params[name], math.inf)


def _exponential_normal(p, q):
    var_normal = FUNCTIONS["pow"](q.params["scale"], 2)
    rate = p.params["rate"]
    rate_sqr = FUNCTIONS["pow"](rate, 2)
    t1 = 0.5 * FUNCTIONS["log"](rate_sqr * var_normal * 2 * math.pi)
    t2 = FUNCTIONS["reciprocal"](rate_sqr)
    t3 = q.params["loc"] / rate
    t4 = FUNCTIONS["pow"](q.params["loc"], 2) * 0.5
    return t1 - 1 + (t2 - t3 + t4) / var_normal


def _laplace_normal(p, q):
    pow_ = FUNCTIONS["pow"]
    var_normal = pow_(q.params["scale"], 2)
    scale_sqr_var_ratio = pow_(p.params["scale"], 2) / var_normal
    t1 = 0.5 * FUNCTIONS["log"](2 * scale_sqr_var_ratio / math.pi)
    t2 = 0.5 * pow_(p.params["loc"], 2)
    t3 = p.params["loc"] * q.params["loc"]
    t4 = 0.5 * pow_(q.params["loc"], 2)
    return -t1 + scale_sqr_var_ratio + (t2 - t3 + t4) / var_normal - 1


def _normal_laplace(p, q):
    loc_diff = p.params["loc"] - q.params["loc"]
    scale_ratio = p.params["scale"] / q.params["scale"]
    loc_diff_scale_ratio = loc_diff / p.params["scale"]
    t1 = FUNCTIONS["log"](scale_ratio)
    t2 = (
        math.sqrt(2 / math.pi)
        * p.params["scale"]
        * FUNCTIONS["exp"](-0.5 * FUNCTIONS["pow"](loc_diff_scale_ratio, 2))
    )
    t3 = loc_diff * FUNCTIONS["erf"](math.sqrt(0.5) * loc_diff_scale_ratio)
    return -t1 + (t2 + t3) / q.params["scale"] - (0.5 * (1 + math.log(0.5 * math.pi)))


def _uniform_exponential(p, q):
    rate, low, high = q.params["rate"], p.params["low"], p.params["high"]
    result = rate * (high + low) / 2 - FUNCTIONS["log"]((high - low) * rate)
    setitem(result, low < 0.0, math.inf)  # (below the support of the exponential)
    return result


def _one_hot_one_hot(p, q):
    return _categorical_categorical(p.categorical, q.categorical)


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
    (Exponential, Exponential): _exponential_exponential,
    (Laplace, Laplace): _laplace_laplace,
    (OneHotCategorical, OneHotCategorical): _one_hot_one_hot,
    (Normal, Uniform): _infinite("loc"),
    (Normal, Exponential): _infinite("loc"),
    (Normal, Laplace): _normal_laplace,
    (Exponential, Uniform): _infinite("rate"),
    (Exponential, Normal): _exponential_normal,
    (Laplace, Exponential): _infinite("loc"),
    (Laplace, Uniform): _infinite("loc"),
    (Laplace, Normal): _laplace_normal,
    (Uniform, Exponential): _uniform_exponential,
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
