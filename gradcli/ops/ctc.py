"""ctc_loss: the Connectionist Temporal Classification loss as ATen's CPU kernel computes
it (LossCTC.cpp): the alphas of the forward-backward algorithm in log space, state by
state in the kernel's order with its three-term log-sum-exp (`log(exp(a - m) + exp(b -
m) + exp(c - m)) + m + log_prob`), the C library's exp and log; the backward's betas and
its collection of alpha + beta per character ("log+=" in descending state order); then
the reduction ATen's ctc_loss applies (`(loss / clamp_min(target_lengths, 1)).mean()`
or `.sum()`).  The node is CtcLossBackward0."""

from __future__ import annotations

import numpy as np

from ..core.convert import tensor_arg
from ..core.tensor import Tensor
from ..engine.declare import none
from ..engine.function import Function
from ..numerics.floats.torch_exp import libm_expf
from ..runtime.errors import GradRuntimeError
from .activation_base import NotImplementedGrad
from .loss import _reduction
from .loss_more import _decl
from .registry import FUNCTIONS

_OP = FUNCTIONS


def _exp(x):
    x = np.asarray(x)
    return libm_expf(x) if x.dtype == np.float32 else np.exp(x)


def _log(x):
    """The C library's log (float32: computed in double and rounded once, as glibc's logf)."""
    x = np.asarray(x)
    with np.errstate(divide="ignore", invalid="ignore"):
        if x.dtype == np.float32:
            return np.log(x.astype(np.float64)).astype(np.float32)
        return np.log(x)


def _primes(targets, offset, stride, length, blank):
    """The augmented target l' (blank, l1, blank, l2, ..., blank) of one batch item."""
    out = np.full(2 * length + 1, blank, np.int64)
    if length:
        out[1::2] = targets[offset + stride * np.arange(length)]
    return out


def _lse3(a, b, c, neginf):
    """log(exp(a - m) + exp(b - m) + exp(c - m)) + m, m the largest (0 if all are -inf)."""
    m = np.maximum(np.maximum(a, b), c)
    m = np.where(m == neginf, m.dtype.type(0), m)
    with np.errstate(invalid="ignore"):
        return _log(_exp(a - m) + _exp(b - m) + _exp(c - m)) + m


class CtcLoss(Function):
    __slots__ = ("blank", "zero_infinity", "items", "alpha", "nll")
    name = "CtcLossBackward0"
    saved_names = ("log_probs", "targets", "result0", "result1")
    saved_extra = {
        "blank": lambda node: node.blank,
        "zero_infinity": lambda node: node.zero_infinity,
        "input_lengths": lambda node: tuple(i for i, _t, _o, _p in node.items),
        "target_lengths": lambda node: tuple(len(p) // 2 for _i, _t, _o, p in node.items),
    }
    formula = none("no formula rule yet: shown as a named function with its Jacobian")
    jvp = none("PyTorch has no forward-mode derivative of _ctc_loss")

    def forward(self, lp, targets, items, blank, zero_infinity):
        self.blank, self.zero_infinity, self.items = blank, zero_infinity, items
        typ = lp.dtype.type
        neginf = typ(-np.inf)
        batch = lp.shape[1]
        smax = max((len(p) for *_, p in items), default=1)
        alpha = np.full((batch, lp.shape[0], smax), neginf, lp.dtype)
        nll = np.empty(batch, lp.dtype)
        for b, (n_in, _tl, _off, prime) in enumerate(items):
            if n_in == 0:
                nll[b] = -(typ(0) if len(prime) == 1 else neginf)
                continue
            rows = lp[:, b, :]
            a = alpha[b]
            a[0, 0] = rows[0, blank]
            if len(prime) > 1:
                a[0, 1] = rows[0, prime[1]]
            n = len(prime)
            skip = np.zeros(n, bool)  # la3 is used where l'[s - 2] != l'[s]
            skip[2:] = prime[:-2] != prime[2:]
            for t in range(1, n_in):
                prev = a[t - 1, :n]
                la2, la3 = np.full(n, neginf), np.full(n, neginf)
                la2[1:] = prev[:-1]
                la3[2:] = np.where(skip[2:], prev[:-2], neginf)
                a[t, :n] = _lse3(prev, la2, la3, neginf) + rows[t, prime]
            if n == 1:
                nll[b] = -a[n_in - 1, 0]
            else:
                l1, l2 = a[n_in - 1, n - 1], a[n_in - 1, n - 2]
                m = max(l1, l2)
                m = typ(0) if m == neginf else m
                nll[b] = -(_log(_exp(l1 - m) + _exp(l2 - m)) + m)
        self.alpha, self.nll = alpha, nll
        self.save(lp, targets, nll, alpha)
        return nll

    def backward(self, g, F, lp, targets, _nll, _alpha):
        if F.tensor_mode:
            return (CtcLossGrad.apply(g, lp, node=self), None)
        return (ctc_grad(self, g, lp), None)


def ctc_grad(node, grad_out, lp):
    """ATen's ctc_loss_backward_cpu_template for every batch item."""
    typ = lp.dtype.type
    neginf = typ(-np.inf)
    grad = np.full(lp.shape, neginf, lp.dtype)
    gout = np.broadcast_to(np.asarray(grad_out, lp.dtype), (lp.shape[1],))
    blank = node.blank
    for b, (n_in, _tl, _off, prime) in enumerate(node.items):
        nll = node.nll[b]
        gb = grad[:, b, :]
        if node.zero_infinity and nll == np.inf:
            gb[...] = 0
            continue
        rows = lp[:, b, :]
        alpha = node.alpha[b]
        n = len(prime)
        beta = np.full((lp.shape[0], n), neginf, lp.dtype)
        if n_in > 0:
            last = n_in - 1
            beta[last, n - 1] = rows[last, blank]
            gb[last, blank] = alpha[last, n - 1] + beta[last, n - 1]
            if n > 1:
                c = prime[n - 2]
                beta[last, n - 2] = rows[last, c]
                gb[last, c] = alpha[last, n - 2] + beta[last, n - 2]
        skip = np.zeros(n, bool)  # lb3 is used where l'[s + 2] != l'[s]
        skip[:-2] = prime[2:] != prime[:-2]
        for t in range(n_in - 2, -1, -1):
            nxt = beta[t + 1]
            lb2, lb3 = np.full(n, neginf), np.full(n, neginf)
            lb2[:-1] = nxt[1:]
            lb3[:-2] = np.where(skip[:-2], nxt[2:], neginf)
            beta[t] = _lse3(nxt, lb2, lb3, neginf) + rows[t, prime]
        # collected[t, l'[s]] "log+=" alpha[t, s] + beta[t, s], s descending, all t at once
        if n_in > 1:
            ts = np.arange(n_in - 1)
            for s in range(n - 1, -1, -1):
                c = prime[s]
                v = alpha[ts, s] + beta[ts, s]
                cur = gb[ts, c]
                m = np.maximum(cur, v)
                with np.errstate(invalid="ignore"):
                    folded = _log(_exp(cur - m) + _exp(v - m)) + m
                gb[ts, c] = np.where(cur == neginf, v, folded)
        gr = gout[b]
        with np.errstate(invalid="ignore", over="ignore"):
            gb[:n_in] = (_exp(rows[:n_in]) - _exp(gb[:n_in] + nll - rows[:n_in])) * gr
        gb[n_in:] = 0
    return grad


class CtcLossGrad(NotImplementedGrad):
    __slots__ = ()
    aten = "_ctc_loss_backward"
    compute = staticmethod(lambda g, lp, node: ctc_grad(node, g, lp))


def _lengths(v, what):
    if isinstance(v, Tensor):
        if v.data.dtype.kind not in "iu":
            raise GradRuntimeError(f"{what} must be integral")
        return [int(x) for x in np.asarray(v.data).reshape(-1)]
    if isinstance(v, (int, np.integer)):
        return [int(v)]
    return [int(x) for x in v]


@_decl(
    "ctc_loss",
    "ctc_loss(log_probs, targets, input_lengths, target_lengths, blank=0, reduction='mean', "
    "zero_infinity=False)",
    "the negative log likelihood of the targets over all alignments, reduced",
    none(
        "ATen's gradient assumes log_softmax input (its exp(log_probs) term), so finite "
        "differences of raw samples do not match it, in torch either; golden programs"
    ),
)
def ctc_loss(
    log_probs,
    targets,
    input_lengths,
    target_lengths,
    blank=0,
    reduction="mean",
    zero_infinity=False,
):
    reduction = _reduction(reduction)
    lp_t, tg = tensor_arg(log_probs), tensor_arg(targets)
    batched = lp_t.data.ndim == 3
    lp_in = lp_t if batched else _OP["unsqueeze"](lp_t, 1)
    lp = lp_in.data
    if lp.ndim != 3:
        raise GradRuntimeError(
            f"Expected 3-dimensional tensor, but got {lp.ndim}-dimensional tensor for "
            "argument #1 'log_probs' (while checking arguments for ctc_loss_allocate_outputs)"
        )
    if lp.dtype.kind != "f":
        raise GradRuntimeError(f"\"ctc_loss_cpu\" not implemented for '{lp.dtype}'")
    il = _lengths(input_lengths, "input_lengths")
    tl = _lengths(target_lengths, "target_lengths")
    batch, labels = lp.shape[1], lp.shape[2]
    if not 0 <= blank < labels:
        raise GradRuntimeError("blank must be in label range")
    if len(il) != batch:
        raise GradRuntimeError("input_lengths must be of size batch_size")
    if len(tl) != batch:
        raise GradRuntimeError("target_lengths must be of size batch_size")
    td = np.asarray(tg.data).astype(np.int64)
    items = []
    if td.ndim == 1:
        pos = 0
        offsets = []
        for n in tl:
            offsets.append(pos)
            pos += n
        if td.shape[0] != pos:
            raise GradRuntimeError(
                f"Expected tensor to have size {pos} at dimension 0, but got size "
                f"{td.shape[0]} for argument #2 'targets' (while checking arguments for "
                "ctc_loss_allocate_outputs)"
            )
        flat = td
        stride = 1
    else:
        if td.shape[0] != batch or td.shape[1] < max(tl, default=0):
            raise GradRuntimeError(
                f"Expected tensor to have size at least {max(tl, default=0)} at dimension 1, "
                f"but got size {td.shape[1]} for argument #2 'targets' (while checking "
                "arguments for ctc_loss_allocate_outputs)"
            )
        offsets = [b * td.shape[1] for b in range(batch)]
        flat = td.reshape(-1)
        stride = 1
    for b in range(batch):
        if il[b] < 0 or il[b] > lp.shape[0]:
            raise GradRuntimeError(
                f"Expected input_lengths to have value at most {lp.shape[0]}, but got value "
                f"{il[b]} (while checking arguments for ctc_loss_allocate_outputs)"
            )
        items.append((il[b], tl[b], offsets[b], _primes(flat, offsets[b], stride, tl[b], blank)))
    res = CtcLoss.apply(lp_in, Tensor(td), items=items, blank=blank, zero_infinity=zero_infinity)
    if zero_infinity:
        res = _OP["where"](_OP["eq"](res, np.inf), Tensor(np.zeros((), lp.dtype)), res)
    if reduction == "mean":
        lengths = Tensor(np.maximum(np.asarray(tl, lp.dtype), 1).astype(lp.dtype))
        return _OP["mean"](_OP["div"](res, lengths))
    if reduction == "sum":
        return _OP["sum"](res)
    return res if batched else _OP["squeeze"](res, 0)
