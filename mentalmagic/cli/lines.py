"""`game do`: the judge's short grammar (grammar.py), one line at a time or a script of lines."""

from __future__ import annotations

import inspect
import sys

import click

from ..messages import ENGLISH, say
from .completion import GAME, line_completion
from .context import Refused, guarded, uow
from .seat import Seat
from .table import game_log, game_show
from .words import help_of, language


class _GrammarHelp(click.Command):
    """`game do`'s help lists the grammar, read from grammar.py only when the help is shown; its
    text is worded in the CLI's language (words.py) before the grammar goes in."""

    @property
    def help_msgid(self) -> str:
        return self._help

    @property
    def help(self) -> str:
        return help_of(self._help).replace("{grammar}", _grammar_help())

    @help.setter
    def help(self, text: str | None) -> None:
        self._help = inspect.cleandoc(text or "")


@click.command("do", cls=_GrammarHelp)
@GAME
@click.argument("line", nargs=-1, required=True, shell_complete=line_completion)
@click.option("--keep-going", is_flag=True,
              help="With -: report a line that fails and go on; exit status 1 at the end if any failed.")
@click.pass_context
def game_do(ctx, game_id, line, keep_going):
    """Record what LINE says, in the judge's short grammar (`ana draw 2`, `ben cast 3 as Shock`, `undo`).

    With `-` as LINE, reads one command a line from standard input (`#` starts a comment), and
    stops at the first line that fails unless --keep-going. On a terminal it prompts and keeps
    going, loading the cards once for the whole game; there `show`, `show PLAYER`, `log` and
    `help` work too.

    \b
    {grammar}
    """
    script = line == ("-",)
    tty = script and sys.stdin.isatty()
    keep_going = keep_going or tty
    failed = 0
    for n, text in enumerate(_stdin_lines(tty) if script else [" ".join(line)], 1):
        text = text.strip()
        if not text or text.startswith("#"):
            continue
        try:
            _do_line(ctx, game_id, text)
        except click.ClickException as e:
            where = f"{say('cli.line', n=n, text=text)}\n" if script and not tty else ""
            if not keep_going:
                if where:
                    click.echo(where, nl=False, err=True)
                raise e from None
            click.echo(where + (e.format_message() if isinstance(e, Refused)
                                else str(say("cli.error", why=e.format_message()))), err=True)
            failed += 1
    ctx.exit(1 if failed else 0)


def _stdin_lines(prompt: bool):
    while True:
        if prompt:
            click.echo("> ", nl=False, err=True)
        text = sys.stdin.readline()
        if not text:
            return
        yield text


@guarded
def _do_line(ctx: click.Context, game_id: str, text: str) -> None:
    from ..permissions import JUDGE
    from ..services import run_line

    word, _, rest = text.partition(" ")
    if word.casefold() == "show":  # a script's or a session's look at the table between commands
        ctx.invoke(game_show, game_id=game_id, as_player=rest.strip() or None)
        return
    if text.casefold() == "log":
        ctx.invoke(game_log, game_id=game_id)
        return
    if text.casefold() == "help":
        click.echo(_grammar_help())
        return
    seat = Seat(ctx, game_id)
    done = run_line(uow(ctx), game_id, JUDGE, text)
    if "undone" in done:
        click.echo(say("cli.undone", event=seat.event_line(done["undone"]).strip()))
    else:
        click.echo(seat.event_line(done["event"]))


def _grammar_help() -> str:
    """The grammar's lines with their examples; in French, the French verbs and words it reads."""
    from ..grammar import help_text

    if language() == ENGLISH:
        return help_text()
    return help_text(french={"P": str(say("cli.grammar_player")), "NAME": str(say("cli.metavar.name"))})


COMMANDS = (game_do,)
