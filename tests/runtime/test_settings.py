"""The run's settings are defined once (gradcli/runtime/settings.py): the command line,
the fast argument path, a fresh run, set_printoptions and the REPL's header derive
from that definition."""

from __future__ import annotations

from conftest import run_inprocess
from gradcli import cli, quickargs
from gradcli.runtime import context
from gradcli.runtime.settings import DEFAULTS, FIELDS, OPTIONS, Settings


def _actions():
    return {a.dest: a for a in cli._parser("gradcli eval")._actions}


def test_the_command_line_has_an_option_per_setting_with_its_default_and_help():
    actions = _actions()
    for f in OPTIONS:
        a = actions[f.name]
        assert a.option_strings == [f.option]
        assert a.default == f.default and a.help == f.help
    assert {f.name for f in FIELDS} - {f.name for f in OPTIONS} == {"linewidth"}


def test_the_fast_path_defaults_are_the_settings():
    args, _ = quickargs.parse(["a.ag"])
    assert Settings.of(args) == DEFAULTS


def test_a_fresh_run_starts_from_the_defaults():
    ctx = context.Context()
    assert ctx.precision == DEFAULTS.precision and ctx.linewidth == DEFAULTS.linewidth
    assert ctx.limits.max_depth == DEFAULTS.max_depth
    assert ctx.limits.max_steps == DEFAULTS.max_steps
    assert ctx.limits.max_memory == DEFAULTS.memory_bytes() == 1 << 30
    assert str(ctx.default_float) == DEFAULTS.dtype and ctx.replay is DEFAULTS.replay


def test_precision_is_checked_by_one_range():
    assert Settings(precision=31).check() == (
        "--precision wants a number of digits from 0 to 30, got 31"
    )
    assert Settings(precision=30).check() is None
    r = run_inprocess("set_printoptions(precision=31)\n")
    assert "precision must be from 0 to 30, got 31" in r.stderr
    r = run_inprocess("set_printoptions(precision=30)\nprint(tensor(1/3))\n")
    # torch 2.13, default dtype float64: torch.set_printoptions(precision=30)
    assert r.returncode == 0 and r.stdout == "tensor(0.333333333333333314829616256247)\n"


def test_the_repl_header_names_what_differs_from_the_defaults():
    from gradcli.repl.app import Repl

    args = cli._parser("gradcli").parse_args(["--precision", "6", "--max-depth", "50"])
    assert Repl(args)._header() == ["set_printoptions(precision=6)"]
    assert Repl(cli._parser("gradcli").parse_args([]))._header() == []


def test_settings_refuse_an_unknown_name():
    try:
        Settings(precission=3)
    except TypeError as e:
        assert "precission" in str(e)
    else:
        raise AssertionError("an unknown setting was taken")
