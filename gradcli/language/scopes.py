"""Compile-time scopes: what the compiler knows about the function it is compiling."""
from __future__ import annotations


class FunctionInfo:
    """Compile-time facts about the function whose body is being compiled."""
    __slots__ = ("name",)

    def __init__(self, name):
        self.name = name
