# Published code: PyTorch Recipes, "Saving and loading a general checkpoint in PyTorch":
# a checkpoint dict (epoch, the model's and the optimizer's state_dicts, the loss) written
# with torch.save and read back with torch.load into a new model and optimizer.
# Source: pytorch/tutorials at 0a7e68666de5faceafa90276ad2b7874cd32c5e0:
#         recipes_source/recipes/saving_and_loading_a_general_checkpoint.py (the code cells
#         as published, in order; prose left out)
# Adaptations:
#   - added: torch.manual_seed(0) first, and at the end what was loaded.
# As published, forward uses F, which the recipe never imports; it never calls forward.
# The file is written in the directory the program runs in (the test's is a fresh one).
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

# Additional information
EPOCH = 5
PATH = "model.pt"
LOSS = 0.4

torch.save({
            'epoch': EPOCH,
            'model_state_dict': net.state_dict(),
            'optimizer_state_dict': optimizer.state_dict(),
            'loss': LOSS,
            }, PATH)

model = Net()
optimizer = optim.SGD(net.parameters(), lr=0.001, momentum=0.9)

checkpoint = torch.load(PATH)
model.load_state_dict(checkpoint['model_state_dict'])
optimizer.load_state_dict(checkpoint['optimizer_state_dict'])
epoch = checkpoint['epoch']
loss = checkpoint['loss']

model.eval()
# - or -
model.train()

# added: what was loaded
print(epoch, loss, list(checkpoint), model.training)
print(optimizer.state_dict())
print(torch.equal(model.fc3.bias, net.fc3.bias), model.fc3.bias)
