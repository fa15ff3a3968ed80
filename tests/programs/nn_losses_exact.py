# torch.nn's margin losses, distances and CTC loss to the last bit: values and gradients
# (tolist) in float32 and float64 for each reduction, repeated labels and empty targets
# in the CTC loss, zero_infinity, unbatched input, the grad_fn names with create_graph,
# the modules' reprs, and the errors in PyTorch's words.  (Written for this suite; the
# output is torch's.)
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
for dt in (torch.float32, torch.float64):
    x = torch.randn(4, 6, dtype=dt, requires_grad=True)
    y = torch.tensor([[3, 0, -1, 1, 2, 5], [1, 2, 3, 4, 5, 0], [5, -1, 2, 2, 2, 2], [0, 1, -1, 3, 3, 3]])
    k = torch.tensor([3, 0, 5, 2])
    w = torch.rand(6, dtype=dt)
    for reduction in ("mean", "sum", "none"):
        cases = [
            ("multilabel_margin", lambda: F.multilabel_margin_loss(x, y, reduction=reduction)),
            ("multi_margin", lambda: F.multi_margin_loss(x, k, reduction=reduction)),
            ("multi_margin p=2", lambda: F.multi_margin_loss(x, k, p=2, margin=0.7, reduction=reduction)),
            ("multi_margin weight", lambda: F.multi_margin_loss(x, k, weight=w, reduction=reduction)),
            ("triplet", lambda: F.triplet_margin_loss(x[:2], x[2:], x[1:3], reduction=reduction)),
            ("triplet swap p=1", lambda: F.triplet_margin_loss(x[:2], x[2:], x[1:3], p=1, swap=True, reduction=reduction)),
            ("triplet distance", lambda: F.triplet_margin_with_distance_loss(x[:2], x[2:], x[1:3], reduction=reduction)),
        ]
        for name, f in cases:
            out = f()
            out.backward(torch.ones_like(out))
            print(name, reduction, dt, out.grad_fn.name(), out.tolist())
            print(x.grad.tolist())
            x.grad = None
    a, b = torch.randn(5, 7, dtype=dt), torch.randn(5, 7, dtype=dt)
    print(F.pairwise_distance(a, b).tolist(), F.pairwise_distance(a, b, p=1.5, keepdim=True).tolist())
    print(F.cosine_similarity(a, b).tolist(), F.cosine_similarity(a, b, dim=0).tolist())
    print(F.cosine_similarity(a, torch.zeros(7, dtype=dt)).tolist())

# CTC
for dt in (torch.float32, torch.float64):
    T, C, N = 12, 5, 4
    lp = torch.randn(T, N, C, dtype=dt).log_softmax(2).detach().requires_grad_()
    targets = torch.tensor([[1, 1, 2, 3], [2, 3, 0, 0], [4, 4, 4, 1], [1, 2, 3, 4]])
    il = torch.tensor([12, 10, 7, 3])
    tl = torch.tensor([4, 2, 0, 4])
    for reduction in ("mean", "sum", "none"):
        for zero_infinity in (False, True):
            out = F.ctc_loss(lp, targets, il, tl, reduction=reduction, zero_infinity=zero_infinity)
            out.backward(torch.ones_like(out))
            print("ctc", reduction, zero_infinity, dt, out.grad_fn.name(), out.tolist())
            print(lp.grad.tolist())
            lp.grad = None
    flat = torch.tensor([1, 1, 2, 3, 2, 3, 1, 2, 3, 4])
    out = F.ctc_loss(lp, flat, [12, 10, 7, 3], [4, 2, 0, 4], blank=0, reduction="sum")
    print(out.tolist())
    one = lp[:, 0].detach().requires_grad_()
    out = F.ctc_loss(one, torch.tensor([1, 1, 2]), torch.tensor(12), torch.tensor(3))
    out.backward()
    print(out.grad_fn.name(), out.tolist(), one.grad.tolist())
lp = torch.randn(6, 2, 4).log_softmax(2).detach().requires_grad_()
out = F.ctc_loss(lp, torch.tensor([[1, 2], [3, 3]]), torch.tensor([6, 6]), torch.tensor([2, 2]))
(d,) = torch.autograd.grad(out, lp, create_graph=True)
print(out.grad_fn.name(), d.grad_fn.name())
try:
    d.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)
for loss in (F.multilabel_margin_loss(x, y), F.multi_margin_loss(x, k)):
    (d,) = torch.autograd.grad(loss, x, create_graph=True)
    print(d.grad_fn.name())
    try:
        d.sum().backward()
    except RuntimeError as e:
        print("RuntimeError:", e)

# modules and errors
print(nn.Sequential(nn.MultiLabelMarginLoss(), nn.MultiMarginLoss(p=2), nn.TripletMarginLoss(),
                    nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance()),
                    nn.PairwiseDistance(), nn.CosineSimilarity(), nn.CTCLoss(blank=1),
                    nn.LinearCrossEntropyLoss(3, 4, out_features=(2,), bias=True)))
m = nn.LinearCrossEntropyLoss(3, 4, bias=True)
print([n for n, p in m.named_parameters()])
z = torch.randn(5, 3, requires_grad=True)
out = m(z, torch.tensor([0, 3, 1, 1, 2]))
out.backward()
print(out, z.grad, m.linear.bias.grad)
for bad in (
    lambda: F.multi_margin_loss(x, k, p=3),
    lambda: F.multi_margin_loss(x, torch.tensor([0, 1])),
    lambda: F.multi_margin_loss(x, torch.tensor([0, 1, 2, 9])),
    lambda: F.multilabel_margin_loss(x, y[:2]),
    lambda: F.multilabel_margin_loss(x, y + 3),
    lambda: F.triplet_margin_loss(x, x[0], x),
    lambda: F.triplet_margin_with_distance_loss(x, x, x, margin=0),
    lambda: F.ctc_loss(lp, torch.tensor([[1, 2], [3, 3]]), torch.tensor([6, 6]), torch.tensor([2, 2]), blank=4),
    lambda: F.ctc_loss(lp, torch.tensor([[1, 2], [3, 3]]), torch.tensor([6, 7]), torch.tensor([2, 2])),
    lambda: F.ctc_loss(lp, torch.tensor([1, 2, 3]), torch.tensor([6, 6]), torch.tensor([2, 2])),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)
