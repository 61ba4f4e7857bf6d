"""The Mental Magic arbiter: a pure domain core (mana, cards, formats, index,
registry, ledger) with thin edges for storage, the web and the command line."""

__version__ = "0.1.0"
