"""What an op declares: the facets every op states beside its forward and backward, in
its own file, and from which every table about ops is derived (as PyTorch's
derivatives.yaml, JAX's primitives with their rules and HIPS autograd's `defvjp`).

An op has two halves, each with its facets (`FACETS`):

* its graph node, a `Function` subclass (engine/function.py), declares class
  attributes: `name` (PyTorch's grad_fn name), `forward`, `backward` (the VJP),
  `jvp` (the forward-mode rule), `saved_names` (PyTorch's names of the saved values,
  with `saved_order`, `saved_extra` and `saved_uses` when they apply) and `formula`
  (explain's rule);
* its built-in, the entry `register` (ops/registry.py) makes, declares arguments: its
  doc and signature, `checks` (sample arguments for the gradient tests), `batch` (the
  vmap batching rule or the name of a kind of rule, ops/batch_rules.py), `inplace`
  (the name of its in-place method, as `exp_`), `pure` (whether a replayed loop may
  run it, language/loop_shapes.py) and `parser` (PyTorch's words for a call with too
  few arguments, language/arity.py).

Optional declarations beside them: `operators` (a register argument: the language's
operators that are the op, from which the language's operator tables and its in-place
`x op= y` are derived), `@operator_node(...)` (the node the language's arithmetic
operators make directly) and the fast kernels `replay_kernel`,
`number_forward`, `pair_forward`, `grad_factor` and `passes_through` (methods of the node
class); `deferrable`, `draws` and `writes` (class attributes a replayed loop reads: a
loss's sum made when the program sees it, language/replay.py `Deferred`; a value that
is the generator's next draws, never hoisted, language/replay_plan.py `_invariant`; the
parameters naming the Tensors its forward changes in place, BatchNorm's running
statistics, taken as the variables' tensors they are, `_written`, and never hoisted).

A facet an op does not have is declared as `none("why")` (a class attribute) or
None/False/none("why") (a register argument), never left out: tests/architecture/test_op_declarations.py reads
every node class and every built-in and names each facet left undeclared.  A class
inherits what its bases below `Function` declare.  Adding a facet is one `facet(...)`
line here (or in the module that reads it) and the declarations it asks for.
"""

from __future__ import annotations

from typing import NamedTuple


class Without:
    """An explicit "this op has none of this facet", with the reason.  False as a truth
    value, so the code that reads a facet tests it with `if not rule:`."""

    __slots__ = ("reason",)

    def __init__(self, reason: str):
        self.reason = reason

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return f"none({self.reason!r})"


def none(reason: str) -> Without:
    """Declare that an op has none of a facet, and why."""
    return Without(reason)


class _Undeclared:
    """A register() argument left out (the default, so that a test can tell it from an
    explicit None)."""

    __slots__ = ()

    def __bool__(self) -> bool:
        return False

    def __repr__(self) -> str:
        return "UNDECLARED"


UNDECLARED = _Undeclared()


class Facet(NamedTuple):
    name: str  # the facet's name
    on: str  # "node": a class attribute of Function subclasses; "builtin": a register() argument
    attr: str  # the attribute it is read from
    doc: str  # what it says, for the docs and the test's messages


FACETS: dict[str, Facet] = {}


def facet(name: str, on: str, doc: str, attr: str | None = None) -> Facet:
    """Add a facet every op must declare (on its node class or its built-in)."""
    if on not in ("node", "builtin"):
        raise ValueError(f"a facet is on 'node' or 'builtin', not {on!r}")
    f = FACETS[name] = Facet(name, on, attr or name, doc)
    return f


facet("grad_fn", "node", "PyTorch's grad_fn name (class attribute `name`)", attr="name")
facet("forward", "node", "forward(self, *arrays, **params) -> ndarray")
facet("backward", "node", "the VJP: backward(self, g, F, *saved) -> gradients")
facet("jvp", "node", "the forward-mode rule jvp(self, ts, F, *saved), or none(why)")
facet(
    "saved",
    "node",
    "saved_names: PyTorch's name of each saved value (None: not saved), or none(why)",
    attr="saved_names",
)


facet(
    "formula",
    "node",
    "formula(self, S, *inputs): the output as SymPy expressions of the inputs' (explain; "
    "library/explain_sym.py), or none(why): shown as a named function with its local "
    "Jacobian's value",
)


def declared(cls, attr: str, base: type):
    """What `cls` (a subclass of `base`) declares for `attr`, in its own body or a base's
    below `base`; UNDECLARED when none of them does."""
    for k in cls.__mro__:
        if k is base:
            break
        if attr in k.__dict__:
            return k.__dict__[attr]
    return UNDECLARED
