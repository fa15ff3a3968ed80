"""`gradcli eval` command lines read without argparse (start-up time: building
argparse's parser and importing it cost a few milliseconds on every run).

Only the plainest command lines are read here: FILEs, `-`, `-e CODE`, `-q` and
`--json`.  Anything else (another option, `--`, a value that looks like an
option) returns None and the command line goes to argparse as before, so help,
errors and every other option keep argparse's behaviour.
tests/cli/test_quickargs.py checks the result equals argparse's.
"""

from __future__ import annotations

from types import SimpleNamespace

from .runtime.settings import OPTIONS

#: argparse's defaults for `gradcli eval` (cli._parser): its own options', then the
#: run's settings' (runtime/settings.py)
DEFAULTS = {
    "files": [],
    "code": None,
    "json": False,
    "check": False,
    "quiet": False,
    "sets": [],
    "interactive": False,
    "debug": False,
    **{f.name: f.default for f in OPTIONS},
}


def parse(argv):
    """(args, order) as cli._main makes them with argparse, or None."""
    values = dict(DEFAULTS, files=[], sets=[])
    code, order = [], []
    i, n = 0, len(argv)
    while i < n:
        tok = argv[i]
        i += 1
        if tok == "-q" or tok == "--quiet":
            values["quiet"] = True
        elif tok == "--json":
            values["json"] = True
        elif tok == "-e":
            if i == n or argv[i].startswith("-"):
                return None
            code.append(argv[i])
            order.append(("code", argv[i]))
            i += 1
        elif tok == "-" or (tok and tok[0] != "-"):
            values["files"].append(tok)
            order.append(("file", tok))
        else:
            return None
    if code:
        values["code"] = code
    return SimpleNamespace(**values), order
