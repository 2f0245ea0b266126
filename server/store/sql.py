"""The event store: one append-only stream per game in SQLite or PostgreSQL, through SQLModel.

Appends are plain INSERTs guarded by the unique (game_id, version) pair, which is the
optimistic lock. No code path updates or deletes a record, and database triggers refuse
both. `position` orders every record of every game; it becomes visible in commit order, so
a reader paging through `read_all(after=N)` never misses a record committed later with a
smaller position (server/store/sqlite.py and server/store/postgres.py say how each database does
it). The schema is built by the migrations (migrations/, run by `create_schema`); a test
holds it equal to the model below, from which the statements are compiled.

The reads on the hot path (head, read a stream) are compiled once by SQLAlchemy for the
engine's dialect and run on a pooled DBAPI connection: per-command Core overhead was most of
their cost. Writes go through one kept connection, appends of several games committed
together (server/store/writer.py).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Integer,
    Text,
    UniqueConstraint,
    bindparam,
    func,
    select,
)
from sqlalchemy.engine import Engine, make_url
from sqlmodel import Field, SQLModel

from court.errors import ConcurrencyError
from court.log.chain import Record, canonical
from server.outages import Outage
from server.store import migrate, snapshots
from server.store import postgres as store_pg
from server.store import sqlite as store_sqlite
from server.store import talk as store_talk
from server.store.lock import hold_single_writer
from server.store.mail import MailStore
from server.store.notices import NoticeStore
from server.store.pool import DEFAULT_POOL, Pool
from server.store.reader import KeptReader
from server.store.rows import Batch, Kept, SnapshotMark, StoredRow, StreamHead, record_of
from server.store.seat_keys import SeatKeyStore
from server.store.sends import SendLedger
from server.store.writer import Append, Writer


class EventRecord(SQLModel, table=True):
    __tablename__ = "event_records"
    # The unique pair is the optimistic lock of appends, and its index serves every read.
    __table_args__ = (UniqueConstraint("game_id", "version", name="uq_event_records_game_version"),)

    position: int | None = Field(
        default=None,
        sa_column=Column(
            BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
        ),
    )
    game_id: str = Field(max_length=64)
    version: int
    type: str = Field(max_length=64)
    schema_version: int
    recorded_at: str = Field(max_length=40)
    seat: int | None = Field(default=None)
    data: str = Field(sa_column=Column(Text, nullable=False))
    private: str | None = Field(default=None, sa_column=Column(Text, nullable=True))
    private_sha256: str = Field(max_length=64)
    hash: str = Field(max_length=64)


TABLE = EventRecord.metadata.tables[EventRecord.__tablename__]
# Read in the order of StoredRow's fields, so that a row names its columns; written all but
# the position, which the database hands out.
_READ = StoredRow._fields
_WRITTEN = _READ[1:]

_HEAD = (
    select(*(TABLE.c[c] for c in StreamHead._fields))
    .where(TABLE.c.game_id == bindparam("game_id"))
    .order_by(TABLE.c.version.desc())
    .limit(1)
)


_LOG = (
    select(*(TABLE.c[c] for c in _READ))
    .where(TABLE.c.position > bindparam("after"))
    .order_by(TABLE.c.position)
    .limit(bindparam("limit"))
)


def _stream(upto: bool) -> Any:
    query = select(*(TABLE.c[c] for c in _READ)).where(
        TABLE.c.game_id == bindparam("game_id"), TABLE.c.version > bindparam("after")
    )
    if upto:
        query = query.where(TABLE.c.version <= bindparam("upto"))
    return query.order_by(TABLE.c.version).limit(bindparam("limit"))


class _Compiled:
    """A statement compiled once for a dialect, run with dict parameters on a DBAPI cursor."""

    def __init__(self, statement: Any, engine: Engine) -> None:
        compiled = statement.compile(dialect=engine.dialect)
        self.sql = str(compiled)
        self.order = compiled.positiontup
        self.defaults = compiled.params

    def params(self, values: dict[str, Any]) -> Any:
        values = {**self.defaults, **values}
        return values if self.order is None else tuple(values[k] for k in self.order)


def database_url(url: str) -> str:
    """The URL the store connects with: PostgreSQL always through psycopg (version 3)."""
    parsed = make_url(url)
    if parsed.drivername in ("postgresql", "postgres", "postgresql+psycopg"):
        return parsed.set(drivername="postgresql+psycopg").render_as_string(hide_password=False)
    if parsed.get_backend_name() == "sqlite":
        return url
    raise ValueError(
        f"DATABASE_URL must be a sqlite:/// or postgresql+psycopg:// URL, not {parsed.drivername}"
    )


def make_engine(
    url: str, *, synchronous: str = "NORMAL", read_only: bool = False, pool: Pool = DEFAULT_POOL
) -> Engine:
    url = database_url(url)
    if url.startswith("sqlite"):
        return store_sqlite.make_engine(
            url, synchronous=synchronous, read_only=read_only, pool=pool
        )
    return store_pg.make_engine(url, read_only=read_only, pool=pool)


def _rows(
    records: Sequence[Record], encoded: Sequence[tuple[str, str | None]] | None
) -> list[tuple[Any, ...]]:
    """Each record's INSERT values in _WRITTEN's order, its parts encoded unless given."""
    if encoded is None:
        encoded = [
            (canonical(r.data), None if r.private is None else canonical(r.private))
            for r in records
        ]
    return [
        (
            r.game_id,
            r.version,
            r.type,
            r.schema_version,
            r.recorded_at,
            r.seat,
            data_json,
            private_json,
            r.private_sha256,
            r.hash,
        )
        for r, (data_json, private_json) in zip(records, encoded, strict=True)
    ]


def taken_version(exc: Exception) -> bool:
    """Whether an append's IntegrityError is the optimistic lock: the (game_id, version) pair
    is taken. Any other constraint failing is an error of the database, not a lost race."""
    diag = getattr(exc, "diag", None)  # psycopg names the constraint
    if diag is not None:
        return bool(diag.constraint_name == "uq_event_records_game_version")
    return "event_records.game_id, event_records.version" in str(exc)


class SqlEventStore:
    """Event store on SQLite (the default) or PostgreSQL. `read_only` opens an existing
    database for reading alone (the CLI's read commands): any write fails. `single_writer`
    (a server process): no other process may serve the same SQLite file (server/store/lock.py).
    `pool`: the connections kept for reads (server/store/pool.py)."""

    def __init__(
        self,
        url: str,
        *,
        synchronous: str = "NORMAL",
        read_only: bool = False,
        single_writer: bool = False,
        outage: Outage | None = None,
        pool: Pool = DEFAULT_POOL,
    ) -> None:
        # The database's outages as the log tells them: a read or a write that passes ends one.
        self.outage = outage or Outage("database")
        self._writer_lock = hold_single_writer(url) if single_writer else None
        self.url = url
        self.read_only = read_only
        self.engine = make_engine(url, synchronous=synchronous, read_only=read_only, pool=pool)
        self._head = _Compiled(_HEAD, self.engine)
        self._read = {upto: _Compiled(_stream(upto), self.engine) for upto in (False, True)}
        self._read_all = _Compiled(_LOG, self.engine)
        self._save_snapshot = _Compiled(snapshots.save(self.engine.dialect.name), self.engine)
        self._newest_snapshot = _Compiled(snapshots.NEWEST, self.engine)
        self._snapshot_at = _Compiled(snapshots.AT, self.engine)
        self._snapshots = _Compiled(snapshots.LISTED, self.engine)
        self._integrity = self.engine.dialect.loaded_dbapi.IntegrityError
        self._writer = Writer(self.engine, TABLE, _WRITTEN, taken_version, self.outage)
        postgres = self.engine.dialect.name == "postgresql"
        self._reader = KeptReader(self.engine, self._read[False], self.outage) if postgres else None
        # Webhooks and the outbox of notices, beside the log (server/store/notices.py).
        self.notices = NoticeStore(self.engine)
        # The seats' mail addresses and their reminders' outbox (server/store/mail.py).
        self.mail = MailStore(self.engine)
        # Table talk and whispers, in a table of their own beside the log.
        self.talk = store_talk.SqlTalkStore(self.engine)
        # The seats each person's key gathers (server/store/seat_keys.py).
        self.seat_keys = SeatKeyStore(self.engine)
        # What was sent at a request to an outside address, for its limits (server/store/sends.py).
        self.sends = SendLedger(self.engine)

    def create_schema(self) -> None:
        """Create or upgrade the schema by running the migrations up to the newest revision."""
        migrate.upgrade(self.engine)

    def close(self) -> None:
        self._writer.close()
        if self._reader is not None:
            self._reader.close()
        self.engine.dispose()
        self._writer_lock = None  # the last store of the file to close unlocks it

    def append(
        self,
        records: Sequence[Record],
        expected_version: int,
        encoded: Sequence[tuple[str, str | None]] | None = None,
    ) -> None:
        """Insert records in one transaction, or raise ConcurrencyError if the version is taken.
        `encoded` holds each record's public and private parts in canonical JSON when the
        caller has them already (the service hashed them), so they are not encoded again.
        Appends of several games arriving together commit together (server/store/writer.py)."""
        if not records:
            return
        rows = _rows(records, encoded)
        self._writer.append(Append(records[0].game_id, expected_version, rows))

    @property
    def write_failure(self) -> Exception | None:
        """The last write's failure (a full disk, a read-only file…), until a write passes:
        /healthz reports it."""
        return self._writer.write_failure

    def append_batches(self, batches: Iterable[Batch]) -> None:
        """Insert a new game's log in one transaction, batch by batch as `batches` yields
        them, with the snapshots that go beside each batch: all of it, or nothing when the
        game exists (ConcurrencyError) or `batches` raises (an import refused half-way).
        The write lock is held until the commit: SQLite's other writers wait for it."""
        game_id = ""
        try:
            with self._writer.transaction() as conn:
                cursor = conn.cursor()
                for records, kept in batches:
                    game_id = game_id or records[0].game_id
                    self._writer.insert_rows(conn, _rows(records, None))
                    for snapshot in kept:
                        row = self._save_snapshot.params(snapshot._asdict())
                        cursor.execute(self._save_snapshot.sql, row)
                conn.commit()
        except self._integrity:
            raise ConcurrencyError(game_id, 0) from None

    def rows(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> Iterator[StoredRow]:
        """A game's rows in version order, their data and private parts still JSON."""
        statement = self._read[upto is not None]
        values = {"game_id": game_id, "after": after, "upto": upto, "limit": self._limit(limit)}
        yield from map(StoredRow._make, self._fetch(statement, values))

    def recent(self, game_id: str, *, after: int) -> list[StoredRow]:
        """The rows after version `after`, as `rows` gives them, for a process catching up
        with another's appends: on PostgreSQL on a connection kept for such reads
        (server/store/reader.py)."""
        if self._reader is None:
            return list(self.rows(game_id, after=after))
        return self._reader.rows(game_id, after)

    def read(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> Iterator[Record]:
        """Records of one game in version order, after version `after`, up to `upto`."""
        for row in self.rows(game_id, after=after, upto=upto, limit=limit):
            yield record_of(row)

    def read_all(self, *, after: int = 0, limit: int = 1000) -> list[Record]:
        """Records of every game in position order, after position `after`. Paging with the
        last position seen never skips a record, however appends interleave (see above)."""
        values = {"after": after, "limit": self._limit(limit)}
        return [record_of(StoredRow._make(row)) for row in self._fetch(self._read_all, values)]

    def _limit(self, limit: int | None) -> int | None:
        if limit is None and self.engine.dialect.name == "sqlite":
            return -1
        return limit

    def _fetch(self, statement: _Compiled, values: dict[str, Any]) -> Iterator[tuple[Any, ...]]:
        conn = self.engine.raw_connection()
        try:
            cursor = conn.cursor()
            cursor.execute(statement.sql, statement.params(values))
            while batch := cursor.fetchmany(2000):
                yield from batch
            conn.commit()
        finally:
            conn.close()
        self.outage.passed()

    def head(self, game_id: str) -> StreamHead | None:
        """The version and hash of a game's newest record, or None for an unknown game."""
        conn = self.engine.raw_connection()
        try:
            cursor = conn.cursor()
            cursor.execute(self._head.sql, self._head.params({"game_id": game_id}))
            row = cursor.fetchone()
            conn.commit()
        finally:
            conn.close()
        self.outage.passed()
        return None if row is None else StreamHead._make(row)

    def save_snapshot(self, kept: Kept) -> None:
        """Keep the state JSON of a game at a version, sealed (server/store/snapshots.py); one
        that another process sealed alike first stays. A read-only store keeps nothing."""
        if self.read_only:
            return
        with self._writer.transaction() as conn:
            statement = self._save_snapshot
            conn.cursor().execute(statement.sql, statement.params(kept._asdict()))
            conn.commit()

    def snapshot(self, game_id: str, fmt: str, key_id: str, upto: int) -> Kept | None:
        """The game's newest snapshot of `fmt` sealed under `key_id` at or before version
        `upto`, or None."""
        values = {"game_id": game_id, "format": fmt, "key_id": key_id, "upto": upto}
        found = [Kept._make(row) for row in self._fetch(self._newest_snapshot, values)]
        return found[0] if found else None

    def snapshot_at(self, game_id: str, version: int, fmt: str) -> Kept | None:
        """The snapshot row of the game at `version` in `fmt`, however sealed, or None."""
        values = {"game_id": game_id, "version": version, "format": fmt}
        found = [Kept._make(row) for row in self._fetch(self._snapshot_at, values)]
        return found[0] if found else None

    def snapshots(self, game_id: str) -> list[SnapshotMark]:
        """Every snapshot row of the game without its state, oldest first."""
        return [SnapshotMark._make(r) for r in self._fetch(self._snapshots, {"game_id": game_id})]

    def games(self) -> list[str]:
        query = (
            select(TABLE.c.game_id)
            .group_by(TABLE.c.game_id)
            .order_by(func.min(TABLE.c.position).desc())
        )
        with self.engine.connect() as conn:
            return list(conn.scalars(query))
