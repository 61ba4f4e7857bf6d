"""The service layer over the SQLite unit of work: typed commands in, plain views out; and the
token reissue of docs/api.md, through the service and through HTTP."""

from __future__ import annotations

import pytest
from support import fresh_games_db

from mentalmagic import errors, services
from mentalmagic.commands import Draw, Move, Name
from mentalmagic.permissions import JUDGE, Caller
from mentalmagic.runtime import Runtime
from mentalmagic.storage.gamedb import GameStore
from mentalmagic.web import create_app


@pytest.fixture(scope="module")
def db_path(tmp_path_factory, card_db_path):
    return fresh_games_db(card_db_path, tmp_path_factory.mktemp("services") / "games.sqlite")


@pytest.fixture
def store(db_path, finder) -> GameStore:
    return GameStore(db_path, finder)


def new_game(store: GameStore, library=("Shock", "Shock", "Grizzly Bears")) -> dict:
    return services.create_game(store.unit_of_work(), "vintage", {}, [{"name": "Ana"}, {"name": "Bob"}],
                                list(library), shuffle=False)


def test_a_command_goes_through_the_service_and_lands_once(store):
    g = new_game(store)
    ana = services.authenticate(store.unit_of_work(), g["id"], f"Bearer {g['players'][0]['token']}")
    assert ana == Caller(player="p1")
    acted = services.act(store.unit_of_work(), g["id"], ana, Draw(count=2))
    assert acted["event"]["type"] == "draw" and len(acted["cards"]) == 2
    assert all("printed" in c for c in acted["cards"])  # a drawer sees their hand
    first, second = sorted(c["id"] for c in acted["cards"])
    services.act(store.unit_of_work(), g["id"], ana, Move(card=first, to="stack", name="Lightning Bolt"))
    with pytest.raises(errors.NameTaken):  # 704.2, refused: nothing is written
        services.act(store.unit_of_work(), g["id"], ana, Name(card=second, name="Lightning Bolt"))
    fresh = GameStore(store.db_path, store.finder)  # a restart reads exactly what was committed
    assert [e["seq"] for e in services.events(fresh.unit_of_work(), g["id"], JUDGE)["events"]] == [1, 2]
    assert fresh.load(g["id"]).state.snapshot() == store.load(g["id"]).state.snapshot()
    undone = services.undo(store.unit_of_work(), g["id"], JUDGE)
    assert undone == {"undone": undone["undone"], "seq": 1} and undone["undone"]["seq"] == 2
    assert services.names(store.unit_of_work(), g["id"], JUDGE) == {"names": []}


def test_bob_sees_neither_anas_hand_nor_the_library(store):
    g = new_game(store)
    services.act(store.unit_of_work(), g["id"], Caller("p1"), Draw(count=1))
    view = services.game(store.unit_of_work(), g["id"], Caller("p2"))
    assert [c["zone"] for c in view["cards"]] == ["hand"] and "printed" not in view["cards"][0]
    assert "printed" in services.game(store.unit_of_work(), g["id"], Caller("p1"))["cards"][0]


def test_the_judge_reissues_a_token_and_the_old_one_stops_working(store):
    g = new_game(store)
    old = f"Bearer {g['players'][1]['token']}"
    with pytest.raises(errors.Forbidden):
        services.reissue_token(store.unit_of_work(), g["id"], Caller("p2"), "p2")
    with pytest.raises(errors.UnknownPlayer):
        services.reissue_token(store.unit_of_work(), g["id"], JUDGE, "p9")
    token = services.reissue_token(store.unit_of_work(), g["id"], JUDGE, "p2")["token"]
    assert services.authenticate(store.unit_of_work(), g["id"], f"Bearer {token}") == Caller("p2")
    with pytest.raises(errors.Unauthorized):
        services.authenticate(store.unit_of_work(), g["id"], old)


def test_reissuing_a_token_over_http(db_path, pool, finder):
    client = create_app({"TESTING": True, "DATABASE": str(db_path),
                         "RUNTIME": Runtime(db_path=db_path, pool=pool, finder=finder)}).test_client()
    g = client.post("/api/v1/games", json={"players": [{"name": "Ana"}, {"name": "Bob"}],
                                           "library": ["Shock"]}).get_json()
    url = f"/api/v1/games/{g['id']}/players/p1/token"
    judge = {"Authorization": f"Bearer {g['judge_token']}"}
    ana = {"Authorization": f"Bearer {g['players'][0]['token']}"}
    assert client.post(url, headers=ana).status_code == 403
    # no such player: UnknownPlayer, 422 naming the player, as for a player field anywhere else
    assert client.post(f"/api/v1/games/{g['id']}/players/p7/token", headers=judge).status_code == 422
    token = client.post(url, headers=judge).get_json()["token"]
    assert client.get(f"/api/v1/games/{g['id']}", headers=ana).status_code == 401
    you = client.get(f"/api/v1/games/{g['id']}", headers={"Authorization": f"Bearer {token}"}).get_json()["you"]
    assert you == "p1"
