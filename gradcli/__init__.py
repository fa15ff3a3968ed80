__version__ = "0.1.0"

import os as _os  # noqa: E402
import _signal  # noqa: E402  (the C module: `signal` would import enum first)
import sys as _sys  # noqa: E402


def _interrupted_at_start(signum, frame):
    """Ctrl-C while gradcli starts (imports, options): exit 130 quietly.  A
    KeyboardInterrupt there would print a traceback, or NumPy would turn it into an
    ImportError; cli.ready_for_interrupts() puts Python's handler back before any
    program runs."""
    try:
        _os.write(2, b"gradcli: interrupted\n")
    finally:
        _os._exit(130)


def _is_the_command_line():
    """Whether this process is gradcli's command line (`gradcli ...` or `python -m gradcli
    ...`): not a program importing gradcli (pytest), not the Jupyter kernel
    (`python -m gradcli.kernel`, whose interrupts must stay KeyboardInterrupts)."""
    if _sys.argv and _os.path.basename(_sys.argv[0]) == "gradcli":
        return True
    orig = getattr(_sys, "orig_argv", [])
    return "-m" in orig and orig[orig.index("-m") + 1:orig.index("-m") + 2] == ["gradcli"]


if _is_the_command_line() and _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    try:
        _signal.signal(_signal.SIGINT, _interrupted_at_start)
    except ValueError:          # not the main thread
        pass
