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


# only when this process is gradcli (`gradcli ...` or `python -m gradcli ...`), never
# when a program that imports gradcli as a library (pytest) starts
if _sys.argv and (_sys.argv[0] == "-m" or _os.path.basename(_sys.argv[0]) == "gradcli") and \
        _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
    try:
        _signal.signal(_signal.SIGINT, _interrupted_at_start)
    except ValueError:          # not the main thread
        pass
