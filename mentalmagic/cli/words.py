"""click's own words and the commands' help in the CLI's language (``--lang``), from the catalogue.

click words its usage line, its help's headings and its errors with the standard library's
gettext, imported into each of its modules (``from gettext import gettext as _``). gettext's
process-wide domain would take its language from LANGUAGE or LANG, not from ``--lang``, and would
word every other library's messages too; so ``speak`` hands those modules the catalogue's
translations instead (their msgids, click's own, are in messages.py under ``click.*``), before
the root command parses anything (``language_asked``): its own usage errors and ``--help`` are
worded too.

The help texts (a command's docstring, an option's ``help``) are msgids themselves, English as
the code writes them; ``extract_help`` hands them to ``make messages`` (babel.cfg) by walking the
command tree, and ``Formatter`` words them where click writes them, with the placeholders
(metavars: PLAYER, CARDS) of the usage line, the options and the errors (``cli.metavar.*``).
"""

from __future__ import annotations

import importlib
import inspect
import io
import os
import re

import click

from ..catalogue import primary, translations
from ..messages import ENGLISH, WORDS, English, render, say, use_translations

# click's modules that word what they print as they print it. Not ``decorators``: its words are help
# texts made once, when a command first builds its --help option, which must stay the English msgid
# that ``Formatter`` words in each run's language.
CLICK_MODULES = ("core", "exceptions", "parser", "types", "formatting", "termui", "utils")
_said = English()
_lang = ENGLISH


def speak(lang: str | None) -> None:
    """The CLI's messages, click's own words and the help texts in ``lang`` from now on."""
    global _said, _lang
    _said, _lang = translations(lang), primary(lang)
    use_translations(_said)
    for name in CLICK_MODULES:
        module = importlib.import_module(f"click.{name}")
        if hasattr(module, "_"):
            module._ = _said.gettext
        if hasattr(module, "ngettext"):
            module.ngettext = _said.ngettext


def language_asked(args: list[str]) -> str:
    """The root's ``--lang`` as typed (before the command's name), else ``$MENTALMAGIC_LANG``, else English."""
    words = iter(args)
    for word in words:
        if word == "--lang":
            return next(words, ENGLISH)
        if word.startswith("--lang="):
            return word.partition("=")[2]
        if word == "--db":
            next(words, None)
        elif not word.startswith("-") or word == "--":
            break
    return os.environ.get("MENTALMAGIC_LANG") or ENGLISH


def language() -> str:
    """The CLI's language: en, fr."""
    return _lang


def gettext(text: str) -> str:
    return _said.gettext(text) if text else text


METAVARS = frozenset(words for code, words in WORDS.items() if code.startswith("cli.metavar."))
_METAVAR = re.compile(r"(?<![\w$-])[A-Z]+(?![\w-])")


def metavars(text: str) -> str:
    """The placeholders of a usage line or an option (PLAYER, [COUNT], PLAYER=NAME) in the CLI's language."""
    return _METAVAR.sub(lambda m: gettext(m[0]) if m[0] in METAVARS else m[0], text)


def help_of(text: str | None) -> str:
    """A help text (a command's, an option's) in the CLI's language; ``text`` as click keeps it."""
    return gettext(inspect.cleandoc(text).partition("\f")[0]) if text else ""


class Formatter(click.HelpFormatter):
    """click's help page, each piece worded where it is written: the help texts and headings from
    the catalogue, the placeholders of the usage line and the options too."""

    def write_usage(self, prog: str, args: str = "", prefix: str | None = None) -> None:
        super().write_usage(prog, metavars(args), prefix)

    def write_heading(self, heading: str) -> None:
        self.write(f"{'':>{self.current_indent}}{render(say('cli.heading', heading=gettext(heading)), _said)}\n")

    def write_text(self, text: str) -> None:
        super().write_text(gettext(text))

    def write_dl(self, rows, col_max: int = 30, col_spacing: int = 2) -> None:
        super().write_dl([(metavars(term), _option_help(definition)) for term, definition in rows],
                         col_max, col_spacing)


_EXTRA = re.compile(r"(.*?)(?:(?:^|  )\[([^\[\]]*)\])?", re.S)


def _option_help(text: str) -> str:
    """An option's help and what click adds after it (``  [default: vintage]``, worded by click,
    but for a default said in words: ``(waitress (gunicorn: only behind …))``, a help text too)."""
    said = gettext(text)
    head, extra = _EXTRA.fullmatch(text).groups()
    if said != text or extra is None:
        return said
    extra = re.sub(r"\((.*)\)", lambda m: f"({gettext(m[1])})", extra, count=1)
    return f"{gettext(head)}  [{extra}]" if head else f"[{extra}]"


class Context(click.Context):
    formatter_class = Formatter


class Worded(click.ClickException):
    """One of click's own usage errors, shown as click shows it, with its placeholders worded
    (``Missing argument 'PLAYER'``): click builds that hint from the parameter, not with gettext."""

    def __init__(self, error: click.ClickException):
        super().__init__(error.message)
        self.error = error
        self.exit_code = error.exit_code

    def show(self, file=None) -> None:
        out = io.StringIO()
        self.error.show(out)
        click.echo(re.sub(r"'([^'\s]+)'", lambda m: f"'{metavars(m[1])}'", out.getvalue()), err=True, nl=False)


def worded(error: click.ClickException) -> click.ClickException:
    """click's own usage error ``error`` worded (``Worded``); the CLI's own as they are."""
    return Worded(error) if type(error).__module__.startswith("click") else error


def commands(ctx: click.Context, group: click.Group):
    """Every command under ``group``, lazy ones too, depth first."""
    for name in group.list_commands(ctx):
        command = group.get_command(ctx, name)
        if command is not None:
            yield command
            if isinstance(command, click.Group):
                yield from commands(ctx, command)


def help_texts() -> list[str]:
    """Every help text the CLI shows, as its msgid: the commands' (the first paragraph is their
    line in a group's list), their options' and arguments', and a default said in words (the help
    option's is click's, in messages.py)."""
    from . import main

    ctx = Context(main)
    out = []
    for command in (main, *commands(ctx, main)):
        out.append(getattr(command, "help_msgid", None) or inspect.cleandoc(command.help or "").partition("\f")[0])
        out += [p.help for p in command.params if getattr(p, "help", None)]
        out += [p.show_default for p in command.params if isinstance(getattr(p, "show_default", None), str)]
    return list(dict.fromkeys(t for t in out if t))


def extract_help(fileobj, keywords, comment_tags, options):
    """babel's extractor (babel.cfg): the help texts of the command tree, whatever file it is given."""
    for text in help_texts():
        yield 0, None, text, []
