"""Help for the names of the `torch` namespace that are not op-table entries: modules
(`torch.func`), classes (`nn.Linear`) and library functions (`torch.func.vmap`).

`walk()` lists every such name under `torch` with its value, `find(name)` resolves what a
person types (`nn.Linear`, `torch.func.grad`, `vmap`), and `text(qualname, value)` is the
help shown for it: a signature read from the value itself and a one-line doc (the value's
own docstring, or DOCS below). `help(...)`, the REPL's `NAME?` and `:help NAME`, and the
documentation site's reference all read these, and a test checks that every name has a doc.
"""

from __future__ import annotations

import inspect

from ..ops.registry import BUILTINS, METHOD_ONLY
from . import torch_ns
from .values import Module

# one line each, for the names whose value has no docstring of its own
DOCS = {
    "torch.nn": "neural-network layers, containers, losses, nn.init and nn.functional",
    "torch.nn.functional": "functional forms of the layers (also reached as F.NAME)",
    "torch.nn.init": "in-place initialisation of parameters, drawing torch's numbers",
    "torch.nn.utils": "gradient clipping (clip_grad_norm_, clip_grad_value_), "
    "parameters_to_vector, skip_init, and rnn (padding and packing sequences)",
    "torch.nn.utils.rnn": "sequences of different lengths: pad_sequence, PackedSequence, "
    "pack_padded_sequence, pack_sequence, pad_packed_sequence",
    "torch.nn.utils.rnn.pad_sequence": "sequences of different lengths padded into one tensor",
    "torch.nn.utils.rnn.pack_padded_sequence": "a padded batch packed step by step for a "
    "recurrent layer, given each sequence's length",
    "torch.nn.utils.rnn.pad_packed_sequence": "a PackedSequence padded back: (padded, lengths)",
    "torch.nn.utils.rnn.pack_sequence": "sequences of different lengths packed for a "
    "recurrent layer",
    "torch.nn.utils.rnn.invert_permutation": "the permutation that undoes the one given",
    "torch.autograd": "backward, grad, Function, functional, forward_ad, graph hooks",
    "torch.autograd.functional": "jacobian, hessian, vjp, jvp, hvp, vhp of a function",
    "torch.autograd.profiler": "profile: runs the block unprofiled, with a warning",
    "torch.autograd.graph": "saved-tensor hooks: saved_tensors_hooks, save_on_cpu",
    "torch.autograd.forward_ad": "forward-mode AD: dual_level, make_dual, unpack_dual",
    "torch.autograd.function": "Function, FunctionCtx and once_differentiable",
    "torch.cuda": "CUDA queries; gradcli runs on the CPU, so is_available() is False",
    "torch.special": "special functions under their torch.special names: expit, xlogy, erf, "
    "erfinv, exp2, expm1, log1p, logsumexp, softmax, log_softmax, round, logit, sinc, "
    "digamma, psi, gammaln",
    "torch.linalg": "linear algebra: inv, det, slogdet, solve, cross, cholesky, eigvalsh, "
    "norm, vector_norm and matrix_norm",
    "torch.linalg.LinAlgError": "the error of a singular or not positive-definite matrix "
    "(inv, solve, cholesky); a RuntimeError",
    "torch.accelerator": "accelerator queries; none is available",
    "torch.utils": "utils.data: Dataset, TensorDataset, DataLoader",
    "torch.utils.data": "datasets and batching: Dataset, TensorDataset, Subset, random_split, "
    "the samplers, DataLoader",
    "torch.utils.data.dataset": "Dataset, IterableDataset, TensorDataset, Subset, random_split",
    "torch.utils.data.sampler": "Sampler, SequentialSampler, RandomSampler, SubsetRandomSampler, "
    "BatchSampler",
    "torch.utils.data.dataloader": "DataLoader, default_collate, get_worker_info",
    "torch.optim": "optimizers (SGD, Adam, AdamW, RMSprop, Adagrad, Adadelta, Adamax, NAdam, RAdam, Rprop, ASGD, LBFGS, Adafactor) and lr_scheduler",
    "torch.optim.lr_scheduler": "learning-rate schedules (StepLR, CosineAnnealingLR, OneCycleLR, ReduceLROnPlateau ...)",
    "torch.distributions": "probability distributions (Normal, Uniform, Categorical, Bernoulli, "
    "Independent, Exponential, Laplace, OneHotCategorical) and kl_divergence",
    "torch.distributions.distribution": "Distribution, the base of the distributions",
    "torch.distributions.normal": "Normal",
    "torch.distributions.uniform": "Uniform",
    "torch.distributions.categorical": "Categorical",
    "torch.distributions.bernoulli": "Bernoulli",
    "torch.distributions.independent": "Independent",
    "torch.distributions.exponential": "Exponential",
    "torch.distributions.laplace": "Laplace",
    "torch.distributions.one_hot_categorical": "OneHotCategorical",
    "torch.distributions.kl": "kl_divergence",
    "torch.backends": "backend queries and flags: mps and cuda are not built, cudnn not available",
    "torch.backends.cuda.matmul": "flags of CUDA matmuls (allow_tf32: float32 matmul precision)",
    "torch.backends.cudnn": "cuDNN's flags (deterministic, benchmark, enabled, allow_tf32), "
    "read and set; gradcli computes the same with any",
    "torch.backends.cudnn.is_available": "False (a CPU build)",
    "torch.backends.cudnn.version": "None (a CPU build)",
    "torch.backends.mkldnn": "oneDNN's flags (enabled, deterministic), read and set",
    "torch.backends.mkldnn.is_available": "True",
    "torch.optim.swa_utils": "weight averaging: AveragedModel (SWA, EMA), SWALR",
    "torch.optim.swa_utils.get_ema_multi_avg_fn": "the EMA update of AveragedModel "
    "(lerp_ by 1 - decay)",
    "torch.optim.swa_utils.get_swa_multi_avg_fn": "the SWA update of AveragedModel "
    "(lerp_ by 1 / (n + 1))",
    "torch.optim.swa_utils.get_ema_avg_fn": "EMA of one tensor: decay * ema + (1 - decay) * p",
    "torch.optim.swa_utils.get_swa_avg_fn": "SWA of one tensor: avg + (p - avg) / (n + 1)",
    "torch.nn.functional.embedding_bag": "each bag of indices (offsets, or a 2-D input's "
    "rows) reduced to one row of the table: sum, mean or max",
    "torch.nn.EmbeddingBag": "a table of embeddings reduced per bag (sum, mean, max): "
    "text classifiers' layer",
    "torch.nn.functional.unfold": "every kernel-sized block of an image as a column (im2col)",
    "torch.nn.functional.fold": "columns of blocks added back into an image (col2im)",
    "torch.nn.Unfold": "the module of F.unfold (im2col: blocks as columns)",
    "torch.nn.Fold": "the module of F.fold (col2im: columns added into an image)",
    "torch.cpu": "the CPU's modules: amp",
    "torch.cpu.amp": "the deprecated spelling of torch.amp for the CPU",
    "torch.cpu.amp.autocast": "deprecated: torch.amp.autocast('cpu', ...)",
    "torch.amp": "autocast (off: the block as it is) and GradScaler (loss scaling)",
    "torch.is_autocast_enabled": "False (gradcli's autocast runs only when off)",
    "torch.cuda.amp": "the deprecated spelling of torch.amp for CUDA (no CUDA: off)",
    "torch.cuda.amp.autocast": "deprecated: torch.amp.autocast('cuda', ...)",
    "torch.cuda.amp.GradScaler": "deprecated: torch.amp.GradScaler('cuda', ...), off without CUDA",
    "torch.get_num_threads": "what set_num_threads set (else the machine's CPU count)",
    "torch.utils.checkpoint": "checkpoint and checkpoint_sequential: the same values and "
    "gradients, the function run once",
    "torch.utils.checkpoint.checkpoint": "function(*args) checkpointed (use_reentrant: "
    "PyTorch's two variants' nodes and warnings)",
    "torch.use_deterministic_algorithms": "the determinism switch (gradcli's one CPU path "
    "computes the same either way)",
    "torch.are_deterministic_algorithms_enabled": "what use_deterministic_algorithms set",
    "torch.is_deterministic_algorithms_warn_only_enabled": "use_deterministic_algorithms' "
    "warn_only",
    "torch.set_float32_matmul_precision": "'highest', 'high' or 'medium' (gradcli's float32 "
    "products are the same with each)",
    "torch.get_float32_matmul_precision": "what set_float32_matmul_precision set ('highest')",
    "torch.backends.mps": "Apple MPS queries; not available",
    "torch.backends.cuda": "CUDA backend queries; not built",
    "torch.func": "function transforms: grad, vjp, jvp, jacrev, jacfwd, hessian, vmap",
    "torch.Size": "a shape: a tuple of ints, printed as torch.Size([2, 3])",
    "torch.no_grad": "a context (with no_grad:) or decorator that turns recording off",
    "torch.enable_grad": "a context (with enable_grad:) or decorator that turns recording on",
    "torch.nn.functional.softmax": "softmax over dim (torch's implicit dim when it is left out)",
    "torch.nn.functional.log_softmax": "log(softmax(input)) over dim, computed stably",
    "torch.nn.init.uniform_": "fill the tensor with uniform numbers in [a, b)",
    "torch.nn.init.normal_": "fill the tensor with normal numbers of mean and std",
    "torch.nn.init.constant_": "fill the tensor with val",
    "torch.nn.init.zeros_": "fill the tensor with zeros",
    "torch.nn.init.orthogonal_": "fill the tensor with a (semi-)orthogonal matrix",
    "torch.nn.init.ones_": "fill the tensor with ones",
    "torch.nn.init.calculate_gain": "the recommended gain for a nonlinearity",
    "torch.nn.init.kaiming_uniform_": "He initialisation, uniform",
    "torch.nn.init.kaiming_normal_": "He initialisation, normal",
    "torch.nn.init.xavier_uniform_": "Glorot initialisation, uniform",
    "torch.nn.init.xavier_normal_": "Glorot initialisation, normal",
    "torch.nn.init.eye_": "fill the 2-D tensor with the identity matrix",
    "torch.nn.init._calculate_fan_in_and_fan_out": "(fan_in, fan_out) of a weight's shape",
    "torch.nn.init._calculate_correct_fan": "the weight's fan_in or fan_out, by mode",
    "torch.nn.Linear": "a fully connected layer: x @ weight.T + bias",
    "torch.nn.Bilinear": "x1^T W x2 + b for each output feature",
    "torch.nn.Conv2d": "a 2-D convolution over (N, C, H, W) input",
    "torch.nn.LazyConv2d": "a Conv2d whose in_channels is taken from its first input",
    "torch.nn.MaxPool2d": "2-D max pooling",
    "torch.nn.AvgPool2d": "2-D average pooling",
    "torch.nn.AvgPool3d": "3-D average pooling",
    "torch.nn.AdaptiveAvgPool2d": "2-D average pooling to a given output size",
    "torch.nn.Embedding": "a lookup table: row i of weight for index i",
    "torch.nn.BatchNorm1d": "batch normalisation over (N, C) or (N, C, L) input",
    "torch.nn.BatchNorm2d": "batch normalisation over (N, C, H, W) input",
    "torch.nn.BatchNorm3d": "batch normalisation over (N, C, D, H, W) input",
    "torch.nn.LazyBatchNorm1d": "a BatchNorm1d whose num_features is taken from its first input",
    "torch.nn.LazyBatchNorm2d": "a BatchNorm2d whose num_features is taken from its first input",
    "torch.nn.LazyBatchNorm3d": "a BatchNorm3d whose num_features is taken from its first input",
    "torch.nn.LayerNorm": "layer normalisation over the last dims (normalized_shape), "
    "then weight and bias",
    "torch.nn.RMSNorm": "x / sqrt(mean(x ** 2) + eps) over the last dims, times weight",
    "torch.nn.GroupNorm": "group normalisation: the channels in num_groups groups, each "
    "normalised, then weight and bias per channel",
    "torch.nn.RNN": "an Elman RNN (tanh or relu) over a sequence, layers stacked",
    "torch.nn.GRU": "a gated recurrent unit over a sequence, layers stacked",
    "torch.nn.LSTM": "a long short-term memory over a sequence, layers stacked",
    "torch.nn.RNNCell": "one step of an Elman RNN: h' = tanh(W_ih x + b_ih + W_hh h + b_hh)",
    "torch.nn.GRUCell": "one step of a GRU",
    "torch.nn.LSTMCell": "one step of an LSTM: returns (h', c')",
    "torch.nn.Softmax": "softmax over dim, as a module",
    "torch.nn.LogSoftmax": "log_softmax over dim, as a module",
    "torch.nn.LeakyReLU": "max(0, x) + negative_slope * min(0, x) element-wise",
    "torch.nn.GELU": "x * Phi(x) element-wise (Phi the normal distribution), or its tanh form",
    "torch.nn.Flatten": "flatten dims start_dim..end_dim",
    "torch.nn.Identity": "returns its input",
    "torch.nn.Dropout": "zeroes elements with probability p in training mode, scales the rest",
    "torch.nn.Dropout1d": "zeroes whole channels of (N, C, L) or (C, L) input with probability p",
    "torch.nn.Dropout2d": "zeroes whole channels of (N, C, H, W) input with probability p",
    "torch.nn.Dropout3d": "zeroes whole channels of (N, C, D, H, W) or (C, D, H, W) input "
    "with probability p",
    "torch.nn.functional.dropout1d": "channel-wise dropout of (N, C, L) or (C, L) input",
    "torch.nn.functional.dropout2d": "channel-wise dropout of (N, C, H, W) input",
    "torch.nn.functional.dropout3d": "channel-wise dropout of (N, C, D, H, W) or (C, D, H, W) "
    "input",
    "torch.nn.Sequential": "modules called one after another",
    "torch.nn.ModuleList": "a list of modules whose parameters the owner sees",
    "torch.nn.ModuleDict": "a dict of modules whose parameters the owner sees",
    "torch.nn.ParameterList": "a list whose tensors are parameters of the owner",
    "torch.nn.ParameterDict": "a dict whose tensors are parameters of the owner",
    "torch.nn.MSELoss": "mean squared error, as a module",
    "torch.nn.L1Loss": "mean absolute error, as a module",
    "torch.nn.BCELoss": "binary cross-entropy of probabilities, as a module",
    "torch.nn.BCEWithLogitsLoss": "binary cross-entropy of logits, as a module",
    "torch.nn.NLLLoss": "negative log-likelihood of log-probabilities, as a module",
    "torch.nn.CrossEntropyLoss": "cross-entropy of logits and class indices or probabilities",
    "torch.autograd.functional.vjp": "(outputs, v^T J): a vector-Jacobian product",
    "torch.autograd.graph.saved_tensors_hooks": "a context: pack and unpack every saved tensor",
    "torch.autograd.graph.save_on_cpu": "saved_tensors_hooks that keep tensors on the CPU",
    "torch.autograd.graph.disable_saved_tensors_hooks": "a context that refuses saved hooks",
    "torch.autograd.graph.allow_mutation_on_saved_tensors": (
        "a context: a saved tensor changed in place is cloned first, for backward"
    ),
    "torch.is_inference_mode_enabled": "whether torch.inference_mode is on",
    "torch.autograd.forward_ad.dual_level": "a context: a forward-mode level",
    "torch.autograd.forward_ad.make_dual": "a dual tensor: primal with tangent",
    "torch.autograd.forward_ad.unpack_dual": "(primal, tangent) of a dual tensor",
    "torch.autograd.forward_ad.enter_dual_level": "open a forward-mode level",
    "torch.autograd.forward_ad.exit_dual_level": "close a forward-mode level",
    "torch.cuda.is_available": "False: gradcli computes on the CPU",
    "torch.cuda.device_count": "0",
    "torch.cuda.manual_seed": "nothing on the CPU (PyTorch seeds CUDA's generators once CUDA starts)",
    "torch.cuda.manual_seed_all": "nothing on the CPU (PyTorch seeds CUDA's generators once CUDA starts)",
    "torch.accelerator.is_available": "False",
    "torch.accelerator.current_accelerator": "None",
    "torch.accelerator.device_count": "0",
    "torch.utils.data.default_collate": "stack a list of samples into a batch",
    "torch.backends.mps.is_available": "False",
    "torch.backends.mps.is_built": "False",
    "torch.backends.cuda.is_built": "False",
    "torch.func.grad": "grad(f)(x): the gradient of the scalar f at x, as a function",
    "torch.func.grad_and_value": "like grad, returning (gradient, value)",
    "torch.func.vjp": "(f(primals), vjp_fn): vjp_fn(v) is v^T J",
    "torch.func.jvp": "(f(primals), J tangents), in forward mode",
    "torch.func.jacrev": "the Jacobian of f, by reverse mode",
    "torch.func.jacfwd": "the Jacobian of f, by forward mode",
    "torch.func.hessian": "the Hessian of f (jacfwd over jacrev)",
    "torch.func.linearize": "(f(primals), jvp_fn) with the linearisation kept",
    "torch.func.vmap": "vmap(f)(xs): f run on a batch at once (in_dims, out_dims)",
    "torch.func.functional_call": "call a module with the given parameters and buffers",
    "torch.func.stack_module_state": "the models' parameters and buffers, stacked",
}

_SKIP_TYPES = (int, float, bool, str)  # constants: pi, inf, the dtypes are shown apart


def _is_dtype(v):
    return type(v).__name__ == "DType"


def walk():
    """[(qualified name, value)] of the `torch` namespace, modules before their members;
    op-table entries reached there are left out (the op table documents them)."""
    out = []
    entries = {id(e.fn) for table in (BUILTINS, METHOD_ONLY) for e in table.values()}
    # (abs, round: the op alone beside Python's meaning, python._dual's tensor_op)
    entries |= {id(e.fn.tensor_op) for e in BUILTINS.values() if getattr(e.fn, "tensor_op", None)}

    def go(module):
        for name, v in module.members.items():
            q = f"{module.name}.{name}"
            if isinstance(v, Module):
                out.append((q, v))
                go(v)
            elif isinstance(v, _SKIP_TYPES) or _is_dtype(v) or id(v) in entries:
                continue
            elif id(getattr(v, "__wrapped__", None)) in entries:  # torch.tanh: the op's
                continue
            else:
                out.append((q, v))

    go(torch_ns.namespace()["torch"])
    return out


def find(name: str):
    """(qualified name, value) for what a person typed, or None: a dotted path from
    `torch` (`torch.func.grad`, `nn.Linear`, `F.linear`), or a last name that only one
    such value has (`vmap`, `Linear`)."""
    path = name.split(".")
    if path[0] == "F":
        path = ["torch", "nn", "functional", *path[1:]]
    elif path[0] in ("nn", "func", "autograd", "optim", "linalg", "utils"):
        path = ["torch", *path]
    if path[0] == "torch":
        v = torch_ns.namespace()["torch"]
        for i, p in enumerate(path[1:], 2):
            if not isinstance(v, Module):
                return None
            if p in v.members:
                v = v.members[p]
            elif i == len(path) and p in BUILTINS:  # a built-in reached through a module
                v = BUILTINS[p].fn  # (torch.optim.SGD), as Module.get finds it
            else:
                return None
        return ".".join(path), v
    if len(path) == 1:
        hits = [(q, v) for q, v in walk() if q.rsplit(".", 1)[1] == name]
        if hits and all(v is hits[0][1] for _, v in hits):  # one value (torch.vmap, func.vmap)
            return next(((q, v) for q, v in hits if q in DOCS), hits[0])
    return None


def of_value(value):
    """(qualified name, value) for a value of the namespace (`help(nn.Linear)`), or None."""
    for q, v in walk():
        if v is value:
            return q, v
    return None


def _key(name: str) -> str:
    key = name.replace("_", "").lower()
    return key[:-4] if key.endswith("loss") else key


def _functional_of(qualname: str):
    """The op-table entry of a torch.nn module's functional form (nn.HuberLoss: huber_loss)."""
    if not qualname.startswith("torch.nn.") or qualname.count(".") != 2:
        return None
    key = _key(qualname.rsplit(".", 1)[1])
    for name, e in BUILTINS.items():
        if e.category in ("loss", "nn", "activation") and _key(name) == key:
            return e
    return None


def doc(qualname: str, value) -> str | None:
    """One line: DOCS, else the first line of the value's own docstring (gradcli's)."""
    if qualname in DOCS:
        return DOCS[qualname]
    for q, v in walk():  # another name of the same value (torch.vmap is torch.func.vmap)
        if v is value and q in DOCS:
            return DOCS[q]
    if isinstance(value, Module):
        return None
    functional = _functional_of(qualname)
    if functional is not None:
        return f"{functional.doc} (as a module)"
    own = getattr(value, "__doc__", None)
    mod = getattr(value, "__module__", None) or getattr(type(value), "__module__", "")
    if own and str(mod).startswith("gradcli"):
        return " ".join(own.strip().split("\n\n")[0].split())
    return None


def signature(qualname: str, value) -> str:
    """`qualname(params)` for a function or class, `qualname` for a module."""
    if isinstance(value, Module):
        return qualname
    try:
        sig = inspect.signature(value)
    except (TypeError, ValueError):
        return qualname
    params = [p for p in sig.parameters.values() if not p.name.startswith("_")]
    return f"{qualname}({str(sig.replace(parameters=params))[1:-1]})"


def kind(value) -> str:
    if isinstance(value, Module):
        return "module"
    if inspect.isclass(value) or isinstance(value, type):
        return "class"
    return "function" if callable(value) else "value"


def text(qualname: str, value) -> str:
    """The help shown for a namespace name."""
    lines = [signature(qualname, value), f"    {doc(qualname, value) or kind(value)}"]
    if isinstance(value, Module):
        names = sorted(value.members)
        lines.append(f"    members: {' '.join(names)}")
    elif kind(value) == "class":
        lines.append(f"    a class: {qualname.rsplit('.', 1)[1]}(...) makes one")
    return "\n".join(lines)
