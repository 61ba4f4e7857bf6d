"""Phones at the table over a real network (issue 31): a network namespace and a veth pair of the
test's own, a real ``mentalmagic serve --table`` in the namespace (whose only interfaces are its
loopback and its end of the pair, so the addresses it finds are the test's), the judge's Chromium in
the namespace on its loopback, and a phone-sized Chromium outside it that opens the URL decoded from
its seat's QR code, as a camera would read it, and nothing typed by hand.

Traffic goes only between the two addresses the test gives the pair (10.213.X.1 and .2, a /30 of
its own) and over loopback: every other host is refused (a proxy that never answers) and fails the
test. The namespace and the pair are removed in a ``finally``. Needs root and ``ip`` (iproute2,
installed by ``make test`` as root: the Makefile's ``netns``).
"""

from __future__ import annotations

import contextlib
import os
import random
import re
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
from dataclasses import dataclass
from pathlib import Path

import pytest
from browser import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, WAKE_LOCK_SPY, api, assert_fits_a_phone, decoded
from playwright import sync_api
from served import START_LIMIT, free_port, tiny_env
from support import terminal_code

pytestmark = pytest.mark.processes
expect = sync_api.expect
LIBRARY = ["Savannah Lions", "Forest", "Ornithopter", "Black Lotus", "Fire // Ice", "Savannah Lions", "Forest"]
PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True, "locale": "fr-FR"}


def ip(*args: str) -> None:
    subprocess.run(["ip", *args], check=True, capture_output=True, timeout=30)


@dataclass
class Table:
    ns: str  # the namespace the server runs in
    server: str  # its end of the pair: the laptop's address on the table's network
    phone: str  # the other end, in this namespace: the phones' side


@contextlib.contextmanager
def table_network():
    """A namespace with one end of a veth pair (and its loopback), the other end here; a /30 of
    10.213.0.0/16 that no interface of this machine uses. Removed however the test ends."""
    if os.geteuid() != 0:
        pytest.skip("a network namespace needs root")
    if not shutil.which("ip"):
        pytest.fail("no `ip` command: apt-get install iproute2 (make test does, as root)")
    used = subprocess.run(["ip", "-4", "-o", "addr"], capture_output=True, text=True, check=True).stdout
    free = [x for x in range(256) if f"10.213.{x}." not in used]
    x = random.SystemRandom().choice(free)
    tag = f"{os.getpid() % 100000}{random.SystemRandom().randrange(100)}"
    ns, here, there = f"mmtable{tag}", f"mmt{tag}p", f"mmt{tag}s"  # interface names: 15 characters at most
    table = Table(ns, f"10.213.{x}.1", f"10.213.{x}.2")
    try:
        ip("netns", "add", ns)
        ip("link", "add", here, "type", "veth", "peer", "name", there)
        # no IPv6 link-local address on either end: the kernel adds one a moment after the link is up
        # (after its duplicate address detection), and Chromium, seeing an address change, fails the
        # requests in flight (net::ERR_NETWORK_CHANGED): the judge's page lost its scripts that way
        ip("link", "set", here, "addrgenmode", "none")
        ip("link", "set", there, "addrgenmode", "none")
        ip("link", "set", there, "netns", ns)
        ip("addr", "add", f"{table.phone}/30", "dev", here)
        ip("link", "set", here, "up")
        ip("netns", "exec", ns, "ip", "addr", "add", f"{table.server}/30", "dev", there)
        ip("netns", "exec", ns, "ip", "link", "set", there, "up")
        ip("netns", "exec", ns, "ip", "link", "set", "lo", "up")
        yield table
    finally:
        subprocess.run(["ip", "netns", "del", ns], capture_output=True, timeout=30)  # takes its end of the pair
        subprocess.run(["ip", "link", "del", here], capture_output=True, timeout=30)  # gone with it, normally


class TableServer:
    """``mentalmagic serve --table`` in the table's namespace (``ip netns exec``: the same process, in
    its own process group), its output kept."""

    def __init__(self, table: Table, env: dict, port: int, log: Path):
        self.table, self.port, self.log_path = table, port, log
        self.log = open(log, "ab")  # noqa: SIM115 - closed in stop()
        self.started = time.monotonic()
        self.proc = subprocess.Popen(
            ["ip", "netns", "exec", table.ns, str(Path(sys.executable).with_name("mentalmagic")), "serve", "--table",
             "--port", str(port)], env={**os.environ, **env}, stdout=self.log, stderr=subprocess.STDOUT,
            start_new_session=True)
        self.url = f"http://{table.server}:{port}"
        deadline = time.monotonic() + START_LIMIT
        while time.monotonic() < deadline:
            try:
                with urllib.request.urlopen(f"{self.url}/api/v1/health", timeout=5):
                    self.listening = time.monotonic()
                    return
            except OSError:
                if self.proc.poll() is not None:
                    pytest.fail(f"the server exited ({self.proc.returncode}): {self.output()[-2000:]}")
                time.sleep(0.05)
        self.stop()
        pytest.fail("the server did not answer over the table's network")

    def output(self) -> str:
        return self.log_path.read_text(errors="replace")

    def stop(self) -> None:
        with contextlib.suppress(ProcessLookupError):
            os.killpg(self.proc.pid, signal.SIGTERM)
        try:
            self.proc.wait(20)
        except subprocess.TimeoutExpired:
            with contextlib.suppress(ProcessLookupError):
                os.killpg(self.proc.pid, signal.SIGKILL)
            self.proc.wait(10)
        self.log.close()


@contextlib.contextmanager
def guarded(chromium, allowed: tuple[str, ...], **options):
    """A context where a request to any origin but ``allowed`` (or a data: URI) fails the test, as does a
    script error; the browser itself sends every other host to a proxy that never answers. Its
    ``story()``: what its pages asked and said, for a failure's message."""
    context = chromium.new_context(**options)
    context.set_default_timeout(TIMEOUT_MS)
    outside, errors, story = [], [], []
    pattern = re.compile("^(?:" + "|".join(re.escape(a) + "(?:[/?#]|$)" for a in allowed) + "|data:)")
    context.on("request", lambda r: None if pattern.match(r.url) else outside.append(r.url))
    context.on("request", lambda r: story.append(f"{time.monotonic():.2f} asked {r.method} {r.url[:120]}"))
    context.on("requestfinished", lambda r: story.append(f"{time.monotonic():.2f} answered {r.url[:120]}"))
    context.on("requestfailed", lambda r: story.append(f"{time.monotonic():.2f} failed {r.url[:120]}: {r.failure}"))
    context.on("page", lambda pg: pg.on("pageerror", lambda e: errors.append(str(e))))
    context.on("console", lambda m: story.append(f"{time.monotonic():.2f} console {m.type}: {m.text[:200]}"))
    context.story = lambda: "\n".join(story[-60:] + [f"{time.monotonic():.2f} now; script errors: {errors}"])
    try:
        yield context
    finally:
        context.close()
    assert not outside, f"requests outside the table: {outside}"
    assert not errors, f"script errors: {errors}"


def launch(browser_type, *, executable: str, bypass: str):
    """Chromium as browser.chromium launches it: any host but ``bypass`` goes to a loopback port that
    never answers."""
    nowhere = socket.socket()
    nowhere.bind(("127.0.0.1", 0))
    b = browser_type.launch(executable_path=executable, args=CHROMIUM_ARGS,
                            proxy={"server": f"http://127.0.0.1:{nowhere.getsockname()[1]}", "bypass": bypass})
    return b, nowhere


def test_a_phone_joins_by_its_qr_code_over_the_table_network_and_outlives_a_restart(browser, tmp_path):
    env = tiny_env(tmp_path, MENTALMAGIC_ACCESS_LOG="-")  # what the server answered, in a failure's message
    port = free_port()
    with table_network() as table:
        server = TableServer(table, env, port, tmp_path / "serve.log")
        judge_browser = phone_browser = None
        sockets = []
        try:
            # the terminal: the table's address, and only it (loopback and link-local left out)
            for _ in range(200):  # its last line: the master prints after its workers answer
                if f"127.0.0.1:{port}/console" in (out := server.output()):
                    break
                time.sleep(0.05)
            assert re.findall(r"^  (http://\S+)$", out, re.M) == [f"http://{table.server}:{port}/"], out
            assert terminal_code(out) == f"{server.url}/console"  # the code the terminal draws
            game = api(server.url, "POST", "/games", body={"players": [{"name": "Ana"}, {"name": "Ben"}],
                                                           "shuffle": False, "library": LIBRARY})
            ana = next(p for p in game["players"] if p["name"] == "Ana")
            want = f"{server.url}/games/{game['id']}#token={ana['token']}"

            # the judge's laptop: the page opened on its own loopback, in the server's namespace
            wrapper = tmp_path / "chromium-at-the-table"
            wrapper.write_text(f'#!/bin/sh\nexec ip netns exec {table.ns} {CHROMIUM} "$@"\n')
            wrapper.chmod(0o755)
            judge_browser, s1 = launch(browser.browser_type, executable=str(wrapper), bypass="127.0.0.1")
            sockets.append(s1)
            laptop = f"http://127.0.0.1:{port}"
            with guarded(judge_browser, (laptop,), viewport={"width": 1366, "height": 768}) as ctx:
                pg = ctx.new_page()
                pg.goto(f"{laptop}/static/favicon.svg")
                pg.evaluate("([id, g]) => localStorage.setItem('mentalmagic.games', JSON.stringify({[id]: g}))",
                            [game["id"], {"judge_token": game["judge_token"], "players": game["players"]}])
                pg.goto(f"{laptop}/games/{game['id']}")
                code = pg.locator('#links li[data-player="p1"] img.seat-code')
                # the first page of a Chromium just started in the namespace, while the other worker's
                # tests run: the page's own timeout, not expect's 5 s; what the page and the server did if it fails
                try:
                    expect(code).to_have_attribute("src", re.compile("^data:image/svg"), timeout=TIMEOUT_MS)
                except AssertionError as e:
                    raise AssertionError(f"{e}\nthe page:\n{ctx.story()}\nthe server's log:\n"
                                         f"{server.output()[-4000:]}") from None
                expect(pg.locator("#phones-notice")).to_have_count(0)  # the server is on the table's network
                scanned = decoded(code)
                # the link the page gives carries the table's address, not the loopback it was opened on
                assert scanned == want
                assert pg.locator('#links a[data-player="p1"]').get_attribute("href") == want

            # Ana's phone, outside the namespace: it opens what it scanned
            phone_browser, s2 = launch(browser.browser_type, executable=CHROMIUM, bypass=table.server)
            sockets.append(s2)
            with guarded(phone_browser, (server.url,), **PHONE) as ctx:
                phone = ctx.new_page()
                phone.add_init_script(WAKE_LOCK_SPY)
                phone.goto(scanned)
                expect(phone.locator("#seat")).to_contain_text("Ana")
                first_page = time.monotonic()
                assert_fits_a_phone(phone)
                phone.wait_for_function("() => (window.__locks || []).length > 0")  # kept awake, where allowed
                print(f"\nserve --table: answering after {server.listening - server.started:.2f} s; the first "
                      f"phone's seat shown {first_page - server.started:.2f} s after the start")
                phone.evaluate("window.__same = 'no reload'")

                # the laptop's server stops: the phone says so
                server.stop()
                expect(phone.locator("#game-status")).to_contain_text("Reconnexion…")
                # back, on the same database: the judge records a draw, the phone catches up by itself
                server = TableServer(table, env, port, tmp_path / "serve-again.log")
                api(server.url, "POST", f"/games/{game['id']}/line", game["judge_token"], {"line": "ana draw 2"})
                expect(phone.locator(".zone-hand .card-list li")).to_have_count(2)
                expect(phone.locator("#game-status")).not_to_contain_text("Reconnexion")
                assert phone.evaluate("window.__same") == "no reload"

                # and Ana acts from her phone: her own draw, typed on her seat's command line
                box = phone.locator("#command-input")
                box.fill("draw 1")
                box.press("Escape")
                box.press("Enter")
                expect(phone.locator(".zone-hand .card-list li")).to_have_count(3)
                events = api(server.url, "GET", f"/games/{game['id']}/events", ana["token"])["events"]
                assert events[-1]["type"] == "draw" and events[-1]["player"] == "p1"
        finally:
            for b in (judge_browser, phone_browser):
                if b is not None:
                    b.close()
            for s in sockets:
                s.close()
            server.stop()
