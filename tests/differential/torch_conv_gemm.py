"""The PyTorch half of test_conv_gemm_threads.py: run with a Python that has torch.

    python torch_conv_gemm.py SEED COUNT

prints, as one JSON object, the threads and each case's digests (conv_gemm_cases.py):
the output, and the gradients of the input, weight and bias.
"""

import json
import sys

import torch

from conv_gemm_cases import cases, digest, operands


def run(c):
    x_, w_, b_, g_ = operands(c)
    x = torch.from_numpy(x_).clone().requires_grad_()
    w = torch.from_numpy(w_).clone().requires_grad_()
    b = None if b_ is None else torch.from_numpy(b_).clone().requires_grad_()
    y = torch.nn.functional.conv2d(x, w, b, dilation=c["dilation"], groups=c["groups"])
    y.backward(torch.from_numpy(g_).clone())
    out = {"out": digest(y.detach().numpy()), "gx": digest(x.grad.numpy())}
    out["gw"] = digest(w.grad.numpy())
    out["gb"] = None if b is None else digest(b.grad.numpy())
    return out


def main():
    seed, count = int(sys.argv[1]), int(sys.argv[2])
    results = [run(c) for c in cases(seed, count)]
    info = {"threads": torch.get_num_threads(), "torch": torch.__version__}
    print(json.dumps({"info": info, "results": results}))


if __name__ == "__main__":
    main()
