# Published code: PyTorch tutorials, "Learn the Basics", "Tensors": creation from data, NumPy
# and other tensors, attributes, indexing, cat, matmul and mul three ways (out= included),
# item, in-place add_, and the NumPy bridge whose memory is shared.
# Source: pytorch/tutorials at 0dea8a155bb46fd384abe428afcbb65e0a391739:
#         beginner_source/basics/tensorqs_tutorial.py (its code, in order).
# Adaptations:
#   - the prose (the module docstring and the comment-only blocks between the code) is left
#     out; the code and its own comments are unchanged.
#   - added: torch.manual_seed(0) first (torch seeds itself differently on every start), and
#     at the end a print of y1, y2, y3, z1, z2, z3 (which the comments say are the same).
import torch
import numpy as np

torch.manual_seed(0)  # added

data = [[1, 2],[3, 4]]
x_data = torch.tensor(data)

np_array = np.array(data)
x_np = torch.from_numpy(np_array)


x_ones = torch.ones_like(x_data) # retains the properties of x_data
print(f"Ones Tensor: \n {x_ones} \n")

x_rand = torch.rand_like(x_data, dtype=torch.float) # overrides the datatype of x_data
print(f"Random Tensor: \n {x_rand} \n")


shape = (2,3,)
rand_tensor = torch.rand(shape)
ones_tensor = torch.ones(shape)
zeros_tensor = torch.zeros(shape)

print(f"Random Tensor: \n {rand_tensor} \n")
print(f"Ones Tensor: \n {ones_tensor} \n")
print(f"Zeros Tensor: \n {zeros_tensor}")


tensor = torch.rand(3,4)

print(f"Shape of tensor: {tensor.shape}")
print(f"Datatype of tensor: {tensor.dtype}")
print(f"Device tensor is stored on: {tensor.device}")


# We move our tensor to the GPU if available, and if the cuda version is supported
if torch.cuda.is_available() & (torch.device('cuda').index is not None):
    tensor = tensor.to('cuda')


tensor = torch.ones(4, 4)
print('First row: ', tensor[0])
print('First column: ', tensor[:, 0])
print('Last column:', tensor[..., -1])
tensor[:,1] = 0
print(tensor)

t1 = torch.cat([tensor, tensor, tensor], dim=1)
print(t1)


# This computes the matrix multiplication between two tensors. y1, y2, y3 will have the same value
y1 = tensor @ tensor.T
y2 = tensor.matmul(tensor.T)

y3 = torch.rand_like(tensor)
torch.matmul(tensor, tensor.T, out=y3)


# This computes the element-wise product. z1, z2, z3 will have the same value
z1 = tensor * tensor
z2 = tensor.mul(tensor)

z3 = torch.rand_like(tensor)
torch.mul(tensor, tensor, out=z3)


agg = tensor.sum()
agg_item = agg.item()
print(agg_item, type(agg_item))


print(tensor, "\n")
tensor.add_(5)
print(tensor)


t = torch.ones(5)
print(f"t: {t}")
n = t.numpy()
print(f"n: {n}")

t.add_(1)
print(f"t: {t}")
print(f"n: {n}")


n = np.ones(5)
t = torch.from_numpy(n)

np.add(n, 1, out=n)
print(f"t: {t}")
print(f"n: {n}")
print(y1, y2, y3, z1, z2, z3, sep="\n")  # added: the values the comments say are the same
