"""How the arbiter is served: every server setting lives here (issue 8).

Two production servers, one app:

- **gunicorn** (POSIX: Linux, macOS), the default of ``mentalmagic serve`` and ``make serve``:
  one worker process per core, each with a few threads (``gthread``). The app, with its card
  pool and index, is built once in the master before the workers fork (gunicorn's preload), so
  the card tables are built once however many workers start, and the workers share the pool's
  memory pages. Python runs one thread at a time per process; processes are how a server uses
  both cores.
- **waitress** (pure Python, also Windows): one process, several threads. ``mentalmagic serve
  --server waitress`` on a judge's laptop where gunicorn doesn't run.

The Flask development server is only for ``make dev``. Limits (connections, timeouts) belong in
``gunicorn_options`` and ``waitress_options`` below, so that both servers keep the same ones.
"""

from __future__ import annotations

import gc
import os
import sys

from flask import Flask

from .. import settings as limits
from ..settings import Settings

SERVERS = ("gunicorn", "waitress")
THREADS_PER_WORKER = 4  # a worker's threads overlap a request's SQLite waits (fsync) with another's work
WAITRESS_THREADS = 8


def default_server() -> str:
    """gunicorn where it runs (not on Windows), else waitress."""
    if sys.platform == "win32":
        return "waitress"
    try:
        import gunicorn  # noqa: F401
    except ImportError:
        return "waitress"
    return "gunicorn"


def default_workers() -> int:
    """MENTALMAGIC_WORKERS, else one per core."""
    return int(os.environ.get("MENTALMAGIC_WORKERS") or os.cpu_count() or 1)


def gunicorn_options(host: str, port: int, workers: int, threads: int = THREADS_PER_WORKER,
                     settings: Settings | None = None) -> dict:
    """gunicorn's settings: these, then the limits of MENTALMAGIC_* (settings.py) over them."""
    return {
        "bind": f"{host}:{port}",
        "workers": workers,
        "worker_class": "gthread",
        "threads": threads,
        "preload_app": True,  # what our loader does anyway: the app is built before the fork
        "keepalive": 5,  # bots keep their connection between requests
        "timeout": 30,
        "graceful_timeout": 10,
        "worker_tmp_dir": "/dev/shm" if os.path.isdir("/dev/shm") else None,  # heartbeats off the disk
        "accesslog": None,
        "errorlog": "-",
        "loglevel": "warning",
        "proc_name": "mentalmagic",
        **(limits.gunicorn_options(settings) if settings else {}),
    }


def waitress_options(host: str, port: int, threads: int = WAITRESS_THREADS, settings: Settings | None = None) -> dict:
    """waitress's settings, with the limits of MENTALMAGIC_* (settings.py)."""
    return {"host": host, "port": port, "threads": threads, "ident": "mentalmagic",
            **(limits.waitress_options(settings) if settings else {})}


def raise_file_limit(connections: int) -> None:
    """Let the process hold as many sockets as the connection limit asks (up to the hard limit)."""
    try:
        import resource
    except ImportError:  # Windows: no such limit to raise
        return
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    want = (connections or 100_000) + 64  # the database, the log, the server's own descriptors
    if soft != resource.RLIM_INFINITY and soft < want:
        resource.setrlimit(resource.RLIMIT_NOFILE, (want if hard == resource.RLIM_INFINITY else min(want, hard), hard))


def serve_gunicorn(app: Flask, host: str, port: int, workers: int, threads: int = THREADS_PER_WORKER,
                   settings: Settings | None = None, on_ready=None) -> None:
    """Run gunicorn over ``app`` (already built: every worker forks from it) until stopped."""
    from gunicorn.app.base import BaseApplication

    options = gunicorn_options(host, port, workers, threads, settings)

    class Arbiter(BaseApplication):
        def load_config(self):
            for key, value in options.items():
                if value is not None:
                    self.cfg.set(key, value)
            if on_ready:
                self.cfg.set("when_ready", lambda server: on_ready())

        def load(self):
            return app

    # The pool's ~100k objects live as long as the process: out of the collector's sight, a
    # collection in a worker doesn't touch (and so copy) the pages it shares with the master,
    # and nobody spends the ~0.15 s of a full collection over them.
    gc.freeze()
    Arbiter().run()


def serve_waitress(app: Flask, host: str, port: int, threads: int = WAITRESS_THREADS,
                   settings: Settings | None = None, on_ready=None) -> None:
    import waitress

    if on_ready:
        on_ready()
    waitress.serve(app, **waitress_options(host, port, threads, settings))
