"""One writer per SQLite database: an exclusive ``flock`` on a lock file beside it.

SQLite's own locks only serialise transactions: two bot processes on one file would both
run the same tables (both post, both write). The process that runs a database holds an
exclusive ``fcntl.flock`` on ``<db>.lock`` for its whole life, and writes in it who it is
(pid, host, since), so a second one can say who holds the database before it exits. The
kernel drops the lock when the process ends, however it ends (even ``kill -9``): a stale
lock file is never in the way.
"""

from __future__ import annotations

import contextlib
import fcntl
import json
import os
import socket
import time
from dataclasses import dataclass
from pathlib import Path


@dataclass(frozen=True)
class Holder:
    pid: int | None
    host: str
    since: float | None

    def text(self) -> str:
        when = (
            time.strftime("%Y-%m-%d %H:%M:%S UTC", time.gmtime(self.since))
            if self.since
            else "an unknown time"
        )
        return f"pid {'?' if self.pid is None else self.pid} on {self.host or '?'}, since {when}"


class DatabaseInUse(Exception):
    """Another live process holds the database."""

    def __init__(self, path: str, holder: Holder) -> None:
        super().__init__(f"{path} is in use by another bot process ({holder.text()})")
        self.path = path
        self.holder = holder


def lock_path(db: str | Path) -> Path:
    return Path(f"{db}.lock")


class DatabaseLock:
    """Held from :meth:`acquire` to :meth:`release` (or the end of the process)."""

    def __init__(self, db: str | Path) -> None:
        self.db = str(db)
        self.path = lock_path(db)
        self._fd: int | None = None

    def acquire(self) -> None:
        """Take the lock at once, or raise :class:`DatabaseInUse` naming its holder."""
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o640)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = _read(fd)
            os.close(fd)
            raise DatabaseInUse(self.db, holder) from None
        except BaseException:
            os.close(fd)
            raise
        me = {"pid": os.getpid(), "host": socket.gethostname(), "since": time.time()}
        os.ftruncate(fd, 0)
        os.pwrite(fd, (json.dumps(me) + "\n").encode(), 0)
        self._fd = fd

    def release(self) -> None:
        fd, self._fd = self._fd, None
        if fd is not None:
            with contextlib.suppress(OSError):
                os.ftruncate(fd, 0)  # nobody holds it now: nobody is named
            os.close(fd)  # closing the descriptor drops the flock

    @property
    def held(self) -> bool:
        return self._fd is not None


def holder_of(db: str | Path) -> Holder | None:
    """Who holds the database now (None: nobody). Asks the kernel, not the file: a lock
    file left by a dead process names nobody."""
    path = lock_path(db)
    try:
        fd = os.open(path, os.O_RDONLY | os.O_CLOEXEC)
    except OSError:
        return None
    try:
        try:
            fcntl.flock(fd, fcntl.LOCK_SH | fcntl.LOCK_NB)
        except BlockingIOError:
            return _read(fd)
        fcntl.flock(fd, fcntl.LOCK_UN)
        return None
    finally:
        os.close(fd)


def _read(fd: int) -> Holder:
    try:
        data = json.loads(os.pread(fd, 4096, 0).decode() or "{}")
    except (OSError, ValueError):
        data = {}
    pid = data.get("pid")
    since = data.get("since")
    return Holder(
        pid if isinstance(pid, int) else None,
        str(data.get("host") or ""),
        float(since) if isinstance(since, int | float) else None,
    )
