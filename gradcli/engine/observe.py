"""What the backward engine reports beyond .grad: a trace hook and a record of the
gradients that flowed.

- `TRACER`: None, or a callable(node, g, in_grads) that the engine calls for each
  node it runs (library/trace.py sets it for `backward ..., trace=true`); the
  engine reads it once per pass, so it costs nothing when off.
- `FLOWS`: {node: the gradient that flowed into it (or its shape, if it has more
  than FLOW_SMALL elements)} for each of the last FLOW_KEEP backward passes through
  graphs of at most FLOW_NODES nodes (graph(y, values=true) reads them).
"""
from __future__ import annotations

TRACER = None
FLOWS = []
FLOW_KEEP = 4
FLOW_SMALL = 1024
FLOW_NODES = 10000      # bigger graphs are not recorded (so no record keeps them alive)


def start_flow(nodes: int):
    """A new record for a backward pass through `nodes` nodes, or None if too big."""
    if not 0 < nodes <= FLOW_NODES:
        return None
    flow = {}
    FLOWS.append(flow)
    if len(FLOWS) > FLOW_KEEP:
        del FLOWS[0]
    return flow
