"""The master and its workers (issue 23): workers die with their master, however it dies, so a start
right after a crash gets the port; the master logs every worker that dies and its replacement."""

from __future__ import annotations

import os
import re
import signal
import sys
import time

import pytest
from served import Served, call, tiny_env

pytestmark = [pytest.mark.processes,
              pytest.mark.skipif(not hasattr(os, "fork"), reason="several processes need fork (POSIX)")]


def alive(pid: int) -> bool:
    """Is ``pid`` a running process (not a zombie nobody reaped)?"""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            return fh.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


@pytest.mark.skipif(sys.platform != "linux", reason="reads the workers from /proc")
@pytest.mark.parametrize("server", ["waitress", "gunicorn"])
def test_a_sigkill_of_the_master_leaves_no_worker_and_a_restart_serves(tmp_path, server):
    env = tiny_env(tmp_path)
    first = Served(env, "--server", server, "--workers", "3", log=tmp_path / "server.log")
    try:
        deadline = time.monotonic() + 60
        while len(first.workers()) < 3 and time.monotonic() < deadline:
            time.sleep(0.05)
        workers = first.workers()
        assert len(workers) == 3
        os.kill(first.proc.pid, signal.SIGKILL)  # the master alone, as a crash or the OOM killer would
        first.proc.wait(10)
        gone_by = time.monotonic() + 5  # the bound: no worker left within 5 s
        while any(alive(w) for w in workers) and time.monotonic() < gone_by:
            time.sleep(0.02)
        assert not [w for w in workers if alive(w)], "workers outlived their master"
    finally:
        first.stop()
    again = Served(env, "--server", server, "--workers", "3", log=tmp_path / "again.log", port=first.port)
    try:
        assert call(again.port, "GET", "/health")[0] == 200  # the port was free at once
    finally:
        again.stop()


def test_the_master_logs_a_worker_that_dies_and_its_replacement(tmp_path):
    served = Served(tiny_env(tmp_path), "--workers", "2", log=tmp_path / "server.log")
    try:
        deadline = time.monotonic() + 60
        while len(served.workers()) < 2 and time.monotonic() < deadline:
            time.sleep(0.05)
        victim = served.workers()[0]
        os.kill(victim, signal.SIGKILL)
        while time.monotonic() < deadline:
            found = re.search(rf"worker {victim} killed by SIGKILL after \d+ s\n.*worker (\d+) started in its place",
                              served.output())
            if found:
                break
            time.sleep(0.05)
        assert found, served.output()
        assert int(found.group(1)) in served.workers()
        assert call(served.port, "GET", "/health")[0] == 200
    finally:
        served.stop()
