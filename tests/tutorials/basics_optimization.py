# Tutorial: "Optimizing Model Parameters" (Learn the Basics)
# Source: pytorch/tutorials beginner_source/basics/optimization_tutorial.py
#         commit 802d68671f544c32347a2f1e780b80fcc2d8c9e7
# The code cells as published, in order (prose left out).
# Adaptations:
#   - torch.manual_seed(0) added at the top (the tutorial does not seed).
#   - FashionMNIST (a download through torchvision) replaced by a small synthetic data
#     set made with torch.randn/torch.randint: 256 training and 128 test "images" of
#     1x28x28 with labels 0..9, wrapped in torch.utils.data.TensorDataset; the
#     torchvision imports (datasets, ToTensor) are removed. The DataLoaders, the model,
#     the loops and the hyperparameters (batch size 64, lr 1e-3, 10 epochs) are as
#     published.

import torch
torch.manual_seed(0)  # added

import torch
from torch import nn
from torch.utils.data import DataLoader
from torch.utils.data import TensorDataset  # added

# added: synthetic stand-ins for datasets.FashionMNIST(train=True/False)
training_data = TensorDataset(torch.randn(256, 1, 28, 28), torch.randint(0, 10, (256,)))
test_data = TensorDataset(torch.randn(128, 1, 28, 28), torch.randint(0, 10, (128,)))

train_dataloader = DataLoader(training_data, batch_size=64)
test_dataloader = DataLoader(test_data, batch_size=64)

class NeuralNetwork(nn.Module):
    def __init__(self):
        super().__init__()
        self.flatten = nn.Flatten()
        self.linear_relu_stack = nn.Sequential(
            nn.Linear(28*28, 512),
            nn.ReLU(),
            nn.Linear(512, 512),
            nn.ReLU(),
            nn.Linear(512, 10),
        )

    def forward(self, x):
        x = self.flatten(x)
        logits = self.linear_relu_stack(x)
        return logits

model = NeuralNetwork()

learning_rate = 1e-3
batch_size = 64
epochs = 5

# Initialize the loss function
loss_fn = nn.CrossEntropyLoss()

optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

def train_loop(dataloader, model, loss_fn, optimizer):
    size = len(dataloader.dataset)
    # Set the model to training mode - important for batch normalization and dropout layers
    # Unnecessary in this situation but added for best practices
    model.train()
    for batch, (X, y) in enumerate(dataloader):
        # Compute prediction and loss
        pred = model(X)
        loss = loss_fn(pred, y)

        # Backpropagation
        loss.backward()
        optimizer.step()
        optimizer.zero_grad()

        if batch % 100 == 0:
            loss, current = loss.item(), batch * batch_size + len(X)
            print(f"loss: {loss:>7f}  [{current:>5d}/{size:>5d}]")


def test_loop(dataloader, model, loss_fn):
    # Set the model to evaluation mode - important for batch normalization and dropout layers
    # Unnecessary in this situation but added for best practices
    model.eval()
    size = len(dataloader.dataset)
    num_batches = len(dataloader)
    test_loss, correct = 0, 0

    # Evaluating the model with torch.no_grad() ensures that no gradients are computed during test mode
    # also serves to reduce unnecessary gradient computations and memory usage for tensors with requires_grad=True
    with torch.no_grad():
        for X, y in dataloader:
            pred = model(X)
            test_loss += loss_fn(pred, y).item()
            correct += (pred.argmax(1) == y).type(torch.float).sum().item()

    test_loss /= num_batches
    correct /= size
    print(f"Test Error: \n Accuracy: {(100*correct):>0.1f}%, Avg loss: {test_loss:>8f} \n")


loss_fn = nn.CrossEntropyLoss()
optimizer = torch.optim.SGD(model.parameters(), lr=learning_rate)

epochs = 10
for t in range(epochs):
    print(f"Epoch {t+1}\n-------------------------------")
    train_loop(train_dataloader, model, loss_fn, optimizer)
    test_loop(test_dataloader, model, loss_fn)
print("Done!")
