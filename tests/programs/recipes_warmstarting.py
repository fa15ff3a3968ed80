# Published code: PyTorch Recipes, "Warmstarting model using parameters from a different
# model in PyTorch": model A's state_dict saved and loaded into model B (strict=False).
# Source: pytorch/tutorials at 0a7e68666de5faceafa90276ad2b7874cd32c5e0:
#         recipes_source/recipes/warmstarting_model_using_parameters_from_a_different_model.py
#         (the code cells as published, in order; prose left out)
# Adaptations:
#   - added: torch.manual_seed(0) first, and at the end what load_state_dict returns and
#     what was loaded.
# As published, forward uses F, which the recipe never imports; it never calls forward.
# The file is written in the directory the program runs in (the test's is a fresh one).
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)  # added


class NetA(nn.Module):
    def __init__(self):
        super(NetA, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.flatten(start_dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

netA = NetA()

class NetB(nn.Module):
    def __init__(self):
        super(NetB, self).__init__()
        self.conv1 = nn.Conv2d(3, 6, 5)
        self.pool = nn.MaxPool2d(2, 2)
        self.conv2 = nn.Conv2d(6, 16, 5)
        self.fc1 = nn.Linear(16 * 5 * 5, 120)
        self.fc2 = nn.Linear(120, 84)
        self.fc3 = nn.Linear(84, 10)

    def forward(self, x):
        x = self.pool(F.relu(self.conv1(x)))
        x = self.pool(F.relu(self.conv2(x)))
        x = x.flatten(start_dim=1)
        x = F.relu(self.fc1(x))
        x = F.relu(self.fc2(x))
        x = self.fc3(x)
        return x

netB = NetB()

# Specify a path to save to
PATH = "model.pt"

torch.save(netA.state_dict(), PATH)

netB.load_state_dict(torch.load(PATH), strict=False)

# added: what was loaded
print(netB.load_state_dict(torch.load(PATH), strict=False))
print(torch.equal(netA.fc3.bias, netB.fc3.bias), netB.fc3.bias)
