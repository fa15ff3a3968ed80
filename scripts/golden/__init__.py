"""The recording of gradcli's golden files from real PyTorch: `record` (what every
suite shares: how a program is run and its output recorded, where the files go, how
arrays are digested) and `suites` (one module per suite).  Run through
scripts/gen_golden.py SUITE."""
