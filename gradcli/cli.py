"""The command line: `gradcli [options]` (REPL, or stdin as a script) and
`gradcli eval FILE... | - | -e CODE`.  Exit codes: 0 ok, 1 runtime error,
2 syntax error or bad usage, 130 interrupted."""

from __future__ import annotations

import _signal as signal  # the C module: `signal` builds its enums (start-up time)
import os
import sys

from . import __version__, _interrupted_at_start, quickargs
from .runtime import code_cache
from .runtime.settings import OPTIONS

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
  gradcli eval notebook.ipynb               a Jupyter notebook's code cells, in order
  gradcli check notebook.ipynb              ... compared with the outputs stored in it
  gradcli kernel install --user             the Jupyter kernel (needs the jupyter extra)

--set VALUE is an expression of the language; a list becomes a float tensor
(--set x=[1,2,3] is tensor([1., 2., 3.])), anything else is bound as it is.
In a program, load("a.npy"|"a.csv") and save(t, "a.npy"|"a.csv") read and
write data, and assert / assert_close(a, b, tol=1e-6) fail with exit code 1.

exit codes: 0 success; 1 runtime error, failed assert or assert_close;
2 syntax error, bad usage or a file that cannot be read; 130 interrupted.
Errors go to stderr as FILE:LINE:COL, the line and a caret (with --json, also
as a last {"kind": "error", ...} record on stdout).  NO_COLOR disables colour.

--json: one JSON object per line on stdout, strict JSON (nan/inf as the strings
"nan", "inf", "-inf"); every record has "kind" and "line":
  value   an expression's value: text, value (number or nested lists), shape,
          dtype, requires_grad, grad_fn (null for a leaf or a non-tensor)
  grad    backward changed a leaf's .grad: name, text, value, shape, dtype
  print   print(...) output: text
  assign  (REPL only) name = value: name and the value fields
  plot    plot(...): file, title, series [{label, derivative, x, y}]
  trace   backward ..., trace=true (or backward_trace(out)): step, node,
          grad_in, shape, outputs [{to, step, leaf, grad}]
  explain explain(out, x) or backward ..., explain=true: out, steps [{name,
          formula, latex, text}], derivatives [{leaf, formula (text SymPy
          reads back), elements, latex, text, chain, value, check}], notes;
          diff(f, x): variable, order, formula, latex, text, at, value, check
  file    save(...) or plot(..., "f.svg") wrote a file: path
  error   always last: type, message, hint, column, file
"""

USAGE = """gradcli [options] [FILE ...]             the REPL, or stdin as a script
       gradcli eval [options] (FILE ... | - | -e CODE)   run programs"""
EVAL_USAGE = "gradcli eval [options] (FILE ... | - | -e CODE ...)"


def _parser(prog):
    import argparse  # only when needed: quickargs reads plain command lines

    class _ArgParser(argparse.ArgumentParser):
        def error(self, message):
            """Bad options are a usage error (exit 2, and a JSON record under --json)."""
            self.print_usage(sys.stderr)
            raise _BadArguments(message)

    p = _ArgParser(
        prog=prog,
        allow_abbrev=False,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        epilog=EXAMPLES,
        usage=EVAL_USAGE if prog.endswith("eval") else USAGE,
        description="gradcli eval: run gradcli programs (FILEs, '-' for stdin, -e CODE) one after "
        "another in one session, then exit (-i: stay in the REPL)."
        if prog.endswith("eval")
        else "gradcli: a gradient calculator with PyTorch's autograd semantics.",
    )
    p.add_argument(
        "files", nargs="*", metavar="FILE", help="programs to run in order ('-' reads stdin)"
    )
    p.add_argument(
        "-e",
        dest="code",
        action="append",
        metavar="CODE",
        help="run CODE (statements separated by ';' or newlines); repeatable; "
        "FILEs and -e CODE run in the order given",
    )
    p.add_argument("--json", action="store_true", help="JSON lines on stdout (see below)")
    p.add_argument(
        "--check",
        action="store_true",
        help="for notebooks (.ipynb): compare each cell's output with the stored one",
    )
    _add_settings(p)
    p.add_argument("-q", "--quiet", action="store_true", help="only print() output and errors")
    p.add_argument(
        "--set",
        dest="sets",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="bind NAME to VALUE (in the language's syntax) first; repeatable",
    )
    p.add_argument(
        "-i",
        dest="interactive",
        action="store_true",
        help="after running, stay in the REPL with the program's variables",
    )
    p.add_argument("--version", action="version", version=f"gradcli {__version__}")
    p.add_argument("--debug", action="store_true", help=argparse.SUPPRESS)
    return p


def _add_settings(p):
    """The run's settings as options (runtime/settings.py defines them)."""
    for f in OPTIONS:
        if isinstance(f.default, bool):  # a switch that turns the setting over
            action = "store_false" if f.default else "store_true"
            p.add_argument(f.option, dest=f.name, action=action, help=f.help)
            continue
        p.add_argument(
            f.option,
            dest=f.name,
            type=int if f.default is None else type(f.default),
            default=f.default,
            metavar=f.metavar,
            choices=f.choices,
            help=f.help,
        )


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
        else:  # -e CODE, -eCODE, -qe CODE
            for j in range(1, len(tok)):
                o = "-" + tok[j]
                if o in takes_value:
                    value = tok[j + 1 :]
                    if not value:
                        value = argv[i] if i < len(argv) else ""
                        i += 1
                    if o == "-e":
                        out.append(("code", value))
                    break
    return out


class _BadArguments(Exception):
    pass


def ready_for_interrupts():
    """From here on Ctrl-C is a KeyboardInterrupt that the session reports (exit 130);
    until now (start-up) it ended the process quietly (gradcli._interrupted_at_start)."""
    if signal.getsignal(signal.SIGINT) is _interrupted_at_start:
        signal.signal(signal.SIGINT, signal.default_int_handler)


def run() -> int:
    """The `gradcli` command (and `python -m gradcli`): `main`, and then, after a
    one-shot `eval`/`check`, leave without tearing the program's objects down one by
    one: the process is ending, and freeing a 100,000-op graph took 0.2 s.
    Output is flushed first; files a program writes are closed as it writes them."""
    argv = sys.argv[1:]
    code = main()
    code_cache.save()  # (when modules were imported outside the cache of their code)
    # not after the REPL (eval -i), which is imported only when it runs
    if argv[:1] in (["eval"], ["check"]) and "gradcli.repl.app" not in sys.modules:
        try:
            for stream in (sys.stdout, sys.stderr):
                if stream is not None:
                    stream.flush()
        except (OSError, ValueError):
            return code  # a closed or broken stream: the ordinary exit reports it
        os._exit(code if isinstance(code, int) else 1)
    return code


def main(argv=None) -> int:
    # started with a descriptor closed (>&-): what is written there is dropped, as print does
    if sys.stdout is None:
        sys.stdout = open(os.devnull, "w")
    if sys.stderr is None:
        sys.stderr = open(os.devnull, "w")
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
    check = False
    if argv and argv[0] in ("eval", "check"):
        mode, prog, check = "eval", f"gradcli {argv[0]}", argv[0] == "check"
        argv = argv[1:]
    elif argv and argv[0] == "kernel":
        from .kernel.install import main as kernel_main  # the kernel's own command line

        return kernel_main(argv[1:])
    quick = quickargs.parse(argv)  # plain command lines (`eval FILE`, the REPL): no argparse
    if quick is not None:
        args, order = quick
    else:
        parser = _parser(prog)
        try:
            args = parser.parse_intermixed_args(argv)
        except SystemExit as e:
            return 0 if e.code in (0, None) else 2
        except _BadArguments as e:
            from .driver import usage_error

            return usage_error(e, "--json" in argv)
        order = _program_order(parser, argv)
        if [v for k, v in order if k == "file"] != args.files or [
            v for k, v in order if k == "code"
        ] != (args.code or []):
            order = [("file", f) for f in args.files] + [("code", c) for c in args.code or []]
    # imported here, not at the top: `gradcli --help` and `--version` need no NumPy
    from .driver import (
        UsageError,
        apply_sets,
        configure,
        make_session,
        read_source,
        run_sources,
        usage_error,
    )

    try:
        ctx = configure(args)
        interactive_stdin = sys.stdin is not None and sys.stdin.isatty()
        if (mode == "repl" or args.interactive) and not order and interactive_stdin:
            from .repl.app import run_repl  # prompt_toolkit only for the REPL (start-up time)

            ready_for_interrupts()
            return run_repl(args)
        if not order:
            if mode == "eval" and interactive_stdin:
                raise UsageError(
                    "gradcli eval needs FILE, '-' or -e CODE (see gradcli eval --help)"
                )
            order = [("file", "-")]
        if args.files.count("-") > 1:
            raise UsageError("'-' (stdin) can be given only once")
        # FILEs and -e CODE run in the order they were given, sharing variables
        sources = [read_source(v) if k == "file" else ("<-e>", v) for k, v in order]
        args.check = args.check or check
        if args.check and any(k != "file" for k, _ in order):
            raise UsageError("check runs notebooks (.ipynb FILEs or '-'), not -e CODE")
    except UsageError as e:
        return usage_error(e, args.json)
    session = make_session(args, ctx=ctx)
    ready_for_interrupts()
    try:
        code = apply_sets(session, args.sets)
    except UsageError as e:
        return usage_error(e, args.json)
    if code:
        return code
    code = run_sources(session, sources, args.debug, args.check, args.json)
    if args.interactive and code in (0, 1):
        from .repl.app import run_repl  # prompt_toolkit only for the REPL (start-up time)

        return run_repl(args, session, sources)
    return code
