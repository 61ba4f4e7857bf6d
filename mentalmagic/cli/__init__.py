"""The judge's command line: `mentalmagic candidates "Boros Guildmage"` and friends.

Works offline against the same SQLite database as the web app. One module per kind of command:
``database`` (init-db, build-cards, download-cards, self-check), ``cards`` (candidates, check,
card), ``decks`` (deck …), ``games`` (game …), ``serve``.
"""

from __future__ import annotations

from pathlib import Path

import click

from ..messages import ENGLISH, LANGUAGES, say
from ..runtime import default_db_path
from .group import Group
from .words import speak

# Each command and the module that holds it (its COMMANDS), imported when the command runs.
COMMAND_MODULES = {
    **dict.fromkeys(("init-db", "build-cards", "download-cards", "self-check"), "database"),
    **dict.fromkeys(("candidates", "check", "card", "rule-sets"), "cards"),
    "deck": "decks",
    "game": "games",
    "series": "series",
    "serve": "serve",
    **dict.fromkeys(("backup", "restore"), "backup"),
}


@click.group(cls=Group, lazy=COMMAND_MODULES)
@click.option("--db", type=click.Path(dir_okay=False, path_type=Path), default=None,
              help="SQLite file (default: $MENTALMAGIC_DB, else instance/ in a checkout, else the user data folder).")
@click.option("--verbose", is_flag=True, help="Say what the card source lacks every time (else once a day).")
@click.option("--lang", type=click.Choice(LANGUAGES, case_sensitive=False), envvar="MENTALMAGIC_LANG",
              default=ENGLISH, show_default=True, help="Language of the rulings and messages ($MENTALMAGIC_LANG).")
@click.pass_context
def main(ctx, db, verbose, lang):
    """The Mental Magic arbiter."""
    ctx.ensure_object(dict)
    speak(lang)
    if db is not None and not db.parent.is_dir():  # a typo, not a place to make folders and import the cards into
        from .context import Failed

        raise Failed(str(say("cli.db_folder_missing", folder=str(db.parent))))
    ctx.obj["db"] = db or default_db_path()
    ctx.obj["verbose"] = verbose
    ctx.obj["lang"] = lang

