"""The pages' script strings, as gettext messages (extracted with the templates' by pybabel).

pages.py renders them, translated, into the page as JSON data (``i18n-data``);
``static/js/i18n.js`` reads them. A plural message gives two keys, ``key.one`` and
``key.other``, chosen in the browser by Intl.PluralRules. ``{name}`` placeholders are filled
by the script; ``{n}`` is written with the language's digit grouping.
"""

from __future__ import annotations

from flask_babel import get_translations
from flask_babel import gettext as _

from .console_strings import console_strings
from .rule_texts import rule_texts
from .rules_strings import rules_strings


def _plural(key: str, singular: str, plural: str) -> dict[str, str]:
    """Both forms of a plural message; extracted with ``-k _plural:2,3`` (see the Makefile)."""
    t = get_translations()
    return {f"{key}.one": t.ngettext(singular, plural, 1), f"{key}.other": t.ngettext(singular, plural, 2)}


def script_strings() -> dict[str, str]:
    """Every string the scripts show, in the request's language."""
    return {
        **rules_strings(),
        # mana symbols: what a screen reader says
        "colour.W": _("white"),
        "colour.U": _("blue"),
        "colour.B": _("black"),
        "colour.R": _("red"),
        "colour.G": _("green"),
        "colour.C": _("colorless"),
        **_plural("mana.generic", "{n} generic mana",
                  "{n} generic mana"),
        "mana.coloured": _("one {c} mana"),
        "mana.variable": _("{x} generic mana"),
        "mana.snow": _("one snow mana"),
        "mana.half": _("half a generic mana"),
        "mana.infinite": _("infinite generic mana"),
        "mana.unknown": _("cost unknown to the card data"),
        "mana.half_coloured": _("half a {c} mana"),
        "mana.phyrexian": _("one {c} Phyrexian mana"),
        "mana.twobrid": _("two generic or one {c} mana"),
        "mana.hybrid": _("one {a} or {b} mana"),
        "mana.hybrid_phyrexian": _("one {a} or {b} Phyrexian mana"),
        "mana.symbol": _("{s} symbol"),
        "cost.none": _("no mana cost"),
        "cost.none_short": _("no cost"),
        "cost.none_word": _("none"),  # what the None key types: a word the cost readers take
        "type.english_mark": _("(en)"),  # after a type line the card data has in English only
        "type.english_title": _("The card data has this type line in English only"),
        "cost.none_title": _("no mana cost (not {0})"),
        "cost.and": _("and"),
        # keypad and cost box
        "keypad.add": _("Add {what}"),
        "keypad.cost": _("Cost: {cost}"),
        "keypad.cleared": _("Cost cleared"),
        "preview.nothing": _("nothing yet"),
        "preview.invalid": _("not a cost this page can read; search to see why"),
        # combobox
        "combo.no_match": _("No card matches “{q}”"),
        "combo.none": _("No matching card."),
        **_plural("combo.count", "{n} suggestion; use the arrow keys to choose.",
                  "{n} suggestions; use the arrow keys to choose."),
        # status and errors
        "ask.name": _("Type a card name first (English or French)."),
        "ask.cost": _("Enter a mana cost first, or press None for a card with no mana cost."),
        "status.busy": _("Looking up…"),
        **_plural("status.found", "{n} candidate name for {what} in {format}",
                  "{n} candidate names for {what} in {format}"),
        "status.unknown": _("Cost unknown for: {faces}."),
        "status.loading_all": _("Loading all {n}…"),
        "status.loading_more": _("Loading more…"),
        "status.shown": _("Showing {shown} of {total} candidates."),
        "error.label": _("Error:"),
        "error.unknown": _("something went wrong."),
        "error.suggestions": _("Did you mean: {names}?"),
        "error.network": _("The arbiter could not be reached; check the connection and try again."),
        "error.http": _("The server answered {status}."),
        "error.bad_response": _("The server sent an answer this page cannot read."),
        "rule": _("rule {rule}"),
        "filter.type": _("type {v}"),
        "filter.query": _("search {v}"),
        "filter.keyword": _("keyword {v}"),
        "filter.game": _("game {v}"),
        "filter.commander": _("within {v}'s colour identity"),
        "filter.phyrexian": _("Phyrexian mana as hybrid"),
        # results
        "title.results": _("{what} — Card lookup — Mental Magic arbiter"),
        "results.for_card": _("Names for {name}"),
        "results.for_cost": _("Names for {cost}"),
        "costs.card": _("It may be named as a card costing"),
        "costs.cost": _("Matching costs"),
        "costs.none": _("No cost: this card can't be named from its mana cost."),
        "unknown.label": _("Cost unknown:"),
        "unknown.lacks": _("the card data lacks the mana cost of {faces}."),
        **_plural("unknown.missing",
                  "That face offers no cost here, so names it could take are missing from this list.",
                  "Those faces offer no cost here, so names they could take are missing from this list."),
        **_plural("count.line", "{count} candidate in {format}",
                  "{count} candidates in {format}"),
        "count.none": _("No card of this format has a matching cost."),
        "count.none_query": _("No name fits the search: the rules allow the names listed below, which it "
                              "left out."),
        "count.none_both": _("No name fits the search, and the rules allow none: each name below says "
                             "what left it out."),
        **_plural("excluded.title", "Why not the card with this cost",
                  "Why not the {n} cards with this cost"),
        "cand.half_of": _("half of {card}"),
        "cand.french": _("French:"),
        "cand.english": _("English:"),
        "cand.no_french": _("no French name known"),
        "cand.no_english": _("no other name"),
        "mark.watched": _("watched"),
        "mark.watched_title": _("706.4a watch list: allowed, but flagged"),
        "mark.taken": _("taken"),
        "mark.taken_title": _("704.2: already named in this game"),
        "shown": _("Showing {shown} of {total}."),
        "more.some": _("Show {n} more"),
        "more.all": _("Show all {n}"),
        # the text card
        "card.aria": _("Printed card: {name}"),
        "card.french_name": _("French: "),
        "card.english_name": _("English: "),
        "card.face_unknown": _("face unknown to the card data"),
        "card.pt_label": _("power {p}, toughness {t}"),
        "card.loyalty": _("Loyalty: {v}"),
        "card.defense": _("Defense: {v}"),
        "card.layout": _("Layout: {layout}."),
        "card.legalities": _("Legalities"),
        "card.legal_unknown": _("The card data has no legalities: every format admits every card."),
        "legal.legal": _("legal"),
        "legal.banned": _("banned"),
        "legal.restricted": _("restricted"),
        "legal.not_legal": _("not legal"),
        "mm.label": _("Mental Magic list:"),
        "mm.banned": _("Banned in Mental Magic ({rule})"),
        "mm.watched": _("Watched ({rule})"),
        "mm.none": _("Not on the Mental Magic list"),
        "mm.watched_title": _("706.4a: allowed, but watched"),
        **console_strings(_plural),
        **rule_texts(),
    }
