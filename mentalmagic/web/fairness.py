"""One client can't take waitress from the others (issue 23): a cap on each client address's open
connections, and a deadline for reading a whole request.

waitress closes a connection silent for ``channel_timeout``, but one that trickles a header byte
now and then is never silent: ~3,100 such connections from one address filled every worker's
``connection_limit`` and nobody else was answered. Here each worker process:

- refuses a client address's connection past MENTALMAGIC_CLIENT_CONNECTIONS open ones (a short
  ``503`` envelope, then closed), so one address holds at most that many per worker;
- closes a connection whose request (line, headers and body) isn't read whole within
  MENTALMAGIC_REQUEST_DEADLINE seconds of its first byte, however it trickles.

Behind a reverse proxy (MENTALMAGIC_PROXIES) every connection comes from the proxy: the cap is
off there, the proxy's own limits do that work (docs/serving.md).
"""

from __future__ import annotations

import json
import socket
import threading
import time
from collections import Counter
from urllib.parse import parse_qs

from ..catalogue import primary, text
from ..messages import LANGUAGES, say
from .waitress_errors import EnvelopeChannel

REFUSED = ("HTTP/1.1 503 Service Unavailable\r\nContent-Type: application/json\r\nConnection: close\r\n"
           "Retry-After: 5\r\nContent-Length: {length}\r\n\r\n{body}")


def refusal(lang: str | None = None) -> bytes:
    """The 503 a connection past the cap gets, worded in ``lang`` by the catalogue (Babel, no Flask)."""
    said = say("server.too_many_connections")
    body = json.dumps({"error": {"code": "too_many_connections", "message": text(said, lang), **said.as_json()}},
                      ensure_ascii=False).encode("utf-8")
    return REFUSED.format(length=len(body), body="").encode() + body


_REFUSALS = {lang: refusal(lang) for lang in LANGUAGES}  # made once: a refusal costs a socket call or two
PEEK = 4096  # bytes of a request looked at for its language: the request line and the usual headers


def refusal_for(sock) -> bytes:
    """The refusal in the language the connection's request asks (``?lang=``, else Accept-Language),
    read from what it has sent so far (``sock`` is non-blocking: never waits); English when it has
    sent nothing yet."""
    try:
        head = sock.recv(PEEK, socket.MSG_PEEK)
    except OSError:  # nothing yet (EAGAIN), or gone
        head = b""
    return _REFUSALS[primary(raw_language(head))]


def raw_language(head: bytes) -> str | None:
    """``?lang=`` of the request line, else the first tag of Accept-Language, from a request's raw bytes."""
    lines = head.split(b"\r\n\r\n", 1)[0].decode("latin-1").split("\r\n")
    target = lines[0].split(" ")[1] if lines[0].count(" ") >= 2 else ""
    asked = parse_qs(target.partition("?")[2]).get("lang")
    if asked:
        return asked[0]
    for line in lines[1:]:
        name, _, value = line.partition(":")
        if name.strip().lower() == "accept-language":
            return value.split(",")[0].split(";")[0].strip() or None
    return None


class FairChannel(EnvelopeChannel):
    """A connection counted against its client's cap, and timed from a request's first byte."""

    reading_since: float | None = None  # when the request being read began; None between requests
    counted = False

    def __init__(self, server, sock, addr, adj, map=None):
        client = addr[0] if isinstance(addr, tuple) and addr else ""
        if client and server.fair.over(client):
            try:  # a few hundred bytes into an empty socket buffer: never blocks
                sock.setblocking(False)
                sock.send(refusal_for(sock))
            except OSError:
                pass
            sock.close()
            self.refused = True
            return
        self.client = client
        super().__init__(server, sock, addr, adj, map)

    def add_channel(self, map=None):
        super().add_channel(map)
        if self.client and not self.counted:
            self.counted = True
            self.server.fair.opened(self.client)

    def del_channel(self, map=None):
        super().del_channel(map)
        if self.counted:
            self.counted = False
            self.server.fair.closed(self.client)

    def received(self, data):
        before = self.request
        out = super().received(data)
        if self.request is None:  # every byte so far belongs to requests read whole
            self.reading_since = None
        elif self.request is not before or self.reading_since is None:
            self.reading_since = time.time()  # a new request began in this read
        return out


class Fairness:
    """One worker's count of open connections per client address, and the deadline."""

    def __init__(self, per_client: int, deadline: float):
        self.per_client, self.deadline = per_client, deadline
        self._open: Counter[str] = Counter()
        self._lock = threading.Lock()

    def over(self, client: str) -> bool:
        return bool(self.per_client) and self._open[client] >= self.per_client

    def opened(self, client: str) -> None:
        with self._lock:
            self._open[client] += 1

    def closed(self, client: str) -> None:
        with self._lock:
            self._open[client] -= 1
            if self._open[client] <= 0:
                del self._open[client]

    def late(self, channels, now: float) -> None:
        """Close the connections whose request has been read for longer than the deadline."""
        if not self.deadline:
            return
        cutoff = now - self.deadline
        for channel in list(channels):
            since = getattr(channel, "reading_since", None)
            if since is not None and since < cutoff:
                channel.will_close = True


def fair(server, per_client: int, deadline: float):
    """``server`` (waitress's ``create_server``, already ``enveloped``) with every listener's
    connections under the cap and the deadline."""
    listeners = [server] if hasattr(server, "channel_class") else list(server.map.values())
    for listener in listeners:
        if not hasattr(listener, "channel_class"):
            continue
        listener.channel_class = FairChannel
        listener.fair = Fairness(per_client, deadline)
        idle = listener.maintenance  # waitress's: silent connections

        def maintenance(now, listener=listener, idle=idle):
            idle(now)
            listener.fair.late(listener.active_channels.values(), now)

        listener.maintenance = maintenance
    return server
