"""Card names close to a name that matches none: misspellings (difflib on folded names, so
accents don't count), English or French, then names that start with it. A deck list's problem
lines, an unknown card in the API's ``unknown_card`` error and in the CLI all suggest these."""

from __future__ import annotations

import re
import weakref

from .cards import SPLIT_LAYOUTS
from .names import fold

# "(M19) 156", "[M19]", "(PLST) M19-156", "*F*": what follows a name in an export, not part of it.
_SET_SUFFIX = re.compile(r"\s+[(\[][A-Za-z0-9]{2,6}[)\]](?:\s+[A-Za-z0-9★\-]{1,12})?(?:\s+\*[A-Za-z]+\*)*$")


def name_variants(name: str) -> list[str]:
    """The ways a written name may be meant: as written, without a set/collector suffix, 'Fire/Ice'."""
    out = [name]
    bare = _SET_SUFFIX.sub("", name).strip()
    if bare and bare != name:
        out.insert(0, bare)  # "Shock (M19) 156" means Shock; a name with "(...)" in it still resolves
    for n in list(out):
        if "/" in n and "//" not in n:
            out.append(re.sub(r"\s*/\s*", " // ", n))
    return out


class _Names:
    """Every name a card answers to, folded and bucketed by length for close-match search."""

    def __init__(self, pool):  # a CardPool (pool.py imports this module)
        self.shown: dict[str, str] = {}  # folded -> the name as printed (English or French)
        for card in pool.cards:
            if not card.in_library:
                continue
            # both halves of a split card; of any other card its front (a back face is no card of its own)
            faces = card.faces if card.layout in SPLIT_LAYOUTS else card.faces[:1]
            labels = [card.name, card.french_name, *(f.name for f in faces), *(f.french_name for f in faces)]
            for label in labels:
                if label:
                    self.shown.setdefault(fold(label), label)
        self.by_length: dict[int, list[str]] = {}
        for key in self.shown:
            self.by_length.setdefault(len(key), []).append(key)

    def close(self, key: str, n: int) -> list[str]:
        spread = max(2, len(key) // 4)
        near = [k for size in range(len(key) - spread, len(key) + spread + 1) for k in self.by_length.get(size, ())]
        import difflib  # asked only of a name that matches none

        return difflib.get_close_matches(key, near, n=n, cutoff=0.75)


_NAMES: weakref.WeakKeyDictionary = weakref.WeakKeyDictionary()


def suggestions(name: str, pool, limit: int = 5) -> tuple[str, ...]:
    """Names close to ``name``: misspellings (difflib on folded names, so accents don't count),
    English or French, then names that start with it."""
    names = _NAMES.get(pool)
    if names is None:
        names = _NAMES[pool] = _Names(pool)
    out: list[str] = []
    variants = name_variants(name)
    if "//" in name:  # "4 Shock // burn": a trailing comment, or a split card misspelt on one side
        variants += [half.strip() for half in name.split("//")]
    for variant in variants:
        key = fold(variant)
        if not key:
            continue
        out += [names.shown[k] for k in names.close(key, limit)]
        if len(key) >= 3:
            out += [c.name for c in pool.search(key, limit) if c.in_library]
    return tuple(dict.fromkeys(out))[:limit]
