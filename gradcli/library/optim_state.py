"""An optimizer's state_dict() and load_state_dict(), as torch.optim.Optimizer's: the
groups with each parameter replaced by its index (in the order of the groups), and the
state of each parameter that has one under that index; `opt.state` as torch shows it.

optim.py's own steps keep a parameter's state as their arithmetic wants it (the step
count a Python float, arrays, NumPy scalars): here it becomes what torch keeps, 0-dim
tensors of torch's scalar dtype (float64 when the default dtype is float64, float32
otherwise) for the step, tensors for the rest; loading casts every tensor but the step
to its parameter's dtype, as torch does."""

from __future__ import annotations

import copy
from collections import defaultdict

import numpy as np

from ..core.tensor import Tensor
from ..runtime import context
from ..runtime.errors import GradTypeError, GradValueError

#: keys of optim.py's state that torch's has not (the dtype its 0-dim tensors have)
PRIVATE = ("sdt",)


def scalar_dtype():
    """torch's _get_scalar_dtype(): the dtype of the optimizers' 0-dim state tensors."""
    return np.float64 if context.current.default_float == np.float64 else np.float32


def _packed(st):
    out = {}
    for key, v in st.items():
        if key in PRIVATE:
            continue
        if key == "step" and isinstance(v, float):
            v = Tensor(np.array(v, dtype=scalar_dtype()))
        elif isinstance(v, (np.ndarray, np.generic)):
            v = Tensor(np.array(v))
        out[key] = v
    return out


def state_view(opt):
    """`opt.state` as torch's: a defaultdict(dict) from each parameter to its state.  The
    library's own steps keep theirs apart, as their arithmetic wants it (optim.py `kept`):
    it is shown packed as state_dict() packs it (copies, in the groups' order), beside what
    a program's own step keeps in `opt.state` (the dict itself when there is nothing else)."""
    if not any(opt.kept.values()):
        return opt.state
    out = defaultdict(dict)
    for group in opt.param_groups:
        for p in group["params"]:
            st = opt.kept.get(id(p))
            if st and p not in out:
                out[p] = _packed(st)
    out.update(opt.state)
    return out


def state_dict(opt):
    index, groups = {}, []
    for group in opt.param_groups:
        packed = {k: v for k, v in group.items() if k != "params"}
        for p in group["params"]:
            index.setdefault(id(p), len(index))
        packed["params"] = [index[id(p)] for p in group["params"]]
        groups.append(packed)
    state = {}
    for key, st in opt.kept.items():  # the library's steps
        if key in index and st:
            state[index[key]] = _packed(st)
    for p, st in opt.state.items():  # a program's own step
        state[index.get(id(p), p)] = st
    return {"state": state, "param_groups": groups}


def load_state_dict(opt, sd, library_step):
    if not isinstance(sd, dict):
        raise GradTypeError(f"'{type(sd).__name__}' object is not a mapping")
    groups, saved = (
        opt.param_groups,
        copy.deepcopy([{k: v for k, v in g.items() if k != "params"} for g in sd["param_groups"]]),
    )
    saved_params = [g["params"] for g in sd["param_groups"]]
    if len(groups) != len(saved):
        raise GradValueError("loaded state dict has a different number of parameter groups")
    if any(len(g["params"]) != len(s) for g, s in zip(groups, saved_params)):
        raise GradValueError(
            "loaded state dict contains a parameter group that doesn't match the size of "
            "optimizer's group"
        )
    id_map = {i: p for g, s in zip(groups, saved_params) for i, p in zip(s, g["params"])}
    opt.kept.clear()
    opt.state.clear()
    for k, st in sd["state"].items():
        p = id_map.get(k)
        if p is None:
            opt.state[k] = st
            continue
        dt = p.data.dtype.type
        cast = {
            key: v
            if not isinstance(v, Tensor) or key == "step"
            else Tensor(v.data.astype(dt) if np.issubdtype(dt, np.floating) else v.data.copy())
            for key, v in st.items()
        }
        if not library_step:
            opt.state[p] = cast
            continue
        kept = {}
        for key, v in cast.items():
            if isinstance(v, Tensor):
                if key == "step":
                    v = float(v.data)
                elif v.data.ndim == 0:  # NAdam's mu_product, ASGD's eta and mu
                    kept["sdt"] = v.data.dtype.type
                    v = v.data.dtype.type(v.data)
                else:
                    v = v.data
            kept[key] = v
        if "sdt" in kept:  # (after the values, where optim.py's steps keep it)
            kept["sdt"] = kept.pop("sdt")
        opt.kept[id(p)] = kept
    for g, new in zip(groups, saved):
        new["params"] = g["params"]
    opt.param_groups = saved
