"""A wider generator of random autograd programs: generator.py's, plus ops and forms its
programs do not hold (more of the op table, Python numbers on either side, integer and
boolean tensors mixed in, dtype casts, more views and in-place ops, no_grad and detach,
tensor attributes and scaled values that take the printer's other formats).

``program(seed)`` returns ``(area, source)`` as generator.program does; the programs of
generator.py keep their text (the differential test's fixed seeds stay the same), and
`scripts/difftest.py --wide` runs these.
"""

from __future__ import annotations

import random

from . import generator as base
from .generator import T, numel

UNARY = [
    "{}.erf()",
    "{}.erfc()",
    "{}.expm1()",
    "({}.abs() + 0.5).log2()",
    "({}.abs() + 0.5).log10()",
    "({}.abs() + 0.5).rsqrt()",
    "({}.abs() + 0.5).reciprocal()",
    "{}.sinh()",
    "{}.cosh()",
    "{}.asinh()",
    "({} * 0.3).asin()",
    "({} * 0.3).acos()",
    "({} * 0.3).atanh()",
    "{}.tan()",
    "{}.sign() * {}",
    "{}.floor() + {}",
    "{}.round() * {}",
    "{}.frac()",
    "{}.trunc() - {}",
    "torch.nn.functional.hardtanh({})",
    "torch.nn.functional.hardsigmoid({})",
    "torch.nn.functional.hardswish({})",
    "torch.nn.functional.relu6({} * 4)",
    "torch.nn.functional.gelu({})",
    "torch.nn.functional.gelu({}, approximate='tanh')",
    "torch.nn.functional.mish({})",
    "torch.nn.functional.selu({})",
    "torch.nn.functional.celu({}, 0.5)",
    "torch.nn.functional.softsign({})",
    "torch.nn.functional.tanhshrink({})",
    "torch.nn.functional.softshrink({}, 0.5)",
    "torch.nn.functional.hardshrink({}, 0.5)",
    "torch.nn.functional.threshold({}, 0.1, -1.0)",
    "torch.logit({}.sigmoid())",
    "{}.sigmoid().logit(eps=0.1)",
    "2.5 - {}",
    "3 / ({}.abs() + 1)",
    "1 - {}",
    "{} % 1.5",
    "torch.fmod({}, 0.75)",
    "{}.remainder(-1.25)",
    "{} * True",
    "{} + torch.tensor(2)",
    "{} * torch.tensor(3, dtype=torch.int32)",
    "{}.clamp(max=0.5)",
    "{}.clamp(-0.5, None)",
    "torch.clip({}, -1.0, 0.75)",
    "{}.double()",
    "{}.float()",
    "{}.to(torch.float64)",
    "{}.type(torch.float32)",
    "{} * 1e5",
    "{} * 1e-5",
    "{} * 123.456",
    "torch.sqrt({}.square() + 1)",
    "{}.exp2()",
    "torch.nan_to_num({}.log())",
    "{}.sinc()",
    "torch.special.expit({})",
    "torch.special.xlogy({}.abs(), 2.0)",
    "{}.deg2rad()",
    "torch.xlogy({}.abs() + 0.5, {}.abs() + 0.25)",
    "{}.lerp(torch.ones_like({}), 0.25)",
    "torch.addcmul({}, {}, {}, value=0.5)",
    "torch.addcdiv({}, {}, {}.abs() + 1, value=-2)",
    "(({} > 0).float() + 1) * {}",
    "{}.masked_fill({} < 0, float('-inf')).exp()",
    "{}.cumprod(0)",
    "{}.logcumsumexp(0)",
    "torch.cummax({}, 0).values",
    "torch.cummin({}, -1)[0]",
    "{}.flip(0)",
    "{}.roll(1, 0)",
    "{}.detach() * {}",
    "{}.contiguous()",
    "{}.expand_as({})",
    "{}.view_as({})",
    "{}.reshape_as({})",
    "+{}",
    "abs({})",
    "{}.lgamma()",
    "{}.neg().relu()",
]

BINARY = [
    "torch.lerp({}, {}, 0.3)",
    "{}.pow({})",
    "torch.copysign({}, {})",
    "torch.fmax({}, {})",
    "torch.fmin({}, {})",
    "torch.sub({}, {}, alpha=0.5)",
    "torch.mul({}, {})",
    "torch.true_divide({}, {}.abs() + 1)",
    "torch.div({}, {}.abs() + 1, rounding_mode='floor')",
    "torch.div({}, {}.abs() + 1, rounding_mode='trunc')",
    "torch.logaddexp({}, {})",
    "torch.logaddexp2({}, {})",
    "torch.dist({}, {})",
    "torch.nn.functional.cosine_similarity({}, {}, dim=-1)",
    "torch.nn.functional.pairwise_distance({}, {})",
    "torch.clamp({}, min={})",
    "torch.where({} > 0.3, {}, {} * 2)",
    "{}.lerp({}, {}.sigmoid())",
    "({} - {}) ** 2",
]


def _unary(g, a):
    tmpl = g.rng.choice(UNARY)
    shape = a.shape
    if "cumprod(0)" in tmpl or "logcumsumexp(0)" in tmpl or ".flip(0)" in tmpl or "(1, 0)" in tmpl:
        if not shape:
            tmpl = "{}.clone()"
    if "cummax" in tmpl or "cummin" in tmpl:
        if not shape:
            tmpl = "{} * 2"
    dtype = a.dtype
    if ".double()" in tmpl or "float64)" in tmpl:
        dtype = "torch.float64"
    if ".float()" in tmpl or "(torch.float32)" in tmpl:
        dtype = "torch.float32"
    return g.assign(tmpl.replace("{}", a.name), shape, dtype)


def _binary(g, a):
    b = g.partner(a)
    x, y = (a, b) if g.rng.random() < 0.7 else (b, a)
    tmpl = g.rng.choice(BINARY)
    names = [x.name, y.name] * 4
    expr = tmpl
    for n in names:
        if "{}" not in expr:
            break
        expr = expr.replace("{}", n, 1)
    shape = base.bshape(a.shape, b.shape)
    if "dist(" in tmpl:
        shape = ()
    elif "cosine_similarity" in tmpl or "pairwise_distance" in tmpl:
        if not shape:
            return _unary(g, a)
        shape = shape[:-1] if "cosine" in tmpl else shape[:-1]
        if "pairwise" in tmpl and len(base.bshape(a.shape, b.shape)) < 1:
            return _unary(g, a)
    return g.assign(expr, shape, base.promote_for(x, y))


def _reduce(g, a):
    rng = g.rng
    s = a.shape
    if not s:
        return g.assign(
            rng.choice(["{}.amax()", "{}.nansum()", "{}.norm(p=1)"]).format(a.name), (), a.dtype
        )
    d = rng.randrange(len(s))
    rest = s[:d] + s[d + 1 :]
    keep = s[:d] + (1,) + s[d + 1 :]
    opts = [
        (f"{{}}.amax({d})", rest),
        (f"{{}}.amin(dim={d}, keepdim=True)", keep),
        (f"{{}}.norm(p=1, dim={d})", rest),
        (f"{{}}.norm(dim={d}, keepdim=True)", keep),
        (f"torch.linalg.vector_norm({{}}, ord=3, dim={d})", rest),
        (f"{{}}.var({d}, unbiased=False)", rest),
        (f"{{}}.std({d}, keepdim=True)", keep) if s[d] > 1 else ("{}.sum()", ()),
        (f"{{}}.mean(dim={d}, keepdim=True)", keep),
        (f"{{}}.sort({d}).values", s),
        (f"{{}}.sort({d}, descending=True)[0]", s),
        (f"{{}}.topk(1, {d}).values", keep),
        (f"{{}}.kthvalue(1, {d}).values", rest),
        (f"{{}}.median({d}).values", rest),
        ("{}.median()", ()),
        (f"{{}}.logsumexp({d}, keepdim=True)", keep),
        ("{}.nansum()", ()),
        ("{}.prod()", ()),
        (f"{{}}.max(dim={d}, keepdim=True)[0]", keep),
        (f"{{}}.cumsum(dim={d}).sum({d})", rest),
        ("{}.abs().sum() / {}.numel()", ()),
        (f"torch.var_mean({{}}, {d})[0]", rest) if s[d] > 1 else ("{}.mean()", ()),
        (f"torch.std_mean({{}}, {d})[1]", rest),
        (f"{{}}.softmax({d}) * {{}}", s),
        (f"torch.nn.functional.normalize({{}}, dim={d})", s),
    ]
    if len(s) >= 2:
        opts += [
            ("{}.sum((0, 1))", s[2:]),
            ("{}.mean([-1, 0])", s[1:-1]),
            ("{}.amax((0, -1))", s[1:-1]),
        ]
    tmpl, shape = rng.choice(opts)
    return g.assign(tmpl.replace("{}", a.name), shape, a.dtype)


def _view(g, a):
    rng = g.rng
    s = a.shape
    if not s:
        opts = [("{}.view(1)", (1,)), ("{}[None]", (1,)), ("{}.repeat(2)", (2,)), ("{}[...]", ())]
        tmpl, shape = rng.choice(opts)
        return g.assign(tmpl.replace("{}", a.name), shape, a.dtype, False)
    n = len(s)
    d = rng.randrange(n)
    opts = [
        (f"{{}}.flip({d})", s),
        (f"{{}}.roll(1, {d})", s),
        (f"{{}}.roll(-2, {d})", s),
        ("{}.repeat(%s)" % ", ".join(["2"] + ["1"] * (n - 1)), (2 * s[0],) + s[1:]),
        (f"{{}}.movedim({d}, 0)", (s[d],) + s[:d] + s[d + 1 :]),
        (f"{{}}.chunk(2, {d})[0]", s[:d] + ((s[d] + 1) // 2,) + s[d + 1 :]),
        (f"{{}}.split(1, {d})[-1]", s[:d] + (1,) + s[d + 1 :]),
        (f"{{}}.unbind({d})[0]", s[:d] + s[d + 1 :]),
        ("{}.unsqueeze(-1)", s + (1,)),
        ("{}[None, ...]", (1,) + s),
        (f"{{}}.unfold({d}, 1, 1)", s + (1,)),
        ("{}[1:] if {}.shape[0] > 1 else {}", None),
        ("{}.tile((2,))", s[:-1] + (2 * s[-1],)),
        ("{}.repeat_interleave(2, dim=0)", (2 * s[0],) + s[1:]),
        ("torch.broadcast_to({}, (2,) + tuple({}.shape))", (2,) + s),
        ("{}.masked_select({} > 0)", None),
        ("{}.where({} > 0, torch.tensor(0.0, dtype={}.dtype))", s),
        ("{}.clone().detach().requires_grad_() * {}", s),
        ("{}.new_ones({}.shape) * {}", s),
        ("torch.zeros_like({}).copy_({})", s),
        ("torch.empty_like({}).fill_(2.0) * {}", s),
        ("torch.nn.functional.pad({}, (1, 0))", s[:-1] + (s[-1] + 1,)),
        ("torch.nn.functional.pad({}, (0, 2), value=-1.5)", s[:-1] + (s[-1] + 2,)),
        (
            "{}.scatter(%d, torch.zeros(%s, dtype=torch.int64), 7.0)"
            % (n - 1, ", ".join(map(str, s[:-1] + (1,)))),
            s,
        ),
        ("{}.index_fill(0, torch.tensor([0]), -1.0)", s),
        (
            "{}.index_add(0, torch.tensor([0]), torch.ones(%s, dtype={}.dtype))"
            % ", ".join(map(str, (1,) + s[1:])),
            s,
        ),
    ]
    if n >= 2:
        opts += [
            ("{}.swapaxes(0, 1)", (s[1], s[0]) + s[2:]),
            ("{}.mT", s[:-2] + (s[-1], s[-2])),
            ("{}.diagonal(0, -2, -1)", s[:-2] + (min(s[-2], s[-1]),)),
            ("{}.tril()", s),
            ("{}.triu(1)", s),
            ("{}[:, -1:]", (s[0], 1) + s[2:]),
            ("{}[0, ...]", s[1:]),
            ("{}[..., None, 0]", s[:-1] + (1,)),
            ("{}[[0, -1], :]", (2,) + s[1:]),
            ("{}.flatten(1)", (s[0], numel(s[1:]))),
            (
                "{}.view(%d, -1)" % s[0] if a.contiguous else "{}.reshape(%d, -1)" % s[0],
                (s[0], numel(s[1:])),
            ),
            ("{}.unflatten(0, (1, %d))" % s[0], (1,) + s),
        ]
    if n == 1:
        opts += [
            ("torch.diag({})", (s[0], s[0])),
            ("torch.outer({}, {})", (s[0], s[0])),
            ("torch.diag_embed({})", (s[0], s[0])),
            ("{}.dot({})", ()),
            ("torch.kron({}, {})", (s[0] * s[0],)),
        ]
    tmpl, shape = rng.choice(opts)
    t = g.assign(tmpl.replace("{}", a.name), shape or (0,), a.dtype, False)
    if shape is None:
        t = g.assign(f"{t.name}.sum()", (), a.dtype)
    return t


def _inplace(g, a):
    rng = g.rng
    base_t = g.assign(
        rng.choice(["{}.clone()", "{} * 1.0", "{} - 0"]).format(a.name), a.shape, a.dtype
    )
    s, n = a.shape, base_t.name
    opts = [
        f"{n}.addcmul_({a.name}, {a.name}, value=0.5)",
        f"{n}.lerp_(torch.zeros_like({n}), 0.5)",
        f"{n}.clamp_(max=0.5)",
        f"{n}.tanh_()",
        f"{n}.fill_(1.5)",
        f"{n}.copy_({a.name} * 3)",
        f"{n}.masked_fill_({n} > 0, 0.0)",
        f"{n}.abs_().sqrt_()",
        f"{n}.relu_()",
        f"{n}.sin_()",
        f"{n}.exp_().reciprocal_()",
        f"{n} /= 2",
        f"{n} -= {a.name}",
        f"{n} **= 2",
        f"{n}.mul_(torch.tensor(2.0))",
        f"{n}.add_({a.name}, alpha=-0.5)",
        f"{n}.zero_()",
        f"{n}.clamp_(min=0.0)",
        f"{n}.sigmoid_()",
        f"with torch.no_grad():\n    {n}.mul_(2)",
        f"{n}.detach().mul_(2)",
        f"{n}.data.add_(1)",
        f"{n}.data = {n}.data * 0.5",
    ]
    if s:
        opts += [
            f"{n}[0].fill_(2.5)",
            f"{n}[-1:].mul_({a.name}[-1:])",
            f"{n}[{n} > 0] = 0.0",
            f"{n}[..., -1] -= 1",
            f"{n}.narrow(0, 0, 1).zero_()",
            f"{n}.index_add_(0, torch.tensor([0]), {a.name}[:1])",
            f"{n}.index_fill_(0, torch.tensor([0]), 3.0)",
            f"{n}.scatter_(0, torch.zeros(%s, dtype=torch.int64), 9.0)"
            % ", ".join(["1"] + [str(x) for x in s[1:]]),
            f"{n}.view(-1)[0] = {a.name}.sum()",
        ]
        if len(s) >= 2:
            opts += [
                f"{n}.transpose(0, 1)[0] += 1",
                f"{n}.diagonal().fill_(0.5)",
                f"{n}[:, 0] = {a.name}[:, -1]",
            ]
    g.emit(rng.choice(opts))
    return base_t


def _modes(g, a):
    """no_grad / enable_grad / detach / set_grad_enabled / inference mixed into the forward."""
    rng = g.rng
    n = g.name()
    opts = [
        f"with torch.no_grad():\n    {n} = {a.name} * 2\n{n} = {n} + {a.name}",
        f"with torch.no_grad():\n    with torch.enable_grad():\n        {n} = {a.name}.exp()",
        f"with torch.set_grad_enabled(False):\n    {n} = {a.name}.sin()\n{n} = {n} * {a.name}",
        f"{n} = {a.name}.detach()\n{n}.requires_grad_()\n{n} = {n} * {a.name}",
        f"{n} = {a.name} * {a.name}.detach()",
        f"torch.set_grad_enabled(False)\n{n} = {a.name} + 1\ntorch.set_grad_enabled(True)\n{n} = {n} * {a.name}",
        f"{n} = {a.name}.data * 2 + {a.name}",
    ]
    g.emit(rng.choice(opts))
    t = T(n, a.shape, a.dtype)
    g.nodes.append(t)
    return t


def _attrs(g, a):
    """Print the tensor's attributes (shape, dtype, is_leaf, requires_grad, grad_fn...)."""
    rng = g.rng
    opts = [
        f'print("val:attrs", {a.name}.shape, {a.name}.dtype, {a.name}.requires_grad, {a.name}.is_leaf)',
        f'print("fn:", {a.name}.grad_fn)',
        f'print("val:size", {a.name}.size(), {a.name}.dim(), {a.name}.numel(), len({a.name}.shape))',
        f'print("val:list", {a.name}.tolist())',
        f'print("val:str", str({a.name}.detach()))',
        f'print("val:repr", repr({a.name}))',
        f'print("val:det", {a.name}.detach(), {a.name}.detach().requires_grad)',
        f'print("val:int", ({a.name} * 3).long(), ({a.name} > 0).sum())',
        f'print("val:bool", {a.name} > 0, ({a.name} > 0).any(), ({a.name} > 0).all())',
        f'print("val:f", {a.name}.sum().item())',
        f'print("val:fmt", f"{{{a.name}.sum().item():.4f}}")',
        f'print("val:half", {a.name}.detach().half())',
        f'print("val:bf", {a.name}.detach().bfloat16())',
        f'print("val:argmax", {a.name}.argmax(), {a.name}.argmin())',
        f'print("val:scaled", {a.name} * 1e-8, {a.name} * 1e10)',
        f'print("val:neg0", {a.name} * -0.0)',
        f'print("val:round", torch.round({a.name}, decimals=2))',
    ]
    g.emit(rng.choice(opts))
    return a


class Wide(base.Gen):
    def forward(self):
        rng = self.rng
        fams = [
            self.unary,
            self.binary,
            self.reduce,
            self.matmul,
            self.view,
            self.inplace,
            self.cat,
            lambda a: _unary(self, a),
            lambda a: _binary(self, a),
            lambda a: _reduce(self, a),
            lambda a: _view(self, a),
            lambda a: _inplace(self, a),
            lambda a: _modes(self, a),
            lambda a: _attrs(self, a),
        ]
        weights = [1, 1, 1, 1, 1, 1, 0.5, 5, 3, 3, 4, 3, 1.5, 1.5]
        cur = self.leaves[0]
        for _ in range(rng.randint(1, 4)):
            a = cur if rng.random() < 0.7 else self.pick()
            fam = rng.choices(fams, weights)[0]
            cur = fam(a)
        if rng.random() < 0.15:
            cur = self.loss(cur)
        return cur


def program(seed, area=None):
    """(area, source) of wide program number `seed`."""
    rng = random.Random(seed)
    area = area or rng.choices(base.AREAS, base.WEIGHTS)[0]
    g = _build(rng, area, Wide)
    return area, "import torch\n" + "\n".join(g.lines) + "\n"


def _build(rng, area, cls):
    g = cls(rng)
    shape = rng.choice(base.SHAPES)
    dtype = rng.choice(base.DTYPES)
    g.new_leaf(shape, dtype)
    if rng.random() < 0.4:
        other = shape if rng.random() < 0.5 else rng.choice(base.SHAPES)
        g.new_leaf(other, dtype if rng.random() < 0.8 else rng.choice(base.DTYPES))
    out = g.forward()
    if area == "values":
        base._print_values(g, out)
        return g
    if area == "errors":
        base._errors(g, out)
        return g
    loss = base._finish(g, out)
    if rng.random() < 0.3:
        base._print_values(g, loss)
    base.BACKWARDS[area](g, out, loss)
    return g
