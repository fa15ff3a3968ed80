"""Compile-time scopes, as Python's: which names a function (or class body, or
comprehension) binds, which it declares global or nonlocal, whether it yields.
The compiler uses them to compile each name to the right lookup: a local of the
running call, a variable of an enclosing function (a closure), or a global."""

from __future__ import annotations

from .parser import Token, Tree

from ..runtime.errors import GradSyntaxError

_NEW_SCOPE = frozenset({"lambda_", "listcomp", "setcomp", "dictcomp", "genexp"})
_TARGETS = frozenset({"tuple_items", "exprlist_items", "list_", "list_items", "star_expr"})
# functions (lambdas, comprehensions, classes) nested deeper than this are "nested too deeply
# to compile", as CPython's compiler refuses them: each one's __qualname__ names all the
# enclosing ones, so a 20,000-deep lambda would cost gigabytes of names
MAX_NESTED_SCOPES = 200


class FunctionInfo:
    """Compile-time facts about the function, class body or comprehension being compiled."""

    __slots__ = (
        "name",
        "kind",
        "locals",
        "globals",
        "nonlocals",
        "parent",
        "generator",
        "first_param",
        "qualname",
        "level",
        "nests",
    )

    def __init__(self, name, kind="function", parent=None):
        self.name, self.kind, self.parent = name, kind, parent
        self.locals, self.globals, self.nonlocals = set(), set(), {}
        self.generator = False
        self.nests = False  # a function, lambda or class is defined in its body
        self.first_param = None  # a method: the name of `self`
        self.level = 0 if parent is None else parent.level + 1
        if self.level > MAX_NESTED_SCOPES:
            raise RecursionError("functions nested too deeply")  # the compiler's LimitError
        prefix = (
            ""
            if parent is None
            else parent.qualname + "."
            if parent.kind == "class"
            else parent.qualname + ".<locals>."
        )  # as Python's __qualname__
        self.qualname = prefix + name

    def mode(self, name):
        """How `name` is looked up here: 'local', 'global' or 'free'."""
        if name in self.globals:
            return "global"
        if self.kind != "class" and name in self.locals and name not in self.nonlocals:
            return "local"
        return "free"

    def analyse(self, nodes):
        """Collect the names bound in nodes (the body), and the declarations."""
        for n in nodes:
            self._walk(n)
        for name in self.globals:
            self.locals.discard(name)
        for name, tok in list(self.nonlocals.items()):
            self.nonlocals[name] = self._levels(name, tok)

    def _levels(self, name, tok):
        """How many scopes up a nonlocal name lives (classes are skipped, as in Python)."""
        levels, p = 0, self.parent
        while p is not None:
            if p.kind != "class":
                levels += 1
                if name in p.locals and p.kind == "function":
                    return levels
            p = p.parent
        raise GradSyntaxError(f"no binding for nonlocal '{name}' found", tok.line, tok.column)

    def _walk(self, node):
        if isinstance(node, Token) or node is None:
            return
        d = node.data
        if d in ("funcdef", "classdef"):
            self.locals.add(node.children[0].value)
            return
        if d in _NEW_SCOPE:
            if d != "lambda_":  # (x := v) in a comprehension binds here (PEP 572)
                self._comprehension_walrus(node)
            return
        if d == "walrus":
            self.locals.add(node.children[0].value)
        if d == "assign":
            for t in node.children[:-1]:
                self._target(t)
        elif d in ("augassign", "for_stmt", "del_stmt", "annassign"):
            self._target(node.children[0])
        elif (
            d in ("with_item", "except_clause")
            and node.children[-2 if d == "except_clause" else -1] is not None
        ):
            alias = node.children[-2] if d == "except_clause" else node.children[-1]
            if isinstance(alias, Token):
                self.locals.add(alias.value)
        elif d == "dotted_as_name":
            dotted, alias = node.children
            self.locals.add(alias.value if alias is not None else dotted.children[0].value)
            return
        elif d == "import_as_name":
            name, alias = node.children
            self.locals.add((alias or name).value)
            return
        elif d == "global_stmt":
            self._declare(node, self.globals)
            return
        elif d == "nonlocal_stmt":
            if self.kind != "function":
                raise GradSyntaxError(
                    "nonlocal declaration not allowed at module level", *_pos(node)
                )
            for tok in node.children:
                self.nonlocals[tok.value] = tok
            return
        elif d in ("yield_", "yield_from"):
            self.generator = True
        for c in node.children:
            self._walk(c)

    def _comprehension_walrus(self, node):
        """The targets of the assignment expressions of a comprehension (and of the
        comprehensions in it), bound in this scope; a class body refuses them, as Python."""
        stack = list(node.children)
        while stack:
            n = stack.pop()
            if not isinstance(n, Tree) or n.data in ("lambda_", "funcdef", "classdef"):
                continue
            if n.data == "walrus":
                if self.kind == "class":
                    raise GradSyntaxError(
                        "assignment expression within a comprehension cannot be used in a "
                        "class body",
                        *_pos(n),
                    )
                if self.kind != "comprehension":
                    self.locals.add(n.children[0].value)
            stack.extend(n.children)

    def _declare(self, node, into):
        for tok in node.children:
            if tok.value in self.locals and into is self.globals and self.kind == "function":
                pass  # Python refuses a use before the declaration; gradcli allows it
            into.add(tok.value)

    def _target(self, t):
        if isinstance(t, Tree):
            if t.data == "name":
                self.locals.add(t.children[0].value)
            elif t.data in _TARGETS:
                for c in t.children:
                    self._target(c)


def _pos(node):
    return getattr(node.meta, "line", None), getattr(node.meta, "column", None)
