"""A small, bounded HTTP/1.1 keep-alive load generator (loopback only).

Run by ``bench/run.py`` as a separate process, so that its Python work does not
share the server's GIL. It imports nothing from the project. Its job comes as
JSON on stdin and its result goes as JSON to stdout:

    in:  {"host", "port", "paths": [...], "connections", "requests", "warmup", "max_seconds"}
    out: a line "go" when the measured window opens, a line "done" when it closes
         (so the caller can read its own CPU clock at those moments), then one JSON line
         {"completed", "errors", "statuses", "elapsed", "latencies_us": [...], "cpu"}

Every connection is one thread with one socket kept alive. Requests are taken
in order from ``paths`` (cycled) until ``requests`` have been sent or
``max_seconds`` have passed, whichever comes first. The client parses only
the status line and Content-Length, so it costs far less per request than
http.client and stays out of the way of the figure it measures.
"""

from __future__ import annotations

import itertools
import json
import os
import socket
import sys
import threading
import time

LOOPBACK = {"127.0.0.1", "::1", "localhost"}


class Conn:
    def __init__(self, host: str, port: int):
        self.host = host
        self.sock = socket.create_connection((host, port), timeout=10)
        self.sock.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.buf = b""

    def get(self, path: str) -> int:
        """Send one GET, read the whole response, return its status."""
        self.sock.sendall(f"GET {path} HTTP/1.1\r\nHost: {self.host}\r\n\r\n".encode("ascii"))
        while b"\r\n\r\n" not in self.buf:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection")
            self.buf += chunk
        head, _, rest = self.buf.partition(b"\r\n\r\n")
        lines = head.split(b"\r\n")
        status = int(lines[0].split(b" ", 2)[1])
        length = None
        for line in lines[1:]:
            name, _, value = line.partition(b":")
            if name.strip().lower() == b"content-length":
                length = int(value)
        if length is None:
            raise ConnectionError("response without Content-Length")
        while len(rest) < length:
            chunk = self.sock.recv(65536)
            if not chunk:
                raise ConnectionError("server closed the connection mid-body")
            rest += chunk
        self.buf = rest[length:]
        return status

    def close(self):
        try:
            self.sock.close()
        except OSError:
            pass


def run(job: dict) -> dict:
    host, port = job["host"], int(job["port"])
    if host not in LOOPBACK:
        raise SystemExit("loadgen: loopback only")
    paths = job["paths"]
    nconn = int(job["connections"])
    total = int(job["requests"])
    max_seconds = float(job["max_seconds"])

    conns = [Conn(host, port) for _ in range(nconn)]
    # Warm-up: a few requests on every connection, not measured.
    for i in range(int(job.get("warmup", 0))):
        conns[i % nconn].get(paths[i % len(paths)])

    ticket = itertools.count()  # next() on a count is atomic under the GIL
    start = threading.Event()
    lock = threading.Lock()
    latencies: list[float] = []
    statuses: dict[int, int] = {}
    errors: list[str] = []
    deadline = 0.0

    def worker(conn: Conn):
        mine, codes = [], {}
        start.wait()
        while True:
            i = next(ticket)
            if i >= total or time.perf_counter() > deadline:
                break
            t = time.perf_counter()
            try:
                code = conn.get(paths[i % len(paths)])
            except (OSError, ValueError) as e:
                with lock:
                    errors.append(repr(e))
                break
            mine.append(time.perf_counter() - t)
            codes[code] = codes.get(code, 0) + 1
        with lock:
            latencies.extend(mine)
            for k, v in codes.items():
                statuses[k] = statuses.get(k, 0) + v

    threads = [threading.Thread(target=worker, args=(c,), daemon=True) for c in conns]
    for t in threads:
        t.start()
    print("go", flush=True)
    cpu0 = os.times()
    t0 = time.perf_counter()
    deadline = t0 + max_seconds
    start.set()
    for t in threads:
        t.join(max_seconds + 15)
    elapsed = time.perf_counter() - t0
    cpu1 = os.times()
    print("done", flush=True)
    for c in conns:
        c.close()
    return {
        "completed": len(latencies),
        "errors": errors,
        "statuses": {str(k): v for k, v in sorted(statuses.items())},
        "elapsed": elapsed,
        "latencies_us": [round(x * 1e6, 1) for x in latencies],
        "cpu": (cpu1.user - cpu0.user) + (cpu1.system - cpu0.system),
    }


if __name__ == "__main__":
    print(json.dumps(run(json.load(sys.stdin))), flush=True)
