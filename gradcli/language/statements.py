"""Simple statements: expression statements, assignments and their targets,
`backward`, `del`, `pass`/`break`/`continue`/`return`, `assert`, and `import` and
`from ... import`: torch (and its parts) and gradcli's own safe modules
(library/stdlib.py); any other module is a syntax error."""

from __future__ import annotations

from .parser import Token, Tree

from ..runtime.errors import (
    GradAssertionError,
    GradError,
    GradNameError,
    GradRuntimeError,
    GradSyntaxError,
    did_you_mean,
)
from ..core.printing import show_str
from ..core.tensor import Tensor
from ..library.autograd_api import backward_leaves
from ..library.inplace import AUGMENTED
from ..library.explain import explanation
from ..library.trace import traced
from ..library import stdlib
from ..numerics import mkl
from . import runtime as rt
from .calls import backward_hint, plain_name
from .classes import direct_name
from .datamodel import NO, tensor_binary
from .exceptions import reraise, to_raise
from .expressions import const_value
from .fastops import int_step
from .items import del_attr, del_item, get_item, set_item
from .iteration import iter_values, leaf_names
from .positions import located, pos, syntax_error
from .runtime import BREAK, CONTINUE, Return
from .state import state
from .updates import augmented, product, scaled_update
from . import stmtlines


def _inspect_module():
    """`import inspect`: made at a program's first import of it."""
    from .inspection import make_module

    return make_module()


stdlib.add_module("inspect", _inspect_module)


def _is_docstring(node):
    return (
        isinstance(node, Tree)
        and node.data == "string"
        and all(tok.type == "LONG_STRING" for tok in node.children)
    )


def names_of(node):
    """The dotted names (lists of parts) an `import a.b, c` statement imports."""
    return [[t.value for t in item.children[0].children] for item in node.children]


def _warm_for(tops):
    """Whether an import of these top-level modules loads MKL now (`mkl.warm`): torch's,
    as PyTorch loads its libraries when it is imported."""
    return any(top == "torch" for top in tops)


def _module(builtins, parts, node):
    """The module `import a.b` names: torch or one of its parts, or a module of
    library/stdlib.py."""
    mod = builtins.get("torch")
    if parts[0] != "torch":
        mod = stdlib.module(parts[0])
        if mod is None:
            raise syntax_error(
                f"no module named '{'.'.join(parts)}'",
                node,
                hint=f"a program can import torch (and its parts) and {', '.join(stdlib.names())}",
            )
    for p in parts[1:]:  # (a module's modules: torch.nn, matplotlib.pyplot, numpy.random)
        nxt = mod.members.get(p) if isinstance(mod, rt.Module) else None
        if not isinstance(nxt, rt.Module):
            raise syntax_error(f"no module named '{'.'.join(parts)}'", node)
        mod = nxt
    return mod


def _known(builtins, parts, node):
    try:
        _module(builtins, parts, node)
    except GradSyntaxError:
        return False
    return True


def _in_function(fn):
    """Is code compiled in scope `fn` (scopes.FunctionInfo) inside a function's body?"""
    while fn is not None:
        if fn.kind == "function":
            return True
        fn = fn.parent
    return False


def _missing_module(compiler, parts, dotted):
    """An import in a function's body of a module the language has not: Python's
    ModuleNotFoundError when the statement runs (a function that imports a package
    only when called, as minGPT's from_pretrained imports transformers), else None."""
    if not _in_function(compiler.fn):
        return None
    try:
        _module(compiler.builtins, parts, dotted)
        return None
    except GradSyntaxError as e:
        message, hint = e.message, e.hint
    line, col = pos(dotted)
    known = 0  # (Python names the first part it cannot find: 'wandb' of wandb.sdk)
    while known < len(parts) and _known(compiler.builtins, parts[: known + 1], dotted):
        known += 1
    missing = ".".join(parts[: known + 1])

    def run(s):
        raise GradRuntimeError(
            f"No module named '{missing}'",
            line,
            col,
            hint=hint or message,
            type_name="ModuleNotFoundError",
        )

    return run


# Python 3's __future__ features: each is already on, so importing one changes nothing
# (old published code starts with `from __future__ import print_function, division`)
FUTURE_FEATURES = frozenset(
    "nested_scopes generators division absolute_import with_statement print_function "
    "unicode_literals barry_as_FLUFL generator_stop annotations".split()
)


def _future(names):
    """`from __future__ import f, ...`: Python's errors for an unknown feature; no-op."""
    if isinstance(names, Token):  # from __future__ import *
        raise syntax_error("future feature * is not defined", names)
    for n, _ in (c.children for c in names.children if c is not None):
        if n.value == "braces":
            raise syntax_error("not a chance", n)
        if n.value not in FUTURE_FEATURES:
            raise syntax_error(f"future feature {n.value} is not defined", n)
    return lambda s: None


BACKWARD_KEYWORDS = ("trace", "explain", "retain_graph", "create_graph", "inputs")


class Statements:
    """Compiles the simple statements (mixed into the Compiler)."""

    def s_expr_stmt(self, node):
        at = self.stmt_at
        child = node.children[0]
        e = self.expr(child)
        line = pos(node)[0]
        if _is_docstring(child):
            return lambda s: None  # a docstring (a triple-quoted string alone) shows nothing
        if at is not None:
            return stmtlines.expression(e, self.display_value, *at)
        if self.display_value:

            def run(s):
                v = e(s)
                if v is not None:
                    state.out.value(v, line)
        else:

            def run(s):
                e(s)

        return run

    def s_assign(self, node):
        at = self.stmt_at
        *targets, value = node.children
        setters = [self.target(t) for t in targets]
        val = self.expr(value)
        echo = self.display_value
        names = [
            t.children[0].value if isinstance(t, Tree) and t.data == "name" else None
            for t in targets
        ]
        line = pos(node)[0]
        if len(setters) == 1:
            setter, name = setters[0], names[0]
            if at is not None and not echo:
                return stmtlines.assign(setter, val, *at)

            def run(s):
                v = val(s)
                setter(s, v)
                if echo and state.out.echo_assign and name is not None:
                    state.out.assign(name, v, line)

            return run

        def run_chain(s):
            v = val(s)
            for st in setters:
                st(s, v)

        return run_chain

    def target(self, t):
        """A closure that stores a value into an assignment target."""
        kind = t.data if isinstance(t, Tree) else None
        if kind == "name":
            return self.store_name(t.children[0].value)
        if kind == "getattr":
            obj = self.expr(t.children[0])
            attr = t.children[1].value
            line, col = pos(t.children[1])

            plain = direct_name(attr)
            name = getattr(obj, "var_name", None)  # read in place (by obj when absent)
            store = rt.store_attr

            def store_attr(s, v):
                try:
                    o = s.vars.get(name, obj)
                    if o is obj:
                        o = obj(s)
                    store(o, attr, plain, v)
                except Exception as e:
                    raise located(e, line, col) from None

            return store_attr
        if kind in ("tuple_items", "exprlist_items", "list_", "list_items"):
            children = t.children
            if kind == "list_":
                children = children[0].children if children and children[0] is not None else []
            return self._unpack([c for c in children if c is not None], t)
        if kind == "getitem":
            obj = self.expr(t.children[0])
            key = self._subscript_key(t.children[1])
            line, col = pos(t.children[1])

            def store_item(s, v):
                o = obj(s)
                k = key(s)
                try:
                    set_item(o, k, v)
                except Exception as e:
                    raise located(e, line, col) from None

            return store_item
        raise syntax_error("cannot assign to this expression", t)

    def _unpack(self, children, t):
        """`a, *rest, b = value`."""
        stars = [i for i, c in enumerate(children) if isinstance(c, Tree) and c.data == "star_expr"]
        if len(stars) > 1:
            raise syntax_error("multiple starred expressions in assignment", t)
        star = stars[0] if stars else None
        subs = [self.target(c.children[1] if i == star else c) for i, c in enumerate(children)]
        n = len(subs)
        line, col = pos(t)

        def unpack(s, v):
            if star is None:
                items = unpacked(v, n, line, col)
            else:
                try:
                    items = iter_values(v)
                except GradError as e:
                    raise e.at(line, col)
                after = n - star - 1
                if len(items) < n - 1:
                    raise GradRuntimeError(
                        f"not enough values to unpack (expected at least "
                        f"{n - 1}, got {len(items)})",
                        line,
                        col,
                        type_name="ValueError",
                    )
                items = (
                    items[:star]
                    + [items[star : len(items) - after]]
                    + (items[len(items) - after :] if after else [])
                )
            for st, item in zip(subs, items):
                st(s, item)

        return unpack

    def s_augassign(self, node):
        at = self.stmt_at
        target, op, value = node.children
        op_sym = op.value[:-1]
        kind = target.data if isinstance(target, Tree) else None
        if kind not in ("name", "getattr", "getitem"):
            raise syntax_error(
                "'tuple' is an illegal expression for augmented assignment"
                if kind == "tuple_items"
                else "cannot assign to this expression",
                target,
            )
        val, parts = product(self, value)  # (parts: `x -= a * b`, updates.py)
        line, col = op.line, op.column
        binary = rt.binary_op(op_sym, augmented=True)  # (__iadd__ first)
        vconst, vv = const_value(val)
        inplace = _refusing(AUGMENTED.get(op.value), op_sym)  # a tensor target changes in
        # place, as in PyTorch
        if kind == "getitem":  # d[k] += v: the container and key evaluated once
            obj = self.expr(target.children[0])
            key = self._subscript_key(target.children[1])

            def run_item(s):
                o, k = obj(s), key(s)
                try:
                    old = get_item(o, k)
                    if inplace is not None and type(old) is Tensor:  # x[i] += v: as Python does
                        set_item(o, k, inplace(old, vv if vconst else val(s)))
                    else:
                        set_item(o, k, binary(old, vv if vconst else val(s)))
                except Exception as e:
                    raise located(e, line, col) from None

            return run_item
        cur = self.expr(target)
        store = self.target(target)
        if parts is not None and at is not None:
            run = scaled_update(op.value, parts, cur, val, store, inplace, binary, line, col, at)
            if run is not None:
                return run

        run = augmented(cur, store, val, vconst, vv, op_sym, inplace, binary, line, col)
        if vconst and kind == "name" and at is not None:  # i += 1
            return int_step(op_sym, cur, store, vv, run, at) or run
        return run

    def s_backward_stmt(self, node):
        _, target, *rest = node.children
        t = self.expr(target)
        args = [a for a in rest if a is not None]
        posargs = [a for a in args if not (isinstance(a, Tree) and a.data == "kwarg")]
        if len(posargs) > 1:
            raise syntax_error(
                "backward takes one gradient after the tensor "
                "(then keywords: trace=, explain=, retain_graph=, create_graph=)",
                posargs[1],
            )
        g = self.expr(posargs[0]) if posargs else (lambda s: None)
        kw = {}
        for a in args:
            if isinstance(a, Tree) and a.data == "kwarg":
                name = a.children[0].value
                if name not in BACKWARD_KEYWORDS:
                    raise syntax_error(
                        f"backward got an unexpected keyword argument '{name}'",
                        a.children[0],
                        hint=did_you_mean(name, BACKWARD_KEYWORDS),
                    )
                kw[name] = self.expr(a.children[1])
        trace_on = kw.pop("trace", None)
        explain_on = kw.pop("explain", None)
        show = self.display
        tname = plain_name(target)
        line = pos(node)[0]

        def run(s):
            told = None
            try:
                kwargs = {k: v(s) for k, v in kw.items()}
                if explain_on is not None and rt.truth(explain_on(s)):
                    told = explanation(t(s), check_out=True)  # before backward frees the graph
                if trace_on is not None and rt.truth(trace_on(s)):
                    touched = traced(state.out, backward_leaves, t(s), g(s), **kwargs)
                else:
                    touched = backward_leaves(t(s), g(s), **kwargs)
            except GradError as e:
                raise backward_hint(e, tname, "command")
            if show and touched:
                names = leaf_names(s, touched)
                for leaf in touched:
                    name = names.get(id(leaf))
                    if name is not None:
                        state.out.grad(name, leaf.grad, line)
            if told is not None:
                state.out.figure("explain", told, None)

        return run

    def s_del_stmt(self, node):
        targets = node.children[0]
        items = (
            targets.children
            if isinstance(targets, Tree) and targets.data == "exprlist_items"
            else [targets]
        )
        dels = [self._deleter(t) for t in items if t is not None]

        def run(s):
            for d in dels:
                d(s)

        return run

    def _deleter(self, t):
        kind = t.data if isinstance(t, Tree) else None
        line, col = pos(t)
        if kind == "name":
            name = t.children[0].value
            info = self.fn
            glob = info is not None and name in info.globals

            def delete(s):
                vars = (s.globals or s).vars if glob else s.vars
                if name not in vars:
                    raise GradNameError(f"name '{name}' is not defined", line, col)
                del vars[name]

            return delete
        if kind == "getitem":
            obj = self.expr(t.children[0])
            key = self._subscript_key(t.children[1])

            def delete_item(s):
                o, k = obj(s), key(s)
                try:
                    del_item(o, k)
                except Exception as e:
                    raise located(e, line, col) from None

            return delete_item
        if kind == "getattr":
            obj = self.expr(t.children[0])
            attr = t.children[1].value

            def delete_attr(s):
                try:
                    del_attr(obj(s), attr)
                except Exception as e:
                    raise located(e, line, col) from None

            return delete_attr
        raise syntax_error("cannot delete this expression", t)

    def s_pass_stmt(self, node):
        return lambda s: None

    def s_break_stmt(self, node):
        return lambda s: BREAK

    def s_continue_stmt(self, node):
        return lambda s: CONTINUE

    def s_return_stmt(self, node):
        at = self.stmt_at
        if self.fn is None or self.fn.kind != "function":
            raise syntax_error("'return' outside function", node)
        v = node.children[0]
        e = self.expr(v) if v is not None else (lambda s: None)
        if at is not None:
            return stmtlines.returning(e, *at)
        return lambda s: Return(e(s))

    def s_raise_stmt(self, node):
        exc, _cause = node.children
        if exc is None:
            return lambda s: reraise()
        e = self.expr(exc)

        def run(s):
            raise to_raise(e(s))

        return run

    def s_assert_stmt(self, node):
        cond, msg = node.children
        c = self.expr(cond)
        m = self.expr(msg) if msg is not None else None
        line, col = pos(cond)

        def run(s):
            if not rt.truth(c(s)):
                text = show_str(m(s)) if m is not None else "assertion failed"
                raise GradAssertionError(text, line, col)

        return run

    # ------------------------------------------------------------ import
    def s_import_name(self, node):
        binds, missing = [], None
        for item in node.children:
            dotted, alias = item.children
            parts = [t.value for t in dotted.children]
            missing = _missing_module(self, parts, dotted)
            if missing is not None:  # (the modules before it are imported, as in Python)
                break
            module = _module(self.builtins, parts, dotted)
            bind = alias.value if alias is not None else parts[0]
            value = module if alias is not None else _module(self.builtins, parts[:1], dotted)
            binds.append((self.store_name(bind), value))
        warm = _warm_for(parts[0] for parts in names_of(node))

        def run(s):
            if warm:
                mkl.warm()
            for store, value in binds:
                store(s, value)
            if missing is not None:
                missing(s)

        return run

    def s_import_from(self, node):
        dotted, names = node.children
        parts = [t.value for t in dotted.children]
        if parts == ["__future__"]:
            return _future(names)
        missing = _missing_module(self, parts, dotted)
        if missing is not None:
            return missing
        module = _module(self.builtins, parts, dotted)
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

        warm = _warm_for(parts[:1])

        def run(s):
            if warm:
                mkl.warm()
            for store, v in binds:
                store(s, v)

        return run


def _refusing(inplace, op_sym):
    """The in-place op of `x op= y`, refusing a `y` that no tensor operator takes in
    Python's words (`unsupported operand type(s) for +=: 'Tensor' and 'str'`)."""
    if inplace is None:
        return None

    def run(x, y):
        t = type(y)
        if t is not Tensor and t is not float and t is not int:
            if t in rt.NOT_OPERANDS:
                rt.refuse_operands(op_sym, x, y, augmented=True)
            if getattr(t, "__gradcli_plain__", False):  # (its `__rop__`: datamodel's)
                r = tensor_binary(op_sym, x, y, True)
                if r is not NO:
                    return r
        return inplace(x, y)

    return run


def unpacked(v, n, line, col):
    """The items of `v` for n targets (`a, b = v`, placed at line:col), or Python's
    error: not iterable, too many or not enough values."""
    try:
        items = iter_values(v)
    except GradError as e:
        raise e.at(line, col)
    if len(items) != n:
        raise GradRuntimeError(
            f"too many values to unpack (expected {n})"
            if len(items) > n
            else f"not enough values to unpack (expected {n}, got {len(items)})",
            line,
            col,
            type_name="ValueError",
        )
    return items
