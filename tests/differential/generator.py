"""Random autograd programs in the common subset of Python-with-torch and gradcli.

``program(seed)`` returns ``(area, source)``: the same seed always gives the same text.
A program makes one to three leaves (float32 or float64, 0-d to 3-d), builds a short
forward of ops drawn from every family below, reduces it to a loss, runs one backward
scheme and prints what it computed, each print led by a label that says what it is:

    val:NAME     a forward value (its grad_fn name shows in the tensor's repr)
    fn:NAME      a grad_fn name
    grad:NAME    a gradient (.grad, or what autograd.grad returned)
    err:         an error a program made on purpose, caught (type and first line)

The runner compares the outputs record by record and classifies a difference by its
label (tests/differential/runner.py).
"""

from __future__ import annotations

import random
from dataclasses import dataclass

VALUES = ["0.5", "-1.25", "1.5", "2.0", "-0.75", "0.25", "-2.5", "1.75", "-0.5", "3.0", "1.0"]
DTYPES = ("torch.float64", "torch.float32")
SHAPES = [(), (3,), (2,), (2, 3), (3, 2), (2, 2), (2, 1, 3), (2, 2, 3), (1, 3)]


@dataclass
class T:
    name: str
    shape: tuple
    dtype: str
    contiguous: bool = True


def lit(rng, shape):
    if shape == ():
        return rng.choice(VALUES)
    if len(shape) == 1:
        return "[" + ", ".join(rng.choice(VALUES) for _ in range(shape[0])) + "]"
    return "[" + ", ".join(lit(rng, shape[1:]) for _ in range(shape[0])) + "]"


def promote(a, b):
    return "torch.float64" if "torch.float64" in (a, b) else "torch.float32"


def bshape(a, b):
    """The broadcast shape of a and b, or None."""
    out = []
    for i in range(1, max(len(a), len(b)) + 1):
        x = a[-i] if i <= len(a) else 1
        y = b[-i] if i <= len(b) else 1
        if x != y and 1 not in (x, y):
            return None
        out.append(max(x, y))
    return tuple(reversed(out))


def numel(shape):
    n = 1
    for s in shape:
        n *= s
    return n


UNARY = [
    "{}.exp()",
    "{}.sin()",
    "{}.cos()",
    "{}.tanh()",
    "{}.sigmoid()",
    "{}.abs()",
    "{}.relu()",
    "-{}",
    "{}.square()",
    "({}.abs() + 0.5).sqrt()",
    "({}.abs() + 1).log()",
    "torch.nn.functional.softplus({})",
    "{}.clamp(-1, 1)",
    "{}.clamp(min=0.25)",
    "{} ** 2",
    "{} ** 3",
    "{}.pow(2)",
    "({}.abs() + 0.5) ** 1.5",
    "({}.abs() + 0.5) ** -1",
    "({}.abs() + 0.5).pow(0.5)",
    "2 ** {}",
    "{} * 0.5 + 1",
    "1 / ({}.abs() + 1)",
    "{}.atan()",
    "torch.nn.functional.logsigmoid({})",
    "torch.nn.functional.elu({})",
    "torch.nn.functional.silu({})",
    "torch.nn.functional.leaky_relu({}, 0.1)",
    "torch.abs({})",
    "torch.where({} > 0, {}, 0.5)",
    "{}.clone()",
    "{} - 1.5",
    "{}.abs().log1p()",
]
BINARY = [
    "{} + {}",
    "{} - {}",
    "{} * {}",
    "{} / ({}.abs() + 1)",
    "torch.maximum({}, {})",
    "torch.minimum({}, {})",
    "torch.where({} > {}, {}, {})",
    "torch.atan2({}, {})",
    "torch.hypot({}, {})",
    "({}.abs() + 0.5) ** {}",
    "{}.mul({})",
    "torch.add({}, {}, alpha=2)",
]


class Gen:
    def __init__(self, rng):
        self.rng = rng
        self.lines = []
        self.n = 0
        self.leaves = []
        self.nodes = []  # T of every non-leaf tensor made

    # -------------------------------------------------------------- helpers
    def name(self, prefix="t"):
        self.n += 1
        return f"{prefix}{self.n}"

    def emit(self, line):
        self.lines.append(line)

    def new_leaf(self, shape, dtype, grad=True):
        name = "abcdw"[len(self.leaves)] if len(self.leaves) < 5 else self.name("p")
        rg = ", requires_grad=True" if grad else ""
        dt = "" if dtype == "torch.float64" and self.rng.random() < 0.5 else f", dtype={dtype}"
        self.emit(f"{name} = torch.tensor({lit(self.rng, shape)}{dt}{rg})")
        t = T(name, shape, dtype)
        if grad:
            self.leaves.append(t)
        return t

    def const(self, shape, dtype):
        """A tensor literal that does not require grad, as an expression."""
        dt = "" if dtype == "torch.float64" else f", dtype={dtype}"
        return f"torch.tensor({lit(self.rng, shape)}{dt})"

    def assign(self, expr, shape, dtype, contiguous=True):
        name = self.name()
        self.emit(f"{name} = {expr}")
        t = T(name, shape, dtype, contiguous)
        self.nodes.append(t)
        return t

    def pick(self):
        pool = self.nodes[-3:] + self.leaves
        return self.rng.choice(pool)

    def partner(self, a):
        """Something that broadcasts with a: another tensor, or a new leaf or constant."""
        rng = self.rng
        cands = [t for t in self.nodes + self.leaves if bshape(t.shape, a.shape) is not None]
        if cands and rng.random() < 0.5:
            return rng.choice(cands)
        shape = a.shape
        r = rng.random()
        if shape and r < 0.3:
            shape = shape[-rng.randint(1, len(shape)) :]  # trailing dims
        elif shape and r < 0.5:
            i = rng.randrange(len(shape))
            shape = shape[:i] + (1,) + shape[i + 1 :]
        elif r < 0.6:
            shape = ()
        dtype = a.dtype if rng.random() < 0.8 else rng.choice(DTYPES)
        if len(self.leaves) < 4 and rng.random() < 0.5:
            return self.new_leaf(shape, dtype)
        return T(self.const(shape, dtype), shape, dtype)

    # -------------------------------------------------------------- op families
    def unary(self, a):
        tmpl = self.rng.choice(UNARY)
        return self.assign(tmpl.replace("{}", a.name), a.shape, a.dtype)

    def binary(self, a):
        b = self.partner(a)
        x, y = (a, b) if self.rng.random() < 0.7 else (b, a)
        tmpl = self.rng.choice(BINARY)
        if tmpl.count("{}") == 4:
            expr = tmpl.format(x.name, y.name, x.name, y.name)
        else:
            expr = tmpl.format(x.name, y.name)
        return self.assign(expr, bshape(a.shape, b.shape), promote_for(x, y))

    def reduce(self, a):
        rng = self.rng
        if not a.shape:
            return self.assign(
                rng.choice(["{}.sum()", "{}.mean()", "{} * 1"]).format(a.name), (), a.dtype
            )
        d = rng.randrange(len(a.shape))
        neg = d - len(a.shape) if rng.random() < 0.3 else d
        rest = a.shape[:d] + a.shape[d + 1 :]
        keep = a.shape[:d] + (1,) + a.shape[d + 1 :]
        opts = [
            ("{}.sum()", ()),
            ("{}.mean()", ()),
            (f"{{}}.sum({neg})", rest),
            (f"{{}}.sum(dim={neg}, keepdim=True)", keep),
            (f"{{}}.mean({neg})", rest),
            (f"{{}}.prod({neg})", rest),
            (f"{{}}.max({neg}).values", rest),
            (f"{{}}.min(dim={neg})[0]", rest),
            ("{}.max()", ()),
            ("{}.norm()", ()),
            (f"{{}}.logsumexp({neg})", rest),
            (f"{{}}.cumsum({neg})", a.shape),
            (f"torch.softmax({{}}, {neg})", a.shape),
            (f"torch.log_softmax({{}}, dim={neg})", a.shape),
            (f"{{}}.softmax({neg})", a.shape),
        ]
        if numel(a.shape) > 1:
            opts.append(("{}.std()", ()))
        if a.shape[d] > 1:
            opts.append((f"{{}}.var({neg})", rest))
        tmpl, shape = rng.choice(opts)
        return self.assign(tmpl.format(a.name), shape, a.dtype)

    def matmul(self, a):
        rng = self.rng
        s = a.shape
        if len(s) == 1:
            if rng.random() < 0.5:
                return self.assign(f"{a.name} @ {a.name}", (), a.dtype)
            k = rng.choice([1, 2, 3])
            b = self.matleaf((s[0], k), a.dtype)
            return self.assign(f"{a.name} @ {b.name}", (k,), promote(a.dtype, b.dtype))
        if len(s) == 2 and s[1] > 0:  # (a class index needs a class)
            r = rng.random()
            if r < 0.3:
                return self.assign(f"{a.name} @ {a.name}.t()", (s[0], s[0]), a.dtype)
            if r < 0.5:
                return self.assign(f"torch.matmul({a.name}.T, {a.name})", (s[1], s[1]), a.dtype)
            if r < 0.7:
                b = self.matleaf((s[1],), a.dtype)
                return self.assign(
                    f"torch.mv({a.name}, {b.name})", (s[0],), promote(a.dtype, b.dtype)
                )
            k = rng.choice([1, 2, 3])
            b = self.matleaf((s[1], k), a.dtype)
            return self.assign(f"{a.name}.mm({b.name})", (s[0], k), promote(a.dtype, b.dtype))
        if len(s) == 3:
            if rng.random() < 0.5:
                return self.assign(
                    f"torch.bmm({a.name}, {a.name}.transpose(1, 2))", (s[0], s[1], s[1]), a.dtype
                )
            k = rng.choice([1, 2])
            b = self.matleaf((s[2], k), a.dtype)
            return self.assign(f"{a.name} @ {b.name}", (s[0], s[1], k), promote(a.dtype, b.dtype))
        return self.unary(a)

    def matleaf(self, shape, dtype):
        if len(self.leaves) < 4 and self.rng.random() < 0.6:
            return self.new_leaf(shape, dtype)
        return T(self.const(shape, dtype), shape, dtype)

    def view(self, a):
        rng = self.rng
        s = a.shape
        if not s:
            opts = [("{}.unsqueeze(0)", (1,)), ("{}.reshape(1, 1)", (1, 1)), ("{}.expand(3)", (3,))]
            tmpl, shape = rng.choice(opts)
            return self.assign(tmpl.format(a.name), shape, a.dtype, False)
        n = len(s)
        d = rng.randrange(n)
        rest = s[:d] + s[d + 1 :]
        opts = [
            ("{}[0]", s[1:]),
            ("{}[-1]", s[1:]),
            (f"{{}}.select({d}, {s[d] - 1})", rest),
            ("{}.reshape(-1)", (numel(s),)),
            ("{}.flatten()", (numel(s),)),
            (f"{{}}.unsqueeze({d})", s[:d] + (1,) + s[d:]),
            ("{}.squeeze()", tuple(x for x in s if x != 1)),
            (f"{{}}.narrow({d}, 0, {s[d]})", s),
            (f"{{}}.narrow({d}, {s[d] - 1}, 1)", s[:d] + (1,) + s[d + 1 :]),
            (f"{{}}.index_select({d}, torch.tensor([{s[d] - 1}, 0]))", s[:d] + (2,) + s[d + 1 :]),
            (f"{{}}[{s[0] - 1}:]", (1,) + s[1:]),
            ("{}[..., ::2]", s[:-1] + ((s[-1] + 1) // 2,)),
            ("{}.masked_fill({} > 1, 0.5)", s),
            ("{}[{} > 0]", None),
        ]
        if a.contiguous:
            opts.append(("{}.view(-1)", (numel(s),)))
        if n >= 2:
            opts += [
                ("{}[:, 0]", s[:1] + s[2:]),
                ("{}.transpose(0, 1)", (s[1], s[0]) + s[2:]),
                ("{}.permute(%s)" % ", ".join(str(i) for i in reversed(range(n))), s[::-1]),
                (
                    f"{{}}.gather({n - 1}, torch.zeros({', '.join(map(str, s[:-1] + (1,)))}, dtype=torch.int64))",
                    s[:-1] + (1,),
                ),
                ("torch.flatten({}, 0, 1)", (s[0] * s[1],) + s[2:]),
            ]
        if n == 2:
            opts.append(("{}.t()", s[::-1]))
            opts.append(("{}.T", s[::-1]))
        if n == 1:
            opts.append(("{}[torch.tensor([0, %d, 0])]" % (s[0] - 1), (3,)))
            opts.append(("{}.unsqueeze(0).expand(2, %d)" % s[0], (2, s[0])))
        if 1 in s:
            i = s.index(1)
            opts.append((f"{{}}.squeeze({i})", s[:i] + s[i + 1 :]))
            shape = s[:i] + (2,) + s[i + 1 :]
            opts.append(("{}.expand(%s)" % ", ".join(map(str, shape)), shape))
        tmpl, shape = rng.choice(opts)
        t = self.assign(tmpl.replace("{}", a.name), shape or (0,), a.dtype, False)
        if shape is None:  # a boolean mask: its length depends on the values
            t = self.assign(f"{t.name}.sum()", (), a.dtype)
        return t

    def inplace(self, a):
        """A non-leaf copy changed in place, directly or through a view."""
        rng = self.rng
        base = self.assign(
            rng.choice(["{}.clone()", "{} * 1", "{} + 0"]).format(a.name), a.shape, a.dtype
        )
        s, n = a.shape, base.name
        opts = [
            f"{n}.mul_(2)",
            f"{n}.add_(1.5)",
            f"{n}.sub_({n})" if rng.random() < 0.1 else f"{n}.div_(4)",
            f"{n}.clamp_(min=-1)",
            f"{n}.exp_()",
            f"{n}.sigmoid_()",
            f"{n} *= 3",
            f"{n} += {a.name}",
            f"{n}.neg_()",
            f"{n}.pow_(2)",
            f"{n}.abs_()",
        ]
        if s:
            opts += [
                f"{n}[0] = 1.25",
                f"{n}[0].mul_(3)",
                f"{n}[-1] += 2",
                f"{n}[..., 0] = {a.name}[..., 0] * 2",
            ]
            if len(s) >= 2:
                opts += [f"{n}[:, 0].zero_()", f"{n}[0, 0] = -0.5"]
            if s[0] > 1:
                opts.append(f"{n}[[0, 1]] = 0.5")
        self.emit(rng.choice(opts))
        return base

    def cat(self, a):
        rng = self.rng
        b = self.assign(rng.choice(UNARY).replace("{}", a.name), a.shape, a.dtype)
        if not a.shape or rng.random() < 0.5:
            d = rng.randrange(len(a.shape) + 1)
            shape = a.shape[:d] + (2,) + a.shape[d:]
            return self.assign(f"torch.stack([{a.name}, {b.name}], {d})", shape, a.dtype)
        d = rng.randrange(len(a.shape))
        shape = a.shape[:d] + (2 * a.shape[d],) + a.shape[d + 1 :]
        return self.assign(f"torch.cat([{a.name}, {b.name}], dim={d})", shape, a.dtype)

    def loss(self, a):
        rng = self.rng
        s = a.shape
        F = "torch.nn.functional"
        opts = [
            f"{F}.mse_loss({a.name}, {self.const(s, a.dtype)})",
            f"{F}.l1_loss({a.name}, {self.const(s, a.dtype)})",
            f"{F}.smooth_l1_loss({a.name}, {self.const(s, a.dtype)})",
            f"{F}.huber_loss({a.name}, {self.const(s, a.dtype)}, delta=0.5)",
            f"{F}.binary_cross_entropy({a.name}.sigmoid(), torch.tensor({lit01(rng, s)}{dtarg(a.dtype, rng)}))",
            f"{F}.binary_cross_entropy_with_logits({a.name}, torch.tensor({lit01(rng, s)}{dtarg(a.dtype, rng)}))",
        ]
        if len(s) == 2 and s[1] > 0:  # (a class index needs a class)
            idx = "[" + ", ".join(str(rng.randrange(s[1])) for _ in range(s[0])) + "]"
            opts.append(f"{F}.cross_entropy({a.name}, torch.tensor({idx}))")
            opts.append(f"{F}.nll_loss({a.name}.log_softmax(1), torch.tensor({idx}))")
        return self.assign(rng.choice(opts), (), a.dtype)

    # -------------------------------------------------------------- the program
    def forward(self):
        rng = self.rng
        families = [
            self.unary,
            self.binary,
            self.reduce,
            self.matmul,
            self.view,
            self.inplace,
            self.cat,
        ]
        weights = [4, 4, 2, 1.5, 3, 1.5, 1]
        cur = self.leaves[0]
        for _ in range(rng.randint(1, 4)):
            a = cur if rng.random() < 0.7 else self.pick()
            fam = rng.choices(families, weights)[0]
            cur = fam(a)
        if rng.random() < 0.15:
            cur = self.loss(cur)
        return cur


def promote_for(x, y):
    """The dtype of a binary op's result: a 0-d tensor does not decide the dtype of a
    dimensioned one of the same category."""
    if x.shape == () and y.shape != ():
        return y.dtype
    if y.shape == () and x.shape != ():
        return x.dtype
    return promote(x.dtype, y.dtype)


def lit01(rng, shape):
    if shape == ():
        return rng.choice(["0.0", "1.0", "0.25", "0.75"])
    return "[" + ", ".join(lit01(rng, shape[1:]) for _ in range(shape[0])) + "]"


def dtarg(dtype, rng):
    if rng.random() < 0.1:  # a target of the other dtype: torch refuses it
        dtype = "torch.float32" if dtype == "torch.float64" else "torch.float64"
    return "" if dtype == "torch.float64" else f", dtype={dtype}"


def _finish(g, out):
    """Reduce to a scalar loss if needed."""
    if out.shape == ():
        return out
    tmpl = g.rng.choice(["{}.sum()", "{}.mean()", "({} * {}).sum()", "{}.sum() * 2"])
    return g.assign(tmpl.replace("{}", out.name), (), out.dtype)


def _print_values(g, out):
    rng = g.rng
    for t in rng.sample(g.nodes, min(len(g.nodes), rng.randint(0, 2))):
        g.emit(f'print("val:{t.name}", {t.name})')
    g.emit(f'print("val:{out.name}", {out.name})')


def _print_grads(g, names=None):
    for t in g.leaves:
        g.emit(f'print("grad:{t.name}", {t.name}.grad)')


def build(rng, area):
    g = Gen(rng)
    shape = rng.choice(SHAPES)
    dtype = rng.choice(DTYPES)
    g.new_leaf(shape, dtype)
    if rng.random() < 0.4:
        other = shape if rng.random() < 0.5 else rng.choice(SHAPES)
        g.new_leaf(other, dtype if rng.random() < 0.8 else rng.choice(DTYPES))
    out = g.forward()
    if area == "values":
        _print_values(g, out)
        return g
    if area == "errors":
        _errors(g, out)
        return g
    loss = _finish(g, out)
    if rng.random() < 0.3:
        _print_values(g, loss)
    BACKWARDS[area](g, out, loss)
    return g


# ------------------------------------------------------------------ backward schemes


def b_plain(g, out, loss):
    g.emit(f"{loss.name}.backward()")
    _print_grads(g)


def b_twice(g, out, loss):
    rng = g.rng
    g.emit(f"{loss.name}.backward(retain_graph=True)")
    if rng.random() < 0.5:
        g.emit(f"{loss.name}.backward()")
        _print_grads(g)
    else:  # a second backward without retain_graph fails: nothing may accumulate
        g.emit(f"{loss.name}.backward()")
        g.emit(f'print("val:once", {g.leaves[0].name}.grad)')
        g.emit(
            f'try:\n    {loss.name}.backward()\nexcept RuntimeError as e:\n    print("err:", str(e).split("\\n")[0])'
        )
        _print_grads(g)


def b_gradient(g, out, loss):
    if out.shape == ():
        g.emit(f"{out.name}.backward(gradient=torch.tensor(2.5{dt(out)}))")
    else:
        g.emit(f"{out.name}.backward(gradient=torch.full_like({out.name}, 0.5))")
    _print_grads(g)


def dt(t):
    return "" if t.dtype == "torch.float64" else f", dtype={t.dtype}"


def b_grad(g, out, loss):
    names = ", ".join(t.name for t in g.leaves)
    extra = ", allow_unused=True" if len(g.leaves) > 1 else ""
    g.emit(f'print("grad:autograd", torch.autograd.grad({loss.name}, [{names}]{extra}))')


def b_second(g, out, loss):
    rng = g.rng
    x = rng.choice(g.leaves)
    g.emit(f"gx, = torch.autograd.grad({loss.name}, {x.name}, create_graph=True)")
    g.emit('print("grad:gx", gx)')
    r = rng.random()
    if r < 0.4:
        g.emit(
            'print("grad:second", torch.autograd.grad((gx * gx).sum(), %s, allow_unused=True))'
            % x.name
        )
    elif r < 0.7:
        g.emit("(gx.sum() * 2).backward()")
        _print_grads(g)
    else:
        g.emit(f"{loss.name}.backward(create_graph=True)")
        g.emit(f'print("grad:{x.name}", {x.name}.grad)')
        g.emit(f"h, = torch.autograd.grad({x.name}.grad.sum(), {x.name}, allow_unused=True)")
        g.emit('print("grad:h", h)')


def b_hooks(g, out, loss):
    rng = g.rng
    x = rng.choice(g.leaves)
    mid = rng.choice(g.nodes) if g.nodes else None
    hook = rng.choice(["g * 2", "g + 1", "None", "g.clamp(-1, 1)", "print('grad:hook', g)"])
    g.emit(f"h = {x.name}.register_hook(lambda g: {hook})")
    if mid is not None and mid.name != loss.name and rng.random() < 0.7:
        g.emit(f"{mid.name}.retain_grad()")
        g.emit(f"{loss.name}.backward(retain_graph=True)")
        g.emit(f'print("grad:{mid.name}", {mid.name}.grad)')
    else:
        g.emit(f"{loss.name}.backward(retain_graph=True)")
    _print_grads(g)
    if rng.random() < 0.5:
        g.emit("h.remove()")
        g.emit(f"{loss.name}.backward()")
        _print_grads(g)


def b_inputs(g, out, loss):
    x = g.rng.choice(g.leaves)
    g.emit(f"{loss.name}.backward(inputs=[{x.name}])")
    _print_grads(g)


def b_sgd(g, out, loss):
    rng = g.rng
    names = ", ".join(t.name for t in g.leaves)
    mom = rng.choice(["", ", momentum=0.9", ", weight_decay=0.1"])
    g.emit(f"opt = torch.optim.SGD([{names}], lr=0.1{mom})")
    g.emit("opt.zero_grad()")
    g.emit(f"{loss.name}.backward()")
    g.emit("opt.step()")
    for t in g.leaves:
        g.emit(f'print("val:{t.name}", {t.name})')
    _print_grads(g)


BACKWARDS = {
    "plain": b_plain,
    "twice": b_twice,
    "gradient": b_gradient,
    "grad": b_grad,
    "second": b_second,
    "hooks": b_hooks,
    "inputs": b_inputs,
    "sgd": b_sgd,
}

ERRORS = [
    "{o}.backward(torch.ones(7))",
    "{x}.add_(1)",
    "{x}.view(5, 7)",
    "{x}.reshape(7, -1)",
    "{x}.sum(dim=5)",
    "{x}[9]",
    "{x}.index_select(0, torch.tensor([9]))",
    "torch.cat([{x}, torch.ones(7, 7)])",
    "{x} + torch.ones(7, 5)",
    "torch.atan2({x}, torch.ones(7, 5))",
    "torch.hypot({x}, torch.ones(7, 5))",
    "{x} ** torch.ones(7, 5)",
    "torch.autograd.grad({o}.sum(), {x})\ntorch.autograd.grad({o}.sum(), {x})",
    "{o}.sum().backward()\n{o}.sum().backward()",
    "torch.tensor([1.0, 2.0]).backward()",
    "{x}.detach().backward()",
    "{x}.grad.zero_()",
    "{x} @ torch.ones(7)",
    "torch.ones(2, 3) @ torch.ones(2, 3)",
    "float({x})",
    "{x}.item()",
    "torch.zeros(-1)",
    "{x}.transpose(0, 4)",
    "{x}.expand(7, 7)",
    "torch.stack([{x}, torch.ones(7)])",
    "torch.nn.functional.binary_cross_entropy({x}.sigmoid(), torch.ones(7))",
]


def _errors(g, out):
    rng = g.rng
    x = rng.choice(g.leaves)
    err = rng.choice(ERRORS).format(x=x.name, o=out.name)
    if rng.random() < 0.5:
        body = "\n".join("    " + line for line in err.split("\n"))
        g.emit(
            f'try:\n{body}\nexcept Exception as e:\n    print("err:", type(e).__name__, str(e).split("\\n")[0])'
        )
        g.emit(f'print("grad:{x.name}", {x.name}.grad)')
    else:
        g.emit(err)


AREAS = [
    "plain",
    "twice",
    "gradient",
    "grad",
    "second",
    "hooks",
    "inputs",
    "sgd",
    "values",
    "errors",
]
WEIGHTS = [3, 2, 1, 2, 3, 2, 1, 1, 2, 2]


def program(seed, area=None):
    """(area, source) of program number `seed`."""
    rng = random.Random(seed)
    area = area or rng.choices(AREAS, WEIGHTS)[0]
    g = build(rng, area)
    return area, "import torch\n" + "\n".join(g.lines) + "\n"
