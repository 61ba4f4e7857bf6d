"""A real ``mentalmagic serve`` for the hardening tests (issue 23): a subprocess in its own process
group on a free loopback port, on the tiny card file, stopped after; and a small file system of
its own (a tmpfs mounted here) where a test needs a disk that fills or turns read-only."""

from __future__ import annotations

import contextlib
import http.client
import json
import os
import random
import signal
import socket
import subprocess
import sys
import time
from pathlib import Path

import pytest

START_LIMIT = 90  # seconds: a bound on a stuck server, never a timing assertion


def free_port() -> int:
    """A free loopback port for a server to listen on, below the kernel's range of ephemeral ports:
    a port from that range, free when asked, may be given to a client socket of a test running at
    the same time (another xdist worker, another run on the machine: 3,500 at once in test_fairness)
    before the server has bound it. Picked at random and checked free by binding it."""
    ephemeral = 32768  # Linux's default start of the range
    with contextlib.suppress(OSError, ValueError):
        ephemeral = int(Path("/proc/sys/net/ipv4/ip_local_port_range").read_text().split()[0])
    pick = random.SystemRandom()
    for _ in range(100) if ephemeral > 11000 else ():
        with socket.socket() as s, contextlib.suppress(OSError):
            port = pick.randrange(10000, ephemeral)
            s.bind(("127.0.0.1", port))
            return port
    with socket.socket() as s:  # a range that leaves no room below it: the kernel's choice
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def tiny_env(folder: Path, **more: str) -> dict:
    """A server's environment over ``folder``: a database there and the tiny card file (written
    there), no rate limits and no access log unless ``more`` says otherwise (its MENTALMAGIC_*)."""
    from test_importers import TINY, write

    return {"MENTALMAGIC_DB": str(folder / "arbiter.sqlite"),
            "MENTALMAGIC_CARDS": str(write(folder / "AtomicCards.json", TINY)),
            "MENTALMAGIC_RATE_LIMIT": "0", "MENTALMAGIC_GAMES_PER_HOUR": "0", "MENTALMAGIC_ACCESS_LOG": "0", **more}


def call(port: int, method: str, path: str, body=None, headers: dict | None = None, timeout: float = 30,
         source: str = "127.0.0.1") -> tuple[int, dict, dict]:
    """(status, JSON body, headers) of one request from the loopback address ``source``."""
    conn = http.client.HTTPConnection("127.0.0.1", port, timeout=timeout, source_address=(source, 0))
    try:
        data = json.dumps(body).encode() if body is not None else None
        conn.request(method, f"/api/v1{path}", body=data,
                     headers={**({"Content-Type": "application/json"} if data is not None else {}), **(headers or {})})
        resp = conn.getresponse()
        raw = resp.read()
        return resp.status, json.loads(raw) if raw else None, dict(resp.getheaders())
    finally:
        conn.close()


class Served:
    """``mentalmagic serve ARGS`` with ``env`` over the environment; ``log`` collects its output."""

    def __init__(self, env: dict, *args: str, log: Path, port: int | None = None):
        self.port = port or free_port()
        self.log_path = log
        self.log = open(log, "ab")  # noqa: SIM115 - closed in stop()
        self.proc = subprocess.Popen(
            [str(Path(sys.executable).with_name("mentalmagic")), "serve", "--host", "127.0.0.1", "--port",
             str(self.port), *args], env={**os.environ, **env}, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        try:
            self._wait()
        except BaseException:
            self.stop()
            raise

    def _wait(self) -> None:
        deadline = time.monotonic() + START_LIMIT
        while time.monotonic() < deadline:
            try:
                call(self.port, "GET", "/health", timeout=10)
                return
            # not listening yet; or, with nobody listening, a connect to a port of the ephemeral range
            # that met itself (TCP simultaneous open) and read back its own request
            except (OSError, http.client.HTTPException):
                if self.proc.poll() is not None:
                    pytest.fail(f"the server exited ({self.proc.returncode}): {self.output()[-2000:]}")
                time.sleep(0.05)
        pytest.fail("the server did not answer")

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def workers(self) -> list[int]:
        return [int(p) for p in Path(f"/proc/{self.proc.pid}/task/{self.proc.pid}/children").read_text().split()]

    def stop(self) -> None:
        """SIGTERM to the process group (the master stops its workers), SIGKILL after a bound; the
        group also when the master is gone (a worker left behind by a failing test)."""
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            pass
        with contextlib.suppress(ProcessLookupError):  # raised once nothing of the group is left
            gone_by = time.monotonic() + 0.2  # what the master left behind has that long to go
            while time.monotonic() < gone_by:
                os.killpg(self.proc.pid, 0)
                time.sleep(0.01)
            os.killpg(self.proc.pid, signal.SIGKILL)
        self.proc.wait(10)
        self.log.close()


@contextlib.contextmanager
def tmpfs(path: Path, size: str):
    """A tmpfs of ``size`` mounted on ``path`` (made), unmounted after; the test fails where it can't be
    mounted (as root it can: CI runs as root), never skips."""
    path.mkdir(parents=True, exist_ok=True)
    done = subprocess.run(["mount", "-t", "tmpfs", "-o", f"size={size}", "tmpfs", str(path)], capture_output=True,
                          text=True)
    if done.returncode:
        pytest.fail(f"a small file system is needed and can't be mounted here ({done.stderr.strip()}): run as root")
    try:
        yield path
    finally:
        subprocess.run(["umount", "-l", str(path)], check=False)


def fill(path: Path) -> Path:
    """A file taking every byte left on ``path``'s file system."""
    filler = path / "filler"
    with open(filler, "wb", buffering=0) as fh:
        chunk = b"\0" * 65536
        with contextlib.suppress(OSError):
            while True:
                fh.write(chunk)
        with contextlib.suppress(OSError):
            while True:
                fh.write(b"\0" * 512)
    return filler
