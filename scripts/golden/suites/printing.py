"""Record PyTorch's exact tensor reprs as golden data for gradcli.core.printing.

Run with the torch venv (torch is never a dependency of gradcli itself):

    $TORCH_PYTHON scripts/gen_golden.py printing

Writes tests/golden/printing.json: a list of cases, each with

    name           short description, unique
    values         the tensor's values as nested lists (tolist()); non-finite
                   floats are the strings "nan", "inf", "-inf"
    shape          list of ints
    dtype          NumPy dtype name ("float64", "int64", "bool", ...)
    grad_fn        backward node class name, or null
    requires_grad  bool (the tensor's flag; for non-leaves it is True too)
    precision      torch.set_printoptions(precision=...)
    linewidth      torch.set_printoptions(linewidth=...)
    default_dtype  torch.set_default_dtype(...) as a NumPy name
    repr           repr(tensor) as printed by torch

All inputs come from explicit lists or a seeded NumPy generator, so the file
is reproducible; the values stored are read back from the final torch tensor,
so they are exactly what was printed.
"""

from __future__ import annotations

import math
import os
import sys

import numpy as np
import torch

from golden.record import write


NAN, INF = float("nan"), float("inf")

_TORCH_DEFAULT = {"float64": torch.float64, "float32": torch.float32}

# Operations used to give a tensor a grad_fn.  Each keeps the values
# meaningful; the values recorded are the result's.
_OPS = {
    "mul1": lambda t: t * 1,
    "add0": lambda t: t + 0,
    "neg": lambda t: -t,
    "clone": lambda t: t.clone(),
    "exp": lambda t: t.exp(),
    "tanh": lambda t: t.tanh(),
    "sum": lambda t: t.sum(),
    "mean": lambda t: t.mean(),
    "view": lambda t: t.view(t.shape),
    "t": lambda t: t.t(),
    "pow2": lambda t: t**2,
}


def encode(v):
    """tolist() output -> JSON-safe nested lists."""
    if isinstance(v, list):
        return [encode(x) for x in v]
    if isinstance(v, float) and not math.isfinite(v):
        return "nan" if math.isnan(v) else ("inf" if v > 0 else "-inf")
    return v


class Recorder:
    def __init__(self):
        self.cases = []
        self.names = set()

    def add(
        self,
        name,
        values,
        dtype="float64",
        *,
        shape=None,
        requires_grad=False,
        op=None,
        precision=4,
        linewidth=80,
        default_dtype="float64",
    ):
        """Record one case.  ``values`` is anything np.array accepts;
        ``op`` (a key of _OPS) makes a non-leaf with a grad_fn."""
        if name in self.names:
            raise ValueError(f"duplicate case name {name!r}")
        self.names.add(name)
        with np.errstate(over="ignore"):  # float16 fuzz may overflow to inf
            arr = np.array(values, dtype=dtype)
        if shape is not None:
            arr = arr.reshape(shape)
        torch.set_default_dtype(_TORCH_DEFAULT[default_dtype])
        torch.set_printoptions(profile="default")
        torch.set_printoptions(precision=precision, linewidth=linewidth)
        try:
            t = torch.from_numpy(arr.copy())
            if requires_grad or op is not None:
                t.requires_grad_()
            if op is not None:
                t = _OPS[op](t)
            text = repr(t)
            grad_fn = type(t.grad_fn).__name__ if t.grad_fn is not None else None
            result = t.detach().numpy()
        finally:
            torch.set_printoptions(profile="default")
            torch.set_default_dtype(torch.float64)
        self.cases.append(
            {
                "name": name,
                "values": encode(result.tolist()),
                "shape": list(result.shape),
                "dtype": str(result.dtype),
                "grad_fn": grad_fn,
                "requires_grad": bool(t.requires_grad),
                "precision": precision,
                "linewidth": linewidth,
                "default_dtype": default_dtype,
                "repr": text,
            }
        )


def build(rec: Recorder) -> None:  # noqa: C901
    rng = np.random.default_rng(20260509)
    add = rec.add

    # ---- basics: fixed / int mode / 0-d ---------------------------------
    add("int_mode_1d", [1.0, 2.0, 3.0])
    add("int_mode_neg", [-1.0, 20.0, -300.0])
    add("fixed_1d", [1.5, 2.25, -3.125])
    add("fixed_tenths", [0.1, 0.2, 0.3])
    add("fixed_single", [0.5])
    add("scalar_int_mode", 27.0)
    add("scalar_fixed", 3.14159265)
    add("scalar_neg", -2.5)
    add("scalar_zero", 0.0)
    add("scalar_negzero", -0.0)
    add("scalar_nan", NAN)
    add("scalar_inf", INF)
    add("scalar_neginf", -INF)
    add("scalar_tiny", 1e-5)
    add("scalar_huge", 1e9)
    add("scalar_1e8", 1e8)
    add("scalar_big_int", 123456789.0)
    add("scalar_int64", 7, "int64")
    add("scalar_int64_neg", -123456789012, "int64")
    add("scalar_bool_true", True, "bool")
    add("scalar_bool_false", False, "bool")
    add("scalar_float32", 27.0, "float32")
    add("scalar_float32_frac", 0.1, "float32")
    add("scalar_int32", 5, "int32")
    add("scalar_uint8", 255, "uint8")
    add("scalar_float16", 1.5, "float16")
    add("single_elem_1d", [42.0])
    add("single_elem_2d", [[42.0]])
    add("single_elem_3d", [[[-0.5]]])

    # ---- sci-mode thresholds --------------------------------------------
    thresholds = {
        "min_1e-4": [1e-4, 0.05],
        "min_below_1e-4": [9.99e-5, 0.05],
        "min_1e-5": [1e-5, 0.5],
        "min_1e-5_alone": [1e-5],
        "min_0.0001_alone": [0.0001],
        "max_1e8": [1e8, 1e6],
        "max_1e8_alone": [1e8],
        "max_1e8_plus1": [100000001.0],
        "max_above_1e8": [1.5e8, 2e8],
        "max_99999999": [99999999.0, 12345678.0],
        "ratio_1000": [1.0, 1000.0],
        "ratio_1000_frac": [0.5, 500.0],
        "ratio_1001": [1.0, 1001.0],
        "ratio_1000_5": [1.0, 1000.5],
        "ratio_999": [1.0, 999.0, 0.0],
        "ratio_exact_frac": [0.001, 1.0],
        "ratio_over_frac": [0.000999, 1.0],
        "mixed_mag": [1e-3, 1.0, 1e3],
        "mixed_mag2": [0.5, 12345.678],
        "mixed_mag3": [-1e-10, 1e10],
        "tiny_all": [1e-300, 2e-300],
        "huge_all": [1e300, -1e300],
        "extreme_range": [5e-324, 1.7976931348623157e308],
        "subnormal": [5e-324],
        "big_ints": [123456789.0, 2.0],
        "big_int_1e15": [1e15, 1.0],
        "int_1e9_only": [1e9, 2e9],
        "just_fixed_ratio": [0.1, 100.0],
        "fixed_hundreds": [100.25, 999.5, 0.9999],
    }
    for key, vals in thresholds.items():
        add("thr_" + key, vals)
        # float32 twin, when float32 can hold the values (no overflow/underflow)
        if all(v == 0 or 1e-38 < abs(v) < 3e38 for v in vals):
            add("thr_" + key + "_f32", vals, "float32")

    # ---- rounding edges --------------------------------------------------
    add("round_9_99995", [9.99995, 1.0])
    add("round_0_99995", [0.99995, 0.5])
    add("round_99999_5", [99999.5, 1.5])
    add("round_half_even", [0.00005, 0.00015, 0.00025])
    add("round_1_00005", [1.00005, 2.00015, 3.00025])
    add("round_sci_9_99995e5", [9.99995e5, 1e-3])
    add("round_sci_carry", [9.99999e-7, 1.0])
    add("round_fixed_neg_zero", [-0.00004, 0.0004, 0.2])  # sci due to min
    add("round_neg_small_fixed", [-0.00012, 0.1])
    add("round_neg_small_prec2", [-0.001, 0.5], precision=2)
    add("round_neg_small_prec1", [-0.04, 0.5], precision=1)

    # ---- zeros, negative zero --------------------------------------------
    add("zeros", [0.0, 0.0, 0.0])
    add("zeros_2d", np.zeros((2, 3)))
    add("negzero_only", [-0.0])
    add("negzero_pos", [-0.0, 0.0])
    add("negzero_int_mode", [-0.0, 1.0])
    add("negzero_int_mode_wide", [-0.0, 100.0])
    add("negzero_fixed", [-0.0, 1.5])
    add("negzero_sci", [-0.0, 1e-5])
    add("negzero_sci2", [-0.0, 1e-5, 1e5])
    add("zero_and_fixed", [0.0, 0.25])
    add("zero_and_sci", [0.0, 1e10])
    add("negzero_f32", [-0.0, 2.0], "float32")

    # ---- nan / inf ---------------------------------------------------------
    nonfinite = {
        "nan": [NAN],
        "inf": [INF],
        "ninf": [-INF],
        "nan_inf": [NAN, INF, -INF],
        "nan_zero": [NAN, 0.0],
        "nan_one": [1.0, NAN],
        "nan_int": [NAN, 100.0, -5.0],
        "inf_int": [INF, 2.0],
        "ninf_int": [-INF, 2.0],
        "ninf_one_digit": [-INF, 0.0, 1.0],
        "nan_fixed": [NAN, 1.5],
        "inf_fixed": [INF, -0.25],
        "nan_sci": [NAN, 1e-7, 1.0],
        "ninf_sci": [-INF, 1e10],
        "all_nonfinite_zero": [NAN, INF, -INF, 0.0, -0.0],
        "inf_big_fixed": [INF, 123.456],
        "nan_wide_int": [NAN, 12345.0],
    }
    for key, vals in nonfinite.items():
        add("nf_" + key, vals)
    add("nf_2d", [[NAN, 1.0], [INF, -2.5]])
    add("nf_2d_int", [[NAN, 1.0], [INF, -2.0]])
    add("nf_f32", [NAN, INF, 1.5], "float32")
    add("nf_f16", [NAN, -INF, 1.0], "float16")

    # ---- integer and bool dtypes -----------------------------------------
    add("int64_1d", [1, 2, 3], "int64")
    add("int64_neg", [-1, 20, -300], "int64")
    add("int64_big", [2**62, -(2**62), 0], "int64")
    add("int64_2d", [[1, -2], [30, 400]], "int64")
    add("int64_3d", np.arange(24).reshape(2, 3, 4) - 12, "int64")
    add("int64_zeros", [0, 0], "int64")
    add("int32_1d", [1, -2, 3], "int32")
    add("int32_2d", [[1, 2], [3, 4]], "int32")
    add("int16_1d", [1, -2, 300], "int16")
    add("int8_1d", [1, -128, 127], "int8")
    add("uint8_1d", [0, 128, 255], "uint8")
    add("uint8_2d", [[0, 1], [2, 255]], "uint8")
    add("bool_1d", [True, False, True], "bool")
    add("bool_all_true", [True, True], "bool")
    add("bool_2d", [[True, False], [False, True]], "bool")
    add("bool_3d", rng.random((2, 2, 3)) > 0.5, "bool")
    add("float16_1d", [1.5, 2.0, -0.099976], "float16")
    add("float16_big", [65504.0, 1.0], "float16")
    add("float16_tiny", [6e-8, 1.0], "float16")
    for dt in ("uint16", "uint32", "uint64"):
        try:
            add(f"{dt}_1d", [0, 7, 65535], dt)
        except Exception as exc:  # pragma: no cover - depends on torch build
            print(f"skipping {dt}: {exc}", file=sys.stderr)
    add("int64_wide_row", np.arange(40) * 1000003 - 20000000, "int64")
    add("int32_wide_row", np.arange(30) * 77777, "int32")
    add("bool_wide_row", np.arange(30) % 3 == 0, "bool")

    # ---- float32 vs float64 vs default dtype -------------------------------
    for dd in ("float64", "float32"):
        add(f"dd_{dd}_f64", [1.5, 2.0], "float64", default_dtype=dd)
        add(f"dd_{dd}_f32", [1.5, 2.0], "float32", default_dtype=dd)
        add(f"dd_{dd}_f16", [1.5, 2.0], "float16", default_dtype=dd)
        add(f"dd_{dd}_i64", [1, 2], "int64", default_dtype=dd)
        add(f"dd_{dd}_i32", [1, 2], "int32", default_dtype=dd)
        add(f"dd_{dd}_bool", [True], "bool", default_dtype=dd)
        add(f"dd_{dd}_scalar_f64", 2.0, "float64", default_dtype=dd)
        add(f"dd_{dd}_scalar_f32", 2.0, "float32", default_dtype=dd)
        add(f"dd_{dd}_2d_f64", [[1.0, 2.5], [3.0, 4.0]], "float64", default_dtype=dd)
        add(f"dd_{dd}_2d_f32", [[1.0, 2.5], [3.0, 4.0]], "float32", default_dtype=dd)
        add(f"dd_{dd}_rg_f64", [1.0, 2.5], "float64", requires_grad=True, default_dtype=dd)
        add(f"dd_{dd}_rg_f32", [1.0, 2.5], "float32", requires_grad=True, default_dtype=dd)
        add(f"dd_{dd}_gf_f64", [1.0, 2.5], "float64", op="mul1", default_dtype=dd)
        add(f"dd_{dd}_gf_f32", [1.0, 2.5], "float32", op="mul1", default_dtype=dd)
        for dt in ("float64", "float32", "int64", "bool", "int32"):
            add(f"dd_{dd}_empty_{dt}", [], dt, default_dtype=dd)
            add(f"dd_{dd}_empty03_{dt}", [], dt, shape=(0, 3), default_dtype=dd)
    # float32 values that are not short in float64
    add("f32_tenths", [0.1, 0.2, 0.3], "float32")
    add("f32_third", [1 / 3, 2 / 3], "float32")
    add("f32_sci", [1e-7, 3.3, 1e9], "float32")
    add("f32_big_int", [16777217.0, 1.0], "float32")

    # ---- empty ------------------------------------------------------------
    for shape in [(0,), (0, 3), (3, 0), (0, 0), (2, 0, 4), (1, 0), (0, 1, 1, 1)]:
        tag = "x".join(map(str, shape))
        add(f"empty_{tag}", np.zeros(shape))
        add(f"empty_{tag}_i64", np.zeros(shape, dtype=np.int64), "int64")
        add(f"empty_{tag}_f32", np.zeros(shape, dtype=np.float32), "float32")
    add("empty_bool", [], "bool")
    add("empty_rg", [], requires_grad=True)
    add("empty_gf", [], op="mul1")
    add("empty_2d_gf_f32", np.zeros((0, 3)), "float32", op="mul1")
    add(
        "empty_2d_rg_f32_dd32",
        np.zeros((0, 3)),
        "float64",
        requires_grad=True,
        default_dtype="float32",
    )

    # ---- shapes with random values ----------------------------------------
    shapes = [
        (1,),
        (2,),
        (5,),
        (8,),
        (1, 1),
        (2, 2),
        (3, 4),
        (4, 3),
        (1, 5),
        (5, 1),
        (2, 3, 4),
        (3, 1, 2),
        (1, 1, 1),
        (2, 2, 2, 2),
        (1, 2, 1, 3),
        (2, 1, 2, 1, 2),
    ]
    scales = {"unit": 1.0, "milli": 1e-3, "micro": 1e-6, "kilo": 1e3, "mega": 1e6, "giga": 1e9}
    for shape in shapes:
        tag = "x".join(map(str, shape))
        for sname, scale in scales.items():
            vals = rng.standard_normal(shape) * scale
            add(f"rand_{tag}_{sname}", vals)
        add(f"rand_{tag}_f32", rng.standard_normal(shape).astype(np.float32), "float32")
        add(f"rand_{tag}_ints", rng.integers(-50, 50, shape).astype(np.float64))
        add(f"rand_{tag}_i64", rng.integers(-1000, 1000, shape), "int64")
        add(f"rand_{tag}_bool", rng.random(shape) < 0.5, "bool")
        add(f"rand_{tag}_pos", rng.random(shape) * 10)
        add(
            f"rand_{tag}_loguniform", 10.0 ** rng.uniform(-6, 9, shape) * rng.choice([-1, 1], shape)
        )

    # mixed nan/inf into random matrices
    for i in range(6):
        m = rng.standard_normal((3, 4)) * 10.0 ** rng.integers(-5, 6)
        mask = rng.random((3, 4))
        m[mask < 0.15] = NAN
        m[(mask >= 0.15) & (mask < 0.25)] = INF
        m[(mask >= 0.25) & (mask < 0.3)] = -INF
        add(f"rand_nonfinite_{i}", m)
        add(f"rand_nonfinite_{i}_f32", m.astype(np.float32), "float32")
    for i in range(4):
        m = rng.integers(-9, 10, (2, 5)).astype(np.float64)
        m[0, i] = NAN
        m[1, i + 1] = -INF
        add(f"rand_nonfinite_int_{i}", m)

    # ---- precision variants -----------------------------------------------
    prec_inputs = {
        "fixed": [1.23456789, -9.87654321, 0.5],
        "sci": [1.23456789e-7, 9.87654321e5],
        "int": [1.0, -2.0, 300.0],
        "big": [123.456789, 0.01],
        "nonfinite": [NAN, 1.23456789, -INF],
        "rounding": [0.95, 0.05, 9.5],
        "matrix": rng.standard_normal((3, 3)) * 100,
    }
    for p in (0, 1, 2, 3, 5, 6, 8, 10, 12):
        for key, vals in prec_inputs.items():
            add(f"prec{p}_{key}", vals, precision=p)
        add(f"prec{p}_scalar", 3.14159265358979, precision=p)
        add(f"prec{p}_f32", [1 / 3, 2.0], "float32", precision=p)
        add(f"prec{p}_sci_scalar", 6.02214076e23, precision=p)

    # ---- long rows and line wrapping --------------------------------------
    for n in (10, 11, 12, 13, 14, 15, 16, 20, 25, 30, 50, 100):
        add(f"wrap_fixed_{n}", rng.standard_normal(n))
    for n in (7, 8, 9, 10, 20):
        add(f"wrap_sci_{n}", rng.standard_normal(n) * 10.0 ** rng.integers(-8, 8, n))
    for n in (20, 25, 26, 27, 40):
        add(f"wrap_int_{n}", np.arange(n, dtype=np.float64))
    add("wrap_int_wide", np.arange(30, dtype=np.float64) * 12345.0)
    add("wrap_2d", rng.standard_normal((3, 15)))
    add("wrap_3d", rng.standard_normal((2, 2, 14)))
    add("wrap_4d", rng.standard_normal((2, 1, 2, 13)) * 1e-6)
    add("wrap_nan_int_mode", [NAN] + [1.0] * 40)
    add("wrap_nan_neg_inf", [-INF, NAN] + list(range(30)))
    for lw in (1, 10, 20, 40, 60, 100, 120, 200):
        add(f"lw{lw}_1d", rng.standard_normal(20), linewidth=lw)
        add(f"lw{lw}_2d", rng.standard_normal((3, 8)), linewidth=lw)
        add(
            f"lw{lw}_gf_f32",
            rng.standard_normal(6).astype(np.float32),
            "float32",
            op="mul1",
            linewidth=lw,
        )
        add(f"lw{lw}_scalar_f32_rg", 1.5, "float32", requires_grad=True, linewidth=lw)

    # ---- suffix wrapping: sweep lengths so the line boundary is crossed ---
    for n in range(1, 13):
        vals = np.round(rng.standard_normal(n) * 10, 4)
        add(f"sfx_f32_gf_{n}", vals.astype(np.float32), "float32", op="mul1")
        add(f"sfx_f32_rg_{n}", vals.astype(np.float32), "float32", requires_grad=True)
        add(f"sfx_f64_gf_{n}", vals, op="add0")
        add(f"sfx_f64_dd32_gf_{n}", vals, "float64", op="mul1", default_dtype="float32")
        add(f"sfx_i32_{n}", rng.integers(-99999, 99999, n), "int32")
    for rows in (2, 3):
        add(
            f"sfx_2d_f32_gf_{rows}",
            rng.standard_normal((rows, 7)).astype(np.float32),
            "float32",
            op="mul1",
        )
        add(
            f"sfx_2d_f32_rg_{rows}",
            rng.standard_normal((rows, 8)).astype(np.float32),
            "float32",
            requires_grad=True,
        )

    # ---- grad_fn variety ---------------------------------------------------
    base = [[0.5, -1.25], [2.0, 3.75]]
    for op in _OPS:
        add(f"op_{op}", base, op=op)
    add("op_sum_int_result", [[1.0, 2.0], [3.0, 4.0]], op="sum")
    add("op_mean_f32", [[1.0, 2.0], [3.0, 4.5]], "float32", op="mean")
    add("rg_leaf_2d", base, requires_grad=True)
    add("rg_leaf_scalar", 1.0, requires_grad=True)
    add("rg_leaf_3d", rng.standard_normal((2, 2, 2)), requires_grad=True)
    add("gf_scalar_f32_dd32", 2.5, "float32", op="mul1", default_dtype="float32")

    # ---- summarisation (numel > 1000) -------------------------------------
    add("sum_1001_int", np.arange(1001, dtype=np.float64))
    add("sum_1000_int_nosum", np.arange(1000, dtype=np.float64) * 0 + 1)
    add("sum_1001_i64", np.arange(1001), "int64")
    add("sum_2000_rand", np.round(rng.standard_normal(2000), 5))
    add("sum_1001_bool", np.arange(1001) % 2 == 0, "bool")
    add("sum_1001_f32", np.round(rng.standard_normal(1001), 4).astype(np.float32), "float32")
    add("sum_1001_gf", np.round(rng.standard_normal(1001), 4), op="mul1")
    add(
        "sum_1001_f32_gf",
        np.round(rng.standard_normal(1001), 4).astype(np.float32),
        "float32",
        op="mul1",
    )
    # hidden middle values must not affect the format
    mid = np.ones(1001)
    mid[500] = 1e-9
    mid[501] = 0.5
    add("sum_hidden_tiny", mid)
    mid2 = np.ones(1001)
    mid2[3] = 2.5
    add("sum_edge_frac", mid2)
    mid3 = np.arange(1001, dtype=np.float64)
    mid3[-1] = NAN
    mid3[0] = -INF
    add("sum_edge_nonfinite", mid3)
    add("sum_2d_40x40", np.round(rng.standard_normal((40, 40)), 5))
    add("sum_2d_1x1001", np.round(rng.standard_normal((1, 1001)), 5))
    add("sum_2d_1001x1", np.round(rng.standard_normal((1001, 1)), 5))
    add("sum_2d_3x334", np.arange(1002, dtype=np.float64).reshape(3, 334))
    add("sum_2d_6x200", np.arange(1200).reshape(6, 200), "int64")
    add("sum_2d_7x150", np.round(rng.standard_normal((7, 150)) * 1e5, 1))
    add("sum_2d_200x6", np.round(rng.standard_normal((200, 6)), 3))
    add("sum_3d_2x3x200", np.round(rng.standard_normal((2, 3, 200)), 4))
    add("sum_3d_10x10x11", np.arange(1100, dtype=np.float64).reshape(10, 10, 11))
    add("sum_3d_11x10x10_sci", np.round(rng.standard_normal((11, 10, 10)), 3) * 1e-5)
    add("sum_4d_7x7x7x7", np.arange(2401).reshape(7, 7, 7, 7), "int64")
    add("sum_4d_2x2x2x130_bool", rng.random((2, 2, 2, 130)) < 0.3, "bool")
    add(
        "sum_4d_7x7x7x7_f32",
        np.round(rng.standard_normal((7, 7, 7, 7)), 3).astype(np.float32),
        "float32",
    )
    add("sum_2d_40x40_prec2", np.round(rng.standard_normal((40, 40)), 5), precision=2)
    add("sum_2d_40x40_lw40", np.round(rng.standard_normal((40, 40)), 5), linewidth=40)
    add("sum_1d_lw20", np.arange(1001, dtype=np.float64) * 1000.5, linewidth=20)
    add("sum_big_i64", np.arange(1001) * 10**15, "int64")
    add("sum_dd32_f64", np.round(rng.standard_normal(1001), 3), "float64", default_dtype="float32")

    # ---- multi-dimensional blocks -----------------------------------------
    add("blocks_3d_int", np.arange(18, dtype=np.float64).reshape(2, 3, 3))
    add("blocks_4d_int", np.arange(16, dtype=np.float64).reshape(2, 2, 2, 2))
    add("blocks_5d", np.arange(32, dtype=np.float64).reshape(2, 2, 2, 2, 2) / 8)
    add("blocks_6d_i64", np.arange(64).reshape(2, 2, 2, 2, 2, 2), "int64")
    add("blocks_3d_single", np.arange(6, dtype=np.float64).reshape(1, 2, 3))
    add("blocks_3d_rg", np.arange(8, dtype=np.float64).reshape(2, 2, 2) / 3, requires_grad=True)
    add(
        "blocks_3d_gf_f32",
        np.arange(8, dtype=np.float32).reshape(2, 2, 2) / 3,
        "float32",
        op="mul1",
    )

    # ---- seeded fuzz: random shape/dtype/magnitudes/specials/options -------
    fuzz_dtypes = [
        "float64",
        "float64",
        "float64",
        "float32",
        "float32",
        "float16",
        "int64",
        "int32",
        "bool",
    ]
    specials = [0.0, -0.0, NAN, INF, -INF, 1.0, -1.0, 1e-4, 1e8]
    for i in range(150):
        ndim = int(rng.integers(0, 5))
        shape = tuple(int(n) for n in rng.integers(1, 6, ndim))
        dt = fuzz_dtypes[int(rng.integers(len(fuzz_dtypes)))]
        if dt == "bool":
            vals = rng.random(shape) < 0.5
        elif dt.startswith("int"):
            vals = rng.integers(
                -(10 ** int(rng.integers(1, 10))), 10 ** int(rng.integers(1, 10)), shape
            )
        else:
            lo, hi = sorted(rng.integers(-7, 10, 2))
            vals = 10.0 ** rng.uniform(lo, hi, shape) * rng.choice([-1.0, 1.0], shape)
            if rng.random() < 0.4:  # integral floats
                vals = np.round(vals)
            vals = np.asarray(vals, dtype=np.float64)
            mask = rng.random(shape) < 0.2
            vals[mask] = rng.choice(specials, int(mask.sum()))
        flag = int(rng.integers(3))
        add(
            f"fuzz_{i}",
            vals,
            dt,
            requires_grad=flag == 1 and dt.startswith("float"),
            op="mul1" if flag == 2 and dt.startswith("float") else None,
            precision=int(rng.choice([4, 4, 4, 2, 6])),
            linewidth=int(rng.choice([80, 80, 80, 50, 120])),
            default_dtype=str(rng.choice(["float64", "float64", "float32"])),
        )


def main(argv) -> None:
    rec = Recorder()
    build(rec)
    path = write("printing.json", rec.cases, indent=None, separators=(",", ":"))
    print(f"wrote {len(rec.cases)} cases to {os.path.normpath(path)}")
