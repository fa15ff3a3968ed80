"""Golden cases for what the wider programs of the differential test found
(tests/differential/widegen.py: more of the op table, Python numbers, casts, views,
in-place ops and grad modes), shrunk, each recorded from real PyTorch 2.13.

Same rules and format as tests/fidelity/golden_cases.py (``case(name, src)``); recorded into
tests/golden/differential_wide.json by ``scripts/gen_golden.py cases --differential`` and
checked by tests/fidelity/test_differential_cases.py.
"""

import textwrap

CASES = []
_names = set()


def case(name, src):
    if name in _names:
        raise ValueError("duplicate case name: " + name)
    _names.add(name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


# ---------------------------------------------------------------------------
# the gradient of a pad under create_graph: a node torch names (a constant pad's
# gradient is a constant pad), differentiable again in either mode of the engine
# ---------------------------------------------------------------------------

case(
    "pad/second_order_through_a_constant_pad",
    """
    a = torch.tensor([-1.25, 1.5, -2.5], dtype=torch.float32, requires_grad=True)
    t3 = torch.nn.functional.pad(a * a, (0, 2), value=-1.5)
    t4 = (t3 * t3).sum()
    t4.backward(create_graph=True)
    print(a.grad)
    h, = torch.autograd.grad(a.grad.sum(), a, retain_graph=True)
    print(h)
    gx, = torch.autograd.grad((t3 * t3).sum(), a, create_graph=True)
    print(gx)
    print(torch.autograd.grad((gx * gx).sum(), a))
    """,
)
case(
    "pad/gradient_names_of_each_mode",
    """
    for mode in ["constant", "reflect", "replicate"]:
        for pad, shape in [((2, 1), (1, 1, 3)), ((1, 1, 1, 0), (1, 1, 2, 3))]:
            x = torch.arange(1.0, 1.0 + torch.Size(shape).numel()).reshape(shape)
            x.requires_grad_()
            y = torch.nn.functional.pad(x, pad, mode=mode)
            g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
            print(mode, g)
            print(torch.autograd.grad((g * g).sum(), x))
    x = torch.tensor([[1.0, 2.0, 3.0]], requires_grad=True)
    y = torch.nn.functional.pad(x, (-1, 1))
    g, = torch.autograd.grad((y * y).sum(), x, create_graph=True)
    print(g, torch.autograd.grad(g.sum(), x))
    """,
)

# ---------------------------------------------------------------------------
# ATen's compositions call at::norm (NormBackward1), not linalg_vector_norm
# ---------------------------------------------------------------------------

case(
    "norm/pairwise_distance_is_norm_backward1",
    """
    a = torch.tensor([[3.0, -0.75, -0.5], [0.5, 3.0, 1.75]], requires_grad=True)
    d = torch.nn.functional.pairwise_distance(a, a.flip(0))
    print(d)
    print(torch.nn.functional.pairwise_distance(a, a.flip(0), p=1.0, keepdim=True))
    print(torch.nn.functional.pairwise_distance(a[0], a[1]))
    print(a.norm(dim=1), torch.norm(a, 3, 0))
    d.asinh().sum().backward()
    print(a.grad)
    """,
)
