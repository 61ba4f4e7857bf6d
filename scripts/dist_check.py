"""`make dist-check`: the wheel as a judge installs it, checked outside the checkout (issue 24).

In a temporary folder: a fresh virtual environment; the wheel and its dependencies downloaded
(pip's cache and index as configured), then installed into it offline from that folder; a home
of its own, so the database lands in the user data folder platformdirs names there. Then, from
that folder: `mentalmagic serve --open` on a free loopback port (its first start imports the
cards) answering /api/v1/health, the lookup page in French, the mana font's stylesheet and font,
a game created with a card drawn and its console page in French, stopped after; then
`mentalmagic self-check` and a look-up by a French name. Prints the wheel's size and the time
from `pip install` to the server's first answer.

    python scripts/dist_check.py dist/mentalmagic-0.1.0-py3-none-any.whl
"""

from __future__ import annotations

import argparse
import html
import json
import os
import re
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from pathlib import Path

from babel.messages.pofile import read_po

ROOT = Path(__file__).resolve().parents[1]
PO = ROOT / "mentalmagic" / "web" / "translations" / "fr" / "LC_MESSAGES" / "messages.po"
FONT = ROOT / "mentalmagic" / "web" / "vendor" / "mana-font" / "fonts" / "mana.woff"
START_LIMIT = 300  # seconds: a bound on a stuck first start (card import on a slow machine), not a target
FRENCH_NAME, ENGLISH_NAME = "Ghildmage de Boros", "Boros Guildmage"
WINDOWS = os.name == "nt"


class CheckFailed(Exception):
    pass


def check(condition: bool, what: str) -> None:
    if not condition:
        raise CheckFailed(what)


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def get(url: str, lang: str = "fr") -> tuple[int, dict, bytes]:
    request = urllib.request.Request(url, headers={"Accept-Language": lang})
    try:
        with urllib.request.urlopen(request, timeout=30) as resp:
            return resp.status, dict(resp.headers), resp.read()
    except urllib.error.HTTPError as e:
        with e:
            return e.code, dict(e.headers), e.read()


def run(cmd: list[str], env: dict, cwd: Path, what: str) -> subprocess.CompletedProcess:
    out = subprocess.run(cmd, env=env, cwd=cwd, capture_output=True, text=True, encoding="utf-8", timeout=START_LIMIT)
    check(out.returncode == 0, f"{what} failed ({out.returncode}):\n{out.stdout[-2000:]}\n{out.stderr[-2000:]}")
    return out


def judge_env(tmp: Path) -> dict:
    """The environment of a judge's fresh account: no MENTALMAGIC_* setting, no PYTHONPATH, a home of its own."""
    env = {k: v for k, v in os.environ.items()
           if not k.startswith("MENTALMAGIC_") and k not in ("PYTHONPATH", "XDG_DATA_HOME", "VIRTUAL_ENV")}
    home = tmp / "home"
    home.mkdir()
    env.update(HOME=str(home), USERPROFILE=str(home), PYTHONIOENCODING="utf-8")
    if WINDOWS:  # platformdirs asks Windows for the real AppData folder: keep the check's database here
        env["MENTALMAGIC_DB"] = str(home / "mentalmagic.sqlite")
    return env


def french_strings_of_the_lookup_page() -> list[str]:
    """The catalogue's French sentences of lookup.html that differ from their English and hold no placeholder."""
    with open(PO, "rb") as fh:
        catalog = read_po(fh)
    out = []
    for m in catalog:
        if (m.id and isinstance(m.id, str) and isinstance(m.string, str) and m.string and m.string != m.id
                and "%" not in m.id and "{" not in m.id and len(m.string) > 6
                and any(path.endswith("lookup.html") for path, _ in m.locations)):
            out.append(html.escape(m.string, quote=False))
    return out


class Server:
    """`mentalmagic serve` in its own process group, its output collected as it comes."""

    def __init__(self, exe: Path, port: int, env: dict, cwd: Path, *args: str):
        flags = {"creationflags": subprocess.CREATE_NEW_PROCESS_GROUP} if WINDOWS else {"start_new_session": True}
        self.proc = subprocess.Popen([str(exe), "serve", "--host", "127.0.0.1", "--port", str(port), *args], env=env,
                                     cwd=cwd, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
                                     encoding="utf-8", **flags)
        self.out: list[str] = []
        self.err: list[str] = []
        self.readers = [threading.Thread(target=self._read, args=(s, sink), daemon=True)
                        for s, sink in ((self.proc.stdout, self.out), (self.proc.stderr, self.err))]
        for r in self.readers:
            r.start()

    @staticmethod
    def _read(stream, sink: list[str]) -> None:
        for line in stream:
            sink.append(line)

    def output(self) -> str:
        return "".join(self.out) + "".join(self.err)

    def stop(self) -> None:
        if self.proc.poll() is None:
            if WINDOWS:
                self.proc.send_signal(signal.CTRL_BREAK_EVENT)
            else:
                os.killpg(self.proc.pid, signal.SIGTERM)
            try:
                self.proc.wait(30)
            except subprocess.TimeoutExpired:
                self.proc.kill() if WINDOWS else os.killpg(self.proc.pid, signal.SIGKILL)
                self.proc.wait(30)
                raise CheckFailed("the server did not stop within 30 s of SIGTERM") from None
        for r in self.readers:
            r.join(10)


def check_server(base: str) -> None:
    status, _, body = get(f"{base}/api/v1/health")
    health = json.loads(body)
    check(status == 200 and health["status"] == "ok", f"/api/v1/health: {status} {health}")
    check(health["card_count"] > 30_000, f"/api/v1/health holds {health['card_count']} cards")

    page_url = f"{base}/?printed={urllib.request.quote(FRENCH_NAME)}"
    status, headers, body = get(page_url, "fr")
    page = body.decode()
    check(status == 200 and "text/html" in headers.get("Content-Type", ""), f"the lookup page: {status}")
    check(re.search(r'<html lang="fr" class="has-mana-font"', page) is not None,
          "the lookup page is not in French with the mana font: " + page[:300])
    check(html.escape(FRENCH_NAME, quote=True) in page, "the lookup page does not echo the French name")
    french = french_strings_of_the_lookup_page()
    shown = [s for s in french if s in page]
    check(len(shown) >= 5, f"the French page shows {len(shown)} of the catalogue's {len(french)} sentences")
    english_page = get(page_url, "en")[2].decode()
    check(not [s for s in shown if s in english_page], "the English page shows the same French sentences")
    check("mana-font/css/mana.min.css" in page, "the page does not link the mana font's stylesheet")

    status, headers, body = get(f"{base}/vendor/mana-font/css/mana.min.css")
    check(status == 200 and "text/css" in headers.get("Content-Type", "") and b"@font-face" in body,
          f"the mana font's stylesheet: {status} {headers.get('Content-Type')}")
    status, _, body = get(f"{base}/vendor/mana-font/fonts/mana.woff")
    check(status == 200 and body == FONT.read_bytes(), f"the mana font: {status}, {len(body)} bytes")


def check_game(base: str) -> None:
    """A game as a judge starts one at the console: created, a card drawn, its page in French."""
    def post(path: str, body: dict, token: str | None = None) -> tuple[int, dict]:
        headers = {"Content-Type": "application/json", **({"Authorization": f"Bearer {token}"} if token else {})}
        request = urllib.request.Request(base + path, data=json.dumps(body).encode(), headers=headers)
        try:
            with urllib.request.urlopen(request, timeout=30) as resp:
                return resp.status, json.loads(resp.read())
        except urllib.error.HTTPError as e:
            with e:
                return e.code, json.loads(e.read())

    status, game = post("/api/v1/games", {"format": "vintage", "players": [{"name": "Ana"}, {"name": "Bruno"}],
                                          "library": [ENGLISH_NAME, "Savannah Lions", "Shock", "Lightning Bolt"]})
    check(status == 201, f"creating a game: {status} {game}")
    status, drawn = post(f"/api/v1/games/{game['id']}/actions",
                         {"type": "draw", "player": game["players"][0]["id"], "count": 1}, game["judge_token"])
    check(status == 200 and drawn["event"]["type"] == "draw", f"drawing a card: {status} {drawn}")
    status, _, body = get(f"{base}/games/{game['id']}", "fr")
    page = body.decode()
    check(status == 200 and '<html lang="fr" class="has-mana-font"' in page and "<title>Partie " in page,
          f"the game's console page in French: {status} {page[:300]}")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("wheel", type=Path)
    wheel = parser.parse_args().wheel.resolve()
    check(wheel.is_file() and wheel.suffix == ".whl", f"no wheel at {wheel}")
    print(f"dist-check: {wheel.name}, {wheel.stat().st_size / 1e6:.2f} MB", flush=True)

    with tempfile.TemporaryDirectory(prefix="mentalmagic-dist-check-") as tmp_name:
        tmp = Path(tmp_name)
        check(not tmp.resolve().is_relative_to(ROOT), "the temporary folder is inside the checkout")
        venv = tmp / "venv"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True)
        bindir = venv / ("Scripts" if WINDOWS else "bin")
        python, exe = bindir / "python", bindir / "mentalmagic"
        env = judge_env(tmp)

        # The judge's offline path (docs/install.md): the wheel and its dependencies fetched into a
        # folder on a connected machine (here through pip's index and its cache), then installed
        # from that folder alone. The install is timed from there: no network in the figure.
        pip = [str(python), "-m", "pip", "--disable-pip-version-check"]
        wheels = tmp / "wheels"
        run([*pip, "download", "--quiet", "--dest", str(wheels), str(wheel)],
            {**env, "HOME": os.environ.get("HOME", env["HOME"])}, tmp, "pip download")  # pip's own cache
        started = time.monotonic()
        run([*pip, "install", "--quiet", "--no-index", "--find-links", str(wheels), str(wheel)], env, tmp,
            "pip install --no-index")
        installed = time.monotonic()
        print(f"dist-check: pip install (offline, {len(list(wheels.iterdir()))} wheels) "
              f"{installed - started:.1f} s", flush=True)

        where = run([str(python), "-c", "import importlib.util, mentalmagic, mentalmagic.runtime as r; "
                     "print(mentalmagic.__file__); print(importlib.util.find_spec('cards')); "
                     "print(r.default_db_path())"], env, tmp, "importing the package").stdout.splitlines()
        check(Path(where[0]).resolve().is_relative_to(venv.resolve()), f"mentalmagic imported from {where[0]}")
        check(where[1] == "None", "the wheel installs a top-level `cards` package")
        package = Path(where[0]).parent
        catalogues = sorted(p.relative_to(package).as_posix() for p in package.rglob("LC_MESSAGES/*.[mp]o"))
        sources = sorted(p.relative_to(ROOT / "mentalmagic").with_suffix(".mo").as_posix()
                         for p in (ROOT / "mentalmagic").rglob("LC_MESSAGES/*.po"))
        check(catalogues == sources,  # each .po compiled at build (a start must not have to), and only the .mo
              f"the installed catalogues are {catalogues}, not the .mo of {sources}")
        check((package / "storage" / "schema.sql").read_bytes() == (ROOT / "schema.sql").read_bytes(),
              "the installed schema.sql is not the top level's")  # the one source, carried by setup.py
        db = Path(where[2])
        check(db.resolve().is_relative_to(tmp.resolve()) and not db.exists(),
              f"the default database {db} is not a fresh file in the judge's data folder")

        port = free_port()
        opened, serve_env, args = tmp / "opened.txt", env, []
        if not WINDOWS:  # `serve --open` hands the URL to $BROWSER: here a script noting it
            browser = tmp / "browser"
            browser.write_text(f"#!{sys.executable}\nimport sys\nopen({str(opened)!r}, 'w').write(sys.argv[1])\n")
            browser.chmod(0o755)
            serve_env, args = {**env, "BROWSER": str(browser)}, ["--open"]
        server = Server(exe, port, serve_env, tmp, *args)
        base = f"http://127.0.0.1:{port}"
        try:
            while True:
                try:
                    status = get(f"{base}/api/v1/health")[0]
                    break
                except OSError:
                    check(server.proc.poll() is None, f"the server exited:\n{server.output()[-3000:]}")
                    check(time.monotonic() - installed < START_LIMIT, "the server did not answer in time")
                    time.sleep(0.1)
            answered = time.monotonic()
            check(status == 200, f"/api/v1/health answered {status}")
            print(f"dist-check: first start (cards imported) {answered - installed:.1f} s; "
                  f"pip install to the first answer {answered - started:.1f} s", flush=True)
            check_server(base)
            check_game(base)
        finally:
            server.stop()
        said = server.output()
        check(f"http://127.0.0.1:{port}/" in "".join(server.out), f"serve did not print its URL:\n{said[-2000:]}")
        check(re.search(r"imported \d+ cards", said) is not None, f"serve showed no import progress:\n{said[-2000:]}")
        check(db.is_file(), f"no database at {db}")
        check(not args or (opened.exists() and opened.read_text() == f"http://127.0.0.1:{port}/"),
              "serve --open did not open the browser at its URL")

        out = run([str(exe), "self-check"], env, tmp, "mentalmagic self-check").stdout
        check(str(db) in out, f"self-check did not check {db}: {out}")
        out = run([str(exe), "candidates", FRENCH_NAME], env, tmp, f"mentalmagic candidates {FRENCH_NAME!r}").stdout
        check(ENGLISH_NAME in out and len(out.splitlines()) > 10, f"the look-up by a French name: {out[:500]}")
        size = sum(f.stat().st_size for f in db.parent.glob(db.name + "*"))  # with its WAL and the pool's cache
        print(f"dist-check: the database and its cache {size / 1e6:.0f} MB in {db.parent}", flush=True)
    print("dist-check: ok (serve --open, /health, French pages, mana font, a game, self-check, French look-up)",
          flush=True)
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except CheckFailed as e:
        print(f"dist-check FAILED: {e}", file=sys.stderr)
        sys.exit(1)
