"""The OpenAPI document through a client generator, used as is: openapi-python-client writes a
Python client from /api/v1/openapi.json, and a short scripted game is played through it against
the app served by waitress. Every body the script sends is one of the generated, typed models.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import json
import shutil
import subprocess
import sys
import typing
from importlib.metadata import version
from pathlib import Path

import pytest
from support import served

# The script plays on the snapshot's cards; generating the client takes seconds.
pytestmark = [pytest.mark.snapshot, pytest.mark.processes]
PACKAGE = "mm_generated_client"


ROOT = Path(__file__).resolve().parents[1]
KEPT = ROOT / ".pytest_cache" / "generated-client"  # ignored by git; `make clean` removes it
CONFIG = "post_hooks: []\n"  # no formatter run: the code is only imported


def generate(document: bytes, package: Path) -> None:
    """openapi-python-client's client for ``document``, written to ``package``. What it writes depends
    on the document, its config, its own version and the packages it runs on (all pinned in
    requirements-dev.txt) and Python: a run of all the same copies the package an earlier run
    generated without a warning, kept in .pytest_cache under a key of them; any change generates anew."""
    key = hashlib.sha256(b"\0".join([document, CONFIG.encode(), (ROOT / "requirements-dev.txt").read_bytes(),
                                      version("openapi-python-client").encode(), sys.version.encode()]))
    kept = KEPT / key.hexdigest()[:32]
    if (kept / "done").exists():
        with contextlib.suppress(OSError):  # gone meanwhile (another run's newer one): generate it here
            shutil.copytree(kept / PACKAGE, package)
            return
        shutil.rmtree(package, ignore_errors=True)
    folder = package.parent
    (folder / "openapi.json").write_bytes(document)
    (folder / "config.yaml").write_text(CONFIG, encoding="utf-8")
    run = subprocess.run([sys.executable, "-m", "openapi_python_client", "generate", "--path",
                          str(folder / "openapi.json"), "--output-path", str(package), "--meta", "none",
                          "--config", str(folder / "config.yaml")], capture_output=True, text=True, timeout=300)
    assert run.returncode == 0, run.stdout + run.stderr
    assert "Warning" not in run.stdout + run.stderr, run.stdout + run.stderr  # nothing skipped nor left untyped
    with contextlib.suppress(OSError):  # a read-only checkout keeps nothing: the next run generates it again
        shutil.rmtree(KEPT, ignore_errors=True)  # only the latest is kept
        shutil.copytree(package, kept / PACKAGE, ignore=shutil.ignore_patterns("__pycache__"))
        (kept / "done").touch()


@pytest.fixture(scope="module")
def generated(app, tmp_path_factory):
    """The generated client package, imported from a temporary folder."""
    folder = tmp_path_factory.mktemp("generated")
    generate(json.dumps(app.test_client().get("/api/v1/openapi.json").get_json()).encode(), folder / PACKAGE)
    sys.path.insert(0, str(folder))
    try:
        yield importlib.import_module(PACKAGE)
    finally:
        sys.path.remove(str(folder))
        for name in [m for m in sys.modules if m == PACKAGE or m.startswith(PACKAGE + ".")]:
            del sys.modules[name]


def body_type(function) -> object:
    return typing.get_type_hints(function)["body"]


def test_every_request_body_is_a_generated_model_and_never_any(generated):
    from importlib import import_module

    create_game = import_module(f"{PACKAGE}.api.games.create_game")
    act = import_module(f"{PACKAGE}.api.games.act")
    models = import_module(f"{PACKAGE}.models")
    assert body_type(create_game.sync_detailed) is models.CreateGameIn
    kinds = typing.get_args(body_type(act.sync_detailed))
    assert typing.Any not in kinds and all(k.__module__.startswith(f"{PACKAGE}.models") for k in kinds)
    assert {k.__name__ for k in kinds} >= {"DrawIn", "MoveIn", "NameIn", "RevealIn", "LookIn"}


def test_a_short_game_through_the_generated_client(generated, app):
    from importlib import import_module

    m = import_module(f"{PACKAGE}.models")
    games = {name: import_module(f"{PACKAGE}.api.games.{name}") for name in ("create_game", "act", "get_game", "undo")}
    with served(app) as base, contextlib.ExitStack() as clients:
        def client(token=None):
            kind = generated.AuthenticatedClient if token else generated.Client
            return clients.enter_context(kind(base_url=f"{base}/api/v1", **({"token": token} if token else {})))

        created = games["create_game"].sync_detailed(client=client(), body=m.CreateGameIn(
            players=[m.PlayerIn(name="Ana"), m.PlayerIn(name="Bob")],
            library=["Shock", "Chain Lightning", "Savannah Lions"], shuffle=False))
        assert created.status_code == 201, created.content
        game = created.parsed
        assert isinstance(game, m.CreateGameOut) and game.library_size == 3
        ana, bob = (client(p.token) for p in game.players)
        judge = client(game.judge_token)

        def act(who, body):
            return games["act"].sync_detailed(game.id, client=who, body=body)

        drew = act(ana, m.DrawIn(type_=m.DrawInType.DRAW, count=1))
        assert drew.status_code == 200, drew.content
        [shock] = drew.parsed.event.data["cards"]
        [chain] = act(bob, m.DrawIn(type_=m.DrawInType.DRAW, count=1)).parsed.event.data["cards"]
        # Ana casts her Shock as Lightning Bolt (704.1: a card of the same cost); Bob may not take the name (704.2)
        cast = act(ana, m.MoveIn(type_=m.MoveInType.MOVE, card=shock, to=m.MoveInTo.STACK, name="Lightning Bolt"))
        assert cast.status_code == 200, cast.content
        taken = act(bob, m.MoveIn(type_=m.MoveInType.MOVE, card=chain, to=m.MoveInTo.STACK, name="Lightning Bolt"))
        assert taken.status_code == 409 and isinstance(taken.parsed, m.ErrorOut), taken.content
        assert (taken.parsed.error.code, taken.parsed.error.rule) == ("name_taken", "704.2")

        seen = games["get_game"].sync_detailed(game.id, client=judge).parsed
        assert isinstance(seen, m.GameOut)
        cards = {c.id: c for c in seen.cards}
        assert (cards[shock].zone, cards[shock].named_as) == (m.GameCardOutZone.STACK, "Lightning Bolt")
        assert cards[chain].zone == m.GameCardOutZone.HAND and not cards[chain].named_as

        assert games["undo"].sync_detailed(game.id, client=judge).status_code == 200  # the cast taken back
        again = games["get_game"].sync_detailed(game.id, client=judge).parsed
        assert {c.id: c for c in again.cards}[shock].zone == m.GameCardOutZone.HAND
