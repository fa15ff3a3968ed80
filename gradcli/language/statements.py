"""Simple statements: expression statements, assignments and their targets,
`backward`, `del`, `pass`/`break`/`continue`/`return`, `assert`, `import`."""
from __future__ import annotations

from lark import Tree

from ..base.errors import GradAssertionError, GradError, GradNameError, GradRuntimeError, GradSyntaxError
from ..core.printing import show_str
from ..core.tensor import GradMode, Tensor
from ..library.autograd_api import backward_leaves
from . import runtime as rt
from .calls import backward_hint, plain_name
from .expressions import const_value
from .iteration import iter_values, leaf_names
from .positions import located, pos, syntax_error
from .runtime import BREAK, CONTINUE, Return
from .state import state


class Statements:
    """Compiles the simple statements (mixed into the Compiler)."""

    def s_expr_stmt(self, node):
        e = self.expr(node.children[0])
        line = pos(node)[0]
        if self.display:
            def run(s):
                v = e(s)
                if v is not None:
                    state.out.value(v, line)
        else:
            def run(s):
                e(s)
        return run

    def s_assign(self, node):
        *targets, value = node.children
        setters = [self.target(t) for t in targets]
        val = self.expr(value)
        echo = self.display and self.depth == 0
        names = [t.children[0].value if isinstance(t, Tree) and t.data == "name" else None
                 for t in targets]
        line = pos(node)[0]
        if len(setters) == 1:
            setter, name = setters[0], names[0]

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
        if isinstance(t, Tree) and t.data == "name":
            name = t.children[0].value

            def store(s, v):
                s.vars[name] = v
            return store
        if isinstance(t, Tree) and t.data == "getattr":
            obj = self.expr(t.children[0])
            attr = t.children[1].value
            line, col = pos(t.children[1])

            def store_attr(s, v):
                try:
                    rt.set_attr(obj(s), attr, v)
                except GradError as e:
                    raise e.at(line, col)
            return store_attr
        if isinstance(t, Tree) and t.data in ("tuple_items", "exprlist_items"):
            subs = [self.target(c) for c in t.children if c is not None]
            n = len(subs)
            line, col = pos(t)

            def unpack(s, v):
                try:
                    items = iter_values(v)
                except GradError as e:
                    raise e.at(line, col)
                if len(items) != n:
                    raise GradRuntimeError(
                        f"cannot unpack {len(items)} values into {n} names" if len(items) > n else
                        f"not enough values to unpack (expected {n}, got {len(items)})",
                        line, col, type_name="ValueError")
                for st, item in zip(subs, items):
                    st(s, item)
            return unpack
        if isinstance(t, Tree) and t.data == "getitem":
            raise syntax_error(
                "assigning to an element (x[i] = ...) is not supported: tensors are not changed "
                "in place", t, hint="build a new tensor, e.g. with where(...) or cat(...)")
        raise syntax_error("cannot assign to this expression", t)

    def s_augassign(self, node):
        target, op, value = node.children
        op_sym = op.value[:-1]
        if not (isinstance(target, Tree) and target.data in ("name", "getattr")):
            raise syntax_error("cannot assign to this expression", target)
        cur = self.expr(target)
        val = self.expr(value)
        store = self.target(target)
        line, col = op.line, op.column
        binary = rt.binary_op(op_sym)
        vconst, vv = const_value(val)

        def run(s):
            old = cur(s)
            try:
                r = binary(old, vv if vconst else val(s))
                if type(old) is Tensor and old.requires_grad and old.grad_fn is None \
                        and not GradMode.enabled:
                    rt.update_leaf(old, r)     # `with no_grad: w -= lr * w.grad`, as PyTorch
                    return
            except Exception as e:
                raise located(e, line, col) from None
            store(s, r)
        return run

    def s_backward_stmt(self, node):
        _, target, grad = node.children
        t = self.expr(target)
        g = self.expr(grad) if grad is not None else (lambda s: None)
        show = self.display
        tname = plain_name(target)
        line = pos(node)[0]

        def run(s):
            try:
                touched = backward_leaves(t(s), g(s))
            except GradError as e:
                raise backward_hint(e, tname, "command")
            if show and touched:
                names = leaf_names(s, touched)
                for leaf in touched:
                    name = names.get(id(leaf))
                    if name is not None:
                        state.out.grad(name, leaf.grad, line)
        return run

    def s_del_stmt(self, node):
        targets = node.children[0]
        items = targets.children if isinstance(targets, Tree) and targets.data == "exprlist_items" \
            else [targets]
        names = []
        for t in items:
            if t is None:
                continue
            if not (isinstance(t, Tree) and t.data == "name"):
                raise syntax_error("del takes variable names", t)
            names.append((t.children[0].value, pos(t)))

        def run(s):
            for name, (line, col) in names:
                if name not in s.vars:
                    raise GradNameError(f"name '{name}' is not defined", line, col)
                del s.vars[name]
        return run

    def s_pass_stmt(self, node):
        return lambda s: None

    def s_break_stmt(self, node):
        return lambda s: BREAK

    def s_continue_stmt(self, node):
        return lambda s: CONTINUE

    def s_return_stmt(self, node):
        if self.fn is None:
            raise syntax_error("'return' outside function", node)
        v = node.children[0]
        e = self.expr(v) if v is not None else (lambda s: None)
        return lambda s: Return(e(s))

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

    def s_import_name(self, node):
        dotted, alias = node.children
        parts = [t.value for t in dotted.children]
        module = self._module(parts, dotted)
        bind = alias.value if alias is not None else parts[0]
        value = module if alias is not None else self._module(parts[:1], dotted)

        def run(s):
            s.vars[bind] = value
        return run

    def s_import_from(self, node):
        dotted, *names = node.children
        parts = [t.value for t in dotted.children]
        module = self._module(parts, dotted)
        binds = []
        for n in names:
            try:
                binds.append((n.value, module.get(n.value, self.builtins)))
            except GradError as e:
                raise GradSyntaxError(e.message, n.line, n.column, hint=e.hint)

        def run(s):
            for name, v in binds:
                s.vars[name] = v
        return run

    def _module(self, parts, node):
        mod = self.builtins.get("torch")
        if parts[0] != "torch":
            raise syntax_error(f"no module named '{'.'.join(parts)}': only torch (and its "
                               "autograd and nn.functional parts) can be imported", node)
        for p in parts[1:]:
            nxt = mod.members.get(p) if isinstance(mod, rt.Module) else None
            if not isinstance(nxt, rt.Module):
                raise syntax_error(f"no module named '{'.'.join(parts)}'", node)
            mod = nxt
        return mod
