# Published code: PyTorch Recipes, "What is a state_dict in PyTorch": a CIFAR-shaped
# LeNet, its state_dict's keys and sizes, and an SGD optimizer's state_dict.
# Source: pytorch/tutorials at 0a7e68666de5faceafa90276ad2b7874cd32c5e0:
#         recipes_source/recipes/what_is_state_dict.py (the code cells as published, in
#         order; prose left out)
# Adaptations:
#   - added: torch.manual_seed(0) first.
# As published, forward uses F, which the recipe never imports; it never calls forward.
import torch
import torch.nn as nn
import torch.optim as optim

torch.manual_seed(0)  # added


class Net(nn.Module):
    def __init__(self):
        super(Net, self).__init__()
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

net = Net()
print(net)

optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

# Print model's state_dict
print("Model's state_dict:")
for param_tensor in net.state_dict():
    print(param_tensor, "\t", net.state_dict()[param_tensor].size())

print()

# Print optimizer's state_dict
print("Optimizer's state_dict:")
for var_name in optimizer.state_dict():
    print(var_name, "\t", optimizer.state_dict()[var_name])
