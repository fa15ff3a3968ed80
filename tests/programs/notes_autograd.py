# Published code: PyTorch's documentation, the note "Autograd mechanics" (docs/source/notes):
# saved tensors (`_saved_self`, `_saved_result`), division by zero under a mask and the
# mask before the division, hooks for saved tensors (on one saved tensor and as a
# context manager), and a tensor hook registered after an in-place op.
# Source: pytorch/pytorch at 3b5cdd4f472f28ef44038ccee2007539f7624abf:
#         docs/source/notes/autograd.md (its code blocks, in order).
# Adaptations:
#   - added: `import torch` and `from torch import nn` at the top, and
#     torch.manual_seed(0) (the note's blocks assume them).
#   - left out: the MaskedTensor block (an experimental API), the multithreaded training
#     (threads), DataParallel (several devices), and the temporary files of the saved
#     tensors hooks (SelfDeletingTempFile writes each saved tensor to disk): the pack and
#     unpack hooks here keep the tensors in a dict under a counter, in memory.
#   - added: prints of what the note says of each block (the gradients, which tensors are
#     the same object), and the hook function `fn` the last block names.
import torch
from torch import nn

torch.manual_seed(0)

x = torch.randn(5, requires_grad=True)
y = x.pow(2)
print(x.equal(y.grad_fn._saved_self))  # True
print(x is y.grad_fn._saved_self)  # True

x = torch.randn(5, requires_grad=True)
y = x.exp()
print(y.equal(y.grad_fn._saved_result))  # True
print(y is y.grad_fn._saved_result)  # False

x = torch.tensor([1., 1.], requires_grad=True)
div = torch.tensor([0., 1.])

y = x / div          # Results in [inf, 1]
mask = div != 0      # [False, True]
loss = y[mask].sum()
loss.backward()
print(x.grad)        # [nan, 1], not [0, 1]

x = torch.tensor([1., 1.], requires_grad=True)
div = torch.tensor([0., 1.])

mask = div != 0
safe = torch.zeros_like(x)
safe[mask] = x[mask] / div[mask]
loss = safe.sum()
loss.backward()      # Produces safe gradients [0, 1]
print(x.grad, safe.grad_fn.name())  # added

store = {}  # changed: in memory, where the note writes temporary files


def pack_hook(tensor):
    key = len(store)  # changed: temp_file = SelfDeletingTempFile(); torch.save(...)
    store[key] = tensor
    print('pack', key, tensor)  # added
    return key


def unpack_hook(key):
    print('unpack', key)  # added
    return store[key]  # changed: torch.load(temp_file.name)


x = torch.randn(5, requires_grad=True)
y = x.pow(2)
y.grad_fn._raw_saved_self.register_hooks(pack_hook, unpack_hook)
print(y.grad_fn._saved_self)  # added
y.sum().backward()  # added
print(x.grad)  # added

# Only save on disk tensors that have size >= 1000
SAVE_ON_DISK_THRESHOLD = 1000

def pack_hook(x):
    if x.numel() < SAVE_ON_DISK_THRESHOLD:
        return x.detach()
    key = len(store)  # changed: temp_file = SelfDeletingTempFile(); torch.save(...)
    store[key] = x
    return key

def unpack_hook(tensor_or_sctf):
    if isinstance(tensor_or_sctf, torch.Tensor):
        return tensor_or_sctf
    return store[tensor_or_sctf]  # changed: torch.load(tensor_or_sctf.name)

class Model(nn.Module):
    def forward(self, x):
        with torch.autograd.graph.saved_tensors_hooks(pack_hook, unpack_hook):
          # ... compute output
          output = x
        return output

model = Model()
print(model(torch.ones(2)))  # added (the note wraps it in nn.DataParallel)

with torch.autograd.graph.saved_tensors_hooks(lambda x: x.detach(), lambda x: x):
    x = torch.randn(5, requires_grad=True)
    y = x * x
print(x is y.grad_fn._saved_self, x is y.grad_fn._saved_other)  # added
print(y.grad_fn._saved_self.equal(x), y.grad_fn._saved_other.equal(x))  # added
x2 = torch.randn(5, requires_grad=True)  # added: the same without the hooks
y2 = x2 * x2  # added
print(x2 is y2.grad_fn._saved_self, x2 is y2.grad_fn._saved_other)  # added


def fn(grad):  # added: the note's hook
    print('hook', grad)


t = torch.tensor(1., requires_grad=True).sin()
t.cos_()
t.register_hook(fn)
t.backward()
print(t, t.grad_fn.name())  # added
