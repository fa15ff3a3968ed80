__version__ = "0.1.0"

import os as _os  # noqa: E402
import _signal  # noqa: E402  (the C module: `signal` would import enum first)
import sys as _sys  # noqa: E402

#: NumPy's AVX-512 dispatch targets (NumPy 2.4 and later, then earlier NumPy's names)
_AVX512_TARGETS = (
    "X86_V4 AVX512_ICL AVX512_SPR AVX512F AVX512CD AVX512_KNL AVX512_KNM "
    "AVX512_SKX AVX512_CLX AVX512_CNL"
)


def _numpy_without_avx512():
    """gradcli computes as PyTorch's AVX2 kernels do, on every machine (its golden files
    are torch's on AVX2), and relies on NumPy's float functions (sinh, expm1, log1p ...)
    giving glibc's values where torch calls glibc.  On a CPU with AVX-512, NumPy sends
    those functions to Intel's SVML instead, whose last bits differ; so, before NumPy is
    first imported, its AVX-512 dispatch is turned off (NumPy's own switch,
    NPY_DISABLE_CPU_FEATURES; the AVX2 loops remain).  Left alone where NumPy is already
    imported, where the user set that variable, or with GRADCLI_NUMPY_AVX512=1."""
    env = _os.environ
    if (
        "numpy" in _sys.modules
        or "NPY_DISABLE_CPU_FEATURES" in env
        or env.get("GRADCLI_NUMPY_AVX512") == "1"
    ):
        return
    try:
        with open("/proc/cpuinfo", "rb") as f:
            head = f.read(16384)
    except OSError:  # not Linux: left alone
        return
    if b" avx512f" not in head:
        return
    env["NPY_DISABLE_CPU_FEATURES"] = _AVX512_TARGETS
    import warnings

    with warnings.catch_warnings():  # (a name this NumPy does not dispatch: an ImportWarning)
        warnings.simplefilter("ignore", ImportWarning)
        import numpy  # noqa: F401


def _quiet_blas_threads():
    """NumPy's OpenBLAS starts a worker thread per core when NumPy is imported, and each
    worker spins for about 2**28 cycles (some 100 ms) before it sleeps, again after
    every threaded call: CPU time the user's program is charged for (a short program
    timed with `time.process_time()` read twice its own time) and a core taken from
    anything else.  As KMP_BLOCKTIME=0 does for MKL's threads (numerics/mkl.py), the
    workers are told to sleep at once (OPENBLAS_THREAD_TIMEOUT's least value, 2**4
    cycles); NumPy still uses them for large products.  Left alone where NumPy is
    already imported or the user set the variable."""
    if "numpy" not in _sys.modules:
        _os.environ.setdefault("OPENBLAS_THREAD_TIMEOUT", "4")


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
    return "-m" in orig and orig[orig.index("-m") + 1 : orig.index("-m") + 2] == ["gradcli"]


if _is_the_command_line():
    if _signal.getsignal(_signal.SIGINT) is _signal.default_int_handler:
        try:
            _signal.signal(_signal.SIGINT, _interrupted_at_start)
        except ValueError:  # not the main thread
            pass
    from .runtime.gctune import hold as _hold_gc
    from .runtime import code_cache as _code_cache

    _hold_gc()  # no collections while gradcli is imported (driver.configure tunes it)
    _code_cache.install()  # gradcli's modules' code from one file (cli.run saves it)

_quiet_blas_threads()
_numpy_without_avx512()  # (after the handler above: NumPy now loads here on such a CPU)
