"""The CLI imports a command's module only when it runs (cli/group.py's ``lazy``): its table of
commands must name each command of each module, and nothing else."""

from __future__ import annotations

import importlib

from click.testing import CliRunner

from mentalmagic.cli import COMMAND_MODULES, main


def test_the_lazy_table_names_every_command_of_every_module_and_no_other():
    held = {}
    for module in set(COMMAND_MODULES.values()):
        for command in importlib.import_module(f"mentalmagic.cli.{module}").COMMANDS:
            held[command.name] = module
    assert held == COMMAND_MODULES


def test_the_help_lists_every_command_and_each_runs_its_own_help():
    runner = CliRunner()
    shown = runner.invoke(main, ["--help"])
    assert shown.exit_code == 0, shown.output
    listed = shown.output.split("Commands:")[1]
    for name in COMMAND_MODULES:
        assert f"\n  {name} " in listed
        own = runner.invoke(main, [name, "--help"])
        assert own.exit_code == 0 and f"Usage: main {name}" in own.output, own.output
    assert runner.invoke(main, ["no-such-command"]).exit_code == 2
