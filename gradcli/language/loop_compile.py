"""A qualifying loop body's statements compiled for the replay (language/loop_shapes.py
says which bodies qualify, language/replay.py replays them): `compile_body` and
`compile_def` check the rules about a body's names and give, per statement, its kind,
its closure and what replaying it needs (`_item`)."""

from __future__ import annotations

from ..library.scalar_steps import METHOD_STEPS
from ..ops.registry import BUILTINS, METHOD_ONLY
from . import runtime as rt
from .functions import Scope
from .loop_split import held, kind_of, split, to_cell, unpacked
from .loop_schedules import schedules
from .loop_updates import _data_step, _grad_of, displayed
from .loop_shapes import (
    _args,
    _augmented,
    _batch,
    _condition,
    replayed_def_statements,
    _has_call,
    _item_of,
    _kind,
    _loop_targets,
    _no_grad_number,
    _number,
    _DEF_REPLAYS,
    _REPLAYS,
    _scaled_item,
    _statements,
    _trees,
    _written,
    names_in,
    namespace_calls,
)
from .parser import Tree
from .positions import pos


def compile_body(comp, suite, target_names, cond, heads=frozenset()):
    """The statements of a loop body that qualifies, compiled (`_item`), else None.
    `target_names`: what a for loop binds; `cond`: a while loop's condition (numbers and
    variables only, `_condition`: it runs between replayed iterations)."""
    if comp.fn is not None and getattr(comp.fn, "kind", None) == "class":
        return None
    if cond is not None and not _condition(cond):
        return None
    return _with_tail(comp, _statements(suite), target_names, cond, heads)


def compile_def(comp, suite):
    """A `def` body that qualifies (language/replay_defs.py): its statements but a
    docstring and a last `return`, which qualify as a loop body's do (`global` and
    `nonlocal` declarations as `pass`; the parameters are variables), compiled, the
    `return` statement's closure (None if there is none) and the names the program can
    see when the call ends: those the `return` reads and the made names that are not
    the function's locals (`global`, `nonlocal`), the name `return name` reads (None
    when it returns no value, "" for any other value), and for `return name.item()` of
    a local made name, that name and the statement's (line, column) (else None: the
    call returns the number taken from the replayed value, the name never made); else
    None."""
    nodes, ret = replayed_def_statements(suite)
    items = _compile(comp, nodes, set(), None, replays=_DEF_REPLAYS)
    if items is None or any(it[0] == "batch" for it in items):
        return None
    seen = names_in(ret) if ret is not None else set()
    seen |= {
        it[1]
        for it in items
        if it[0] == "assign" and comp.fn.mode(it[1]) != "local" and not held(it[1])
    }
    value = ret.children[0] if ret is not None and ret.children else None
    if value is None:
        returns = None
    elif isinstance(value, Tree) and value.data == "name":
        returns = value.children[0].value
    else:
        returns = ""
    made = _item_of(value) if returns == "" else None
    if made is not None and not any(
        it[0] == "assign" and it[1] == made and comp.fn.mode(made) == "local" for it in items
    ):
        made = None
    number = (made, pos(ret)) if made is not None else None
    comp.depth += 1  # (as Compiler.block compiles a block)
    try:
        return items, (comp.small(ret) if ret is not None else None), seen, returns, number
    finally:
        comp.depth -= 1


def _moving(n, kind, moving):
    """A statement's kind, "batch" for an assignment `x = X[i]` (loop_shapes._batch)
    whose index reads what changes each iteration (`moving`: the loop's target, a
    counter): run as compiled in its place, its value a batch, where a replayed one
    would take the number as a constant its check then fails every iteration."""
    if kind[0] != "assign" or not _batch(n.children[1]):
        return kind
    reads = names_in(n.children[1])
    return ("batch", kind[1]) if reads & moving and kind[1] not in reads else kind


def _tail(nodes, kinds):
    """Where a loop body's compiled tail starts (`_compile`): its first statement of a kind
    a replayed body may not have (or an `if` whose condition reads a name the body
    binds: `if val < best:`), when a `backward` comes before it (a training step: a
    loop of plain Python would leave the fast tier, and its function with it), else
    None."""
    written = set().union(*(_written(n) for n in nodes))
    kinds = _scheduled(nodes, kinds)  # (a schedule a replayed statement reads: None)
    kinds = [  # (an `if` on what the body changes: tested in its place, compiled)
        None if k is not None and k[0] == "guard" and names_in(k[1]) & written else k for k in kinds
    ]
    if None not in kinds:
        return len(kinds)
    at = kinds.index(None)
    if not any(k[0] == "backward" for k in kinds[:at]):  # (a training step: no plain Python)
        return None
    made = {k[1] for k in kinds[:at] if k[0] == "assign"}
    made |= set().union(*(unpacked(n) for n in nodes[:at]))  # (`logits, loss = ...`)
    if any(_written(n) & made for n in nodes[at:]):
        return None  # (a made name bound again by the tail)
    return at


def _scheduled(nodes, kinds):
    """loop_schedules.schedules' kinds, a schedule that reads a name a replayed statement
    makes (`total += correct`) None (as before schedules: a compiled tail's)."""
    kinds = schedules(nodes, kinds)
    made = {k[1] for k in kinds if k is not None and k[0] in ("assign", "batch")}
    made |= set().union(*(unpacked(n) for n in nodes))  # (`logits, loss = ...`)
    return [
        None if k is not None and k[0] == "schedule" and names_in(n) & made else k
        for n, k in zip(nodes, kinds)
    ]


def _with_tail(comp, nodes, target_names, cond, heads=frozenset()):
    """A loop body's items (`_compile`): the statements from the first of a kind a
    replayed body may not have on (after statements that replay: `_tail`) run as
    compiled each iteration, the names made before them bound first (its items of kind
    "compiled", replay_tail.py); the names they bind are counters to the statements
    before them (an op reading one would be checked to fail every iteration)."""
    at = _tail(nodes, [kind_of(n) for n in nodes]) if nodes else None
    if at is None or at == len(nodes):
        return _compile(comp, nodes, target_names, cond, heads=heads)
    rest = set().union(*(_written(n) | _loop_targets(n) for n in nodes[at:]))
    items = _compile(comp, nodes[:at], target_names, cond, frozenset(rest), heads)
    if items is None:
        return None
    comp.depth += 1  # (as Compiler.block compiles a block)
    try:
        for n in nodes[at:]:
            items += (_item(comp, n, ("compiled", None), set(), set(), ({}, {})),)
    finally:
        comp.depth -= 1
    return items


def _compile(
    comp, nodes, target_names, cond, changing=frozenset(), heads=frozenset(), replays=_REPLAYS
):
    """The items of a body's statements (`_item`), or None when it does not qualify
    (`changing`: names that change each iteration, read as counters; `heads`: the names
    of target_names a compiled head binds, which an index reading them does not make a
    batch: `emb = C[Xb]` after `Xb, Yb = Xtr[ix], Ytr[ix]`, an op of the forward on a
    parameter, its index tensor taken each iteration, replay_plan._keys)."""
    cond_names = names_in(cond) if cond is not None else set()
    nodes, alt, cells = split(nodes)  # (`total += E.item()`: loop_split.py)
    kinds = _scheduled(nodes, [_kind(n) for n in nodes])  # (lr = 0.1 * 0.99 ** i: compiled)
    if not nodes or None in kinds:
        return None
    timed = set().union(*(_written(n) for n, k in zip(nodes, kinds) if k[0] == "schedule"))
    counters = {k[1] for k in kinds if k[0] in ("counter", "number")} | changing | timed
    counters |= {k[1][0] for k in kinds if k[0] == "item"}  # (changed by the body too)
    clipped = _clipped(nodes, kinds)  # norm = clip_grad_norm_(...): bound as compiled
    counters |= clipped or set()
    kinds = [_moving(n, k, (target_names - heads) | counters) for n, k in zip(nodes, kinds)]
    if clipped is None or not any(k[0] in replays for k in kinds):
        return None
    made = set()  # names made by replayed statements so far
    results = {k[1] for k in kinds if k[0] == "assign"}
    written = set().union(*(_written(n) for n in nodes))
    batches = {k[1] for k in kinds if k[0] == "batch"}
    if not _apart(nodes, kinds, (results, batches, clipped, counters), target_names | cond_names):
        return None
    bound = set()  # (the names of `clipped` bound so far)
    for at, (n, (kind, what)) in enumerate(zip(nodes, kinds)):
        reads = names_in(n)
        if kind == "batch":  # (no made name, no batch not made yet)
            if names_in(n.children[1]) & (results | batches):
                return None
            batches.discard(what)
            continue
        if reads & batches:
            return None  # (a batch read before the statement that makes it)
        if kind in ("assign", "number"):  # (a no_grad number's name: a counter)
            value = names_in(n.children[1] if kind == "assign" else _no_grad_number(n)[1])
            if (
                (value & results) - made
                or (value - results) & counters
                or (kind == "number" and what in results)
            ):
                return None  # read before it is made here, or changed by the body
            made.update({what} & results)
        elif kind == "backward":
            if what not in made:
                return None
        elif kind == "item":  # (its factor reads no made name: it runs in its place)
            if what[1] not in made or what[0] in results:
                return None
            if (names_in(n.children[2]) - {what[1]}) & results:
                return None
        elif kind == "guard":
            if names_in(what) & written:
                return None
        elif kind == "append_call":  # (no made name read: the call's arguments are
            # checked before the iteration, as an assignment's variables are)
            if what[0] in results or what[0] in written or reads & (results | counters):
                return None
        elif kind == "append":
            if what[1] in clipped & bound:  # hist["norm"].append(norm.item()): the tensor
                # the library's function returned, its number taken as compiled
                what = (what[0], None, what[2])
                kinds[at] = (kind, what)
            if not _append_fits(what, reads, made, results, written):
                return None
        elif reads & results:  # counters and updates: no made name
            return None
        elif kind == "library" and n.data == "assign":
            bound.add(n.children[0].children[0].value)
    changed = set().union(*(_augmented(n) for n in nodes))
    moved = changed | target_names | timed  # (a step's factor a loop's target or a head's name
    # binds, `p -= lr * p.grad` after `lr = lrs[i]`: read as it is then, not a constant)
    items = []
    comp.depth += 1  # (as Compiler.block compiles a block)
    try:
        for n, kind_what in zip(nodes, kinds):
            steps = kind_what[0] in ("updates", "each")
            items.append(
                _item(comp, n, kind_what, results, moved if steps else changed, (alt, cells))
            )
    finally:
        comp.depth -= 1
    return tuple(items)


def _append_fits(what, reads, made, results, written):
    """Whether `recv.append(...)` (loop_shapes._append: `what`) appends to a list no
    statement binds and reads no made name but the one whose number it takes, made
    before it."""
    recv, name, _ = what
    return not (
        recv in results
        or recv in written
        or (name is not None and name not in made)
        or (reads - {name}) & results
    )


def _apart(nodes, kinds, names, others):
    """Whether each name a replayed assignment makes is made once, and the names made, the
    batches and the names `_clipped` gives (`names`: with the counters) are apart from
    one another, from the counters and from `others` (the loop's target and condition)."""
    results, batches, clipped, counters = names
    return not (
        len(results) != sum(k[0] == "assign" for k in kinds)
        or results & others
        or clipped & (results | batches | others)
        or batches & (results | counters | others)
        or any(sum(k[1] in _written(n) for n in nodes) != 1 for k in kinds if k[0] == "batch")
    )


def _clipped(nodes, kinds):
    """The names `name = f(args)` statements of a library function that declares
    `replay_compiled` bind (`norm = clip_grad_norm_(...)`, run as compiled), or None when
    another statement binds one of them too."""
    out = {
        n.children[0].children[0].value
        for n, k in zip(nodes, kinds)
        if k[0] == "library" and n.data == "assign"
    }
    if any(sum(name in _written(n) for n in nodes) != 1 for name in out):
        return None
    return out


def _literals(comp, node):
    """The numbers an expression writes: each number-only part of it (`2`, `-2`,
    `2.5 + 2.5`), computed by its own compiled closure (so as the program computes it),
    and the numbers the pure ops' functions it calls by name default to (`eps=1e-05` of
    `F.layer_norm(x, (8,))`, `beta=1.0` of `F.smooth_l1_loss`: numbers its call writes
    without spelling them; the function the name reaches is checked when the plan is
    made, replay_checks.namespaces)."""
    out = set()
    for t in _trees(node):
        if t.data == "call" and isinstance(t.children[0], Tree):
            fn = t.children[0]
            name = fn.children[1] if fn.data == "getattr" else fn.children[0]
            out |= _defaults(getattr(name, "value", None))
        if (
            t.data in ("number", "binary", "power", "unary")
            and not names_in(t)
            and all(u.data in ("number", "binary", "power", "unary") for u in _trees(t))
        ):
            try:  # (a number-only part reads no variable: an empty scope serves)
                v = comp.expr(t)(Scope())
            except Exception:
                continue
            if type(v) in (int, float):
                out.update((v, -v))
    return out


def namespaced(name):
    """The function of the op `name` that only a namespace holds (neither a built-in nor
    a method: `F.linear`), which a replayed statement may call through it, else None."""
    entry = METHOD_ONLY.get(name)
    return entry.fn if entry is not None and not entry.method and not entry.function else None


def _defaults(name):
    """The numbers the function of the pure op `name` defaults its parameters to."""
    entry = (BUILTINS.get(name) or METHOD_ONLY.get(name)) if name is not None else None
    if entry is None or entry.pure is not True:
        return set()
    fn = entry.fn
    given = (*(fn.__defaults__ or ()), *(fn.__kwdefaults__ or {}).values())
    return {v for v in given if type(v) in (int, float)}


def _item(comp, n, kind_what, results, changed, parts):
    """(kind, name or condition, the statement's closure, what replaying it needs,
    line, column) of one statement of a qualifying body.  What replaying needs:
    an assignment's name's store and load, (name, load, changed, gradcli's own value of
    the name) of each variable it reads (`changed`: the body changes it in place, so it
    may not hold a number) and the numbers it writes; a backward's load of its name; an
    `if`'s condition and loads; for the others, (name, load, gradcli's own value) of each
    variable they read.  `parts`: the parts of split statements (loop_split.split's
    nodes to compile their closures from, and cells)."""
    kind, what = kind_what
    line, col = pos(n)
    cell = parts[1].get(what) if kind == "assign" else None
    if cell is not None:  # (the first part of a split statement: its value to the cell)
        closure = to_cell(comp.expr(n.children[1]), cell, line, col)
    elif n.data in ("if_stmt", "with_stmt", "for_stmt"):
        closure = comp.compound(n)
    else:
        closure = comp.small(parts[0].get(id(n), n))
    builtins = comp.builtins

    def reads(node, skip=()):
        return tuple(
            (name, comp.load_name(name, n), name in changed, builtins.get(name))
            for name in sorted(names_in(node) - set(skip))
        )

    if kind == "compiled":  # (a tail's statement: replay_tail.py, reading nothing first)
        return (kind, what, closure, (), line, col)
    if kind in ("assign", "number"):
        value = n.children[1] if kind == "assign" else _no_grad_number(n)[1]
        read = reads(value, results)
        if kind == "number":  # (and the names its `with` reads: gradcli's own, checked)
            head = reads(n.children[0], results)
            read = tuple(sorted({r[0]: r for r in read + head}.values(), key=lambda r: r[0]))
        extra = (
            comp.store_name(what) if cell is None else cell.store,
            comp.load_name(what, n.children[0]) if cell is None else cell.load,
            read,
            _literals(comp, value),
            tuple(
                (name, path, attr, builtins.get(attr) or namespaced(attr))
                for name, path, attr in sorted(namespace_calls(value))
                if name not in results
            ),
            _has_call(value),
            _def_call(comp, value) if kind == "assign" else None,
        )
    elif kind == "backward":
        at = n.children[0].children[0].children[1]  # the `backward` of name.backward()
        held = parts[1].get(what)  # (`E.backward()` split: its root in the cell)
        extra = (comp.load_name(what, n) if held is None else held.load, at.line, at.column)
    elif kind == "guard":
        extra = (comp.expr(what), tuple(comp.load_name(name, n) for name in sorted(names_in(what))))
    elif kind == "item":  # (and the factor's closure, whether the number comes first)
        target = n.children[0]
        _, factor, first = _scaled_item(n.children[2])
        extra = (
            comp.store_name(what[0]),
            comp.load_name(what[0], target),
            reads(n, results),
            rt.binary_op(n.children[1].value[:-1], augmented=True),
            (comp.expr(factor), first, rt.binary_op("*")) if factor is not None else None,
        )
    elif kind == "batch":  # (its name's load, the variables it reads)
        extra = (comp.load_name(what, n.children[0]), reads(n.children[1]))
    elif kind == "append_call":  # (the list's load, the variables the call reads, the
        # call: _def_call's)
        arg = _args(n.children[0])[0]
        extra = (comp.load_name(what[0], n), reads(arg), _def_call(comp, arg))
    elif kind == "append":  # (the list's load, the argument's closure when it is no
        # made name's number, the variables it reads but made names, and for
        # `name["key"].append(...)` the variable's load and the key)
        arg = _args(n.children[0])[0]
        load = comp.load_name(what[0], n)
        key = comp.expr(what[2])(Scope()) if what[2] is not None else None
        extra = (
            load if key is None else _keyed(load, key),
            comp.expr(arg) if what[1] is None else None,
            reads(n, results),
            load if key is not None else None,
            key,
        )
    else:
        bound = _loop_targets(n)
        if kind == "library" and n.data == "assign":  # (the name it binds: not read)
            bound.add(n.children[0].children[0].value)
        if kind == "schedule":  # (the names it binds and does not read)
            bound |= what
        extra = reads(n, bound)
        if n.data == "with_stmt":
            what = _block(comp, n)
        elif kind == "each" and n.data != "for_stmt":  # w.grad = None in the body itself
            what = (None, ((closure, line, _shape(comp, n)),), set())
        elif kind == "each":  # (as a no_grad block's statements: _block's form)
            comp.depth += 1  # (as Compiler.block compiles the loop's body)
            try:
                what = (None, (_each_shape(comp, n),), set())
            finally:
                comp.depth -= 1
    return (kind, what, closure, extra, line, col)


def _keyed(load, key):
    """The load of `name["key"]` of a variable holding a dict (checked before it runs)."""

    def load_keyed(s):
        return load(s)[key]

    return load_keyed


def _def_call(comp, value):
    """(the function's name, a closure per argument) of an assignment's value that is a
    call `f(a, b, 0.1)` of a variable, each argument a name, a number, None, True or
    False (a call of a
    `def` whose calls replay: replay_plan.py makes it the loop's own, replay_defs.py),
    else None."""
    if not (isinstance(value, Tree) and value.data == "call"):
        return None
    fn, args = value.children[0], _args(value)
    if not (isinstance(fn, Tree) and fn.data == "name") or args is None:
        return None
    if not all(a.data in ("name", "none", "true", "false") or _number(a) for a in args):
        return None
    return fn.children[0].value, tuple(comp.expr(a) for a in args)


def _block(comp, n):
    """A no_grad block's parts, for replaying it: (its context expression's closure,
    per statement (its closure, its line, its shape), the names the expression
    reads); a shape is ("step", target, op, factor, w, divisor) for `target op= factor *
    w.grad` and `target.sub_(factor * w.grad)` (add_, mul_: op "-=", "+=", "*="; factor a
    name, its negation or a number literal, as ("name", name), ("-name", name) or
    ("number", value); divisor None, or a name or number as the factor for `factor *
    w.grad / divisor`), ("data", target, op, factor, w, divisor) for `target.data op=
    factor * w.grad`
    (`p.data += -lr * p.grad`), ("none", w) for
    `w.grad = None`, ("zero", w) for `w.grad.zero_()`, ("each", target, recv, method,
    the target's store, (closure, line, shape) per statement of its body, the loop's
    (line, column): its iterable's, where it counts steps) for `for target in recv.method(): ...` (_over_parameters; its closure
    None), or None."""
    item, suite = n.children[0], n.children[-1]
    head = comp.expr(item.children[0])
    comp.depth += 1  # (as Compiler.block compiles the block)
    try:
        out = _simple(comp, suite)
    finally:
        comp.depth -= 1
    return head, tuple(out), names_in(item.children[0])


def _simple(comp, suite):
    """(closure, line, shape) per statement of a no_grad block's suite (`_block`)."""
    out = []
    for child in suite.children:
        if not isinstance(child, Tree):
            continue
        if child.data == "for_stmt":  # (_over_parameters)
            # (no closure: the block runs as compiled when the replay cannot run the
            # loop, replay_updates._each; compiled again, the loop would be reported twice)
            out.append(_each_shape(comp, child))
            continue
        for st in child.children:
            if st is not None:
                out.append((comp.small(st), pos(st)[0], _shape(comp, st)))
    return out


def _each_shape(comp, node):
    """(None, line, ("each", target, recv, method or None, the target's store, its
    statements as `_simple` gives them, (line, column) where the loop counts its steps))
    of `for target in recv.method():` or `for target in recv:` (_over_parameters)."""
    target, iterable, body, _ = node.children
    if iterable.data == "name":
        recv, method = iterable.children[0].value, None
    elif displayed(iterable) is not None:  # (`for p in (w, b):`: the names, no method)
        recv, method = displayed(iterable), None
    else:
        fn = iterable.children[0]
        recv, method = fn.children[0].children[0].value, fn.children[1].value
    comp.depth += 1  # (its body, as Compiler.block compiles it)
    try:
        inner = tuple(_simple(comp, body))
    finally:
        comp.depth -= 1
    name = target.children[0].value
    shape = ("each", name, recv, method, comp.store_name(name), inner, pos(iterable))
    return (None, pos(node)[0], shape)


def _shape(comp, st):
    d, ch = st.data, st.children
    if d == "assign":
        return ("none", _grad_of(ch[0]))  # (_update: `w.grad = None`)
    if d == "expr_stmt":  # w.grad.zero_(), w.sub_(factor * w.grad) (_update)
        c = ch[0]
        recv, attr = c.children[0].children[0], c.children[0].children[1].value
        if attr == "zero_":
            return ("zero", _grad_of(recv))
        args = _args(c)
        op = METHOD_STEPS.get(attr)
        if op is None or args is None or len(args) != 1:
            return None
        return _step_shape(comp, recv.children[0].value, op, args[0])
    if d != "augassign":
        return None
    if ch[0].data == "name":
        return _step_shape(comp, ch[0].children[0].value, ch[1].value, ch[2])
    if _data_step(st):  # `w.data op= factor * w.grad`: in any grad mode, no version bump
        got = _step_shape(comp, ch[0].children[0].children[0].value, ch[1].value, ch[2])
        return None if got is None else ("data",) + got[1:]
    return None


def _step_shape(comp, target, op, value):
    ch = value.children if value.data == "binary" else ()
    if not (len(ch) in (3, 5) and ch[1].value == "*"):
        return None
    divisor = None
    if len(ch) == 5:  # `factor * w.grad / divisor` (d2l's `sgd`)
        divisor = _factor(comp, ch[4]) if ch[3].value == "/" else None
        if divisor is None or divisor[0] == "-name":
            return None
    factor, g = _factor(comp, ch[0]), _grad_of(ch[2])
    if g is None or factor is None:
        return None
    return ("step", target, op, factor, g, divisor)


def _factor(comp, f):
    """A step's factor or divisor: ("name", name), ("-name", name) for its negation
    (`-lr`, Python's) or ("number", value) for a number literal, else None."""
    if f.data == "name":
        return ("name", f.children[0].value)
    if f.data == "unary" and f.children[0].value == "-" and f.children[1].data == "name":
        return ("-name", f.children[1].children[0].value)
    if _number(f):
        try:
            return ("number", comp.expr(f)(None))
        except Exception:
            return None
    return None
