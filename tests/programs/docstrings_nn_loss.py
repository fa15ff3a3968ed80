# Published code: the examples of the docstrings of torch.nn's loss modules (L1Loss,
# NLLLoss, PoissonNLLLoss, GaussianNLLLoss, KLDivLoss, MSELoss, BCELoss, BCEWithLogitsLoss,
# HingeEmbeddingLoss, MultiLabelMarginLoss, SmoothL1Loss, HuberLoss, SoftMarginLoss,
# CrossEntropyLoss, LinearCrossEntropyLoss, MultiLabelSoftMarginLoss, CosineEmbeddingLoss,
# MarginRankingLoss, MultiMarginLoss, TripletMarginLoss, TripletMarginWithDistanceLoss,
# CTCLoss), in the file's order.
# Source: pytorch/pytorch at cf30153c4c131c8164ee7798e5022d810682e2cb (torch 2.13.0):
#         torch/nn/modules/loss.py (the `Examples:` sections of the class docstrings).
# Adaptations:
#   - the examples are interactive sessions: each `>>> ` and `... ` line is a line here; an
#     expression whose value the session shows is wrapped in print(...).
#   - added: `import torch`, `from torch import nn`, `import torch.nn.functional as F` and
#     torch.manual_seed(0) at the top (the docstrings assume them and draw unseeded), and
#     after each loss computed a print of it and after each backward a print of the
#     gradients of the example's leaves (marked "# print added").
#   - TripletMarginWithDistanceLoss's second and third examples (skipped by the doctests:
#     their backward would go through the embedding lookups a second time) look the
#     embeddings up again first (marked "# added").
import torch
import torch.nn.functional as F
from torch import nn

torch.manual_seed(0)  # added

# --- L1Loss
loss = nn.L1Loss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# --- NLLLoss
log_softmax = nn.LogSoftmax(dim=1)
loss_fn = nn.NLLLoss()
# input to NLLLoss is of size N x C = 3 x 5
input = torch.randn(3, 5, requires_grad=True)
# each element in target must have 0 <= value < C
target = torch.tensor([1, 0, 4])
loss = loss_fn(log_softmax(input), target)
print(loss)  # print added
loss.backward()
print(input.grad)  # print added


# 2D loss example (used, for example, with image inputs)
N, C = 5, 4
loss_fn = nn.NLLLoss()
data = torch.randn(N, 16, 10, 10)
conv = nn.Conv2d(16, C, (3, 3))
log_softmax = nn.LogSoftmax(dim=1)
# output of conv forward is of shape [N, C, 8, 8]
output = log_softmax(conv(data))
# each element in target must have 0 <= value < C
target = torch.empty(N, 8, 8, dtype=torch.long).random_(0, C)
# input to NLLLoss is of size N x C x height (8) x width (8)
loss = loss_fn(output, target)
print(loss)  # print added
loss.backward()
print(input.grad)  # print added

# --- PoissonNLLLoss
loss = nn.PoissonNLLLoss()
log_input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
output = loss(log_input, target)
print(output)  # print added
output.backward()
print(log_input.grad)  # print added

# --- GaussianNLLLoss
loss = nn.GaussianNLLLoss()
input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
var = torch.ones(5, 2, requires_grad=True)  # heteroscedastic
output = loss(input, target, var)
print(output)  # print added
output.backward()
print(input.grad)  # print added
print(var.grad)  # print added
loss = nn.GaussianNLLLoss()
input = torch.randn(5, 2, requires_grad=True)
target = torch.randn(5, 2)
var = torch.ones(5, 1, requires_grad=True)  # homoscedastic
output = loss(input, target, var)
print(output)  # print added
output.backward()
print(input.grad)  # print added
print(var.grad)  # print added

# --- KLDivLoss
kl_loss = nn.KLDivLoss(reduction="batchmean")
# input should be a distribution in the log space
input = F.log_softmax(torch.randn(3, 5, requires_grad=True), dim=1)
# Sample a batch of distributions. Usually this would come from the dataset
target = F.softmax(torch.rand(3, 5), dim=1)
output = kl_loss(input, target)
print(output)  # print added

kl_loss = nn.KLDivLoss(reduction="batchmean", log_target=True)
log_target = F.log_softmax(torch.rand(3, 5), dim=1)
output = kl_loss(input, log_target)
print(output)  # print added

# --- MSELoss
loss = nn.MSELoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# --- BCELoss
m = nn.Sigmoid()
loss = nn.BCELoss()
input = torch.randn(3, 2, requires_grad=True)
target = torch.rand(3, 2, requires_grad=False)
output = loss(m(input), target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# --- BCEWithLogitsLoss
target = torch.ones([10, 64], dtype=torch.float32)  # 64 classes, batch size = 10
output = torch.full([10, 64], 1.5)  # A prediction (logit)
pos_weight = torch.ones([64])  # All weights are equal to 1
criterion = torch.nn.BCEWithLogitsLoss(pos_weight=pos_weight)
print(criterion(output, target))  # -log(sigmoid(1.5))  # print added
loss = nn.BCEWithLogitsLoss()
input = torch.randn(3, requires_grad=True)
target = torch.empty(3).random_(2)
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# --- HingeEmbeddingLoss
loss = nn.HingeEmbeddingLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).sign()
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# --- MultiLabelMarginLoss
loss = nn.MultiLabelMarginLoss()
x = torch.FloatTensor([[0.1, 0.2, 0.4, 0.8]])
# for target y, only consider labels 3 and 0, not after label -1
y = torch.LongTensor([[3, 0, -1, 1]])
# 0.25 * ((1-(0.1-0.2)) + (1-(0.1-0.4)) + (1-(0.8-0.2)) + (1-(0.8-0.4)))
print(loss(x, y))  # print added

# --- SmoothL1Loss
loss = nn.SmoothL1Loss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# --- HuberLoss
loss = nn.HuberLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# --- SoftMarginLoss
loss = nn.SoftMarginLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).sign()
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# --- CrossEntropyLoss
# Example of target with class indices
loss = nn.CrossEntropyLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.empty(3, dtype=torch.long).random_(5)
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# Example of target with class probabilities
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5).softmax(dim=1)
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added
# Example of target with incorrectly specified class probabilities
loss = nn.CrossEntropyLoss()
torch.manual_seed(283)
input = torch.randn(3, 5, requires_grad=True)
target = torch.randn(3, 5)
# Provided target class probabilities are not in range [0,1]
print(target)  # print added
# Provided target class probabilities do not sum to 1
print(target.sum(axis=1))  # print added
# No error message and possible misleading loss value
print(loss(input, target).item())  # print added

# Example of target with correctly specified class probabilities
# Use .softmax() to ensure true probability distribution
target_new = target.softmax(dim=1)
# New target class probabilities all in range [0,1]
print(target_new)  # print added
# New target class probabilities sum to 1
print(target_new.sum(axis=1))  # print added
print(loss(input, target_new).item())  # print added

# --- LinearCrossEntropyLoss
torch.manual_seed(283)
# Example of target with class indices
loss = nn.LinearCrossEntropyLoss(5, 10, out_features=(4, 3))
input = torch.randn(2, 5, requires_grad=True)
target = torch.randint(0, 10, (2, 4, 3))
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# Example of target with class probabilities
input = torch.randn(2, 5, requires_grad=True)
target = torch.randn(2, 10, 4, 3).softmax(dim=1)
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# --- MultiLabelSoftMarginLoss
loss = nn.MultiLabelSoftMarginLoss()
input = torch.randn(3, 5, requires_grad=True)
target = torch.empty(3, 5).random_(2)
output = loss(input, target)
print(output)  # print added
output.backward()
print(input.grad)  # print added

# --- CosineEmbeddingLoss
loss = nn.CosineEmbeddingLoss()
input1 = torch.randn(3, 5, requires_grad=True)
input2 = torch.randn(3, 5, requires_grad=True)
target = torch.ones(3)
output = loss(input1, input2, target)
print(output)  # print added
output.backward()
print(input1.grad)  # print added
print(input2.grad)  # print added

# --- MarginRankingLoss
loss = nn.MarginRankingLoss()
input1 = torch.randn(3, requires_grad=True)
input2 = torch.randn(3, requires_grad=True)
target = torch.randn(3).sign()
output = loss(input1, input2, target)
print(output)  # print added
output.backward()
print(input1.grad)  # print added
print(input2.grad)  # print added

# --- MultiMarginLoss
loss = nn.MultiMarginLoss()
x = torch.tensor([[0.1, 0.2, 0.4, 0.8]])
y = torch.tensor([3])
# 0.25 * ((1-(0.8-0.1)) + (1-(0.8-0.2)) + (1-(0.8-0.4)))
print(loss(x, y))  # print added

# --- TripletMarginLoss
triplet_loss = nn.TripletMarginLoss(margin=1.0, p=2, eps=1e-7)
anchor = torch.randn(100, 128, requires_grad=True)
positive = torch.randn(100, 128, requires_grad=True)
negative = torch.randn(100, 128, requires_grad=True)
output = triplet_loss(anchor, positive, negative)
print(output)  # print added
output.backward()
print(anchor.grad)  # print added
print(positive.grad)  # print added
print(negative.grad)  # print added

# --- TripletMarginWithDistanceLoss
# Initialize embeddings
embedding = nn.Embedding(1000, 128)
anchor_ids = torch.randint(0, 1000, (1,))
positive_ids = torch.randint(0, 1000, (1,))
negative_ids = torch.randint(0, 1000, (1,))
anchor = embedding(anchor_ids)
positive = embedding(positive_ids)
negative = embedding(negative_ids)

# Built-in Distance Function
triplet_loss = \
    nn.TripletMarginWithDistanceLoss(distance_function=nn.PairwiseDistance())
output = triplet_loss(anchor, positive, negative)
print(output)  # print added
output.backward()

# Custom Distance Function
def l_infinity(x1, x2):
    return torch.max(torch.abs(x1 - x2), dim=1).values

anchor = embedding(anchor_ids)  # added: the embeddings looked up again
positive = embedding(positive_ids)  # added
negative = embedding(negative_ids)  # added
triplet_loss = (
    nn.TripletMarginWithDistanceLoss(distance_function=l_infinity, margin=1.5))
output = triplet_loss(anchor, positive, negative)
print(output)  # print added
output.backward()

# Custom Distance Function (Lambda)
anchor = embedding(anchor_ids)  # added: the embeddings looked up again
positive = embedding(positive_ids)  # added
negative = embedding(negative_ids)  # added
triplet_loss = (
    nn.TripletMarginWithDistanceLoss(
        distance_function=lambda x, y: 1.0 - F.cosine_similarity(x, y)))
output = triplet_loss(anchor, positive, negative)
print(output)  # print added
output.backward()

# --- CTCLoss
# Target are to be padded
T = 50  # Input sequence length
C = 20  # Number of classes (including blank)
N = 16  # Batch size
S = 30  # Target sequence length of longest target in batch (padding length)
S_min = 10  # Minimum target length, for demonstration purposes

# Initialize random batch of input vectors, for *size = (T,N,C)
input = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()

# Initialize random batch of targets (0 = blank, 1:C = classes)
target = torch.randint(low=1, high=C, size=(N, S), dtype=torch.long)

input_lengths = torch.full(size=(N,), fill_value=T, dtype=torch.long)
target_lengths = torch.randint(
    low=S_min,
    high=S,
    size=(N,),
    dtype=torch.long,
)
ctc_loss = nn.CTCLoss()
loss = ctc_loss(input, target, input_lengths, target_lengths)
print(loss)  # print added
loss.backward()
print(input.grad)  # print added


# Target are to be un-padded
T = 50  # Input sequence length
C = 20  # Number of classes (including blank)
N = 16  # Batch size

# Initialize random batch of input vectors, for *size = (T,N,C)
input = torch.randn(T, N, C).log_softmax(2).detach().requires_grad_()
input_lengths = torch.full(size=(N,), fill_value=T, dtype=torch.long)

# Initialize random batch of targets (0 = blank, 1:C = classes)
target_lengths = torch.randint(low=1, high=T, size=(N,), dtype=torch.long)
target = torch.randint(
    low=1,
    high=C,
    size=(sum(target_lengths),),
    dtype=torch.long,
)
ctc_loss = nn.CTCLoss()
loss = ctc_loss(input, target, input_lengths, target_lengths)
print(loss)  # print added
loss.backward()
print(input.grad)  # print added


# Target are to be un-padded and unbatched (effectively N=1)
T = 50  # Input sequence length
C = 20  # Number of classes (including blank)

# Initialize random batch of input vectors, for *size = (T,C)
input = torch.randn(T, C).log_softmax(1).detach().requires_grad_()
input_lengths = torch.tensor(T, dtype=torch.long)

# Initialize random batch of targets (0 = blank, 1:C = classes)
target_lengths = torch.randint(low=1, high=T, size=(), dtype=torch.long)
target = torch.randint(
    low=1,
    high=C,
    size=(target_lengths,),
    dtype=torch.long,
)
ctc_loss = nn.CTCLoss()
loss = ctc_loss(input, target, input_lengths, target_lengths)
print(loss)  # print added
loss.backward()
print(input.grad)  # print added
