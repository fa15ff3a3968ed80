"""Every `$` example in README.md and docs/ runs as written and prints what the page shows.

A fenced block whose lines start with `$ ` is a shell session: each `$ ` line is a command
(a line ending in `\\` continues it; `<<'END'` takes the lines up to END as its input), and
the lines after it, up to the next `$ ` or the end of the block, are what it prints on the
terminal: stdout and stderr together, in order. The commands of one block run one after
another in one fresh directory (with `scripts/` and `tests/` of the tree linked into it),
with `gradcli` on the PATH running this tree's code. A block that needs a tool the machine
lacks (`jq`) is skipped. A page whose example no longer holds fails here.
"""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

PAGES = [ROOT / "README.md", *sorted((ROOT / "docs").rglob("*.md"))]
_FENCE = re.compile(r"^(\s*)(```+|~~~+)")
_HEREDOC = re.compile(r"<<-?\s*'?\"?(\w+)'?\"?")


def _blocks(path):
    """[(line number, [lines])] of the fenced blocks that hold a `$ ` command."""
    out, cur, start, fence = [], None, 0, None
    for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), 1):
        m = _FENCE.match(line)
        if cur is None:
            if m:
                cur, start, fence = [], n, m.group(2)
            continue
        if m and m.group(2).startswith(fence[:3]) and not line.strip()[len(m.group(2)) :]:
            if any(x.startswith("$ ") for x in cur):
                out.append((start, cur))
            cur = None
            continue
        cur.append(line)
    return out


def _session(lines):
    """[(command, expected output)] of one block."""
    steps, i = [], 0
    while i < len(lines):
        line = lines[i]
        if not line.startswith("$ "):
            i += 1
            continue
        cmd = line[2:]
        i += 1
        while cmd.endswith("\\") and i < len(lines):
            cmd += "\n" + lines[i]
            i += 1
        m = _HEREDOC.search(cmd)
        if m:
            while i < len(lines):
                cmd += "\n" + lines[i]
                i += 1
                if lines[i - 1].strip() == m.group(1):
                    break
        expected = []
        while i < len(lines) and not lines[i].startswith("$ "):
            expected.append(lines[i])
            i += 1
        steps.append((cmd, "\n".join(expected).rstrip("\n")))
    return steps


def _cases():
    for page in PAGES:
        for start, lines in _blocks(page):
            yield pytest.param(page, lines, id=f"{page.relative_to(ROOT)}:{start}")


@pytest.fixture(scope="module")
def bindir(tmp_path_factory):
    d = tmp_path_factory.mktemp("bin")
    (d / "gradcli").write_text(
        f'#!/bin/sh\nPYTHONPATH="{ROOT}" exec "{sys.executable}" -m gradcli "$@"\n'
    )
    (d / "gradcli").chmod(0o755)
    os.symlink(sys.executable, d / "python3")
    return d


@pytest.mark.parametrize("page,lines", list(_cases()))
def test_example(page, lines, bindir, tmp_path):
    steps = _session(lines)
    if any(re.search(r"\bjq\b", cmd) for cmd, _ in steps) and shutil.which("jq") is None:
        pytest.skip("jq is not installed")
    for name in ("scripts", "tests"):
        os.symlink(ROOT / name, tmp_path / name)
    # a reader's terminal: not dumb, NO_COLOR unset (an example that needs it sets it)
    drop = ("GRADCLI_", "COLUMNS", "LINES", "NO_COLOR")
    env = {k: v for k, v in os.environ.items() if not k.startswith(drop)}
    env.update(PATH=f"{bindir}{os.pathsep}{env.get('PATH', '')}", TERM="xterm-256color")
    rc = 0
    for cmd, expected in steps:
        r = subprocess.run(
            ["bash", "-c", f"(exit {rc}); {cmd}"],  # `echo $?` sees the command before
            cwd=tmp_path,
            env=env,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            text=True,
            timeout=120,
        )
        rc = r.returncode
        got = "\n".join(line.rstrip() for line in r.stdout.rstrip("\n").split("\n"))
        want = "\n".join(line.rstrip() for line in expected.split("\n"))
        assert got == want, f"$ {cmd}\n--- the page shows\n{want}\n--- it printed\n{got}"


def test_pages_have_examples():
    """The parser finds the examples (a change of fence style would silently skip them)."""
    found = {page.name for page, _ in ((p, b) for p in PAGES for b in _blocks(p))}
    assert {"README.md", "recipes.md", "scripting.md"} <= found


_PATH = re.compile(r"`([\w.*/-]+/[\w.*-]+\.(?:py|json|lark|ag|ipynb|md|toml))[`:]")


def test_named_files_exist():
    """Every file the pages name (`gradcli/...`, `tests/...`, or a module path relative to
    gradcli/ such as `engine/schedule.py`) is in the tree; `seed_00N` stands for several."""
    missing = []
    for page in [*PAGES, ROOT / "CHANGELOG.md"]:
        for m in _PATH.finditer(page.read_text(encoding="utf-8")):
            pattern = m.group(1).replace("00N", "00*")
            if not any(list(base.glob(pattern)) for base in (ROOT, ROOT / "gradcli")):
                missing.append(f"{page.relative_to(ROOT)}: {m.group(1)}")
    assert not missing, "files named in the docs that are not in the tree:\n" + "\n".join(missing)
