"""`import` and `from ... import`: torch (and its parts) and gradcli's own safe
modules (library/stdlib.py); any other module is a syntax error."""

from __future__ import annotations

from .parser import Token

from ..runtime.errors import GradError, GradSyntaxError
from ..library import stdlib
from . import runtime as rt
from .positions import syntax_error
from .inspection import make_module as _inspect_module

stdlib.add_module("inspect", _inspect_module)


class Imports:
    """Compiles import statements (mixed into the Compiler)."""

    def s_import_name(self, node):
        binds = []
        for item in node.children:
            dotted, alias = item.children
            parts = [t.value for t in dotted.children]
            module = self._module(parts, dotted)
            bind = alias.value if alias is not None else parts[0]
            value = module if alias is not None else self._module(parts[:1], dotted)
            binds.append((self.store_name(bind), value))

        def run(s):
            for store, value in binds:
                store(s, value)

        return run

    def s_import_from(self, node):
        dotted, names = node.children
        parts = [t.value for t in dotted.children]
        module = self._module(parts, dotted)
        binds = []
        if isinstance(names, Token):  # from m import *
            members = [k for k in module.members if not k.startswith("_")]
            pairs = [(k, k, names) for k in members]
        else:
            pairs = [
                (n.value, (a or n).value, n)
                for n, a in (c.children for c in names.children if c is not None)
            ]
        for name, bind, tok in pairs:
            try:
                binds.append((self.store_name(bind), module.get(name, self.builtins)))
            except GradError as e:
                raise GradSyntaxError(e.message, tok.line, tok.column, hint=e.hint)

        def run(s):
            for store, v in binds:
                store(s, v)

        return run

    def _module(self, parts, node):
        mod = self.builtins.get("torch")
        if parts[0] != "torch":
            std = stdlib.module(parts[0]) if len(parts) == 1 else None
            if std is not None:
                return std
            raise syntax_error(
                f"no module named '{'.'.join(parts)}'",
                node,
                hint=f"a program can import torch (and its parts) and {', '.join(stdlib.names())}",
            )
        for p in parts[1:]:
            nxt = mod.members.get(p) if isinstance(mod, rt.Module) else None
            if not isinstance(nxt, rt.Module):
                raise syntax_error(f"no module named '{'.'.join(parts)}'", node)
            mod = nxt
        return mod
