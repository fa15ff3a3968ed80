"""The fast tier's own compiling (fast_ast.at, fast_ast._copy, fast_tier._same_code): each
part of a tree placed once, a copy that compiles as the tree does, and two bodies told
the same but for the names of their temporaries."""

import ast

from gradcli.language.fast_ast import _copy, at
from gradcli.language.fast_tier import _same_code


def _body(text):
    return ast.parse(text).body


def test_at_places_only_the_parts_not_placed():
    inner = at(ast.BinOp(left=ast.Name("a", ast.Load()), op=ast.Add(), right=ast.Constant(1)), 3, 4)
    outer = at(
        ast.Call(
            func=ast.Name("f", ast.Load()), args=[inner, ast.Name("b", ast.Load())], keywords=[]
        ),
        7,
        0,
    )
    assert (inner.lineno, inner.col_offset, inner.left.lineno) == (3, 4, 3)
    assert (outer.lineno, outer.args[1].lineno, outer.func.col_offset) == (7, 7, 0)
    tree = ast.Expression(body=outer)
    assert eval(compile(tree, "<t>", "eval"), {"f": lambda x, y: x * y, "a": 2, "b": 5}) == 15


def test_copy_makes_new_nodes_that_compile_alike():
    stmts = [at(s, 1, 0) for s in _body("x = [i * 2 for i in range(n) if i % 3]\ny = x[1:]")]
    copied = _copy(stmts)
    assert ast.dump(ast.Module(copied, []), include_attributes=True) == ast.dump(
        ast.Module(stmts, []), include_attributes=True
    )
    assert all(c is not s for c, s in zip(ast.walk(copied[0]), ast.walk(stmts[0])))
    names = {"n": 7}
    exec(compile(ast.Module(copied, []), "<t>", "exec"), names)
    assert names["y"] == [4, 8, 10]


def test_same_code_but_for_temporaries():
    a = _body("n_a = x + 1\nm_b = n_a * n_a")
    b = _body("n_a = x + 1\nm_b = n_a * n_a")
    for tree, names in ((a, ("@t1", "@t2")), (b, ("@t7", "@t3"))):
        tree[0].targets[0].id = tree[1].value.left.id = tree[1].value.right.id = names[0]
        tree[1].targets[0].id = names[1]
    assert _same_code(a, b)
    b[1].value.right.id = b[1].targets[0].id  # (a temporary's other use: not the same)
    assert not _same_code(a, b)
    assert not _same_code(_body("y = x + 1"), _body("y = x + 1.0"))
    assert not _same_code(_body("y = x + 1"), _body("y = x + 1\nz = y"))
