# Published code: PyTorch Recipes, "Saving and loading multiple models in one file using
# PyTorch": two models' and two optimizers' state_dicts in one file, loaded into new ones.
# Source: pytorch/tutorials at 0a7e68666de5faceafa90276ad2b7874cd32c5e0:
#         recipes_source/recipes/saving_multiple_models_in_one_file.py (the code cells as
#         published, in order; prose left out)
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

netA = Net()
netB = Net()

optimizerA = optim.SGD(netA.parameters(), lr=0.001, momentum=0.9)
optimizerB = optim.SGD(netB.parameters(), lr=0.001, momentum=0.9)

# Specify a path to save to
PATH = "model.pt"

torch.save({
            'modelA_state_dict': netA.state_dict(),
            'modelB_state_dict': netB.state_dict(),
            'optimizerA_state_dict': optimizerA.state_dict(),
            'optimizerB_state_dict': optimizerB.state_dict(),
            }, PATH)

modelA = Net()
modelB = Net()
optimModelA = optim.SGD(modelA.parameters(), lr=0.001, momentum=0.9)
optimModelB = optim.SGD(modelB.parameters(), lr=0.001, momentum=0.9)

checkpoint = torch.load(PATH)
modelA.load_state_dict(checkpoint['modelA_state_dict'])
modelB.load_state_dict(checkpoint['modelB_state_dict'])
optimizerA.load_state_dict(checkpoint['optimizerA_state_dict'])
optimizerB.load_state_dict(checkpoint['optimizerB_state_dict'])

modelA.eval()
modelB.eval()
# - or -
modelA.train()
modelB.train()

# added: what was loaded
print(list(checkpoint), modelA.training, modelB.training)
print(torch.equal(modelA.fc1.weight, netA.fc1.weight), torch.equal(modelB.fc1.weight, netB.fc1.weight))
print(torch.equal(modelA.fc1.weight, netB.fc1.weight), modelB.fc3.bias)
print(optimizerB.state_dict()['param_groups'])
