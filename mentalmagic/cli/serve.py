"""`mentalmagic serve`: the API and the pages under a production WSGI server. The one command
that loads the web layer, and only when it runs: look-ups and games don't load Flask."""

from __future__ import annotations

import os
import socket
import sys
import threading
import time
import webbrowser

import click

from ..catalogue import number
from ..messages import say
from ..runtime import load_frozen, write_aside
from .context import Failed
from .lan import table_origins


def _serving():
    """The server settings (web/serving.py), imported only to serve."""
    from ..web import serving

    return serving


@click.command()
@click.option("--host", default=None, show_default="127.0.0.1; 0.0.0.0 with --table")
@click.option("--port", type=int, default=lambda: int(os.environ.get("PORT", "5000")), show_default="$PORT or 5000")
@click.option("--server", type=click.Choice(["waitress", "gunicorn"]), default=lambda: _serving().default_server(),
              show_default="waitress (gunicorn: only behind a buffering proxy)")
@click.option("--workers", type=int, default=lambda: _serving().default_workers(),
              show_default="$MENTALMAGIC_WORKERS or one per core and one more (1 on Windows)", help="Server processes.")
@click.option("--threads", type=int, default=None,
              help="Threads per process (default 4).")
@click.option("--open", "open_browser", is_flag=True, help="Open the pages in the browser once the server listens.")
@click.option("--table", is_flag=True,
              help="For phones at the table: listen on the local network, print the addresses phones reach and "
                   "a QR code of the console (docs/console.md).")
@click.pass_context
def serve(ctx, host, port, server, workers, threads, open_browser, table):
    """Serve the API and the pages with a production WSGI server (settings: web/serving.py).

    Refuses to start, with one line saying why and exit status 1, when the self-check fails.
    The limits and the access log are MENTALMAGIC_* settings (docs/deployment.md, "Limits and logs").
    """
    from ..runtime import StartupError
    from ..settings import for_table, from_env
    from ..web import create_app

    serving = _serving()
    host = host or ("0.0.0.0" if table else "127.0.0.1")
    # the origins phones open (none on loopback): each seat's link and QR code is built with one
    origins = table_origins(host, port)
    try:
        # cards built and loaded once, before any worker starts; the MENTALMAGIC_* settings read
        # (a bad one is a ValueError naming it) and kept in app.config for the server
        settings = from_env()
        if table:  # its access log goes beside the database, whose folder a first start makes anyway
            ctx.obj["db"].parent.mkdir(parents=True, exist_ok=True)
            settings = for_table(settings, db_path=ctx.obj["db"])
        app = load_frozen(create_app, {"DATABASE": str(ctx.obj["db"]), "POOL_CACHE_LATER": True,
                                       "SETTINGS": settings, "TABLE_ORIGINS": origins})
    except (StartupError, ValueError) as e:
        raise Failed(str(e)) from None

    cpus = serving.pinned_cores(app.config["SETTINGS"], workers)

    def ready():
        pinned = say("serve.pinned", cores=",".join(map(str, cpus))) if cpus else ""
        cards = number(len(app.extensions["mentalmagic"].pool), ctx.obj.get("lang"))
        click.echo(say("serve.ready", url=f"http://{host}:{port}/", cards=cards, server=server, n=workers,
                       pinned=pinned))
        if table:
            show_table(origins, port)
        if open_browser:
            threading.Thread(target=open_when_listening, args=(host, port), daemon=True).start()

    write_aside(app.extensions["mentalmagic"])  # a first start's pool cache, while the workers start and answer
    try:
        serving.serve(app, server, host, port, workers, threads, on_ready=ready)
    except OSError as e:  # the port is taken, or the address isn't this machine's
        raise Failed(str(say("serve.cannot_listen", host=host, port=port, why=e.strerror or str(e)))) \
            from None


def show_table(origins: list[str], port: int) -> None:
    """What the judge needs to seat phones: the addresses they reach, and the console's as a QR code
    (segno, drawn with the terminal's block characters), or why there is none."""
    here = f"http://127.0.0.1:{port}/console"
    if not origins:
        click.echo(say("serve.table.none", url=here))
        return
    click.echo(say("serve.table.addresses"))
    for origin in origins:
        click.echo(f"  {origin}/")
    console = f"{origins[0]}/console"
    click.echo(say("serve.table.qr", url=console))
    import segno  # only to serve a table

    try:
        segno.make(console, error="m").terminal(out=sys.stdout, compact=True)
    except UnicodeEncodeError:  # a terminal that can't draw block characters: the address is above
        pass
    click.echo(say("serve.table.seats", url=here))


def open_when_listening(host: str, port: int, limit: float = 30.0) -> bool:
    """Open the pages in the default browser once ``host:port`` accepts connections (a single-process
    server is ready a moment before it listens); False if it never does or no browser opens. The
    URL is printed either way."""
    local = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host  # a wildcard address: this machine
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        try:
            socket.create_connection((local, port), timeout=1).close()
        except OSError:
            time.sleep(0.1)
            continue
        return webbrowser.open(f"http://{'[' + local + ']' if ':' in local else local}:{port}/")
    return False


COMMANDS = (serve,)
