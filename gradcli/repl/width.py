"""Tensors wrapped at the terminal's width in the REPL.

PyTorch lays out a tensor for 80 columns; in a narrower terminal those lines
would wrap in the middle of a number, so before each input the REPL sets the
printing width to the terminal's (at most 80, so that what it shows is still
what PyTorch prints; at least 40)."""

from __future__ import annotations

import shutil

from ..runtime import context


def fit():
    cols = shutil.get_terminal_size((80, 24)).columns
    context.current.linewidth = max(40, min(80, cols))
