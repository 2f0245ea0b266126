"""One server process per SQLite file: an exclusive lock on `<database>.lock` beside it.

SQLite lets several processes open one file, but each server process pushes only its own
appends to its own clients (docs/deployment.md): a second one would take commands whose
records the first one's clients never see. So the store of a server process holds an
exclusive `flock` on the lock file for its life, and a second process is refused with a
sentence saying why; PostgreSQL is the way to run several. The kernel drops the lock when
the process ends however it ends, so a restart after SIGKILL starts at once.

Within one process the lock is shared: every store of that process on the same file holds
the same open lock file (a second `flock` on a new descriptor of the same file would refuse
its own process), and the file is unlocked when the last of them lets it go.
"""

from __future__ import annotations

import fcntl
import os
import threading
import weakref
from pathlib import Path
from typing import IO

from server.private import open_private, private_folder
from server.store.sqlite import database_file


class WriterLockError(RuntimeError):
    """Another process serves this SQLite file; the message says which and what to do."""


class WriterLock:
    """The held lock: its file closes, and so unlocks, when the last store holding it lets
    it go (or the process ends)."""

    def __init__(self, path: Path, file: IO[str]) -> None:
        self.path = path
        self._file = file


_held: weakref.WeakValueDictionary[str, WriterLock] = weakref.WeakValueDictionary()
_guard = threading.Lock()


def lock_path(database_url: str) -> Path | None:
    """`<database>.lock` for a SQLite file; None for memory or another database."""
    database = database_file(database_url)
    return None if database is None else Path(f"{database}.lock").resolve()


def hold_single_writer(database_url: str) -> WriterLock | None:
    """Take (or share, within this process) the lock of a SQLite file; None when the
    database is not a SQLite file. Raises WriterLockError when another process holds it."""
    path = lock_path(database_url)
    if path is None:
        return None
    with _guard:
        held = _held.get(str(path))
        if held is None:
            held = _held[str(path)] = _take(path)
        return held


def _take(path: Path) -> WriterLock:
    private_folder(path.parent)
    # Held for the process's life; 0600 as the database beside it.
    file = os.fdopen(open_private(path, append=True), "a+", encoding="utf-8")
    try:
        fcntl.flock(file, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        file.seek(0)
        holder = file.read().strip() or "unknown"
        file.close()
        database = str(path).removesuffix(".lock")
        raise WriterLockError(
            f"Another server process (pid {holder}) is already serving the SQLite database "
            f"{database} (it holds {path}). SQLite takes one server process at a time: stop "
            "that one first, or run several processes on PostgreSQL (docs/deployment.md)."
        ) from None
    file.seek(0)
    file.truncate()
    file.write(f"{os.getpid()}\n")
    file.flush()
    return WriterLock(path, file)
