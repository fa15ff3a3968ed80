"""The batching rules of vmap (see ops/batching.py): how each op runs on a whole
batch at once.  Each rule is a kind (`batch_kind`); an op names the kind of its rule
with `register(..., batch=KIND)` beside its own code, from which ops/registry.py
derives the table vmap reads.  A rule gets (level, fn, args, kwargs) with some arguments Batched
at `level`, calls ordinary ops on their physical values (whose dim 0 is the batch)
and returns Batched results; NotImplemented sends the call to the loop.

Families: element-wise ops (operands' logical dims right-aligned, so a batched
operand of fewer dims gets size-1 dims after its batch dim), reductions and other
ops with a `dim` (the dim moved past the batch dim; "all dims" becomes dims 1..n),
shape ops (reshape, view, flatten, squeeze, unsqueeze, transpose, t, permute,
movedim, expand, flip, chunk, split, unbind), indexing, cat and stack, the matrix
products (matmul, mm, mv, dot, outer, linear) and the losses mse_loss and l1_loss.
"""

from __future__ import annotations

import inspect

import numpy as np

from ..runtime import context
from ..core.convert import to_tensor
from ..core.tensor import Tensor
from .batching import Batched, call, expand_to, op, unwrap, wrap
from .batching import batch_size, level_of, loop_sample, stack_results
from .registry import BUILTINS, FUNCTIONS, batch_kind

_SIGS: dict = {}


def _bind(fn, args, kwargs):
    """{parameter: value} of a call (None if fn's signature cannot say)."""
    sig = _SIGS.get(fn)
    if sig is None:
        try:
            sig = _SIGS[fn] = inspect.signature(fn)
        except (TypeError, ValueError):
            return None
    try:
        b = sig.bind(*args, **kwargs)
    except TypeError:
        return None
    return b.arguments


def _ndim(x):
    return len(x.shape) if isinstance(x, (Tensor, Batched)) else 0


def _pad(v, logical_nd, r):
    """A physical batch of logical rank logical_nd with size-1 dims up to rank r."""
    if logical_nd >= r:
        return v
    shape = tuple(v.shape)
    return op("reshape", v, (shape[0],) + (1,) * (r - logical_nd) + shape[1:])


# ---------------------------------------------------------------- element-wise


def _listed(a):
    """A nested list of numbers as a plain tensor (anything else as it is)."""
    if type(a) in (list, tuple) and not any(type(e) is Batched for e in a):
        return to_tensor(a)
    return a


def _plain(a):
    """_listed, and a Python int as a tensor (a loss's class index)."""
    return to_tensor(a) if type(a) is int else _listed(a)


@batch_kind("backward_samples")
def _backward_samples(level, fn, args, kwargs):
    """autograd.grad under vmap on a graph built outside it, only grad_outputs batched
    (the docs' `vmap(get_vjp)(I_N)`, PyTorch's batched backward): one backward per
    sample, each but the last keeping the graph, the gradients stacked.  A graph built
    inside the vmap (batched outputs or inputs) goes sample by sample as it is."""
    given = dict(zip(("outputs", "inputs", "grad_outputs", "retain_graph"), args))
    given.update(kwargs)
    if level_of((given.get("outputs"), given.get("inputs"))) == level:
        return NotImplemented
    n = batch_size(list(args), kwargs, level)
    outs = []
    for b in range(n):
        sample = loop_sample(dict(given), level, b)
        if b < n - 1:
            sample["retain_graph"] = True
        outs.append(call(fn, (), sample))
    return stack_results(outs, level, n)


@batch_kind("elementwise")
def elementwise(level, fn, args, kwargs):
    # a nested list of numbers: a plain tensor; a Python number stays one (torch's
    # batching rules keep `x ** 2` the Tensor_Scalar op, which multiplies out)
    args = [_listed(a) for a in args]
    kwargs = {k: _listed(v) for k, v in kwargs.items()}
    items = list(args) + list(kwargs.values())
    r = max(_ndim(a) for a in items)

    def fix(a):
        v = unwrap(a, level)
        return a if v is None else _pad(v, len(a.shape), r)

    return wrap(call(fn, [fix(a) for a in args], {k: fix(v) for k, v in kwargs.items()}), level)


# ---------------------------------------------------------------- dims


def _shift(d, nd, extra=0):
    """A logical dim (of a tensor of nd dims; `extra` more allowed, as unsqueeze's) as a
    physical one; None when out of range (the op is then left to raise)."""
    if isinstance(d, bool) or not isinstance(d, int):
        return None
    n = nd + extra
    if not -n <= d < n or n == 0:
        return None
    return d % n + 1


def _shift_all(dims, nd, extra=0):
    if isinstance(dims, (tuple, list)):
        out = [_shift(d, nd, extra) for d in dims]
        return None if None in out else tuple(out)
    return _shift(dims, nd, extra)


@batch_kind("reduction")
def reduction(level, fn, args, kwargs):
    """A reduction over `dim`, one dim or a tuple of dims (None: all)."""
    return _reduction(level, fn, args, kwargs, True)


@batch_kind("reduction_one_dim")
def reduction_one_dim(level, fn, args, kwargs):
    """A reduction over one `dim` (None: all, as over the flattened input)."""
    return _reduction(level, fn, args, kwargs, False)


@batch_kind("max")
def max_(level, fn, args, kwargs):
    """max(input, dim=None, keepdim=False) (values and indices along a dim), or max(a, b)."""
    return _reduction(level, fn, args, kwargs, False, BUILTINS["maximum"].fn)


@batch_kind("min")
def min_(level, fn, args, kwargs):
    return _reduction(level, fn, args, kwargs, False, BUILTINS["minimum"].fn)


def _reduction(level, fn, args, kwargs, tuple_dims, pairwise=None):
    """A reduction's batching: `tuple_dims` when its dim may be a tuple; `pairwise`, the
    element-wise op of its two-tensor form (max's and min's, whose dim form gives values
    and indices)."""
    a = _bind(fn, args, kwargs)
    if a is None:
        return NotImplemented
    x = a.get("input", a.get("args", (None,))[0] if "args" in a else None)
    if pairwise is not None:  # max(input, dim=None, keepdim=False) or max(a, b)
        pos = list(a.get("args", ()))
        kw = dict(a.get("kwargs", {}))
        if len(pos) > 1 and isinstance(pos[1], (Tensor, Batched)) or "other" in kw:
            return elementwise(
                level, pairwise, [pos[0], pos[1] if len(pos) > 1 else kw.pop("other")], kw
            )
        x = pos[0] if pos else kw.get("input")
        a = {
            "input": x,
            "dim": pos[1] if len(pos) > 1 else kw.get("dim"),
            "keepdim": pos[2] if len(pos) > 2 else kw.get("keepdim", False),
        }
    v = unwrap(x, level)
    if v is None or any(type(o) is Batched for k, o in a.items() if k != "input"):
        return NotImplemented
    nd = len(x.shape)
    dim = a.get("dim")
    rest = {k: o for k, o in a.items() if k not in ("input", "dim")}
    if dim is None:
        if nd == 0:  # a 0-d sample: reduced as its 1-element view
            keep = rest.pop("keepdim", False)
            out = call(fn, [op("unsqueeze", v, 1)], dict(rest, dim=1))  # keepdim: still 0-d
            return wrap(out[0] if pairwise is not None else out, level)
        if tuple_dims:
            out = call(fn, [v], dict(rest, dim=tuple(range(1, nd + 1))))
        else:
            keep = rest.pop("keepdim", False)
            flat = op("reshape", v, (v.shape[0], -1))
            out = call(fn, [flat], dict(rest, dim=1))
            if pairwise is not None:
                out = out[0]
            if keep:
                out = op("reshape", out, (v.shape[0],) + (1,) * nd)
        return wrap(out, level)
    d = _shift_all(dim, nd)
    if d is None or (isinstance(d, tuple) and not tuple_dims):
        return NotImplemented
    return wrap(call(fn, [v], dict(rest, dim=d)), level)


@batch_kind("along_dim")
def along_dim(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    if a is None:
        return NotImplemented
    xname = "input" if "input" in a else "x"
    x = a[xname]
    v = unwrap(x, level)
    if v is None:
        return NotImplemented
    nd = len(x.shape)
    dim = a.get("dim")
    if dim is None:  # softmax's implicit dim, as PyTorch picks it
        dim = 0 if nd in (0, 1, 3) else 1
    if nd == 0:
        return NotImplemented
    d = _shift(dim, nd)
    if d is None:
        return NotImplemented
    rest = {k: o for k, o in a.items() if k not in (xname, "dim")}
    return wrap(call(fn, [v], dict(rest, dim=d)), level)


def _sizes(rest):
    if len(rest) == 1 and isinstance(rest[0], (tuple, list)):
        return tuple(rest[0])
    return tuple(rest)


@batch_kind("reshape")
def reshape(level, fn, args, kwargs):
    v = unwrap(args[0], level) if args else None
    if v is None or kwargs:
        return NotImplemented
    shape = _sizes(args[1:])
    if not all(isinstance(s, int) and not isinstance(s, bool) for s in shape):
        return NotImplemented
    return wrap(call(fn, [v, (v.shape[0],) + shape]), level)


@batch_kind("unsqueeze")
def unsqueeze(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    v = unwrap(a["x"], level) if a else None
    d = _shift(a["dim"], len(a["x"].shape), 1) if v is not None else None
    return NotImplemented if d is None else wrap(op("unsqueeze", v, d), level)


@batch_kind("squeeze")
def squeeze(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    v = unwrap(a["x"], level) if a else None
    if v is None:
        return NotImplemented
    shape = a["x"].shape
    dim = a.get("dim")
    if dim is None:
        return wrap(op("reshape", v, (v.shape[0],) + tuple(s for s in shape if s != 1)), level)
    d = _shift_all(dim, len(shape))
    if d is None:
        return NotImplemented
    return wrap(op("squeeze", v, d), level)


@batch_kind("transpose")
def transpose(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    if a is None:
        return NotImplemented
    names = list(a)
    x, d0, d1 = (a[n] for n in names[:3])
    v = unwrap(x, level)
    nd = len(x.shape) if v is not None else 0
    p0, p1 = _shift(d0, nd), _shift(d1, nd)
    if v is None or p0 is None or p1 is None:
        return NotImplemented
    return wrap(op("transpose", v, p0, p1), level)


@batch_kind("t")
def t(level, fn, args, kwargs):
    v = unwrap(args[0], level) if len(args) == 1 and not kwargs else None
    if v is None or len(args[0].shape) > 2:
        return NotImplemented
    return wrap(v if len(args[0].shape) < 2 else op("transpose", v, 1, 2), level)


@batch_kind("permute")
def permute(level, fn, args, kwargs):
    v = unwrap(args[0], level) if args else None
    if v is None or kwargs:
        return NotImplemented
    d = _shift_all(list(_sizes(args[1:])), len(args[0].shape))
    if d is None:
        return NotImplemented
    return wrap(op("permute", v, (0,) + d), level)


@batch_kind("movedim")
def movedim(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    v = unwrap(a["input"], level) if a else None
    if v is None:
        return NotImplemented
    nd = len(a["input"].shape)
    s, d = _shift_all(a["source"], nd), _shift_all(a["destination"], nd)
    if s is None or d is None:
        return NotImplemented
    return wrap(op("movedim", v, s, d), level)


@batch_kind("flatten")
def flatten(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    v = unwrap(a["x"], level) if a else None
    if v is None:
        return NotImplemented
    nd = len(a["x"].shape)
    if nd == 0:
        return wrap(op("reshape", v, (v.shape[0], 1)), level)
    s, e = _shift(a.get("start_dim", 0), nd), _shift(a.get("end_dim", -1), nd)
    if s is None or e is None:
        return NotImplemented
    return wrap(op("flatten", v, s, e), level)


@batch_kind("expand")
def expand(level, fn, args, kwargs):
    v = unwrap(args[0], level) if args else None
    if v is None or kwargs:
        return NotImplemented
    sizes = _sizes(args[1:])
    nd = len(args[0].shape)
    if len(sizes) < nd:
        return NotImplemented
    return wrap(op("expand", _pad(v, nd, len(sizes)), v.shape[0], *sizes), level)


@batch_kind("expand_as")
def expand_as(level, fn, args, kwargs):
    if len(args) != 2 or kwargs or unwrap(args[0], level) is None:
        return NotImplemented
    return expand(level, fn, [args[0], *args[1].shape], {})


@batch_kind("flip")
def flip(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    v = unwrap(a["x"], level) if a else None
    d = _shift_all(a["dims"], len(a["x"].shape)) if v is not None else None
    if d is None:
        return NotImplemented
    return wrap(op("flip", v, d if isinstance(d, tuple) else (d,)), level)


@batch_kind("pieces")
def pieces(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    v = unwrap(a["x"], level) if a else None
    if v is None or any(type(o) is Batched for k, o in a.items() if k != "x"):
        return NotImplemented
    d = _shift(a.get("dim", 0), len(a["x"].shape))
    if d is None:
        return NotImplemented
    rest = {k: o for k, o in a.items() if k not in ("x", "dim")}
    return wrap(call(fn, [v], dict(rest, dim=d)), level)


@batch_kind("index")
def index(level, fn, args, kwargs):
    x, key = args
    v = unwrap(x, level)
    k = key if type(key) is tuple else (key,)
    if v is None or kwargs or any(type(e) is Batched for e in k):
        return NotImplemented
    adv = [i for i, e in enumerate(k) if isinstance(e, (Tensor, list))]
    if len(adv) > 1 and adv[-1] - adv[0] != len(adv) - 1:
        return NotImplemented  # split advanced indices would move the batch dim
    return wrap(op("index", v, (slice(None),) + k), level)


@batch_kind("join")
def join(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    if a is None or not isinstance(a.get("tensors"), (list, tuple)) or not a["tensors"]:
        return NotImplemented
    ts = list(a["tensors"])
    n = next(t.batch for t in ts if type(t) is Batched and t.level == level)
    vals = []
    for t_ in ts:
        v = unwrap(t_, level)
        vals.append(v if v is not None else expand_to(t_, n))
    nd = len(ts[0].shape)
    is_stack = fn is FUNCTIONS["stack"]
    d = _shift(a.get("dim", 0), nd, 1 if is_stack else 0)
    if d is None:
        return NotImplemented
    return wrap(call(fn, [vals], {"dim": d}), level)


# ---------------------------------------------------------------- matrix products


def _matmul(level, a, b):
    va, vb = unwrap(a, level), unwrap(b, level)
    la, lb = len(a.shape), len(b.shape)
    if la == 0 or lb == 0:
        return NotImplemented
    if vb is None:  # batched @ plain
        if la == 1:
            out = op("matmul", va, b)  # (B, n) @ b: the batch as matrix rows
            return out if lb <= 2 else op("movedim", out, -2, 0)
        if lb == 2:  # rows of one matrix product, as torch
            shape = tuple(va.shape)  # folds them (a row's bits its own)
            out = op("mm", op("reshape", va, (-1, shape[-1])), b)
            return op("reshape", out, shape[:-1] + (b.shape[-1],))
        return op("matmul", _pad(va, la, lb), b)
    if va is None:  # plain @ batched
        if lb == 1:
            if la == 1:
                return op("matmul", vb, a)
            # (a matrix: torch's mv rule, mm(a, vb.T).T, a transposed view; vb @ a.T
            # is another gemm, whose float64 bits differ)
            return op("movedim", op("matmul", a, op("transpose", vb, 0, 1)), -1, 0)
        return op("matmul", a, _pad(vb, lb, la))
    if la == 1 or lb == 1:  # a vector on either side: products and a sum, so
        if la == 1 and lb == 1:  # that the gradients are products (signs of zero
            return op("sum", op("mul", va, vb), -1)  # as PyTorch's mv/dot give)
        if lb == 1:
            return op("sum", op("mul", va, _pad(op("unsqueeze", vb, -2), 2, la)), -1)
        return op("sum", op("mul", _pad(op("unsqueeze", va, -1), 2, lb), vb), -2)
    a1 = va if la >= 2 else op("unsqueeze", va, 1)
    b1 = vb if lb >= 2 else op("unsqueeze", vb, -1)
    r = max(la, lb, 2)
    out = op("matmul", _pad(a1, max(la, 2), r), _pad(b1, max(lb, 2), r))
    if la == 1:
        out = op("squeeze", out, -2)
    if lb == 1:
        out = op("squeeze", out, -1)
    return out


@batch_kind("matmul")
def matmul(level, fn, args, kwargs):
    return _products(level, args, kwargs, None)


@batch_kind("mm")
def mm(level, fn, args, kwargs):
    return _products(level, args, kwargs, (2, 2))


@batch_kind("mv")
def mv(level, fn, args, kwargs):
    return _products(level, args, kwargs, (2, 1))


@batch_kind("dot")
def dot(level, fn, args, kwargs):
    return _products(level, args, kwargs, (1, 1))


def _products(level, args, kwargs, want):
    """A matrix product's batching; `want`: the operands' dims the op accepts (None: any)."""
    if len(args) != 2 or kwargs:
        return NotImplemented
    a, b = args
    if not isinstance(a, (Tensor, Batched)) or not isinstance(b, (Tensor, Batched)):
        return NotImplemented
    if want is not None and (len(a.shape), len(b.shape)) != want:
        return NotImplemented  # the op's own error, from the loop
    if a.dtype != b.dtype:
        return NotImplemented
    out = _matmul(level, a, b)
    return out if out is NotImplemented else Batched(out, level)


@batch_kind("outer")
def outer(level, fn, args, kwargs):
    if len(args) != 2 or kwargs or any(len(x.shape) != 1 for x in args):
        return NotImplemented
    return op("mul", op("unsqueeze", args[0], 1), args[1])


@batch_kind("linear")
def linear(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    if a is None:
        return NotImplemented
    x, w, b = a["input"], a["weight"], a.get("bias")
    vx = unwrap(x, level)
    if vx is not None and type(w) is not Batched and type(b) is not Batched:
        # the batch as more rows of linear's one matrix product (as torch folds it); the
        # BLAS computes a row as it does alone, so a sample's bits are its own
        return Batched(call(fn, [vx, w, b]), level)
    out = op("matmul", x, op("t", w))
    return out if b is None else op("add", out, b)


# ---------------------------------------------------------------- losses


def _reduce(loss, reduction, level):
    if reduction == "none":
        return loss
    return op("mean" if reduction == "mean" else "sum", loss)


@batch_kind("mse_loss")
def mse_loss(level, fn, args, kwargs):
    return _pointwise_loss(level, fn, args, kwargs, True)


@batch_kind("l1_loss")
def l1_loss(level, fn, args, kwargs):
    return _pointwise_loss(level, fn, args, kwargs, False)


def _pointwise_loss(level, fn, args, kwargs, squared):
    """mse_loss's batching (`squared`) or l1_loss's: the difference's square or
    absolute value, reduced per sample."""
    a = _bind(fn, args, kwargs)
    if a is None or a.get("size_average") is not None or a.get("reduce") is not None:
        return NotImplemented
    x, y = a["input"], a["target"]
    if not isinstance(y, (Tensor, Batched)) or a.get("reduction", "mean") not in (
        "mean",
        "sum",
        "none",
    ):
        return NotImplemented
    if tuple(x.shape) != tuple(y.shape):
        context.warn(
            f"Using a target size (torch.Size({list(y.shape)})) that is different to "
            f"the input size (torch.Size({list(x.shape)})). This will likely lead to "
            "incorrect results due to broadcasting. Please ensure they have the same "
            "size."
        )
    d = op("sub", x, y)
    loss = op("mul", d, d) if squared else op("abs", d)
    return _reduce(loss, a.get("reduction", "mean"), level)


@batch_kind("numpy_T")
def numpy_t(level, fn, args, kwargs):
    v = unwrap(args[0], level) if len(args) == 1 and not kwargs else None
    if v is None:
        return NotImplemented
    nd = len(args[0].shape)
    return wrap(op("permute", v, (0,) + tuple(range(nd, 0, -1))), level)


def _class_targets(a, level):
    """(input's physical value (B, N, C), target's (B, N), weight, 1-d?) for nll_loss of
    class indices, or None when the rule does not apply."""
    x, t = a["input"], _plain(a["target"]) if type(a["target"]) in (int, list) else a["target"]
    if (
        a.get("size_average") is not None
        or a.get("reduce") is not None
        or type(a.get("weight")) is Batched
        or not isinstance(t, (Tensor, Batched))
    ):
        return None
    nd = len(x.shape) >= 3 and tuple(t.shape) == (x.shape[0],) + tuple(x.shape[2:])
    if t.dtype.kind not in "iu" or not (
        nd or (len(x.shape) in (1, 2) and tuple(t.shape) == tuple(x.shape[:-1]))
    ):
        return None
    vx = unwrap(x, level)
    n = (vx if vx is not None else unwrap(t, level)).shape[0]
    vx = vx if vx is not None else expand_to(x, n)
    vt = unwrap(t, level)
    vt = vt if vt is not None else expand_to(t, n)
    one = len(x.shape) == 1
    if one:
        vx, vt = op("unsqueeze", vx, 1), op("unsqueeze", vt, 1)
    if nd:  # (B, N, C, d...) as (B, N * d..., C) rows, the target's as (B, N * d...)
        vx = op("reshape", op("movedim", vx, 2, -1), (n, -1, x.shape[1]))
        vt = op("reshape", vt, (n, -1))
        one = tuple(t.shape)
    return vx, vt, a.get("weight"), one


def _nll(vx, vt, weight, ignore_index, reduction):
    n, rows = vx.shape[0], vx.shape[1]
    bi = Tensor(np.arange(n).reshape(n, 1))
    ri = Tensor(np.arange(rows).reshape(1, rows))
    keep = op("ne", vt, ignore_index)
    safe = op("where", keep, vt, 0)
    picked = op("index", vx, (bi, ri, safe))  # (B, N)
    w = op("to", keep, vx.dtype)
    if weight is not None:
        w = op("mul", w, op("index", weight, (safe,)))
    loss = op("neg", op("mul", picked, w))
    if reduction == "none":
        return loss
    total = op("sum", loss, 1)
    return total if reduction == "sum" else op("div", total, op("sum", w, 1))


@batch_kind("nll_loss")
def nll_loss(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    got = _class_targets(a, level) if a else None
    reduction = a.get("reduction", "mean") if a else None
    if got is None or reduction not in ("mean", "sum", "none"):
        return NotImplemented
    vx, vt, weight, one = got
    out = _nll(vx, vt, weight, a.get("ignore_index", -100), reduction)
    if isinstance(one, tuple) and reduction == "none":  # (N, d...) per sample again
        return Batched(op("reshape", out, (out.shape[0],) + one), level)
    return Batched(op("squeeze", out, 1) if one is True and reduction == "none" else out, level)


@batch_kind("cross_entropy")
def cross_entropy(level, fn, args, kwargs):
    a = _bind(fn, args, kwargs)
    if a is None or a.get("label_smoothing", 0.0):
        return NotImplemented
    x = a["input"]
    t = _plain(a["target"]) if type(a["target"]) in (int, list) else a["target"]
    if not isinstance(t, (Tensor, Batched)):
        return NotImplemented
    cdim = 1 if len(x.shape) >= 2 else 0
    logp = op("log_softmax", x, cdim)
    if t.dtype.kind == "f" and tuple(t.shape) == tuple(x.shape):  # class probabilities
        reduction = a.get("reduction", "mean")
        if (
            a.get("weight") is not None
            or reduction not in ("mean", "sum", "none")
            or a.get("size_average") is not None
            or a.get("reduce") is not None
        ):
            return NotImplemented
        loss = op("neg", op("sum", op("mul", t, logp), cdim))
        return loss if reduction == "none" else op(reduction, loss)
    kw = {k: v for k, v in a.items() if k not in ("input", "target", "label_smoothing")}
    return nll_loss(level, FUNCTIONS["nll_loss"], [logp, t], kw)


@batch_kind("image")
def image_ops(level, fn, args, kwargs):
    """A batch of images (or of mini-batches) through the op as more images, when the
    weights are the same for every sample."""
    x = args[0] if args else kwargs.get("input")
    vx = unwrap(x, level)
    rest = list(args[1:])
    if (
        vx is None
        or any(type(o) is Batched for o in rest + list(kwargs.values()))
        or len(x.shape) not in (3, 4)
    ):
        return NotImplemented
    lead = tuple(vx.shape[:-3])  # (B,) or (B, N)
    flat = op("reshape", vx, (-1,) + tuple(vx.shape[-3:]))
    out = call(fn, [flat] + rest, {k: v for k, v in kwargs.items() if k != "input"})
    if isinstance(out, tuple):
        return NotImplemented
    return Batched(op("reshape", out, lead + tuple(out.shape[1:])), level)
