"""The pages' and the API's languages: French and English through Flask-Babel's gettext catalogue.

A page's language is, in order: the ``lang`` cookie the switch sets (a year), the
browser's Accept-Language, else French (the language of the rules' community).
The API's (its errors, reasons, deck problems: every core message, messages.py) is
``?lang=``, else Accept-Language, else English, the bots' default; the pages' scripts
send their page's language as Accept-Language. On a tie the browser's own order decides.

The catalogue is ``translations/fr/LC_MESSAGES/messages.po`` (committed); its
``.mo`` is compiled by ``make setup`` (``pybabel compile``) and git-ignored.
When the ``.mo`` is missing or older than the ``.po`` (a checkout without
``make setup``), ``compile_catalogues`` rebuilds it at start with babel's API,
so a page never shows a stale translation.
"""

from __future__ import annotations

from flask import Flask, request
from flask_babel import Babel

from ..catalogue import TRANSLATIONS, compile_catalogues
from ..messages import ENGLISH

LANGUAGES = {"fr": "Français", "en": "English"}
DEFAULT_LANGUAGE = "fr"
COOKIE = "lang"
COOKIE_MAX_AGE = 365 * 24 * 3600

__all__ = ["COOKIE", "COOKIE_MAX_AGE", "LANGUAGES", "compile_catalogues", "init_app", "select_language"]


def _primary(value: str) -> str:
    return value.replace("_", "-").split("-")[0].lower()


def select_language() -> str:
    """Under /api/: ``?lang=``, else Accept-Language, else English. A page: the cookie's choice,
    else the best match of Accept-Language, else French."""
    api = request.path.startswith("/api/")
    asked = _primary(request.args.get("lang", ""))
    if asked in LANGUAGES:
        return asked
    chosen = request.cookies.get(COOKIE, "")
    if chosen in LANGUAGES and not api:
        return chosen
    # by quality, then the browser's order; "fr-CA" is French (werkzeug's best_match would
    # prefer an exact "en;q=0.5" to it)
    for value, _quality in request.accept_languages:
        if _primary(value) in LANGUAGES:
            return _primary(value)
    return ENGLISH if api else DEFAULT_LANGUAGE


def init_app(app: Flask) -> None:
    compile_catalogues()
    app.config.setdefault("BABEL_TRANSLATION_DIRECTORIES", str(TRANSLATIONS))
    Babel(app, locale_selector=select_language)
