"""What the REPL remembers: the input history across runs (a prompt_toolkit
FileHistory under $XDG_STATE_HOME), and the transcript of the statements that
ran, which `:save` writes as an `.ag` file that `gradcli eval` replays."""

from __future__ import annotations

import os
import sys

from ..language.parser import parse


def history_path() -> str:
    base = os.environ.get("XDG_STATE_HOME") or os.path.join(
        os.path.expanduser("~"), ".local", "state"
    )
    return os.path.join(base, "gradcli", "history")


def make_history():
    """FileHistory at history_path(); in memory if that cannot be written."""
    from prompt_toolkit.history import FileHistory, InMemoryHistory

    path = history_path()
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "a", encoding="utf-8"):
            pass
        return FileHistory(path)
    except OSError as e:
        sys.stderr.write(f"gradcli: history not kept ({path}: {e.strerror})\n")
        return InMemoryHistory()


def statement_texts(source: str) -> list[str]:
    """The source text of each top-level statement, in the order in which
    `Session.run` runs them (one per `;`-separated statement of a line, one per
    compound statement)."""
    tree = parse(source)
    texts = []
    for node in tree.children:
        if node is None or not hasattr(node, "data"):
            continue
        parts = (
            [c for c in node.children if c is not None] if node.data == "simple_stmt" else [node]
        )
        for part in parts:
            meta = getattr(part, "meta", None)
            start = getattr(meta, "start_pos", None)
            end = getattr(meta, "end_pos", None)
            if start is None or end is None:
                texts.append("")
                continue
            # a compound statement's text runs from its keyword to the end of its
            # block, and takes the comment lines after it: those are dropped
            lines = source[start:end].rstrip().split("\n")
            while len(lines) > 1 and lines[-1].lstrip().startswith("#"):
                lines.pop()
            texts.append("\n".join(lines).rstrip())
    return texts


class _Tee:
    """A stream that also keeps what was written (the output of one REPL input)."""

    def __init__(self, stream):
        self.stream = stream
        self.kept = []

    def write(self, text):
        self.kept.append(text)
        return self.stream.write(text)

    def flush(self):
        self.stream.flush()


class Transcript:
    """The statements that ran successfully, in order, and for a notebook the
    inputs with what they printed."""

    def __init__(self, header=()):
        self.header = list(header)  # lines that recreate the start-up state
        self.items: list[str] = []
        self.cells: list[tuple[str, str]] = []

    def add(self, text: str):
        if text.strip():
            self.items.append(text.rstrip())

    def clear(self):
        self.items.clear()
        self.cells.clear()

    def record(self, out, run, texts, done):
        """Call run() (returns its result); the statements of `texts` whose index
        is in `done` afterwards ran, and what run printed on `out`'s stream is
        kept as that input's cell output."""
        stream = getattr(out, "stream", None)
        tee = _Tee(stream) if stream is not None else None
        if tee is not None:
            out.stream = tee
        try:
            return run()
        finally:
            if tee is not None:
                out.stream = stream
            ran = [texts[i].rstrip() for i in done if i < len(texts) and texts[i].strip()]
            self.items += ran
            if ran:
                self.cells.append(("\n".join(ran), "".join(tee.kept) if tee else ""))

    def text(self) -> str:
        out = ["# gradcli session; replay with: gradcli eval FILE"]
        out += self.header
        out += self.items
        return "\n".join(out) + "\n"

    def save(self, path: str) -> int:
        """Write the transcript to `path` (a notebook if it ends in .ipynb: one
        cell per input, with its output); returns how many statements."""
        if path.lower().endswith(".ipynb"):
            from ..notebook import notebook_json

            cells = ([("\n".join(self.header), "")] if self.header else []) + self.cells
            text = notebook_json(cells)
        else:
            text = self.text()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return len(self.items)
