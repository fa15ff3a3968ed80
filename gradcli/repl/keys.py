"""Key bindings of the REPL's prompt (on top of prompt_toolkit's Emacs ones).

- Enter runs the input when the parser says it is complete, otherwise it
  starts a new line with the right indentation (`... ` is shown before it):
  four more spaces after a line ending in `:`, four fewer after `return`,
  `pass`, `break` or `continue`.  In a block, an empty line ends the input.
- Escape Enter runs the input as it is.
- Enter after an `else:` / `elif ...:` typed at the block's indentation moves it
  out to the `if` it belongs to (a misplaced one that fits nowhere keeps the
  input open, for fixing, instead of running it).
- Tab at the start of a line indents; elsewhere it completes (a second Tab
  goes to the next candidate); Shift-Tab goes back.
- Backspace in the indentation removes one level (four spaces).
- Enter with a selection (Ctrl-Space sets the mark) drops it and acts as above.
- A line arriving at once (a paste the terminal does not mark) that begins with its own
  indentation replaces the indentation Enter put on its line, so a pasted indented
  block is not indented twice.
- Ctrl-C clears the input, Ctrl-D on an empty line leaves, Ctrl-R searches the
  history, Right arrow (or Ctrl-E) takes the suggestion from history.
"""

from __future__ import annotations

import re

from prompt_toolkit.application.current import get_app
from prompt_toolkit.enums import DEFAULT_BUFFER
from prompt_toolkit.filters import (
    Condition,
    completion_is_selected,
    emacs_insert_mode,
    has_focus,
    has_selection,
)
from prompt_toolkit.key_binding import KeyBindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.utils import is_dumb_terminal

from .validator import fix_continuation, is_complete

INDENT = "    "
_DEDENTERS = re.compile(r"^\s*(return\b|pass\s*$|break\s*$|continue\s*$)")


def _strip_comment(line: str) -> str:
    from .lexer import tokens

    return "".join(
        v
        for k, v, _ in tokens(line)
        if k not in ("COMMENT",) and not (k == "_NEWLINE" and "#" in v)
    ).rstrip()


def next_indent(line: str) -> str:
    """Indentation for the line after `line`."""
    indent = line[: len(line) - len(line.lstrip())].replace("\t", INDENT)
    code = _strip_comment(line)
    if code.endswith(":"):
        return indent + INDENT
    if _DEDENTERS.match(code):
        return indent[: -len(INDENT)] if len(indent) >= len(INDENT) else ""
    return indent


def newline_and_indent(buffer):
    before = buffer.document.current_line_before_cursor
    buffer.insert_text("\n" + next_indent(before))


def should_run(document) -> bool:
    """Enter runs the input (rather than adding a line)."""
    text = document.text
    at_end = not document.text_after_cursor.strip()
    single = "\n" not in text
    return (at_end or single) and is_complete(text)


def make_key_bindings() -> KeyBindings:
    kb = KeyBindings()
    focused = has_focus(DEFAULT_BUFFER)

    @Condition
    def line_start() -> bool:
        """Only spaces before the cursor on this line."""
        before = get_app().current_buffer.document.current_line_before_cursor
        return not before.strip()

    @Condition
    def in_indent() -> bool:
        before = get_app().current_buffer.document.current_line_before_cursor
        return bool(before) and not before.strip(" ")

    @kb.add("enter", filter=focused & completion_is_selected)
    def _take_completion(event):
        """Enter on a selected completion keeps it, and runs nothing."""
        event.current_buffer.complete_state = None

    @kb.add("enter", filter=focused & ~completion_is_selected)
    def _enter(event):
        b = event.current_buffer
        b.complete_state = None
        b.exit_selection()  # (Ctrl-Space, a typed NUL, sets the mark: Enter still runs)
        if not b.document.text_after_cursor.strip():
            fixed = fix_continuation(b.document.text)  # `else:` indented too far
            if fixed is not None:
                b.text = fixed
                b.cursor_position = len(fixed)
        if should_run(b.document):
            b.validate_and_handle()
        else:
            newline_and_indent(b)

    @kb.add("tab", filter=focused & line_start & ~has_selection)
    def _indent(event):
        b = event.current_buffer
        col = len(b.document.current_line_before_cursor)
        b.insert_text(" " * (len(INDENT) - col % len(INDENT)))

    @kb.add("tab", filter=focused & ~line_start)
    def _complete(event):
        b = event.current_buffer
        if b.complete_state:
            b.complete_next()
        else:
            b.start_completion(insert_common_part=True)

    @kb.add("s-tab", filter=focused)
    def _complete_back(event):
        b = event.current_buffer
        if b.complete_state:
            b.complete_previous()

    @kb.add("backspace", filter=focused & in_indent & ~has_selection)
    def _dedent(event):
        b = event.current_buffer
        col = len(b.document.current_line_before_cursor)
        b.delete_before_cursor(count=(col - 1) % len(INDENT) + 1)

    quoted = Condition(lambda: get_app().quoted_insert)  # (Ctrl-V: the next key as it is)
    # (a dumb terminal echoes each key as it comes: dumb.py shows what it does not)
    dumb = Condition(is_dumb_terminal)

    @kb.add(Keys.Any, filter=focused & emacs_insert_mode & ~quoted & ~dumb)
    def _self_insert(event):
        """A character typed goes in with the plain characters queued after it, in one
        insertion: text arriving faster than it is typed (a paste the terminal does not
        mark) takes a key-binding lookup and a redraw per line, not per character."""
        queue = event.app.key_processor.input_queue
        more = []
        while queue and _plain(queue[0]):
            more.append(queue.popleft().data)
        text = event.data * event.arg + "".join(more)
        b = event.current_buffer
        if own_indentation(b.document.current_line_before_cursor, text):
            b.delete_before_cursor(len(b.document.current_line_before_cursor))
        b.insert_text(text)

    from .paste import add_bindings

    add_bindings(kb)
    return kb


def own_indentation(before: str, text: str) -> bool:
    """Whether `text`, arriving at once (a line of a paste the terminal does not mark)
    on a line holding only the indentation Enter put there (`before`), brings its own
    indentation, which then replaces that one: a pasted indented block keeps its
    indentation instead of getting it twice.  A key typed alone is added as it is."""
    return (
        len(text) > 1
        and text[0] in " \t"
        and bool(text.strip())
        and bool(before)
        and not before.strip()
    )


def _plain(key_press) -> bool:
    """A printable character that no binding but self-insertion handles."""
    key = key_press.key
    return type(key) is str and len(key) == 1 and key.isprintable() and key_press.data == key
