"""Errors in colour in the REPL: the place bold, `Type: message` red, the caret red,
the hint green, the call chain dim.  Only when stderr is a terminal and NO_COLOR
is not set (https://no-color.org); the text is otherwise unchanged."""

from __future__ import annotations

import os
import re
import sys

RED, BOLD_RED, GREEN, BOLD, DIM, RESET = (
    "\x1b[31m",
    "\x1b[1;31m",
    "\x1b[32m",
    "\x1b[1m",
    "\x1b[2m",
    "\x1b[0m",
)
_HEAD = re.compile(r"^(.*?:(?:\d+:)*\s?)([A-Za-z]+(?:Error|Interrupt)?: .*)$")


def enabled(stream=None) -> bool:
    if os.environ.get("NO_COLOR"):
        return False
    stream = stream or sys.stderr
    try:
        return stream.isatty()
    except (AttributeError, ValueError):
        return False


def colorize(rendered: str) -> str:
    out = []
    in_chain = False
    for i, line in enumerate(rendered.split("\n")):
        if i == 0:
            m = _HEAD.match(line)
            out.append(
                f"{BOLD}{m.group(1)}{RESET}{BOLD_RED}{m.group(2)}{RESET}"
                if m
                else f"{BOLD_RED}{line}{RESET}"
            )
        elif line.strip() == "^":
            out.append(f"{RED}{line}{RESET}")
        elif line.startswith("hint: "):
            out.append(f"{GREEN}{line}{RESET}")
        elif line.startswith("call chain") or in_chain:
            in_chain = True
            out.append(f"{DIM}{line}{RESET}")
        else:
            out.append(line)
    return "\n".join(out)


def install(session):
    if not enabled():
        return
    out = session.out
    report = out.error

    def error(err, rendered):
        report(err, colorize(rendered))

    out.error = error
