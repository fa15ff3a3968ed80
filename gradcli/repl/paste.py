"""Pasting code: prompts taken off, and a paste mode for terminals that do not say
where a paste begins and ends.

- `strip_prompts(text)`: code copied from a Python or gradcli session (`>>> `,
  `... ` before each line, output lines between) becomes the code alone: when
  the first non-blank line starts with `>>>`, the lines with a prompt keep their
  code and the others (the output shown in the session) are dropped.
- A bracketed paste (most terminals) goes into the input with its prompts taken
  off; the input is run when Enter is pressed, as typed text is.
- F6 turns paste mode on and off: while it is on, Enter only starts a new line
  (nothing is run or indented); F6 again (or Escape Enter) and Enter runs it.
- `:paste` reads lines as they come (no editing, no indenting) until a line
  `--` or Ctrl-D, and runs them as one input.
"""

from __future__ import annotations

import re
import sys

_PROMPT = re.compile(r"^(>>>|\.\.\.)( |$)")


def strip_prompts(text: str) -> str:
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    first = next((l for l in lines if l.strip()), "")
    if not first.lstrip().startswith(">>>"):
        return text
    out = []
    for line in lines:
        m = _PROMPT.match(line.lstrip())
        if m:
            out.append(line.lstrip()[m.end() :])
    return "\n".join(out)


class PasteMode:
    on = False


def add_bindings(kb):
    from prompt_toolkit.filters import Condition
    from prompt_toolkit.keys import Keys

    pasting = Condition(lambda: PasteMode.on)

    @kb.add(Keys.BracketedPaste)
    def _paste(event):
        event.current_buffer.insert_text(strip_prompts(event.data))

    @kb.add("f6")
    def _toggle(event):
        PasteMode.on = not PasteMode.on
        event.app.invalidate()

    @kb.add("enter", filter=pasting, eager=True)
    def _newline(event):
        event.current_buffer.insert_text("\n")


def prompt_text(prompt: str) -> str:
    return "(paste mode, F6 ends it) " + prompt if PasteMode.on else prompt


def cmd_paste(repl, arg):
    sys.stdout.write("paste mode: paste the code, then a line -- (or Ctrl-D) to run it\n")
    sys.stdout.flush()
    lines = []
    while True:
        line = sys.stdin.readline()
        if not line:  # Ctrl-D (end of input)
            break
        line = line.rstrip("\r\n")
        if line.strip() == "--":
            break
        lines.append(line)
    text = strip_prompts("\n".join(lines))
    if text.strip():
        repl.inputs += 1
        repl.run_source(text.rstrip() + "\n", filename=f"<input {repl.inputs}>")
