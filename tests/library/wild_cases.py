"""Golden cases of the torch API that lectures and books use every day (random
generators and sampling, sorting, counting, the numpy spellings of arguments, and the
makemore lectures' bigram and MLP notebooks on a small word list in place of
names.txt), recorded from real PyTorch by scripts/gen_golden.py wild into
tests/golden/wild.json and replayed by tests/library/test_wild.py.

The rules of tests/library/nn_cases.py apply: the common subset of Python and the language,
float64 default (a case that sets float32, as the lectures' default, sets float64
back at its end), randomness seeded; values that pass through a float32 training loop
are printed at full precision, as the notebooks print them (every step of the training
is PyTorch's arithmetic to the last bit)."""

import textwrap

CASES = []


def case(name, src):
    if any(n == name for n, _ in CASES):
        raise ValueError("duplicate case name: " + name)
    CASES.append((name, textwrap.dedent(src).strip("\n") + "\n"))


def errors(prefix, setup, lines):
    """One case per line, each after `setup`: the error each one ends with."""
    for i, line in enumerate(lines):
        case(f"{prefix}/{i}", setup + "\n" + line + "\n")


# ---------------------------------------------------------------- generators

case(
    "generator/objects",
    """
    import torch
    g = torch.Generator()
    print(g.initial_seed(), g.device)
    h = g.manual_seed(2147483647)
    print(h is g, g.initial_seed(), g)
    print(torch.rand(3, generator=g), torch.randn(2, 3, generator=g))
    print(torch.randn(20, generator=g, dtype=torch.float32))
    print(torch.randint(0, 10, (6,), generator=g), torch.randint(5, (2, 2), generator=g))
    print(torch.randperm(7, generator=g), torch.normal(0.0, 2.0, (3,), generator=g))
    print(torch.empty(3).normal_(generator=g), torch.empty(3).uniform_(-1, 1, generator=g))
    g2 = torch.Generator().manual_seed(2147483647)
    print(torch.rand(3, generator=g2))
    torch.manual_seed(5)
    a = torch.rand(2)
    g3 = torch.Generator().manual_seed(5)
    print(torch.equal(a, torch.rand(2, generator=g3)), torch.manual_seed(5).initial_seed())
    g.manual_seed(-1)
    print(g.initial_seed(), torch.randn(3, generator=g))
    """,
)

errors(
    "generator/errors",
    "import torch",
    [
        "torch.Generator().manual_seed(1.5)",
        "torch.multinomial(torch.tensor([0.5, 0.5]), 1, generator=1)",
    ],
)

# ---------------------------------------------------------------- multinomial

case(
    "multinomial/forms",
    """
    import torch
    g = torch.Generator().manual_seed(42)
    p = torch.tensor([0.1, 0.0, 0.3, 0.6, 0.2])
    print(torch.multinomial(p, 1, generator=g), torch.multinomial(p, 3, generator=g))
    print(torch.multinomial(p, 4, generator=g), p.multinomial(10, True, generator=g))
    print(torch.multinomial(p, num_samples=20, replacement=True, generator=g))
    P = torch.rand(4, 6, generator=g)
    print(torch.multinomial(P, 1, generator=g), torch.multinomial(P, 6, generator=g))
    print(torch.multinomial(P, 5, replacement=True, generator=g))
    print(torch.multinomial(P.float(), 3, generator=g), torch.multinomial(P.float(), 7, True, generator=g))
    q = torch.tensor([1.0, 0.0, 0.0])
    print(torch.multinomial(q, 3, generator=g), torch.multinomial(q, 4, True, generator=g))
    torch.manual_seed(3)
    print(torch.multinomial(torch.tensor([2.0, 1.0, 1.0]), 8, replacement=True))
    print(torch.multinomial(torch.ones(100), 100, generator=g)[:12])
    x = torch.tensor([0.2, 0.8], requires_grad=True)
    print(torch.multinomial(x, 1, generator=g))
    """,
)

errors(
    "multinomial/errors",
    "import torch",
    [
        "torch.multinomial(torch.tensor([0.2, 0.3]), 3)",
        "torch.multinomial(torch.tensor([0.2, 0.3]), 0)",
        "torch.multinomial(torch.tensor([-0.2, 0.3]), 1)",
        "torch.multinomial(torch.tensor([0.0, 0.0]), 1)",
        "torch.multinomial(torch.tensor(0.5), 1)",
        "torch.multinomial(torch.ones(2, 2, 2), 1)",
        "torch.multinomial(torch.tensor([1, 2]), 1)",
        "torch.multinomial(torch.tensor([0.2, float('inf')]), 1)",
        "torch.multinomial(torch.tensor([0.2, float('nan')]), 2)",
        "torch.multinomial(torch.tensor([-0.2, 0.3]), 3, True)",
        "torch.multinomial(torch.tensor([0.2, float('nan')]), 3, True)",
        "torch.multinomial(torch.tensor([0.0, 0.0]), 3, True)",
    ],
)

# ---------------------------------------------------------------- in-place draws

case(
    "draws/exponential_random",
    """
    import torch
    g = torch.Generator().manual_seed(7)
    print(torch.empty(5).exponential_(generator=g), torch.empty(20, dtype=torch.float32).exponential_(3.0, generator=g))
    for dt in (torch.float32, torch.float64, torch.int64, torch.int32, torch.int16, torch.uint8, torch.bool):
        print(torch.empty(6, dtype=dt).random_(generator=g))
    print(torch.empty(6).random_(10, generator=g), torch.empty(6).random_(-3, 10, generator=g))
    print(torch.zeros(4, dtype=torch.int64).random_(0, to=3, generator=g), torch.zeros(3).random_(to=5, generator=g))
    x = torch.ones(3, requires_grad=True) * 1
    print(x.clone().random_().grad_fn, x.clone().random_(5).grad_fn, x.clone().random_(1, 5).grad_fn)
    print(x.clone().random_(to=5).grad_fn, x.clone().exponential_().grad_fn)
    y = x.clone().exponential_(generator=g)
    (y * 2).sum().backward()
    print(x.grad)
    torch.manual_seed(11)
    print(torch.empty(3).exponential_(), torch.empty(3).random_(100))
    print(torch.empty(2, dtype=torch.float64).random_(0, 2 ** 60, generator=g).shape)
    """,
)

errors(
    "draws/errors",
    "import torch",
    [
        "torch.empty(2).exponential_(-1)",
        "torch.empty(2).exponential_(0)",
        "torch.empty(2, dtype=torch.int64).exponential_()",
        "torch.empty(3).random_(5, 2)",
        "torch.ones(2, requires_grad=True).random_()",
        "torch.ones(2, requires_grad=True).exponential_()",
    ],
)

# ---------------------------------------------------------------- numpy spellings, nelement

case(
    "numpy_names/reductions",
    """
    import torch
    x = torch.arange(12.).view(3, 4)
    print(x.nelement(), torch.ones(2, 3, 4).nelement(), torch.tensor(1.).nelement())
    print(x.sum(1, keepdims=True), torch.sum(x, axis=0), x.mean(axis=1, keepdims=True))
    print(torch.cat([x, x], axis=0).shape, x.max(axis=1), torch.max(x, axis=1, keepdims=True).values.shape)
    print(x.softmax(axis=0)[0], x.argmax(axis=1), x.std(axis=0), x.prod(axis=1, keepdims=True))
    """,
)

errors(
    "numpy_names/errors",
    "import torch\nx = torch.ones(3)",
    ["x.sum(dim=0, axis=0)"],
)

# ---------------------------------------------------------------- one_hot, sort, diag, histogram

case(
    "one_hot/forms",
    """
    import torch
    import torch.nn.functional as F
    print(F.one_hot(torch.tensor([0, 2, 1]), 4), F.one_hot(torch.tensor([[0, 2], [1, 1]])))
    print(F.one_hot(torch.tensor([3]), num_classes=5).float(), F.one_hot(torch.tensor(2), 3))
    print(F.one_hot(torch.tensor([], dtype=torch.int64), 3).shape)
    """,
)

errors(
    "one_hot/errors",
    "import torch\nimport torch.nn.functional as F",
    [
        "F.one_hot(torch.tensor([0., 1.]))",
        "F.one_hot(torch.tensor([0, 5]), 3)",
        "F.one_hot(torch.tensor([0, -1]), 3)",
        "F.one_hot(torch.tensor([], dtype=torch.int64))",
        "F.one_hot(torch.tensor([1]), 0)",
    ],
)

case(
    "sort/ties_and_grad",
    """
    import torch
    x = torch.tensor([3., 1., float('nan'), 1., 3., 2., float('nan'), -1., 1.] * 5)
    print(x.sort().indices.tolist())
    print(x.sort(descending=True).indices.tolist())
    print(torch.sort(x, stable=True, descending=True).indices.tolist())
    print(torch.sort(x, stable=True).indices.tolist())
    y = torch.tensor([3, 1, 1, 3, 2] * 40)
    print(y.sort(descending=True).indices.tolist()[:30], y.sort().indices.tolist()[:30])
    print(torch.tensor([True, False, True, False]).sort())
    a = torch.tensor([[0.5, -1., 2., 0.], [3., 0.25, -2., 1.], [1., 1., 1., 1.]], requires_grad=True)
    s = a.sort(dim=0)
    print(s.values.grad_fn, torch.sort(a, stable=True).values.grad_fn, s)
    print(torch.argsort(a).dtype, a.argsort(dim=0, descending=True), torch.argsort(a, stable=True))
    print(s.values.grad_fn._saved_dim, s.values.grad_fn._saved_indices)
    (s.values * torch.arange(12.).view(3, 4)).sum().backward()
    print(a.grad)
    print(torch.tensor(5.).sort(), torch.tensor([]).sort())
    v, i = torch.sort(torch.tensor([[2., 1.], [0., 3.]]), 1, True)
    print(v, i)
    """,
)

case(
    "diag/forms_and_grad",
    """
    import torch
    v = torch.tensor([1., 2., 3.], requires_grad=True)
    m = torch.arange(12.).view(3, 4).requires_grad_()
    print(torch.diag(v), torch.diag(v, 1), v.diag(-2))
    print(torch.diag(m), torch.diag(m, 1), m.diag(-1), torch.diag(m, 5))
    print(torch.diag(v).grad_fn, torch.diag(m).grad_fn)
    (torch.diag(v, 1) * torch.arange(16.).view(4, 4)).sum().backward()
    (torch.diag(m, 1) * torch.tensor([1., 10., 100.])).sum().backward()
    print(v.grad, m.grad)
    print(torch.diag(torch.tensor([1, 2])))
    """,
)

errors(
    "diag/errors",
    "import torch",
    ["torch.diag(torch.ones(2, 2, 2))", "torch.diag(torch.tensor(1.))"],
)

case(
    "histogram/forms",
    """
    import torch
    print(torch.histogram(torch.tensor([1., 2, 1, 4, 2.5]), bins=4))
    print(torch.histogram(torch.tensor([1., 1]), bins=2))
    print(torch.histogram(torch.tensor([1., 2, 1, 4, 2.5]), bins=3, range=(0., 3.), density=True))
    print(torch.histogram(torch.tensor([1., 2, 1]), bins=2, weight=torch.tensor([1., 2., 4.])))
    print(torch.histogram(torch.tensor([1., 2, 1]), torch.tensor([0., 1.5, 3.])))
    h = torch.tensor([0.1, 0.25, 0.7, 0.9, 0.3, 0.35]).histogram(5)
    print(h.hist, h.bin_edges)
    hist, edges = torch.histogram(torch.arange(10.), 3)
    print(hist, edges)
    """,
)

errors("histogram/errors", "import torch", ["torch.histogram(torch.tensor([1, 2]), 2)"])

# ---------------------------------------------------------------- vmap, inference_mode

case(
    "modes/vmap_inference_mode",
    """
    import torch
    print(torch.vmap(lambda t: t.sum())(torch.ones(3, 2)))
    print(torch.vmap(torch.dot)(torch.ones(2, 3), torch.arange(6.).view(2, 3)))
    with torch.inference_mode():
        x = torch.ones(2, requires_grad=True) * 2
    print(x.requires_grad)
    print(torch.inference_mode())
    @torch.inference_mode()
    def f(x):
        return x * 2
    print(f(torch.ones(2, requires_grad=True)))
    with torch.inference_mode(False):
        print(torch.ones(2, requires_grad=True) * 2)
    """,
)

# ---------------------------------------------------------------- makemore

case(
    "makemore/part1_bigrams",
    """
    import torch
    import torch.nn.functional as F
    torch.set_default_dtype(torch.float32)
    words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia', 'harper', 'evelyn', 'abigail', 'emily', 'elizabeth', 'mila', 'ella', 'avery', 'sofia', 'camila', 'aria', 'scarlett', 'victoria', 'madison', 'luna', 'grace', 'chloe', 'penelope', 'layla', 'riley', 'zoey', 'nora', 'lily', 'eleanor', 'hannah', 'lillian', 'addison', 'aubrey', 'ellie', 'stella', 'natalie', 'zoe', 'leah', 'hazel', 'violet', 'aurora', 'savannah', 'audrey', 'brooklyn', 'bella', 'claire', 'skylar', 'quinn', 'jack', 'xavier', 'kai', 'wyatt']
    N = torch.zeros((27, 27), dtype=torch.int32)
    chars = sorted(list(set(''.join(words))))
    stoi = {s:i+1 for i,s in enumerate(chars)}
    stoi['.'] = 0
    itos = {i:s for s,i in stoi.items()}
    for w in words:
      chs = ['.'] + list(w) + ['.']
      for ch1, ch2 in zip(chs, chs[1:]):
        ix1 = stoi[ch1]
        ix2 = stoi[ch2]
        N[ix1, ix2] += 1
    print(N[0])
    p = N[0].float()
    p = p / p.sum()
    print(p)
    g = torch.Generator().manual_seed(2147483647)
    ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
    print(itos[ix])
    g = torch.Generator().manual_seed(2147483647)
    p = torch.rand(3, generator=g)
    p = p / p.sum()
    print(p)
    print(torch.multinomial(p, num_samples=100, replacement=True, generator=g))
    P = (N+1).float()
    P /= P.sum(1, keepdims=True)
    g = torch.Generator().manual_seed(2147483647)
    for i in range(5):
      out = []
      ix = 0
      while True:
        p = P[ix]
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
          break
      print(''.join(out))
    log_likelihood = 0.0
    n = 0
    for w in words:
      chs = ['.'] + list(w) + ['.']
      for ch1, ch2 in zip(chs, chs[1:]):
        ix1 = stoi[ch1]
        ix2 = stoi[ch2]
        prob = P[ix1, ix2]
        logprob = torch.log(prob)
        log_likelihood += logprob
        n += 1
    print(f'{log_likelihood}')
    nll = -log_likelihood
    print(f'{nll/n}')
    xs, ys = [], []
    for w in words:
      chs = ['.'] + list(w) + ['.']
      for ch1, ch2 in zip(chs, chs[1:]):
        ix1 = stoi[ch1]
        ix2 = stoi[ch2]
        xs.append(ix1)
        ys.append(ix2)
    xs = torch.tensor(xs)
    ys = torch.tensor(ys)
    num = xs.nelement()
    print('number of examples: ', num)
    g = torch.Generator().manual_seed(2147483647)
    W = torch.randn((27, 27), generator=g, requires_grad=True)
    for k in range(20):
      xenc = F.one_hot(xs, num_classes=27).float()
      logits = xenc @ W
      counts = logits.exp()
      probs = counts / counts.sum(1, keepdims=True)
      loss = -probs[torch.arange(num), ys].log().mean() + 0.01*(W**2).mean()
      print(loss.item())
      W.grad = None
      loss.backward()
      W.data += -50 * W.grad
    g = torch.Generator().manual_seed(2147483647)
    for i in range(5):
      out = []
      ix = 0
      while True:
        xenc = F.one_hot(torch.tensor([ix]), num_classes=27).float()
        logits = xenc @ W
        counts = logits.exp()
        p = counts / counts.sum(1, keepdims=True)
        ix = torch.multinomial(p, num_samples=1, replacement=True, generator=g).item()
        out.append(itos[ix])
        if ix == 0:
          break
      print(''.join(out))
    torch.set_default_dtype(torch.float64)
    """,
)

case(
    "makemore/part2_mlp",
    """
    import torch
    import torch.nn.functional as F
    import random
    torch.set_default_dtype(torch.float32)
    words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia', 'harper', 'evelyn', 'abigail', 'emily', 'elizabeth', 'mila', 'ella', 'avery', 'sofia', 'camila', 'aria', 'scarlett', 'victoria', 'madison', 'luna', 'grace', 'chloe', 'penelope', 'layla', 'riley', 'zoey', 'nora', 'lily', 'eleanor', 'hannah', 'lillian', 'addison', 'aubrey', 'ellie', 'stella', 'natalie', 'zoe', 'leah', 'hazel', 'violet', 'aurora', 'savannah', 'audrey', 'brooklyn', 'bella', 'claire', 'skylar', 'quinn', 'jack', 'xavier', 'kai', 'wyatt']
    chars = sorted(list(set(''.join(words))))
    stoi = {s:i+1 for i,s in enumerate(chars)}
    stoi['.'] = 0
    itos = {i:s for s,i in stoi.items()}
    print(itos)
    block_size = 3
    def build_dataset(words):
      X, Y = [], []
      for w in words:
        context = [0] * block_size
        for ch in w + '.':
          ix = stoi[ch]
          X.append(context)
          Y.append(ix)
          context = context[1:] + [ix]
      X = torch.tensor(X)
      Y = torch.tensor(Y)
      print(X.shape, Y.shape)
      return X, Y
    random.seed(42)
    random.shuffle(words)
    n1 = int(0.8*len(words))
    n2 = int(0.9*len(words))
    Xtr, Ytr = build_dataset(words[:n1])
    Xdev, Ydev = build_dataset(words[n1:n2])
    Xte, Yte = build_dataset(words[n2:])
    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((27, 10), generator=g)
    W1 = torch.randn((30, 200), generator=g)
    b1 = torch.randn(200, generator=g)
    W2 = torch.randn((200, 27), generator=g)
    b2 = torch.randn(27, generator=g)
    parameters = [C, W1, b1, W2, b2]
    print(sum(p.nelement() for p in parameters))
    for p in parameters:
      p.requires_grad = True
    lre = torch.linspace(-3, 0, 1000)
    lrs = 10**lre
    print(lrs[:3], lrs[-3:])
    lossi = []
    stepi = []
    for i in range(40):
      ix = torch.randint(0, Xtr.shape[0], (32,), generator=g)
      emb = C[Xtr[ix]]
      h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
      logits = h @ W2 + b2
      loss = F.cross_entropy(logits, Ytr[ix])
      for p in parameters:
        p.grad = None
      loss.backward()
      lr = 0.1 if i < 20 else 0.01
      for p in parameters:
        p.data += -lr * p.grad
      stepi.append(i)
      lossi.append(loss.log10().item())
    print(lossi)
    emb = C[Xdev]
    h = torch.tanh(emb.view(-1, 30) @ W1 + b1)
    logits = h @ W2 + b2
    loss = F.cross_entropy(logits, Ydev)
    print(loss)
    context = [0] * block_size
    print(C[torch.tensor([context])].shape)
    g = torch.Generator().manual_seed(2147483647 + 10)
    for _ in range(20):
        out = []
        context = [0] * block_size
        while True:
          emb = C[torch.tensor([context])]
          h = torch.tanh(emb.view(1, -1) @ W1 + b1)
          logits = h @ W2 + b2
          probs = F.softmax(logits, dim=1)
          ix = torch.multinomial(probs, num_samples=1, generator=g).item()
          context = context[1:] + [ix]
          out.append(ix)
          if ix == 0:
            break
        print(''.join(itos[i] for i in out))
    torch.set_default_dtype(torch.float64)
    """,
)


# ---------------------------------------------------------------- nn: embedding, batch norm, pooling

case(
    "nn/embedding_batchnorm_pooling",
    """
    import torch
    from torch import nn
    import torch.nn.functional as F
    torch.set_default_dtype(torch.float32)
    torch.manual_seed(0)
    emb = nn.Embedding(10, 3)
    print(emb, emb.weight)
    e2 = nn.Embedding(5, 2, padding_idx=1)
    print(e2, e2.weight)
    idx = torch.tensor([[1, 2, 4], [4, 3, 1]])
    y = e2(idx)
    print(y, y.grad_fn)
    (y * torch.arange(12.).view(2, 3, 2)).sum().backward()
    print(e2.weight.grad)
    w = torch.randn(6, 4, requires_grad=True)
    out = F.embedding(torch.tensor([0, 5, 5, 2, 0]), w)
    out.pow(2).sum().backward()
    print(out.grad_fn, w.grad)
    bn = nn.BatchNorm1d(5)
    print(bn, bn.running_mean, bn.num_batches_tracked)
    x = torch.randn(8, 5) * 2 + 1
    x.requires_grad_()
    y = bn(x)
    print(y.tolist(), y.grad_fn)
    print(bn.running_mean.tolist(), bn.running_var.tolist(), bn.num_batches_tracked)
    (y * torch.randn(8, 5)).sum().backward()
    print(x.grad.tolist(), bn.weight.grad.tolist(), bn.bias.grad.tolist())
    y = bn(torch.randn(4, 5))
    print(bn.running_mean.tolist(), bn.running_var.tolist())
    bn.eval()
    print(bn(torch.randn(3, 5)).tolist())
    print(list(bn.state_dict().keys()))
    bn3 = nn.BatchNorm1d(4, momentum=None, affine=False)
    print(bn3, bn3(torch.randn(6, 4)).tolist(), bn3.running_mean.tolist())
    bn3(torch.randn(6, 4))
    print(bn3.running_mean.tolist())
    img = torch.arange(2 * 3 * 5 * 5, dtype=torch.float32).view(2, 3, 5, 5).requires_grad_()
    p = nn.AvgPool2d(2)
    print(p, p(img), p(img).grad_fn)
    print(F.avg_pool2d(img, 3, stride=2, padding=1))
    print(F.avg_pool2d(img, 3, stride=2, padding=1, count_include_pad=False))
    print(F.avg_pool2d(img, 2, ceil_mode=True))
    q = nn.AdaptiveAvgPool2d((2, 3))
    print(q, q(img), q(img).grad_fn, nn.AdaptiveAvgPool2d(1)(img).grad_fn)
    (F.avg_pool2d(img / 7, 3, stride=2, padding=1) * 3).sum().backward()
    print(img.grad[0, 0])
    img.grad = None
    (q(img / 7) * 3).sum().backward()
    print(img.grad[1, 2])
    print(F.adaptive_avg_pool2d(torch.randn(3, 7, 6), (3, None)).shape)
    torch.set_default_dtype(torch.float64)
    """,
)

case(
    "nn/batch_norm_float16",
    """
    import torch
    import torch.nn.functional as F
    for shape in [(4, 3), (4, 3, 5)]:
        x = torch.ones(shape).to(torch.float16).requires_grad_()
        rm, rv = torch.zeros(3).to(torch.float16), torch.ones(3).to(torch.float16)
        for training in (True, False):
            y = F.batch_norm(x, rm, rv, training=training)
            y.sum().backward()
            print(y.dtype, y.shape, x.grad.dtype, rm.dtype)
    """,
)

errors(
    "nn/errors",
    "import torch\nfrom torch import nn\nimport torch.nn.functional as F",
    [
        "F.embedding(torch.tensor([0, 3]), torch.ones(3, 2))",
        "F.embedding(torch.tensor([0., 1.]), torch.ones(3, 2))",
        "nn.BatchNorm1d(3)(torch.ones(1, 3))",
        "nn.BatchNorm1d(3)(torch.ones(3))",
        "F.batch_norm(torch.ones(4, 3), None, None, training=False)",
        "F.avg_pool2d(torch.ones(1, 1, 2, 2), 3)",
    ],
)


# ---------------------------------------------------------------- optim.Adadelta, nll_loss of (N, C, d1, ...)

case(
    "optim/adadelta",
    """
    import torch
    torch.set_default_dtype(torch.float32)
    torch.manual_seed(0)
    w = torch.randn(3, 4, requires_grad=True)
    opt = torch.optim.Adadelta([w], lr=0.5, weight_decay=0.01)
    print(opt)
    for i in range(6):
        loss = ((w * torch.arange(12.).view(3, 4)).sin() ** 2).sum()
        opt.zero_grad()
        loss.backward()
        opt.step()
        print(w.tolist())
    w2 = torch.randn(5, dtype=torch.float64, requires_grad=True)
    opt2 = torch.optim.Adadelta([w2], maximize=True)
    for i in range(4):
        opt2.zero_grad()
        (w2 ** 3).sum().backward()
        opt2.step()
    print(w2.tolist())
    torch.set_default_dtype(torch.float64)
    """,
)

case(
    "loss/nll_nd",
    """
    import torch
    import torch.nn.functional as F
    torch.set_default_dtype(torch.float32)
    torch.manual_seed(0)
    from torch import nn
    x = torch.randn(2, 3, 4, requires_grad=True)
    t = torch.tensor([[0, 1, 2, 1], [2, 2, 0, 1]])
    l = F.nll_loss(x, t)
    print(l, l.grad_fn, l.grad_fn.next_functions)
    l2 = F.cross_entropy(x, t, reduction='none')
    print(l2, l2.grad_fn)
    l.backward()
    print(x.grad)
    x4 = torch.randn(2, 3, 2, 2, requires_grad=True)
    t4 = torch.tensor([[[0, 1], [2, 1]], [[2, 2], [0, 1]]])
    print(F.cross_entropy(x4, t4), F.nll_loss(x4, t4, reduction='sum').grad_fn)
    print(nn.NLLLoss()(x, t), nn.CrossEntropyLoss(ignore_index=1)(x, t))
    x = torch.randn(3, 5, 7, 40, requires_grad=True)
    t = torch.randint(0, 5, (3, 7, 40))
    t[0, 0, :5] = -100
    l = F.cross_entropy(x, t)
    print(l.item(), F.nll_loss(x, t, reduction='sum').item())
    l.backward()
    print(x.grad.sum().item(), x.grad[1, :, 2, :6].tolist())
    w = torch.tensor([0.5, 1., 2., 1.5, 0.25])
    y = torch.randn(4, 5, 300, requires_grad=True)
    ty = torch.randint(0, 5, (4, 300))
    lw = F.cross_entropy(y, ty, weight=w)
    print(lw.item(), F.cross_entropy(y, ty, weight=w, ignore_index=2, reduction='none')[1, :8].tolist())
    lw.backward()
    print(y.grad[2, :, :4].tolist())
    torch.set_default_dtype(torch.float64)
    """,
)

errors(
    "loss/nll_nd_errors",
    "import torch\nimport torch.nn.functional as F",
    [
        "F.nll_loss(torch.randn(2, 3, 4), torch.zeros(2, 5, dtype=torch.int64))",
        "F.nll_loss(torch.randn(2, 3, 4), torch.full((2, 4), 3))",
    ],
)


# ---------------------------------------------------------------- the loss functions and modules

case(
    "loss/more_losses",
    """
    import torch
    from torch import nn
    import torch.nn.functional as F
    torch.manual_seed(0)
    x = torch.randn(3, 4, requires_grad=True)
    y = torch.randn(3, 4, requires_grad=True)
    t = torch.rand(3, 4)
    s = torch.tensor([1., -1., 1.])
    sg = torch.sign(t - 0.5)
    cases = [
        ("poisson", lambda: F.poisson_nll_loss(x, t)),
        ("poisson_full", lambda: F.poisson_nll_loss(x.abs() + 0.1, t * 3, log_input=False, full=True)),
        ("poisson_mod", lambda: nn.PoissonNLLLoss(reduction='sum')(x, t * 4)),
        ("gaussian", lambda: F.gaussian_nll_loss(x, y, t + 0.1)),
        ("gaussian_mod", lambda: nn.GaussianNLLLoss(full=True)(x, y, torch.ones(3, 1))),
        ("kl", lambda: F.kl_div(x.log_softmax(1), t, reduction='batchmean')),
        ("kl_none", lambda: nn.KLDivLoss(reduction='none', log_target=True)(x, y)),
        ("kl_sum", lambda: F.kl_div(x, t, reduction='sum')),
        ("huber", lambda: F.huber_loss(x, y * 2)),
        ("huber_mod", lambda: nn.HuberLoss(delta=0.5, reduction='sum')(x, y)),
        ("smoothl1", lambda: F.smooth_l1_loss(x, y * 2)),
        ("smoothl1_mod", lambda: nn.SmoothL1Loss(beta=0.3, reduction='none')(x, y)),
        ("softmargin", lambda: F.soft_margin_loss(x, sg)),
        ("softmargin_mod", lambda: nn.SoftMarginLoss(reduction='sum')(x, sg)),
        ("mlsm", lambda: F.multilabel_soft_margin_loss(x, (t > 0.5).float())),
        ("mlsm_mod", lambda: nn.MultiLabelSoftMarginLoss(weight=torch.tensor([1., 2., 0.5, 1.]), reduction='none')(x, (t > 0.5).float())),
        ("margin_ranking", lambda: F.margin_ranking_loss(x[:, 0], y[:, 0], s, margin=0.2)),
        ("margin_ranking_mod", lambda: nn.MarginRankingLoss(0.5)(x[:, 1], y[:, 1], s)),
        ("hinge", lambda: F.hinge_embedding_loss(x, sg)),
        ("hinge_mod", lambda: nn.HingeEmbeddingLoss(margin=0.3, reduction='sum')(x, sg)),
        ("cosine", lambda: F.cosine_embedding_loss(x, y, s)),
        ("cosine_mod", lambda: nn.CosineEmbeddingLoss(margin=0.1, reduction='none')(x, y, s)),
    ]
    for name, f in cases:
        x.grad = None
        y.grad = None
        v = f()
        print(name, v.tolist(), v.grad_fn)
        v.sum().backward()
        print(x.grad.tolist(), None if y.grad is None else y.grad.tolist())
    print(nn.PoissonNLLLoss(), nn.HuberLoss(delta=2.0), nn.CosineEmbeddingLoss(margin=0.1))
    print(torch.clamp_min(x, 0.5).grad_fn, x.clamp_min(0.2))
    """,
)

errors(
    "loss/more_errors",
    "import torch\nimport torch.nn.functional as F",
    [
        "F.huber_loss(torch.ones(2), torch.ones(2), delta=0)",
        "F.smooth_l1_loss(torch.ones(2), torch.ones(2), beta=-1)",
        "F.gaussian_nll_loss(torch.ones(2, 3), torch.ones(2, 3), torch.ones(3, 3))",
        "F.gaussian_nll_loss(torch.ones(2, 3), torch.ones(2, 3), -torch.ones(2, 3))",
        "F.cosine_embedding_loss(torch.ones(2, 3), torch.ones(2, 3), torch.ones(2, 2))",
        "F.poisson_nll_loss(torch.ones(2), torch.ones(2), reduction='avg')",
    ],
)


# ---------------------------------------------------------------- the autograd graph API

case(
    "graph/node_hooks",
    """
    import torch
    a = torch.tensor([1., 2.], requires_grad=True)
    b = a * 3
    c = b.sum()
    print(c.grad_fn.name(), c.grad_fn.next_functions, b.grad_fn.next_functions[0][0].name())
    def hook(grad_inputs, grad_outputs):
        print("hook", grad_inputs, grad_outputs)
    def prehook(grad_outputs):
        print("prehook", grad_outputs)
    h1 = b.grad_fn.register_hook(hook)
    h2 = b.grad_fn.register_prehook(prehook)
    print(h1)
    c.backward(retain_graph=True)
    h1.remove()
    c.backward()
    print(a.grad)
    x = torch.tensor([1., -2., 3.], requires_grad=True)
    y = torch.exp(x)
    z = (y * x).sum()
    def double(gi, go):
        return (gi[0] * 2,)
    y.grad_fn.register_hook(double)
    def halve(go):
        return (go[0] / 2,)
    z.grad_fn.register_prehook(halve)
    z.backward()
    print(x.grad)
    u = torch.tensor([0.5, 1.5], requires_grad=True)
    v = u.pow(2) * u.sin()
    v.grad_fn.register_hook(lambda gi, go: print("mul", len(gi), gi[0] is None, gi[1] is None))
    torch.autograd.grad(v.sum(), u)
    w = torch.tensor([1., 2., 3.], requires_grad=True)
    def step(p):
        print("accumulated", p.grad)
        with torch.no_grad():
            p -= 0.1 * p.grad
        p.grad = None
    h = w.register_post_accumulate_grad_hook(step)
    for i in range(2):
        (w * w).sum().backward()
        print(w, w.grad)
    h.remove()
    (w * w).sum().backward()
    print(w.grad)
    print(isinstance(v.grad_fn, torch.autograd.graph.Node), isinstance(w, torch.autograd.graph.Node))
    """,
)

errors(
    "graph/errors",
    "import torch\nw = torch.ones(2, requires_grad=True)",
    [
        "(w * 2).register_post_accumulate_grad_hook(print)",
        "torch.ones(2).register_post_accumulate_grad_hook(print)",
    ],
)


case(
    "histogram/default_bins_float32",
    """
    import torch
    torch.manual_seed(3)
    t = torch.randn(500).tanh()
    hy, hx = torch.histogram(t, density=True)
    print(hy.tolist(), hx.tolist())
    t32 = torch.randn(2000, dtype=torch.float32) * 3
    h = torch.histogram(t32, 37)
    print(h.hist.tolist(), h.bin_edges.tolist())
    h = torch.histogram(t32, 11, range=(-2.5, 4.0), density=True)
    print(h.hist.tolist(), h.bin_edges.tolist())
    """,
)


case(
    "generator/state",
    """
    import torch
    g = torch.Generator().manual_seed(42)
    s0 = g.get_state()
    print(s0.shape, s0.dtype, s0[:32].tolist(), s0[5016:].tolist())
    a = torch.randn(3, generator=g)
    s1 = g.get_state()
    print(s1[:32].tolist(), s1[5016:].tolist())
    b = torch.rand(700, generator=g)
    s2 = g.get_state()
    print(s2[:32].tolist(), s2[-40:].tolist())
    g.set_state(s1)
    print(torch.equal(torch.rand(700, generator=g), b))
    g.set_state(s0)
    print(torch.equal(torch.randn(3, generator=g), a))
    h = torch.Generator()
    h.set_state(s2)
    print(h.initial_seed(), torch.randn(5, generator=h))
    g.manual_seed(7)
    torch.rand(624 * 2, generator=g)
    print(g.get_state()[:24].tolist())
    torch.manual_seed(5)
    st = torch.get_rng_state()
    x = torch.randn(4)
    torch.set_rng_state(st)
    print(torch.equal(torch.randn(4), x), st[:24].tolist())
    g.set_state(torch.get_rng_state())
    print(torch.equal(torch.rand(3, generator=g), torch.rand(3)))
    """,
)

errors(
    "generator/state_errors",
    "import torch\ng = torch.Generator()",
    [
        "g.set_state(torch.zeros(10, dtype=torch.uint8))",
        "g.set_state(torch.zeros(5056))",
        "torch.set_rng_state(3)",
    ],
)


case(
    "graph/module_backward_hooks",
    """
    import torch
    from torch import nn
    torch.manual_seed(0)
    lin = nn.Linear(3, 2)
    def hook(m, gi, go):
        print("bw", type(m).__name__, gi, go)
    def prehook(m, go):
        print("pre", type(m).__name__, go)
    h = lin.register_full_backward_hook(hook)
    h2 = lin.register_full_backward_pre_hook(prehook)
    x = torch.randn(4, 3, requires_grad=True)
    y = lin(x)
    print(y.grad_fn, y.grad_fn.next_functions)
    y.sum().backward()
    print(x.grad)
    x2 = torch.randn(4, 3)
    lin(x2).pow(2).sum().backward()
    def scale(m, gi, go):
        return (gi[0] * 10,)
    h.remove()
    lin.register_full_backward_hook(scale)
    x.grad = None
    lin(x).sum().backward()
    print(x.grad)
    seq = nn.Sequential(nn.Linear(3, 3), nn.Tanh(), nn.Linear(3, 1))
    seq[1].register_full_backward_hook(lambda m, gi, go: print("tanh", gi[0].shape, go[0].shape))
    seq(x).sum().backward()
    two = nn.Linear(2, 2)
    seen = []
    two.register_full_backward_pre_hook(lambda m, go: (go[0] * 0.5,))
    two.register_full_backward_hook(lambda m, gi, go: seen.append((gi[0].tolist(), go[0].tolist())))
    z = torch.tensor([[1., 2.]], requires_grad=True)
    two(z).sum().backward()
    print(seen, z.grad)
    """,
)


# makemore part 3, its first half: batch norm written into the MLP by hand (the running
# mean and std updated in the loop), 30 steps; the calibration over the whole training
# set (its first five means and stds printed), the split losses, and the bonus cell on a
# linear layer's activation statistics; changed: a small word list, the loss plot printed
case(
    "makemore/part3_manual_bn",
    """
    import torch
    import torch.nn.functional as F
    import random
    torch.set_default_dtype(torch.float32)
    words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia', 'harper', 'evelyn', 'abigail', 'emily', 'elizabeth', 'mila', 'ella', 'avery', 'sofia', 'camila', 'aria', 'scarlett', 'victoria', 'madison', 'luna', 'grace', 'chloe', 'penelope', 'layla', 'riley', 'zoey', 'nora', 'lily', 'eleanor', 'hannah', 'lillian', 'addison', 'aubrey', 'ellie', 'stella', 'natalie', 'zoe', 'leah', 'hazel', 'violet', 'aurora', 'savannah', 'audrey', 'brooklyn', 'bella', 'claire', 'skylar', 'quinn', 'jack', 'xavier', 'kai', 'wyatt']
    chars = sorted(list(set(''.join(words))))
    stoi = {s:i+1 for i,s in enumerate(chars)}
    stoi['.'] = 0
    itos = {i:s for s,i in stoi.items()}
    print(itos)
    block_size = 3
    def build_dataset(words):
      X, Y = [], []
      for w in words:
        context = [0] * block_size
        for ch in w + '.':
          ix = stoi[ch]
          X.append(context)
          Y.append(ix)
          context = context[1:] + [ix]
      X = torch.tensor(X)
      Y = torch.tensor(Y)
      print(X.shape, Y.shape)
      return X, Y
    random.seed(42)
    random.shuffle(words)
    n1 = int(0.8*len(words))
    n2 = int(0.9*len(words))
    Xtr, Ytr = build_dataset(words[:n1])
    Xdev, Ydev = build_dataset(words[n1:n2])
    Xte, Yte = build_dataset(words[n2:])


    vocab_size = len(itos)
    n_embd = 10 # the dimensionality of the character embedding vectors
    n_hidden = 200 # the number of neurons in the hidden layer of the MLP

    g = torch.Generator().manual_seed(2147483647) # for reproducibility
    C  = torch.randn((vocab_size, n_embd),            generator=g)
    W1 = torch.randn((n_embd * block_size, n_hidden), generator=g) * (5/3)/((n_embd * block_size)**0.5) #* 0.2
    #b1 = torch.randn(n_hidden,                        generator=g) * 0.01
    W2 = torch.randn((n_hidden, vocab_size),          generator=g) * 0.01
    b2 = torch.randn(vocab_size,                      generator=g) * 0

    # BatchNorm parameters
    bngain = torch.ones((1, n_hidden))
    bnbias = torch.zeros((1, n_hidden))
    bnmean_running = torch.zeros((1, n_hidden))
    bnstd_running = torch.ones((1, n_hidden))

    parameters = [C, W1, W2, b2, bngain, bnbias]
    print(sum(p.nelement() for p in parameters)) # number of parameters in total
    for p in parameters:
      p.requires_grad = True
    # same optimization as last time
    max_steps = 30
    batch_size = 32
    lossi = []

    for i in range(max_steps):

      # minibatch construct
      ix = torch.randint(0, Xtr.shape[0], (batch_size,), generator=g)
      Xb, Yb = Xtr[ix], Ytr[ix] # batch X,Y

      # forward pass
      emb = C[Xb] # embed the characters into vectors
      embcat = emb.view(emb.shape[0], -1) # concatenate the vectors
      # Linear layer
      hpreact = embcat @ W1 #+ b1 # hidden layer pre-activation
      # BatchNorm layer
      # -------------------------------------------------------------
      bnmeani = hpreact.mean(0, keepdim=True)
      bnstdi = hpreact.std(0, keepdim=True)
      hpreact = bngain * (hpreact - bnmeani) / bnstdi + bnbias
      with torch.no_grad():
        bnmean_running = 0.999 * bnmean_running + 0.001 * bnmeani
        bnstd_running = 0.999 * bnstd_running + 0.001 * bnstdi
      # -------------------------------------------------------------
      # Non-linearity
      h = torch.tanh(hpreact) # hidden layer
      logits = h @ W2 + b2 # output layer
      loss = F.cross_entropy(logits, Yb) # loss function

      # backward pass
      for p in parameters:
        p.grad = None
      loss.backward()

      # update
      lr = 0.1 if i < 100000 else 0.01 # step learning rate decay
      for p in parameters:
        p.data += -lr * p.grad

      # track stats
      if i % 10 == 0: # print every once in a while
        print(f'{i:7d}/{max_steps:7d}: {loss.item():.4f}')
      lossi.append(loss.log10().item())
    print(lossi)
    # calibrate the batch norm at the end of training

    with torch.no_grad():
      # pass the training set through
      emb = C[Xtr]
      embcat = emb.view(emb.shape[0], -1)
      hpreact = embcat @ W1 # + b1
      # measure the mean/std over the entire training set
      bnmean = hpreact.mean(0, keepdim=True)
      bnstd = hpreact.std(0, keepdim=True)
    print(bnmean[0, :5].tolist(), bnstd[0, :5].tolist())
    @torch.no_grad() # this decorator disables gradient tracking
    def split_loss(split):
      x,y = {
        'train': (Xtr, Ytr),
        'val': (Xdev, Ydev),
        'test': (Xte, Yte),
      }[split]
      emb = C[x] # (N, block_size, n_embd)
      embcat = emb.view(emb.shape[0], -1) # concat into (N, block_size * n_embd)
      hpreact = embcat @ W1 # + b1
      #hpreact = bngain * (hpreact - hpreact.mean(0, keepdim=True)) / hpreact.std(0, keepdim=True) + bnbias
      hpreact = bngain * (hpreact - bnmean_running) / bnstd_running + bnbias
      h = torch.tanh(hpreact) # (N, n_hidden)
      logits = h @ W2 + b2 # (N, vocab_size)
      loss = F.cross_entropy(logits, y)
      print(split, loss.item())

    split_loss('train')
    split_loss('val')
    # Linear: activation statistics of forward and backward pass

    g = torch.Generator().manual_seed(2147483647)

    a = torch.randn((1000,1), requires_grad=True, generator=g)          # a.grad = b.T @ c.grad
    b = torch.randn((1000,1000), requires_grad=True, generator=g)       # b.grad = c.grad @ a.T
    c = b @ a
    loss = torch.randn(1000, generator=g) @ c
    a.retain_grad()
    b.retain_grad()
    c.retain_grad()
    loss.backward()
    print('a std:', a.std().item())
    print('b std:', b.std().item())
    print('c std:', c.std().item())
    print('-----')
    print('c grad std:', c.grad.std().item())
    print('a grad std:', a.grad.std().item())
    print('b grad std:', b.grad.std().item())
    torch.set_default_dtype(torch.float64)
    """,
)


# makemore part 3 (batch norm, the "PyTorch-ified" layers as the notebook writes them),
# shortened to 30 steps
case(
    "makemore/part3_batchnorm",
    """
    import torch
    import torch.nn.functional as F
    import random
    torch.set_default_dtype(torch.float32)
    words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia', 'harper', 'evelyn', 'abigail', 'emily', 'elizabeth', 'mila', 'ella', 'avery', 'sofia', 'camila', 'aria', 'scarlett', 'victoria', 'madison', 'luna', 'grace', 'chloe', 'penelope', 'layla', 'riley', 'zoey', 'nora', 'lily', 'eleanor', 'hannah', 'lillian', 'addison', 'aubrey', 'ellie', 'stella', 'natalie', 'zoe', 'leah', 'hazel', 'violet', 'aurora', 'savannah', 'audrey', 'brooklyn', 'bella', 'claire', 'skylar', 'quinn', 'jack', 'xavier', 'kai', 'wyatt']
    chars = sorted(list(set(''.join(words))))
    stoi = {s:i+1 for i,s in enumerate(chars)}
    stoi['.'] = 0
    itos = {i:s for s,i in stoi.items()}
    print(itos)
    block_size = 3
    def build_dataset(words):
      X, Y = [], []
      for w in words:
        context = [0] * block_size
        for ch in w + '.':
          ix = stoi[ch]
          X.append(context)
          Y.append(ix)
          context = context[1:] + [ix]
      X = torch.tensor(X)
      Y = torch.tensor(Y)
      print(X.shape, Y.shape)
      return X, Y
    random.seed(42)
    random.shuffle(words)
    n1 = int(0.8*len(words))
    n2 = int(0.9*len(words))
    Xtr, Ytr = build_dataset(words[:n1])
    Xdev, Ydev = build_dataset(words[n1:n2])
    Xte, Yte = build_dataset(words[n2:])

    class Linear:
      def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.randn((fan_in, fan_out), generator=g) / fan_in**0.5
        self.bias = torch.zeros(fan_out) if bias else None
      def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
          self.out += self.bias
        return self.out
      def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])

    class BatchNorm1d:
      def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps = eps
        self.momentum = momentum
        self.training = True
        self.gamma = torch.ones(dim)
        self.beta = torch.zeros(dim)
        self.running_mean = torch.zeros(dim)
        self.running_var = torch.ones(dim)
      def __call__(self, x):
        if self.training:
          xmean = x.mean(0, keepdim=True)
          xvar = x.var(0, keepdim=True)
        else:
          xmean = self.running_mean
          xvar = self.running_var
        xhat = (x - xmean) / torch.sqrt(xvar + self.eps)
        self.out = self.gamma * xhat + self.beta
        if self.training:
          with torch.no_grad():
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * xmean
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * xvar
        return self.out
      def parameters(self):
        return [self.gamma, self.beta]

    class Tanh:
      def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out
      def parameters(self):
        return []

    vocab_size = len(itos)
    n_embd = 10
    n_hidden = 100
    g = torch.Generator().manual_seed(2147483647)
    C = torch.randn((vocab_size, n_embd), generator=g)
    layers = [
      Linear(n_embd * block_size, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
      Linear(           n_hidden, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
      Linear(           n_hidden, vocab_size, bias=False), BatchNorm1d(vocab_size),
    ]
    with torch.no_grad():
      layers[-1].gamma *= 0.1
      for layer in layers[:-1]:
        if isinstance(layer, Linear):
          layer.weight *= 5/3
    parameters = [C] + [p for layer in layers for p in layer.parameters()]
    print(sum(p.nelement() for p in parameters))
    for p in parameters:
      p.requires_grad = True
    max_steps = 30
    batch_size = 32
    lossi = []
    ud = []
    for i in range(max_steps):
      ix = torch.randint(0, Xtr.shape[0], (batch_size,), generator=g)
      Xb, Yb = Xtr[ix], Ytr[ix]
      emb = C[Xb]
      x = emb.view(emb.shape[0], -1)
      for layer in layers:
        x = layer(x)
      loss = F.cross_entropy(x, Yb)
      for layer in layers:
        layer.out.retain_grad()
      for p in parameters:
        p.grad = None
      loss.backward()
      lr = 0.1 if i < 150000 else 0.01
      for p in parameters:
        p.data += -lr * p.grad
      if i % 10 == 0:
        print(f'{i:7d}/{max_steps:7d}: {loss.item():.4f}')
      lossi.append(loss.log10().item())
      with torch.no_grad():
        ud.append([((lr*p.grad).std() / p.data.std()).log10().item() for p in parameters])
    for i, layer in enumerate(layers[:-1]):
      if isinstance(layer, Tanh):
        t = layer.out
        print('layer %d (%10s): mean %+.2f, std %.2f, saturated: %.2f%%' % (i, layer.__class__.__name__, t.mean(), t.std(), (t.abs() > 0.97).float().mean()*100))
        hy, hx = torch.histogram(t, density=True)
        print(hy.shape, hx.shape)
    for i, layer in enumerate(layers[:-1]):
      if isinstance(layer, Tanh):
        t = layer.out.grad
        print('layer %d (%10s): mean %+f, std %e' % (i, layer.__class__.__name__, t.mean(), t.std()))
        hy, hx = torch.histogram(t, density=True)
        print(hy.shape, hx.shape)
    for i,p in enumerate(parameters):
      t = p.grad
      if p.ndim == 2:
        print('weight %10s | mean %+f | std %e | grad:data ratio %e' % (tuple(p.shape), t.mean(), t.std(), t.std() / p.std()))
    @torch.no_grad()
    def split_loss(split):
      x,y = {
        'train': (Xtr, Ytr),
        'val': (Xdev, Ydev),
        'test': (Xte, Yte),
      }[split]
      emb = C[x]
      x = emb.view(emb.shape[0], -1)
      for layer in layers:
        x = layer(x)
      loss = F.cross_entropy(x, y)
      print(split, loss.item())
    for layer in layers:
      layer.training = False
    split_loss('train')
    split_loss('val')
    g = torch.Generator().manual_seed(2147483647 + 10)
    for _ in range(5):
        out = []
        context = [0] * block_size
        while True:
          emb = C[torch.tensor([context])]
          x = emb.view(emb.shape[0], -1)
          for layer in layers:
            x = layer(x)
          logits = x
          probs = F.softmax(logits, dim=1)
          ix = torch.multinomial(probs, num_samples=1, generator=g).item()
          context = context[1:] + [ix]
          out.append(ix)
          if ix == 0:
            break
        print(''.join(itos[i] for i in out))
    torch.set_default_dtype(torch.float64)
    """,
)


# makemore part 4 (manual backprop), exercises 1 to 3 as published with their solutions:
# every cmp() line (exact / approximate / maxdiff against autograd) as torch prints it;
# changed: a small word list, and torch.manual_seed(42) first (the notebook draws
# bngain and bnbias from the unseeded global generator)
case(
    "makemore/part4_backprop",
    """
    import torch
    torch.set_default_dtype(torch.float32)
    # there no change change in the first several cells from last lecture

    import torch
    import torch.nn.functional as F

    # read in all the words
    words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia', 'harper', 'evelyn', 'abigail', 'emily', 'elizabeth', 'mila', 'ella', 'avery', 'sofia', 'camila', 'aria', 'scarlett', 'victoria', 'madison', 'luna', 'grace', 'chloe', 'penelope', 'layla', 'riley', 'zoey', 'nora', 'lily', 'eleanor', 'hannah', 'lillian', 'addison', 'aubrey', 'ellie', 'stella', 'natalie', 'zoe', 'leah', 'hazel', 'violet', 'aurora', 'savannah', 'audrey', 'brooklyn', 'bella', 'claire', 'skylar', 'quinn', 'jack', 'xavier', 'kai', 'wyatt']
    torch.manual_seed(42)
    print(len(words))
    print(max(len(w) for w in words))
    print(words[:8])

    # build the vocabulary of characters and mappings to/from integers
    chars = sorted(list(set(''.join(words))))
    stoi = {s:i+1 for i,s in enumerate(chars)}
    stoi['.'] = 0
    itos = {i:s for s,i in stoi.items()}
    vocab_size = len(itos)
    print(itos)
    print(vocab_size)

    # build the dataset
    block_size = 3 # context length: how many characters do we take to predict the next one?

    def build_dataset(words):  
      X, Y = [], []
      
      for w in words:
        context = [0] * block_size
        for ch in w + '.':
          ix = stoi[ch]
          X.append(context)
          Y.append(ix)
          context = context[1:] + [ix] # crop and append

      X = torch.tensor(X)
      Y = torch.tensor(Y)
      print(X.shape, Y.shape)
      return X, Y

    import random
    random.seed(42)
    random.shuffle(words)
    n1 = int(0.8*len(words))
    n2 = int(0.9*len(words))

    Xtr,  Ytr  = build_dataset(words[:n1])     # 80%
    Xdev, Ydev = build_dataset(words[n1:n2])   # 10%
    Xte,  Yte  = build_dataset(words[n2:])     # 10%

    # ok biolerplate done, now we get to the action:

    # utility function we will use later when comparing manual gradients to PyTorch gradients
    def cmp(s, dt, t):
      ex = torch.all(dt == t.grad).item()
      app = torch.allclose(dt, t.grad)
      maxdiff = (dt - t.grad).abs().max().item()
      print(f'{s:15s} | exact: {str(ex):5s} | approximate: {str(app):5s} | maxdiff: {maxdiff}')

    n_embd = 10 # the dimensionality of the character embedding vectors
    n_hidden = 64 # the number of neurons in the hidden layer of the MLP

    g = torch.Generator().manual_seed(2147483647) # for reproducibility
    C  = torch.randn((vocab_size, n_embd),            generator=g)
    # Layer 1
    W1 = torch.randn((n_embd * block_size, n_hidden), generator=g) * (5/3)/((n_embd * block_size)**0.5)
    b1 = torch.randn(n_hidden,                        generator=g) * 0.1 # using b1 just for fun, it's useless because of BN
    # Layer 2
    W2 = torch.randn((n_hidden, vocab_size),          generator=g) * 0.1
    b2 = torch.randn(vocab_size,                      generator=g) * 0.1
    # BatchNorm parameters
    bngain = torch.randn((1, n_hidden))*0.1 + 1.0
    bnbias = torch.randn((1, n_hidden))*0.1

    # Note: I am initializating many of these parameters in non-standard ways
    # because sometimes initializating with e.g. all zeros could mask an incorrect
    # implementation of the backward pass.

    parameters = [C, W1, b1, W2, b2, bngain, bnbias]
    print(sum(p.nelement() for p in parameters)) # number of parameters in total
    for p in parameters:
      p.requires_grad = True

    batch_size = 32
    n = batch_size # a shorter variable also, for convenience
    # construct a minibatch
    ix = torch.randint(0, Xtr.shape[0], (batch_size,), generator=g)
    Xb, Yb = Xtr[ix], Ytr[ix] # batch X,Y

    # forward pass, "chunkated" into smaller steps that are possible to backward one at a time

    emb = C[Xb] # embed the characters into vectors
    embcat = emb.view(emb.shape[0], -1) # concatenate the vectors
    # Linear layer 1
    hprebn = embcat @ W1 + b1 # hidden layer pre-activation
    # BatchNorm layer
    bnmeani = 1/n*hprebn.sum(0, keepdim=True)
    bndiff = hprebn - bnmeani
    bndiff2 = bndiff**2
    bnvar = 1/(n-1)*(bndiff2).sum(0, keepdim=True) # note: Bessel's correction (dividing by n-1, not n)
    bnvar_inv = (bnvar + 1e-5)**-0.5
    bnraw = bndiff * bnvar_inv
    hpreact = bngain * bnraw + bnbias
    # Non-linearity
    h = torch.tanh(hpreact) # hidden layer
    # Linear layer 2
    logits = h @ W2 + b2 # output layer
    # cross entropy loss (same as F.cross_entropy(logits, Yb))
    logit_maxes = logits.max(1, keepdim=True).values
    norm_logits = logits - logit_maxes # subtract max for numerical stability
    counts = norm_logits.exp()
    counts_sum = counts.sum(1, keepdims=True)
    counts_sum_inv = counts_sum**-1 # if I use (1.0 / counts_sum) instead then I can't get backprop to be bit exact...
    probs = counts * counts_sum_inv
    logprobs = probs.log()
    loss = -logprobs[range(n), Yb].mean()

    # PyTorch backward pass
    for p in parameters:
      p.grad = None
    for t in [logprobs, probs, counts, counts_sum, counts_sum_inv, # afaik there is no cleaner way
              norm_logits, logit_maxes, logits, h, hpreact, bnraw,
             bnvar_inv, bnvar, bndiff2, bndiff, hprebn, bnmeani,
             embcat, emb]:
      t.retain_grad()
    loss.backward()
    loss

    # Exercise 1: backprop through the whole thing manually, 
    # backpropagating through exactly all of the variables 
    # as they are defined in the forward pass above, one by one

    dlogprobs = torch.zeros_like(logprobs)
    dlogprobs[range(n), Yb] = -1.0/n
    dprobs = (1.0 / probs) * dlogprobs
    dcounts_sum_inv = (counts * dprobs).sum(1, keepdim=True)
    dcounts = counts_sum_inv * dprobs
    dcounts_sum = (-counts_sum**-2) * dcounts_sum_inv
    dcounts += torch.ones_like(counts) * dcounts_sum
    dnorm_logits = counts * dcounts
    dlogits = dnorm_logits.clone()
    dlogit_maxes = (-dnorm_logits).sum(1, keepdim=True)
    dlogits += F.one_hot(logits.max(1).indices, num_classes=logits.shape[1]) * dlogit_maxes
    dh = dlogits @ W2.T
    dW2 = h.T @ dlogits
    db2 = dlogits.sum(0)
    dhpreact = (1.0 - h**2) * dh
    dbngain = (bnraw * dhpreact).sum(0, keepdim=True)
    dbnraw = bngain * dhpreact
    dbnbias = dhpreact.sum(0, keepdim=True)
    dbndiff = bnvar_inv * dbnraw
    dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
    dbnvar = (-0.5*(bnvar + 1e-5)**-1.5) * dbnvar_inv
    dbndiff2 = (1.0/(n-1))*torch.ones_like(bndiff2) * dbnvar
    dbndiff += (2*bndiff) * dbndiff2
    dhprebn = dbndiff.clone()
    dbnmeani = (-dbndiff).sum(0)
    dhprebn += 1.0/n * (torch.ones_like(hprebn) * dbnmeani)
    dembcat = dhprebn @ W1.T
    dW1 = embcat.T @ dhprebn
    db1 = dhprebn.sum(0)
    demb = dembcat.view(emb.shape)
    dC = torch.zeros_like(C)
    for k in range(Xb.shape[0]):
      for j in range(Xb.shape[1]):
        ix = Xb[k,j]
        dC[ix] += demb[k,j]
        
    cmp('logprobs', dlogprobs, logprobs)
    cmp('probs', dprobs, probs)
    cmp('counts_sum_inv', dcounts_sum_inv, counts_sum_inv)
    cmp('counts_sum', dcounts_sum, counts_sum)
    cmp('counts', dcounts, counts)
    cmp('norm_logits', dnorm_logits, norm_logits)
    cmp('logit_maxes', dlogit_maxes, logit_maxes)
    cmp('logits', dlogits, logits)
    cmp('h', dh, h)
    cmp('W2', dW2, W2)
    cmp('b2', db2, b2)
    cmp('hpreact', dhpreact, hpreact)
    cmp('bngain', dbngain, bngain)
    cmp('bnbias', dbnbias, bnbias)
    cmp('bnraw', dbnraw, bnraw)
    cmp('bnvar_inv', dbnvar_inv, bnvar_inv)
    cmp('bnvar', dbnvar, bnvar)
    cmp('bndiff2', dbndiff2, bndiff2)
    cmp('bndiff', dbndiff, bndiff)
    cmp('bnmeani', dbnmeani, bnmeani)
    cmp('hprebn', dhprebn, hprebn)
    cmp('embcat', dembcat, embcat)
    cmp('W1', dW1, W1)
    cmp('b1', db1, b1)
    cmp('emb', demb, emb)
    cmp('C', dC, C)

    # Exercise 2: backprop through cross_entropy but all in one go
    # to complete this challenge look at the mathematical expression of the loss,
    # take the derivative, simplify the expression, and just write it out

    # forward pass

    # before:
    # logit_maxes = logits.max(1, keepdim=True).values
    # norm_logits = logits - logit_maxes # subtract max for numerical stability
    # counts = norm_logits.exp()
    # counts_sum = counts.sum(1, keepdims=True)
    # counts_sum_inv = counts_sum**-1 # if I use (1.0 / counts_sum) instead then I can't get backprop to be bit exact...
    # probs = counts * counts_sum_inv
    # logprobs = probs.log()
    # loss = -logprobs[range(n), Yb].mean()

    # now:
    loss_fast = F.cross_entropy(logits, Yb)
    print(loss_fast.item(), 'diff:', (loss_fast - loss).item())

    # backward pass

    dlogits = F.softmax(logits, 1)
    dlogits[range(n), Yb] -= 1
    dlogits /= n

    cmp('logits', dlogits, logits) # I can only get approximate to be true, my maxdiff is 6e-9

    logits.shape, Yb.shape

    F.softmax(logits, 1)[0]

    dlogits[0] * n

    dlogits[0].sum()


    # Exercise 3: backprop through batchnorm but all in one go
    # to complete this challenge look at the mathematical expression of the output of batchnorm,
    # take the derivative w.r.t. its input, simplify the expression, and just write it out

    # forward pass

    # before:
    # bnmeani = 1/n*hprebn.sum(0, keepdim=True)
    # bndiff = hprebn - bnmeani
    # bndiff2 = bndiff**2
    # bnvar = 1/(n-1)*(bndiff2).sum(0, keepdim=True) # note: Bessel's correction (dividing by n-1, not n)
    # bnvar_inv = (bnvar + 1e-5)**-0.5
    # bnraw = bndiff * bnvar_inv
    # hpreact = bngain * bnraw + bnbias

    # now:
    hpreact_fast = bngain * (hprebn - hprebn.mean(0, keepdim=True)) / torch.sqrt(hprebn.var(0, keepdim=True, unbiased=True) + 1e-5) + bnbias
    print('max diff:', (hpreact_fast - hpreact).abs().max())

    # backward pass

    # before we had:
    # dbnraw = bngain * dhpreact
    # dbndiff = bnvar_inv * dbnraw
    # dbnvar_inv = (bndiff * dbnraw).sum(0, keepdim=True)
    # dbnvar = (-0.5*(bnvar + 1e-5)**-1.5) * dbnvar_inv
    # dbndiff2 = (1.0/(n-1))*torch.ones_like(bndiff2) * dbnvar
    # dbndiff += (2*bndiff) * dbndiff2
    # dhprebn = dbndiff.clone()
    # dbnmeani = (-dbndiff).sum(0)
    # dhprebn += 1.0/n * (torch.ones_like(hprebn) * dbnmeani)

    # calculate dhprebn given dhpreact (i.e. backprop through the batchnorm)
    # (you'll also need to use some of the variables from the forward pass up above)

    dhprebn = bngain*bnvar_inv/n * (n*dhpreact - dhpreact.sum(0) - n/(n-1)*bnraw*(dhpreact*bnraw).sum(0))

    cmp('hprebn', dhprebn, hprebn) # I can only get approximate to be true, my maxdiff is 9e-10

    dhprebn.shape, bngain.shape, bnvar_inv.shape, dbnraw.shape, dbnraw.sum(0).shape

    # Exercise 4: putting it all together!
    # Train the MLP neural net with your own backward pass

    # init
    torch.set_default_dtype(torch.float64)
    """,
)


# makemore part 5 (WaveNet-style hierarchy: the notebook's Embedding, FlattenConsecutive,
# BatchNorm1d over two dims, Sequential), 30 steps; changed: a small word list, the loss
# plot printed (its 1000-step averages as 10-step ones)
case(
    "makemore/part5_wavenet",
    """
    import torch
    torch.set_default_dtype(torch.float32)
    import torch
    import torch.nn.functional as F
    # ---
    # read in all the words
    words = ['emma', 'olivia', 'ava', 'isabella', 'sophia', 'charlotte', 'mia', 'amelia', 'harper', 'evelyn', 'abigail', 'emily', 'elizabeth', 'mila', 'ella', 'avery', 'sofia', 'camila', 'aria', 'scarlett', 'victoria', 'madison', 'luna', 'grace', 'chloe', 'penelope', 'layla', 'riley', 'zoey', 'nora', 'lily', 'eleanor', 'hannah', 'lillian', 'addison', 'aubrey', 'ellie', 'stella', 'natalie', 'zoe', 'leah', 'hazel', 'violet', 'aurora', 'savannah', 'audrey', 'brooklyn', 'bella', 'claire', 'skylar', 'quinn', 'jack', 'xavier', 'kai', 'wyatt']
    print(len(words))
    print(max(len(w) for w in words))
    print(words[:8])
    # ---
    # build the vocabulary of characters and mappings to/from integers
    chars = sorted(list(set(''.join(words))))
    stoi = {s:i+1 for i,s in enumerate(chars)}
    stoi['.'] = 0
    itos = {i:s for s,i in stoi.items()}
    vocab_size = len(itos)
    print(itos)
    print(vocab_size)
    # ---
    # shuffle up the words
    import random
    random.seed(42)
    random.shuffle(words)
    # ---
    # build the dataset
    block_size = 8 # context length: how many characters do we take to predict the next one?

    def build_dataset(words):  
      X, Y = [], []
      
      for w in words:
        context = [0] * block_size
        for ch in w + '.':
          ix = stoi[ch]
          X.append(context)
          Y.append(ix)
          context = context[1:] + [ix] # crop and append

      X = torch.tensor(X)
      Y = torch.tensor(Y)
      print(X.shape, Y.shape)
      return X, Y

    n1 = int(0.8*len(words))
    n2 = int(0.9*len(words))
    Xtr,  Ytr  = build_dataset(words[:n1])     # 80%
    Xdev, Ydev = build_dataset(words[n1:n2])   # 10%
    Xte,  Yte  = build_dataset(words[n2:])     # 10%
    # ---
    for x,y in zip(Xtr[:20], Ytr[:20]):
      print(''.join(itos[ix.item()] for ix in x), '-->', itos[y.item()])
    # ---
    # Near copy paste of the layers we have developed in Part 3

    # -----------------------------------------------------------------------------------------------
    class Linear:
      
      def __init__(self, fan_in, fan_out, bias=True):
        self.weight = torch.randn((fan_in, fan_out)) / fan_in**0.5 # note: kaiming init
        self.bias = torch.zeros(fan_out) if bias else None
      
      def __call__(self, x):
        self.out = x @ self.weight
        if self.bias is not None:
          self.out += self.bias
        return self.out
      
      def parameters(self):
        return [self.weight] + ([] if self.bias is None else [self.bias])

    # -----------------------------------------------------------------------------------------------
    class BatchNorm1d:
      
      def __init__(self, dim, eps=1e-5, momentum=0.1):
        self.eps = eps
        self.momentum = momentum
        self.training = True
        # parameters (trained with backprop)
        self.gamma = torch.ones(dim)
        self.beta = torch.zeros(dim)
        # buffers (trained with a running 'momentum update')
        self.running_mean = torch.zeros(dim)
        self.running_var = torch.ones(dim)
      
      def __call__(self, x):
        # calculate the forward pass
        if self.training:
          if x.ndim == 2:
            dim = 0
          elif x.ndim == 3:
            dim = (0,1)
          xmean = x.mean(dim, keepdim=True) # batch mean
          xvar = x.var(dim, keepdim=True) # batch variance
        else:
          xmean = self.running_mean
          xvar = self.running_var
        xhat = (x - xmean) / torch.sqrt(xvar + self.eps) # normalize to unit variance
        self.out = self.gamma * xhat + self.beta
        # update the buffers
        if self.training:
          with torch.no_grad():
            self.running_mean = (1 - self.momentum) * self.running_mean + self.momentum * xmean
            self.running_var = (1 - self.momentum) * self.running_var + self.momentum * xvar
        return self.out
      
      def parameters(self):
        return [self.gamma, self.beta]

    # -----------------------------------------------------------------------------------------------
    class Tanh:
      def __call__(self, x):
        self.out = torch.tanh(x)
        return self.out
      def parameters(self):
        return []

    # -----------------------------------------------------------------------------------------------
    class Embedding:
      
      def __init__(self, num_embeddings, embedding_dim):
        self.weight = torch.randn((num_embeddings, embedding_dim))
        
      def __call__(self, IX):
        self.out = self.weight[IX]
        return self.out
      
      def parameters(self):
        return [self.weight]

    # -----------------------------------------------------------------------------------------------
    class FlattenConsecutive:
      
      def __init__(self, n):
        self.n = n
        
      def __call__(self, x):
        B, T, C = x.shape
        x = x.view(B, T//self.n, C*self.n)
        if x.shape[1] == 1:
          x = x.squeeze(1)
        self.out = x
        return self.out
      
      def parameters(self):
        return []

    # -----------------------------------------------------------------------------------------------
    class Sequential:
      
      def __init__(self, layers):
        self.layers = layers
      
      def __call__(self, x):
        for layer in self.layers:
          x = layer(x)
        self.out = x
        return self.out
      
      def parameters(self):
        # get parameters of all layers and stretch them out into one list
        return [p for layer in self.layers for p in layer.parameters()]

    # ---
    torch.manual_seed(42); # seed rng for reproducibility
    # ---
    # original network
    # n_embd = 10 # the dimensionality of the character embedding vectors
    # n_hidden = 300 # the number of neurons in the hidden layer of the MLP
    # model = Sequential([
    #   Embedding(vocab_size, n_embd),
    #   FlattenConsecutive(8), Linear(n_embd * 8, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
    #   Linear(n_hidden, vocab_size),
    # ])

    # hierarchical network
    n_embd = 24 # the dimensionality of the character embedding vectors
    n_hidden = 128 # the number of neurons in the hidden layer of the MLP
    model = Sequential([
      Embedding(vocab_size, n_embd),
      FlattenConsecutive(2), Linear(n_embd * 2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
      FlattenConsecutive(2), Linear(n_hidden*2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
      FlattenConsecutive(2), Linear(n_hidden*2, n_hidden, bias=False), BatchNorm1d(n_hidden), Tanh(),
      Linear(n_hidden, vocab_size),
    ])

    # parameter init
    with torch.no_grad():
      model.layers[-1].weight *= 0.1 # last layer make less confident

    parameters = model.parameters()
    print(sum(p.nelement() for p in parameters)) # number of parameters in total
    for p in parameters:
      p.requires_grad = True
    # ---
    # same optimization as last time
    max_steps = 30
    batch_size = 32
    lossi = []

    for i in range(max_steps):
      
      # minibatch construct
      ix = torch.randint(0, Xtr.shape[0], (batch_size,))
      Xb, Yb = Xtr[ix], Ytr[ix] # batch X,Y
      
      # forward pass
      logits = model(Xb)
      loss = F.cross_entropy(logits, Yb) # loss function
      
      # backward pass
      for p in parameters:
        p.grad = None
      loss.backward()
      
      # update: simple SGD
      lr = 0.1 if i < 150000 else 0.01 # step learning rate decay
      for p in parameters:
        p.data += -lr * p.grad

      # track stats
      if i % 10 == 0: # print every once in a while
        print(f'{i:7d}/{max_steps:7d}: {loss.item():.4f}')
      lossi.append(loss.log10().item())

    # ---
    print(torch.tensor(lossi).view(-1, 10).mean(1))
    # ---
    # put layers into eval mode (needed for batchnorm especially)
    for layer in model.layers:
      layer.training = False
    # ---
    # evaluate the loss
    @torch.no_grad() # this decorator disables gradient tracking inside pytorch
    def split_loss(split):
      x,y = {
        'train': (Xtr, Ytr),
        'val': (Xdev, Ydev),
        'test': (Xte, Yte),
      }[split]
      logits = model(x)
      loss = F.cross_entropy(logits, y)
      print(split, loss.item())

    split_loss('train')
    split_loss('val')
    # ---
    # sample from the model
    for _ in range(20):
        
        out = []
        context = [0] * block_size # initialize with all ...
        while True:
          # forward pass the neural net
          logits = model(torch.tensor([context]))
          probs = F.softmax(logits, dim=1)
          # sample from the distribution
          ix = torch.multinomial(probs, num_samples=1).item()
          # shift the context window and track the samples
          context = context[1:] + [ix]
          out.append(ix)
          # if we sample the special '.' token, break
          if ix == 0:
            break
        
        print(''.join(itos[i] for i in out)) # decode and print the generated word
    # ---
    for x,y in zip(Xtr[7:15], Ytr[7:15]):
      print(''.join(itos[ix.item()] for ix in x), '-->', itos[y.item()])
    # ---
    # forward a single example:
    logits = model(Xtr[[7]])
    logits.shape
    # ---
    # forward all of them
    logits = torch.zeros(8, 27)
    for i in range(8):
      logits[i] = model(Xtr[[7+i]])
    logits.shape
    # ---
    # convolution is a "for loop"
    # allows us to forward Linear layers efficiently over space
    # ---

    torch.set_default_dtype(torch.float64)
    """,
)

case(
    "setitem/leading_ones",
    """
    import torch
    x = torch.zeros(3, 4)
    x[1] = torch.ones(1, 4) * 2
    x[2] = torch.arange(4.).view(1, 1, 4)
    x[0, 1:3] = torch.tensor([[5., 6.]])
    x[[0, 2]] = torch.ones(1, 4) * 7
    print(x)
    w = torch.ones(1, 4, requires_grad=True)
    y = torch.zeros(2, 4)
    y[0] = w * 3
    print(y)
    y.sum().backward()
    print(w.grad)
    z = torch.zeros(2, 3)
    z[0] = torch.ones(2, 3)
    """,
)


case(
    "graph/multi_grad_hook",
    """
    import torch
    a = torch.tensor([1., 2.], requires_grad=True)
    b = torch.tensor([3., 4.], requires_grad=True)
    c = a * b
    d = c.exp()
    def fn(grads):
        print("all", [None if g is None else g.tolist() for g in grads])
    h = torch.autograd.graph.register_multi_grad_hook((a, c), fn)
    d.sum().backward(retain_graph=True)
    (b * 2).sum().backward()
    (c * 3).sum().backward(retain_graph=True)
    print(h)
    h.remove()
    d.sum().backward()
    def first(g):
        print("any", g.tolist())
    torch.autograd.graph.register_multi_grad_hook([a, b], first, mode="any")
    (a * b).sum().backward()
    (a + 1).sum().backward()
    x = torch.ones(3, requires_grad=True)
    y = x * 2
    z = y.sin()
    torch.autograd.graph.register_multi_grad_hook([y, z], fn)
    z.sum().backward()
    """,
)


case(
    "nn/conv_transpose2d",
    """
    import torch
    import torch.nn.functional as F
    torch.manual_seed(0)
    x = torch.randn(2, 4, 3, 3, requires_grad=True)
    w = torch.randn(4, 3, 2, 2, requires_grad=True)
    b = torch.randn(3, requires_grad=True)
    y = F.conv_transpose2d(x, w, b)
    print(y.shape, y.grad_fn, y[0, 0])
    y2 = F.conv_transpose2d(x, torch.randn(4, 1, 3, 3), stride=2, padding=1, output_padding=1, groups=2, dilation=1)
    print(y2.shape, y2[1, 1])
    y3 = F.conv_transpose2d(x[0], w, dilation=2, stride=3)
    print(y3.shape, y3[2, :3])
    (y * y).sum().backward()
    print(x.grad[1, 2], w.grad[3], b.grad)
    import torch
    from torch import nn
    torch.manual_seed(0)
    m = nn.ConvTranspose2d(4, 6, 3, stride=2, padding=1, output_padding=1, groups=2)
    print(m, m.weight.shape, m.bias.tolist())
    print(nn.ConvTranspose2d(3, 2, (2, 3), bias=False, dilation=2))
    x = torch.randn(2, 4, 3, 3)
    y = m(x)
    print(y.shape, y.grad_fn, y[0, 5, :2])
    y.sum().backward()
    print(m.weight.grad[1, 2], m.bias.grad)
    """,
)

errors(
    "nn/conv_transpose2d_errors",
    "import torch\nimport torch.nn.functional as F",
    [
        "F.conv_transpose2d(torch.ones(1, 2, 3, 3), torch.ones(3, 1, 2, 2))",
        "F.conv_transpose2d(torch.ones(1, 2, 3, 3), torch.ones(2, 1, 2, 2), output_padding=1)",
    ],
)


# ------------------------------------------- more API met by published code
from wild_more_cases import CASES as _MORE  # noqa: E402

for _name, _src in _MORE:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))

# ------------------------------------------- API met by PyTorch's documentation notes
from wild_notes_cases import CASES as _NOTES  # noqa: E402

for _name, _src in _NOTES:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))

# ------------------------------------------- torch.einsum
from wild_einsum_cases import CASES as _EINSUM  # noqa: E402

for _name, _src in _EINSUM:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))

# ------------------------------------------- the library's classes as classes
from wild_classes_cases import CASES as _CLASSES  # noqa: E402

for _name, _src in _CLASSES:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))

# ------------------------------------------- scaled dot-product attention
from wild_attention_cases import CASES as _ATTENTION  # noqa: E402

for _name, _src in _ATTENTION:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))

# ------------------------------------------- API gaps: activations in place
from wild_gaps_cases import CASES as _GAPS  # noqa: E402

for _name, _src in _GAPS:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))

# ------------------------------------------- API gaps: PyTorch's docstring examples
from wild_docs_cases import CASES as _DOCS  # noqa: E402

for _name, _src in _DOCS:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))

# ------------------------------------------- API gaps: layers and torch.* functions
from wild_api_cases import CASES as _API  # noqa: E402

for _name, _src in _API:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))

# ------------------------------------------- a new user's short programs
from wild_user_cases import CASES as _USER  # noqa: E402

for _name, _src in _USER:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))

# ------------------------------------------- code people bring: aliases, errors, numpy
from wild_fidelity_cases import CASES as _FIDELITY  # noqa: E402

for _name, _src in _FIDELITY:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))

# ------------------------------------------- code a new user writes
from wild_newcomer_cases import CASES as _NEWCOMER  # noqa: E402

for _name, _src in _NEWCOMER:
    if any(n == _name for n, _ in CASES):
        raise ValueError("duplicate case name: " + _name)
    CASES.append((_name, _src))
