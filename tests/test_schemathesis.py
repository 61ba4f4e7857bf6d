"""schemathesis over the whole OpenAPI document (/api/v1/openapi.json), every check, in-process (WSGI).

One game is created first, and every game operation is sent to it with the judge's token (its
``game_id`` replaced, the other fields left to the generator), so the fuzzer gets past 401/404
and reaches the handlers. Bounded: a fixed number of examples per operation, no deadline, no
database of examples kept between runs (the same seed every run, so a failure reproduces).
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings

API = "/api/v1"
EXAMPLES = 25  # per operation, the same every run (derandomized): a sample of each operation's inputs
LIBRARY = ["Shock", "Fire // Ice", "Savannah Lions", "Island", "Forest", "Llanowar Elves", "Counterspell",
           "Dark Ritual", "Giant Growth", "Lightning Bolt"] * 3


# Its library names cards (Island, Dark Ritual) the mini pool doesn't hold.
pytestmark = [pytest.mark.snapshot, pytest.mark.fuzz]


@pytest.fixture(scope="module")
def fuzz_app(app):
    created = app.test_client().post(f"{API}/games", json={
        "players": [{"name": "Ana"}, {"name": "Bob"}], "library": LIBRARY, "shuffle": False})
    assert created.status_code == 201, created.get_json()
    game = created.get_json()
    judge = {"Authorization": f"Bearer {game['judge_token']}"}
    state = app.test_client().get(f"{API}/games/{game['id']}", headers=judge)
    game["cards"] = [c["id"] for c in state.get_json()["cards"]]
    app.config["FUZZ_GAME"] = game
    return app


def test_the_api_answers_as_its_document_says(fuzz_app):
    """Every operation of the document, every check; the first failure of each operation is reported."""
    # Imported here: at the top, every process that collects the suite (each xdist worker) would.
    import schemathesis
    from schemathesis.checks import CHECKS, load_all_checks
    from schemathesis.config import SchemathesisConfig

    # A request valid by the document may still name what only the data knows to be wrong (a card
    # no pool holds in a library, a player id not in this game, one card id where two are needed):
    # docs/api.md answers those 422 with `fields`, so 422 counts as a refusal the schema can't foresee.
    config = SchemathesisConfig.from_dict({"checks": {"positive_data_acceptance": {
        "expected-statuses": ["2xx", "401", "403", "404", "409", "422"]}}})
    load_all_checks()
    every_check = [c for c in CHECKS.get_all() if callable(c) and not isinstance(c, type)]
    game = fuzz_app.config["FUZZ_GAME"]
    schema = schemathesis.openapi.from_wsgi(f"{API}/openapi.json", fuzz_app, config=config)
    failures, statuses = {}, {}
    sent = itertools.count()
    for result in schema.get_all_operations():
        operation = result.ok()

        label = operation.label

        @given(case=operation.as_strategy())
        @settings(max_examples=EXAMPLES, deadline=None, database=None, derandomize=True,
                  suppress_health_check=list(HealthCheck))
        def call(case):
            if "game_id" in (case.path_parameters or {}):
                case.path_parameters["game_id"] = game["id"]
                case.headers = {**(case.headers or {}), "Authorization": f"Bearer {game['judge_token']}"}
                n = next(sent)  # every other request names a real player and card, the rest what was generated
                if n % 2 and "player_id" in case.path_parameters:
                    case.path_parameters["player_id"] = "p1"
                if n % 2 and "card_id" in case.path_parameters:
                    case.path_parameters["card_id"] = game["cards"][n % len(game["cards"])]
            response = case.call_and_validate(checks=every_check)
            statuses.setdefault(label, set()).add(response.status_code)  # noqa: B023 - called in this turn

        try:
            call()
        except (Exception, BaseExceptionGroup) as e:  # collected: one run reports every operation
            failures[operation.label] = str(e)[:3000]
    assert not failures, "\n\n".join(f"{k}:\n{v}" for k, v in failures.items())
    assert len(statuses) >= 20, statuses  # the whole document: cards, games, decks, health
    print(sorted((k, sorted(v)) for k, v in statuses.items()))
    # the set-up game lets the fuzzer past authentication: every game operation got an answer of its own
    reached = {k for k, v in statuses.items() if "/games/{game_id}" in k and v - {401, 404}}
    assert reached == {k for k in statuses if "/games/{game_id}" in k}, statuses
