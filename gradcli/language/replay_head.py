"""A replayed loop body's compiled head: the assignments a body starts with that a
replayed body may not have (`xb, yb = get_batch("train")`, a call of the program's own
function drawing a minibatch, `x = next(it)`), before statements that qualify (the
training step).  Each iteration binds the names the last replayed iteration made (the
head may run code of the program, which could read them: as a tail's does,
replay_tail.py), runs the head as compiled and replays the rest, the names the head
binds read as a `for` target's are: each iteration's data tensors, checked by their
kind (replay_plan._swapped).  The plan is never steady (the head may have changed
anything: every check before each iteration), but for a quiet head (`_quiet`:
`inputs, targets = batch` of a tuple of tensors), which runs no code of the program: the
names made stay pending, and a steady plan checks only the names it binds."""

from __future__ import annotations

from .loop_compile import compile_body
from .loop_split import kind_of
from ..core.dtypes import DType
from ..core.tensor import Tensor
from ..library.values import Module as Namespace
from ..ops.creation import TorchGenerator
from ..ops.registry import BUILTINS
from ..runtime.device import Device
from .loop_shapes import (
    REPORT,
    _kind,
    _loop_targets,
    _pure_method,
    _statements,
    _string,
    _written,
    augmented,
)
from .loop_shapes import _made_of, bound_names
from .loop_shapes import names_in, report
from .parser import Tree
from .positions import pos
from .replay import MAX_RECORDS, Body, _names, _not
from .stmtlines import sequence


def _bound(n):
    """The names an assignment `name = value` or `a, b = value` binds, else None."""
    if n.data != "assign" or len(n.children) != 2:
        return None
    target = n.children[0]
    if isinstance(target, Tree) and target.data == "name":
        return {target.children[0].value}
    if isinstance(target, Tree) and _names(target):
        return {c.children[0].value for c in target.children if c is not None}
    return None


def _headed(n):
    """The names a statement a head may have binds (`_bound`'s assignments, or a `for`
    loop without `else` over a name, `for g in opt.param_groups: g["lr"] = lr`: its
    target and what its statements bind), else None."""
    if n.data == "if_stmt":  # (`if it % eval_interval == 0: losses = estimate_loss()`)
        return _written(n) | _loop_targets(n)
    if n.data != "for_stmt":
        return _bound(n)
    target, _, _, other = n.children
    if other is not None or not (isinstance(target, Tree) and target.data == "name"):
        return None
    return {target.children[0].value} | _written(n)


#: the kinds of statement that may read a name a schedule binds (`_scheduled`): no_grad
#: steps and gradient clearing, run as compiled, reading the name as it is then
_STEPS = frozenset({"updates", "each", "schedule"})


def _scheduled(nodes, at):
    """Whether the assignment `nodes[at]` binds a name that only steps read after it (a
    learning rate `lr = 0.1 * 0.99 ** i`, `lr = lrs[i]` read by `p -= lr * p.grad`, or by
    a head's `g["lr"] = lr`), its value made of numbers, names, arithmetic, subscripts
    and calls of names (`_numeric`, no method: a tensor's op): a number the iteration
    changes, run in the head, where a replayed assignment that applies no op gives no
    plan."""
    n = nodes[at]
    if _kind(n) is None or _kind(n)[0] != "assign" or not _numeric(n.children[1]):
        return False
    name = _kind(n)[1]
    readers = [m for m in nodes[at + 1 :] if name in names_in(m)]
    return bool(readers) and all(kind_of(m) is None or kind_of(m)[0] in _STEPS for m in readers)


def _numeric(node) -> bool:
    """Whether an expression is made of numbers, names, `+ - * / // % **`, unary minus,
    `name[index]` and calls `f(args)` of a name (`get_lr(it)`, `lrs[i]`), each part so."""
    return _made_of(node, _NUMERIC, _numeric_part)


def _numeric_part(node) -> bool:
    """An index `x[i, ...]` or a call `f(a, ...)` of a name whose parts are `_numeric`."""
    d, ch = node.data, node.children
    if d == "getitem":
        subs = ch[1]
        return (
            _numeric(ch[0])
            and isinstance(subs, Tree)
            and subs.data == "subscripts"
            and all(map(_numeric, subs.children))
        )
    if d == "call":
        args = ch[1].children if ch[1] is not None else ()
        return (
            isinstance(ch[0], Tree)
            and ch[0].data == "name"
            and all(isinstance(a, Tree) and a.data not in _ARGS and _numeric(a) for a in args)
        )
    return False


_NUMERIC = frozenset({"+", "-", "*", "/", "//", "%", "**"})
_ARGS = frozenset({"kwarg", "star_arg", "kw_arg", "starstar_arg"})


def head_length(nodes):
    """How many statements a body's head has: the `_headed` statements it starts with, up
    to the last of a kind a replayed body may not have among them (or a schedule's
    assignment, `_scheduled`); 0 when it has none or no `backward` follows it (a training
    step: a loop of plain Python, or a function holding one, would leave the fast tier,
    as for a tail: loop_compile._tail)."""
    at = end = 0
    while at < len(nodes) and _headed(nodes[at]) is not None:
        at += 1
        if kind_of(nodes[at - 1]) is None or _scheduled(nodes, at - 1):
            end = at
    kinds = [kind_of(n) for n in nodes[end:]]
    return end if any(k is not None and k[0] == "backward" for k in kinds) else 0


def compile_loop(comp, suite, target, cond):
    """The Body of a loop (replay.Body.compile), or, for a body that starts with a head
    (`head_length`), a Headed one: its head's closure and its other statements
    compiled as a body of their own, the head's names read as the target's; None when
    neither qualifies."""
    nodes = _statements(suite)
    at = head_length(nodes)
    if at == 0 or (comp.fn is not None and getattr(comp.fn, "kind", None) == "class"):
        return Body.compile(comp, suite, target, cond)
    names = names_in(target) if target is not None else set()
    heads = set().union(*(_headed(n) for n in nodes[:at]))
    line = pos(target if target is not None else cond)[0]
    items = compile_body(comp, _suite(suite, nodes[at:]), names | heads, cond, heads - names)
    if REPORT:
        report(line, "qualifies (a head of %d statements)" % at if items else _not(suite, comp))
    if items is None:
        return None
    plain = isinstance(target, Tree) and (target.data == "name" or _names(target))
    body = Headed(items, names | heads if plain else None)
    body.line = line
    body.writes, body.augmented = frozenset(names | bound_names(suite)), augmented(suite)
    body.swaps = frozenset(names | heads | {it[1] for it in items if it[0] == "batch"})
    body.keyed = True
    if cond is not None:  # (numbers and variables only: loop_shapes._condition)
        body.cond_loads = tuple(comp.load_name(n, cond) for n in sorted(names_in(cond)))
    comp.depth += 1  # (as Compiler.block compiles a block)
    try:
        closures = tuple(
            comp.small(n) if n.data not in ("for_stmt", "if_stmt") else comp.compound(n)
            for n in nodes[:at]
        )
    finally:
        comp.depth -= 1
    body.head = sequence(closures)
    body.whole = sequence(closures + body.closures)
    written = set().union(*(_written(n) for n in nodes[at:]))
    checks = [_quiet(comp, n, written) if _bound(n) else None for n in nodes[:at]]
    body.quiet = None if None in checks else tuple(zip(closures, checks))
    body.binds = tuple(comp.load_name(name, nodes[0]) for name in sorted(heads))
    return body


def _graphed(loads, s):
    """Whether a name the head bound holds a tensor that requires grad (the output of a
    forward the head ran, `logits, h = model(xb)`): a plan would fail on it (a head's
    names are data tensors, replay_plan._swapped), so none is noted."""
    for load in loads:
        try:
            v = load(s)
        except Exception:
            continue
        if type(v) is Tensor and v.requires_grad:
            return True
    return False


#: what a quiet head's names may hold (unpacked, passed: no code of the program runs)
_PLAIN = frozenset({Tensor, tuple, list, str, int, float, bool, type(None), Device, DType})


def _moves(method) -> bool:
    """Whether a quiet head may call a tensor's method: a pure op's (`x.float()`,
    `x.view(-1, 784)`), or `to` (a copy, or its receiver): none changes a tensor or its
    hooks, so a steady plan holds after it."""
    return method == "to" or _pure_method(method)


#: what a quiet head's index may hold (a subscript's name: `X[idx]`), and a number in a
#: slice's bounds (`perm[i : i + bs]`): an index op on them, or their arithmetic, runs no
#: code of the program
_INDEX = frozenset({Tensor, int, bool, type(None)})
_NUMBER = frozenset({int, bool})
_TENSOR = frozenset({Tensor})
#: the operators of a slice's bounds
_BOUNDS = frozenset({"+", "-", "*", "//", "%"})


#: what a creation op's argument in a quiet head may hold (`_created`), and its namespace
_SCALAR = frozenset({Tensor, int, float, bool, type(None), Device, DType, TorchGenerator})
_SPACE = frozenset({Namespace})


def _created(name):
    """The function of the op `name` when it makes a new tensor and changes none (its
    declaration's category "creation": `torch.randint`, `torch.zeros`), else None."""
    entry = BUILTINS.get(name)
    return entry.fn if entry is not None and entry.category == "creation" else None


def _named(n) -> bool:
    return isinstance(n, Tree) and n.data == "name"


def _called(n, ok, name, funcs) -> bool:
    """For `_quiet`: whether a call is a tensor's method `x.m(args)` (`_moves`) or a
    creation op's function through a namespace (`torch.randint(0, X.shape[0], (32,),
    generator=g)`: `funcs` gets (the namespace's name, the attribute, the function)), each
    argument as `ok` takes it (a creation op's: no container, whose items could run the
    program's `__index__`); `name(node, kinds)` notes what a name may hold."""
    fn, args = n.children
    if fn.data != "getattr" or not _named(fn.children[0]):
        return False
    given = [
        a.children[1] if isinstance(a, Tree) and a.data == "kwarg" else a
        for a in (args.children if args is not None else ())
    ]
    made = _created(fn.children[1].value)
    if made is None:
        if not _moves(fn.children[1].value):
            return False
        name(fn.children[0], _TENSOR)
        return all(ok(a) for a in given)
    funcs.append((fn.children[0].children[0].value, fn.children[1].value, made))

    def drawn(a):
        if _named(a):
            return name(a, _SCALAR)
        if isinstance(a, Tree) and a.data == "tuple_items":
            return all(drawn(c) for c in a.children)
        return isinstance(a, Tree) and a.data != "call" and ok(a)

    return name(fn.children[0], _SPACE) and all(drawn(a) for a in given)


def _quiet(comp, node, written):
    """For a head's statement whose value is made of names, literals, tuple displays,
    method calls `x.m(args)` of such arguments (`_moves`) and indexing of a name by names
    and numbers and slices of int arithmetic (`inputs, targets = batch`, `x, y =
    x.to(device), y.to(device)`, `idx = perm[i : i + bs]`, `xb, yb = X[idx], y[idx]`),
    reading no name the rest binds: a function of the scope telling, before the statement
    runs, whether it runs no code of the program (the receivers hold tensors, an index
    tensors, ints or None (`_INDEX`), a bound ints, the other names plain values or
    gradcli's devices and dtypes: `_PLAIN`); else None."""
    kinds: dict = {}  # name -> the types it may hold
    funcs: list = []  # (namespace's name, attribute, the creation op's function)

    def name(n, allowed):
        v = n.children[0].value
        kinds[v] = kinds[v] & allowed if v in kinds else allowed
        return True

    def bound(n):  # (a slice's bound: ints and their arithmetic)
        if n is None or (isinstance(n, Tree) and n.data == "number"):
            return True
        if not isinstance(n, Tree):
            return False
        if n.data == "name":
            return name(n, _NUMBER)
        if n.data == "binary" and n.children[1].value in _BOUNDS:
            return bound(n.children[0]) and bound(n.children[2])
        return n.data == "unary" and n.children[0].value == "-" and bound(n.children[1])

    def index(n):
        if isinstance(n, Tree) and n.data == "name":
            return name(n, _INDEX)
        if isinstance(n, Tree) and n.data == "slice":
            return all(bound(c) for c in n.children)
        return bound(n)

    def ok(n):
        if not isinstance(n, Tree):
            return False
        if n.data == "name":
            return name(n, _PLAIN)
        if n.data in ("number", "string", "none", "true", "false"):
            return n.data != "string" or _string(n)
        if n.data == "tuple_items":
            return all(ok(c) for c in n.children)
        if n.data == "getattr":  # (`X.shape`)
            recv = n.children[0]
            return _named(recv) and n.children[1].value == "shape" and name(recv, _TENSOR)
        if n.data == "getitem":
            recv, subs = n.children
            return (
                isinstance(recv, Tree)
                and ((recv.data == "name" and name(recv, _TENSOR)) or recv.data == "getattr")
                and ok(recv)
                and isinstance(subs, Tree)
                and subs.data == "subscripts"
                and all(index(c) for c in subs.children)
            )
        if n.data == "call" and isinstance(n.children[0], Tree):
            return _called(n, ok, name, funcs)
        return False

    if not ok(node.children[1]) or set(kinds) & written:
        return None
    loads = tuple((comp.load_name(v, node), kinds[v]) for v in sorted(kinds))
    spaces = tuple((comp.load_name(v, node), attr, fn) for v, attr, fn in funcs)

    def quiet(s):
        try:
            for load, allowed in loads:
                if type(load(s)) not in allowed:
                    return False
            for load, attr, fn in spaces:  # (gradcli's namespace reaching the op's function)
                if load(s).members.get(attr, fn) is not fn:
                    return False
        except Exception:
            return False  # (unbound: its error as compiled)
        return True

    return quiet


def _suite(suite, nodes):
    """A suite of these statements of `suite` (each simple one on a line of its own)."""
    compound = {id(c) for c in suite.children if isinstance(c, Tree) and c.data != "simple_stmt"}
    return Tree(suite.data, [n if id(n) in compound else Tree("simple_stmt", [n]) for n in nodes])


class Headed(Body):
    """A loop body with a compiled head (`compile_loop`)."""

    __slots__ = ("head", "whole", "quiet", "binds")  # (whole: the head and the rest, as
    # compiled; quiet: per statement its closure and `_quiet`'s check, or None; binds:
    # the loads of the names the head binds; not `loads`, the assignments' in Body)

    def start(self, s):
        return _Run(Body.start(self, s), self.head, self.quiet, self.binds)


class _Run:
    """A run of a Headed body: before each iteration the names the last one made are
    bound, then the head runs as compiled; the rest is the replay run's."""

    __slots__ = ("run", "head", "quiet", "loads")

    def __init__(self, run, head, quiet, loads):
        self.run, self.head, self.quiet, self.loads = run, head, quiet, loads

    def iteration(self, s):
        run = self.run
        quiet = self.quiet
        if quiet is not None:  # (statements that run no code of the program leave the
            # names made pending, and a steady plan checks only the names the head binds)
            bound = False
            for closure, ok in quiet:
                if not bound and not ok(s):  # (before the statement: what it reads)
                    bound = True
                    if run.pending:
                        run.bind()
                    run.steady = False
                r = closure(s)
                if r is not None:  # (an assignment gives no signal)
                    return r
            return self._rest(s)
        if run.pending:
            run.bind()
        run.steady = False
        r = self.head(s)
        if r is not None:  # (an assignment gives no signal: kept for the general case)
            return r
        return self._rest(s)

    def _rest(self, s):
        """The statements after the head: the replay run's iteration, which notes none
        when the head bound a tensor that requires grad (`_graphed`: the loop's other
        iterations as compiled, by the fast tier where it can)."""
        run = self.run
        if run.plan is None and run.records < MAX_RECORDS and _graphed(self.loads, s):
            run.records = MAX_RECORDS
            run.why = "a name the head binds holds a tensor that requires grad"
        return run.iteration(s)

    def unsteady(self):
        self.run.unsteady()

    def taking(self):
        self.run.taking()

    def finish(self):
        self.run.finish()
