"""Doorbells between the processes that share a SQLite file on one machine: a process that
commits rings the others, so that their watchers sleep until something is committed instead of
polling the file twenty times a second.

Each watching process binds a Unix datagram socket in the folder ``FILE.bells`` beside the
file (or, when that path is too long for a socket's, in the temporary folder, named after the
file's); a commit sends the table's id and version to every other socket there. A bell is a
hint, never the only way news arrives: a watcher that finds its bell full (:data:`QUEUE_LENGTH`
rings unread: the next were dropped) reads the file's versions at once, and it reads ``PRAGMA
data_version`` every :data:`FALLBACK_SECONDS` anyway (a ring to a folder the ringer could not
reach); a process whose folder cannot be used polls as before. A socket left by a process
that died is removed by the next ring that finds nobody listening on it.

>>> import tempfile, pathlib
>>> folder = tempfile.TemporaryDirectory()
>>> path = str(pathlib.Path(folder.name) / "tables.sqlite3")
>>> mine, theirs = Bells(path), Bells(path)
>>> bell = theirs.listen()
>>> mine.ring("t1", 7)
>>> heard(bell.recv(512))
('t1', 7)
>>> theirs.wake_own()
>>> heard(bell.recv(512)) is None
True
>>> bell.close(); theirs.close(); mine.close(); folder.cleanup()
"""

from __future__ import annotations

import contextlib
import hashlib
import os
import secrets
import socket
import tempfile

FALLBACK_SECONDS = 1.0
"""How often a watcher with a bell reads the file's version all the same."""



def _queue_length() -> int:
    try:
        with open("/proc/sys/net/unix/max_dgram_qlen") as setting:
            return int(setting.read())
    except (OSError, ValueError):
        return 10  # Linux's default


QUEUE_LENGTH = _queue_length()
"""About how many rings a bell holds unread (Linux's ``net.unix.max_dgram_qlen``, often 10;
it takes one more): the next are dropped. A watcher that finds this many reads the file's
versions (a ring may have been lost)."""

_FOLDER_BYTES = 90
"""The longest folder a bell's path fits in (Linux: 107 bytes, and a bell's name 16)."""


class Bells:
    """The bells of the processes watching the SQLite file at ``path``."""

    def __init__(self, path: str) -> None:
        where = os.path.realpath(path)
        self.folder = f"{where}.bells"
        if len(os.fsencode(self.folder)) > _FOLDER_BYTES:
            name = hashlib.sha256(where.encode()).hexdigest()[:16]
            self.folder = os.path.join(tempfile.gettempdir(), f"thirtyone-bells-{name}")
        self._own: str | None = None
        self._sender: socket.socket | None = None

    def listen(self) -> socket.socket:
        """This process's bell: a datagram socket that receives the rings (OSError when the
        folder cannot be used)."""
        os.makedirs(self.folder, mode=0o700, exist_ok=True)
        bell = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        own = os.path.join(self.folder, f"{os.getpid()}-{secrets.token_hex(4)}")
        try:
            bell.bind(own)
        except OSError:
            bell.close()
            raise
        self._own = own
        return bell

    def ring(self, table: str, version: int) -> None:
        """Tell the other watching processes that ``table`` is at ``version`` now. Never
        fails: their watchers read the file now and then anyway."""
        try:
            names = os.listdir(self.folder)
        except OSError:
            return
        message = f"{version} {table}".encode()
        for name in names:
            peer = os.path.join(self.folder, name)
            if peer != self._own:
                self._send(message, peer)

    def wake_own(self) -> None:
        """Wake this process's watcher to read the file now (a table gained its first
        stream here)."""
        if self._own is not None:
            self._send(b"", self._own)

    def _send(self, message: bytes, peer: str) -> None:
        if self._sender is None:
            self._sender = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
            self._sender.setblocking(False)
        try:
            self._sender.sendto(message, peer)
        except (ConnectionRefusedError, FileNotFoundError):
            # Nobody listens there: its process died.
            with contextlib.suppress(OSError):
                os.unlink(peer)
        except OSError:
            pass  # a full buffer: that watcher is awake already, or reads at its fallback

    def close(self) -> None:
        if self._own is not None:
            with contextlib.suppress(OSError):
                os.unlink(self._own)
            with contextlib.suppress(OSError):
                os.rmdir(self.folder)  # the last one out; fails while others listen
            self._own = None
        if self._sender is not None:
            self._sender.close()
            self._sender = None


def heard(message: bytes) -> tuple[str, int] | None:
    """The table and version a ring names; None for a wake (or anything no bell sends)."""
    version, _, table = message.decode(errors="replace").partition(" ")
    if not table or not version.isdigit():
        return None
    return table, int(version)
