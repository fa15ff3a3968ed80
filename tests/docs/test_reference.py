"""The documentation's built-in reference and help for the names of the torch namespace.

The reference (gradcli/repl/reference.py, written into the site by scripts/docs_hooks.py
at build time) is made from the op table, so it must list every registered name; every
module, class and function under `torch` must have a one-line doc, so `help` and `NAME?`
never answer "no help" for a supported name.
"""

from __future__ import annotations

import os

import pytest

from gradcli.library import name_docs
from gradcli.ops.registry import BUILTINS, METHOD_ONLY
from gradcli.repl import reference


@pytest.fixture(scope="module")
def markdown():
    return reference.markdown()


def test_reference_lists_every_registered_name(markdown):
    missing = [n for n in BUILTINS if f"`{n}`" not in markdown]
    missing += [n for n in METHOD_ONLY if f"`x.{n}`" not in markdown]
    missing += [q for q, _ in name_docs.walk() if f"`{q}`" not in markdown]
    assert not missing, f"not in the reference: {missing}"
    assert reference.names() >= set(BUILTINS)


def test_every_entry_shows_its_signature_and_doc(markdown):
    for e in list(BUILTINS.values()) + list(METHOD_ONLY.values()):
        assert e.doc and e.doc in markdown, e.name
        assert reference._cell(e.sig) in markdown, e.name


def test_every_namespace_name_has_a_doc():
    undocumented = [q for q, v in name_docs.walk() if not name_docs.doc(q, v)]
    assert not undocumented, f"add a line to name_docs.DOCS: {undocumented}"


def test_docs_table_names_only_what_exists():
    names = {q for q, _ in name_docs.walk()}
    stale = sorted(set(name_docs.DOCS) - names)
    assert not stale, f"name_docs.DOCS names what the namespace no longer has: {stale}"


@pytest.mark.parametrize(
    "typed,first_line",
    [
        ("nn.Linear", "torch.nn.Linear(in_features, out_features"),
        ("torch.nn.Linear", "torch.nn.Linear(in_features, out_features"),
        ("vmap", "torch.func.vmap(func, in_dims=0"),
        ("func.grad", "torch.func.grad(func, argnums=0"),
        ("torch.func", "torch.func"),
        ("F.linear", "torch.nn.functional.linear(input, weight"),
        ("DataLoader", "torch.utils.data.DataLoader(dataset"),
    ],
)
def test_find_and_text(typed, first_line):
    found = name_docs.find(typed)
    assert found is not None, typed
    text = name_docs.text(*found)
    assert text.split("\n")[0].startswith(first_line), text
    assert "no help" not in text


@pytest.fixture(scope="module")
def session():
    from gradcli.cli import _parser
    from gradcli.driver import make_session

    s = make_session(_parser("gradcli").parse_args([]), echo_assign=True)
    s.out.stream = open(os.devnull, "w")
    yield s
    s.out.stream.close()


@pytest.mark.parametrize(
    "typed,needle",
    [
        ("nn.Linear", "a fully connected layer"),
        ("vmap", "f run on a batch"),
        ("torch.func.grad", "the gradient of the scalar f"),
        ("torch.func", "members: functional_call grad"),
        ("mean", "mean("),
        ("torch.optim.SGD", "SGD(params, lr="),
        ("torch.nn", "members: "),
    ],
)
def test_repl_help_for_supported_names(session, typed, needle):
    from gradcli.repl.meta import help_name

    text = help_name(typed, session)
    assert text is not None and needle in text, text


def test_help_builtin_on_classes_and_modules(capsys):
    from conftest import run_gradcli

    r = run_gradcli("from torch import nn\nhelp(nn.Linear)\nhelp(torch.func)\nhelp('vmap')\n")
    assert r.returncode == 0, r.stderr
    assert "a fully connected layer" in r.stdout
    assert "function transforms" in r.stdout
    assert "torch.func.vmap(" in r.stdout
