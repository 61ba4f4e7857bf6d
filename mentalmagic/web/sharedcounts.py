"""The rate limits' counts in one file every worker of a server maps (issue 23): ``shared://``.

With counts in each worker's memory a client had a budget per worker: three workers let 600 a
minute become ~1,800. This ``limits`` storage keeps them in a small fixed table in a file beside
the database (``<database>.limits``, or ``shared:///a/path``), mapped into memory by every
process that serves it, so a client is counted once per server however the kernel spreads its
connections, and the counts survive a restart. A ``flock`` on the file (and a thread lock) makes
each count one step across processes; the kernel lets it go if a worker dies holding it.

The table is ``SLOTS`` slots of (key hash, expiry in ms, count), a key found within ``PROBES``
slots of its hash; with every one of them counting another live key, the one whose window ends
first gives way (that client starts again from 0: a lenient error, never a false 429). The file
is allocated whole when made, so a full disk can't fault a write into it.
"""

from __future__ import annotations

import hashlib
import mmap
import os
import threading
import time
from pathlib import Path
from urllib.parse import unquote, urlparse

from limits.storage import Storage

from ..messages import say

try:
    import fcntl
except ImportError:  # Windows: one process, the thread lock alone
    fcntl = None

SLOTS = 16384  # ~400 KiB: far more clients than one server sees in a minute
PROBES = 8
WORDS = 3  # key hash, expiry (ms since the epoch), count
SIZE = SLOTS * WORDS * 8


def _hash(key: str) -> int:
    """A hash of ``key`` the same in every process and every run (Python's ``hash`` is neither); never 0 (free)."""
    return int.from_bytes(hashlib.blake2b(key.encode(), digest_size=8).digest(), "little") or 1


class SharedCounts(Storage):
    """A fixed-window counts table in a file shared by processes (see the module)."""

    STORAGE_SCHEME = ["shared"]

    def __init__(self, uri: str = "shared://", wrap_exceptions: bool = False, **options):
        super().__init__(uri, wrap_exceptions=wrap_exceptions, **options)
        path = unquote(urlparse(uri).path)
        if not path:
            raise ValueError(say("settings.shared_path"))
        self.path = Path(path)
        self._thread_lock = threading.Lock()
        self._pid, self._fd, self._words = 0, -1, None
        self._open()

    @property
    def base_exceptions(self):
        return OSError

    def _open(self) -> None:
        """Map the file (made and allocated whole if new); a forked worker opens its own descriptor,
        since ``flock`` excludes open files, not processes."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o600)
        if fcntl:
            fcntl.flock(fd, fcntl.LOCK_EX)
        try:
            if os.fstat(fd).st_size != SIZE:
                os.ftruncate(fd, 0)  # new, or of another layout: counted afresh
                if hasattr(os, "posix_fallocate"):
                    os.posix_fallocate(fd, 0, SIZE)
                else:
                    os.ftruncate(fd, SIZE)
            self._words = memoryview(mmap.mmap(fd, SIZE)).cast("Q")
        finally:
            if fcntl:
                fcntl.flock(fd, fcntl.LOCK_UN)
        self._fd, self._pid = fd, os.getpid()

    def _locked(self):
        if self._pid != os.getpid():
            with self._thread_lock:
                if self._pid != os.getpid():
                    self._fd = os.open(self.path, os.O_RDWR)
                    self._pid = os.getpid()
        return _Lock(self._thread_lock, self._fd)

    def _find(self, h: int, now: int) -> tuple[int, bool]:
        """The slot of key hash ``h`` (True) or the one it may take (False): free, expired, or the
        one whose window ends first."""
        w, start = self._words, h % SLOTS
        best, best_expiry = None, None
        for i in range(PROBES):
            at = ((start + i) % SLOTS) * WORDS
            if w[at] == h:
                return at, True
            expiry = w[at + 1] if w[at] else 0
            if expiry <= now:
                expiry = 0
            if best is None or expiry < best_expiry:
                best, best_expiry = at, expiry
        return best, False

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        h, now = _hash(key), int(time.time() * 1000)
        w = self._words
        with self._locked():
            at, found = self._find(h, now)
            if found and w[at + 1] > now:
                w[at + 2] += amount
                return w[at + 2]
            w[at], w[at + 1], w[at + 2] = h, now + int(expiry * 1000), amount
            return amount

    def decr(self, key: str, amount: int = 1) -> int:
        """``key``'s count less ``amount`` (not below 0) while its window runs: a place taken and given back."""
        h, now = _hash(key), int(time.time() * 1000)
        w = self._words
        with self._locked():
            at, found = self._find(h, now)
            if not (found and w[at + 1] > now):
                return 0
            w[at + 2] = max(w[at + 2] - amount, 0)
            return w[at + 2]

    def _live(self, key: str) -> tuple[int, int] | None:
        """(expiry in ms, count) of ``key``'s window, if one is running. Read without the lock: a
        count changing meanwhile reads as before or after it (the answer's X-RateLimit headers, the
        hourly cap's window)."""
        h, now = _hash(key), int(time.time() * 1000)
        w = self._words
        at, found = self._find(h, now)
        expiry, count = w[at + 1], w[at + 2]
        if found and w[at] == h and expiry > now:
            return expiry, count
        return None

    def get(self, key: str) -> int:
        live = self._live(key)
        return live[1] if live else 0

    def get_expiry(self, key: str) -> float:
        live = self._live(key)
        return live[0] / 1000 if live else time.time()

    def check(self) -> bool:
        return True

    def reset(self) -> int | None:
        with self._locked():
            self._words[:] = memoryview(bytes(SIZE)).cast("Q")
        return None

    def clear(self, key: str) -> None:
        h, w = _hash(key), self._words
        with self._locked():
            at, found = self._find(h, 0)
            if found:
                w[at] = w[at + 1] = w[at + 2] = 0


class _Lock:
    """The thread lock, then ``flock`` on the file: one count at a time across threads and processes."""

    __slots__ = ("thread_lock", "fd")

    def __init__(self, thread_lock: threading.Lock, fd: int):
        self.thread_lock, self.fd = thread_lock, fd

    def __enter__(self):
        self.thread_lock.acquire()
        if fcntl:
            try:
                fcntl.flock(self.fd, fcntl.LOCK_EX)
            except BaseException:
                self.thread_lock.release()
                raise
        return self

    def __exit__(self, *exc):
        try:
            if fcntl:
                fcntl.flock(self.fd, fcntl.LOCK_UN)
        finally:
            self.thread_lock.release()
