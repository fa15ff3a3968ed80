"""torch.einsum as ATen computes it, out of the ops it lowers to (so the values and the
grad_fn names are PyTorch's): the equation parsed into labels (`...` for the dims an
ellipsis covers); each operand's repeated labels taken as diagonals
(`diagonal(...).movedim(-1, d)`), its missing labels unsqueezed and its dims permuted
to the output's labels followed by the summed ones; then the operands contracted left
to right (torch's order when no path is given and opt_einsum is not installed), each
pair by `sumproduct_pair`: dims only one operand has summed at once, the pair
multiplied when nothing is summed, else permuted and reshaped to (batch, rows, summed)
and (batch, summed, cols) for one `bmm`, whose result is viewed back and permuted into
place; finally the summed dims viewed away (several operands) or summed (one)."""

from __future__ import annotations

from ..core.tensor import Tensor
from ..engine.declare import none
from ..ops.registry import FUNCTIONS, register
from ..runtime.errors import GradRuntimeError, GradTypeError, GradValueError

_ELLIPSIS = 52  # labels: 'A'-'Z' are 0-25, 'a'-'z' 26-51


def _subscript(c):
    return ord(c) - ord("A") if c.isupper() else ord(c) - ord("a") + 26


def _label(s):
    return chr(s + ord("A")) if s < 26 else chr(s - 26 + ord("a"))


def _letter(c):
    return c.isascii() and c.isalpha()


def _parse_inputs(lhs, n_ops):
    op_labels: list = [[] for _ in range(n_ops)]
    ell_seen = False
    cur = 0
    i = 0
    while i < len(lhs):
        c = lhs[i]
        if c == " ":
            pass
        elif c == ".":
            if ell_seen:
                raise GradRuntimeError(
                    f"einsum(): found '.' for operand {cur} for which an ellipsis was already found"
                )
            if not (i + 2 < len(lhs) and lhs[i + 1] == "." and lhs[i + 2] == "."):
                raise GradRuntimeError(
                    f"einsum(): found '.' for operand {cur} that is not part of any ellipsis"
                )
            i += 2
            op_labels[cur].append(_ELLIPSIS)
            ell_seen = True
        elif c == ",":
            cur += 1
            if cur >= n_ops:
                raise GradRuntimeError(
                    "einsum(): fewer operands were provided than specified in the equation"
                )
            ell_seen = False
        else:
            if not _letter(c):
                raise GradRuntimeError(
                    f"einsum(): invalid subscript given at index {i} in the equation string, "
                    "subscripts must be in [a-zA-Z]"
                )
            op_labels[cur].append(_subscript(c))
        i += 1
    if cur != n_ops - 1:
        raise GradRuntimeError(
            "einsum(): more operands were provided than specified in the equation"
        )
    return op_labels


def _count(op_labels, operands):
    counts = [0] * 52
    ell_num_dim = 0
    for i, (labels, op) in enumerate(zip(op_labels, operands)):
        ndim = op.data.ndim
        n = len(labels)
        has_ell = _ELLIPSIS in labels
        if has_ell:
            n -= 1
            ell_num_dim = max(ell_num_dim, ndim - n)
        for s in labels:
            if s != _ELLIPSIS:
                counts[s] += 1
        if (n > ndim) if has_ell else (n != ndim):
            raise GradRuntimeError(
                f"einsum(): the number of subscripts in the equation ({n}) "
                + ("is more than" if has_ell else "does not match")
                + f" the number of dimensions ({ndim}) for operand {i}"
                + ("" if has_ell else " and no ellipsis was given")
            )
    return counts, ell_num_dim


def _output(equation, arrow, counts, ell_num_dim):
    """(label -> index in the aligned shape, out_num_dim, perm_index, ell_index)."""
    index = [-1] * 52
    perm = 0
    ell_index = 0
    ell_out = False
    if arrow < 0:
        perm = ell_num_dim  # implicit: the ellipsis, then the labels seen once, in order
        ell_out = True
        for s in range(52):
            if counts[s] == 1:
                index[s] = perm
                perm += 1
    else:
        rhs = equation[arrow + 2 :]
        i = 0
        while i < len(rhs):
            c = rhs[i]
            if c == " ":
                pass
            elif c == ".":
                if ell_out:
                    raise GradRuntimeError(
                        "einsum(): found '.' for output but an ellipsis (...) was already found"
                    )
                if not (i + 2 < len(rhs) and rhs[i + 1] == "." and rhs[i + 2] == "."):
                    raise GradRuntimeError(
                        "einsum(): found '.' for output that is not part of any ellipsis (...)"
                    )
                i += 2
                ell_index = perm
                perm += ell_num_dim
                ell_out = True
            else:
                if not _letter(c):
                    raise GradRuntimeError(
                        f"einsum(): invalid subscript given at index {arrow + 2 + i} in the "
                        "equation string, subscripts must be in [a-zA-Z]"
                    )
                s = _subscript(c)
                if not (counts[s] > 0 and index[s] == -1):
                    raise GradRuntimeError(
                        f"einsum(): output subscript {c}"
                        + (
                            " appears more than once in the output"
                            if index[s] > -1
                            else " does not appear in the equation for any input operand"
                        )
                    )
                index[s] = perm
                perm += 1
            i += 1
    out_num_dim = perm
    if not ell_out:
        ell_index = perm
        perm += ell_num_dim
    for s in range(52):
        if counts[s] > 0 and index[s] == -1:
            index[s] = perm
            perm += 1
    return index, out_num_dim, perm, ell_index


def _align(operands, op_labels, index, perm_index, ell_index, ell_num_dim):
    """Each operand with its diagonals taken, missing dims unsqueezed, dims permuted to
    the aligned order; and how many operands have each aligned dim bigger than 1."""
    label_size = [1] * 52
    ell_sizes = [1] * ell_num_dim
    dim_counts = [0] * perm_index
    ops = []
    for i, (op, labels) in enumerate(zip(operands, op_labels)):
        permutation = [-1] * perm_index
        dim = 0
        for s in labels:
            shape = op.data.shape
            if s == _ELLIPSIS:
                ndim = operands[i].data.ndim - (len(labels) - 1)
                for j in range(ell_num_dim - ndim, ell_num_dim):
                    size = op.data.shape[dim]
                    if size != 1:
                        if ell_sizes[j] not in (1, size):
                            raise GradRuntimeError(
                                f"einsum(): dimension {dim} covered by ellipsis in operand {i}"
                                f"has size {size} which does not broadcast with previously "
                                f"seen ellipsis with size {ell_sizes[j]} for the respective "
                                "dimension"
                            )
                        ell_sizes[j] = size
                        dim_counts[ell_index + j] += 1
                    permutation[ell_index + j] = dim
                    dim += 1
            elif permutation[index[s]] == -1:
                size = shape[dim]
                if size != 1:
                    if label_size[s] not in (1, size):
                        raise GradRuntimeError(
                            f"einsum(): subscript {_label(s)} has size {size} for operand {i} "
                            f"which does not broadcast with previously seen size {label_size[s]}"
                        )
                    label_size[s] = size
                    dim_counts[index[s]] += 1
                permutation[index[s]] = dim
                dim += 1
            else:  # a repeated label: its diagonal
                prev = permutation[index[s]]
                if shape[dim] != shape[prev]:
                    raise GradRuntimeError(
                        f"einsum(): subscript {_label(s)} is repeated for operand {i} but the "
                        f"sizes don't match, {shape[dim]} != {shape[prev]}"
                    )
                op = FUNCTIONS["movedim"](FUNCTIONS["diagonal"](op, 0, prev, dim), -1, prev)
        for k, val in enumerate(permutation):
            if val == -1:
                op = FUNCTIONS["unsqueeze"](op, dim)
                permutation[k] = dim
                dim += 1
        ops.append(FUNCTIONS["permute"](op, permutation))
    return ops, dim_counts


def sumproduct_pair(left, right, sum_dims):
    """(left * right).sum(sum_dims, keepdim=True) by permutes, reshapes and one bmm."""
    if not sum_dims:
        return FUNCTIONS["mul"](left, right)
    dim = left.data.ndim
    summed = set(sum_dims)
    lro, lo, ro = [], [], []
    lro_size = lo_size = ro_size = sum_size = 1
    for i in range(dim):
        nl, nr = left.data.shape[i], right.data.shape[i]
        sl, sr = nl != 1, nr != 1
        if i in summed:
            if sl and sr:
                if nl != nr:
                    raise GradRuntimeError("non-broadcast dimensions must match")
                sum_size *= nl
            elif sl:
                left = FUNCTIONS["sum"](left, i, True)
            elif sr:
                right = FUNCTIONS["sum"](right, i, True)
        elif sl and sr:
            if nl != nr:
                raise GradRuntimeError("non-broadcast dimensions must match")
            lro.append(i)
            lro_size *= nl
        elif sl:
            lo.append(i)
            lo_size *= nl
        else:
            ro.append(i)
            ro_size *= nr
    if lo and ro and ro[-1] < lo[0]:
        # (torch's swap_lo_ro: bmm's result then comes out in the output's order)
        left, right, lo, ro, lo_size, ro_size = right, left, ro, lo, ro_size, lo_size
    out_size = (
        [left.data.shape[d] for d in lro]
        + [left.data.shape[d] for d in lo]
        + [1] * len(sum_dims)
        + [right.data.shape[d] for d in ro]
    )
    lperm = lro + lo + list(sum_dims) + ro
    rperm = lro + list(sum_dims) + ro + lo
    operm = [-1] * len(out_size)
    for i, d in enumerate(lro + lo + list(sum_dims) + ro):
        operm[d] = i
    left = FUNCTIONS["reshape"](FUNCTIONS["permute"](left, lperm), (lro_size, lo_size, sum_size))
    right = FUNCTIONS["reshape"](FUNCTIONS["permute"](right, rperm), (lro_size, sum_size, ro_size))
    result = FUNCTIONS["bmm"](left, right)
    return FUNCTIONS["permute"](FUNCTIONS["view"](result, tuple(out_size)), operm)


def _sublist_label(n):
    """A label of the sublist format: Ellipsis, or 0-25 for 'A'-'Z', 26-51 for 'a'-'z'."""
    if n is Ellipsis:
        return "..."
    if isinstance(n, int) and not isinstance(n, bool) and 0 <= n < 52:
        return _label(n)
    raise GradValueError(
        "einsum(): subscript in subscript list is not within the valid range [0, 52)"
    )


@register(
    "einsum",
    "einsum(equation, *operands)",
    "Einstein summation over the operands' labelled dims (matmul, traces, outer products...)",
    category="linalg",
    checks=none("an equation and operands: the golden cases check its values and names"),
    batch=None,
    inplace=None,
    pure=False,
    parser=None,
)
def einsum(*args):
    if len(args) < 2:
        raise GradValueError(
            "einsum(): must specify the equation string and at least one operand, "
            "or at least one operand and its subscripts list"
        )
    if type(args[0]) is Tensor:  # the sublist format: op, [dims], op, [dims], ..., [out]
        equation = ",".join("".join(map(_sublist_label, sub)) for sub in args[1::2])
        if len(args) % 2 == 1:
            equation += "->" + "".join(map(_sublist_label, args[-1]))
            operands = list(args[:-1:2])
        else:
            operands = list(args[::2])
    else:
        equation, operands = args[0], list(args[1:])
    if not isinstance(equation, str):
        raise GradTypeError(
            f"einsum(): argument 'equation' must be str, not {type(equation).__name__}"
        )
    if len(operands) == 1 and isinstance(operands[0], (list, tuple)):
        operands = list(operands[0])  # the old interface: the operands as one list
    if not operands:
        raise GradRuntimeError("einsum(): must provide at least one operand")
    for op in operands:
        if type(op) is not Tensor:
            raise GradTypeError(
                f"einsum(): argument 'operands' must be tuple of Tensors, not {type(op).__name__}"
            )
    arrow = equation.find("->")
    lhs = equation if arrow < 0 else equation[:arrow]
    op_labels = _parse_inputs(lhs, len(operands))
    counts, ell_num_dim = _count(op_labels, operands)
    index, out_num_dim, perm_index, ell_index = _output(equation, arrow, counts, ell_num_dim)
    ops, dim_counts = _align(operands, op_labels, index, perm_index, ell_index, ell_num_dim)
    while len(ops) > 1:  # left to right: each pair's result goes to the front
        a, b = ops.pop(0), ops.pop(0)
        sum_dims, a_sum, b_sum = [], [], []
        for d in range(out_num_dim, perm_index):
            na, nb = a.data.shape[d], b.data.shape[d]
            if na != 1 and nb != 1:
                dim_counts[d] -= 1
                if dim_counts[d] == 1:
                    sum_dims.append(d)
                    dim_counts[d] = 0
            elif dim_counts[d] == 1:
                if na != 1:
                    a_sum.append(d)
                    dim_counts[d] = 0
                elif nb != 1:
                    b_sum.append(d)
                    dim_counts[d] = 0
        if a_sum:
            a = FUNCTIONS["sum"](a, a_sum, True)
        if b_sum:
            b = FUNCTIONS["sum"](b, b_sum, True)
        ops.insert(0, sumproduct_pair(a, b, sum_dims))
    result = ops[0]
    if perm_index > out_num_dim:
        if len(operands) > 1:
            return FUNCTIONS["view"](result, tuple(result.data.shape[:out_num_dim]))
        return FUNCTIONS["sum"](result, list(range(out_num_dim, perm_index)))
    return result
