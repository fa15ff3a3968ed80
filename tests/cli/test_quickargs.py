"""Plain `gradcli eval` command lines are read without argparse (start-up time);
the result must be what argparse makes of them, and anything else goes to argparse."""

from __future__ import annotations

import pytest

from gradcli import cli, quickargs

PLAIN = [
    ["a.ag"],
    ["-q", "a.ag"],
    ["a.ag", "-q"],
    ["--json", "-e", "x = 1", "a.ag"],
    ["-e", "1", "-e", "2"],
    ["-"],
    ["a.ag", "b.ag", "--quiet", "--json"],
    [],
    ["-e", "x", "a.ag", "-e", "y", "b.ag"],
    ["-q", "--seed", "0", "a.ag"],
    ["a.ag", "--dtype", "float32", "--precision", "8", "--no-replay"],
    ["--max-memory", "2GiB", "--max-depth", "50", "--max-steps", "7", "-e", "1"],
    ["--no-fast-tier", "--seed", "18446744073709551615", "a.ag", "--seed", "3"],
]
OTHER = [
    ["--seed", "x", "a.ag"],
    ["--seed", "-1", "a.ag"],
    ["--seed"],
    ["--dtype", "float16", "a.ag"],
    ["--precision", "1.5", "a.ag"],
    ["-qe", "1"],
    ["--", "a.ag"],
    ["-e", "-1"],
    ["-e"],
    ["--help"],
    ["-i", "a.ag"],
    ["--set", "x=1", "a.ag"],
    ["--dtype=float32", "a.ag"],
    [""],
]


@pytest.mark.parametrize("prog", ["gradcli eval", "gradcli"])
@pytest.mark.parametrize("argv", PLAIN)
def test_plain_command_lines_read_as_argparse_reads_them(argv, prog):
    parser = cli._parser(prog)
    want = parser.parse_intermixed_args(argv)
    order = cli._program_order(parser, argv)
    args, got_order = quickargs.parse(argv)
    assert vars(args) == vars(want)
    assert got_order == order


@pytest.mark.parametrize("argv", OTHER)
def test_anything_else_goes_to_argparse(argv):
    assert quickargs.parse(argv) is None
