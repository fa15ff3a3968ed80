"""The differences from PyTorch that the differential test allows: each has an entry,
with its reason, in the README's "Known differences from PyTorch" (the test checks that
the two lists name the same ids). Each is recognised narrowly: by its kind, by the kind
of record it is in, and by what the program does."""

from __future__ import annotations

import re

from .runner import numbers, records


def _first_difference(t, g):
    for (tl, tt), (_, gt) in zip(records(t["stdout"]), records(g["stdout"])):
        if tt != gt:
            return tl, tt, gt
    return None, "", ""


def _first_differing_label(t, g):
    return _first_difference(t, g)[0]


def _zero_or_noise(t, g):
    """Every number that differs is a zero of the other sign, or rounding noise (under
    1e-12) around a value that is exactly 0."""
    _, tt, gt = _first_difference(t, g)
    pairs = [(a, b) for a, b in zip(numbers(tt), numbers(gt)) if repr(a) != repr(b)]
    return bool(pairs) and all(a == b or max(abs(a), abs(b)) < 1e-12 for a, b in pairs)


def _last_bit(source, t, g):
    """A printed value one unit off in its last digit in a derivative of the second order
    or in float32 arithmetic; anywhere, a zero of the other sign or noise around 0."""
    return "create_graph=True" in source or "torch.float32" in source or _zero_or_noise(t, g)


_PIECES = re.compile(r"\b(chunk|split|unbind)\(")


def _create_graph_name(source, t, g):
    """A grad_fn name on a gradient made with create_graph=True (a `grad:` record) in a
    program that cuts a tensor into pieces (chunk, split, unbind): the forward graph's
    names, and the other gradients' names, are not allowed to differ."""
    return (
        "create_graph=True" in source
        and _PIECES.search(source) is not None
        and _first_differing_label(t, g) == "grad"
    )


ALLOWED = {
    "last-bit": (("last bit",), _last_bit),
    "create-graph-names": (("grad_fn name",), _create_graph_name),
}


def which(source, t, g, kind):
    """The id of the allowed difference this is, or None."""
    for ident, (kinds, match) in ALLOWED.items():
        if kind in kinds and match(source, t, g):
            return ident
    return None
