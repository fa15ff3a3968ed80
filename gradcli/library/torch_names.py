"""The modules where PyTorch defines its public classes (as torch 2.13 names them), so
that a library class prints as PyTorch's does: `type(nn.Linear(2, 3))` is
`<class 'torch.nn.modules.linear.Linear'>`.  Keyed by the class's own name."""

from __future__ import annotations

from ..core.printing import CLASS_NAMES
from .values import Module

_MODULES = {
    "torch": "Size",
    "torch.nn.modules.activation": (
        "CELU ELU GELU GLU Hardshrink Hardsigmoid Hardswish Hardtanh LeakyReLU LogSigmoid "
        "LogSoftmax Mish MultiheadAttention PReLU RReLU ReLU ReLU6 SELU SiLU Sigmoid Softmax "
        "Softmax2d Softmin Softplus Softshrink Softsign Tanh Tanhshrink Threshold"
    ),
    "torch.nn.modules.batchnorm": "BatchNorm1d BatchNorm2d BatchNorm3d",
    "torch.nn.modules.container": "ModuleDict ModuleList ParameterDict ParameterList Sequential",
    "torch.nn.modules.conv": (
        "Conv1d Conv2d Conv3d ConvTranspose1d ConvTranspose2d ConvTranspose3d LazyConv1d LazyConv2d "
        "LazyConv3d"
    ),
    "torch.nn.modules.distance": "CosineSimilarity PairwiseDistance",
    "torch.nn.modules.dropout": "AlphaDropout Dropout Dropout1d Dropout2d Dropout3d",
    "torch.nn.modules.flatten": "Flatten Unflatten",
    "torch.nn.modules.padding": " ".join(
        f"{k}Pad{d}d"
        for k in ("Zero", "Constant", "Reflection", "Replication", "Circular")
        for d in (1, 2, 3)
    ),
    "torch.nn.modules.pixelshuffle": "PixelShuffle PixelUnshuffle",
    "torch.nn.modules.channelshuffle": "ChannelShuffle",
    "torch.nn.modules.instancenorm": "InstanceNorm1d InstanceNorm2d InstanceNorm3d",
    "torch.nn.modules.linear": (
        "Bilinear Identity LazyLinear Linear NonDynamicallyQuantizableLinear"
    ),
    "torch.nn.modules.loss": (
        "BCELoss BCEWithLogitsLoss CTCLoss CosineEmbeddingLoss CrossEntropyLoss GaussianNLLLoss "
        "HingeEmbeddingLoss HuberLoss KLDivLoss L1Loss LinearCrossEntropyLoss MSELoss MarginRankingLoss "
        "MultiLabelMarginLoss MultiLabelSoftMarginLoss MultiMarginLoss NLLLoss PoissonNLLLoss "
        "SmoothL1Loss SoftMarginLoss TripletMarginLoss TripletMarginWithDistanceLoss"
    ),
    "torch.nn.modules.module": "Module",
    "torch.nn.modules.normalization": "GroupNorm LayerNorm LocalResponseNorm RMSNorm",
    "torch.nn.modules.pooling": (
        "AdaptiveAvgPool1d AdaptiveAvgPool2d AdaptiveAvgPool3d AdaptiveMaxPool1d "
        "AdaptiveMaxPool2d AdaptiveMaxPool3d AvgPool1d AvgPool2d AvgPool3d MaxPool1d MaxPool2d "
        "MaxPool3d"
    ),
    "torch.nn.modules.rnn": "GRU GRUCell LSTM LSTMCell RNN RNNCell",
    "torch.nn.modules.sparse": "Embedding EmbeddingBag",
    "torch.nn.modules.transformer": (
        "Transformer TransformerDecoder TransformerDecoderLayer TransformerEncoder "
        "TransformerEncoderLayer"
    ),
    "torch.nn.parameter": "Parameter",
    "torch.optim.adadelta": "Adadelta",
    "torch.optim.adagrad": "Adagrad",
    "torch.optim.adam": "Adam",
    "torch.optim.adamax": "Adamax",
    "torch.optim.adamw": "AdamW",
    "torch.optim.asgd": "ASGD",
    "torch.optim.lbfgs": "LBFGS",
    "torch.optim.lr_scheduler": (
        "ChainedScheduler ConstantLR CosineAnnealingLR CosineAnnealingWarmRestarts CyclicLR "
        "ExponentialLR LambdaLR LinearLR LRScheduler MultiStepLR MultiplicativeLR OneCycleLR "
        "PolynomialLR ReduceLROnPlateau SequentialLR StepLR _LRScheduler"
    ),
    "torch.optim.nadam": "NAdam",
    "torch.optim.optimizer": "Optimizer",
    "torch.optim.radam": "RAdam",
    "torch.optim.rmsprop": "RMSprop",
    "torch.optim.rprop": "Rprop",
    "torch.optim.sgd": "SGD",
    "torch.utils.data.dataloader": "DataLoader",
    "torch.utils.data.dataset": "Dataset IterableDataset Subset TensorDataset",
    "torch.utils.data.sampler": (
        "Sampler SequentialSampler RandomSampler SubsetRandomSampler BatchSampler"
    ),
    "torch.autograd.function": "Function FunctionCtx",
    "torch.autograd.forward_ad": "UnpackedDualTensor",
    "torch.autograd.graph": "_AllowMutationOnSavedContext",
    "torch.distributions.distribution": "Distribution",
    "torch.distributions.normal": "Normal",
    "torch.distributions.uniform": "Uniform",
    "torch.distributions.categorical": "Categorical",
    "torch.distributions.bernoulli": "Bernoulli",
    "torch.distributions.independent": "Independent",
    "torch.distributions.exponential": "Exponential",
    "torch.distributions.laplace": "Laplace",
    "torch.distributions.one_hot_categorical": "OneHotCategorical",
}
TORCH_MODULE = {name: mod for mod, names in _MODULES.items() for name in names.split()}


def torch_qualname(cls):
    """PyTorch's qualified name of a library class (None for a class torch has not, or
    a class that is not the library's)."""
    mod = TORCH_MODULE.get(cls.__name__)
    if mod is None or not cls.__module__.startswith(_LIBRARY):
        return None
    return f"{mod}.{cls.__name__}"


_LIBRARY = __name__.rsplit(".", 1)[0]  # this package


def library_class(cls):
    """cls, a class of the library PyTorch has too, named as PyTorch names it (printing,
    `__name__`); None for any other class."""
    qual = torch_qualname(cls)
    if qual is None:
        return None
    if id(cls) not in CLASS_NAMES:
        CLASS_NAMES[id(cls)] = (cls, qual)
    return cls


def name_classes(members, seen=None):
    """Name the library classes a namespace holds (and its sub-namespaces made so far)."""
    seen = set() if seen is None else seen
    for v in members.values():
        if isinstance(v, type):
            library_class(v)
        elif type(v) is Module and v.loaded and id(v) not in seen:  # (lazy: named when made)
            seen.add(id(v))
            name_classes(v.members, seen)
