"""What the backward engine reports beyond .grad: a trace hook and a record of the
gradients that flowed.

- `TRACER`: None, or a callable(node, g, in_grads) that the engine calls for each
  node it runs (library/trace.py sets it for `backward ..., trace=true`); the
  engine reads it once per pass, so it costs nothing when off.
- The flow record: a backward pass through a graph of at most FLOW_NODES nodes
  (no autograd.grad-style capture, no create_graph) leaves on each node it runs
  the pass's number (`fpass`) and the gradient that flowed into it (`fgrad`; its
  shape if it has more than FLOW_SMALL elements).  graph(y, values=true) reads
  them back for the latest pass through y's node.  The record lives and dies
  with its graph: it keeps nothing alive and costs two slot writes per node.
"""
from __future__ import annotations

TRACER = None
FLOW_SMALL = 1024
FLOW_NODES = 10000      # bigger graphs are not recorded (their gradients are not kept)
_passes = [0]


def start_flow(nodes: int):
    """A new pass number for a backward pass through `nodes` nodes, or None if too big."""
    if not 0 < nodes <= FLOW_NODES:
        return None
    _passes[0] += 1
    return _passes[0]
