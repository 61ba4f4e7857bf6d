"""How the arbiter is served: every server setting lives here (issues 8, 9).

- **waitress**, the default of ``mentalmagic serve`` and ``make serve``: one process per core
  and one more on POSIX (forked from a master that built the app, its card pool and index once:
  the card tables are built once however many workers start, and the workers share the pool's
  memory pages), one process on Windows. Python runs one thread at a time per process;
  processes are how the server uses every core, each kept on one core in turn on Linux
  (``pinned_cores``). waitress reads each request whole before a thread runs it, so slow or
  half-open clients can't starve it (issue 9).
- **gunicorn** (``--server gunicorn``, POSIX) with gthread workers and the app preloaded: kept
  for a deployment behind a buffering proxy (nginx), since alone a few unfinished requests
  block its threads (docs/deployment.md, "How `make serve` runs").

The Flask development server is only for ``make dev``. Limits (connections, timeouts) come from
settings.py into ``gunicorn_options`` and ``waitress_options`` below, so both servers keep them.
"""

from __future__ import annotations

import contextlib
import ctypes
import gc
import os
import signal
import socket
import sys
import threading
import time
from collections.abc import Sequence

from flask import Flask

from .. import settings as limits
from ..settings import Settings

SERVERS = ("gunicorn", "waitress")
# A worker's threads overlap a request's waits (the disk, the writer lock) with another's work.
# Four, waitress's own default: with three processes, eight bots did 2-11 % more actions with
# four threads each than with eight (fewer threads to wake, one GIL each), reads alike (docs/performance.md).
THREADS_PER_WORKER = 4


def default_server() -> str:
    """waitress: several processes on POSIX, one on Windows (see serve_waitress for why not gunicorn)."""
    return "waitress"


def cores() -> int:
    """The cores this process may run on: its affinity where the system tells it (a container pinned
    to some cores), else every core. A CPU quota (``docker --cpus``) isn't seen: set
    MENTALMAGIC_WORKERS there."""
    if hasattr(os, "sched_getaffinity"):
        return len(os.sched_getaffinity(0)) or 1
    return os.cpu_count() or 1


def default_workers() -> int:
    """MENTALMAGIC_WORKERS, else one per core and one more (one where processes can't fork: Windows).

    The one more is measured, not derived: with eight bots acting at once on two cores, three
    waitress processes did 19-21 % more actions than two, side by side, reads alike; four did no
    better than three (docs/deployment.md, "How `make serve` runs"). With a process per core the
    cores were ~15 % idle, most likely while a process's threads all waited (the disk, the writer
    lock) with nothing else to run.
    """
    if not hasattr(os, "fork"):
        return 1
    return int(os.environ.get("MENTALMAGIC_WORKERS") or cores() + 1)


def pinned_cores(settings: Settings | None, workers: int) -> list[int]:
    """The cores ``workers`` worker processes are kept on, one core a worker, in turn
    (MENTALMAGIC_PIN_WORKERS): those this process may run on. None (an empty list) when that is
    off, for a single worker, where the system can't pin a process (macOS, Windows), or on a
    single core.

    Measured, not derived: on two cores, workers kept one a core in turn did more actions, with
    less of the server's CPU an action, and /health answered more than the same workers left to
    the scheduler (docs/performance.md). Left free, a worker's threads wake on whichever core is
    free, away from the caches they filled."""
    if not (settings and settings.pin_workers) or workers < 2 or not hasattr(os, "sched_setaffinity"):
        return []
    cpus = sorted(os.sched_getaffinity(0))
    return cpus if len(cpus) > 1 else []


def next_core(cpus: Sequence[int], held: list[int | None]) -> int | None:
    """The core for a worker about to start: of ``cpus``, the one the fewest live workers are kept
    on (``held``: their cores), the first on a tie; None when ``cpus`` is empty (nothing pinned).

    Workers started one after another go around the cores in turn; one that replaces a worker that
    died gets its core; and the cores stay evenly shared in whatever order workers come and go (a
    gunicorn reload starts the new workers while the old ones still run)."""
    return min(cpus, key=held.count) if cpus else None


def die_with(master: int) -> None:
    """In a worker just forked from ``master``: end when the master does, however it ends (a SIGKILL
    included), so that no worker serves on unsupervised, holding the port a new start needs. Linux:
    the kernel sends SIGKILL when the parent dies (PR_SET_PDEATHSIG); elsewhere a thread watches
    the parent once a second. Either way a master already gone ends the worker now."""
    set_death_signal = None
    if sys.platform.startswith("linux"):
        with contextlib.suppress(OSError, AttributeError):
            set_death_signal = ctypes.CDLL(None, use_errno=True).prctl
    if set_death_signal is None or set_death_signal(PR_SET_PDEATHSIG, signal.SIGKILL, 0, 0, 0) != 0:
        def watch() -> None:
            while os.getppid() == master:
                time.sleep(1)
            os._exit(0)

        threading.Thread(target=watch, name="master-watch", daemon=True).start()
    if os.getppid() != master:  # gone between the fork and the prctl: the kernel won't tell us
        os._exit(0)


PR_SET_PDEATHSIG = 1  # <linux/prctl.h>


def pin(core: int | None) -> None:
    """Keep this process (a worker just forked, before its threads start) on ``core``; None: nothing."""
    if core is not None:
        with contextlib.suppress(OSError):  # a core taken from us since: the scheduler places the worker
            os.sched_setaffinity(0, {core})


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


def waitress_options(host: str, port: int, threads: int = THREADS_PER_WORKER, settings: Settings | None = None) -> dict:
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


def serve(app: Flask, server: str, host: str, port: int, workers: int, threads: int | None = None,
          on_ready=None) -> None:
    """Serve ``app`` (built and frozen: runtime.load_frozen) as ``mentalmagic serve`` does, until
    stopped: ``server`` with the MENTALMAGIC_* limits the app was built with (settings.py), the
    process's file limit raised to its connection limit, the workers kept on cores as the settings
    say (``pinned_cores``). The bench's server calls this too, so what it times is what runs."""
    settings: Settings = app.config["SETTINGS"]
    raise_file_limit(settings.connection_limit)
    threads = threads or THREADS_PER_WORKER
    cpus = pinned_cores(settings, workers)
    if server == "gunicorn":
        serve_gunicorn(app, host, port, workers, threads, settings=settings, on_ready=on_ready, cpus=cpus)
    else:
        serve_waitress(app, host, port, threads, settings=settings, on_ready=on_ready, workers=workers, cpus=cpus)


def serve_gunicorn(app: Flask, host: str, port: int, workers: int, threads: int = THREADS_PER_WORKER,
                   settings: Settings | None = None, on_ready=None, cpus: Sequence[int] = ()) -> None:
    """Run gunicorn over ``app`` (already built: every worker forks from it) until stopped; each
    worker kept on one of ``cpus`` (``next_core``), if any."""
    from gunicorn.app.base import BaseApplication

    options = gunicorn_options(host, port, workers, threads, settings)

    def post_fork(server, worker) -> None:  # in the worker
        die_with(worker.ppid)
        pin(getattr(worker, "core", None))

    def pre_fork(server, worker) -> None:  # in the master, before the fork (a copy: SIGCHLD may reap meanwhile)
        worker.core = next_core(cpus, [getattr(w, "core", None) for w in list(server.WORKERS.values())])

    class Arbiter(BaseApplication):
        def load_config(self):
            for key, value in options.items():
                if value is not None:
                    self.cfg.set(key, value)
            if on_ready:
                self.cfg.set("when_ready", lambda server: on_ready())
            if cpus:
                self.cfg.set("pre_fork", pre_fork)
            self.cfg.set("post_fork", post_fork)

        def load(self):
            return app

    # The pool's objects live as long as the process: out of the collector's sight (runtime.load_frozen
    # says why; the CLI's serve has frozen them already, an app built otherwise is frozen here).
    gc.freeze()
    Arbiter().run()


def serve_waitress(app: Flask, host: str, port: int, threads: int = THREADS_PER_WORKER,
                   settings: Settings | None = None, on_ready=None, workers: int = 1,
                   cpus: Sequence[int] = ()) -> None:
    """Run waitress over ``app``: in this process, or in ``workers`` forked processes (POSIX),
    each kept on one of ``cpus`` (``next_core``), if any.

    waitress reads each request whole on its event loop before a thread runs it, so a slow or
    half-open client holds a socket, never a thread: with 120 half-open connections open,
    /health still answers (tests/test_serving.py). gunicorn's gthread workers hand a connection
    to a thread as soon as its first bytes arrive, and a handful of unfinished requests starve
    them (measured: no answer for many seconds, docs/performance.md); so several waitress
    processes are the default.
    """
    from waitress.server import create_server

    from .fairness import fair
    from .waitress_errors import enveloped

    options = waitress_options(host, port, threads, settings)
    # the per-client cap is off behind a proxy: every connection is the proxy's (web/fairness.py)
    per_client = 0 if settings is None or settings.proxies else settings.client_connections
    deadline = settings.request_deadline if settings else 0

    def server(**kw):
        return fair(enveloped(create_server(app, **kw)), per_client, deadline)

    gc.freeze()  # as for gunicorn; in one process too, where a full collection would walk the pool
    if workers <= 1 or not hasattr(os, "fork"):
        if on_ready:
            on_ready()
        server(**options).run()
        return
    # Bind once, here: every worker accepts on the same socket (the kernel spreads connections).
    sock = socket.create_server((host, port), backlog=options.get("backlog", 1024))
    sock.setblocking(False)
    worker_options = {k: v for k, v in options.items() if k not in ("host", "port")}

    def run() -> None:
        server(sockets=[sock], **worker_options).run()

    prefork(run, workers, on_ready, cpus)


def say(line: str) -> None:
    """One line of the master's own log (standard error), stamped like the access log's."""
    print(f"{time.strftime('%Y-%m-%dT%H:%M:%SZ', time.gmtime())} {line}", file=sys.stderr, flush=True)


def ended(status: int) -> str:
    """How a worker ended, from its wait status."""
    if os.WIFSIGNALED(status):
        sig = os.WTERMSIG(status)
        try:
            return f"killed by {signal.Signals(sig).name}"
        except ValueError:
            return f"killed by signal {sig}"
    return f"exited with status {os.waitstatus_to_exitcode(status)}"


def prefork(run, workers: int, on_ready=None, cpus: Sequence[int] = ()) -> None:
    """Fork ``workers`` processes that each call ``run``; restart one that dies (logging both);
    stop all on SIGTERM or SIGINT. A worker that keeps dying at once stops the server with one line.
    With ``cpus`` (``pinned_cores``), each worker is kept on one of them (``next_core``). Workers
    end with the master, however it ends (``die_with``)."""
    children: dict[int, tuple[float, int | None]] = {}  # pid -> when it started, its core
    stopping = False
    master = os.getpid()

    stop_signals = {signal.SIGTERM, signal.SIGINT}

    def spawn() -> int | None:
        # A stop arriving around the fork must reach the new worker too: blocked here, it waits
        # until the worker has its default handlers (it dies of it) and the master knows its pid
        # (stop() sends it one). Unblocked at once, a worker forked an instant before a stop kept
        # the master's handler copy, lost the signal and served on, and the master waited for it.
        signal.pthread_sigmask(signal.SIG_BLOCK, stop_signals)
        if stopping:  # a stop came in between two spawns: start no more (it can't come now, blocked)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)
            return None
        core = next_core(cpus, [c for _, c in children.values()])
        try:
            pid = os.fork()
        except BaseException:
            signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)
            raise
        if pid == 0:  # the worker: default signals, serve, never return into the master's code
            signal.signal(signal.SIGTERM, signal.SIG_DFL)
            signal.signal(signal.SIGINT, signal.SIG_DFL)
            signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)
            die_with(master)
            pin(core)
            code = 0
            try:
                run()
            except BaseException:  # noqa: BLE001 - a worker reports, then its master decides
                import traceback

                traceback.print_exc()
                code = 1
            finally:
                os._exit(code)
        children[pid] = time.monotonic(), core
        signal.pthread_sigmask(signal.SIG_UNBLOCK, stop_signals)
        return pid

    def stop(signum, frame) -> None:
        nonlocal stopping
        stopping = True
        for pid in list(children):
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGTERM)

    signal.signal(signal.SIGTERM, stop)
    signal.signal(signal.SIGINT, stop)
    for _ in range(workers):
        spawn()
    if on_ready:
        on_ready()
    quick_deaths = 0
    while children:
        try:
            pid, status = os.wait()
        except ChildProcessError:
            break
        child = children.pop(pid, None)
        if stopping or child is None:
            continue
        started, _ = child
        say(f"worker {pid} {ended(status)} after {time.monotonic() - started:.0f} s")
        quick_deaths = quick_deaths + 1 if time.monotonic() - started < 1 else 0
        if quick_deaths >= 5:
            stop(signal.SIGTERM, None)
            raise SystemExit("the server's workers keep stopping at once: see the lines above")
        new = spawn()
        if new:
            say(f"worker {new} started in its place")
