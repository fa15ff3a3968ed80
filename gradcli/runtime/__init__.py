"""Run-time plumbing, below everything else: errors and how they are shown, the run's
state (`context`), guards and limits, the C stack, devices, and the tuning of the
collector and the C heap.  Nothing here computes on tensors."""
