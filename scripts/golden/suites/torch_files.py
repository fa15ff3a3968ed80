"""tests/golden/torch_files/*.pt and torch_files.json: files torch.save writes (the values of
tests/library/torch_file_cases.py) and what print(torch.load(file)) prints."""

import collections
import contextlib
import io
import os

import torch
import torch_file_cases
from torch import nn

from golden.record import GOLDEN, write


def main(argv):
    folder = os.path.join(GOLDEN, "torch_files")
    os.makedirs(folder, exist_ok=True)
    out = {}
    for name, source in torch_file_cases.CASES.items():
        torch.set_default_dtype(torch.float32)
        scope = {"torch": torch, "nn": nn, "collections": collections}
        exec(source, scope)
        path = os.path.join(folder, name + ".pt")
        torch.save(scope["obj"], path)
        text = io.StringIO()
        with contextlib.redirect_stdout(text):
            print(torch.load(path))
        out[name] = text.getvalue()
    write("torch_files.json", out)
    print("wrote %d cases" % len(out))
