"""Definitions: `def` and `lambda` (parameters with defaults, *args, keyword-only,
**kwargs; closures over the scope they are written in; generators), `class`,
decorators, `global`/`nonlocal`, `yield` and zero-argument `super()`."""

from __future__ import annotations

from ..runtime.errors import GradSyntaxError
from ..runtime import context
from .parser import Token, Tree
from .classes import ANNOTATIONS, Super, changed, make_class
from .named_tuples import is_named_tuple_base, named_tuple_class
from .enums import enum_class, is_enum_base
from .functions import CLASS_CELL, Scope, Signature, UserFunction, frames, given_defaults
from .names import docstring
from .positions import located, pos, syntax_error
from .scopes import FunctionInfo
from .state import state


def _function_unit(comp, info, name, params, body, plain):
    """fast_tier.function_unit (the fast tier is imported when a program first has a
    loop, a def or a comprehension)."""
    from .fast_tier import function_unit

    return function_unit(comp, info, name, params, body, plain)


def _plain_python(fast, sig, builtins):
    """What a body whose calls replay (replay_defs.py) does when a call of it ran no op of
    the engine: the function running in that scope (the innermost running frame) is
    given its fast tier's code (`fast`: function_unit's), as `make` gives it, and the
    tables of its class forget its lookups; a call of it then runs in the fast tier."""

    def promote(s):
        if not frames or frames[-1][1] is not s or not context.current.fast_tier:
            return
        f = frames[-1][0]
        if type(f) is not UserFunction or f.fast is not None or f.generator:
            return
        f.fast = fast(f, f.globals, builtins)
        f.fastn = len(sig.params) if sig.plain else -1
        if f.defaults and sig.plain:
            given_defaults(f)
        if f.cell is not None and isinstance(f.cell[0], type):
            changed(f.cell[0])  # (classes.LOOKUP: its fast functions, kept by name)

    return promote


class Definitions:
    """Compiles definitions (mixed into the Compiler)."""

    def _signature(self, params):
        """(Signature, {name: default closure}) of a parameter list node."""
        names, star, kwonly, kwstar, defaults = [], None, [], None, {}
        seen = set()
        after_star = False
        posonly = 0  # the parameters before a `/`
        for p in params.children if params is not None else ():
            if p is None:
                continue
            if p.data == "slash_param":
                tok = p.children[0]
                if tok.value != "/":
                    raise syntax_error(f"unexpected '{tok.value}'", p)
                if posonly:
                    raise syntax_error("/ may appear only once", p)
                if after_star or kwstar is not None:
                    raise syntax_error("/ must be ahead of *", p)
                if not names:
                    raise syntax_error("at least one argument must precede /", p)
                posonly = len(names)
                continue
            if p.data == "star_param":
                if after_star:
                    raise syntax_error("* argument may appear only once", p)
                after_star = True
                tok = p.children[1]
                if tok is not None:
                    star = tok.value
                    self._new_param(tok, seen)
                continue
            if p.data == "kw_param":
                tok = p.children[1]
                self._new_param(tok, seen)
                kwstar = tok.value
                continue
            tok, default = p.children[0], p.children[-1] if len(p.children) == 3 else p.children[1]
            if kwstar is not None:
                raise syntax_error("arguments cannot follow var-keyword argument", tok)
            self._new_param(tok, seen)
            if default is not None:
                defaults[tok.value] = self.expr(default)
            elif defaults and not after_star:
                raise GradSyntaxError(
                    "non-default argument follows default argument", tok.line, tok.column
                )
            (kwonly if after_star else names).append(tok.value)
        return Signature(names, None, star, kwonly, kwstar, posonly), defaults

    @staticmethod
    def _new_param(tok, seen):
        if tok.value in seen:
            raise GradSyntaxError(
                f"duplicate argument '{tok.value}' in function definition", tok.line, tok.column
            )
        seen.add(tok.value)

    def _function(self, name, params, body_nodes, compile_body, is_lambda=False, doc=None):
        """The closure that makes a UserFunction when the definition runs."""
        sig, defaults = self._signature(params)
        info = FunctionInfo(name, "function", self.fn)
        if self.fn is not None:
            self.fn.nests = True
        info.locals.update(sig.names())
        method = self.fn is not None and self.fn.kind == "class"
        if method:
            info.locals.add(CLASS_CELL)  # the class being defined, for super()
        if sig.params:
            info.first_param = sig.params[0]
        info.analyse(body_nodes)
        if is_lambda and info.generator:
            raise syntax_error("'yield' inside a lambda is not supported", body_nodes[0])
        outer, self.fn = self.fn, info
        replays = self.replays
        try:
            code = compile_body()
        finally:
            self.fn = outer
        generator, qualname = info.generator, info.qualname
        nests = info.nests
        if method and outer.parent is None and not is_lambda and not generator:
            # (a method of a class of the module's: its names are its globals)
            from .op_bodies import enter  # (with the first method: start-up)

            enter(code, sig.params, body_nodes[0])
        fast = None
        # a def made at each call of a function around it is left to the closure: its fast
        # function refers to it (a cycle the call's scope would be kept in: release)
        made_per_call = self.fn is not None and self.fn.kind != "class"
        if (
            not is_lambda
            and not made_per_call
            and not generator
            and self.replays == replays  # (a loop in it qualifies for replay: kept for it)
        ):
            fast = _function_unit(self, info, name, sig.all, body_nodes[0], sig.plain)
        builtins = self.builtins
        held = None
        if fast is None:
            from .loop_shapes import DEFS  # (with the first def: start-up)

            held = DEFS.get(code)
        if (
            held is not None
            and not is_lambda
            and not made_per_call
            and not generator
            and self.replays == replays + 1  # (its own body replays, nothing in it does)
        ):
            later = _function_unit(self, info, name, sig.all, body_nodes[0], sig.plain)
            if later is not None:
                held.plain_python = _plain_python(later, sig, builtins)

        # the file its text is in (a function defined in a function the REPL's input
        # that defined the one around: an error in it shows that text)
        origin = state.origin

        def make(s, given=None):  # (given: the defaults, computed by the fast tier)
            g = s if s.globals is None else s.globals
            d = given if given is not None else {k: e(s) for k, e in defaults.items()}
            f = UserFunction(
                name,
                sig,
                d,
                code,
                g,
                is_lambda=is_lambda,
                origin=origin,
                closure=s.closure,
                generator=generator,
                qualname=qualname,
                doc=doc,
                cell=s.vars.get(CLASS_CELL) if method else None,
                nests=nests,
            )
            if fast is not None and context.current.fast_tier:
                f.fast = fast(f, g, builtins)
                f.fastn = len(sig.params) if sig.plain else -1  # (else bound first: run)
                if d and sig.plain:
                    given_defaults(f)
            return f

        return make

    def _def_value(self, node):
        name_tok, params, _returns, suite = node.children
        return name_tok.value, self._function(
            name_tok.value,
            params,
            [suite],
            lambda: self.gen_body(suite) if self.fn.generator else self._def_body(suite, node),
            doc=docstring(suite),
        )

    def _def_body(self, suite, node):
        """A `def`'s body: one that replays its calls when it qualifies
        (language/replay_defs.py, imported with the first such body: start-up); a
        method's that a replayed loop may see through when it is a module's forward is
        noted (loop_shapes.THROUGH).  loop_shapes and through_shapes are imported with the
        program's first def (start-up)."""
        from .loop_shapes import REPORT, THROUGH, THROUGH_DEFS, names_in, qualifies_def
        from .through_shapes import through, through_def

        params = node.children[1]
        got = None
        if (
            self.fn.parent is not None
            and self.fn.parent.kind == "class"
            and params is not None
            and all(isinstance(p, Tree) and p.data == "param" for p in params.children)
        ):
            got = through(suite, [p.children[0].value for p in params.children], self)
        code = None
        if REPORT or qualifies_def(suite):
            from .replay_defs import def_body

            plain = [p.children[0].value for p in _params(params) if p.data == "param"]
            code = def_body(self, suite, node.children[0].value, pos(node.children[0])[0], plain)
            if code is not None:
                self.replays += 1  # (fast_tier.py leaves a def that replays to replay)
                if got is not None and got[2]:
                    got = None  # (its loops not compiled as draws)
        if code is None:
            if got is not None and got[2]:  # (its draws' loops: replay_draws.py; the
                self.replays += 1  # fast tier leaves the method to them)
                outer = self.draws
                self.draws = {id(n): names_in(n.children[1]) for n in got[2]}
                try:
                    code = self.block(suite)
                finally:
                    self.draws = outer
            else:
                code = self.block(suite)
        if got is not None:
            THROUGH[code] = got
        elif self.fn.parent is None and all(
            isinstance(p, Tree) and p.data == "param" for p in _params(params)
        ):  # (a function of the program's own scope a replayed statement may see through)
            got = through_def(self, suite, [p.children[0].value for p in _params(params)])
            if got is not None:
                THROUGH_DEFS[code] = got
        return code

    def s_funcdef(self, node):
        name, make = self._def_value(node)
        store = self.store_name(name)
        return lambda s: store(s, make(s))

    def e_lambda_(self, node):
        params, body = node.children
        return self._function("<lambda>", params, [body], lambda: self.expr(body), is_lambda=True)

    def _class_value(self, node):
        name_tok, args, suite = node.children
        name = name_tok.value
        posargs, kw = self._arguments(args)
        info = FunctionInfo(name, "class", self.fn)
        qualname = info.qualname
        info.analyse([suite])
        outer, self.fn = self.fn, info
        try:
            body = self.block(suite)
        finally:
            self.fn = outer
        line, col = pos(name_tok)
        doc = docstring(suite)

        def make(s):
            try:
                bases = posargs(s)
                keywords = kw(s)
            except Exception as e:  # `class C(*not_iterable)`: placed at the name
                raise located(e, line, col) from None
            g = s if s.globals is None else s.globals
            cell = [None]  # this execution's class (a loop makes a new one each time)
            scope = Scope({CLASS_CELL: cell}, g, s.depth, s.closure, closure=s.closure)
            body(scope)
            del scope.vars[CLASS_CELL]
            try:
                if any(is_named_tuple_base(b) for b in bases):  # class Batch(NamedTuple)
                    cls = named_tuple_class(name, bases, scope.vars, keywords, qualname)
                elif any(is_enum_base(b) for b in bases):  # class Phase(enum.Enum)
                    cls = enum_class(name, bases, scope.vars, keywords, qualname)
                else:
                    cls = make_class(name, bases, scope.vars, keywords, qualname)
            except Exception as e:
                raise located(e, line, col) from None
            if doc is not None:
                cls.__doc__ = doc
            cell[0] = cls
            return cls

        return name, make

    def s_classdef(self, node):
        name, make = self._class_value(node)
        store = self.store_name(name)
        return lambda s: store(s, make(s))

    def s_decorated(self, node):
        *decorators, definition = node.children
        decos = [(self.expr(d.children[1]), pos(d.children[1])) for d in decorators]
        if definition.data == "funcdef":
            name, make = self._def_value(definition)
        else:
            name, make = self._class_value(definition)
        store = self.store_name(name)
        state_ = state

        def run(s):
            fns = [(d(s), p) for d, p in decos]
            v = make(s)
            for fn, (line, col) in reversed(fns):
                state_.line = line
                try:
                    v = self.call_value(fn, v, line, col)
                except Exception as e:
                    raise located(e, line, col) from None
            store(s, v)

        return run

    def s_annassign(self, node):
        """`target: annotation = value` assigns as `target = value` does; `target: annotation`
        alone binds nothing.  Annotations are not evaluated (as under `from __future__ import
        annotations`): a class body keeps each name's annotation text in the class's
        `__annotations__`, in order (what `dataclass` reads); elsewhere they are dropped."""
        target, annotation, value = node.children
        kind = target.data if isinstance(target, Tree) else None
        if kind not in ("name", "getattr", "getitem"):
            raise syntax_error(
                "only single target (not tuple) can be annotated"
                if kind == "tuple_items"
                else "illegal target for annotation",
                target,
            )
        record = None
        if kind == "name" and self.fn is not None and self.fn.kind == "class":
            name = target.children[0].value
            text = _source_text(self.source, annotation)

            def record(s):
                s.vars.setdefault(ANNOTATIONS, {})[name] = text

        if value is None:
            if kind != "name":  # Python evaluates the target's object and key, binds nothing
                parts = [self.expr(c) for c in target.children if isinstance(c, Tree)][:1]
                if kind == "getitem":
                    parts.append(self._subscript_key(target.children[1]))

                def evaluate(s):
                    for p in parts:
                        p(s)

                return evaluate
            return record or (lambda s: None)
        assign = self.s_assign(Tree("assign", [target, value], meta=node.meta))
        if record is None:
            return assign

        def run(s):
            signal = assign(s)
            record(s)
            return signal

        return run

    def s_global_stmt(self, node):
        return lambda s: None  # scopes.py has read it

    def s_nonlocal_stmt(self, node):
        return lambda s: None

    def s_yield_stmt(self, node):
        return self.expr(node.children[0])

    def e_yield_(self, node):
        """A yield the generator compiler (control.py) did not take: outside a
        function, or in a comprehension or lambda."""
        if self.fn is None or self.fn.kind == "class":
            raise syntax_error("'yield' outside function", node)
        raise syntax_error(
            "'yield' inside a comprehension is not supported"
            if self.fn.kind == "comprehension"
            else "'yield' is not supported here",
            node,
        )

    e_yield_from = e_yield_

    def zero_arg_super(self, node):
        """`super()` in a method: the class being defined and the method's first argument."""
        info = self.fn
        while info is not None and not (
            info.kind == "function" and info.parent is not None and info.parent.kind == "class"
        ):
            info = info.parent
        if info is None or info.first_param is None:
            return None
        cell = self.load_name(CLASS_CELL, node)
        load = self.load_name(info.first_param, node)

        def run(s):
            return Super(cell(s)[0], load(s))

        return run


def _source_text(source, node):
    """The text of node in source (None when the source is not at hand)."""
    meta = getattr(node, "meta", None)
    start, end = getattr(meta, "start_pos", None), getattr(meta, "end_pos", None)
    if source is None or start is None or end is None:
        return node.value if isinstance(node, Token) else None
    return source[start:end]


def _params(params):
    """The parameter nodes of a parameter list node (None: none)."""
    return [p for p in params.children if p is not None] if params is not None else []
