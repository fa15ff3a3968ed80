"""TERM=dumb: show what a completion inserts.

On a dumb terminal prompt_toolkit cannot redraw the input; it echoes only the
last character before the cursor after each change.  A completion inserts
several characters at once, so the screen showed one of them while Enter ran
the whole completed word.  This handler writes the rest of an insertion (before
prompt_toolkit writes its last character), so what is shown is what runs.
"""

from __future__ import annotations


def show_insertions(prompt_session):
    buffer = prompt_session.default_buffer
    output = prompt_session.output
    state = {"prev": ""}

    def on_text_changed(_):
        text = buffer.document.text_before_cursor
        prev = state["prev"]
        if text.startswith(prev) and len(text) - len(prev) > 1:
            output.write(text[len(prev) : -1])
            output.flush()
        state["prev"] = text

    # added before the dumb prompt's own handler, so it runs first
    buffer.on_text_changed += on_text_changed
