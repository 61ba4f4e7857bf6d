"""The words the pages show of a rule set (docs/rule-sets.md): which one is in force, and each
aspect where it differs from Magic-Ville's, with its own source's rule (``{rule}``)."""

from __future__ import annotations

from flask_babel import gettext as _


def rule_set_labels() -> dict[str, str]:
    """Each rule set as a choice of the lookup page."""
    return {"magic-ville": _("Magic-Ville (the default)"), "xom": _("Xom's Async Mental Magic (2018)"),
            "magering": _("MageRing (2015)")}


def rules_strings() -> dict[str, str]:
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
    }
