"""What the backward engine reports beyond .grad: a trace hook and a record of the
gradients that flowed.

- `TRACER`: None, or a callable(node, g, in_grads) that the engine calls for each
  node it runs (`set_tracer`: library/trace.py's for `backward ..., trace=true`);
  the engine reads it once per pass, so it costs nothing when off.
- `active()`: the tracer of a pass: TRACER, inside anomaly mode's check of each node's
  gradients when the run has it on (torch.autograd.detect_anomaly).
- `FLOWS`: the flow record of the last FLOW_KEEP backward passes through graphs
  of at most FLOW_NODES nodes (no autograd.grad-style capture, no create_graph):
  [(pass number, {id(node): the gradient that flowed into it, or its shape if it
  has more than FLOW_SMALL elements})].  Each node the pass runs gets the pass's
  number (`fpass`); graph(y, values=true) reads the latest pass through y's node
  back.  Keyed by id, the record keeps no graph alive; a node's id is its own
  while the node lives, so a graph reached from a node of pass p (all of it alive
  since p) reads its own entries.
"""

from __future__ import annotations

import numpy as np

from ..core.tensor import Tensor
from ..runtime import context
from ..runtime.errors import GradRuntimeError

TRACER = None
FLOWS: list = []
FLOW_KEEP = 4
FLOW_SMALL = 1024
FLOW_NODES = 10000  # bigger graphs are not recorded
_passes = [0]


def set_tracer(tracer):
    """The engine calls `tracer` (or None: nothing) for each node from now on; returns
    the tracer it called before (to set back)."""
    global TRACER
    prev, TRACER = TRACER, tracer
    return prev


def start_flow(nodes: int):
    """(pass number, its record) for a backward pass through `nodes` nodes, or None
    if too big."""
    if not 0 < nodes <= FLOW_NODES:
        return None
    _passes[0] += 1
    rec: tuple = (_passes[0], {})
    FLOWS.append(rec)
    if len(FLOWS) > FLOW_KEEP:
        del FLOWS[0]
    return rec


def flow_record(number):
    """The record of pass `number`, if it is one of the last FLOW_KEEP."""
    for n, rec in reversed(FLOWS):
        if n == number:
            return rec
    return None


def active():
    """The tracer the engine calls in a pass now: TRACER, or, in anomaly mode with its
    NaN check (context.anomaly), TRACER after the check of each node's gradients."""
    on, check_nan = mode = context.current.anomaly
    if mode is context.ANOMALY_OFF or not (on and check_nan):
        return TRACER
    inner = TRACER

    def check(node, g, in_grads):
        for i, ig in enumerate(in_grads):
            if ig is None:
                continue
            arr = ig.data if type(ig) is Tensor else ig
            if isinstance(arr, np.ndarray) and arr.dtype.kind in "fc" and np.isnan(arr).any():
                context.current.warn(
                    f"Error detected in {node.name}. Traceback of forward call that caused "
                    "the error:"
                )
                raise GradRuntimeError(
                    f"Function '{node.name}' returned nan values in its {i}th output."
                )
        if inner is not None:
            inner(node, g, in_grads)

    return check
