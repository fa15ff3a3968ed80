"""Help as people ask for it in a REPL: `help`, `?`, `mean?`, `?mean`, `help(mean)`
(the language's own built-in, library/help.py) and `:help [NAME|TOPIC]`.

`request(text)` recognises the first forms (which are not valid code) and says
what was asked; TOPICS are the subjects `:help` lists beside the built-ins.
"""

from __future__ import annotations

import re

_NAME_Q = re.compile(r"^\s*\?\s*([A-Za-z_][\w.]*)\s*$|^\s*([A-Za-z_][\w.]*)\s*\?\s*$")

TOPICS = {
    "undo": "an input keeps what it did before an error or Ctrl-C (as in Python); :undo goes "
    "back to before the last input (variables, .grad, the random generator), "
    "up to 20 inputs back",
    "values": "_ and ans are the last value shown; x.grad after backward; :vars lists the "
    "variables",
    "pictures": "plot(f, a, b) draws f and f'; graph(y, values=true) the graph with its "
    'gradients; graph(y, "svg") or save(graph(y), "g.svg") a picture; '
    "backward y, trace=true the engine's steps; explain(out, x) (or :explain out x) the "
    "derivative as a formula, step by step, checked against .grad",
    "paste": "code copied with >>> and ... prompts can be pasted as it is; :paste (or F6) "
    "reads lines until a line with -- (or Ctrl-D) and runs them as one input",
    "json": "gradcli eval --json writes one JSON object per line: kinds value, grad, print, "
    "assign, plot, trace, explain, error (gradcli --help lists the fields)",
}


def request(text: str, variables) -> str | None:
    """ "" for the overview (`help`, `?`), a NAME for `NAME?`/`?NAME`, None otherwise."""
    stripped = text.strip()
    if stripped == "?" or (stripped == "help" and "help" not in variables):
        return ""
    m = _NAME_Q.match(stripped)
    if m:
        return m.group(1) or m.group(2)
    return None


def topic_text(name: str) -> str | None:
    if name in TOPICS:
        return f"{name}: {TOPICS[name]}"
    return None


def topics_line() -> str:
    return "topics (:help TOPIC): " + " ".join(TOPICS)
