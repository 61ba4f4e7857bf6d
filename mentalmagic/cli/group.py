"""The CLI's groups: their help lists each command's whole first paragraph, never cut with '...'."""

from __future__ import annotations

import click


class Group(click.Group):
    group_class = type  # its subgroups list their commands the same way

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        rows = []
        for name in self.list_commands(ctx):
            cmd = self.get_command(ctx, name)
            if cmd is not None and not cmd.hidden:
                rows.append((name, cmd.short_help or " ".join((cmd.help or "").partition("\n\n")[0].split())))
        if rows:
            with formatter.section("Commands"):
                formatter.write_dl(rows)
