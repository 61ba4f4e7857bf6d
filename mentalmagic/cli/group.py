"""The CLI's groups: their help lists each command's whole first paragraph, never cut with '...';
a group may name commands it imports only when one of them runs (``lazy``). Every command under
them words its help and click's own words in the CLI's language (words.py)."""

from __future__ import annotations

import importlib

import click

from .words import Context, help_of, language_asked, speak, worded


class Group(click.Group):
    group_class = type  # its subgroups list their commands the same way
    context_class = Context

    def __init__(self, *args, lazy: dict[str, str] | None = None, **kwargs):
        """``lazy``: command name -> the module (in this package) whose ``COMMANDS`` hold it,
        imported on first use: a look-up then loads neither the games' modules nor the server's."""
        super().__init__(*args, **kwargs)
        self.lazy = dict(lazy or {})

    def add_command(self, cmd: click.Command, name: str | None = None) -> None:
        if cmd.context_class is click.Context:  # a plain command: its help page is worded too
            cmd.context_class = Context
        super().add_command(cmd, name)

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *self.lazy})

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        if cmd_name in self.lazy and cmd_name not in self.commands:
            module = importlib.import_module(f"{__package__}.{self.lazy[cmd_name]}")
            for command in module.COMMANDS:
                self.add_command(command)
        return super().get_command(ctx, cmd_name)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:
        if ctx.parent is None:  # the root: its own --help and usage errors come before its callback
            speak(language_asked(args))
        return super().parse_args(ctx, args)

    def invoke(self, ctx: click.Context):
        try:
            return super().invoke(ctx)
        except click.ClickException as e:  # a subcommand's arguments, read in here (make_context)
            raise worded(e) from None

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.short_help or " ".join(help_of(cmd.help).partition("\n\n")[0].split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
