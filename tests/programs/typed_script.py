# A typed training script (written for this test): typing annotations, a ModuleList
# model, @torch.no_grad() accuracy, a DataLoader shuffled by a torch.Generator, NumPy
# beside torch, and an `if __name__ == "__main__":` entry point.

from typing import List, Optional, Tuple
import torch
from torch import nn
from torch.utils.data import TensorDataset, DataLoader
import numpy as np

class Net(nn.Module):
    def __init__(self, sizes: List[int]):
        super().__init__()
        self.layers = nn.ModuleList([nn.Linear(a, b) for a, b in zip(sizes[:-1], sizes[1:])])

    def forward(self, x: torch.Tensor) -> torch.Tensor:
        for i, layer in enumerate(self.layers):
            x = layer(x)
            if i < len(self.layers) - 1:
                x = torch.relu(x)
        return x

@torch.no_grad()
def accuracy(model: nn.Module, loader: DataLoader) -> float:
    model.eval()
    correct = 0
    total = 0
    for xb, yb in loader:
        pred = model(xb).argmax(dim=1)
        correct += (pred == yb).sum().item()
        total += yb.numel()
    model.train()
    return correct / total

def main() -> None:
    history: List[Tuple[int, float]] = []
    best: Optional[float] = None
    torch.manual_seed(0)
    g = torch.Generator().manual_seed(42)
    X = torch.randn(200, 5, generator=g)
    y = (X[:, 0] + X[:, 1] > 0).long()
    ds = TensorDataset(X, y)
    loader = DataLoader(ds, batch_size=32, shuffle=True, generator=g)
    model = Net([5, 16, 2])
    opt = torch.optim.Adam(model.parameters(), lr=1e-2)
    loss_fn = nn.CrossEntropyLoss()
    for epoch in range(3):
        for xb, yb in loader:
            loss = loss_fn(model(xb), yb)
            opt.zero_grad()
            loss.backward()
            opt.step()
        acc = accuracy(model, loader)
        history.append((epoch, round(loss.item(), 4)))
        best = acc if best is None or acc > best else best
        print(f"epoch {epoch}: loss={loss.item():.4f} acc={acc:.3f}")
    print(history, best)
    a = np.linspace(0, 1, 5)
    t = torch.from_numpy(a)
    print(t, t.dtype)
    print(np.mean(a), np.std(a))

if __name__ == "__main__":
    main()
