"""gradcli's interactive REPL (prompt_toolkit), split as ptpython is:

- `app`        the loop: reading, running outside the prompt's event loop, Ctrl-C
- `validator`  is the input complete? (from the parser itself)
- `lexer`      highlighting from the grammar's own lexer tokens
- `completer`  Tab: variables, built-ins, keyword arguments, `x.` attributes
- `keys`       Enter / Tab / Backspace bindings
- `meta`       `:help`, `:vars`, `:graph`, `:load`, `:save`, `:reset`, `:quit`
- `history`    the history file, and the transcript `:save` writes

prompt_toolkit is imported only here, so `gradcli eval` never pays for it.
"""
from __future__ import annotations

import sys


def run_repl(args, session=None, preamble=None) -> int:
    """Run the REPL until Ctrl-D or `:quit`; returns the exit code.

    `session` is given by `gradcli eval -i` (its variables are kept), with
    `preamble`, the (filename, text) it ran, so that `:save` can include it."""
    from .app import Repl, run_script
    repl = Repl(args, session, preamble)
    if session is None:
        code = repl.apply_sets()
        if code:
            return code
    if sys.stdin is None or not sys.stdin.isatty():
        return run_script(repl)
    return repl.loop()
