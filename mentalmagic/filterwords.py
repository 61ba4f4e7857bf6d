"""The French words a reader types in a type or keyword filter, read as the English ones the card
data uses (``mue`` is morph, as the console says it; ``créature`` is creature)."""

from __future__ import annotations

import weakref

from .errors import UnknownWord
from .names import fold

# Keys folded (accents and case dropped): `mégamue`, `megamue`, `Mégamue` all read.
FRENCH_TYPES: dict[str, str] = {
    "creature": "creature", "ephemere": "instant", "rituel": "sorcery", "artefact": "artifact",
    "enchantement": "enchantment", "planeswalker": "planeswalker", "terrain": "land", "bataille": "battle",
    "legendaire": "legendary", "tribal": "kindred", "parente": "kindred",
}
FRENCH_KEYWORDS: dict[str, str] = {
    "mue": "morph", "megamue": "megamorph", "deguisement": "disguise", "manifestation": "manifest",
    "camouflage": "cloak", "recyclage": "cycling", "suspension": "suspend", "greffe": "splice",
    "flash": "flash", "vol": "flying", "convocation": "convoke", "fouille": "delve",
}
# What a French page suggests, accents as written (the keys of the maps above, spelled).
TYPES_SHOWN_FR = ("créature", "éphémère", "rituel", "artefact", "enchantement", "planeswalker",
                  "terrain", "bataille", "légendaire", "tribal")
KEYWORDS_SHOWN_FR = ("mue", "mégamue", "déguisement", "recyclage", "suspension", "greffe", "flash",
                     "vol", "convocation", "fouille")


def in_english(word: str | None, french: dict[str, str]) -> str | None:
    """The English filter word ``word`` stands for (``word`` itself when it is no French one)."""
    if not word:
        return word
    return french.get(fold(word.strip()), word)

_KNOWN: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def _known(pool) -> dict[str, frozenset[str]]:
    """Every type-line word and every keyword of the pool's cards, folded: what a filter can match."""
    known = _KNOWN.get(pool)
    if known is None:  # once per pool, one face per type line and per keyword set (35k faces, ~5k lines)
        by_line = {f.type_line: f for card in pool.cards for f in card.faces}
        by_keywords = {f.keywords: f for card in pool.cards for f in card.faces}
        known = _KNOWN[pool] = {
            "type": frozenset(w for f in by_line.values() for w in f.type_words()),
            "keyword": frozenset(w for f in by_keywords.values() for w in f.keyword_words()),
        }
    return known


def filter_word(pool, word: str | None, field: str) -> str | None:
    """The English word a ``type`` or ``keyword`` filter stands for (``field``), French read as the
    data's English; ``UnknownWord`` with the close words, French or English, when no card has it."""
    french, shown = (FRENCH_TYPES, TYPES_SHOWN_FR) if field == "type" else (FRENCH_KEYWORDS, KEYWORDS_SHOWN_FR)
    english = in_english(word, french)
    if not english or fold(english.strip()) in _known(pool)[field]:
        return english

    def close() -> tuple[str, ...]:
        import difflib  # asked only of a word that matches none (a CLI look-up never loads it: test_pool_cache)

        known = _known(pool)[field]
        spelled = {fold(w): w for w in shown}  # a French word as written, accents and all
        words = sorted(known | set(french))
        return tuple(w if w in known else spelled.get(w, w)
                     for w in difflib.get_close_matches(fold(word), words, n=5))

    raise UnknownWord(word, field, close)


# The creature types a French player names most, read as the card data's English (a search's `t:`).
FRENCH_SUBTYPES: dict[str, str] = {
    "gobelin": "goblin", "elfe": "elf", "humain": "human", "ange": "angel", "demon": "demon", "zombie": "zombie",
    "vampire": "vampire", "sorcier": "wizard", "soldat": "soldier", "guerrier": "warrior", "chevalier": "knight",
    "bete": "beast", "esprit": "spirit", "ondin": "merfolk", "chat": "cat", "oiseau": "bird", "clerc": "cleric",
    "voleur": "rogue", "dragon": "dragon", "geant": "giant", "nain": "dwarf", "loup": "wolf", "serpent": "snake",
    "chevaucheur": "rider",
}
# A search's `is:` words in French (search.py IS_TESTS).
FRENCH_IS: dict[str, str] = {
    "pris": "taken", "prise": "taken", "libre": "free", "surveille": "watched", "surveillee": "watched",
    "scindee": "split", "sort": "spell", "historique": "historic", "hybride": "hybrid", "phyrexiane": "phyrexian",
    "aventure": "adventure",
}
