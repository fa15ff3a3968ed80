"""MkDocs hooks (mkdocs.yml `hooks:`): the built-in reference, reference/builtins.md, is
written at build time from gradcli's own tables (gradcli/repl/reference.py), so the site
lists exactly the built-ins of the gradcli in this tree and cannot drift from them."""

import os
import sys

from mkdocs.structure.files import File

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def on_files(files, config):
    if ROOT not in sys.path:
        sys.path.insert(0, ROOT)
    from gradcli.repl import reference

    files.append(File.generated(config, "reference/builtins.md", content=reference.markdown()))
    return files
