"""What the event store does only on SQLite: WAL and the synchronous level on every connection,
and the file made readable by the server's user alone (server/private.py).

Triggers made by the first migration refuse UPDATE and DELETE. SQLite lets one transaction
write at a time, so positions are handed out in commit order by the database itself: a
reader paging by `position > N` never misses a later commit. Appends of one process queue
on a lock in the store, on one kept-open writing connection.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from sqlalchemy import event
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.pool import StaticPool
from sqlmodel import create_engine

from config.settings import SQLITE_SYNCHRONOUS_MODES
from server.private import private_file
from server.store.pool import DEFAULT_POOL, Pool


def make_engine(
    url: str, *, synchronous: str = "NORMAL", read_only: bool = False, pool: Pool = DEFAULT_POOL
) -> Engine:
    """An engine whose every connection is in WAL mode at the chosen synchronous level; or,
    `read_only`, one that opens an existing file only and refuses every write."""
    if synchronous not in SQLITE_SYNCHRONOUS_MODES:
        raise ValueError(f"SQLITE_SYNCHRONOUS must be one of {SQLITE_SYNCHRONOUS_MODES}")
    memory = url in ("sqlite://", "sqlite:///:memory:")
    if read_only and not memory:
        # SQLite's URI form: mode=ro never creates the file and never writes to it.
        url = f"sqlite:///file:{url.removeprefix('sqlite:///')}?mode=ro&uri=true"
    # A database in memory is one connection shared by every thread (StaticPool).
    sized = {"poolclass": StaticPool} if memory else pool.options()
    engine = create_engine(url, connect_args={"check_same_thread": False}, **sized)
    database = database_file(url)
    if database is not None and not read_only:
        _made_private(engine, database)

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        if read_only:
            cursor.execute("PRAGMA query_only=ON")
        else:
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()

    return engine


def database_file(url: str) -> Path | None:
    """The file of a SQLite database URL; None for memory or another database."""
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return Path(parsed.database)


def _made_private(engine: Engine, path: Path) -> None:
    """The database file is made 0600 before SQLite opens it, at the first connection: SQLite
    would make it as the umask says, and makes its write-ahead log and shared memory files
    in the database's own mode."""

    @event.listens_for(engine, "do_connect")
    def _private(*_args: Any) -> None:
        private_file(path)
