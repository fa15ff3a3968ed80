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
            text = "\n".join(lines).rstrip()
            rest = source[end:].split("\n", 1)[0].strip()
            if part is parts[-1] and rest.startswith(";") and rest[1:].strip()[:1] in ("", "#"):
                text += ";"  # a trailing ';' hides what it shows: kept, so a replay hides it too
            texts.append(text)
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
        self.shown: set[int] = set()  # items whose value the REPL bound to `_` and `ans`
        self.cells: list[tuple[list[int], str]] = []  # (indexes into items, what it printed)

    def add(self, text: str):
        if text.strip():
            self.items.append(text.rstrip())

    def clear(self):
        self.items.clear()
        self.shown.clear()
        self.cells.clear()

    def record(self, out, run, texts, done):
        """Call run() (returns its result); the statements of `texts` whose index
        is in `done` afterwards ran, and what run printed on `out`'s stream is
        kept as that input's cell output."""
        stream = getattr(out, "stream", None)
        tee = _Tee(stream) if stream is not None else None
        if tee is not None:
            out.stream = tee
        shown = getattr(out, "values_shown", 0)
        try:
            return run()
        finally:
            if tee is not None:
                out.stream = stream
            ran = [texts[i].rstrip() for i in done if i < len(texts) and texts[i].strip()]
            first = len(self.items)
            self.items += ran
            if ran and getattr(out, "values_shown", 0) > shown:
                from .saving import bare_expression

                last = [i for i, t in enumerate(ran) if bare_expression(t)]
                if last:
                    self.shown.add(first + last[-1])
            if ran:
                idx = list(range(first, len(self.items)))
                self.cells.append((idx, "".join(tee.kept) if tee else ""))

    def text(self) -> str:
        from .saving import with_ans

        out = ["# gradcli session; replay with: gradcli eval FILE"]
        out += self.header
        out += with_ans(self.items, self.shown)
        return "\n".join(out) + "\n"

    def save(self, path: str, args=None) -> int:
        """Write the transcript to `path` (a notebook if it ends in .ipynb: one cell per
        input, with what `gradcli eval` shows for it, made by running the cells again from
        the options `args`); returns how many statements."""
        if path.lower().endswith(".ipynb"):
            from ..notebook import notebook_json
            from .saving import notebook_outputs, with_ans

            items = with_ans(self.items, self.shown)
            sources = ["\n".join(self.header)] if self.header else []
            sources += ["\n".join(items[i] for i in idx) for idx, _ in self.cells]
            outputs = notebook_outputs(args, sources) if args is not None else None
            if outputs is None:  # the REPL's own output
                outputs = ([""] if self.header else []) + [o for _, o in self.cells]
            text = notebook_json([(s, [o]) for s, o in zip(sources, outputs)])
        else:
            text = self.text()
        with open(path, "w", encoding="utf-8") as f:
            f.write(text)
        return len(self.items)
