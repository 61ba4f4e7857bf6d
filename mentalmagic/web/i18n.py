"""The pages' languages: French and English through Flask-Babel's gettext catalogue.

The language is, in order: the ``lang`` cookie the switch sets (a year), the
browser's Accept-Language, else French (the language of the rules' community).
On a tie in Accept-Language the browser's own order decides.

The catalogue is ``translations/fr/LC_MESSAGES/messages.po`` (committed); its
``.mo`` is compiled by ``make setup`` (``pybabel compile``) and git-ignored.
When the ``.mo`` is missing or older than the ``.po`` (a checkout without
``make setup``), ``compile_catalogues`` rebuilds it at start with babel's API,
so a page never shows a stale translation.
"""

from __future__ import annotations

import logging
from pathlib import Path

from babel.messages.mofile import write_mo
from babel.messages.pofile import read_po
from flask import Flask, request
from flask_babel import Babel

LANGUAGES = {"fr": "Français", "en": "English"}
DEFAULT_LANGUAGE = "fr"
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600
TRANSLATIONS = Path(__file__).resolve().parent / "translations"

log = logging.getLogger(__name__)


def select_language() -> str:
    """The cookie's choice, else the best match of Accept-Language, else French."""
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES:
        return chosen
    # by quality, then the browser's order; "fr-CA" is French (werkzeug's best_match would
    # prefer an exact "en;q=0.5" to it)
    for value, _quality in request.accept_languages:
        primary = value.replace("_", "-").split("-")[0].lower()
        if primary in LANGUAGES:
            return primary
    return DEFAULT_LANGUAGE


def compile_catalogues(root: Path = TRANSLATIONS) -> None:
    """Compile every ``.po`` whose ``.mo`` is missing or older; a read-only install keeps its ``.mo``."""
    for po in root.glob("*/LC_MESSAGES/*.po"):
        mo = po.with_suffix(".mo")
        if mo.exists() and mo.stat().st_mtime >= po.stat().st_mtime:
            continue
        try:
            with open(po, "rb") as fh:
                catalog = read_po(fh)
            with open(mo, "wb") as fh:
                write_mo(fh, catalog)
        except OSError as e:  # pages fall back to English text; the API is unaffected
            log.warning("could not compile %s: %s", po, e)


def init_app(app: Flask) -> None:
    compile_catalogues()
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_language)
