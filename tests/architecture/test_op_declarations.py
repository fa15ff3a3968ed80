"""Every op declares every facet (engine/declare.py): each node class (a Function
subclass) and each built-in of the op table either gives a facet or says it has none,
and the tables derived from the declarations hold exactly what they declare."""

from __future__ import annotations

import inspect

import gradcli
import gradcli.session  # noqa: F401  (loads every op and built-in)
from gradcli.engine.declare import FACETS, UNDECLARED, Without, declared
from gradcli.engine.function import Function
from gradcli.ops.registry import (
    BATCH_KINDS,
    BATCH_RULES,
    BUILTINS,
    FUNCTIONS,
    METHOD_ONLY,
    OPERATORS,
    Inplace,
    Operator,
    Parser,
)


def _node_classes():
    out, todo = [], [Function]
    while todo:
        for sub in todo.pop().__subclasses__():
            out.append(sub)
            todo.append(sub)
    return out


def _concrete(cls):
    """A node class that graphs hold: not a family's shared code (a private class, or a
    base of other node classes without a grad_fn name or a forward of its own)."""
    if cls.__name__.startswith("_"):
        return False
    return not cls.__subclasses__() or all(
        declared(cls, a, Function) is not UNDECLARED for a in ("name", "forward")
    )


NODES = [c for c in _node_classes() if _concrete(c)]
ENTRIES = list({id(e): e for t in (BUILTINS, METHOD_ONLY) for e in t.values()}.values())


def test_the_tables_are_not_empty():
    assert len(NODES) > 100 and len(ENTRIES) > 150
    assert {f.on for f in FACETS.values()} == {"node", "builtin"}


def test_every_node_class_declares_every_node_facet():
    missing = []
    for cls in NODES:
        for f in FACETS.values():
            if f.on == "node" and declared(cls, f.attr, Function) is UNDECLARED:
                missing.append(f"{cls.__module__}.{cls.__qualname__}: {f.name} ({f.doc})")
    assert not missing, "\n".join(missing)


def test_every_builtin_declares_every_builtin_facet():
    missing = []
    for e in ENTRIES:
        for f in FACETS.values():
            if f.on == "builtin" and getattr(e, f.attr, UNDECLARED) is UNDECLARED:
                missing.append(f"{e.name} ({e.fn.__module__}): {f.name} ({f.doc})")
    assert not missing, "\n".join(missing)


def test_an_explicit_none_gives_a_reason():
    for cls in NODES:
        for f in FACETS.values():
            v = declared(cls, f.attr, Function) if f.on == "node" else None
            if isinstance(v, Without):
                assert v.reason.strip(), (cls, f.name)


def test_node_declarations_have_their_forms():
    for cls in NODES:
        name = declared(cls, "name", Function)  # a string, or a slot or property (per node)
        assert (isinstance(name, str) and name) or hasattr(name, "__get__"), cls
        names = cls.saved_names
        assert type(names) is tuple or isinstance(names, Without), (cls, names)
        if type(names) is tuple:
            assert all(n is None or isinstance(n, str) for n in names), cls
            if cls.saved_order is not None:
                assert sorted(cls.saved_order) == list(range(len(names))), cls
        assert cls.jvp is None or callable(cls.jvp) or isinstance(cls.jvp, Without), cls
        assert cls.jvp is not None, cls  # None: left to the default


def test_the_batching_table_is_what_the_builtins_declare():
    want = {}
    for e in ENTRIES:
        assert e.batch is None or isinstance(e.batch, str) or callable(e.batch), e
        if isinstance(e.batch, str):
            assert e.batch in BATCH_KINDS, f"{e.name}: no batching kind {e.batch!r}"
        if e.batch is not None:
            rule = BATCH_KINDS[e.batch] if isinstance(e.batch, str) else e.batch
            for n in (e.name, *e.aliases):
                want.setdefault(n, rule)
    # and the internal ops (FUNCTIONS) declared with `internal(name, batch=...)`
    internal = {n: r for n, r in BATCH_RULES.items() if n not in want}
    assert all(n in FUNCTIONS for n in internal), sorted(internal)
    assert {n: BATCH_RULES[n] for n in want} == want
    assert set(BATCH_RULES.values()) <= set(BATCH_KINDS.values())


def test_every_batching_kind_is_used():
    used = set(BATCH_RULES.values())
    unused = [k for k, rule in BATCH_KINDS.items() if rule not in used]
    assert not unused, unused


def test_no_module_keeps_a_list_of_op_names():
    """The facets are read from the declarations: the lists they replace are gone."""
    import gradcli.engine.number_nodes as number_nodes
    import gradcli.language.arity as arity
    import gradcli.language.bitwise as bitwise
    import gradcli.language.loop_shapes as loop_shapes
    import gradcli.language.runtime as runtime
    import gradcli.library.inplace as inplace
    import gradcli.ops as ops
    import gradcli.ops.batch_rules as batch_rules
    import gradcli.ops.elementwise as elementwise

    for mod, names in (
        (batch_rules, ("ELEMENTWISE", "_TUPLE_DIMS", "_FLAT_DIMS", "_PRODUCT_DIMS")),
        (loop_shapes, ("PURE_FUNCS", "PURE_METHODS")),
        (arity, ("SINGLE", "OVERLOADED", "METHOD_SINGLE", "EXPECTED")),
        (number_nodes, ("NUMBER_OPS",)),
        (elementwise, ("OPERATOR_NODES",)),
        (inplace, ('"clamp_min"', '"logical_not",', "METHOD_INPLACE", '"bitwise_and"')),
        (ops, ('"bitwise_left_shift",',)),
        (runtime, ("_TENSOR_OPS", '"floor_divide"', '("lt",')),
        (bitwise, ('"bitwise_and"', '"bitwise_left_shift"')),
    ):
        src = inspect.getsource(mod)
        assert not [n for n in names if n in src], mod.__name__


def test_every_declared_inplace_method_exists():
    """An op that declares `inplace=` has that method (made from the op by
    library/inplace.py, or written there by hand), and is a method itself."""
    for e in ENTRIES:
        if e.inplace:
            assert e.method, e.name
            assert isinstance(e.inplace, Inplace), e.name
            assert e.inplace.name in METHOD_ONLY, f"{e.name}: no method {e.inplace.name}"
            assert METHOD_ONLY[e.inplace.name].inplace is None


def test_purity_has_its_forms():
    for e in ENTRIES:
        assert e.pure in (True, False, "method", "quiet"), e.name
        if e.pure == "method":
            assert e.method, e.name  # "method": as x.f(numbers)


def test_the_vjp_helpers_are_not_patched_from_outside():
    """ArrayF (the VJPs' array helpers) is whole where it is defined: no module sets
    its attributes at import (the sum op's order is numerics/sums/axes.py's)."""
    import ast
    from pathlib import Path

    for path in Path(gradcli.__file__).parent.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Assign):
                for t in node.targets:
                    assert not (
                        isinstance(t, ast.Attribute)
                        and isinstance(t.value, ast.Name)
                        and t.value.id in ("ArrayF", "TensorF")
                    ), f"{path}:{node.lineno}"


def test_samples_are_given_or_explicitly_none():
    for e in ENTRIES:
        if isinstance(e.checks, Without):
            assert e.checks.reason.strip(), e.name
        else:
            assert isinstance(e.checks, list) and e.checks, e.name
            for sample in e.checks:
                args, kwargs = sample
                assert isinstance(args, tuple) and isinstance(kwargs, dict), (e.name, sample)


def test_parsers_have_their_forms():
    """register(parser=...): a Parser, {name or alias: Parser} naming only the entry's
    own names, or None."""
    for e in ENTRIES:
        p = e.parser
        if isinstance(p, dict):
            assert set(p) <= {e.name, *e.aliases}, e.name
            assert all(isinstance(v, Parser) for v in p.values()), e.name
        else:
            assert p is None or isinstance(p, Parser), e.name


def _grammar_operators(*tokens):
    """The symbols of the grammar's operator tokens `tokens` (grammar/gradcli.lark)."""
    import re
    from pathlib import Path

    text = (Path(gradcli.__file__).parent.parent / "grammar" / "gradcli.lark").read_text()
    found = set()
    for token in tokens:
        m = re.search(rf"^{token}(?:\.\d+)?:((?:.*\n)(?:\s+\|.*\n)*)", text, re.M)
        assert m, token
        found.update(re.findall(r'"([^"]+)"', m.group(1)))
    return found


#: the grammar's tokens of binary operators (`a op b`)
BINARY = ("ADD_OP", "MUL_OP", "STAR", "AT", "DOUBLESTAR", "POW_OP", "BIT_OP", "SHIFT_OP")


def test_every_operator_of_the_language_is_declared_by_one_op():
    """Each binary operator and comparison of the grammar is an op's declaration
    (register(operators=...)): the language's tables of operators are derived from it."""
    want = _grammar_operators(*BINARY, "COMP_OP")
    assert {"+", "//", "@", "**", "^", "<<", "&", "<="} <= want
    assert set(OPERATORS) == want
    for e in ENTRIES:
        assert isinstance(e.operators, tuple), e.name
        for o in e.operators:
            assert isinstance(o, Operator) and OPERATORS[o.symbol] == (o, e), (e.name, o)
            assert e.name in FUNCTIONS, e.name


def test_augmented_assignment_is_the_declared_in_place_method():
    """`x op= y` on a tensor is in place exactly where the op declaring `op` has an
    in-place method and does not say otherwise; it then runs that method."""
    from gradcli.library.inplace import AUGMENTED

    augmented = _grammar_operators("AUGOP")
    assert set(AUGMENTED) <= augmented
    for sym in augmented:
        o, e = OPERATORS[sym[:-1]]
        assert (sym in AUGMENTED) == bool(o.in_place and e.inplace), sym
        if sym in AUGMENTED:
            method = METHOD_ONLY[e.inplace.name].fn
            fn = AUGMENTED[sym]
            inner = [c.cell_contents for c in fn.__closure__ or ()] if fn is not method else []
            assert fn is method or method in inner, sym
