"""The command line: `gradcli [options]` (REPL, or stdin as a script) and
`gradcli eval FILE... | - | -e CODE`.  Exit codes: 0 ok, 1 runtime error,
2 syntax error or bad usage, 130 interrupted."""
from __future__ import annotations

import argparse
import os
import sys

from . import __version__

EXAMPLES = """\
examples:
  gradcli                                  interactive REPL
  gradcli eval scripts/examples/seed_002.ag
  gradcli eval -e 'x = ones(2, 2, requires_grad=true); backward mean(3*(x+2)^2)'
  echo 'x = tensor(3., requires_grad=true); backward x^2' | gradcli
  gradcli eval --json -e 'tensor([1., 2.]) * 2' | jq .value
  gradcli eval --set 'x=[1., 2., 3.]' prog.ag
  #!/usr/bin/env -S gradcli eval            first line of an executable .ag file

exit codes: 0 success, 1 runtime error (or failed assert), 2 syntax error or
bad usage, 130 interrupted.  NO_COLOR disables colour in the REPL.
"""


def _parser(prog):
    p = argparse.ArgumentParser(
        prog=prog, formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES,
        description="gradcli: a gradient calculator with PyTorch's autograd semantics.")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="programs to run in order ('-' reads stdin)")
    p.add_argument("-e", dest="code", action="append", metavar="CODE",
                   help="run CODE (statements separated by ';' or newlines); repeatable")
    p.add_argument("--json", action="store_true", help="JSON lines on stdout (see README)")
    p.add_argument("--seed", type=int, metavar="N", help="seed the random generator")
    p.add_argument("--dtype", choices=("float64", "float32"), default="float64",
                   help="default floating dtype (default float64)")
    p.add_argument("--precision", type=int, default=4, metavar="N",
                   help="digits printed after the point (default 4)")
    p.add_argument("-q", "--quiet", action="store_true", help="only print() output and errors")
    p.add_argument("--set", dest="sets", action="append", default=[], metavar="NAME=VALUE",
                   help="bind NAME to VALUE (in the language's syntax) first; repeatable")
    p.add_argument("-i", dest="interactive", action="store_true",
                   help="after running, stay in the REPL with the program's variables")
    p.add_argument("--max-memory", default="1GiB", metavar="SIZE",
                   help="largest tensor allowed (default 1GiB)")
    p.add_argument("--max-depth", type=int, default=200, metavar="N",
                   help="deepest recursion of user functions (default 200)")
    p.add_argument("--max-steps", type=int, default=None, metavar="N",
                   help="stop after N loop iterations in all")
    p.add_argument("--version", action="version", version=f"gradcli {__version__}")
    p.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    return p


def _size(text):
    t = text.strip().lower().replace(" ", "")
    units = {"gib": 1 << 30, "mib": 1 << 20, "kib": 1 << 10, "gb": 10**9, "mb": 10**6,
             "kb": 10**3, "g": 1 << 30, "m": 1 << 20, "k": 1 << 10, "b": 1}
    for u, mult in units.items():
        if t.endswith(u):
            return int(float(t[:-len(u)]) * mult)
    return int(float(t))


class UsageError(Exception):
    pass


def read_source(path) -> tuple[str, str]:
    """(filename, text): UTF-8 (a BOM is dropped), CRLF made LF."""
    if path == "-":
        data = sys.stdin.buffer.read()
        name = "<stdin>"
    else:
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            raise UsageError(f"cannot read {path}: {e.strerror}")
        name = path
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(f"{name}: not UTF-8 text (byte {e.start})")
    if "\x00" in text:
        raise UsageError(f"{name}: binary input (NUL byte)")
    return name, text.replace("\r\n", "\n").replace("\r", "\n")


def configure(args):
    from . import dtypes, printing
    from .limits import limits
    dtypes.default.float = dtypes.NAMES[args.dtype]
    printing.options.precision = args.precision
    try:
        limits.max_memory = _size(args.max_memory)
    except ValueError:
        raise UsageError(f"--max-memory: not a size: {args.max_memory!r}")
    limits.max_depth = args.max_depth
    limits.max_steps = args.max_steps
    sys.setrecursionlimit(max(sys.getrecursionlimit(), 20000))
    if args.seed is not None:
        from . import random
        random.default_generator.manual_seed(args.seed)


def make_session(args, echo_assign=False):
    from .output import JsonOutput, TextOutput
    from .session import Session
    cls = JsonOutput if args.json else TextOutput
    return Session(cls(quiet=args.quiet, echo_assign=echo_assign))


def apply_sets(session, sets):
    from .errors import GradError
    for item in sets:
        name, eq, value = item.partition("=")
        name = name.strip()
        if not eq or not name.isidentifier():
            raise UsageError(f"--set wants NAME=VALUE, got {item!r}")
        if "\n" in value:
            raise UsageError("--set VALUE must be one line")
        try:
            session.run(f"{name} = ({value})\n", filename=f"--set {name}")
        except GradError as e:
            session.report(e, f"{name} = ({value})")
            return e.exit_code
    return 0


def run_sources(session, sources, debug=False):
    """Run each (filename, text) in turn; returns the exit code."""
    from .errors import GradError, Interrupted
    for name, text in sources:
        try:
            session.run(text, filename=name)
        except GradError as e:
            session.report(e, text)
            return e.exit_code
        except KeyboardInterrupt:
            from .compiler import state
            err = Interrupted("interrupted", state.line or None)
            session.report(err, text)
            return 130
        except Exception as e:   # a bug in gradcli: still no traceback unless --debug
            if debug:
                raise
            from .compiler import state
            err = GradError(f"internal error: {type(e).__name__}: {e}", state.line or None,
                            type_name="InternalError")
            session.report(err, text)
            return 1
    return 0


def main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    mode = "repl"
    prog = "gradcli"
    if argv and argv[0] == "eval":
        mode, prog = "eval", "gradcli eval"
        argv = argv[1:]
    parser = _parser(prog)
    try:
        args = parser.parse_args(argv)
    except SystemExit as e:
        return 0 if e.code in (0, None) else 2
    try:
        configure(args)
        if mode == "repl" and args.files and not args.code:
            raise UsageError(f"unknown command {args.files[0]!r} (did you mean 'gradcli eval "
                             f"{args.files[0]}'?)")
        interactive_stdin = sys.stdin is not None and sys.stdin.isatty()
        if mode == "repl" and not args.code and interactive_stdin:
            from .repl import run_repl
            return run_repl(args)
        sources = []
        if args.code:
            sources += [("<-e>", c.replace(";;", ";")) for c in args.code]
        files = args.files if mode == "eval" else []
        if mode == "eval" and not files and not args.code:
            if interactive_stdin:
                raise UsageError("gradcli eval needs FILE, '-' or -e CODE")
            files = ["-"]
        if mode == "repl" and not args.code:
            files = ["-"]
        sources += [read_source(f) for f in files]
    except UsageError as e:
        sys.stderr.write(f"gradcli: error: {e}\n")
        return 2
    session = make_session(args)
    code = apply_sets(session, args.sets)
    if code:
        return code
    code = run_sources(session, sources, args.debug)
    if args.interactive and code in (0, 1):
        from .repl import run_repl
        return run_repl(args, session, preamble=sources if code == 0 else None)
    return code
