"""Snapshots of a game's state beside its log: a cache the service reads to rebuild a late version
without folding the whole log (court/snapshot.py says what one holds).

Unlike the log, the table may lose rows at any time (an operator may empty it): the service then
folds from further back. A row is keyed by the game, the version and the format it was written
under (`fold-N`, N court/snapshot.py's FORMAT), and names the hash of the record it was folded up
to; the service reads a row only when that hash is the log's own.
"""

from __future__ import annotations

from typing import Any

from sqlalchemy import Column, Index, Text, bindparam, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlmodel import Field, SQLModel

from server.ports import StoredSnapshot


class Snapshot(SQLModel, table=True):
    __tablename__ = "snapshots"
    __table_args__ = (Index("ix_snapshots_game_format_version", "game_id", "format", "version"),)

    game_id: str = Field(max_length=64, primary_key=True)
    version: int = Field(primary_key=True)
    format: str = Field(max_length=64, primary_key=True)
    hash: str = Field(max_length=64)
    state: str = Field(sa_column=Column(Text, nullable=False))


SNAPSHOTS = Snapshot.metadata.tables[Snapshot.__tablename__]


def save(dialect: str) -> Any:
    """The INSERT keeping a snapshot, doing nothing when another process kept it first."""
    make = postgresql.insert if dialect == "postgresql" else sqlite.insert
    values: dict[str, Any] = {
        c: bindparam(c) for c in ("game_id", "version", "format", "hash", "state")
    }
    return make(SNAPSHOTS).values(values).on_conflict_do_nothing()


NEWEST = (
    select(*(SNAPSHOTS.c[c] for c in StoredSnapshot._fields))
    .where(
        SNAPSHOTS.c.game_id == bindparam("game_id"),
        SNAPSHOTS.c.format == bindparam("format"),
        SNAPSHOTS.c.version <= bindparam("upto"),
    )
    .order_by(SNAPSHOTS.c.version.desc())
    .limit(1)
)
