"""The French words a reader types in a type or keyword filter, read as the English ones the card
data uses (``mue`` is morph, as the console says it; ``créature`` is creature)."""

from __future__ import annotations

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
