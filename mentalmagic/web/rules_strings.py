"""The words the pages show of a rule set (docs/rule-sets.md): which one is in force, and each
aspect where it differs from Magic-Ville's, with its own source's rule (``{rule}``)."""

from __future__ import annotations

from collections.abc import Callable

from flask_babel import gettext

from ..messages import WORDS
from ..rulesets import DEFAULT_RULES, OPTIONS, PRESETS, RULE_SETS, rules_view

# Each function words in the request's language (Flask-Babel's gettext), or with the ``_`` it is
# given: the CLI's, from the catalogue of its --lang (catalogue.translations(lang).gettext).
Gettext = Callable[[str], str]


def rule_set_labels(_: Gettext = gettext) -> dict[str, str]:
    """Each rule set as a choice of the lookup page and the console, in rulesets.py's order: a preset
    without words here is a KeyError on every page that offers it (tests/test_console_rulesets.py)."""
    labels = {"magic-ville": _("Magic-Ville (the default)"), "xom": _("Xom's Async Mental Magic (2018)"),
              "magering": _("MageRing (2015)")}
    return {key: labels[key] for key in RULE_SETS}


def _descriptions(_: Gettext) -> dict[str, str]:
    return {
        "magic-ville": _("The Magic-Ville rules (700–706) with the decisions D1–D15: exact costs, the Pentaland, "
                         "each name once per game."),
        "xom": _("Xom's rules for play by post: {0} matches no cost, multicolour costs match by mana value, "
                 "the Utopia land, no face-down cards, names stay taken for a whole series."),
        "magering": _("MageRing's rules: exact costs, a Utopia land of every basic land type, morph and dredge "
                      "removed, a card that re-enters the battlefield named anew, its own ban list."),
    }


def _sources(_: Gettext = gettext) -> dict[str, str]:
    """Each preset's source as a reader of the page's language calls it (messages.py, rules.source.*;
    rulesets.py keeps the documents' own titles); a preset without words there shows its title."""
    return {code.removeprefix("rules.source."): _(words) for code, words in WORDS.items()
            if code.startswith("rules.source.")}


def _cite_words(_: Gettext = gettext) -> dict[str, str]:
    """MageRing's rules are cited by the heading of their section, not by a number: those headings as
    the page says them (messages.py, rules.cite.*). The others (Utopia, Richard Garfield, Ph.D.) are
    names, the same in both."""
    return {code.removeprefix("rules.cite."): _(words) for code, words in WORDS.items()
            if code.startswith("rules.cite.")}


def cite(rule: str, _: Gettext = gettext) -> str:
    """A rule set's own citation as the page shows it: a number as it is, a section's heading worded."""
    return _cite_words(_).get(rule, rule)


def source_of(key: str, source: str, _: Gettext = gettext) -> str:
    return _sources(_).get(key, source)


def _option_words(_: Gettext) -> dict[str, tuple[str, str]]:
    return {"phyrexian_as_hybrid": (_("Phyrexian mana as hybrid (house option, D3)"),
                                    _("A {W/P} card may also be named as a {W} card or a {2} card."))}


def _aspect_words(aspect: str, rule: str, land: str, _: Gettext = gettext) -> str:
    """One aspect where a rule set differs, as the game page says it (rules_strings, rules.aspect.*)."""
    return rules_strings(_)[f"rules.aspect.{aspect}"].replace("{rule}", rule).replace("{land}", land)


def rule_set_choices(_: Gettext = gettext) -> list[dict]:
    """The choice of a rule set, one list for the console, the lookup page, GET /rule-sets and the
    CLI's ``rule-sets``: each preset of rulesets.py with its label, a line saying what it is, its
    source, where it differs from the default (with its own rule) and its options."""
    descriptions, options, sources = _descriptions(_), _option_words(_), _sources(_)
    out = []
    for key, label in rule_set_labels(_).items():
        rs = PRESETS[key]
        out.append({
            "key": key, "label": label, "description": descriptions[key], "source": sources.get(key, rs.source),
            "source_lang": None if key in sources else "en", "url": rs.url,
            "differs": [_aspect_words(a, cite(rs.cite(a), _), rs.land.name, _) for a in rs.differs()],
            "options": [{"key": o, "label": options[o][0], "description": options[o][1]} for o in sorted(OPTIONS[key])],
        })
    return out


def rule_sets_answer(_: Gettext = gettext) -> list[dict]:
    """GET /rule-sets' list (docs/api.md): each rule set's data (rulesets.rules_view) with its name,
    source, options and differences worded in the reader's language, and which is the default."""
    out = []
    for choice in rule_set_choices(_):
        rs = PRESETS[choice["key"]]
        view = rules_view(rs)
        out.append({
            "key": rs.key, "name": choice["label"], "description": choice["description"],
            "source": choice["source"], "url": rs.url, "default": rs.key == DEFAULT_RULES,
            "options": choice["options"], "land": view["land"], "name_scope": rs.name_scope,
            "differs": [{**d, "words": words} for d, words in zip(view["differs"], choice["differs"], strict=True)],
        })
    return out


def rules_strings(_: Gettext = gettext) -> dict[str, str]:
    """The scripts' strings of a rule set (merged into script_strings)."""
    return {
        "rules.line": _("Rules: {source}"),
        "rules.differs": _("where they differ from Magic-Ville's: {list}"),
        "rules.aspect.matching": _("cost matching ({rule})"),
        "rules.aspect.zero": _("{0} and no mana cost ({rule})"),
        "rules.aspect.multicolour": _("multicolour costs ({rule})"),
        "rules.aspect.land": _("the face-down land is {land} ({rule})"),
        "rules.aspect.bans": _("banned cards ({rule})"),
        "rules.aspect.face_down": _("face-down cards ({rule})"),
        "rules.aspect.returning": _("a card that returns ({rule})"),
        "rules.aspect.names": _("names ({rule})"),
        "rules.aspect.scope": _("names stay taken for the whole series ({rule})"),
        "filter.rules": _("rules {v}"),
        **{f"rules.source.{key}": words for key, words in _sources(_).items()},
        **{f"cite.{rule}": words for rule, words in _cite_words(_).items()},
    }
