"""The CLI's groups: their help lists each command's whole first paragraph, never cut with '...';
a group may name commands it imports only when one of them runs (``lazy``)."""

from __future__ import annotations

import importlib

import click


class Group(click.Group):
    group_class = type  # its subgroups list their commands the same way

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        """``lazy``: command name -> the module (in this package) whose ``COMMANDS`` hold it,
        imported on first use: a look-up then loads neither the games' modules nor the server's."""
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module = importlib.import_module(f"{__package__}.{self.lazy[cmd_name]}")
            for command in module.COMMANDS:
                self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.short_help or " ".join((cmd.help or "").partition("\n\n")[0].split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
