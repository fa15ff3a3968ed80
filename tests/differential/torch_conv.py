"""The PyTorch half of test_conv_onednn.py and test_conv_gemm_threads.py: run with a
Python that has torch.

    python torch_conv.py CASES SEED COUNT

(CASES: conv_cases or conv_gemm_cases, the module that draws the cases) prints, as one
JSON object, the threads and each case's digests: the output, and the gradients of the
input, weight and bias.
"""

import importlib
import json
import sys

import torch

#: the arguments of conv2d a case may give (each module draws its own)
CONV_ARGS = ("stride", "padding", "dilation", "groups")


def run(drawn, c):
    x_, w_, b_, g_ = drawn.operands(c)
    x = torch.from_numpy(x_).clone().requires_grad_()
    w = torch.from_numpy(w_).clone().requires_grad_()
    b = None if b_ is None else torch.from_numpy(b_).clone().requires_grad_()
    kw = {k: c[k] for k in CONV_ARGS if k in c}
    y = torch.nn.functional.conv2d(x, w, b, **kw)
    y.backward(torch.from_numpy(g_).clone())
    digest = drawn.digest
    out = {"out": digest(y.detach().numpy()), "gx": digest(x.grad.numpy())}
    out["gw"] = digest(w.grad.numpy())
    out["gb"] = None if b is None else digest(b.grad.numpy())
    return out


def main():
    drawn = importlib.import_module(sys.argv[1])
    seed, count = int(sys.argv[2]), int(sys.argv[3])
    results = [run(drawn, c) for c in drawn.cases(seed, count)]
    info = {"threads": torch.get_num_threads(), "torch": torch.__version__}
    print(json.dumps({"info": info, "results": results}))


if __name__ == "__main__":
    main()
