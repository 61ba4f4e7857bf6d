"""The translation catalogue read with Babel, for the edges that word messages (messages.py).

The web (web/i18n.py) and the CLI (``--lang``) read the same files; this module imports nothing
of ``mentalmagic.web``, so the CLI words French without loading Flask. The ``.po`` files are
committed; a ``.mo`` missing or older than its ``.po`` (a checkout without ``make setup``) is
compiled here with Babel's API, so nobody reads a stale translation.
"""

from __future__ import annotations

import logging
from functools import cache
from pathlib import Path

from .messages import ENGLISH, LANGUAGES, English, Message, render

TRANSLATIONS = Path(__file__).resolve().parent / "web" / "translations"

log = logging.getLogger(__name__)


def compile_catalogues(root: Path = TRANSLATIONS) -> None:
    """Compile every ``.po`` whose ``.mo`` is missing or older; a read-only install keeps its ``.mo``."""
    for po in root.glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        from babel.messages.mofile import write_mo  # only when a catalogue needs compiling
        from babel.messages.pofile import read_po

        try:
            with open(po, "rb") as fh:
                catalog = read_po(fh)
            with open(mo, "wb") as fh:
                write_mo(fh, catalog)
        except OSError as e:  # the words fall back to English
            log.warning("could not compile %s: %s", po, e)


def primary(lang: str | None) -> str:
    """'fr' for 'fr-CA' or 'fr_FR'; English for a language the catalogue lacks."""
    code = (lang or ENGLISH).replace("_", "-").split("-")[0].lower()
    return code if code in LANGUAGES else ENGLISH


@cache
def translations(lang: str | None):
    """The catalogue of ``lang`` ("fr", "fr-CA", "en"…); English (the msgids) for anything else."""
    code = primary(lang)
    if code == ENGLISH:
        return English()  # the msgids: no Babel to import for a look-up in English
    from babel.support import Translations

    compile_catalogues()
    return Translations.load(str(TRANSLATIONS), [code])


def number(n: int, lang: str | None = None) -> str:
    """``n`` written the way ``lang`` writes it: 34,344 in English, 34 344 in French."""
    code = primary(lang)
    if code == ENGLISH:
        return f"{n:,}"  # no Babel to import for English
    from babel.numbers import format_decimal

    return format_decimal(n, locale=code)


def text(message: Message | str, lang: str | None = None) -> str:
    """``message`` worded in ``lang``."""
    return render(message, translations(lang))
