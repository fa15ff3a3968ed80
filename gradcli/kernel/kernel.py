"""The gradcli Jupyter kernel: ipykernel's base `Kernel` (a wrapper kernel)
with one gradcli session.  Cells run as `gradcli eval NB.ipynb` runs them
(gradcli/notebook.py): the last bare expression of a cell is its
`execute_result`, `print`/`display`/`backward` output are stdout streams,
warnings stderr, and an error is an `error` message whose traceback is
gradcli's caret text.  Completion, inspection and is-complete are the REPL's.
"""

from __future__ import annotations

import re
import sys

from ipykernel.kernelapp import IPKernelApp
from ipykernel.kernelbase import Kernel

from .. import __version__
from ..runtime.errors import GradError, Interrupted, fill_column, render
from ..runtime.stack import deepen
from ..core.printing import show
from ..language.state import state
from ..notebook import run_cell, strip_magics
from ..repl.completer import complete, describe, resolve
from ..repl.meta import help_name
from ..repl.validator import ends_early, is_complete
from ..session import Session


def mime_bundle(v) -> dict:
    """text/plain always; image/svg+xml for a value that can draw itself (a
    `_repr_svg_` method, as IPython's display protocol has it), text/latex for one that
    has a formula (`_repr_latex_`: explain's)."""
    data = {"text/plain": show(v)}
    tex = getattr(type(v), "_repr_latex_", None)
    if callable(tex):
        try:
            data["text/latex"] = tex(v)
        except Exception:  # a formula that fails still shows as text
            pass
    svg = getattr(type(v), "_repr_svg_", None)
    if callable(svg):
        try:
            text = svg(v)
        except Exception:  # a picture that fails still shows as text
            text = None
        if text:
            data["image/svg+xml"] = text
    return data


class KernelOutput:
    """A session's output sent as Jupyter messages."""

    quiet = False
    echo_assign = False

    def __init__(self, kernel):
        self.kernel = kernel
        self.fields = {}

    def value(self, v, line):
        self.kernel.send_result(v)

    def assign(self, name, v, line):
        pass

    def grad(self, name, g, line):
        self.print(f"{name}.grad = {show(g)}\n")

    def print(self, text):
        self.kernel.send_stream("stdout", text)

    def record(self, kind, fields, text):
        self.print(text + "\n")

    def figure(self, kind, fig, file):
        """A plot: shown as its SVG picture (and a text description), unless written to a file."""
        if file is None:
            self.kernel.send_display(fig)

    def error(self, err, rendered):
        self.kernel.send_stream("stderr", rendered + "\n")


_WORD_AT = re.compile(r"[A-Za-z_][\w.]*$")
_WORD_FROM = re.compile(r"^\w*")


class GradcliKernel(Kernel):
    implementation = "gradcli"
    implementation_version = __version__
    language = "gradcli"
    language_version = __version__
    language_info = {
        "name": "gradcli",
        "version": __version__,
        "mimetype": "text/x-python",
        "file_extension": ".ag",
        "pygments_lexer": "python3",
        "codemirror_mode": "python",
    }
    banner = f"gradcli {__version__}: PyTorch's autograd on NumPy"
    help_links = []

    def __init__(self, **kwargs):
        super().__init__(**kwargs)
        deepen()  # room on the C stack, and Python's recursion limit that fits in it
        self.gc = Session(KernelOutput(self), filename="<cell>")

    # ---------------------------------------------------------- output
    def send_stream(self, name, text):
        if text and not self._silent:
            self.send_response(self.iopub_socket, "stream", {"name": name, "text": text})

    def send_result(self, v):
        if not self._silent:
            self.send_response(
                self.iopub_socket,
                "execute_result",
                {"execution_count": self.execution_count, "data": mime_bundle(v), "metadata": {}},
            )

    def send_display(self, v):
        if not self._silent:
            self.send_response(
                self.iopub_socket, "display_data", {"data": mime_bundle(v), "metadata": {}}
            )

    _silent = False

    # ---------------------------------------------------------- execute
    async def do_execute(
        self, code, silent, store_history=True, user_expressions=None, allow_stdin=False, **kwargs
    ):
        self._silent = silent
        code, skipped = strip_magics(code)
        where = f"<cell {self.execution_count}>"
        for line, text in skipped:
            kind = "shell command" if text.startswith("!") else "IPython magic"
            self.send_stream(
                "stderr", f"{where}:{line}: note: skipped {kind} {text!r} (not gradcli)\n"
            )
        self.gc.activate()
        err = None
        try:
            run_cell(self.gc, code, where)
        except GradError as e:
            err = fill_column(e, e.origin[1] if e.origin else code)
        except KeyboardInterrupt:
            err = fill_column(Interrupted("interrupted", state.line or None), code)
        except RecursionError:
            err = fill_column(
                GradError("maximum recursion depth exceeded", type_name="LimitError"), code
            )
        except Exception as e:  # a bug in gradcli: reported, the kernel goes on
            err = fill_column(
                GradError(f"internal error: {type(e).__name__}: {e}", type_name="InternalError"),
                code,
            )
        finally:
            sys.stdout.flush()
            sys.stderr.flush()
        if err is None:
            return {
                "status": "ok",
                "execution_count": self.execution_count,
                "payload": [],
                "user_expressions": {},
            }
        filename, source = err.origin or (where, code)
        content = {
            "ename": err.type_name,
            "evalue": err.message,
            "traceback": render(err, filename, source).split("\n"),
        }
        if not silent:
            self.send_response(self.iopub_socket, "error", content)
        return {"status": "error", "execution_count": self.execution_count, **content}

    # ---------------------------------------------------------- console helpers
    async def do_complete(self, code, cursor_pos):
        cursor_pos = len(code) if cursor_pos is None else cursor_pos
        try:
            cands = complete(code[:cursor_pos], self.gc)
        except Exception:  # completion must never break the kernel
            cands = []
        start = cursor_pos + (cands[0].start if cands else 0)
        return {
            "status": "ok",
            "matches": [c.text for c in cands],
            "cursor_start": start,
            "cursor_end": cursor_pos,
            "metadata": {
                "_jupyter_types_experimental": [
                    {"start": start, "end": cursor_pos, "text": c.text, "type": c.meta}
                    for c in cands
                ]
            },
        }

    def _help(self, code, cursor_pos):
        """The REPL's :help text for the name at the cursor (a variable: what it holds)."""
        left = _WORD_AT.search(code[:cursor_pos])
        right = _WORD_FROM.match(code[cursor_pos:])
        word = ((left.group(0) if left else "") + (right.group(0) if right else "")).strip(".")
        if not word:
            return None
        first = word.split(".")[0]
        if "." in word and first in self.gc.scope.vars:  # x.grad: what it holds now
            try:
                return f"{word}: {describe(resolve(word.split('.'), self.gc))}"
            except Exception:
                return help_name(word.rsplit(".", 1)[1], self.gc)
        text = help_name(word, self.gc)
        return text

    async def do_inspect(self, code, cursor_pos, detail_level=0, omit_sections=()):
        cursor_pos = len(code) if cursor_pos is None else cursor_pos
        try:
            text = self._help(code, cursor_pos)
        except Exception:
            text = None
        return {
            "status": "ok",
            "found": text is not None,
            "data": {"text/plain": text} if text else {},
            "metadata": {},
        }

    async def do_is_complete(self, code):
        if code.strip() and ends_early(code) is None:
            return {"status": "invalid"}
        if is_complete(code):
            return {"status": "complete"}
        last = code.rstrip("\n").split("\n")[-1]
        indent = last[: len(last) - len(last.lstrip())]
        return {
            "status": "incomplete",
            "indent": indent + ("    " if last.rstrip().endswith(":") else ""),
        }

    async def do_shutdown(self, restart):
        return {"status": "ok", "restart": restart}


def main():
    IPKernelApp.launch_instance(kernel_class=GradcliKernel)
