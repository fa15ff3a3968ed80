"""Golden cases of torch.einsum (the equations lectures and books use: matmul, batch
matmul, traces, diagonals, outer products, transposes, sums, '...', three operands),
their values bit for bit, grad_fn chains and gradients, and its errors in PyTorch's
words.  tests/library/wild_cases.py adds them to its CASES (recorded into
tests/golden/wild.json by scripts/gen_golden.py wild); its rules apply."""

import textwrap

CASES = []


def case(name, src):
    if any(n == name for n, _ in CASES):
        raise ValueError("duplicate case name: " + name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


_SETUP = """
import torch
def chain(t):
    names = []
    g = t.grad_fn
    while g is not None and len(names) < 10:
        names.append(g.name())
        nxt = [f for f, _ in g.next_functions
               if f is not None and f.name() != "torch::autograd::AccumulateGrad"]
        g = nxt[-1] if nxt else None
    return names
"""

_EQUATIONS = [
    ("matmul", "ij,jk->ik", "A, B"),
    ("matmul_implicit", "ij,jk", "A, B"),
    ("matmul_transposed", "ij,kj->ik", "A, A"),
    ("bmm", "bij,bjk->bik", "bA, bB"),
    ("bmm_out_swapped", "b i j, b j k -> b k i", "bA, bB"),
    ("bmm_transposed", "bij,bkj->bik", "bA, bA"),
    ("batch_times_matrix", "bij,jk->bik", "bA, B"),
    ("ellipsis_bmm", "...ij,...jk->...ik", "bA, bB"),
    ("ellipsis_vector", "...j,j->...", "bA, v"),
    ("trace", "ii->", "S"),
    ("trace_implicit", "ii", "S"),
    ("diagonal", "ii->i", "S"),
    ("outer", "i,j->ij", "v, w"),
    ("outer_implicit", "i,j", "v, w"),
    ("dot", "i,i->", "v, v"),
    ("matvec", "ij,j->i", "A, v"),
    ("transpose", "ij->ji", "A"),
    ("transpose_implicit", "ji", "A"),
    ("batch_transpose", "...ij->...ji", "bA"),
    ("sum_all", "ij->", "A"),
    ("sum_rows", "ij->j", "A"),
    ("sum_cols", "ij->i", "A"),
    ("hadamard", "ij,ij->ij", "A, A"),
    ("frobenius", "ij,ij->", "A, A"),
    ("three", "ij,jk,kl->il", "A, B, C"),
    ("upper_label", "Ij,jk->Ik", "A, B"),
    ("bilinear", "bn,anm,bm->ba", "P, W, Q"),
]

for _dt in ("float64", "float32"):
    _src = (
        _SETUP
        + f"""
dt = torch.{_dt}
A = torch.linspace(-1, 2, 12, dtype=dt).reshape(3, 4).requires_grad_()
B = torch.linspace(0.5, 3, 20, dtype=dt).reshape(4, 5).requires_grad_()
bA = torch.linspace(-2, 2, 24, dtype=dt).reshape(2, 3, 4).requires_grad_()
bB = torch.linspace(-1, 1.5, 40, dtype=dt).reshape(2, 4, 5).requires_grad_()
S = torch.linspace(-3, 3, 16, dtype=dt).reshape(4, 4).requires_grad_()
v = torch.linspace(0.25, 2, 4, dtype=dt).requires_grad_()
w = torch.linspace(-1, 1, 3, dtype=dt).requires_grad_()
C = torch.linspace(1, 2, 10, dtype=dt).reshape(5, 2).requires_grad_()
P = torch.linspace(-0.7, 0.9, 6, dtype=dt).reshape(2, 3).requires_grad_()
W = torch.linspace(0.1, 2.3, 24, dtype=dt).reshape(2, 3, 4).requires_grad_()
Q = torch.linspace(-1.3, 0.4, 8, dtype=dt).reshape(2, 4).requires_grad_()
"""
    )
    for _name, _eq, _ops in _EQUATIONS:
        case(
            f"einsum/{_dt}/{_name}",
            _src
            + f"""
r = torch.einsum("{_eq}", {_ops})
print(tuple(r.shape), r.is_contiguous(), chain(r))
print(r.detach().reshape(-1).tolist())
r.sum().backward()
for t in ({_ops},):
    print(t.grad.reshape(-1).tolist())
""",
        )

case(
    "einsum/forms",
    """
    import torch
    A = torch.linspace(-1, 2, 6).reshape(2, 3)
    B = torch.linspace(0, 1, 12).reshape(3, 4)
    print(torch.einsum("ij,jk->ik", [A, B]))
    print(torch.einsum("ij,jk->ik", (A, B)).grad_fn)
    print(torch.einsum("ij,jk->ik", A.requires_grad_(), B).grad_fn)
    print(torch.einsum("i,i->", torch.tensor([1., 2.]), torch.tensor([3., 4.])))
    """,
)

_ERRORS = [
    'torch.einsum("ij,jk->ik", A)',
    'torch.einsum("ij,jk->ik", A, B, B)',
    'torch.einsum("ij->ik", A)',
    'torch.einsum("ij,jk->ik", A, torch.ones(4, 4))',
    'torch.einsum("ij,jk->ii", A, B)',
    'torch.einsum("ij->")',
    'torch.einsum("ij.,jk", A, B)',
    'torch.einsum("i1", A)',
    'torch.einsum("iij->", A)',
    'torch.einsum("ij")',
    'torch.einsum("ii->i", torch.ones(2, 3))',
    'torch.einsum("i->i...", torch.ones(2))',
]
for _i, _line in enumerate(_ERRORS):
    case(
        f"einsum/errors/{_i}",
        "import torch\nA = torch.ones(2, 3)\nB = torch.ones(3, 4)\n" + _line + "\n",
    )
case(
    "einsum/sublists",
    """
    import torch
    A = torch.linspace(-1, 2, 6).reshape(2, 3).requires_grad_()
    B = torch.linspace(0, 1, 12).reshape(3, 4)
    r = torch.einsum(A, [0, 1], B, [1, 2], [0, 2])
    print(r, r.grad_fn)
    print(torch.einsum(A, [0, 1], B, [1, 2]))
    print(torch.einsum(A, [..., 1], [...]))
    print(torch.einsum(A, [30, 40], [40, 30]))
    """,
)
case(
    "einsum/errors/sublist_range",
    "import torch\nA = torch.ones(2, 3)\ntorch.einsum(A, [0, 60])\n",
)
