"""`mentalmagic serve` (issue 8): waitress with a worker per core and one more, or in one process;
gunicorn with several workers; all answer on loopback. Each server starts on a tiny card file and
is stopped within a bounded time."""

from __future__ import annotations

import contextlib
import gc
import json
import os
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from pathlib import Path

import pytest
from flask import Flask
from served import call, free_port
from test_importers import TINY, write

from mentalmagic.runtime import load_frozen
from mentalmagic.settings import Settings, from_env
from mentalmagic.web import serving

MENTALMAGIC = Path(sys.executable).with_name("mentalmagic")
START_LIMIT = 90  # seconds: a bound on a stuck server, never a timing assertion


def get(port: int, path: str) -> tuple[int, dict]:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}{path}", timeout=10) as resp:
        return resp.status, json.loads(resp.read())


@contextlib.contextmanager
def served_tiny(folder: Path):
    """Start `mentalmagic serve ARGS` on a fresh database of the tiny card file in ``folder``; stop
    every server started, after."""
    procs = []

    def start(*args, cpus=None) -> tuple[subprocess.Popen, int]:
        """``cpus``: the only cores the server may run on (its affinity), where the system lets us say."""
        port = free_port()
        env = {**os.environ, "MENTALMAGIC_DB": str(folder / "db" / "mentalmagic.sqlite"),
               "MENTALMAGIC_CARDS": str(write(folder / "AtomicCards.json", TINY)),
               "MENTALMAGIC_RATE_LIMIT": "0", "MENTALMAGIC_GAMES_PER_HOUR": "0"}
        proc = subprocess.Popen([str(MENTALMAGIC), "serve", "--port", str(port), *args], env=env,
                                stdout=subprocess.PIPE, stderr=subprocess.PIPE, start_new_session=True,
                                preexec_fn=(lambda: os.sched_setaffinity(0, cpus)) if cpus else None)
        procs.append(proc)
        deadline = time.monotonic() + START_LIMIT
        while time.monotonic() < deadline:
            try:
                get(port, "/api/v1/health")
                return proc, port
            except OSError:
                if proc.poll() is not None:
                    pytest.fail(f"the server exited: {proc.stderr.read().decode()[-2000:]}")
                time.sleep(0.05)
        pytest.fail("the server did not answer")

    try:
        yield start
    finally:
        for proc in procs:
            if proc.poll() is None:
                os.killpg(proc.pid, signal.SIGTERM)
                try:
                    proc.wait(20)
                except subprocess.TimeoutExpired:
                    os.killpg(proc.pid, signal.SIGKILL)
                    proc.wait(10)
            proc.stdout.close()
            proc.stderr.close()


@pytest.fixture
def serve(tmp_path):
    """``served_tiny`` for one test."""
    with served_tiny(tmp_path) as start:
        yield start


def workers_of(pid: int) -> list[int]:
    return [int(p) for p in Path(f"/proc/{pid}/task/{pid}/children").read_text().split()]


def cores_of(pids: list[int], pinned: bool = True) -> list[set[int]]:
    """Each process's affinity, in the order of ``pids``; with ``pinned``, once each is on one core
    (a worker pins itself an instant after it appears): a bound, no timing."""
    deadline = time.monotonic() + START_LIMIT
    while pinned and any(len(os.sched_getaffinity(pid)) > 1 for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.05)
    return [os.sched_getaffinity(pid) for pid in pids]


def pinned_in_turn(workers: int, given: set[int] | None = None) -> list[set[int]]:
    """The cores ``workers`` workers run on, sorted, when their server was given the cores ``given``
    (else this process's): one core each, in turn (MENTALMAGIC_PIN_WORKERS' default), or, on a
    single core, that core."""
    cpus = sorted(given or os.sched_getaffinity(0))
    if len(cpus) < 2:
        return [set(cpus)] * workers
    return sorted(({cpus[i % len(cpus)]} for i in range(workers)), key=sorted)


def wait_for_workers(proc: subprocess.Popen, workers: int, gone: int | list[int] | None = None) -> list[int]:
    """The master's workers once there are exactly ``workers`` of them and none of ``gone`` is one:
    a bound, no timing."""
    gone = set(gone if isinstance(gone, list) else [gone])
    deadline = time.monotonic() + START_LIMIT
    while time.monotonic() < deadline:
        now = workers_of(proc.pid)
        if len(now) == workers and not gone & set(now):
            return now
        time.sleep(0.05)
    return workers_of(proc.pid)


@pytest.mark.processes
@pytest.mark.skipif(sys.platform == "win32", reason="gunicorn runs on POSIX only")
def test_gunicorn_serves_from_two_worker_processes(serve):
    proc, port = serve("--server", "gunicorn", "--workers", "2")
    workers = wait_for_workers(proc, 2)  # the first worker may answer before the second forks
    assert len(workers) == 2
    assert sorted(cores_of(workers, len(os.sched_getaffinity(0)) > 1), key=sorted) == pinned_in_turn(2)
    for _ in range(20):
        status, health = get(port, "/api/v1/health")
        assert status == 200 and health["card_count"] == len(TINY["data"])
    status, found = get(port, "/api/v1/candidates?printed=Black%20Lotus")
    assert status == 200 and [c["name"] for c in found["candidates"]] == ["Ornithopter"]
    os.killpg(proc.pid, signal.SIGTERM)
    assert proc.wait(20) == 0  # a clean stop, workers included
    assert b"gunicorn, 2 workers" in proc.stdout.read()


@pytest.mark.processes
def test_waitress_serves_in_one_process(serve):
    proc, port = serve("--server", "waitress", "--workers", "1")
    assert workers_of(proc.pid) == []
    status, found = get(port, "/api/v1/cards?q=lions")
    assert status == 200 and found["cards"][0]["name"] == "Savannah Lions"


@pytest.mark.processes
@pytest.mark.parametrize("workers", ["1", "2"])
def test_serve_open_shows_the_pages_in_the_browser_once_the_server_listens(serve, tmp_path, monkeypatch, workers):
    """`serve --open` (issue 24) hands the URL to the default browser: here $BROWSER, a script that
    notes the URL and whether the server answered it at that moment."""
    opened = tmp_path / "opened.txt"
    browser = tmp_path / "browser"
    browser.write_text(f"#!{sys.executable}\nimport sys, urllib.request\n"
                       "status = urllib.request.urlopen(sys.argv[1], timeout=10).status\n"
                       f"open({str(opened)!r}, 'w').write(f'{{sys.argv[1]}} {{status}}')\n")
    browser.chmod(0o755)
    monkeypatch.setenv("BROWSER", str(browser))
    proc, port = serve("--workers", workers, "--open")
    deadline = time.monotonic() + START_LIMIT
    while not (opened.exists() and opened.read_text()) and time.monotonic() < deadline:
        time.sleep(0.05)
    assert opened.read_text() == f"http://127.0.0.1:{port}/ 200"


@pytest.mark.processes
@pytest.mark.skipif(not hasattr(os, "fork"), reason="several processes need fork (POSIX)")
def test_the_default_server_is_waitress_processes_that_half_open_clients_cant_starve(serve, monkeypatch):
    """`make serve`'s server: a worker per core and one more, and 120 connections that never finish
    their request leave /health answering (issue 9), which gunicorn's gthread workers don't."""
    monkeypatch.delenv("MENTALMAGIC_WORKERS", raising=False)
    # two cores at most, where the affinity can be set: three workers, however many cores CI has
    cpus = set(sorted(os.sched_getaffinity(0))[:2]) if hasattr(os, "sched_setaffinity") else None
    workers = (len(cpus) if cpus else serving.cores()) + 1
    proc, port = serve(cpus=cpus)
    assert len(wait_for_workers(proc, workers)) == workers
    sockets = []
    try:
        for _ in range(120):
            s = socket.create_connection(("127.0.0.1", port), timeout=10)
            s.sendall(b"GET /api/v1/health HTTP/1.1\r\nHost: 127.0.0.1\r\n")  # never finished
            sockets.append(s)
        for _ in range(10):  # from another client: past MENTALMAGIC_CLIENT_CONNECTIONS this one is refused
            status, health, _ = call(port, "GET", "/health", source="127.0.0.2")
            assert status == 200 and health["card_count"] == len(TINY["data"])
    finally:
        for s in sockets:
            s.close()
    worker = workers_of(proc.pid)[0]
    os.kill(worker, signal.SIGKILL)  # a worker that dies is replaced
    now = wait_for_workers(proc, workers, gone=worker)
    assert len(now) == workers and worker not in now
    assert get(port, "/api/v1/health")[0] == 200
    os.killpg(proc.pid, signal.SIGTERM)
    assert proc.wait(20) == 0  # a clean stop, workers included
    assert f"waitress, {workers} workers".encode() in proc.stdout.read()


TWO_CORES = hasattr(os, "sched_setaffinity") and len(os.sched_getaffinity(0)) > 1


@pytest.mark.processes
@pytest.mark.skipif(not TWO_CORES, reason="workers are kept on cores where Linux pins them, on two cores or more")
@pytest.mark.parametrize("server", ["waitress", "gunicorn"])
def test_each_worker_is_kept_on_one_core_in_turn_and_its_replacement_on_the_same(serve, server):
    """MENTALMAGIC_PIN_WORKERS (on by default): worker i on the i-th core the server may use, around
    again; a worker that dies is replaced on its core, so the cores stay shared out evenly."""
    cpus = set(sorted(os.sched_getaffinity(0))[:2])  # two cores, however many CI has: three workers go around
    proc, _ = serve("--server", server, "--workers", "3", cpus=cpus)
    workers = wait_for_workers(proc, 3)
    assert sorted(cores_of(workers), key=sorted) == pinned_in_turn(3, cpus)
    alone = next(w for w in workers if os.sched_getaffinity(w) == {max(cpus)})
    shared = next(w for w in workers if os.sched_getaffinity(w) == {min(cpus)})
    for worker in (alone, shared):  # the second core's only worker, then one of the first's two
        lost = os.sched_getaffinity(worker)
        os.kill(worker, signal.SIGKILL)
        now = wait_for_workers(proc, 3, gone=worker)
        replaced = set(now) - set(workers)
        assert len(replaced) == 1 and cores_of(list(replaced)) == [lost]
        workers = now
    os.killpg(proc.pid, signal.SIGTERM)
    assert proc.wait(20) == 0
    assert f"{server}, 3 workers, kept on cores {','.join(map(str, sorted(cpus)))} in turn".encode() \
        in proc.stdout.read()  # the start line says where the workers run


@pytest.mark.processes
@pytest.mark.skipif(not TWO_CORES, reason="workers are kept on cores where Linux pins them, on two cores or more")
def test_a_gunicorn_reload_keeps_the_cores_evenly_shared(serve):
    """SIGHUP makes gunicorn start new workers while the old ones still run, then stop the old ones:
    the new ones still end up one a core, and a replacement after that takes the dead one's core."""
    cpus = set(sorted(os.sched_getaffinity(0))[:2])
    proc, port = serve("--server", "gunicorn", "--workers", "2", cpus=cpus)
    old = wait_for_workers(proc, 2)
    os.kill(proc.pid, signal.SIGHUP)
    new = wait_for_workers(proc, 2, gone=old)
    assert len(new) == 2 and not set(old) & set(new)
    assert sorted(cores_of(new), key=sorted) == pinned_in_turn(2, cpus)
    workers = new
    for worker in sorted(new, reverse=True):  # each core's worker, the one started last first
        lost = os.sched_getaffinity(worker)
        os.kill(worker, signal.SIGKILL)
        now = wait_for_workers(proc, 2, gone=worker)
        assert cores_of([w for w in now if w not in workers]) == [lost]
        workers = now
    assert get(port, "/api/v1/health")[0] == 200


@pytest.mark.processes
@pytest.mark.skipif(not hasattr(os, "fork"), reason="several processes need fork (POSIX)")
def test_workers_left_to_the_scheduler_when_pinning_is_off(serve, monkeypatch):
    monkeypatch.setenv("MENTALMAGIC_PIN_WORKERS", "0")
    cpus = set(sorted(os.sched_getaffinity(0))[:2]) if hasattr(os, "sched_setaffinity") else None
    proc, _ = serve("--workers", "3", cpus=cpus)
    workers = wait_for_workers(proc, 3)
    if cpus:
        time.sleep(0.5)  # time to have pinned itself, had a worker meant to: none may
        assert cores_of(workers, pinned=False) == [cpus] * 3  # every core the server was given, in each worker
    os.killpg(proc.pid, signal.SIGTERM)
    assert proc.wait(20) == 0
    assert b"waitress, 3 workers)" in proc.stdout.read()


def test_pinned_cores_are_those_the_server_may_use_when_there_is_a_choice(monkeypatch):
    on, off = Settings(), Settings(pin_workers=0)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {5, 0, 2}, raising=False)
    monkeypatch.setattr(os, "sched_setaffinity", lambda pid, cpus: None, raising=False)
    assert serving.pinned_cores(on, 3) == [0, 2, 5]
    assert serving.pinned_cores(off, 3) == []  # MENTALMAGIC_PIN_WORKERS=0
    assert serving.pinned_cores(on, 1) == []  # one process: nothing to share out
    assert serving.pinned_cores(None, 3) == []  # no settings: as `serve` was before
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {3}, raising=False)
    assert serving.pinned_cores(on, 3) == []  # a single core: nowhere else to go
    monkeypatch.delattr(os, "sched_setaffinity", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1}, raising=False)
    assert serving.pinned_cores(on, 3) == []  # macOS, Windows: no pinning
    assert from_env({"MENTALMAGIC_PIN_WORKERS": "0"}).pin_workers == 0
    with pytest.raises(ValueError, match="MENTALMAGIC_PIN_WORKERS"):
        from_env({"MENTALMAGIC_PIN_WORKERS": "yes"})


def test_the_next_worker_goes_to_the_core_with_the_fewest_first_on_a_tie():
    cpus = [0, 2, 5]
    held: list[int | None] = []
    for _ in range(5):  # started one after another: around the cores in turn
        held.append(serving.next_core(cpus, held))
    assert held == [0, 2, 5, 0, 2]
    for dead in (2, 0, 5):  # a replacement takes the core of the worker it replaces
        rest = list(held)
        rest.remove(dead)
        assert serving.next_core(cpus, rest) == dead
    # a gunicorn reload: two new workers start while the two old ones (cores 0 and 1) still run
    held = [0, 1]
    held += [serving.next_core([0, 1], held)]
    held += [serving.next_core([0, 1], held)]
    assert sorted(held[2:]) == [0, 1]  # once the old ones go, still one a core
    assert serving.next_core([], [0]) is None  # nothing to pin to


def test_pin_keeps_the_process_on_its_core_and_shrugs_off_a_refusal(monkeypatch):
    calls = []
    monkeypatch.setattr(os, "sched_setaffinity", lambda pid, cpus: calls.append((pid, cpus)), raising=False)
    serving.pin(5)
    serving.pin(None)  # not pinned: untouched
    assert calls == [(0, {5})]

    def refused(pid, cpus):
        raise OSError(22, "Invalid argument")  # a core taken from the server since it started
    monkeypatch.setattr(os, "sched_setaffinity", refused, raising=False)
    serving.pin(1)  # the worker serves on, where the scheduler puts it


def test_the_production_settings_preload_the_app_and_use_threads():
    opts = serving.gunicorn_options("127.0.0.1", 5000, 2)
    assert opts["preload_app"] and opts["worker_class"] == "gthread" and opts["workers"] == 2
    assert opts["bind"] == "127.0.0.1:5000" and opts["threads"] == serving.THREADS_PER_WORKER
    assert serving.waitress_options("0.0.0.0", 80)["threads"] == serving.THREADS_PER_WORKER == 4


class _Ready(Exception):
    pass


def test_the_collector_never_walks_what_lives_as_long_as_the_server():
    """What the app holds is frozen before waitress serves, in one process too (a judge's laptop on
    Windows): a full collection over a pool not frozen paused that server ~100 ms (runtime.load_frozen)."""
    held = [{"card": [i]} for i in range(5000)]  # stands for the pool: objects the collector tracks
    assert all(gc.is_tracked(h) for h in held)  # a dict of atomic values ({"card": 1}) it doesn't
    seen = {}

    def ready():
        seen["frozen"] = gc.get_freeze_count()
        raise _Ready  # stop before waitress binds

    before = gc.get_freeze_count()
    try:
        with pytest.raises(_Ready):
            serving.serve_waitress(Flask(__name__), "127.0.0.1", free_port(), on_ready=ready, workers=1)
    finally:
        gc.unfreeze()  # all of it, what other tests froze too: they only ever freeze to spare the collector
    assert seen["frozen"] >= before + len(held)


def test_load_frozen_builds_with_the_collector_off_then_freezes_what_it_built():
    def load():
        assert not gc.isenabled()
        return [{"face": [i]} for i in range(5000)]  # tracked by the collector, as a pool's faces are

    before, collecting = gc.get_freeze_count(), gc.isenabled()
    try:
        built = load_frozen(load)
        assert all(gc.is_tracked(b) for b in built)
        assert gc.get_freeze_count() >= before + len(built)
        assert gc.isenabled() == collecting
    finally:
        gc.unfreeze()  # all of it, what other tests froze too: they only ever freeze to spare the collector


def test_load_frozen_turns_the_collector_back_on_when_the_load_fails():
    def load():
        raise OSError("no card file")

    assert gc.isenabled()
    with pytest.raises(OSError):
        load_frozen(load)
    assert gc.isenabled()


@pytest.mark.skipif(not hasattr(os, "fork"), reason="one process where processes can't fork (Windows)")
def test_workers_default_to_one_more_than_the_cores_or_the_setting(monkeypatch):
    monkeypatch.delenv("MENTALMAGIC_WORKERS", raising=False)
    monkeypatch.setattr(os, "sched_getaffinity", lambda pid: {0, 1, 2}, raising=False)
    assert serving.cores() == 3 and serving.default_workers() == 4
    monkeypatch.setenv("MENTALMAGIC_WORKERS", "3")
    assert serving.default_workers() == 3


STOP_AT_FORK = """
import os, signal, time
from mentalmagic.web.serving import prefork
# The stop arrives in the worst instant: in the new worker, before it has reset its handlers,
# and in the master before it has recorded the worker's pid.
os.register_at_fork(after_in_child=lambda: os.killpg(0, signal.SIGTERM))
prefork(lambda: time.sleep(60), 1)
print("stopped", flush=True)
"""


STOP_BETWEEN_FORKS = """
import os, signal, time
from mentalmagic.web.serving import prefork
forks = []
def stop_after_the_first_fork():  # pending until the first spawn is done: it lands before the second
    forks.append(1)
    if len(forks) == 1:
        os.kill(os.getpid(), signal.SIGTERM)
os.register_at_fork(after_in_parent=stop_after_the_first_fork)
prefork(lambda: time.sleep(60), 2)
print("stopped", flush=True)
"""


@pytest.mark.processes
@pytest.mark.skipif(not hasattr(os, "fork"), reason="several processes need fork (POSIX)")
@pytest.mark.parametrize("script", [STOP_AT_FORK, STOP_BETWEEN_FORKS], ids=["at-a-fork", "between-two-forks"])
def test_a_stop_that_arrives_as_a_worker_forks_stops_it_too(script):
    """A SIGTERM around a fork reaches the new worker (serving.prefork blocks it until the worker
    has its own handlers and the master knows its pid), and one between two forks starts no more
    workers: neither serves on, nobody waits forever."""
    proc = subprocess.Popen([sys.executable, "-c", script], start_new_session=True,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    try:
        out, err = proc.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        proc.communicate()
        pytest.fail("the master waited for a worker that never got the stop")
    assert proc.returncode == 0 and out == b"stopped\n", err.decode()[-500:]


def test_the_tests_own_http_server_answers_past_1024_open_descriptors():
    """tests/support.py ``served`` (every page test's server) watches its sockets with poll(), as the
    production servers do: a worker of a full run holds over 1,024 descriptors, and select() can't
    watch one numbered past that (its loop died, and a page waited for its requests for ever)."""
    import resource
    import urllib.request

    from flask import Flask
    from support import served

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and hard < 1200:
        pytest.fail(f"this machine allows {hard} open descriptors: the test needs 1,200")
    resource.setrlimit(resource.RLIMIT_NOFILE, (max(soft, 1200) if hard == resource.RLIM_INFINITY
                                                else min(max(soft, 1200), hard), hard))
    app = Flask("past1024")
    app.get("/")(lambda: "ok")
    held = []
    try:
        while not held or held[-1] < 1030:  # the next sockets are numbered past 1,024
            held.append(os.open(os.devnull, os.O_RDONLY))
        with served(app, timeout=10) as base:
            assert urllib.request.urlopen(f"{base}/", timeout=10).read() == b"ok"
    finally:
        for fd in held:
            os.close(fd)
        resource.setrlimit(resource.RLIMIT_NOFILE, (soft, hard))
