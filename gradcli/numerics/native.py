"""Hardware fused multiply-add for the emulated float math, and SLEEF's double exp, log1p,
log (numerics/native_sleef.py) and pow (native_pow.py) and float32 exp, log and log1p
(native_sleef32.py) as compiled loops over vectors of 8 values, compiled when it pays.

PyTorch's vectorised kernels compute `a * b + c` with one rounding (the FMA
instruction).  NumPy has no fused multiply-add, so `floats/fma.py` emulates it: the
double one in about 25 NumPy operations (Dekker's product and Knuth's sum), the
float32 one in about 7; SLEEF's exp, log and pow make dozens of them per value, and
that emulation is most of the time of a program that runs them on large tensors.

With `llvmlite` installed (the `exact` extra; it is Numba's LLVM binding), this module
compiles small loops that compute the same results with the hardware instruction
(LLVM's `llvm.fma` intrinsic), IEEE arithmetic as written: no fast-math flags, so
nothing is reassociated or contracted.  The loops compute every element and flag the
ones where the emulation is not the plain correctly rounded result (NaN, infinities,
overflow, products too small or operands too large to split); `fma.py` computes those
with its own emulation, so both paths give the same bits on every input
(tests/numerics/test_native.py and test_native32.py compare them on millions of random
and edge values).  One more loop runs chains of float32 fused steps (`chain32`: oneDNN's
convolution weight gradient, numerics/onednn_conv.py), whose reference is the hardware's
FMA itself; NumPy's emulation of it rounds each step as the instruction does.  The calls
of the sums' loops are in native_sum_calls.py.

Start-up pays nothing: llvmlite is imported and the loops compiled only once a run's
emulated steps have cost as much CPU time as that costs (the rent-or-buy rule: a run
never loses more than it, and a long run gains 3-12x on each double fused step, 25-35x
on SLEEF's kernels).  Compiling costs about 120 ms of CPU (llvmlite's import 20-25 ms);
the object code is then cached in the user's cache directory (keyed by the text of this
file and the native_*.py files that make its IR, stamped with the CPU), and later runs on
this CPU place it in executable memory themselves (native_elf.py) in under a
millisecond, without importing llvmlite.
Numba itself is not used: importing it costs 0.15-0.25 s of CPU and loading its cached
functions 0.15-0.45 s more, more than the whole emulation of most training loops.
`GRADCLI_NO_NATIVE=1` keeps the NumPy emulation; `GRADCLI_NATIVE=1` compiles at the
first emulated step (the tests).

Calling a compiled loop needs `ctypes` (its address as a C function), as MKL's
functions do in `mkl.py` and `linalg/lapack.py`.  No value of the language reaches
it: its only inputs are the arrays of the emulated arithmetic.
"""

from __future__ import annotations

import ctypes
import math
import os
import sys
import time
from contextlib import contextmanager
from math import prod

# the cache's name is a hash read at every start: hashlib's own blake2b, without `import
# hashlib`, which loads OpenSSL's libcrypto (1.5% of start-up)
try:
    from _blake2 import blake2b
except ImportError:  # (a Python built without it)
    from hashlib import blake2b

import numpy as np

from . import native_alloc, native_elf, native_fma
from .native_chain import CHAIN_ROWS, chain_ir
from .mkl import address

#: CPU seconds compiling the loops costs (llvmlite's import ~25 ms, LLVM ~90 ms), and
#: loading them from the cache (native_elf.py: reading and placing the object code)
COMPILE_COST, LOAD_COST = 0.12, 0.002
#: smallest array the compiled loops are used for: any (a call costs ~8 us, where a
#: double fused step's emulation costs ~25 us on one value, a SLEEF kernel's 0.1-0.5 ms)
MIN_SIZE = 1
#: the same for a float32 fused step, whose emulation is cheap (7 NumPy operations)
MIN_SIZE_F32 = 8192

# lib: False not tried yet, None unavailable or off; spent: CPU seconds of emulation
# counted so far; cost: COMPILE_COST or LOAD_COST once looked up
_state: dict = {"lib": False, "spent": 0.0, "cost": None, "counting": False}

D, F = np.dtype(np.float64), np.dtype(np.float32)


def _mode():
    v = os.environ.get("GRADCLI_NO_NATIVE", "")
    if v not in ("", "0"):
        return "off"
    v = os.environ.get("GRADCLI_NATIVE", "")
    return "now" if v not in ("", "0") else "budget"


def ready(n, least=MIN_SIZE):
    """The compiled loops when an element-wise step on n values should use them (n at
    least `least`), else None: once the emulation of the steps they would take has cost
    as much CPU time as compiling (or loading) them costs; a run never loses more than
    that."""
    lib = _state["lib"]
    if lib:
        return lib if n >= least else None
    if lib is None or n < least:
        return None
    cost = _state["cost"]
    if cost is None:
        mode = _mode()
        if mode == "off":
            _state["lib"] = None
            return None
        cost = _state["cost"] = 0.0 if mode == "now" else _expected_cost()
    if _state["spent"] < cost:
        return None
    _state["lib"] = _load()
    return _state["lib"] or None


def preload():
    """Place the compiled loops now where their object code is cached (about a
    millisecond, what the rent-or-buy rule would spend after 2 ms of emulation anyway):
    a run's arrays then lie on 64-byte boundaries from its first one on
    (native_alloc.py), and MKL's operands need no copy.  Compiling waits for the rule."""
    if _state["lib"] is False and _mode() == "budget" and _expected_cost() == LOAD_COST:
        _state["cost"] = LOAD_COST
        _state["lib"] = _load()


def ready_for(estimate, n=MIN_SIZE, least=MIN_SIZE):
    """ready's loops, or also when one step whose emulation is expected to cost
    `estimate` CPU seconds would by itself pay for compiling (or loading) them."""
    lib = ready(n, least)
    if lib is None and _state["lib"] is False and _state["cost"] is not None and n >= least:
        if estimate >= _state["cost"] - _state["spent"]:
            _state["lib"] = _load()
            return _state["lib"] or None
    return lib


def start(n, least=MIN_SIZE):
    """The CPU clock before an emulated step on n values, when that step counts towards
    the cost of compiling (see ready: a step the compiled loops would take, n at least
    `least`), else None (also inside a step being counted: a kernel's fused steps are
    its own)."""
    if _state["lib"] is not False or n < least or _state["counting"]:
        return None
    _state["counting"] = True
    return time.process_time()


def spent(t0):
    """Count the emulated step begun at t0 (start's value)."""
    if t0 is not None:
        _state["spent"] += time.process_time() - t0
        _state["counting"] = False


def available():
    """Whether the compiled loops can be had (compiling them now if not yet; not when
    GRADCLI_NO_NATIVE is set)."""
    if _state["lib"] is False:
        _state["lib"] = None if _mode() == "off" else _load()
    return bool(_state["lib"])


@contextmanager
def numpy_only():
    """Within it, NumPy's emulation only (the tests compare the two paths)."""
    saved = _state["lib"]
    _state["lib"] = None
    try:
        yield
    finally:
        _state["lib"] = saved


def _load():
    try:
        return _Kernels()
    except Exception:  # no llvmlite, no native target, or LLVM refused: NumPy's emulation
        return None


_source_key: list = []  # the hash of the sources below, made once a process


def _cache_path():
    """The compiled loops' cache file: named by the text of this file and native_sleef.py
    (where the loops' IR is made), in the user's cache directory."""
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(os.path.expanduser("~"), ".cache")
    if not _source_key:
        _source_key.append(_sources_hash())
    return os.path.join(base, "gradcli", f"native-{_source_key[0]}-{sys.platform}.o")


def _sources_hash():
    h = blake2b(digest_size=10)
    here = os.path.dirname(__file__)
    for src in (
        __file__,
        *(
            os.path.join(here, f)
            for f in (
                "native_sleef.py",
                "native_sleef32.py",
                "native_pow.py",
                "floats/sleef_pow_poly.py",
                "native_alloc.py",
                "native_steps.py",
                "native_sums.py",
                "native_pool.py",
                "native_act.py",
                "native_fma.py",
                "native_softmax.py",
                "native_chain.py",
                "native_grads.py",
                "native_norms.py",
                "native_recurrent.py",
                "native_bn.py",
                "native_random.py",
            )
        ),
    ):
        with open(src, "rb") as f:
            h.update(f.read())
    return h.hexdigest()


def _expected_cost():
    try:
        return LOAD_COST if os.path.exists(_cache_path()) else COMPILE_COST
    except OSError:
        return COMPILE_COST


#: the compiled loops: (kind, b's and c's element types) (a is always a double)
LOOPS = (("fma64", "dd"), ("fma32", "dd"), ("fma32", "ff"), ("fma32", "fd"), ("fma32", "df"))

#: whole SLEEF kernels (numerics/native_sleef.py): exp, log1p and log of doubles
UNARY = ("expd", "log1pd", "logd")
#: and of floats (numerics/native_sleef32.py), each in vectors of LANES values
UNARY32 = ("expf", "logf", "log1pf")
#: whole SLEEF kernels of two doubles (numerics/native_pow.py): pow
BINARY = ("powd",)
#: kernels of PyTorch's built on SLEEF's exp and log1p (numerics/native_act.py), of one
#: input and of two, (float64's, float32's) (None: that dtype's is NumPy's)
ACT1 = {
    "sigmoid": ("sigmoid_d", "sigmoid_f"),
    "log_sigmoid": ("log_sigmoid_d", "log_sigmoid_f"),
    "gelu_tanh": ("gelu_tanh_d", "gelu_tanh_f"),
    "gelu_erf": (None, "gelu_erf_f"),
    "expm1": ("expm1_d", "expm1_f"),
    "gelu_erf_vec": ("gelu_erf_d", None),
    "mish": (None, "mish_f"),
}
ACT2 = {
    "bce_logits": ("bce_logits_d", "bce_logits_f"),
    "gelu_tanh_grad": ("gelu_tanh_grad_d", "gelu_tanh_grad_f"),
    "gelu_erf_grad": (None, "gelu_erf_grad_f"),
    "mish_grad": (None, "mish_grad_f"),
    "gelu_erf_vec_grad": ("gelu_erf_grad_d", None),
}
#: an optimizer's running averages of doubles and of floats (numerics/native_steps.py)
STEPS = ("moments_d", "moments_f")
#: and Adam's step of a parameter after its averages and their square root
ADAM = ("adam_d", "adam_f")
#: and the whole step in one call (averages, AMSGrad's maximum, MKL's square root, step)
ADAM_STEP = {"d": "adam_step_d", "f": "adam_step_f"}
#: its parameters, in this order in its i64 array (addresses, but n and mode); k: (w, 1 - w,
#: 1 - beta2, beta2, c, eps, value) as doubles; max_sq 0 without AMSGrad
ADAM_PARAMS = (
    "n",
    "g",
    "avg",
    "sq",
    "p",
    "avg_out",
    "sq_out",
    "p_out",
    "root",
    "sqrt",
    "mode",
    "k",
    "max_sq",
    "max_out",
)
#: SGD's step of a parameter with weight decay or momentum in one call (native_steps.py)
SGD_STEP = {"d": "sgd_step_d", "f": "sgd_step_f"}
#: its parameters, in this order in its i64 array (addresses, but n and mode); k: (wd,
#: momentum, 1 - dampening, -lr) as doubles
SGD_PARAMS = ("n", "g", "p", "buf", "p_out", "buf_out", "k", "mode")
#: a manual step `x op= y * g` of one dtype in one pass, by (op, dtype char) (native_steps.py)
SCALED_STEP = {(op, c): f"scaled_{op}_{c}" for op in ("add", "sub", "mul") for c in "fd"}
#: whole sums in PyTorch's order, of floats and of doubles (numerics/native_sums.py)
SUMS = {"f": "sums_f", "d": "sums_d"}
#: chains of fused steps into accumulators, of floats and of doubles (native_sums.py)
CHAINS = {"f": "fma_chain_f", "d": "fma_chain_d"}
#: the channels-last batch norm sums (native_sums.chunk_sums_ir), by the dtype's char
CHUNK_SUMS = {"f": "chunk_sums_f", "d": "chunk_sums_d"}
#: max_pool2d's forward and backward over windows inside the input (numerics/native_pool.py)
POOL_MAX = {"f": "pool_max_f", "d": "pool_max_d"}
POOL_SCATTER = {"f": "pool_scatter_f", "d": "pool_scatter_d"}
#: relu's backward (threshold_backward: g where x > 0 or NaN, +0 elsewhere)
KEPT = {"f": "kept_f", "d": "kept_d"}
#: relu (+0 where x < 0, else x: the same loop with a strict compare)
RELU = {"f": "relu_f", "d": "relu_d"}
#: a bias's gradient (the sums down a batch's columns) and tanh's backward (native_grads.py)
OUTER_SUM = {"f": "outer_sum_f", "d": "outer_sum_d"}
TANH_BACKWARD = {"f": "tanh_backward_f", "d": "tanh_backward_d"}
#: a GRU step's and an LSTM step's backward (native_recurrent.py)
GRU_BACKWARD = {"f": "gru_backward_f", "d": "gru_backward_d"}
LSTM_BACKWARD = {"f": "lstm_backward_f", "d": "lstm_backward_d"}
#: and their forward after the hidden gates' product (calling ACT1's sigmoid and VML's tanh)
GRU_FORWARD = {"f": "gru_forward_f", "d": "gru_forward_d"}
LSTM_FORWARD = {"f": "lstm_forward_f", "d": "lstm_forward_d"}
#: LayerNorm's moments: the lanes merged into the tail's (native_norms.py)
LANE_MERGE = {"f": "lane_merge_f", "d": "lane_merge_d"}
WELFORD = {"f": "welford_f", "d": "welford_d"}
#: var and std over some dims: Welford's m2 of each row in doubles (native_norms.py)
VAR_ROWS = {"d": "var_rows_d"}
#: BatchNorm's channels-last forward and backward, whole (numerics/native_bn.py)
BN_FORWARD = {"f": "bn_forward_f", "d": "bn_forward_d"}
BN_BACKWARD = {"f": "bn_backward_f", "d": "bn_backward_d"}
#: bernoulli_(p)'s mask from NumPy's MT19937 state (numerics/native_random.py)
BERNOULLI = "bernoulli_mask"
#: rows copied from strided places (a convolution's im2col columns), by element size
ROWS = {4: "rows_4", 8: "rows_8"}
#: softmax, log_softmax and their backward over the last dim (numerics/native_softmax.py)
SOFTMAX = {(k, c): f"{k}_{c}" for k in ("softmax", "log_softmax", "softmax_bwd") for c in "fd"}
SOFTMAX.update((("log_softmax_bwd", c), f"log_softmax_bwd_{c}") for c in "fd")
LANES = 8


class _Kernels:
    """The loops, compiled together in one LLVM module; a later run on this CPU places
    the cached object code itself (native_elf.py: about a millisecond, without
    importing llvmlite)."""

    def __init__(self):
        key = _machine()
        path = _cache_path()
        stamp = None if key is None else f"gradcli native loops for {key}\n".encode()
        obj = None if stamp is None else _read_cache(path, stamp)
        got = None if obj is None else native_elf.load(obj, _buffer_address)
        if got is None:
            got = self._compile(path, stamp)
        self.code, addrs = got  # (kept: the memory the loops live in)
        sig = ctypes.CFUNCTYPE(
            ctypes.c_int64, *[ctypes.c_int64] * 2, *[ctypes.c_void_p] * 5, *[ctypes.c_int64] * 10
        )
        self.fns = {(kind, types): sig(addrs[f"{kind}_{types}"]) for kind, types in LOOPS}
        sig = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, *[ctypes.c_void_p] * 3)
        self.unary = {kind: sig(addrs[kind]) for kind in UNARY + UNARY32}
        self.unary.update((k, sig(addrs[k])) for names in ACT1.values() for k in names if k)
        sig = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, *[ctypes.c_void_p] * 4)
        self.binary = {kind: sig(addrs[kind]) for kind in BINARY}
        self.binary.update((k, sig(addrs[k])) for names in ACT2.values() for k in names if k)
        self.fma32h = sig(addrs["fma32h"])
        sig = ctypes.CFUNCTYPE(ctypes.c_int64, *[ctypes.c_void_p] * 5)
        self.chain32 = sig(addrs["chain32"])
        sig = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, *[ctypes.c_void_p] * 6)
        self.steps = {name: sig(addrs[name]) for name in STEPS}
        sig = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64, *[ctypes.c_void_p] * 5)
        self.steps.update((name, sig(addrs[name])) for name in ADAM)
        sig = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_void_p)
        self.adam_step = {char: sig(addrs[name]) for char, name in ADAM_STEP.items()}
        self.sgd_step = {char: sig(addrs[name]) for char, name in SGD_STEP.items()}
        self.scaled_step = {key: sig(addrs[name]) for key, name in SCALED_STEP.items()}
        sig = ctypes.CFUNCTYPE(ctypes.c_int64, ctypes.c_int64)
        self.sums = {char: sig(addrs[name]) for char, name in SUMS.items()}
        self.pool_max = {char: sig(addrs[name]) for char, name in POOL_MAX.items()}
        self.pool_scatter = {char: sig(addrs[name]) for char, name in POOL_SCATTER.items()}
        self.kept = {char: sig(addrs[name]) for char, name in KEPT.items()}
        self.relu = {char: sig(addrs[name]) for char, name in RELU.items()}
        self.outer_sum = {char: sig(addrs[name]) for char, name in OUTER_SUM.items()}
        self.tanh_backward = {char: sig(addrs[name]) for char, name in TANH_BACKWARD.items()}
        self.gru_backward = {char: sig(addrs[name]) for char, name in GRU_BACKWARD.items()}
        self.gru_forward = {char: sig(addrs[name]) for char, name in GRU_FORWARD.items()}
        self.lstm_backward = {char: sig(addrs[name]) for char, name in LSTM_BACKWARD.items()}
        self.lstm_forward = {char: sig(addrs[name]) for char, name in LSTM_FORWARD.items()}
        self.lane_merge = {char: sig(addrs[name]) for char, name in LANE_MERGE.items()}
        self.welford = {char: sig(addrs[name]) for char, name in WELFORD.items()}
        self.var_rows = sig(addrs[VAR_ROWS["d"]])
        self.bn_forward = {char: sig(addrs[name]) for char, name in BN_FORWARD.items()}
        self.bn_backward = {char: sig(addrs[name]) for char, name in BN_BACKWARD.items()}
        self.bernoulli = sig(addrs[BERNOULLI])
        self.rows = {width: sig(addrs[name]) for width, name in ROWS.items()}
        sig = ctypes.CFUNCTYPE(ctypes.c_int64, *[ctypes.c_int64] * 2, *[ctypes.c_void_p] * 3)
        self.chains = {char: sig(addrs[name]) for char, name in CHAINS.items()}
        self.softmax = {key: sig(addrs[name]) for key, name in SOFTMAX.items()}
        sig = ctypes.CFUNCTYPE(
            ctypes.c_int64, *[ctypes.c_int64] * 3, *[ctypes.c_void_p] * 4, ctypes.c_int64
        )
        self.chunk_sums = {char: sig(addrs[name]) for char, name in CHUNK_SUMS.items()}
        self.aligned = native_alloc.install(addrs, self.code)  # NumPy's arrays where PyTorch's lie

    @staticmethod
    def _compile(path, stamp):
        """(the memory holding the loops, their addresses): compiled with llvmlite (or
        its object code read from the cache, where it was stamped with llvmlite's view of
        the CPU), placed by native_elf.py or else linked by llvmlite's JIT."""
        import llvmlite.binding as llvm  # (only here: ~30 ms of start-up otherwise)
        import llvmlite.ir as ir

        # (only compiling needs the IR makers)
        from .native_act import kernel_ir as act_ir
        from .native_pow import binary as binary_ir
        from .native_sleef import unary as unary_ir
        from .native_sleef32 import ternary as ternary32_ir, unary as unary32_ir
        from .native_steps import adam_param_ir, adam_step_ir, moments_ir, sgd_step_ir
        from .native_steps import scaled_step_ir
        from .native_sums import chunk_sums_ir, fma_chain_ir, sums_module
        from .native_pool import kept_ir, pool_max_ir, pool_scatter_ir, rows_ir
        from .native_softmax import softmax_ir
        from .native_grads import outer_sum_ir, tanh_backward_ir
        from .native_norms import lane_merge_ir, var_rows_ir, welford_ir
        from .native_recurrent import gru_backward_ir, gru_forward_ir
        from .native_recurrent import lstm_backward_ir, lstm_forward_ir
        from .native_bn import module_ir as bn_ir
        from .native_random import bernoulli_ir

        llvm.initialize_native_target()
        llvm.initialize_native_asmprinter()
        target = llvm.Target.from_default_triple()
        features = _features(llvm.get_host_cpu_features())
        tm = target.create_target_machine(cpu=llvm.get_host_cpu_name(), features=features, opt=1)
        if stamp is None:  # (no /proc/cpuinfo: compiled for this CPU by this llvmlite)
            stamp = f"{llvm.llvm_version_info} {tm.triple} {llvm.get_host_cpu_name()} "
            stamp = (stamp + features + "\n").encode()
        obj = _read_cache(path, stamp)
        if obj is None:
            mod = ir.Module(name="gradcli_native")
            mod.triple = tm.triple
            for kind, types in LOOPS:
                native_fma.loop_ir(ir, mod, kind, types)
            for kind in UNARY:
                unary_ir(ir, mod, kind, kind)
            for kind in UNARY32:
                unary32_ir(ir, mod, kind, kind)
            for kind in BINARY:
                binary_ir(ir, mod, kind)
            for names in (*ACT1.values(), *ACT2.values()):
                for name in filter(None, names):
                    act_ir(ir, mod, name)
            ternary32_ir(ir, mod, "fma32h")
            for name in STEPS:
                moments_ir(ir, mod, name, name.endswith("_f"))
            for name in ADAM:
                adam_param_ir(ir, mod, name, name.endswith("_f"))
            for char, name in ADAM_STEP.items():
                adam_step_ir(ir, mod, name, char == "f", ADAM_PARAMS)
            for char, name in SGD_STEP.items():
                sgd_step_ir(ir, mod, name, char == "f", SGD_PARAMS)
            for (op, char), name in SCALED_STEP.items():
                scaled_step_ir(ir, mod, name, char == "f", op)
            for char, name in POOL_MAX.items():
                pool_max_ir(ir, mod, name, char == "f")
            for char, name in POOL_SCATTER.items():
                pool_scatter_ir(ir, mod, name, char == "f")
            for char, name in KEPT.items():
                kept_ir(ir, mod, name, char == "f")
            for char, name in RELU.items():
                kept_ir(ir, mod, name, char == "f", strict=True)
            for width, name in ROWS.items():
                rows_ir(ir, mod, name, width)
            for names, make in (
                (OUTER_SUM, outer_sum_ir),
                (TANH_BACKWARD, tanh_backward_ir),
                (GRU_BACKWARD, gru_backward_ir),
                (GRU_FORWARD, gru_forward_ir),
                (LSTM_BACKWARD, lstm_backward_ir),
                (LSTM_FORWARD, lstm_forward_ir),
                (LANE_MERGE, lane_merge_ir),
                (WELFORD, welford_ir),
                (VAR_ROWS, var_rows_ir),
            ):
                for char, name in names.items():
                    make(ir, mod, name, char == "f")
            bn_ir(ir, mod, BN_FORWARD, BN_BACKWARD)
            bernoulli_ir(ir, mod, BERNOULLI)
            softmax_ir(ir, mod, SOFTMAX)
            native_alloc.ir_functions(ir, mod)
            chain_ir(ir, mod, "chain32", LANES)
            for char, name in CHAINS.items():
                fma_chain_ir(ir, mod, name, char == "f")
            for char, name in CHUNK_SUMS.items():
                chunk_sums_ir(ir, mod, name, char == "f")
            m = llvm.parse_assembly(str(mod))
            m.verify()
            m.link_in(sums_module(llvm, ir, tm, SUMS))  # (its own passes first)
            # code generation alone (LLVM's optimising pipeline would make the scalar
            # loops 2-5x faster but costs 180 ms more: more than the whole emulation of
            # many programs)
            obj = tm.emit_object(m)
            _write_cache(path, stamp + obj)
        got = native_elf.load(obj, _buffer_address)
        if got is not None:
            return got
        engine = llvm.create_mcjit_compiler(llvm.parse_assembly(""), tm)
        engine.add_object_file(llvm.ObjectFileRef.from_data(obj))
        engine.finalize_object()
        names = [f"{k}_{t}" for k, t in LOOPS] + [*UNARY, *UNARY32, *BINARY, "fma32h", "chain32"]
        names += STEPS + ADAM + tuple(ADAM_STEP.values()) + tuple(SGD_STEP.values())
        names += [*SCALED_STEP.values()]
        names += [k for names in (*ACT1.values(), *ACT2.values()) for k in names if k]
        names += [*SUMS.values(), *CHAINS.values(), *CHUNK_SUMS.values()]
        names += [*POOL_MAX.values(), *POOL_SCATTER.values(), *KEPT.values(), *ROWS.values()]
        names += [*RELU.values(), *SOFTMAX.values(), *native_alloc.NAMES]
        names += [*OUTER_SUM.values(), *TANH_BACKWARD.values(), *LANE_MERGE.values()]
        names += [*WELFORD.values(), *GRU_BACKWARD.values(), *GRU_FORWARD.values()]
        names += [*VAR_ROWS.values()]
        names += [*LSTM_BACKWARD.values(), *LSTM_FORWARD.values()]
        names += [*BN_FORWARD.values(), *BN_BACKWARD.values(), BERNOULLI]
        return engine, {name: engine.get_function_address(name) for name in names}


def _features(host):
    """The host CPU's features for LLVM without AVX-512 and its successors: the loops are
    scalar IEEE arithmetic with the fused step, the same results and about the same speed
    with VEX encodings, and these run under valgrind (scripts/icount.py), whose decoder
    refuses EVEX-encoded instructions (LLVM picks AVX-512's mask compares on such a CPU)."""
    wide = ("avx512", "avx10", "amx", "evex512")
    return ",".join(("+" if on and not k.startswith(wide) else "-") + k for k, on in host.items())


def _buffer_address(buf):
    """The address of a writable buffer's first byte (native_elf's mapping)."""
    return ctypes.addressof(ctypes.c_char.from_buffer(buf))


def _machine():
    """This CPU as the cached object code depends on it (its architecture, model and
    instruction set extensions, from /proc/cpuinfo), or None where that cannot be read."""
    try:
        with open("/proc/cpuinfo", encoding="utf-8", errors="replace") as f:
            text = f.read(1 << 20)
    except OSError:
        return None
    model = flags = ""
    for line in text.splitlines():
        k, _, v = line.partition(":")
        k = k.strip()
        if k == "model name" and not model:
            model = v.strip()
        elif k == "flags" and not flags:
            flags = v.strip()
        if model and flags:
            break
    if not flags:
        return None
    return blake2b(f"{os.uname().machine} {model} {flags}".encode(), digest_size=10).hexdigest()


def _read_cache(path, stamp):
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    return data[len(stamp) :] if data.startswith(stamp) else None


def _write_cache(path, data):
    """Save the object code (an unwritable cache costs the compilation again, nothing else)."""
    try:
        os.makedirs(os.path.dirname(path), exist_ok=True)
        tmp = f"{path}.{os.getpid()}.tmp"
        with open(tmp, "wb") as f:
            f.write(data)
        os.replace(tmp, path)
    except OSError:
        pass


def chain32(lib, a, offsets, strides, shape, b, acc):
    """`native_chain.chain_ir`'s chains on acc (R, V) float32 in place: R a multiple of CHAIN_ROWS
    and V of LANES; b (positions, V) float32 C-contiguous, the positions those of shape
    (images, rows, columns); a a float32 array read at its first element plus strides
    (per image, row and column) and offsets (R int64 values), all in elements."""
    n = shape[0] * shape[1] * shape[2]
    R, V = acc.shape
    params = np.array((n, shape[2], shape[1], *strides, R // CHAIN_ROWS, V // LANES), np.int64)
    lib.chain32(address(params), address(a), address(offsets), address(b), address(acc))


def _operand(x, shape, f32_ok):
    """(element type letter, array, stride) for one operand of a step of this shape:
    one value broadcast (stride 0), or the values in C order (stride 1)."""
    if type(x) is not np.ndarray or x.dtype is not D and not (f32_ok and x.dtype is F):
        x = np.asarray(x, dtype=D)
    if x.size == 1:
        if not x.flags.c_contiguous:
            x = x.copy()
        return ("f" if x.dtype is F else "d"), x, 0
    if x.shape != shape or not x.flags.c_contiguous:
        x = np.ascontiguousarray(np.broadcast_to(x, shape))
    return ("f" if x.dtype is F else "d"), x, 1


def _broadcast_shape(a, b, c):
    """np.broadcast_shapes of the operands' shapes, without its cost (7 us, more than the
    compiled step on a small array) where they are one shape and numbers."""
    shape = ()
    for x in (a, b, c):
        s = x.shape if type(x) is np.ndarray else np.shape(x)
        if s and s != shape:
            if shape:
                return np.broadcast_shapes(np.shape(a), np.shape(b), np.shape(c))
            shape = s
    return shape


def fused(lib, kind, a, b, c):
    """(result, flags or None): the compiled loop's fused step over a, b, c broadcast
    together (float64 results for fma64, float32 for fma32); flags marks the elements
    the caller must compute with its emulation (None when there are none)."""
    shape = _broadcast_shape(a, b, c)
    n = prod(shape)
    f32 = kind == "fma32"
    _, xa, sa = _operand(a, shape, False)
    tb, xb, sb = _operand(b, shape, f32)
    tc, xc, sc = _operand(c, shape, f32)
    out = np.empty(shape, F if f32 else D)
    flags = np.empty(shape, np.bool_)
    at = (address(xa), address(xb), address(xc), address(out), address(flags))
    k = lib.fns[kind, tb + tc](1, n, *at, sa, sb, sc, 0, 0, 0, 1, 0, 0, 0)
    return out, (flags if k else None)


#: flags of `quick`'s steps (read only when the loop flags a value) and their address,
#: kept between calls; its scalars as one-value arrays and their addresses, by value
_quick = {"flags": None, "at": 0, "n": 0}
_quick_scalars: dict = {}
_SCALARS = (float, np.float64, np.float32)


def _scalar_operand(x, dt):
    """(x as a one-value array of dt, its address), kept for the next step of the same
    value (an optimizer's options, a kernel's coefficients: few values; keyed by the
    value's type too, since -0.0 == 0.0, and its sign bit is in the array)."""
    key = (x, type(x), math.copysign(1.0, x), dt)
    got = _quick_scalars.get(key)
    if got is None:
        if len(_quick_scalars) >= 256:
            _quick_scalars.clear()  # (the caller holds what it took before)
        arr = np.array(x, dt)
        got = _quick_scalars[key] = (arr, address(arr))
    return got


def quick(kind, a, b, c):
    """The compiled loop's fused step (kind "fma64" or "fma32") on the operands of a
    small step, with little of `fused`'s work around the call: each operand an array of
    the loop's element types (a double for a; doubles, or floats for fma32's b and c) or a
    Python, NumPy double or float scalar (a float32 one kept a float for fma32's b and
    c).  Arrays of the step's shape, C-contiguous, or of one value take the plain walk;
    others (broadcast from fewer or one-sized dims, or strided views) are walked where
    their dims fold into three (`native_fma.walk`, as TensorIterator coalesces them): each value is
    its own fused step, so any walk gives the same bits.  None when the loops are not
    loaded, an operand is not such, the shapes do not broadcast or fold, all are numbers
    or 0-d arrays (`fma` rounds their exact value), or a value is flagged (the caller's
    general step then computes the whole step: the same bits)."""
    lib = _state["lib"]
    if not lib:
        return None
    f32 = kind == "fma32"
    shape = None
    ones = 0  # the most dims of a one-value array (it broadcasts to the step's shape)
    addrs, strides, types = [], [], ""
    held = []  # (arrays made here, alive through the call)
    walked = False  # an array not of the step's shape or not C-contiguous
    ops = []
    for k, x in enumerate((a, b, c)):
        t = type(x)
        if t is np.ndarray:
            dt = x.dtype
            if dt is not D and not (f32 and k and dt is F):
                if k or dt is not F:
                    return None
                x = x.astype(D)  # (fma32's a: its float values, exact as doubles)
                held.append(x)
                dt = D
            ops.append(x)
            if x.size == 1:
                if x.ndim > ones:
                    ones = x.ndim
                strides.append(0)
            else:
                if shape is None:
                    shape = x.shape
                elif x.shape != shape:
                    walked = True
                if not x.flags.c_contiguous:
                    walked = True
                strides.append(1)
            addrs.append(address(x))
        elif t in _SCALARS:
            dt = F if f32 and k and t is np.float32 else D
            arr, at = _scalar_operand(x, dt)
            held.append(arr)
            ops.append(arr)
            addrs.append(at)
            strides.append(0)
        else:
            return None
        if k:
            types += "f" if dt is F else "d"
    if walked:
        walk = native_fma.walk(ops)
        if walk is None:
            return None
        shape, planes, per, cols, strides, row_strides, plane_strides = walk
        rows = planes * per
        n = rows * cols
    else:
        if shape is None:
            if not ones:  # numbers and 0-d arrays: fma's exact rounding of the numbers
                return None
            shape = (1,) * ones
        elif ones > len(shape):
            return None
        n = 1
        for s in shape:
            n *= s
        rows, cols, row_strides = 1, n, (0, 0, 0)
        per, plane_strides = 1, (0, 0, 0)
    out = np.empty(shape, F if f32 else D)
    if not n:
        return out
    q = _quick
    if q["n"] < n:
        q["flags"] = np.empty(max(n, 256), np.bool_)
        q["n"], q["at"] = q["flags"].size, address(q["flags"])
    xa, xb, xc = addrs
    sa, sb, sc = strides
    ra, rb, rc = row_strides
    qa, qb, qc = plane_strides
    fn = lib.fns[kind, types]
    if fn(rows, cols, xa, xb, xc, address(out), q["at"], sa, sb, sc, ra, rb, rc, per, qa, qb, qc):
        return None
    return out


def act(name, dt, *xs, exact=None):
    """ACT1's or ACT2's kernel `name` of the C-contiguous arrays xs (one shape, float32
    or float64 dt: the loops' own dtype) as `unary`'s (exact(values) for the flagged
    ones), or None where the loops are not loaded (or should not be yet: `ready`)."""
    if dt is not D and dt is not F:
        return None
    lib = ready(xs[0].size)
    if lib is None:
        return None
    pair = ACT1.get(name) or ACT2[name]
    k = pair[0] if dt is D else pair[1]
    if k is None:
        return None
    fn = lib.unary[k] if len(xs) == 1 else lib.binary[k]
    return _lanes(fn, xs, exact)


def unary(lib, kind, x, exact=None):
    """The whole kernel KIND (UNARY: float64, UNARY32: float32) of the contiguous array
    x.  The values the kernel flags (its emulation might differ there) are exact(those
    values), NumPy's emulation of the kernel, element by element (a 0-d array whose
    value the kernel marks in any way: exact(x)); without `exact`, None where any value
    is flagged."""
    return _lanes(lib.unary[kind], (x,), exact)


def binary(lib, kind, x, y, exact=None):
    """The whole kernel KIND (BINARY) of the contiguous arrays x and y (one shape and
    dtype), as `unary` (exact(x values, y values) for the flagged ones)."""
    return _lanes(lib.binary[kind], (x, y), exact)


def _lanes(fn, xs, exact):
    x = xs[0]
    n = x.size
    out = np.empty(x.shape, x.dtype)
    whole = n - n % LANES  # (the loops take whole vectors)
    q = _unary_flags
    if q["n"] < whole + LANES:
        q["flags"] = np.empty(max(whole + LANES, 4096), np.uint8)
        q["n"], q["at"] = q["flags"].size, address(q["flags"])
    flags, at = q["flags"], q["at"]
    bad = bool(whole and fn(whole, *(address(v) for v in xs), address(out), at))
    if whole < n:  # the rest in a vector of its own, padded with its first value
        tails = []
        for v in xs:
            flat = v.reshape(-1)
            tail = np.full(LANES, flat[whole], x.dtype)
            tail[: n - whole] = flat[whole:]
            tails.append(tail)
        res = np.empty(LANES, x.dtype)
        if fn(LANES, *(address(t) for t in tails), address(res), at + whole):
            bad = True
        out.reshape(-1)[whole:] = res[: n - whole]
    if x.ndim == 0 and flags[0]:  # (a step NumPy computes otherwise for 0-d operands)
        return None if exact is None else exact(*xs)
    if bad:
        if exact is None:
            return None
        idx = np.flatnonzero(flags[:n] & 1)
        out.reshape(-1)[idx] = exact(*(v.reshape(-1)[idx] for v in xs))
    return out


#: the kernels' flag bytes (read only when a value is flagged or for a 0-d array) and
#: their address, kept between calls
_unary_flags = {"flags": None, "at": 0, "n": 0}


def function_address(f):
    """The address of a ctypes function pointer (a library's function a loop calls)."""
    return ctypes.cast(f, ctypes.c_void_p).value


def loaded():
    """The compiled loops when they are loaded now, else None (nothing is compiled or
    loaded here)."""
    return _state["lib"] or None
