"""The one game driver of the suite: a game at the table played through the HTTP API (a Flask test
client), each player with their own token, every answer checked against its published schema.

Games are created with ``"shuffle": false`` so the library is the given list, top first. Players are
``p1`` (Ana), ``p2`` (Bob), ``p3`` (Cid), ... in the order they are given.
"""

from __future__ import annotations

from urllib.parse import urlencode

from support import as_shown, assert_envelope, checked, schema, shown_to

from mentalmagic.web import schemas

API = "/api/v1"
JUDGE = "judge"
ANA, BOB, CID, DEE = "p1", "p2", "p3", "p4"


def new_series(client, rules: str, options: dict | None = None) -> dict:
    """POST /series: a playgroup's league under ``rules``; its id and token (Game(series=...))."""
    response = checked(client.post(f"{API}/series", json={"rules": rules, "options": options or {}}))
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def candidate_names(client, **params) -> list[str]:
    response = checked(client.get(f"{API}/candidates?" + urlencode(params)))
    assert response.status_code == 200, response.get_json()
    return [c["name"] for c in response.get_json()["candidates"]]


class Game:
    """One game at the table, played through the HTTP API with each player's own token."""

    def __init__(self, client, library, players=("Ana", "Bob"), teams=None, fmt=None, series: dict | None = None):
        """``series``: POST /series' answer, whose game this is (its token makes it, its rules hold)."""
        body = {"players": [{"name": n, "team": (teams[i] if teams else None)} for i, n in enumerate(players)],
                "library": list(library), "shuffle": False}
        if fmt:
            body["format"] = fmt
        if series:
            body["series"] = series["id"]
        headers = {"Authorization": f"Bearer {series['token']}"} if series else {}
        response = checked(client.post(f"{API}/games", json=body, headers=headers))
        assert response.status_code == 201, response.get_json()
        created = response.get_json()
        assert schema(schemas.CreateGameOut).validate(created) == {}
        assert created["library_size"] == len(library)
        self.client = client
        self.id = created["id"]
        self.judge_token = created["judge_token"]
        self.tokens = {p["id"]: p["token"] for p in created["players"]}
        self.pids = [p["id"] for p in created["players"]]

    @classmethod
    def joined(cls, client, other: Game) -> Game:
        """The same game through another client (another app over the same database)."""
        game = cls.__new__(cls)
        game.client, game.id, game.judge_token = client, other.id, other.judge_token
        game.tokens, game.pids = dict(other.tokens), list(other.pids)
        return game

    # -- raw calls ------------------------------------------------------------------------------
    def headers(self, who) -> dict:
        return {"Authorization": f"Bearer {self.judge_token if who == JUDGE else self.tokens[who]}"}

    def get(self, path: str, who=JUDGE):
        return checked(self.client.get(f"{API}/games/{self.id}{path}", headers=self.headers(who)))

    def act(self, who, **action):
        action = as_shown(self.client, self.id, who, action)  # the card as the player sees it (D15)
        return checked(self.client.post(f"{API}/games/{self.id}/actions", json=action, headers=self.headers(who)))

    def shown(self, who, ref):
        """The id ``who`` knows a card by now (support.shown_to, D15)."""
        return shown_to(self.client, self.id, who, ref)

    # -- reading --------------------------------------------------------------------------------
    def view(self, who=JUDGE) -> dict:
        response = self.get("", who)
        assert response.status_code == 200, response.get_json()
        body = response.get_json()
        assert schema(schemas.GameOut).validate(body) == {}
        return body

    def card(self, cid: str, who=JUDGE) -> dict | None:
        """The card as ``who`` sees it, or None when it is not listed to them."""
        shown = self.shown(who, cid)
        return next((c for c in self.view(who)["cards"] if c["id"] == shown), None)

    def _listing(self, key: str, out, who) -> list[dict]:
        """GET /<key>: a 200 whose body the schema ``out`` validates; its list."""
        response = self.get(f"/{key}", who)
        assert response.status_code == 200
        body = response.get_json()
        assert schema(out).validate(body) == {}
        return body[key]

    def names(self, who=JUDGE) -> list[dict]:
        return self._listing("names", schemas.NamesOut, who)

    def events(self, who=JUDGE) -> list[dict]:
        return self._listing("events", schemas.EventsOut, who)

    def record(self) -> tuple:
        """Everything an action may change, as the judge sees it."""
        return self.view(), self.names(), self.events()

    def status(self, pid: str) -> str:
        return next(p["status"] for p in self.view()["players"] if p["id"] == pid)

    def library_ids(self, printed: str) -> list[str]:
        """The judge's view of which library cards are printed ``printed``."""
        return [c["id"] for c in self.view()["cards"] if c["zone"] == "library" and c["printed"] == printed]

    def candidates(self, printed: str) -> list[dict]:
        """GET /candidates about this game: ``printed``'s candidates, the taken ones marked."""
        response = checked(self.client.get(f"{API}/candidates?" + urlencode({"printed": printed, "game": self.id})))
        assert response.status_code == 200, response.get_json()
        assert schema(schemas.CandidatesOut).validate(response.get_json()) == {}
        return response.get_json()["candidates"]

    def check(self, printed: str, name: str) -> dict:
        """GET /check about this game: may ``printed`` be named ``name`` now, and every reason."""
        response = checked(self.client.get(f"{API}/check?" + urlencode({"printed": printed, "name": name,
                                                                        "game": self.id})))
        assert response.status_code == 200, response.get_json()
        assert schema(schemas.CheckOut).validate(response.get_json()) == {}
        return response.get_json()

    def could_be(self, who, player: str, name: str):
        return self.get("/could-be?" + urlencode({"player": player, "name": name}), who)

    # -- acting ---------------------------------------------------------------------------------
    def do(self, who, **action) -> dict:
        response = self.act(who, **action)
        body = response.get_json()
        assert response.status_code == 200, (action, body)
        assert schema(schemas.ActionOut).validate(body) == {}
        return body

    def refused(self, who, status: int, code: str, rule: str | None = None, *, cites_rule=True, **action) -> dict:
        """The action is refused with ``status``/``code``/``rule``, and nothing of it is recorded."""
        before = self.record()
        error = assert_envelope(self.act(who, **action), status, cites_rule=cites_rule)
        assert error["code"] == code, error
        if rule is not None:
            assert error.get("rule") == rule, error
        assert self.record() == before, "a refused action left a trace"
        return error

    def draw(self, who, count: int = 1) -> list[str]:
        return self.do(who, type="draw", player=who, count=count)["event"]["data"]["cards"]

    def cast(self, who, card: str, name: str) -> dict:
        return self.do(who, type="move", card=card, to="stack", name=name)

    def morph(self, who, card: str, via: str = "morph") -> dict:
        return self.do(who, type="move", card=card, to="battlefield", face_down=True, via=via)

    def undo(self) -> dict:
        response = checked(self.client.post(f"{API}/games/{self.id}/undo", headers=self.headers(JUDGE)))
        assert response.status_code == 200, response.get_json()
        assert schema(schemas.UndoOut).validate(response.get_json()) == {}
        return response.get_json()


def names_table(game: Game) -> list[tuple]:
    return [(n["name"], n["card"], n["player"], n["exception"]) for n in game.names()]


def namings(game: Game) -> list[dict]:
    """The namings recorded in the log, in order."""
    return [e["data"]["naming"] for e in game.events() if e["data"].get("naming")]


# == 702 Ownership: the library is shared =========================================================
