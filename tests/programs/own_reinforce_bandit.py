# REINFORCE on a four-armed bandit: a softmax policy over learnable logits, torch.distributions.Categorical (sample, log_prob, entropy, probs, logits), a moving-average baseline, an entropy bonus, per-episode returns discounted in plain Python, Bernoulli rewards drawn from a seeded torch.Generator, and the policy's gradient checked against the score function written by hand (written for this test: code in the shape people bring, no adaptation).
import torch
import torch.nn as nn
from torch.distributions import Categorical, Bernoulli

torch.manual_seed(3)
TRUE_PAYOUT = torch.tensor([0.2, 0.5, 0.8, 0.4])
env_gen = torch.Generator().manual_seed(11)


def pull(arm):
    return torch.bernoulli(TRUE_PAYOUT[arm], generator=env_gen).item()


class Policy(nn.Module):
    def __init__(self, n_arms):
        super().__init__()
        self.logits = nn.Parameter(torch.zeros(n_arms))

    def forward(self):
        return Categorical(logits=self.logits)


policy = Policy(4)
opt = torch.optim.SGD(policy.parameters(), lr=0.5)
baseline = 0.0
history = []
for step in range(30):
    dist = policy()
    actions = dist.sample((8,))
    rewards = torch.tensor([pull(a) for a in actions.tolist()])
    advantage = rewards - baseline
    loss = -(dist.log_prob(actions) * advantage).mean() - 0.01 * dist.entropy()
    opt.zero_grad()
    loss.backward()
    opt.step()
    baseline = 0.9 * baseline + 0.1 * rewards.mean().item()
    history.append(rewards.mean().item())
    if step % 6 == 0:
        probs = ", ".join(f"{p:.3f}" for p in dist.probs.tolist())
        print(f"step {step:2d} reward {rewards.mean():.3f} baseline {baseline:.3f} probs [{probs}]")

print("best arm:", policy.logits.argmax().item(), "mean reward of last 10:", round(sum(history[-10:]) / 10, 3))
print(policy.logits.data)

# the gradient of log pi(a) for a softmax policy is onehot(a) - pi
dist = policy()
a = torch.tensor(2)
policy.zero_grad()
dist.log_prob(a).backward()
by_hand = torch.nn.functional.one_hot(a, 4).float() - dist.probs.detach()
print(policy.logits.grad, torch.allclose(policy.logits.grad, by_hand))

# discounted returns of an episode in plain Python, then normalised
def discounted(rs, gamma=0.9):
    out, g = [], 0.0
    for r in reversed(rs):
        g = r + gamma * g
        out.insert(0, g)
    return out

returns = torch.tensor(discounted([0.0, 1.0, 0.0, 0.0, 1.0]))
print(returns)
print((returns - returns.mean()) / (returns.std() + 1e-8))

# Categorical from probabilities: normalisation, log_prob of a batch, entropy, enumerate_support
c = Categorical(probs=torch.tensor([[1.0, 3.0], [2.0, 2.0]]))
print(c.probs, c.logits)
print(c.log_prob(torch.tensor([1, 0])), c.entropy())
print(c.batch_shape, c.event_shape, c.enumerate_support().shape)
b = Bernoulli(probs=torch.tensor([0.25, 0.75]))
print(b.log_prob(torch.tensor([1.0, 1.0])), b.entropy(), b.mean, b.variance)
print(Categorical(logits=torch.tensor([0.0, 0.0, 0.0])).sample((5,)))
