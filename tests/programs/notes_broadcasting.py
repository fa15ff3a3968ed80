# Published code: PyTorch's documentation, the note "Broadcasting semantics"
# (docs/source/notes): which shapes broadcast, the result's size, in-place ops that
# cannot change their tensor's shape, and the backwards-compatibility example.
# Source: pytorch/pytorch at 7990a7eb02623305f1946cd58f2c334f35c9f74f:
#         docs/source/notes/broadcasting.md (its code blocks, in order).
# Adaptations:
#   - the note's blocks are interactive sessions: each `>>> ` line is a statement here,
#     an expression whose value the session shows is wrapped in print(...), and a line
#     the note shows failing is wrapped in try/except, printing the error's type and
#     message.
#   - added: `import torch` and torch.manual_seed(0) at the top, the sizes of the pairs
#     the note calls broadcastable (printed), and the value of the last block.
#   - left out: `torch.utils.backcompat.broadcast_warning.enabled=True` (a switch of
#     old versions; torch 2.13 warns of nothing there).
import torch

torch.manual_seed(0)

x=torch.empty(5,7,3)
y=torch.empty(5,7,3)
# same shapes are always broadcastable (i.e. the above rules always hold)
print((x+y).size())  # added

x=torch.empty((0,))
y=torch.empty(2,2)
# x and y are not broadcastable, because the 0-sized dimension of x
# does not match the 2-sized dimension of y.
try:  # added
    x+y
except RuntimeError as e:
    print(type(e).__name__, e)

# can line up trailing dimensions
x=torch.empty(5,3,4,1)
y=torch.empty(  3,1,1)
# x and y are broadcastable.
# 1st trailing dimension: both have size 1
# 2nd trailing dimension: y has size 1
# 3rd trailing dimension: x size == y size
# 4th trailing dimension: y dimension doesn't exist
print((x+y).size())  # added

# but:
x=torch.empty(5,2,4,1)
y=torch.empty(  3,1,1)
# x and y are not broadcastable, because in the 3rd trailing dimension 2 != 3
try:  # added
    x+y
except RuntimeError as e:
    print(type(e).__name__, e)

# can line up trailing dimensions to make reading easier
x=torch.empty(5,1,4,1)
y=torch.empty(  3,1,1)
print((x+y).size())

# but not necessary:
x=torch.empty(1)
y=torch.empty(3,1,7)
print((x+y).size())

x=torch.empty(5,2,4,1)
y=torch.empty(3,1,1)
try:
    print((x+y).size())
except RuntimeError as e:
    print(type(e).__name__, e)

x=torch.empty(5,3,4,1)
y=torch.empty(3,1,1)
print((x.add_(y)).size())

# but:
x=torch.empty(1,3,1)
y=torch.empty(3,1,7)
try:
    print((x.add_(y)).size())
except RuntimeError as e:
    print(type(e).__name__, e)

print(torch.add(torch.ones(4,1), torch.randn(4)))
print(torch.add(torch.ones(4,1), torch.ones(4)))
