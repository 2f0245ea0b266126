"""Snapshots of a game's state beside its log: a cache the service reads to rebuild a late version
without folding the whole log (court/log/snapshot.py says what one holds).

Unlike the log, the table may lose rows at any time (an operator may empty it): the service then
folds from further back. A row is keyed by the game, the version and the format it was written
under (`fold-N`, N court/log/snapshot.py's FORMAT), and names the hash of the record it was folded
up to. Anyone who can write the database can write a row, so each carries the seal (`mac`) of the
instance secret named by `key_id`, which the database never holds: the service reads a row only
when it can remake that seal and the hash is the log's own (server/service/replay.py). A row is
written anew when the service folds past its version with another seal (a row sealed under an
earlier secret, or by nobody); one sealed alike by another process stays as it is.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Index, Text, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Field, SQLModel

from server.store.rows import Kept, SnapshotMark


class Snapshot(SQLModel, table=True):
    __tablename__ = "snapshots"
    __table_args__ = (Index("ix_snapshots_game_format_version", "game_id", "format", "version"),)

    game_id: str = Field(max_length=64, primary_key=True)
    version: int = Field(primary_key=True)
    format: str = Field(max_length=64, primary_key=True)
    hash: str = Field(max_length=64)
    key_id: str | None = Field(default=None, max_length=64)
    mac: str | None = Field(default=None, max_length=64)
    state: str = Field(sa_column=Column(Text, nullable=False))


SNAPSHOTS = Snapshot.metadata.tables[Snapshot.__tablename__]
_KEY = ("game_id", "version", "format")


def save(dialect: str) -> Any:
    """The INSERT keeping a snapshot: over a row of the same key sealed otherwise, nothing
    over one sealed alike (another process kept the same state first)."""
    make = postgresql.insert if dialect == "postgresql" else sqlite.insert
    insert = make(SNAPSHOTS).values({c: bindparam(c) for c in Kept._fields})
    return insert.on_conflict_do_update(
        index_elements=list(_KEY),
        set_={c: insert.excluded[c] for c in Kept._fields if c not in _KEY},
        where=SNAPSHOTS.c.mac.is_distinct_from(insert.excluded.mac),
    )


_ROW = select(*(SNAPSHOTS.c[c] for c in Kept._fields))

NEWEST = (
    _ROW.where(
        SNAPSHOTS.c.game_id == bindparam("game_id"),
        SNAPSHOTS.c.format == bindparam("format"),
        SNAPSHOTS.c.key_id == bindparam("key_id"),
        SNAPSHOTS.c.version <= bindparam("upto"),
    )
    .order_by(SNAPSHOTS.c.version.desc())
    .limit(1)
)

AT = _ROW.where(
    SNAPSHOTS.c.game_id == bindparam("game_id"),
    SNAPSHOTS.c.version == bindparam("version"),
    SNAPSHOTS.c.format == bindparam("format"),
)

LISTED = (
    select(*(SNAPSHOTS.c[c] for c in SnapshotMark._fields))
    .where(SNAPSHOTS.c.game_id == bindparam("game_id"))
    .order_by(SNAPSHOTS.c.version, SNAPSHOTS.c.format)
)
