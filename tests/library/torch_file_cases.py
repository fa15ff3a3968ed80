"""Values PyTorch writes with torch.save (scripts/gen_golden.py torch_files records each
into tests/golden/torch_files/NAME.pt, and what `print(torch.load(...))` prints into
tests/golden/torch_files.json; tests/library/test_torch_file.py loads them in gradcli).
Each source runs under torch (float32 default) and leaves the value to save in `obj`."""

CASES = {
    "tensor": "obj = torch.arange(6.).reshape(2, 3)",
    "state_dict": (
        "torch.manual_seed(0)\n"
        "obj = nn.Sequential(nn.Linear(3, 4), nn.ReLU(), nn.Linear(4, 2)).state_dict()"
    ),
    "checkpoint": (
        "torch.manual_seed(1)\n"
        "m = nn.Linear(3, 2)\n"
        "opt = torch.optim.Adam(m.parameters(), lr=0.01)\n"
        "m(torch.ones(4, 3)).pow(2).sum().backward()\n"
        "opt.step()\n"
        'obj = {"epoch": 3, "model": m.state_dict(), "optimizer": opt.state_dict(), '
        '"loss": 0.25}'
    ),
    "views": (
        "x = torch.arange(12.).reshape(3, 4)\n"
        'obj = {"t": x.t(), "slice": x[1:, ::2], "row": x[2], "shared": [x, x[0]], '
        '"expanded": torch.tensor([1., 2.]).expand(3, 2)}'
    ),
    "dtypes": (
        "obj = [torch.tensor([1.5, -2.25], dtype=torch.float64), torch.tensor([2**40, -3]), "
        "torch.tensor([7, -8], dtype=torch.int32), torch.tensor([True, False]), "
        "torch.tensor(2.5), torch.zeros(0, 3), torch.tensor(3, dtype=torch.int32)]"
    ),
    "grad": (
        "torch.manual_seed(2)\n"
        "p = nn.Parameter(torch.randn(2, 2))\n"
        "w = torch.ones(3, requires_grad=True)\n"
        'obj = {"p": p, "w": w, "frozen": nn.Parameter(torch.zeros(2), requires_grad=False)}'
    ),
    "containers": (
        'obj = ({"a": [1, 2.5, None, True, "s"], 7: (), "nested": [[[]], {}]}, '
        '-2**70, float("inf"), "ünï", collections.OrderedDict([("k", torch.ones(1))]))'
    ),
}
