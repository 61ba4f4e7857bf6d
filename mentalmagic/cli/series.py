"""A playgroup's series in the terminal (docs/rule-sets.md, "Series"): `series new`, `series show`;
`game new --series` makes their games. The same use cases as POST /series and GET /series/{id},
and the same token: the series' token makes its games and shows its names."""

from __future__ import annotations

import click

from ..messages import say
from ..rulesets import DEFAULT_RULES, RULE_SETS
from .context import guarded, runtime, uow
from .group import Group


@click.group(cls=Group)
def series():
    """A playgroup's league: games one after another under one rule set, whose names may last the series."""


@series.command("new")
@click.option("--rules", type=click.Choice(RULE_SETS), default=DEFAULT_RULES, show_default=True,
              help="The rule set (docs/rule-sets.md).")
@click.option("--phyrexian-as-hybrid", is_flag=True, help="House option of D3.")
@click.option("--name", default=None, help="What the playgroup calls it, shown instead of its id.")
@click.pass_context
@guarded
def series_new(ctx, rules, phyrexian_as_hybrid, name):
    """Start a series; prints its id and its token, shown only now: `game new --series ID --series-token TOKEN`."""
    from ..services import create_series

    made = create_series(uow(ctx), rules, {"phyrexian_as_hybrid": phyrexian_as_hybrid}, name)
    click.echo(say("cli.series_created", id=made["id"], rules=made["rules"]["key"], token=made["token"]))


@series.command("show")
@click.argument("series_id", metavar="SERIES")
@click.option("--series-token", "token", required=True, help="The series' token (`series new` printed it).")
@click.pass_context
@guarded
def series_show(ctx, series_id, token):
    """The series' rule set and, game by game in the order made, the names each took."""
    from ..services import series_view

    runtime(ctx, lacks_note=False)
    shown = series_view(uow(ctx), series_id, f"Bearer {token}")
    click.echo(say("cli.series_rules", id=f"{shown['name']} ({series_id})" if shown["name"] else series_id,
                   rules=shown["rules"]["key"]))
    for g in shown["games"]:
        names = [n["name"] for n in g["names"]]
        click.echo(f"  {say('cli.series_game', id=g['id'], status=g['status'], n=len(names), names=', '.join(names))}")


COMMANDS = (series,)
