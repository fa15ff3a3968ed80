"""An error in a function defined in a function shows the text it was defined in: a
closure made in one input of a session (the REPL's) and called in a later one, after the
function around it ran again, has the lines of the input that defined the function
around (as CPython's traceback shows the defining file's lines), in both tiers."""

from __future__ import annotations

import io

import pytest

from gradcli.output import TextOutput
from gradcli.runtime.errors import GradError, render
from gradcli.session import Session

INPUTS = (
    "def outer(a):\n    def inner(b):\n        return b + 's'\n    return inner\n",
    "f = outer(1)\n",
    "g = outer(2)\nz = 3\nf(4)\n",
)


@pytest.mark.parametrize("fast", [True, False])
def test_a_closure_called_in_a_later_input_shows_its_own_lines(fast):
    s = Session(TextOutput(io.StringIO()))
    s.context.fast_tier = fast
    for source in INPUTS[:-1]:
        s.run(source)
    with pytest.raises(GradError) as got:
        s.run(INPUTS[-1])
    text = render(got.value, "<stdin>", INPUTS[-1])
    assert "unsupported operand type(s) for +: 'int' and 'str'" in text, text
    assert "3:18 in inner: return b + 's'" in text, text
