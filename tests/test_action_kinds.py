"""One action kind, every table: adding a kind to commands.COMMANDS fails here, naming each table
that lacks it (or holds a kind that is none), until it is everywhere (commands.py lists them)."""

from __future__ import annotations

from mentalmagic import grammar
from mentalmagic.actions import HANDLERS
from mentalmagic.commands import COMMANDS
from mentalmagic.game import FOLDS, GameSetup, Player
from mentalmagic.permissions import _CHECKS, UNCHECKED
from mentalmagic.runtime.inputs import ACTIONS


def _grammar_kinds() -> set[str]:
    """The kinds the examples of grammar.HELP parse to, on a table that has their players and cards."""
    setup = GameSetup("vintage", (Player("p1", "Ana"), Player("p2", "Ben"), Player("p3", "Cara")),
                      tuple((f"c{i}", "Shock") for i in range(1, 21)))
    table = grammar.Table.of(setup)
    return {grammar.parse(example, table).type for _, example, _ in grammar.HELP} - {grammar.Undo.type}


def test_every_table_holds_every_action_kind_and_nothing_else():
    kinds = set(COMMANDS)
    tables = {
        "inputs.ACTIONS (the API's bodies)": set(ACTIONS),
        "inputs.ACTIONS's commands": {s.command.type for s in ACTIONS.values()},
        "permissions._CHECKS and UNCHECKED": {c.type for c in (*_CHECKS, *UNCHECKED)},
        "actions.HANDLERS": {c.type for c in HANDLERS},
        "game.FOLDS (an event's type is its action's)": set(FOLDS),
        "grammar.HELP's examples and NOT_IN_GRAMMAR": _grammar_kinds() | grammar.NOT_IN_GRAMMAR,
    }
    disagree = {name: {"missing": sorted(kinds - got), "not a kind": sorted(got - kinds)}
                for name, got in tables.items() if got != kinds}
    assert not disagree, f"tables that disagree with commands.COMMANDS: {disagree}"


def test_a_kind_is_either_checked_or_said_unchecked_not_both():
    assert not set(_CHECKS) & UNCHECKED
    assert not _grammar_kinds() & grammar.NOT_IN_GRAMMAR
    assert all(ACTIONS[k].command is c for k, c in COMMANDS.items())
