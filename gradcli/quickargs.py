"""`gradcli eval` and `gradcli` (the REPL) command lines read without argparse (start-up
time: building argparse's parser and importing it cost a few milliseconds on every run).

Only the plainest command lines are read here: FILEs, `-`, `-e CODE`, `-q`,
`--json` and the run's settings as `--option VALUE` (`--seed 0`) or switches
(`--no-replay`).  Anything else (another option, `--`, `--option=VALUE`, a value
that looks like an option or that the option does not take) returns None and the
command line goes to argparse as before, so help, errors and every other option
keep argparse's behaviour.
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

#: the settings' options (cli._add_settings): option -> (setting, its value's type or
#: None for a switch)
SETTINGS = {
    f.option: (
        f,
        None if isinstance(f.default, bool) else int if f.default is None else type(f.default),
    )
    for f in OPTIONS
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
        elif tok in SETTINGS:
            f, kind = SETTINGS[tok]
            if kind is None:  # a switch that turns the setting over
                values[f.name] = not f.default
                continue
            if i == n or argv[i].startswith("-"):
                return None
            try:
                value = kind(argv[i])
            except ValueError:
                return None
            if f.choices is not None and value not in f.choices:
                return None
            values[f.name] = value
            i += 1
        elif tok == "-" or (tok and tok[0] != "-"):
            values["files"].append(tok)
            order.append(("file", tok))
        else:
            return None
    if code:
        values["code"] = code
    return SimpleNamespace(**values), order
