"""torch.return_types: the (values, indices) pairs that max and min along a dim, sort,
topk, cummax and cummin return."""


class ValuesIndices(tuple):
    """`(values, indices)` with `.values` / `.indices`, as torch.return_types."""

    kind = "max"
    fields = ("values", "indices")  # the names of the two, as printed and as attributes

    def __new__(cls, values, indices, kind):
        self = super().__new__(cls, (values, indices))
        self.kind = kind
        return self

    @property
    def values(self):
        return self[0]

    @property
    def indices(self):
        return self[1]
