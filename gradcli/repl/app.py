"""The read-eval-print loop.

Input is read by a prompt_toolkit PromptSession (a multi-line buffer: `>>> `
then `... ` lines, the parser deciding when the input is complete).  Each input
then runs *outside* the prompt's event loop, with Python's own SIGINT handler
in place, so Ctrl-C raises KeyboardInterrupt inside the running statement;
what ran before it is kept (as in Python), the REPL says at which line it
stopped and prompts again; `:undo` (undo.py) goes back to before the input.

On a dumb terminal (TERM=dumb) prompt_toolkit cannot redraw a multi-line
buffer, so there each line is its own prompt, `... ` while the parser wants
more, as in Python's REPL.
"""

from __future__ import annotations

import os
import signal
import sys

from .. import __version__
from ..runtime.errors import GradError, GradSyntaxError, Interrupted
from ..runtime.heap import release as release_heap
from ..runtime.limits import start_total
from ..runtime.settings import Settings
from . import ans, colors, dumb, paste, width
from .help import request as help_request
from .meta import QUIT, run as run_meta
from .history import Transcript, make_history, statement_texts
from .undo import UndoStack
from .validator import is_complete, is_meta
from ..driver import UsageError, apply_sets, configure, make_session, read_source, run_sources
from ..language.runtime import Scope

PROMPT = ">>> "
CONTINUATION = "... "


class Repl:
    def __init__(self, args, session=None, preamble=None):
        self.args = args
        self.from_eval = session is not None
        if session is None:
            session = make_session(args, echo_assign=True)
        else:
            session.out.echo_assign = True
        self.session = session
        self.transcript = Transcript(self._header())
        if self.from_eval:
            if preamble is None:
                self.transcript.header.append(
                    "# (the session began with `gradcli eval -i`; that program is not included)"
                )
            else:
                for name, text in preamble:
                    self.transcript.header.append(f"# ---- {name}")
                    self.transcript.header.append(text.rstrip("\n"))
                    self.transcript.header.append("# ----")
        self.prompt = None
        self.dumb = False
        self.undo = UndoStack()
        self.inputs = 0  # inputs run so far: errors name them <input N>
        ans.install(session)
        colors.install(session)

    # ------------------------------------------------------------ start-up state

    def _header(self):
        a = self.args
        settings = Settings.of(a)
        changed = settings.changed()  # (what differs from the defaults, in the language)
        lines = []
        if "seed" in changed:
            lines.append(f"seed({settings.seed})")
        if "dtype" in changed:
            lines.append(f"set_default_dtype({settings.dtype})")
        if "precision" in changed:
            lines.append(f"set_printoptions(precision={settings.precision})")
        for item in getattr(a, "sets", None) or []:
            name, _, value = item.partition("=")
            lines.append(f"{name.strip()} = ({value})")
        return lines

    def apply_sets(self) -> int:
        try:
            return apply_sets(self.session, self.args.sets or [])
        except UsageError as e:
            sys.stderr.write(f"gradcli: error: {e}\n")
            return 2

    def reset(self):
        """Back to the start: no variables but --set ones, start-up seed and options."""
        self.session.scope = Scope()
        self.session.use_context(configure(self.args))
        start_total(self.session.context.limits)  # the run's memory, counted afresh
        self.transcript = Transcript(self._header())
        self.undo.clear()
        self.apply_sets()

    # ------------------------------------------------------------ running

    def run_source(self, text: str, filename: str = "<stdin>", record: bool = True) -> bool:
        """Run one input; errors and interrupts are reported, never raised.
        The statements that ran go to the transcript (for :save)."""
        from ..language.state import state

        session = self.session
        session.filename = filename
        state.steps = 0  # --max-steps counts per input here
        signal.signal(signal.SIGINT, signal.default_int_handler)
        texts = None
        if record:
            try:
                texts = statement_texts(text)
            except GradSyntaxError as e:
                session.report(e, text)
                return False
            except Exception:  # reported by session.run below
                texts = None
        done = []
        width.fit()
        if record:
            self.undo.push(self, text)
        if texts is not None:
            return self.transcript.record(
                session.out, lambda: self._run(text, filename, done), texts, done
            )
        return self._run(text, filename, done)

    def _run(self, text, filename, done):
        from ..language.compiler import state

        session = self.session
        try:
            session.run(text, filename=filename, done=done.append)
            return True
        except GradError as e:
            session.report(e, text)
        except KeyboardInterrupt:
            where = f"at line {state.line}" if state.line else "here"
            err = Interrupted(
                f"stopped {where}; the work done so far is kept "
                "(:undo goes back to before this input)",
                state.line or None,
            )
            session.report(err, text)
        except RecursionError:
            session.report(
                GradError("too deeply nested", state.line or None, type_name="LimitError"), text
            )
        except Exception as e:  # a bug in gradcli: no traceback unless --debug
            if getattr(self.args, "debug", False):
                import traceback

                traceback.print_exc()
            err = GradError(
                f"internal error: {type(e).__name__}: {e}",
                state.line or None,
                type_name="InternalError",
            )
            session.report(err, text)
        return False

    def execute(self, text: str):
        """One input from the prompt; returns QUIT to leave."""
        stripped = text.strip()
        if not stripped:
            return None
        if is_meta(text) and "\n" not in stripped:
            return run_meta(self, stripped)
        text = paste.strip_prompts(text)
        asked = help_request(stripped, self.session.scope.vars)
        if asked is not None:  # help, ?, mean?, ?mean
            return run_meta(self, ":help " + asked if asked else ":help")
        if (
            stripped in ("quit", "exit", "quit()", "exit()")
            and stripped.rstrip("()") not in self.session.scope.vars
        ):
            return QUIT
        self.inputs += 1
        self.run_source(text.rstrip() + "\n", filename=f"<input {self.inputs}>")
        release_heap()  # freed tensors' memory back while idle
        return None

    # ------------------------------------------------------------ reading

    def _make_prompt(self):
        from prompt_toolkit import PromptSession
        from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
        from prompt_toolkit.output import ColorDepth
        from prompt_toolkit.shortcuts import CompleteStyle
        from prompt_toolkit.styles import Style
        from prompt_toolkit.utils import is_dumb_terminal

        from .completer import make_completer
        from .keys import make_key_bindings
        from .lexer import STYLE, make_lexer

        self.dumb = is_dumb_terminal()
        no_color = bool(os.environ.get("NO_COLOR"))

        def continuation(width, line_number, wrap_count):
            return CONTINUATION if not wrap_count else " " * len(CONTINUATION)

        kw = {}
        if not no_color:
            kw["lexer"] = make_lexer(frozenset(self.session.builtins))
            kw["style"] = Style.from_dict(STYLE)
        else:  # no colour: the suggestion from history is underlined instead
            kw["color_depth"] = ColorDepth.DEPTH_1_BIT
            kw["style"] = Style.from_dict({"auto-suggestion": "underline"})
        if not sys.stdout.isatty() and sys.stderr.isatty():
            from prompt_toolkit.output import create_output

            kw["output"] = create_output(always_prefer_tty=True)
        prompt = PromptSession(
            history=make_history(),
            auto_suggest=AutoSuggestFromHistory(),
            completer=make_completer(lambda: self.session),
            complete_while_typing=False,
            complete_style=CompleteStyle.COLUMN,
            key_bindings=make_key_bindings(),
            enable_history_search=True,
            multiline=not self.dumb,
            prompt_continuation=continuation,
            include_default_pygments_style=False,
            enable_open_in_editor=True,
            tempfile_suffix=".ag",
            **kw,
        )
        if self.dumb:
            dumb.show_insertions(prompt)
        return prompt

    def read(self) -> str:
        """One complete input (raises KeyboardInterrupt, EOFError)."""
        if not self.dumb:
            return self.prompt.prompt(lambda: paste.prompt_text(PROMPT))
        lines = []
        while True:
            lines.append(self.prompt.prompt(CONTINUATION if lines else PROMPT))
            text = "\n".join(lines)
            if is_complete(text):
                return text

    def loop(self) -> int:
        self.prompt = self._make_prompt()
        start_total(self.session.context.limits)  # (the prompt's own memory is not the program's)
        if not self.args.quiet and not self.args.json:
            sys.stdout.write(
                f"gradcli {__version__}: PyTorch's autograd on NumPy. "
                ":help for help, Ctrl-D to leave.\n"
            )
            sys.stdout.flush()
        while True:
            try:
                text = self.read()
            except KeyboardInterrupt:  # Ctrl-C at the prompt: a fresh line
                continue
            except EOFError:  # Ctrl-D
                return 0
            try:
                if self.execute(text) is QUIT:
                    return 0
            except KeyboardInterrupt:  # between statements, or in a meta-command
                sys.stdout.flush()
                sys.stderr.write("KeyboardInterrupt\n")
                sys.stderr.flush()


def run_script(repl) -> int:
    """stdin is not a terminal: run it as a script in the session (no prompts)."""
    repl.session.out.echo_assign = False
    try:
        source = read_source("-")
    except UsageError as e:
        sys.stderr.write(f"gradcli: error: {e}\n")
        return 2
    return run_sources(repl.session, [source], getattr(repl.args, "debug", False))


def run_repl(args, session=None, preamble=None) -> int:
    """Run the REPL until Ctrl-D or `:quit`; returns the exit code.

    `session` is given by `gradcli eval -i` (its variables are kept), with
    `preamble`, the (filename, text) it ran, so that `:save` can include it."""
    repl = Repl(args, session, preamble)
    if session is None:
        code = repl.apply_sets()
        if code:
            return code
    if sys.stdin is None or not sys.stdin.isatty():
        return run_script(repl)
    return repl.loop()
