"""The PyTorch half of the differential test: run with a Python that has torch.

Reads one JSON-encoded program source per line on stdin and writes one JSON line per
program on stdout: {"stdout", "error": null | {"type", "message"}, "status"}, status
"ok", "error" or "hang". Each program runs as gradcli runs a file and as the golden
scripts record one: default dtype float64, a fresh namespace holding ``torch`` and
``F``, every top-level statement compiled on its own (a top-level expression
statement shows its repr, one inside a block does not), the first exception ends the program. Before each program
the state a program can change is put back: printing options, default dtype, grad
mode, anomaly mode, the random seed.
"""

import ast
import contextlib
import io
import json
import re
import signal
import sys
import warnings

import torch

SEED = 0
TIMEOUT = 10.0

_OBJ_RE = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*) object at 0x[0-9a-fA-F]+>")
_DOTTED_RE = re.compile(r"<([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+) object at 0x[0-9a-fA-F]+>")


def normalise(text):
    """grad_fn objects print as gradcli prints them (<MulBackward0>)."""
    return _DOTTED_RE.sub(r"<\1 object>", _OBJ_RE.sub(r"<\1>", text))


class Hang(BaseException):
    pass


def _alarm(signum, frame):
    raise Hang()


def _displayhook(value):
    if value is not None:
        print(repr(value))


def reset():
    torch.set_printoptions(profile="default")
    torch.set_printoptions(sci_mode=None)
    torch.set_default_dtype(torch.float64)
    torch.set_grad_enabled(True)
    torch.autograd.set_detect_anomaly(False)
    torch.manual_seed(SEED)


def run(source):
    reset()
    ns = {"__name__": "__main__", "torch": torch, "F": torch.nn.functional}
    buf = io.StringIO()
    error, status = None, "ok"
    try:
        tree = ast.parse(source, "<program>")
    except SyntaxError as e:
        return {
            "stdout": "",
            "error": {"type": "SyntaxError", "message": str(e)},
            "status": "error",
        }
    old_hook = sys.displayhook
    sys.displayhook = _displayhook
    signal.setitimer(signal.ITIMER_REAL, TIMEOUT)
    try:
        with warnings.catch_warnings(), contextlib.redirect_stdout(buf):
            warnings.simplefilter("ignore")
            for node in tree.body:
                if isinstance(node, ast.Expr):  # displayed at top level only, as gradcli
                    code = compile(ast.Interactive(body=[node]), "<program>", "single")
                else:
                    code = compile(ast.Module(body=[node], type_ignores=[]), "<program>", "exec")
                try:
                    exec(code, ns)
                except Exception as e:  # noqa: BLE001 - the program's error is the result
                    msg = str(e)
                    first = msg.splitlines()[0] if msg else ""
                    error, status = {"type": type(e).__name__, "message": first}, "error"
                    break
    except Hang:
        status = "hang"
    finally:
        signal.setitimer(signal.ITIMER_REAL, 0)
        sys.displayhook = old_hook
    return {"stdout": normalise(buf.getvalue()), "error": error, "status": status}


def warm_up():
    """Run once, before any timeout is armed, what torch imports lazily on first use:
    torch.optim's first step imports torch._dynamo, and a timeout that stopped that
    import half-way (a loaded machine) would leave it broken for every later program."""
    p = torch.zeros(2, requires_grad=True)
    opt = torch.optim.SGD([p], lr=0.1)
    (p * 2).sum().backward()
    opt.step()
    opt.zero_grad()
    torch.autograd.grad((p * p).sum(), p, create_graph=True)


def main():
    warm_up()
    signal.signal(signal.SIGALRM, _alarm)
    out = sys.stdout
    for line in sys.stdin:
        if not line.strip():
            continue
        result = run(json.loads(line))
        out.write(json.dumps(result) + "\n")
        out.flush()


if __name__ == "__main__":
    main()
