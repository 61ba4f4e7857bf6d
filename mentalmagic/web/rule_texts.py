"""Each rule's short text, as gettext messages: what a rule number shown on a page says on hover.

Rendered into the page data with the script strings (``rules.<number>``); ``static/js/rules.js``
turns a rule number into an <abbr> carrying its short text in the page's language. The full
texts are docs/rules.md and docs/rules.fr.md.
"""

from __future__ import annotations

from flask_babel import gettext as _


def rule_texts() -> dict[str, str]:
    """Rule number -> its short text, in the request's language."""
    texts = {
        "700.1": _("Magic's rules apply unless Mental Magic's say otherwise"),
        "700.2": _("one common deck of about 300 cards"),
        "701.1a": _("players can't search the library"),
        "701.1b": _("a shuffle is replaced by a cut"),
        "702.1": _("one library, common to all players"),
        "702.2": _("a player owns a card once it leaves their library"),
        "702.2a": _("a card in the library has no owner"),
        "702.2b": _("who reveals library cards owns them while they stay revealed"),
        "702.2c": _("cards of a player's library looked at are that player's while looked at"),
        "703": _("the Pentaland: any card played face down as a basic land of any colour"),
        "703.2": _("any card of a hand may be played face down as a Pentaland"),
        "703.3": _("a face-down or unnamed face-up card one could play may be played as a Pentaland"),
        "703.4": _("playing a Pentaland is playing a land"),
        "703.6": _("a Pentaland is not a face-down permanent"),
        "703.7": _("a Pentaland moving between zones stays face down"),
        "703.8": _("into a hand or the library, a Pentaland stops being one"),
        "704.1": _("a card is named as a card of the same mana cost in the chosen format"),
        "704.2": _("two cards never share a name (but for 705.4a)"),
        "704.3": _("each half of a split card is a separate card"),
        "704.4": _("a named card keeps its name for good"),
        "705.1": _("name a card as it is cast, activated or played face down from a visible zone"),
        "705.2": _("an unnamed card leaving a hand face up is named first"),
        "705.3": _("an unnamed card put face up into a graveyard is named first"),
        "705.4": _("a face-down card turned face up is named by its controller"),
        "705.4a": _("when every legal name was taken since, one by an opponent, a taken one may be used"),
        "705.5": _("a card chosen or revealed for an effect is named so the choice is legal"),
        "705.6": _("information about an unnamed face-up card: its owner names it"),
        "705.7": _("mana cost and mana value: the printed ones"),
        "705.8": _("colours: those of the printed mana symbols"),
        "705.9": _("a card with a non-empty mana cost is a nonland card"),
        "705.10": _("an unnamed card shares no name"),
        "705.11": _("is card X in this hand? every unnamed card that could be X is named"),
        "706.1": _("banned or restricted in the chosen format: banned"),
        "706.2": _("banned in Mental Magic"),
        "706.3": _("banned in Mental Magic"),
        "706.4": _("banned in Mental Magic"),
        "706.4a": _("on Mental Magic's watch list: allowed, but watched"),
        "708.2": _("a face-down card is a 2/2 with no name, text or cost"),
        "800.4a": _("a player who leaves takes what they own; what they control else is exiled"),
        "903.3": _("a commander is a legendary creature, played as itself"),
        "903.4": _("a card's colour identity"),
        "903.5c": _("a player names only cards within their commander's colour identity"),
        "903.6": _("commanders start face up in the command zone"),
        "903.8": _("a commander costs {2} more for each earlier cast from the command zone"),
        "903.9a": _("a commander put into a graveyard or exile may go to the command zone"),
        "903.9b": _("a commander going to a hand or the library may go to the command zone"),
        "903.10a": _("21 combat damage from one commander: the player loses"),
    }
    decisions = {
        "D1": _("matching costs: hybrid symbols read as either half"),
        "D2": _("no mana cost matches only no mana cost; {0} only {0}"),
        "D3": _("X, C, S and Phyrexian symbols match only themselves"),
        "D4": _("multi-face cards: which faces are names and which costs they offer"),
        "D5": _("the candidates: the format's legal cards less the bans"),
        "D6": _("705.4a's window: the names free when the card went face down"),
        "D7": _("opponents: the players of the other teams"),
        "D8": _("no legal name even with 705.4a: the player who played it face down loses"),
        "D9": _("leaving the game: returned, removed and exiled cards"),
        "D10": _("a named card played as a Pentaland keeps its name"),
        "D11": _("the chooser of 705.5 names the chosen card"),
        "D12": _("a face-down card leaving the battlefield or the stack is named as it turns face up"),
        "D13": _("small readings of 705.4a, 705.9, megamorph and via"),
        "D14": _("Commander games"),
        "D15": _("hidden cards can't be followed"),
    }
    return {f"rules.{k}": v for k, v in {**texts, **decisions}.items()}
