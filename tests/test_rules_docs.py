"""docs/rules.fr.md keeps in step with docs/rules.md (issue 19): the same rule and decision numbers."""

from __future__ import annotations

import re
from pathlib import Path

DOCS = Path(__file__).resolve().parent.parent / "docs"
NUMBER = re.compile(r"\b(?:70\d|80\d|90\d)(?:\.\d+[a-z]?)?\b|\bD\d+(?:\([a-f]\))?")


def numbers(name: str) -> set[str]:
    return set(NUMBER.findall((DOCS / name).read_text(encoding="utf-8")))


def test_the_french_rules_cite_every_number_the_english_rules_cite_and_no_other():
    english, french = numbers("rules.md"), numbers("rules.fr.md")
    assert {f"D{i}" for i in range(1, 16)} <= english
    assert english == french, (sorted(english - french), sorted(french - english))
