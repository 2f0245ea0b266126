"""The event store's writes: one connection that writes, kept open, and group commit.

Every write of a store goes through one connection under one lock: appends to the database
commit one at a time anyway (SQLite has one writer; PostgreSQL's trigger serialises appends,
server/store/postgres.py), so a pool of writing connections only adds a check-out, a ping
and a reset per append. Appends waiting for the lock are written together in one
transaction (server/store/group_commit.py), on PostgreSQL in one INSERT: a group costs one commit.
Should the group's write lose a race on a version (another process appended to one of its
games), each append of the group is written alone, and only the one that lost fails.

A failure of the database is rolled back and kept in `write_failure` (for /healthz) until
a write passes; on PostgreSQL the connection is then dropped and the next write opens a new
one (the server may have restarted).
"""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import Table
from sqlalchemy.engine import Engine

from court.errors import ConcurrencyError
from server.outages import Outage
from server.store.failures import DATABASE_ERRORS
from server.store.group_commit import GroupCommit, Item

GROUP_MOST = 256  # appends written in one group at most
_LOST = ConcurrencyError("", 0)  # marker: the INSERT lost a race on a version


@dataclass(frozen=True, slots=True)
class Append:
    """One caller's append: its records' INSERT values, in the table's column order."""

    game_id: str
    expected_version: int
    rows: Sequence[tuple[Any, ...]]


class Writer:
    """Writes of one store. `columns` are the written columns of `table`, in the order of each
    row's values; `is_lost_race(exc)` tells the optimistic lock's IntegrityError apart."""

    def __init__(
        self,
        engine: Engine,
        table: Table,
        columns: Sequence[str],
        is_lost_race: Callable[[Exception], bool],
        outage: Outage,
    ) -> None:
        self.engine = engine
        self.outage = outage
        self.write_failure: Exception | None = None
        self._conn: Any = None
        self._lock = threading.Lock()
        self._integrity = engine.dialect.loaded_dbapi.IntegrityError
        self._is_lost_race = is_lost_race
        self._insert_head = self._insert_prefix(table.name, columns)
        # SQLite: one row's INSERT, run for every row; PostgreSQL: one INSERT of them all.
        self._insert_row = f"{self._insert_head} VALUES ({', '.join('?' * len(columns))})"
        self._unnest = (
            self._unnest_insert(table, columns) if engine.dialect.name == "postgresql" else None
        )
        self._group: GroupCommit[Append] = GroupCommit(self._write_group, GROUP_MOST)

    def close(self) -> None:
        with self._lock:
            if self._conn is not None:
                self._conn.close()
                self._conn = None

    def append(self, append: Append) -> None:
        """Insert one append's rows in one transaction (with whatever else is waiting);
        ConcurrencyError when one of its versions is taken."""
        self._group.submit(append)

    @contextlib.contextmanager
    def transaction(self) -> Iterator[Any]:
        """The writing connection under the lock, for a write of the caller's own: committed
        by the caller; any failure rolled back (a database's kept in `write_failure`)."""
        with self._lock:
            conn = self._connection()
            try:
                yield conn
            except ConcurrencyError:
                raise
            except BaseException as exc:
                self._failed(conn, exc)
                raise
            self._passed()

    def insert_rows(self, conn: Any, rows: Sequence[tuple[Any, ...]]) -> None:
        """INSERTs of all `rows` (not committed): on PostgreSQL one statement whatever their
        number, each column sent as an array; on SQLite (in the process, no round trip) the
        row's INSERT for each."""
        cursor = conn.cursor()
        if self._unnest is not None:
            cursor.execute(self._unnest, [list(column) for column in zip(*rows, strict=True)])
        else:
            cursor.executemany(self._insert_row, rows)

    def _write_group(self, group: Sequence[Item[Append]]) -> None:
        with self._lock:
            if len(group) > 1:
                rows = [row for item in group for row in item.work.rows]
                if self._commit(rows) is None:
                    return
            for item in group:  # alone: a lost race or a failure fails that append only
                failure = self._commit(item.work.rows)
                if failure is _LOST:
                    failure = ConcurrencyError(item.work.game_id, item.work.expected_version)
                item.error = failure

    def _commit(self, rows: Sequence[tuple[Any, ...]]) -> Exception | None:
        """Insert and commit `rows`; None, `_LOST` for a lost race, or the failure."""
        try:
            conn = self._connection()
        except Exception as exc:  # the database cannot be reached
            self.write_failure = exc
            return exc
        try:
            self.insert_rows(conn, rows)
            conn.commit()
        except self._integrity as exc:
            if not self._is_lost_race(exc):
                self._failed(conn, exc)
                return exc
            conn.rollback()
            return _LOST
        except Exception as exc:
            self._failed(conn, exc)
            return exc
        self._passed()
        return None

    def _passed(self) -> None:
        self.write_failure = None
        self.outage.passed(writing=True)

    def _connection(self) -> Any:
        if self._conn is None:
            self._conn = self.engine.raw_connection()
        return self._conn

    def _failed(self, conn: Any, exc: BaseException) -> None:
        """Roll a failed write back; a failure of the database is kept for /healthz, and
        on a server database the connection is dropped (it may be the one that failed)."""
        with contextlib.suppress(*DATABASE_ERRORS):
            conn.rollback()
        if isinstance(exc, DATABASE_ERRORS):
            self.write_failure = exc
            if self.engine.dialect.name != "sqlite":
                conn.invalidate()
                self._conn = None

    def _insert_prefix(self, table: str, columns: Sequence[str]) -> str:
        quote = self.engine.dialect.identifier_preparer.quote
        return f"INSERT INTO {quote(table)} ({', '.join(quote(c) for c in columns)})"

    def _unnest_insert(self, table: Table, columns: Sequence[str]) -> str:
        """PostgreSQL: one INSERT of any number of rows, a typed array a column, unnested in
        the order given (so that positions follow versions). Its text never changes, so the
        driver parses it once and the server prepares it once."""
        quote = self.engine.dialect.identifier_preparer.quote
        names = ", ".join(quote(c) for c in columns)
        arrays = ", ".join(
            f"%s::{table.c[c].type.compile(dialect=self.engine.dialect)}[]" for c in columns
        )
        return (
            f"{self._insert_head} SELECT {names} FROM unnest({arrays})"
            f" WITH ORDINALITY AS u({names}, n) ORDER BY n"
        )
