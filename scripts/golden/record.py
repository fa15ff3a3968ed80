"""What every golden suite shares: where the files go, how a program is run under
torch and its output recorded, and how arrays are digested.

How a program is run (`run_program`; the cases of most suites, and the examples):

  * ``torch.set_default_dtype(torch.float64)``;
  * a fresh namespace holding ``torch``, ``F = torch.nn.functional`` and
    ``display`` (prints ``repr`` of each argument on its own line and returns
    None);
  * every top-level statement is run on its own, and an expression statement
    displays its repr (``sys.displayhook``) at top level only, as Jupyter does
    (gradcli's display rule): a top-level expression statement is compiled in
    ``'single'`` mode, any other statement in ``'exec'`` mode, so expressions
    inside if/while/for/with blocks and functions display nothing; a statement
    whose line ends in ``;`` displays nothing (IPython's rule);
  * ``<XBackward0 object at 0x...>`` is normalised to ``<XBackward0>``, and
    ``<a.b.C object at 0x...>`` to ``<a.b.C object>``;
  * the first exception stops the program: its type name and the first line
    of its message are recorded, with the stdout written before it;
  * warnings (e.g. ``.grad`` of a non-leaf) go to stderr in torch; they are
    recorded separately under "warnings"; the tests require each one's text
    on gradcli's stderr.
"""

import ast
import contextlib
import hashlib
import io
import json
import os
import re
import sys
import warnings

import numpy as np
import torch

SCRIPTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ROOT = os.path.dirname(SCRIPTS)
TESTS = os.path.join(ROOT, "tests")
GOLDEN = os.path.join(TESTS, "golden")
EXAMPLES = os.path.join(SCRIPTS, "examples")
ENTRY = os.path.join(SCRIPTS, "gen_golden.py")  # a suite that runs pieces in fresh processes

# The seed of the examples and notebooks: this torch (2.13) seeds its default generator
# NON-deterministically at start-up (``torch.initial_seed()`` differs from run to run),
# so "torch's default stream" does not exist; the recorded seed is stored with what
# was recorded and the tests run gradcli with ``--seed SEED``.  The value is
# 67280421310721, the fixed default seed of earlier PyTorch releases.
EXAMPLE_SEED = 67280421310721

_OBJ_RE = re.compile(r"<([A-Za-z_][A-Za-z0-9_]*) object at 0x[0-9a-fA-F]+>")
_DOTTED_RE = re.compile(r"<([A-Za-z_][\w]*(?:\.[A-Za-z_]\w*)+) object at 0x[0-9a-fA-F]+>")


def normalise(text):
    """grad_fn objects print as gradcli prints them (<MulBackward0>); other objects
    (torch.utils.hooks.RemovableHandle) lose their address."""
    return _DOTTED_RE.sub(r"<\1 object>", _OBJ_RE.sub(r"<\1>", text))


def display(*values):
    for v in values:
        print(repr(v))


def _displayhook(value):
    if value is not None:
        print(repr(value))


def _ends_in_semicolon(lines, node):
    """Whether the statement ends its line with ';' (a ';' before another statement on
    the line only separates them)."""
    rest = lines[node.end_lineno - 1][node.end_col_offset :].strip()
    return rest.startswith(";") and rest[1:].strip()[:1] in ("", "#")


def run_program(source, filename="<case>", seed=None, module="__gradcli_case__"):
    """Run ``source`` as described in the module docstring.

    Returns a dict {"stdout", "error", "warnings"}.
    """
    torch.set_default_dtype(torch.float64)
    if seed is not None:
        torch.manual_seed(seed)
    ns = {
        "__name__": module,
        "torch": torch,
        "F": torch.nn.functional,
        "display": display,
    }
    tree = ast.parse(source, filename)
    buf = io.StringIO()
    error = None
    old_hook = sys.displayhook
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        sys.displayhook = _displayhook
        try:
            with contextlib.redirect_stdout(buf):
                lines = source.split("\n")
                for node in tree.body:
                    if isinstance(node, ast.Expr) and not _ends_in_semicolon(lines, node):
                        code = compile(ast.Interactive(body=[node]), filename, "single")
                    else:
                        code = compile(ast.Module(body=[node], type_ignores=[]), filename, "exec")
                    try:
                        exec(code, ns)
                    except Exception as e:  # noqa: BLE001 - record any error
                        msg = str(e)
                        first = msg.splitlines()[0] if msg else ""
                        error = {"type": type(e).__name__, "message": first}
                        break
        finally:
            sys.displayhook = old_hook
    # sanity: a case must not leak global state into the next one
    assert torch.is_grad_enabled(), "grad mode left disabled by " + filename
    assert torch.get_default_dtype() == torch.float64
    warns = []
    for w in caught:
        text = normalise(str(w.message)).splitlines()[0]
        if w.category is DeprecationWarning and "torch.jit.script" in text:
            continue  # torch's own modules loading (forward_ad's first use), not the program
        warns.append("%s: %s" % (w.category.__name__, text))
    return {"stdout": normalise(buf.getvalue()), "error": error, "warnings": warns}


def record(result, **extra):
    """The golden entry of a program's run: `extra` (its source, file, seed ...), its
    stdout and error, and its warnings if any."""
    rec = dict(extra)
    rec["stdout"] = result["stdout"]
    rec["error"] = result["error"]
    if result["warnings"]:
        rec["warnings"] = result["warnings"]
    return rec


def run_cases(cases, *, lstrip=False, module="__gradcli_case__", drop_warning=None):
    """{name: entry} of (name, source) cases, each run as a program of its own;
    `lstrip`: leading newlines of a source dropped; `module`: the programs' __name__
    ("__main__": classes print as a program's own do); `drop_warning(text)`: warnings
    not to record."""
    out = {}
    for name, source in cases:
        if name in out:
            raise ValueError("duplicate case " + name)
        if lstrip:
            source = source.lstrip("\n")
        result = run_program(source, "<%s>" % name, module=module)
        if drop_warning is not None:
            result["warnings"] = [w for w in result["warnings"] if not drop_warning(w)]
        out[name] = record(result, source=source)
    return out


def record_cases(cases, filename, lstrip=False, drop_warning=None):
    """Record (name, source) cases into tests/golden/<filename>, each run as a program of
    its own with __name__ "__main__" (run_cases)."""
    out = run_cases(cases, lstrip=lstrip, module="__main__", drop_warning=drop_warning)
    path = write(filename, out)
    print(f"{len(out)} cases -> {path}")


def write(filename, data, *, end="\n", **dump):
    """tests/golden/<filename> (or a path) as JSON: json.dump's options `dump` (by
    default indent=1, non-ASCII kept), then `end`.  Returns the path."""
    path = os.path.join(GOLDEN, filename)
    os.makedirs(os.path.dirname(path), exist_ok=True)
    if not dump:
        dump = {"indent": 1, "ensure_ascii": False}
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(data, fh, **dump)
        fh.write(end)
    return path


def digest(a):
    """The sha256 of an array's values, little-endian and C-ordered (a golden of many
    values kept small)."""
    a = np.ascontiguousarray(a)
    return hashlib.sha256(a.astype(a.dtype.newbyteorder("<")).tobytes()).hexdigest()
