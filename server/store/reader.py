"""The catch-up reads of a server process: when another process announces an append, the rows
after the head this one holds, read on one PostgreSQL connection kept for them in autocommit.
A read there is one round trip, where a read through the pool costs a check-out, a ping, a
BEGIN and a COMMIT: every append of a game followed on several processes is read once by
each of the others. A failure drops the connection; the next read opens a new one (the
server may have restarted)."""

from __future__ import annotations

import contextlib
import threading
from typing import Any, Protocol

from sqlalchemy.engine import Engine

from server.outages import Outage
from server.store.failures import DATABASE_ERRORS
from server.store.rows import StoredRow


class Statement(Protocol):
    """A statement compiled for the engine's dialect (server/store/sql.py `_Compiled`)."""

    sql: str

    def params(self, values: dict[str, Any]) -> Any: ...


class KeptReader:
    """Reads a game's rows after a version on one kept connection, one read at a time."""

    def __init__(self, engine: Engine, after: Statement, outage: Outage) -> None:
        self.engine = engine
        self.outage = outage
        self._after = after
        self._conn: Any = None
        self._lock = threading.Lock()

    def rows(self, game_id: str, after: int) -> list[StoredRow]:
        """The game's rows after version `after`. A kept connection that fails is tried
        once more on a new one, as the pool's ping would have found it gone."""
        values = self._after.params({"game_id": game_id, "after": after, "limit": None})
        with self._lock:
            kept = self._conn is not None
            try:
                found = self._read(values)
            except DATABASE_ERRORS:
                self._drop()
                if not kept:
                    raise
                found = self._read(values)
        self.outage.passed()
        return [StoredRow._make(row) for row in found]

    def _read(self, values: Any) -> list[tuple[Any, ...]]:
        conn = self._connection()
        try:
            cursor = conn.cursor()
            cursor.execute(self._after.sql, values)
            return list(cursor.fetchall())
        except DATABASE_ERRORS:
            self._drop()
            raise

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def _connection(self) -> Any:
        if self._conn is None:
            conn = self.engine.raw_connection()
            conn.rollback()  # the check-out's ping may have begun a transaction
            conn.driver_connection.autocommit = True  # type: ignore[union-attr]  # psycopg's
            self._conn = conn
        return self._conn

    def _drop(self) -> None:
        if self._conn is not None:
            with contextlib.suppress(*DATABASE_ERRORS):
                self._conn.invalidate()
        self._conn = None
