"""The command line: `gradcli [options]` (REPL, or stdin as a script) and
`gradcli eval FILE... | - | -e CODE`.  Exit codes: 0 ok, 1 runtime error,
2 syntax error or bad usage, 130 interrupted."""
from __future__ import annotations

import argparse
import os
import signal
import sys

from . import __version__

EXAMPLES = """\
examples:
  gradcli                                   the REPL (when stdin is a terminal)
  gradcli eval prog.ag                      run a program (gradcli prog.ag also works)
  gradcli eval lib.ag main.ag               several files, sharing variables
  gradcli eval -e 'x = ones(2, 2, requires_grad=true); backward mean(3*(x+2)^2)'
  echo 'x = tensor(3., requires_grad=true); backward x^2' | gradcli
  gradcli eval --set x=[1,2,3] -e 'x.requires_grad_(); backward sum(x^2)'
  gradcli eval --json -e 'tensor([1., 2.]) * 2' | jq -c .value
  gradcli eval -q --precision 8 prog.ag     only print() output, 8 digits
  gradcli eval - < prog.ag                  '-' reads the program from stdin
  #!/usr/bin/env -S gradcli eval            first line of an executable .ag file

--set VALUE is an expression of the language; a list becomes a float tensor
(--set x=[1,2,3] is tensor([1., 2., 3.])), anything else is bound as it is.
In a program, load("a.npy"|"a.csv") and save(t, "a.npy"|"a.csv") read and
write data, and assert / assert_close(a, b, tol=1e-6) fail with exit code 1.

exit codes: 0 success; 1 runtime error, failed assert or assert_close;
2 syntax error, bad usage or a file that cannot be read; 130 interrupted.
Errors go to stderr as FILE:LINE:COL, the line and a caret (with --json, also
as a last {"kind": "error", ...} record on stdout).  NO_COLOR disables colour.
"""


def _parser(prog):
    p = argparse.ArgumentParser(
        prog=prog, allow_abbrev=False, formatter_class=argparse.RawDescriptionHelpFormatter, epilog=EXAMPLES,
        description="gradcli: a gradient calculator with PyTorch's autograd semantics.")
    p.add_argument("files", nargs="*", metavar="FILE",
                   help="programs to run in order ('-' reads stdin)")
    p.add_argument("-e", dest="code", action="append", metavar="CODE",
                   help="run CODE (statements separated by ';' or newlines); repeatable; "
                        "FILEs and -e CODE run in the order given")
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


def _program_order(parser, argv):
    """[("file", FILE) | ("code", CODE)] in command-line order: FILEs and -e CODE
    run in the order given (argparse keeps each kind's order, not their mix)."""
    takes_value, flags = set(), set()
    for a in parser._actions:
        for o in a.option_strings:
            (flags if a.nargs == 0 else takes_value).add(o)
    out = []
    i = 0
    while i < len(argv):
        tok = argv[i]
        i += 1
        if tok == "--":
            out += [("file", f) for f in argv[i:]]
            break
        if tok == "-" or not tok.startswith("-"):
            out.append(("file", tok))
        elif tok.startswith("--"):
            if "=" not in tok and tok in takes_value:
                i += 1
        else:   # -e CODE, -eCODE, -qe CODE
            for j in range(1, len(tok)):
                o = "-" + tok[j]
                if o in takes_value:
                    value = tok[j + 1:]
                    if not value:
                        value = argv[i] if i < len(argv) else ""
                        i += 1
                    if o == "-e":
                        out.append(("code", value))
                    break
    return out


def read_source(path) -> tuple[str, str]:
    """(filename, text): UTF-8 (a BOM is dropped), CRLF made LF."""
    if path == "-":
        data = sys.stdin.buffer.read() if sys.stdin is not None else b""
        name = "<stdin>"
    else:
        if os.path.isdir(path):
            raise UsageError(f"cannot read {path}: it is a directory")
        try:
            with open(path, "rb") as f:
                data = f.read()
        except OSError as e:
            hint = ""
            if not os.path.splitext(path)[1] and not os.path.exists(path):
                from .base.errors import did_you_mean
                d = did_you_mean(path, ["eval"])
                hint = f" ({d[:-1]} as in 'gradcli eval FILE'?)" if d else ""
            raise UsageError(f"cannot read {path}: {e.strerror or e}{hint}")
        name = path
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        raise UsageError(f"{name}: not UTF-8 text (byte {e.start})")
    if "\x00" in text:
        raise UsageError(f"{name}: binary input (NUL byte)")
    return name, text.replace("\r\n", "\n").replace("\r", "\n")


def configure(args):
    from .core import dtypes, printing
    from .base.limits import limits
    if args.precision < 0 or args.precision > 30:
        raise UsageError(f"--precision wants a number of digits from 0 to 30, got {args.precision}")
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
        from .base import random
        random.default_generator.manual_seed(args.seed)


def make_session(args, echo_assign=False):
    from .output import JsonOutput, TextOutput
    from .session import Session
    cls = JsonOutput if args.json else TextOutput
    return Session(cls(quiet=args.quiet, echo_assign=echo_assign))


def _set_target(item):
    """NAME of a `--set NAME=VALUE` item, after checking that it is exactly one
    assignment to one name (the value is any expression of the language)."""
    from lark import Tree
    from .base.errors import GradError
    from .language.parser import parse
    name, eq, value = item.partition("=")
    name = name.strip()
    if not eq or not name.isidentifier() or not value.strip():
        raise UsageError(f"--set wants NAME=VALUE, got {item!r}")
    if "\n" in value or "\r" in value:
        raise UsageError("--set VALUE must be one line")
    try:
        tree = parse(item)
    except GradError:
        return name, False          # run it anyway: the syntax error is reported with a caret
    stmts = [c for c in tree.children if isinstance(c, Tree)]
    smalls = [c for c in stmts[0].children if c is not None] if len(stmts) == 1 and \
        stmts[0].data == "simple_stmt" else []
    ok = len(smalls) == 1 and smalls[0].data == "assign" and len(smalls[0].children) == 2 and \
        isinstance(smalls[0].children[0], Tree) and smalls[0].children[0].data == "name"
    if not ok:
        raise UsageError(f"--set wants NAME=VALUE with one expression as VALUE, got {item!r}")
    return name, True


def _set_value(v):
    """A list given to --set becomes a tensor; whole numbers become the default
    float dtype, as in a calculator (`--set x=[1,2,3]` is tensor([1., 2., 3.]))."""
    if not isinstance(v, list):
        return v
    from .core import dtypes
    from .core.convert import to_array
    from .base.errors import GradError
    from .core.tensor import Tensor
    try:
        a = to_array(v)
    except GradError:
        return v
    if a.dtype.kind in "iu":
        a = a.astype(dtypes.default.float)
    return Tensor(a)


def apply_sets(session, sets):
    """Bind each `--set NAME=VALUE` in order; returns an exit code (0 if all went well)."""
    from .base.errors import GradError
    for item in sets:
        name, _ = _set_target(item)
        try:
            session.run(item + "\n", filename="--set")
        except GradError as e:
            fill_column(e, item)
            session.report(e, item)
            return e.exit_code
        except KeyboardInterrupt:
            return 130
        session.scope.vars[name] = _set_value(session.scope.vars.get(name))
    return 0


def fill_column(err, source):
    """An error known by line only points at the first character of that line."""
    if err.line is not None and err.column is None and source is not None:
        lines = source.splitlines()
        if 1 <= err.line <= len(lines):
            text = lines[err.line - 1]
            err.column = len(text) - len(text.lstrip()) + 1
        else:
            err.column = 1
    return err


def run_sources(session, sources, debug=False):
    """Run each (filename, text) in turn, sharing variables; returns the exit code."""
    from .base.errors import GradError, Interrupted
    for name, text in sources:
        try:
            session.run(text, filename=name)
        except GradError as e:
            fill_column(e, e.origin[1] if e.origin else text)
            session.report(e, text)
            return e.exit_code
        except KeyboardInterrupt:
            from .language.state import state
            err = Interrupted("interrupted", state.line or None)
            fill_column(err, text)
            session.filename = name
            session.report(err, text)
            return 130
        except Exception as e:   # a bug in gradcli: still no traceback unless --debug
            if debug:
                raise
            from .language.state import state
            err = GradError(f"internal error: {type(e).__name__}: {e}", state.line or None,
                            type_name="InternalError")
            fill_column(err, text)
            session.report(err, text)
            return 1
    return 0


def _usage_error(message, args=None) -> int:
    """Report bad usage (exit 2): on stderr, and as an error record under --json."""
    sys.stderr.write(f"gradcli: error: {message}\n")
    sys.stderr.flush()
    if args is not None and getattr(args, "json", False):
        import json
        sys.stdout.write(json.dumps({"kind": "error", "line": None, "column": None,
                                     "type": "UsageError", "message": str(message),
                                     "hint": None, "file": None}) + "\n")
        sys.stdout.flush()
    return 2


def main(argv=None) -> int:
    if hasattr(signal, "SIGPIPE"):
        # `gradcli ... | head -1`: die quietly when the reader goes away, as a C tool does
        signal.signal(signal.SIGPIPE, signal.SIG_DFL)
    try:
        return _main(argv)
    except KeyboardInterrupt:
        try:
            sys.stderr.write("gradcli: interrupted\n")
        except OSError:
            pass
        return 130


def _main(argv=None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    mode = "repl"
    prog = "gradcli"
    if argv and argv[0] == "eval":
        mode, prog = "eval", "gradcli eval"
        argv = argv[1:]
    parser = _parser(prog)
    try:
        args = parser.parse_intermixed_args(argv)
    except SystemExit as e:
        return 0 if e.code in (0, None) else 2
    order = _program_order(parser, argv)
    if [v for k, v in order if k == "file"] != args.files or \
            [v for k, v in order if k == "code"] != (args.code or []):
        order = [("file", f) for f in args.files] + [("code", c) for c in args.code or []]
    try:
        configure(args)
        interactive_stdin = sys.stdin is not None and sys.stdin.isatty()
        if (mode == "repl" or args.interactive) and not order and interactive_stdin:
            from .repl import run_repl
            return run_repl(args)
        if not order:
            if mode == "eval" and interactive_stdin:
                raise UsageError("gradcli eval needs FILE, '-' or -e CODE (see gradcli eval --help)")
            order = [("file", "-")]
        if args.files.count("-") > 1:
            raise UsageError("'-' (stdin) can be given only once")
        # FILEs and -e CODE run in the order they were given, sharing variables
        sources = [read_source(v) if k == "file" else ("<-e>", v) for k, v in order]
    except UsageError as e:
        return _usage_error(e, args)
    session = make_session(args)
    try:
        code = apply_sets(session, args.sets)
    except UsageError as e:
        return _usage_error(e, args)
    if code:
        return code
    code = run_sources(session, sources, args.debug)
    if args.interactive and code in (0, 1):
        from .repl import run_repl
        return run_repl(args, session, sources)
    return code
