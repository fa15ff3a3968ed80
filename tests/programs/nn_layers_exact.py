# The rearranging layers and instance norms beside the docstrings' examples: gradients
# and grad_fn names of pixel_shuffle, pixel_unshuffle, channel_shuffle (and the native
# form's missing derivative), instance_norm with affine parameters and running statistics
# in training and evaluation, unbatched input, to the last bit (tolist), in float32 and
# float64, and the errors in PyTorch's words.  (Written for this suite; the output is
# torch's.)
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)
x = torch.randn(2, 8, 3, 4, requires_grad=True)
for f in (lambda t: F.pixel_shuffle(t, 2), lambda t: F.pixel_unshuffle(t[..., :2, :], 2),
          lambda t: F.channel_shuffle(t, 4), lambda t: nn.Unflatten(1, (2, 4))(t)):
    y = f(x)
    g = torch.randn(y.shape)
    (d,) = torch.autograd.grad(y, x, g, create_graph=True)
    print(y.grad_fn.name(), tuple(y.shape), y.flatten()[:12].tolist(), d.grad_fn)
    print(d.flatten()[::7].tolist())
y = F.native_channel_shuffle(x, 2)
print(y.grad_fn.name())
try:
    y.sum().backward()
except RuntimeError as e:
    print("RuntimeError:", e)

for dt in (torch.float32, torch.float64):
    m = nn.InstanceNorm2d(3, affine=True, track_running_stats=True, dtype=dt)
    x = torch.randn(4, 3, 5, 6, dtype=dt, requires_grad=True)
    y = m(x)
    (y * torch.arange(360, dtype=dt).view(4, 3, 5, 6).sin()).sum().backward()
    print(y.grad_fn.name(), y.flatten()[::11].tolist())
    print(x.grad.flatten()[::13].tolist(), m.weight.grad.tolist(), m.bias.grad.tolist())
    print(m.running_mean.tolist(), m.running_var.tolist(), m.num_batches_tracked)
    m.eval()
    print(m(x).flatten()[::17].tolist())
    u = nn.InstanceNorm1d(3, dtype=dt)(torch.randn(3, 7, dtype=dt))
    print(u.shape, u.flatten().tolist())
print(F.instance_norm(torch.randn(2, 3, 4), weight=torch.ones(3), bias=torch.zeros(3)))
print(nn.Sequential(nn.InstanceNorm3d(2), nn.InstanceNorm1d(4, affine=True, bias=False),
                    nn.PixelShuffle(2), nn.PixelUnshuffle(3), nn.ChannelShuffle(4),
                    nn.Unflatten(0, torch.Size([2, 3]))))
print([n for n, _ in nn.InstanceNorm1d(4, track_running_stats=True).named_buffers()])
for bad in (
    lambda: F.pixel_shuffle(torch.randn(2, 3), 2),
    lambda: F.pixel_shuffle(torch.randn(1, 6, 2, 2), 2),
    lambda: F.pixel_unshuffle(torch.randn(1, 1, 3, 4), 2),
    lambda: F.channel_shuffle(torch.randn(1, 6, 2), 4),
    lambda: F.channel_shuffle(torch.randn(1, 6, 2), 0),
    lambda: nn.InstanceNorm1d(3)(torch.randn(2, 3, 4, 5)),
    lambda: nn.InstanceNorm1d(3, affine=True)(torch.randn(2, 4, 5)),
    lambda: F.instance_norm(torch.randn(2, 3, 1)),
):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)

# avg_pool3d and local_response_norm
for dt in (torch.float32, torch.float64):
    x = torch.randn(2, 3, 5, 6, 7, dtype=dt, requires_grad=True)
    for kw in ({"kernel_size": 2}, {"kernel_size": 3, "stride": 1}, {"kernel_size": (3, 2, 3), "stride": 2, "padding": 1},
               {"kernel_size": 3, "stride": 2, "padding": 1, "ceil_mode": True, "count_include_pad": False},
               {"kernel_size": 2, "divisor_override": 3}):
        y = F.avg_pool3d(x, **kw)
        g = torch.randn(y.shape, dtype=dt)
        (d,) = torch.autograd.grad(y, x, g, create_graph=True)
        print(y.grad_fn.name(), tuple(y.shape), y.flatten()[::5].tolist())
        print(d.grad_fn.name(), d.flatten()[::9].tolist())
    for inp in (torch.randn(4, 6, 9, dtype=dt), torch.randn(2, 5, 4, 4, dtype=dt), torch.randn(2, 5, 3, 2, 2, 2, dtype=dt)):
        inp.requires_grad_()
        y = nn.LocalResponseNorm(3, alpha=0.5, beta=0.6, k=2.0)(inp)
        y.backward(torch.ones_like(y))
        print(y.grad_fn.name(), y.flatten()[::7].tolist(), inp.grad.flatten()[::7].tolist())
print(nn.LocalResponseNorm(2))
for bad in (lambda: F.avg_pool3d(torch.randn(2, 3, 4), 2), lambda: F.avg_pool3d(torch.randn(1, 1, 2, 2, 2), 3),
            lambda: F.local_response_norm(torch.randn(2, 3), 2)):
    try:
        bad()
    except (RuntimeError, ValueError) as e:
        print(type(e).__name__ + ":", e)

# nn.AvgPool3d: the module of avg_pool3d, in a model
for pool in (nn.AvgPool3d(2), nn.AvgPool3d((1, 2, 2), divisor_override=3),
             nn.AvgPool3d(3, stride=1, padding=1, count_include_pad=False),
             nn.AvgPool3d(2, stride=(1, 2, 2), ceil_mode=True)):
    x = torch.randn(2, 2, 4, 5, 5, requires_grad=True)
    model = nn.Sequential(pool, nn.Flatten(), nn.Linear(pool(x).shape[1:].numel(), 3))
    out = model(x)
    out.pow(2).sum().backward()
    print(pool, out.grad_fn.name(), out.flatten().tolist(), x.grad.flatten()[::11].tolist())
