"""Calls leave no reference cycles: what a call made (its scope, the graph its
tensors hold) is freed by reference counting when the call returns, as in CPython,
not later by the cyclic collector (which gradcli runs rarely: runtime/gctune.py).
A loop calling a `def` 100,000 times keeps its memory flat this way."""

from __future__ import annotations

import gc
import io

import pytest

from gradcli.output import TextOutput
from gradcli.session import Session

SETUP = """
import torch
W = torch.randn(4, 3, requires_grad=True)
x = torch.randn(3)
def plain(x):
    y = torch.tanh(W @ x)
    return y.sum()
def nested(x):
    def inner(v):
        return (v * 2).sum()
    return inner(W @ x)
class Model:
    def __init__(self, w):
        self.w = w
    def __call__(self, x):
        return (self.w @ x).relu().sum()
    def loss(self, x):
        return self(x) ** 2
model = Model(W)
def with_comprehension(x):
    return sum([(W[i] * x).sum() for i in range(2)])
def gen(x):
    for i in range(2):
        yield (W[i] * x).sum()
def with_try(x):
    try:
        raise ValueError("no")
    except ValueError as e:
        return (W @ x).sum()
def with_lambda(x):
    f = lambda v: (v ** 2).sum()
    return f(W @ x)
def with_kwargs(x, *args, scale=1.0, **kw):
    return (W @ x).sum() * scale
"""

CALLS = {
    "a def": "l = plain(x)",
    "a nested def": "l = nested(x)",
    "a method and __call__": "l = model.loss(x)",
    "a comprehension in a def": "l = with_comprehension(x)",
    "a generator": "l = sum(gen(x))",
    "a def with try/except": "l = with_try(x)",
    "a lambda": "l = with_lambda(x)",
    "keyword arguments": "l = with_kwargs(x, 1, scale=2.0, other=3)",
    "backward in the loop": "l = plain(x)\n    l.backward()",
}


@pytest.mark.parametrize("call", list(CALLS), ids=list(CALLS))
def test_a_call_leaves_no_cycle(call):
    session = Session(TextOutput(io.StringIO()))
    session.run(SETUP)
    loop = f"for i in range(20):\n    {CALLS[call]}\n"
    session.run(loop)  # once, so that what is made once per program is made
    gc.collect()
    was = gc.get_debug()
    gc.disable()
    gc.set_debug(gc.DEBUG_SAVEALL)
    try:
        session.run(loop)
        gc.collect()
        kinds = sorted({type(o).__name__ for o in gc.garbage})
        n = len(gc.garbage)
    finally:
        gc.set_debug(was)
        gc.garbage.clear()
        gc.enable()
    assert n == 0, f"{n} objects in reference cycles after the calls: {kinds}"


def test_a_function_that_escapes_keeps_its_scope(capsys):
    """A closure returned, stored elsewhere, or defined beside one that escaped still
    sees the variables of the call that made it."""
    from conftest import run_inprocess

    r = run_inprocess(
        "def make(k):\n"
        "    def f(v):\n"
        "        return v * k\n"
        "    return f\n"
        "print(make(3)(2))\n"
        "keep = []\n"
        "def stash(k):\n"
        "    def g(v):\n"
        "        return v + k\n"
        "    def h(v):\n"
        "        return g(v) * 2\n"
        "    keep.append(h)\n"
        "stash(10)\n"
        "print(keep[0](1))\n"
        "def pair(k):\n"
        "    a = lambda: k\n"
        "    b = lambda: a() + 1\n"
        "    return b\n"
        "print(pair(5)())\n"
        "def rec(n):\n"
        "    def fact(m):\n"
        "        return 1 if m <= 1 else m * fact(m - 1)\n"
        "    return fact(n)\n"
        "print(rec(5))\n"
    )
    assert r.stdout.split() == ["6", "22", "6", "120"], r.stderr


def test_an_except_alias_is_unbound_after_its_handler():
    """As in Python (the error's traceback would otherwise hold the scope in a cycle)."""
    from conftest import run_inprocess

    r = run_inprocess(
        "try:\n    raise ValueError('v')\nexcept ValueError as err:\n    print(err)\nprint(err)\n"
    )
    assert r.stdout.split() == ["v"]
    assert "NameError: name 'err' is not defined" in r.stderr
