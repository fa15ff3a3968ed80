"""tests/golden/distributions.json: torch.distributions (Normal, Uniform, Categorical,
Bernoulli, kl_divergence) and torch.bernoulli (tests/library/distributions_cases.py), each
case run as record.run_program runs a program."""

import distributions_cases

from golden.record import run_cases, write


def main(argv):
    out = run_cases(distributions_cases.CASES)
    write("distributions.json", out)
    print("wrote %d cases" % len(out))
