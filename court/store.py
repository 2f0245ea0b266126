"""The event store: one append-only stream per game in a SQL database, through SQLModel.

Appends are plain INSERTs guarded by the unique (game_id, version) pair, which
is the optimistic lock. No code path updates or deletes a record. Everything
specific to SQLite (WAL, synchronous, the append-only triggers) lives in
`_sqlite_setup`.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Sequence
from typing import Any

from sqlalchemy import Column, Index, Integer, Text, UniqueConstraint, event, func, insert, select
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlalchemy.pool import StaticPool
from sqlmodel import Field, SQLModel, create_engine

from court.chain import Record, canonical
from court.errors import ConcurrencyError

SYNCHRONOUS_MODES = ("OFF", "NORMAL", "FULL", "EXTRA")


class EventRecord(SQLModel, table=True):
    __tablename__ = "event_records"
    __table_args__ = (
        UniqueConstraint("game_id", "version", name="uq_event_records_game_version"),
        Index("ix_event_records_game_version", "game_id", "version"),
    )

    position: int | None = Field(
        default=None, sa_column=Column(Integer, primary_key=True, autoincrement=True)
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


TABLE = EventRecord.__table__  # type: ignore[attr-defined]
_INSERT = insert(TABLE)
_COLUMNS = (
    TABLE.c.position,
    TABLE.c.game_id,
    TABLE.c.version,
    TABLE.c.type,
    TABLE.c.schema_version,
    TABLE.c.recorded_at,
    TABLE.c.seat,
    TABLE.c.data,
    TABLE.c.private,
    TABLE.c.private_sha256,
    TABLE.c.hash,
)


_SQLITE_APPEND_ONLY = tuple(
    f"CREATE TRIGGER IF NOT EXISTS event_records_no_{action.lower()} "
    f"BEFORE {action} ON event_records "
    "BEGIN SELECT RAISE(ABORT, 'event records are append-only'); END"
    for action in ("UPDATE", "DELETE")
)


def _sqlite_setup(engine: Engine, synchronous: str) -> None:
    """WAL journal and the chosen synchronous level on every new connection."""
    if synchronous not in SYNCHRONOUS_MODES:
        raise ValueError(f"SQLITE_SYNCHRONOUS must be one of {SYNCHRONOUS_MODES}")

    @event.listens_for(engine, "connect")
    def _pragmas(dbapi_conn: Any, _record: Any) -> None:
        cursor = dbapi_conn.cursor()
        cursor.execute("PRAGMA journal_mode=WAL")
        cursor.execute(f"PRAGMA synchronous={synchronous}")
        cursor.execute("PRAGMA busy_timeout=5000")
        cursor.close()


def make_engine(url: str, *, synchronous: str = "NORMAL") -> Engine:
    if url.startswith("sqlite"):
        memory = url in ("sqlite://", "sqlite:///:memory:")
        engine = create_engine(
            url,
            connect_args={"check_same_thread": False},
            poolclass=StaticPool if memory else None,
        )
        _sqlite_setup(engine, synchronous)
        return engine
    return create_engine(url, pool_pre_ping=True)


class SqlEventStore:
    """Event store on any SQLAlchemy database; SQLite by default."""

    def __init__(self, url: str, *, synchronous: str = "NORMAL") -> None:
        self.url = url
        self.engine = make_engine(url, synchronous=synchronous)

    def create_schema(self) -> None:
        SQLModel.metadata.create_all(self.engine, tables=[TABLE])
        if self.engine.dialect.name == "sqlite":
            with self.engine.begin() as conn:
                for statement in _SQLITE_APPEND_ONLY:
                    conn.exec_driver_sql(statement)

    def close(self) -> None:
        self.engine.dispose()

    def append(self, records: Sequence[Record], expected_version: int) -> None:
        """Insert records in one transaction, or raise ConcurrencyError if the version is taken."""
        if not records:
            return
        game_id = records[0].game_id
        rows = [
            {
                "game_id": r.game_id,
                "version": r.version,
                "type": r.type,
                "schema_version": r.schema_version,
                "recorded_at": r.recorded_at,
                "seat": r.seat,
                "data": canonical(r.data),
                "private": None if r.private is None else canonical(r.private),
                "private_sha256": r.private_sha256,
                "hash": r.hash,
            }
            for r in records
        ]
        try:
            with self.engine.begin() as conn:
                conn.execute(_INSERT, rows)
        except IntegrityError:
            raise ConcurrencyError(game_id, expected_version) from None

    def read(
        self, game_id: str, *, after: int = 0, upto: int | None = None, limit: int | None = None
    ) -> Iterator[Record]:
        """Records of one game in version order, after version `after`, up to `upto`."""
        query = select(*_COLUMNS).where(TABLE.c.game_id == game_id, TABLE.c.version > after)
        if upto is not None:
            query = query.where(TABLE.c.version <= upto)
        query = query.order_by(TABLE.c.version)
        if limit is not None:
            query = query.limit(limit)
        with self.engine.connect() as conn:
            result = conn.execution_options(yield_per=2000).execute(query)
            loads = json.loads
            for row in result:
                yield Record(
                    position=row[0],
                    game_id=row[1],
                    version=row[2],
                    type=row[3],
                    schema_version=row[4],
                    recorded_at=row[5],
                    seat=row[6],
                    data=loads(row[7]),
                    private=None if row[8] is None else loads(row[8]),
                    private_sha256=row[9],
                    hash=row[10],
                )

    def head(self, game_id: str) -> tuple[int, str] | None:
        """(version, hash) of a game's newest record, or None for an unknown game."""
        query = (
            select(TABLE.c.version, TABLE.c.hash)
            .where(TABLE.c.game_id == game_id)
            .order_by(TABLE.c.version.desc())
            .limit(1)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else (row[0], row[1])

    def games(self) -> list[str]:
        query = (
            select(TABLE.c.game_id)
            .group_by(TABLE.c.game_id)
            .order_by(func.min(TABLE.c.position).desc())
        )
        with self.engine.connect() as conn:
            return [row[0] for row in conn.execute(query)]
