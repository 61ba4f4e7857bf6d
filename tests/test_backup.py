"""The whole database copied while a real server (``mentalmagic serve``) takes 4 bots' writes, and
brought back (issue 31, storage/backup.py): every action acknowledged before the backup began is in
the copy, each game's log whole and its state the replay of that log; a restore is refused while a
server has the database open, and done once it is stopped."""

from __future__ import annotations

import subprocess
import sys
import threading
from pathlib import Path

import pytest
from served import Served, call, tiny_env
from support import time_limit

from mentalmagic.storage import connect

pytestmark = pytest.mark.processes

BOTS = 4
LIBRARY = ["Savannah Lions", "Ornithopter", "Black Lotus", "Forest"] * 3


def _cli(env: dict, *args: str) -> subprocess.CompletedProcess:
    import os

    return subprocess.run([str(Path(sys.executable).with_name("mentalmagic")), *args], env={**os.environ, **env},
                          capture_output=True, text=True, timeout=120)


def _events(db: Path) -> dict[str, list[tuple[int, str]]]:
    conn = connect(db, apply_schema=False)
    try:
        out: dict[str, list[tuple[int, str]]] = {}
        for gid, seq, typ in conn.conn.execute("select game_id, seq, type from events order by game_id, seq"):
            out.setdefault(gid, []).append((seq, typ))
        return out
    finally:
        conn.conn.close()


def test_a_backup_taken_under_four_bots_writes_restores_with_every_action_acknowledged_before_it(tmp_path):
    env = tiny_env(tmp_path)
    db, copy = Path(env["MENTALMAGIC_DB"]), tmp_path / "copy.sqlite"
    server = Served(env, "--workers", "2", log=tmp_path / "serve.log")
    acked: dict[str, list[int]] = {}
    tokens: dict[str, dict] = {}
    before_backup: dict[str, int] = {}
    stop, started = threading.Event(), threading.Event()
    errors: list[BaseException] = []

    def bot(i: int) -> None:
        try:
            play(i)
        except BaseException as e:  # said by the test, not lost in a thread
            errors.append(e)
            started.set()
            raise

    def play(i: int) -> None:
        status, game, _ = call(server.port, "POST", "/games", {
            "players": [{"name": f"Bot{i}"}, {"name": f"Foe{i}"}], "library": LIBRARY, "shuffle": False})
        assert status == 201, game
        auth = {"Authorization": f"Bearer {game['players'][0]['token']}"}
        acked[game["id"]], tokens[game["id"]] = [], auth
        n = 0
        while not stop.is_set() and n < 400:
            status, body, _ = call(server.port, "POST", f"/games/{game['id']}/actions",
                                   {"type": "draw", "count": 1}, auth)
            assert status == 200, body
            card = body["event"]["data"]["cards"][0]
            acked[game["id"]].append(body["event"]["seq"])
            status, body, _ = call(server.port, "POST", f"/games/{game['id']}/actions",
                                   {"type": "move", "card": card, "to": "library", "position": "bottom"}, auth)
            assert status == 200, body
            acked[game["id"]].append(body["event"]["seq"])
            n += 1
            if n == 10:
                started.set()

    try:
        with time_limit(240):
            bots = [threading.Thread(target=bot, args=(i,)) for i in range(BOTS)]
            for b in bots:
                b.start()
            assert started.wait(120) and not errors, errors
            threading.Event().wait(0.3)  # every bot well under way
            before_backup.update({gid: seqs[-1] for gid, seqs in list(acked.items()) if seqs})
            done = _cli(env, "backup", str(copy))
            stop.set()
            for b in bots:
                b.join(120)
            assert done.returncode == 0 and not errors, (done.stderr, errors)
            assert "copy.sqlite" in done.stdout and "as of one moment" in done.stdout
            refused = _cli(env, "restore", str(copy))  # the server still has it open
            assert refused.returncode == 1 and "stop the server" in refused.stderr, refused
            after = _events(db)
    finally:
        server.stop()

    saved = _events(copy)
    assert len(before_backup) == BOTS
    for gid, last in before_backup.items():
        seqs = [s for s, _ in saved[gid]]
        assert seqs == list(range(1, len(seqs) + 1)) and len(seqs) >= last  # whole, and every acknowledged action
        assert saved[gid] == after[gid][:len(seqs)]  # as the server went on to hold it
    assert sum(len(v) for v in after.values()) > sum(len(v) for v in saved.values())  # writes went on after it

    restored = _cli(env, "restore", str(copy))
    assert restored.returncode == 0, restored.stderr
    assert Path(f"{db}.before-restore").exists() and not Path(f"{db}-wal").exists()
    assert _events(db) == saved
    server = Served(env, log=tmp_path / "serve2.log")  # served again, on the copy: each game as it was
    try:
        for gid, events in saved.items():
            status, body, _ = call(server.port, "GET", f"/games/{gid}", headers=tokens[gid])
            assert status == 200 and body["seq"] == len(events), body  # the bots' tokens open their games
    finally:
        server.stop()


def test_restore_refuses_what_is_not_a_database_of_the_arbiter(tmp_path):
    env = tiny_env(tmp_path)
    junk = tmp_path / "junk.sqlite"
    junk.write_bytes(b"not a database at all" * 100)
    refused = _cli(env, "restore", str(junk))
    assert refused.returncode == 1 and "not a database of the arbiter" in refused.stderr, refused
    assert not Path(env["MENTALMAGIC_DB"]).exists()  # nothing made, nothing replaced
