"""Which loop bodies gradcli replays (language/replay.py replays them): the
shapes of statement checked on the parse tree, once, when the loop is compiled.

A `for` or `while` body qualifies when each of its statements is one of:

* `name = expression`, the expression made of variables, number literals, `+ - * /
  ** ^` (and `@` while matmul declares itself pure), one comparison (`a == b`, `a < b`)
  of such expressions while its op declares itself pure, unary minus, the methods of ops
  that declare themselves pure (`register(...,
  pure=True or "method")`, ops/registry.py) with number arguments, and the functions
  of ops that declare `pure=True` (also as `torch.mean(...)`) of such expressions or
  list and tuple displays of them (`torch.cat([h, x], 1)`, `dim=(0, 2)`),
  indexing by numbers and variables (`xy[0]`, `X[idx]`, while the index op declares
  itself pure: an index tensor taken each iteration, replay_plan._keys), and calls
  `model(expression, ...)` of a variable (checked when the plan is made: one of
  gradcli's own modules whose forward runs a pure op, replay_plan.py);
* `recv.method(numbers)`: run as compiled (checked when the plan is made: an object
  whose class declares `replay_calls`, an optimizer or a module of gradcli's own);
* `recv.append(name.item())` of a made name, `recv.append(name)` of a variable or a
  number, recv a variable holding a list or `name["key"]` of one holding a dict of lists
  (`_append`);
* `recv.append(f(args))` of a variable holding a `def` whose calls replay (checked when
  the plan is made: replay_plan.py, replay_defs.py), each argument a name or a number,
  recv a variable holding a list: the call replayed as the loop's item, its value
  appended;
* `f(args)` or `ns.a.f(args)`, f a library function that declares `replay_compiled`
  (library/values.py; `nn.utils.clip_grad_norm_(model.parameters(), 1.0)`), also
  assigned to a name (`norm = clip_grad_norm_(...)`: read after it only by appends,
  `hist["norm"].append(norm.item())`, which then run as compiled), each
  argument a variable, a number, a literal or `name.parameters()`: run as compiled
  (checked when the plan is made: the name reaches that function, the variables hold
  tensors, numbers, lists of tensors or gradcli's own modules,
  replay_checks.library_checks);
* `name.backward()` of a name such a statement made;
* `idx = perm[i : i + bs]`: a variable indexed by numbers, variables and slices of them
  (`_batch`), run as compiled in its place, its name read after it as a loop target's
  batch (replay_records.Batch);
* `i += 1` (`+=` / `-=` of an int literal), `total += name.item()` of a made name (also
  times numbers, variables and `len(variable)`: `_scaled_item`),
  and a `with torch.no_grad():` (or `no_grad`) block of in-place updates `w -=
  expression` (names, numbers, `w.grad` and arithmetic: no call, subscript or
  comparison), `w.grad = None`, `w.grad.zero_()` and `w.sub_(expression)` (an op's
  in-place method, `register(inplace=...)`, of such right sides), also in `for p in
  recv.method():` loops: run as compiled in every iteration; `pass`, `global` and
  `nonlocal` (a `def` body's declarations);
* a schedule (language/loop_schedules.py: `lr = 0.1 if i < 1000 else 0.01`, an `if` /
  `elif` / `else` of such assignments), run as compiled in its place, and `for p in
  params: p.data += -lr * p.grad` (loop_updates._data_step), run as compiled;
* `if condition:` without `else`, the condition made of numbers and variables the body
  does not change, compared or combined (`t % 100 == 99`): tested before the
  iteration, and when it holds, that iteration runs as compiled.

And: each name the first kind makes is made by one statement and read only after it,
by statements of the first two kinds; the variables those statements read otherwise
are not changed by the body (counters, made names); a `while` condition is made of
numbers and variables, and neither it nor a `for` target is a made name.  With the
checks made when the plan is made and before each iteration (language/replay.py: the
variables hold tensors, numbers or gradcli's own functions, `torch` and `no_grad`; a
`for` loop goes over a range, a list or items gradcli's own code takes), no code of the
program runs while the loop does, so nothing can see a made name mid-loop, and each
statement reads the same variables at the start of an iteration as where it stands.
(Items that code of the program makes, a generator's: the names made are bound before
each is taken, and every check made again: replay.Run.taking.)

A loop body whose statements qualify up to one that does not (after at least one
that replays) has a compiled tail: that statement and those after it run as compiled
each iteration (loop_compile._tail, language/replay_tail.py).

A `def` body qualifies (`loop_compile.compile_def`, language/replay_defs.py replays
its calls) when its statements but a docstring and a last `return` qualify as a loop
body's, its parameters read as variables.
"""

from __future__ import annotations

import os
import sys
import weakref

# (torch.nn.utils: its functions' declarations, REPLAY_COMPILED, loaded here; its namespace is
# made only when a program reads it, after the program's loops are compiled)
from ..library.nn import utils  # noqa: F401
from ..library.values import REPLAY_COMPILED
from ..ops.registry import BUILTINS, METHOD_ONLY
from .functions import UserFunction
from .loop_schedules import schedule
from .loop_trees import _args, _made_of, _number, _trees, _written, names_in
from .loop_updates import _clear, _in_body, _no_grad_block, _no_grad_head, _over_parameters
from .parser import Tree
from .positions import pos

_ARITH = frozenset({"+", "-", "*", "/", "**"})
_ARITH_AT = _ARITH | {"@"}  # (and `@` when matmul declares itself pure)
_COND_OPS = frozenset({"+", "-", "*", "%", "//"})
_COMPARE = frozenset({"==", "!=", "<", ">", "<=", ">="})
_COMPARED = {"<": "lt", "<=": "le", ">": "gt", ">=": "ge", "==": "eq", "!=": "ne"}  # their ops


#: the statements a body must have one of to be replayed: an assignment, or the append
#: of a call's value (`losses.append(train_step(model, batch))`)
_REPLAYS = ("assign", "append_call")
#: ... or, for a `def` (its calls replayed), a no_grad block of updates: an optimizer's
#: step written as a function (d2l's `sgd(params, lr, batch_size)`)
_DEF_REPLAYS = _REPLAYS + ("updates", "each")


def pure(node, me=None) -> bool:
    """Whether an expression is of the first kind in the module docstring (`me`: the
    name of a forward's `self`, whose calls `self.attr(...)` are its modules': `through`)."""
    return _made_of(
        node, _ARITH_AT if _pure_function("matmul") else _ARITH, lambda n: _pure_call(n, me)
    )


def _pure_function(name) -> bool:
    """Whether the op `name` declares that a replayed loop may run it as `f(x)` (also
    one that is only a namespace's function, neither a built-in nor a method: F.linear)."""
    entry = BUILTINS.get(name) or METHOD_ONLY.get(name)
    return entry is not None and entry.pure is True and (entry.function or not entry.method)


def _pure_method(name) -> bool:
    """... and as `x.f(numbers)` (also a method-only op's: `x.view(-1, 4)`, `x.float()`,
    whose entry comes before a function's of the same name, `float(x)`)."""
    entry = METHOD_ONLY.get(name) or BUILTINS.get(name)
    return entry is not None and (entry.pure is True or entry.pure == "method")


def _pure_call(node, me=None) -> bool:
    if node.data == "getattr":  # self.w of a forward: its parameter or buffer (`through`)
        return me is not None and _dotted(node.children[0]) == (me, ())
    if node.data == "getitem":  # x[0], x[1, -2], x[idx], C[X[idx]]: indexing by numbers,
        # variables and pure expressions of them, when declared pure (a variable checked
        # when the plan is made: a number, or an index tensor taken each iteration, or one
        # an earlier op of the iteration made: replay_plan._keys)
        entry = METHOD_ONLY.get("index")
        subs = node.children[1]
        return (
            entry is not None
            and entry.pure is True
            and pure(node.children[0], me)
            and isinstance(subs, Tree)
            and subs.data == "subscripts"
            and all(pure(c, me) for c in subs.children)
        )
    if node.data == "compare":  # (a == b): one comparison, when its op declares itself pure
        ch = node.children
        return (
            len(ch) == 3
            and ch[1].children[0].value in _COMPARE
            and _pure_function(_COMPARED[ch[1].children[0].value])
            and pure(ch[0], me)
            and pure(ch[2], me)
        )
    if node.data != "call":
        return False
    fn, got = node.children[0], _keywords(node)
    if got is None or not isinstance(fn, Tree) or _in_place(node):
        return False
    args, options = got

    def ok(a):  # (None, True, False: as an op's keyword argument's, `torch.sum(x, 1, True)`)
        return pure(a, me) or _display(a, me) or _flag(a) or _shape_read(a, me)

    if fn.data == "getattr":
        recv, attr = fn.children[0], fn.children[1].value
        if me is not None and _dotted(recv) == (me, ()) and not options:  # self.fc(x)
            return all(ok(a) for a in args)
        if (
            args and _dotted(recv) is not None and _pure_function(attr)
        ):  # torch.mean(expression), F.cross_entropy(logits, y), torch.nn.functional.
            # nll_loss(...): a namespace's function (checked when the plan is made: one of
            # gradcli's namespaces, whose `attr` is the op's function,
            # replay_checks.namespaces), or a tensor's method (x.mm(w))
            return all(ok(a) for a in args) and all(_option(v, ok) for v in options)
        return (
            _pure_method(attr)
            and (pure(recv, me) or _display(recv, me))  # (a tensor, not a shape)
            and all(_number(a) or _flag(a) or _sizes(a, me) for a in args)
            and all(_option(v, _number) for v in options)
        )
    if fn.data == "name":
        name = fn.children[0].value
        if BUILTINS.get(name) is None:  # a variable: gradcli's own module or a `def`
            # whose calls replay (`step()` too: its globals are its inputs), checked when
            # the plan is made (replay_plan.py: Module.replay_pure, `called_def`)
            return not options and all(ok(a) for a in args)
        return (
            _pure_function(name)
            and bool(args)
            and all(ok(a) for a in args)
            and all(_option(v, ok) for v in options)
        )
    return False


def _flag(node) -> bool:
    return node.data in ("none", "true", "false")


#: the operators of sizes an op may take (`_shape_read`)
_SIZE_OPS = frozenset({"+", "-", "*", "//"})


def _sizes(node, me) -> bool:
    """Whether a method's argument is a size (`_shape_read`) or a tuple or list display
    of numbers and sizes (`x.view((1, -1))`, `x.permute([0, 2, 1])`, `x.sum((0, 1))`):
    a constant of the plan, as numbers are (a tuple of ints: replay_plan._constant)."""
    if _shape_read(node, me):
        return True
    items = _display_items(node)
    return bool(items) and all(_number(c) or _shape_read(c, me) for c in items)


def _size_part(node, me) -> bool:
    """A part of sizes' arithmetic: an int literal or a size (`_shape_read`)."""
    if isinstance(node, Tree) and node.data == "number":
        return "." not in node.children[0].value and "e" not in node.children[0].value.lower()
    return _shape_read(node, me)


#: the attributes and methods of a tensor that give its shape (`SHAPE_READS`), which a
#: replayed statement may pass an op of a pure expression's (`_shape_read`); a module a
#: replayed loop sees through may not define them (replay_through.through_state)
SHAPE_READS = frozenset({"shape", "size"})


def _shape_read(node, me) -> bool:
    """Whether an op's argument is the shape of a pure expression, or one of its sizes
    (`y.reshape(y_hat.shape)`, `x.view(x.size(0), -1)`, `x.shape[-1]`), or `+ - * //`
    of such sizes and numbers (`h.shape[0] // 2`): what a replayed op takes as a
    constant (a tuple of ints, an int: replay_plan._Dims), the same each iteration while
    the plan's checks hold (the shapes and dtypes of the variables its ops read; an op
    whose output's shape depends on its values declares itself impure)."""
    if not isinstance(node, Tree):
        return False
    if node.data in ("binary", "unary"):
        ch = node.children
        if node.data == "unary":
            return ch[0].value == "-" and _size_part(ch[1], me)
        return all(t.value in _SIZE_OPS for t in ch[1::2]) and all(
            _size_part(c, me) for c in ch[0::2]
        )
    if node.data == "getitem":  # x.shape[0], x.shape[-1]
        subs = node.children[1]
        return (
            isinstance(subs, Tree)
            and subs.data == "subscripts"
            and len(subs.children) == 1
            and _number(subs.children[0])
            and _shape_read(node.children[0], me)
            and node.children[0].data == "getattr"
        )
    if node.data == "getattr":  # x.shape
        return node.children[1].value == "shape" and pure(node.children[0], me)
    if node.data != "call" or not isinstance(node.children[0], Tree):
        return False
    fn, got = node.children[0], _keywords(node)
    return (  # x.size(), x.size(0)
        fn.data == "getattr"
        and fn.children[1].value == "size"
        and got is not None
        and not got[1]
        and len(got[0]) <= 1
        and all(_number(a) for a in got[0])
        and pure(fn.children[0], me)
    )


def _display(node, me) -> bool:
    """Whether an op's argument is a list or tuple display of pure expressions
    (`torch.cat([h, x], 1)`: the op takes the tensors, which the plan maps as it maps
    any argument)."""
    items = _display_items(node)
    return bool(items) and all(pure(c, me) for c in items)


def _display_items(node):
    """The items of a list or tuple display (`[a, b]`, `(a, b)`), else None."""
    if not isinstance(node, Tree):
        return None
    if node.data == "list_" and len(node.children) == 1:
        node = node.children[0]
        if not (isinstance(node, Tree) and node.data == "list_items"):
            return None
    elif node.data != "tuple_items":
        return None
    return node.children


def _keywords(call):
    """(the positional arguments, the values of the keyword arguments) of a call node, or
    None when it has starred ones."""
    args = call.children[1]
    if args is None:
        return [], []
    positional, options = [], []
    for a in args.children:
        if not isinstance(a, Tree) or a.data in ("star_arg", "kw_arg", "starstar_arg"):
            return None
        if a.data == "kwarg":
            options.append(a.children[1])
        else:
            positional.append(a)
    return positional, options


def _in_place(call) -> bool:
    """Whether a call passes `inplace=` other than False (`F.relu(x, inplace=True)`:
    its input written in place, not a pure op's call)."""
    args = call.children[1]
    return any(
        isinstance(a, Tree)
        and a.data == "kwarg"
        and a.children[0].value == "inplace"
        and not (isinstance(a.children[1], Tree) and a.children[1].data == "false")
        for a in (args.children if args is not None else ())
    )


def _literal_args(call):
    """(number of positional arguments, ((keyword, literal), ...)) of a call whose
    arguments are numbers and whose keyword arguments are numbers, True, False or None
    (`opt.zero_grad(set_to_none=True)`, `sched.step()`); None for any other call."""
    args = call.children[1]
    positional, keywords = 0, []
    for a in args.children if args is not None else ():
        if isinstance(a, Tree) and a.data == "kwarg":
            v = a.children[1]
            if _number(v):
                keywords.append((a.children[0].value, "number"))
            elif isinstance(v, Tree) and v.data in ("none", "true", "false"):
                keywords.append((a.children[0].value, v.data))
            else:
                return None
        elif _number(a) and not keywords:
            positional += 1
        else:
            return None
    return positional, tuple(keywords)


def _option(node, ok) -> bool:
    """Whether a keyword argument's value is a string (not an f-string, which runs code),
    None, True or False, or what `ok` accepts (`reduction="sum"`, `dim=1`, `weight=w`)."""
    if isinstance(node, Tree) and node.data == "string":
        return _string(node)
    return (isinstance(node, Tree) and node.data in ("none", "true", "false")) or ok(node)


def _dotted(node):
    """`name` or `name.a.b` -> (name, (a, b)); None for anything else."""
    path = []
    while isinstance(node, Tree) and node.data == "getattr":
        path.append(node.children[1].value)
        node = node.children[0]
    if isinstance(node, Tree) and node.data == "name":
        return node.children[0].value, tuple(reversed(path))
    return None


def namespace_calls(node):
    """(variable, attributes, attribute) of each call `name.a.b.attr(...)` in an
    expression (a namespace's function when the variable holds a namespace:
    replay_plan checks it)."""
    out = set()
    for t in _trees(node):
        if t.data == "call" and isinstance(t.children[0], Tree) and t.children[0].data == "getattr":
            got = _dotted(t.children[0].children[0])
            if got is not None:
                out.add((got[0], got[1], t.children[0].children[1].value))
    return out


def _has_call(node):
    """Whether an expression calls anything (its ops' dims then come from its code)."""
    return any(t.data == "call" for t in _trees(node))


def _condition(node) -> bool:
    """Whether an `if` condition is made of numbers and variables only."""
    return _made_of(node, _COND_OPS, _logic)


def _logic(node) -> bool:
    d, ch = node.data, node.children
    if d == "compare":
        return all(c.children[0].value in _COMPARE for c in ch[1::2]) and all(
            _condition(c) for c in ch[0::2]
        )
    if d in ("and_", "or_"):
        return all(_condition(c) for c in ch)
    return d == "not_" and _condition(ch[0])


#: what the expression of a no_grad number is (`_no_grad_number`): an op's application
_NUMBER_OF = frozenset({"call", "binary", "power", "unary", "getitem"})


def _no_grad_number(node):
    """(the name, the expression) of a no_grad block `with torch.no_grad(): name =
    expression.item()`, the expression pure and not a variable (its last op's value is
    the number: replay_numbers.py), else None."""
    if not _no_grad_head(node):
        return None
    sts = [st for st in node.children[-1].children if isinstance(st, Tree)]
    small = sts[0].children if len(sts) == 1 and sts[0].data == "simple_stmt" else ()
    small = [x for x in small if x is not None]
    if len(small) != 1 or small[0].data != "assign" or len(small[0].children) != 2:
        return None
    target, value = small[0].children
    c = value
    if not (
        isinstance(target, Tree)
        and target.data == "name"
        and isinstance(c, Tree)
        and c.data == "call"
        and c.children[1] is None
        and isinstance(c.children[0], Tree)
        and c.children[0].data == "getattr"
        and c.children[0].children[1].value == "item"
    ):
        return None
    expr = c.children[0].children[0]
    if not (isinstance(expr, Tree) and expr.data in _NUMBER_OF and pure(expr)):
        return None
    return target.children[0].value, expr


def _loop_targets(node):
    """The names the `for` statements inside a statement bind."""
    return {
        t.children[0].children[0].value
        for t in _trees(node)
        if t.data == "for_stmt" and isinstance(t.children[0], Tree) and t.children[0].data == "name"
    }


def bound_names(suite):
    """The names a body's statements bind or change (`_written`, `_loop_targets`)."""
    return set().union(*(_written(n) | _loop_targets(n) for n in _statements(suite)))


def augmented(suite):
    """The names a body's statements change with `op=` (`_augmented`)."""
    return frozenset().union(*(_augmented(n) for n in _statements(suite)))


def _statements(suite):
    """The body's statements: simple ones one by one, compound ones whole."""
    out = []
    for child in suite.children:
        if not isinstance(child, Tree):
            continue
        if child.data == "simple_stmt":
            out.extend(c for c in child.children if c is not None)
        else:
            out.append(child)
    return out


def _kind(node):
    """(kind, name or condition) of a body statement, or None when it does not qualify."""
    d, ch = node.data, node.children
    if (
        d == "assign"
        and len(ch) == 2
        and isinstance(ch[0], Tree)
        and ch[0].data == "name"
        and _library_call(ch[1]) is not None
        and ch[0].children[0].value not in names_in(ch[1])
    ):  # norm = clip_grad_norm_(model.parameters(), 1.0): run as compiled, its name bound
        return "library", _library_call(ch[1])
    if (
        d == "assign"
        and len(ch) == 2
        and isinstance(ch[0], Tree)
        and ch[0].data == "name"
        and pure(ch[1])
    ):
        return "assign", ch[0].children[0].value
    if (
        d == "assign"
        and len(ch) == 2
        and isinstance(ch[0], Tree)
        and ch[0].data == "name"
        and _batch(ch[1])
        and ch[0].children[0].value not in names_in(ch[1])
    ):  # idx = perm[i : i + bs]: run as compiled, its name a batch (replay_plan.Batch)
        return "batch", ch[0].children[0].value
    if d == "expr_stmt":
        c = ch[0]
        got = _append(c)
        if got is not None:
            return "append", got  # losses.append(loss.item()), steps.append(i)
        got = _append_call(c)
        if got is not None:  # losses.append(train_step(model, batch))
            return "append_call", got
        if (
            isinstance(c, Tree)
            and c.data == "call"
            and c.children[1] is None
            and c.children[0].data == "getattr"
            and c.children[0].children[1].value == "backward"
            and isinstance(c.children[0].children[0], Tree)
            and c.children[0].children[0].data == "name"
        ):
            return "backward", c.children[0].children[0].children[0].value
        args = _literal_args(c) if isinstance(c, Tree) and c.data == "call" else None
        if (
            args is not None
            and c.children[0].data == "getattr"
            and isinstance(c.children[0].children[0], Tree)
            and c.children[0].children[0].data == "name"
        ):  # recv.method(numbers, flag=True): run as compiled (replay_plan: `replay_calls`)
            return "call", (
                c.children[0].children[0].children[0].value,
                c.children[0].children[1].value,
                *args,
            )
        got = _library_call(c)
        if got is not None:  # clip_grad_norm_(model.parameters(), 1.0): run as compiled
            return "library", got
    if (
        d == "augassign"
        and isinstance(ch[0], Tree)
        and ch[0].data == "name"
        and _scaled_item(ch[2]) is not None
    ):  # running += loss.item(), running += loss.item() * len(xb), of a made name
        return "item", (ch[0].children[0].value, _scaled_item(ch[2])[0])
    if (
        d == "augassign"
        and isinstance(ch[0], Tree)
        and ch[0].data == "name"
        and ch[1].value in ("+=", "-=")
        and isinstance(ch[2], Tree)
        and ch[2].data == "number"
        and "." not in ch[2].children[0].value
        and "e" not in ch[2].children[0].value.lower()
    ):
        return "counter", ch[0].children[0].value
    if d in ("assign", "expr_stmt") and _clear(node):  # w.grad = None, w.grad.zero_()
        return "each", None  # (in the body's grad mode: a loop's "each" of one)
    if d == "if_stmt" and len(ch) == 3 and ch[2] is None and _condition(ch[0]):
        return "guard", ch[0]
    if schedule(node) is not None:  # lr = 0.1 if i < 1000 else 0.01: as compiled
        return "schedule", schedule(node)
    if d == "with_stmt" and _no_grad_number(node) is not None:  # val = f(x).item()
        return "number", _no_grad_number(node)[0]
    if d == "with_stmt" and _no_grad_block(node):
        return "updates", None
    if d == "for_stmt" and _over_parameters(node, _in_body):  # for p in params: p.grad = None
        return "each", None
    if d in ("pass_stmt", "global_stmt", "nonlocal_stmt"):  # (no names read: Tokens)
        return "updates", None
    if held_item(node) is not None:  # correct += (pred == y).sum().item(): split in two
        return "split", None  # (by language/loop_split.py, before the body is compiled)
    return None


def _library_call(c):
    """(variable, attributes, the function's name, the variables whose `parameters()`
    it passes) of a statement `f(args)` or `ns.a.f(args)` (`nn.utils.clip_grad_norm_(
    model.parameters(), 1.0)`), f the name of a library function that declares
    `replay_compiled` (library/values.py; the function the name reaches is checked when
    the plan is made, replay_checks.library_checks), each argument a variable, a number,
    a literal (a string, None, True, False) or `name.parameters()`; else None."""
    if not (isinstance(c, Tree) and c.data == "call"):
        return None
    got, passed = _dotted(c.children[0]), _keywords(c)
    if got is None or passed is None:
        return None
    name, path = got
    attr = path[-1] if path else name
    if attr not in REPLAY_COMPILED:
        return None
    params = set()

    def ok(a):
        if a.data == "call" and _args(a) == [] and a.children[0].data == "getattr":
            recv = _dotted(a.children[0])
            if recv is not None and recv[1] == ("parameters",):
                params.add(recv[0])
                return True
        return _number(a) or a.data == "name"

    if not all(_option(a, ok) for a in passed[0] + passed[1]):
        return None
    return name, path[:-1], attr if path else None, tuple(sorted(params))


def _batch(node) -> bool:
    """Whether an expression is `name[subscripts]`, each subscript a number, a variable or a
    slice whose bounds are numbers and variables (`perm[i : i + bs]`, `X[i:]`): what a
    replayed body runs as compiled in its place, its value read by the statements after
    it as a loop target's batch is (checked for its kind once it is made)."""

    def bound(c):
        return c is None or _made_of(c, _COND_OPS, lambda n: False)

    if not (isinstance(node, Tree) and node.data == "getitem"):
        return False
    recv, subs = node.children
    return (
        isinstance(recv, Tree)
        and recv.data == "name"
        and isinstance(subs, Tree)
        and subs.data == "subscripts"
        and all(
            _number(c)
            or c.data == "name"
            or (c.data == "slice" and all(bound(b) for b in c.children))
            for c in subs.children
        )
    )


def _scaled_item(node, of=None):
    """(the made name, the factor or None, whether `name.item()` comes first) of
    `name.item()`, `name.item() * factor` or `factor * name.item()`, the factor made of
    numbers, variables, `len(variable)` and its sizes (`running += loss.item() *
    len(idx)`, `* inputs.size(0)`: `_len_of`; the factor computed by its compiled
    closure, running no code of the program while the variables hold tensors and
    numbers, replay_plan.Item), else None.  `of`: what gives the made name of
    `name.item()` (`_held_operand`: the expression E of `E.item()`)."""
    of = of or _item_of
    made = of(node)
    if made is not None:
        return made, None, True
    if not (
        isinstance(node, Tree)
        and node.data == "binary"
        and len(node.children) == 3
        and node.children[1].value == "*"
    ):
        return None
    a, _, b = node.children
    for item, factor, first in ((a, b, True), (b, a, False)):
        made = of(item)
        if made is not None and _made_of(factor, _COND_OPS, _len_of):
            return made, factor, first
    return None


def _len_of(node) -> bool:
    """Whether an expression is `len(variable)`, `variable.size(number)` or
    `variable.shape[number]` (the size of a batch: `running += loss.item() *
    inputs.size(0)`; the variable checked to hold a tensor or a number before the
    iteration, so its closure runs no code of the program)."""
    if node.data == "getitem":  # inputs.shape[0]
        recv, subs = node.children
        return (
            isinstance(recv, Tree)
            and recv.data == "getattr"
            and recv.children[1].value == "shape"
            and _dotted(recv) is not None
            and len(_dotted(recv)[1]) == 1
            and isinstance(subs, Tree)
            and subs.data == "subscripts"
            and len(subs.children) == 1
            and _number(subs.children[0])
        )
    args = _args(node) if node.data == "call" else None
    if args is None or len(args) != 1 or not isinstance(node.children[0], Tree):
        return False
    fn = node.children[0]
    if fn.data == "getattr":  # inputs.size(0)
        got = _dotted(fn)
        return got is not None and got[1] == ("size",) and _number(args[0])
    return args[0].data == "name" and fn.data == "name" and fn.children[0].value == "len"


def _item_of(node):
    """`name.item()` -> 'name' (else None)."""
    recv = _item_call(node)
    if isinstance(recv, Tree) and recv.data == "name":
        return recv.children[0].value
    return None


def _item_call(node):
    """The receiver of `receiver.item()` (else None)."""
    if (
        isinstance(node, Tree)
        and node.data == "call"
        and node.children[1] is None
        and isinstance(node.children[0], Tree)
        and node.children[0].data == "getattr"
        and node.children[0].children[1].value == "item"
    ):
        return node.children[0].children[0]
    return None


def _held_operand(node):
    """The expression E of `E.item()`, E one a replayed assignment may have (`pure`)
    other than a name (`(pred == y).sum().item()`), else None."""
    recv = _item_call(node)
    if isinstance(recv, Tree) and recv.data != "name" and pure(recv):
        return recv
    return None


def held_backward(node):
    """(the expression E, the node `E.backward()`) of a statement `E.backward()` of an
    expression E a replayed assignment may have other than a name (`l.sum().backward()`):
    split in two as `held_item`'s, the second part the backward of the held name."""
    c = node.children[0] if node.data == "expr_stmt" else None
    if not (
        isinstance(c, Tree)
        and c.data == "call"
        and c.children[1] is None
        and isinstance(c.children[0], Tree)
        and c.children[0].data == "getattr"
        and c.children[0].children[1].value == "backward"
    ):
        return None
    recv = c.children[0].children[0]
    if isinstance(recv, Tree) and recv.data != "name" and pure(recv):
        return recv, c
    return None


def held_item(node):
    """(the expression E, the node `E.item()`) of a statement `total op= E.item()` (also
    times a factor, as `_scaled_item`'s) or `recv.append(E.item())` (recv as `_append`'s),
    E an expression a replayed assignment may have other than a name (`correct +=
    (pred == y).sum().item()`, `accs.append((out.argmax(1) == y).float().mean()
    .item())`): language/loop_split.py splits it in two, an assignment of E to a name
    the program cannot spell and the statement reading that name's number; else None."""
    if node.data == "augassign" and isinstance(node.children[0], Tree):
        if node.children[0].data != "name":
            return None
        got = _scaled_item(node.children[2], _held_operand)
        if got is None:
            return None
        value = node.children[2]
        item = value if got[1] is None else value.children[0 if got[2] else 2]
        return got[0], item
    if node.data != "expr_stmt":
        return None
    got = _appended(node.children[0])
    if got is None or _held_operand(got[1]) is None:
        return None
    return _held_operand(got[1]), got[1]


def _append(c):
    """(the list's name, the made name or None, the key or None) of `recv.append(name.item())`
    (a made name's number, taken from its replayed value as `running += loss.item()` takes
    it) or `recv.append(name)` of a variable or a number (`steps.append(i)`: nothing to
    compute), recv a variable holding a list, or `name["key"]` of a variable holding a
    dict whose value there is a list (`hist["loss"].append(loss.item())`: the key a
    string literal, whose hash and equality run no code of the program; the node of the
    key is given), checked when the plan is made and when it runs (`list.append` runs
    no code of the program), else None."""
    got = _appended(c)
    if got is None:
        return None
    recv, arg, key = got
    made = _item_of(arg)
    if made is None and not (_number(arg) or arg.data == "name"):
        return None
    return recv, made, key


def _appended(c):
    """(the name of recv, the argument, None) of a statement `recv.append(argument)`, recv
    a variable, or (the variable, the argument, the key's node) of
    `name["key"].append(argument)` (`_string`), else None."""
    if not (
        isinstance(c, Tree)
        and c.data == "call"
        and isinstance(c.children[0], Tree)
        and c.children[0].data == "getattr"
        and c.children[0].children[1].value == "append"
    ):
        return None
    recv, args = c.children[0].children[0], _args(c)
    if args is None or len(args) != 1 or not isinstance(recv, Tree):
        return None
    key = None
    if recv.data == "getitem":
        recv, subs = recv.children
        if not (
            isinstance(subs, Tree)
            and subs.data == "subscripts"
            and len(subs.children) == 1
            and _string(subs.children[0])
        ):
            return None
        key = subs.children[0]
    if not (isinstance(recv, Tree) and recv.data == "name"):
        return None
    return recv.children[0].value, args[0], key


def _string(node) -> bool:
    """Whether a node is a string literal (not an f-string, which runs code)."""
    return (
        isinstance(node, Tree)
        and node.data == "string"
        and not any("f" in t.value[: t.value.find(t.value[-1])].lower() for t in node.children)
    )


def _append_call(c):
    """(the list's name, the function's name) of `recv.append(f(args))`, each argument a
    name or a number (a call of a `def` whose calls replay, checked when the plan is
    made: replay_plan.py pairs the call's value with the append, replay_defs._Held),
    recv a variable holding a list, else None."""
    got = _appended(c)
    if got is None or got[2] is not None:
        return None
    recv, call, _ = got
    fn = call.children[0] if isinstance(call, Tree) and call.data == "call" else None
    passed = _args(call) if fn is not None else None
    if not (isinstance(fn, Tree) and fn.data == "name") or passed is None:
        return None
    if not all(isinstance(a, Tree) and (a.data == "name" or _number(a)) for a in passed):
        return None
    return recv, fn.children[0].value


#: GRADCLI_REPLAY_REPORT set (not "" or "0"): each loop and `def` says on stderr, when
#: compiled, whether its body qualifies, and when a loop's run ends, how many iterations
#: were replayed (language/replay.py, replay_defs.py)
REPORT = os.environ.get("GRADCLI_REPLAY_REPORT", "") not in ("", "0")


def report(line, text, what="loop"):
    """One line of the replay's report (REPORT) on stderr."""
    print(f"replay: {what} at line {line}: {text}", file=sys.stderr, flush=True)


def why_not(suite, is_def=False):
    """Why a loop's or a def's body does not qualify, in a few words (the replay's
    report, REPORT): the first statement of a kind a replayed body may not have, or the
    rule about its names."""
    nodes = replayed_def_statements(suite)[0] if is_def else _statements(suite)
    for n in nodes:
        if _kind(n) is None:
            return "line %d: a statement a replayed body may not have" % pos(n)[0]
    if not any(_kind(n)[0] in _REPLAYS for n in nodes):
        return "no assignment to replay"
    return "a name read before the body makes it, or a number the body changes read by an op"


def _def_statements(suite):
    """A `def` body's statements but a docstring and a last `return`, and that return
    statement (or None)."""
    nodes = _statements(suite)
    if nodes and nodes[0].data == "expr_stmt" and isinstance(nodes[0].children[0], Tree):
        if nodes[0].children[0].data == "string":  # (its docstring: no statement)
            nodes = nodes[1:]
    ret = nodes.pop() if nodes and nodes[-1].data == "return_stmt" else None
    return nodes, ret


def replayed_def_statements(suite):
    """`_def_statements` of a `def` whose calls may replay, but its `global` and
    `nonlocal` declarations: they run nothing (the function's scope, scopes.py, has read
    them; what its statements bind is checked by that scope: loop_compile.compile_def),
    and a replayed call's first statements are where its ops of data that needs no
    gradient are hoisted (replay_plan._invariant)."""
    nodes, ret = _def_statements(suite)
    return [n for n in nodes if n.data not in ("global_stmt", "nonlocal_stmt")], ret


def qualifies_def(suite) -> bool:
    """Whether each statement of a `def` body (`replayed_def_statements`) is of a kind a
    replayed loop body's may be (`_kind`; `loop_compile.compile_def` checks the rest)."""
    nodes, _ = replayed_def_statements(suite)
    kinds = [_kind(n) for n in nodes]
    return (
        bool(nodes)
        and None not in kinds
        and any(k[0] in _DEF_REPLAYS for k in kinds)
        and all(k[0] != "batch" for k in kinds)  # (a loop's only: Body.swaps)
    )


#: code of a `def` whose calls replay -> what its calls share (replay_defs._Held): a
#: replayed loop's assignment `name = f(args)` of such a function replays the call in
#: the loop's plan (replay_plan.py, replay_defs.py)
DEFS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def called_def(call, read):
    """What its calls share (replay_defs._Held) when an assignment's value is a call of
    a `def` whose calls replay (`_def_call`, `DEFS`; read: the values of the names the
    statement reads), else None."""
    f = read.get(call[0]) if call is not None and read is not None else None
    if type(f) is not UserFunction or f.generator or f.body in THROUGH_DEFS:
        return None  # (a function seen through: its ops are the statement's)
    return DEFS.get(f.body)


#: code of a `def` -> what through_shapes.through found of it (a forward a replayed loop sees through)
THROUGH: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


#: code of a `def` -> what through_shapes.through_def found of it (a function a replayed statement
#: sees through: replay_through.function_checks)
THROUGH_DEFS: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _augmented(node):
    """The variables a statement changes with `+=`, `-=` ... (in place, for a tensor)."""
    return {
        t.children[0].children[0].value
        for t in _trees(node)
        if t.data == "augassign"
        and isinstance(t.children[0], Tree)
        and t.children[0].data == "name"
    }
