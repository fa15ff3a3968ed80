"""Calculus on functions: `jacobian`, `hessian` and `gradcheck`.

`jacobian(f, x)` and `hessian(f, x)` follow `torch.autograd.functional`
exactly (the reverse-mode algorithm, shapes, tuple structure, zeros for an
input the output does not use, `create_graph`); `f` is any callable of the
language: a `def`, a `lambda` or a built-in such as `exp`.

`gradcheck(f, x)` compares every analytic derivative (reverse mode, one
backward pass per output element) with central finite differences in float64
and prints, through the session's output, one line per input with the worst
absolute and relative error, then the first mismatch of each failing input
(naming the input and the element), then `passed` or `failed`; it returns
True or False.
"""

from __future__ import annotations

import numpy as np

from ..engine.declare import none
from ..engine.autograd import grad_rows, one_graph
from ..runtime.errors import GradRuntimeError, GradTypeError
from ..ops.registry import register
from ..core.tensor import Tensor
from ..runtime import context
from ..runtime.limits import check_alloc
from ..core.printing import show
from .transform_base import basis, tangents_at
from .transform_base import (
    _as_tuple,
    _check_callable,
    _fn,
    _postprocess,
    _preprocess,
    _type_name,
    jacobian_forward,
)

# ---------------------------------------------------------------- helpers


# ---------------------------------------------------------------- jacobian


def _jacobian(func, inputs, create_graph=False, strict=False, fn_name="jacobian"):
    _check_callable(func, fn_name)
    prev = context.current.grad_enabled
    context.current.grad_enabled = True
    try:
        is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", fn_name)
        inputs = _preprocess(inputs, create_graph)
        outputs = func(*inputs)
        is_outputs_tuple, outputs = _as_tuple(
            outputs, "outputs of the user-provided function", fn_name
        )
        if strict:
            for i, o in enumerate(outputs):
                if not o.requires_grad:
                    raise GradRuntimeError(
                        f"Output {i} of the user-provided function does not require gradients. "
                        "The outputs must be computed in a differentiable manner from the input "
                        "when running in strict mode."
                    )
        jac = []
        for out in outputs:  # refuse a Jacobian over the memory cap up front
            for x in inputs:
                check_alloc(tuple(out.data.shape) + tuple(x.data.shape))
        for i, out in enumerate(outputs):
            rows = tuple([] for _ in inputs)
            with one_graph():  # (a pass per element of out: what leads to inputs, once)
                _rows(out, i, inputs, rows, create_graph, strict)
            jac.append(
                tuple(
                    _assemble(r, out.data.shape, x.data, create_graph) for r, x in zip(rows, inputs)
                )
            )
        if not create_graph:
            jac = [tuple(Tensor(t.data) for t in row) for row in jac]
        return _postprocess(tuple(jac), (is_outputs_tuple, is_inputs_tuple))
    finally:
        context.current.grad_enabled = prev


def _onehots(out):
    """The head gradients of a Jacobian's rows of `out`: each element's one-hot array."""
    n, dt, shape = out.data.size, out.data.dtype, out.data.shape
    for j in range(n):
        onehot = np.zeros(n, dtype=dt)
        onehot[j] = 1
        yield onehot.reshape(shape)


def _rows(out, i, inputs, rows, create_graph, strict):
    """The Jacobian's rows of output i (`out`): one autograd.grad pass per element."""
    arrays = not create_graph  # (the rows' arrays, stacked by _assemble)
    if out.requires_grad:
        passes = grad_rows(out, inputs, _onehots(out), create_graph, arrays)
    else:
        passes = ((None,) * len(inputs) for _ in range(out.data.size))
    for vj in passes:
        for k, (g, x) in enumerate(zip(vj, inputs)):
            if g is None:
                if strict:
                    raise GradRuntimeError(
                        f"Output {i} of the user-provided function is independent of "
                        f"input {k}. This is not allowed in strict mode."
                    )
                g = np.zeros_like(x.data) if arrays else Tensor(np.zeros_like(x.data))
            elif strict and create_graph and not g.requires_grad:
                raise GradRuntimeError(
                    f"The jacobian of the user-provided function is independent of "
                    f"input {i}. This is not allowed in strict mode when "
                    "create_graph=True."
                )
            rows[k].append(g)


def _assemble(rows, out_shape, x, create_graph):
    """torch.stack(rows).view(out.shape + x.shape) (rows: Tensors, or arrays)."""
    shape = tuple(out_shape) + tuple(x.shape)
    if not rows:
        return Tensor(np.zeros(shape, dtype=x.dtype))
    if create_graph and any(r.requires_grad for r in rows):
        return _fn("reshape")(_fn("stack")(list(rows), 0), shape)
    data = [np.asarray(r.data if type(r) is Tensor else r, dtype=x.dtype) for r in rows]
    data = np.stack(data, 0).reshape(shape)
    return Tensor(data)


@register(
    "jacobian",
    "jacobian(f, inputs, create_graph=False, strict=False)",
    "the Jacobian of f at inputs (a tensor or a tuple), as torch.autograd.functional",
    category="autograd",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("a transform of functions: its own tests check it"),
    parser=None,
)
def jacobian(
    func, inputs, create_graph=False, strict=False, vectorize=False, strategy="reverse-mode"
):
    if strategy not in ("reverse-mode", "forward-mode"):
        raise GradRuntimeError('Expected strategy to be either "forward-mode" or "reverse-mode".')
    if strategy == "forward-mode":
        if not vectorize:
            raise GradRuntimeError(VECTORIZE_ONLY, type_name="NotImplementedError")
        return jacobian_forward(func, inputs, bool(create_graph), bool(strict))
    return _jacobian(func, inputs, bool(create_graph), bool(strict))


VECTORIZE_ONLY = (
    "Computing Jacobian using forward-AD or forward-over-reverse Hessian is"
    "only implemented for `vectorize=True`."
)


# ---------------------------------------------------------------- hessian


@register(
    "hessian",
    "hessian(f, inputs, create_graph=False, strict=False)",
    "the Hessian of a scalar f at inputs (a tensor or a tuple), as torch.autograd.functional",
    category="autograd",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("a transform of functions: its own tests check it"),
    parser=None,
)
def hessian(
    func,
    inputs,
    create_graph=False,
    strict=False,
    vectorize=False,
    outer_jacobian_strategy="reverse-mode",
):
    _check_callable(func, "hessian")
    is_inputs_tuple, inputs = _as_tuple(inputs, "inputs", "hessian")

    def single_output(*inp):
        out = func(*inp)
        is_out_tuple, t_out = _as_tuple(out, "outputs of the user-provided function", "hessian")
        if strict and not t_out[0].requires_grad:
            raise GradRuntimeError(
                "Output 0 of the user-provided function does not require gradients. The outputs "
                "must be computed in a differentiable manner from the input when running in "
                "strict mode."
            )
        if is_out_tuple:
            raise GradRuntimeError("The function given to hessian should return a single Tensor")
        if out.data.size != 1:
            raise GradRuntimeError(
                "The Tensor returned by the function given to hessian should "
                "contain a single element"
            )
        return _fn("squeeze")(out)

    def jac_func(*inp):
        jac = _jacobian(single_output, inp, True, strict, "hessian")
        if strict:
            for i, j in enumerate(jac):
                if not j.requires_grad:
                    raise GradRuntimeError(
                        "While computing the hessian, found that the jacobian of the "
                        f"user-provided function with respect to input {i} is independent of "
                        "the input. This is not allowed in strict mode."
                    )
        return jac

    if outer_jacobian_strategy == "forward-mode":  # forward over reverse
        if not vectorize:
            raise GradRuntimeError(VECTORIZE_ONLY, type_name="NotImplementedError")
        res = jacobian_forward(jac_func, inputs, bool(create_graph), bool(strict))
    else:
        res = _jacobian(jac_func, inputs, bool(create_graph), bool(strict), "hessian")
    return _postprocess(res, (is_inputs_tuple, is_inputs_tuple))


# ---------------------------------------------------------------- gradcheck


def _out():
    return context.current.out


def _var_name(t):
    for name, v in (context.current.variables or {}).items():
        if v is t:
            return name
    return None


def _float_outputs(out):
    """The floating tensors among f's outputs (nested tuples such as max's are flattened)."""
    items, stack = [], [out]
    while stack:
        v = stack.pop()
        if isinstance(v, (tuple, list)) and v:
            stack.extend(reversed(v))
        elif isinstance(v, Tensor):
            items.append(v)
        else:
            raise GradTypeError(
                "gradcheck(): the function must return a tensor or a tuple of "
                f"tensors, got {_type_name(out)}"
            )
    return [o for o in items if o.data.dtype.kind == "f"]


def _fmt_idx(idx):
    return "[" + ", ".join(str(int(i)) for i in idx) + "]"


def _num(v):
    return f"{float(v):.6g}"


@register(
    "gradcheck",
    "gradcheck(f, inputs, eps=1e-6, atol=1e-5, rtol=1e-3)",
    "check f's analytic gradients against central finite differences (float64); "
    "prints the worst errors per input and returns True or False",
    category="autograd",
    batch=None,
    inplace=None,
    pure=False,
    checks=none("a transform of functions: its own tests check it"),
    parser=None,
)
def gradcheck(
    func,
    inputs,
    eps=1e-6,
    atol=1e-5,
    rtol=1e-3,
    raise_exception=False,
    quiet=False,
    forward_ad=False,
    torch_mode=False,
    **_torch_options,
):
    """Every d(output element)/d(input element) of `func` at `inputs`, analytic vs numerical.

    The inputs checked are the tensors that require grad (all floating tensors if none
    does); each is copied to float64.  An element passes when
    |analytic - numerical| <= atol + rtol * |numerical| (PyTorch's rule)."""
    _check_callable(func, "gradcheck")
    eps, atol, rtol = float(eps), float(atol), float(rtol)
    is_tuple = isinstance(inputs, (tuple, list))
    items = list(inputs) if is_tuple else [inputs]
    floats = [i for i, v in enumerate(items) if isinstance(v, Tensor) and v.data.dtype.kind == "f"]
    checked = [i for i in floats if items[i].requires_grad] or floats
    if not checked:
        raise GradTypeError("gradcheck(): expected at least one floating tensor input")
    args = list(items)
    leaves = {}
    for i in checked:
        dt = items[i].data.dtype if torch_mode else np.float64  # (PyTorch's: as it is)
        if torch_mode and dt != np.float64:
            context.warn(
                f"Input #{i} requires gradient and is not a double precision floating point "
                "or complex. This check will likely fail if all the inputs are not of double "
                "precision floating point or complex. "
            )
        t = Tensor(np.array(items[i].data, dtype=dt, copy=True, order="C"), True)
        args[i] = leaves[i] = t
    for i, v in enumerate(args):  # other float tensors: float64 constants
        if (
            not torch_mode
            and i not in leaves
            and isinstance(v, Tensor)
            and v.data.dtype.kind == "f"
        ):
            args[i] = Tensor(np.asarray(v.data, dtype=np.float64))

    prev = context.current.grad_enabled
    try:
        context.current.grad_enabled = True
        outs = _float_outputs(func(*args))
        # analytic: one backward pass per output element
        for i in checked:
            for o in outs:
                check_alloc((2 * o.data.size, leaves[i].data.size))  # analytic + numeric
        analytic = {
            i: [np.zeros((o.data.size, leaves[i].data.size)) for o in outs] for i in checked
        }
        if forward_ad:
            _analytic_forward(func, args, checked, analytic)
        else:
            _analytic_reverse(outs, leaves, checked, analytic)
        # numerical: central differences, without a graph
        context.current.grad_enabled = False
        numeric = {i: [np.zeros_like(a) for a in analytic[i]] for i in checked}
        for i in checked:
            flat = leaves[i].data.reshape(-1)
            for e in range(flat.size):
                old = flat[e]
                flat[e] = old + eps  # (in the input's dtype, as PyTorch's)
                hi = [_as_checked(o, torch_mode) for o in _float_outputs(func(*args))]
                flat[e] = old - eps
                lo = [_as_checked(o, torch_mode) for o in _float_outputs(func(*args))]
                flat[e] = old
                for k in range(len(outs)):
                    numeric[i][k][:, e] = (hi[k] - lo[k]) / (2 * eps)
    finally:
        context.current.grad_enabled = prev
    if torch_mode:
        return _torch_verdict(outs, checked, leaves, analytic, numeric, atol, rtol, raise_exception)

    out = _Quiet() if quiet else _out()
    ok = True
    failures = []
    for i in checked:
        shape = leaves[i].data.shape
        name = _var_name(items[i])
        label = f"input {i} ({name + ', ' if name else ''}shape {list(shape)})"
        worst_abs = (0.0, None, None)
        worst_rel = (0.0, None, None)
        first_bad = None
        for k in range(len(outs)):
            a, n = analytic[i][k], numeric[i][k]
            diff = np.abs(a - n)
            with np.errstate(divide="ignore", invalid="ignore"):
                rel = np.where(diff == 0, 0.0, diff / np.abs(n))
            if diff.size:
                p = np.unravel_index(
                    np.nanargmax(np.where(np.isnan(diff), np.inf, diff)), diff.shape
                )
                if not diff[p] <= worst_abs[0]:
                    worst_abs = (diff[p], k, p)
                q = np.unravel_index(np.nanargmax(np.where(np.isnan(rel), np.inf, rel)), rel.shape)
                if not rel[q] <= worst_rel[0]:
                    worst_rel = (rel[q], k, q)
            bad = ~(diff <= atol + rtol * np.abs(n))
            if bad.any() and first_bad is None:
                with np.errstate(invalid="ignore"):
                    score = np.where(
                        bad, np.nan_to_num(diff / (atol + rtol * np.abs(n)), nan=np.inf), -1
                    )
                p = np.unravel_index(np.argmax(score), score.shape)
                first_bad = (k, p, a[p], n[p])
        line = f"gradcheck: {label}: worst abs error {float(worst_abs[0]):.3g}"
        if worst_abs[1] is not None and worst_abs[0] > 0:
            line += " at " + _where(worst_abs, outs, shape)
        line += f", worst rel error {float(worst_rel[0]):.3g}"
        if worst_rel[1] is not None and worst_rel[0] > 0:
            line += " at " + _where(worst_rel, outs, shape)
        out.print(line + "\n")
        if first_bad is not None:
            ok = False
            k, (r, c), av, nv = first_bad
            el = _fmt_idx(np.unravel_index(c, shape)) if shape else "[]"
            oel = _fmt_idx(np.unravel_index(r, outs[k].data.shape)) if outs[k].data.shape else "[]"
            failures.append(
                f"gradcheck: Jacobian mismatch for output {k} with respect to input {i}"
                f"{' (' + name + ')' if name else ''}, element {el} (output element {oel}): "
                f"analytical {_num(av)}, numerical {_num(nv)}"
            )
    for f in failures:
        out.print(f + "\n")
    out.print(
        f"gradcheck: {'passed' if ok else 'failed'} (eps={eps:g}, atol={atol:g}, rtol={rtol:g})\n"
    )
    if not ok and raise_exception is True:
        raise GradRuntimeError(failures[0][len("gradcheck: ") :])
    return ok


def _as_checked(o, torch_mode):
    """An output's values for the finite differences: float64 (gradcli's gradcheck), or
    in the output's dtype (PyTorch's: float32 differences of float32 values)."""
    return (o.data if torch_mode else o.data.astype(np.float64)).reshape(-1)


def _torch_verdict(outs, checked, leaves, analytic, numeric, atol, rtol, raise_exception):
    """torch.autograd.gradcheck's verdict: the first (output, input) pair whose Jacobians
    are not allclose, in PyTorch's words and dtype (the Jacobian as input x output)."""
    for k, o in enumerate(outs):
        if not o.requires_grad:
            continue
        for j, i in enumerate(checked):
            dt = np.result_type(o.data.dtype, leaves[i].data.dtype)
            a = analytic[i][k].T.astype(leaves[i].data.dtype)  # (as PyTorch allocates them)
            n = numeric[i][k].T.astype(o.data.dtype)
            with np.errstate(invalid="ignore", over="ignore"):
                close = np.abs(a.astype(dt) - n.astype(dt)) <= atol + rtol * np.abs(n.astype(dt))
            if close.all():
                continue
            if raise_exception is not True:
                return False
            raise GradRuntimeError(
                f"Jacobian mismatch for output {k} with respect to input {j},\n"
                f"numerical:{show(Tensor(n))}\nanalytical:{show(Tensor(a))}\n",
                type_name="GradcheckError",
            )
    return True


def _analytic_reverse(outs, leaves, checked, analytic):
    """analytic[i][k][j] = d outs[k].flat[j] / d input i, one backward pass per output element."""
    order = [leaves[i] for i in checked]
    for k, o in enumerate(outs):
        if not o.requires_grad:
            continue
        for j, gs in enumerate(grad_rows(o, order, _onehots(o))):  # (a Jacobian's rows)
            for i, g in zip(checked, gs):
                if g is not None:
                    analytic[i][k][j] = np.broadcast_to(
                        g.data, order[checked.index(i)].data.shape
                    ).reshape(-1)


def _analytic_forward(func, args, checked, analytic):
    """The same matrix by forward mode: one pass per input element (check_forward_ad)."""
    for i in checked:
        for e, tangent in enumerate(basis(args[i])):
            ts = [None] * len(args)
            ts[i] = tangent
            _, tans = tangents_at(lambda *a: tuple(_float_outputs(func(*a))), args, ts)
            for k, t in enumerate(tans):
                analytic[i][k][:, e] = t.data.astype(np.float64).reshape(-1)


class _Quiet:
    """torch.autograd.gradcheck's output: nothing (it only returns or raises)."""

    def print(self, text):
        pass


def torch_gradcheck(
    func,
    inputs,
    *,
    eps=1e-6,
    atol=1e-5,
    rtol=1e-3,
    raise_exception=True,
    check_forward_ad=False,
    check_backward_ad=True,
    **options,
):
    """torch.autograd.gradcheck: True, or (raise_exception=True, torch's default) an error;
    reverse mode checked unless check_backward_ad=False, forward mode if check_forward_ad."""
    ok = True
    if check_backward_ad:
        ok = gradcheck(
            func, inputs, eps, atol, rtol, raise_exception, quiet=True, torch_mode=True, **options
        )
    if check_forward_ad and ok:
        ok = gradcheck(
            func, inputs, eps, atol, rtol, raise_exception, quiet=True, forward_ad=True, **options
        )
    return ok


def _where(worst, outs, shape):
    _, k, (r, c) = worst
    el = _fmt_idx(np.unravel_index(c, shape)) if shape else "[]"
    oshape = outs[k].data.shape
    oel = _fmt_idx(np.unravel_index(r, oshape)) if oshape else "[]"
    return f"element {el} (output {k} element {oel})"
