"""The talk store: table talk and whispers (court/talk.py) in an append-only table of their own,
beside the court log and never in it, with the server's signature of each line beside it, on
SQLite or PostgreSQL.

The unique (game_id, channel, number) triple is the optimistic lock of each channel's chain;
triggers made by the migration (migrations/versions/0004_*) refuse UPDATE and DELETE, and on
PostgreSQL hand out positions in commit order as the event log's trigger does
(server/store/postgres.py), so a reader paging by `position > N` misses no line.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from dataclasses import replace
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    Row,
    Text,
    UniqueConstraint,
    func,
    or_,
    select,
)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Field, SQLModel

from court.errors import ConcurrencyError
from court.talk import TABLE, ChannelHead, TalkLine


class TalkRecord(SQLModel, table=True):
    __tablename__ = "talk_lines"
    __table_args__ = (
        UniqueConstraint("game_id", "channel", "number", name="uq_talk_lines_channel_number"),
        Index("ix_talk_lines_game_position", "game_id", "position"),
    )

    position: int | None = Field(
        default=None,
        sa_column=Column(
            BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
        ),
    )
    game_id: str = Field(max_length=64)
    channel: str = Field(max_length=64)
    number: int
    court_version: int
    sender: str = Field(max_length=16)
    recipients: str = Field(sa_column=Column(Text, nullable=False))
    said_at: str = Field(max_length=40)
    text: str = Field(sa_column=Column(Text, nullable=False))
    prev_hash: str = Field(max_length=64)
    hash: str = Field(max_length=64)


class TalkSignature(SQLModel, table=True):
    """The server's signature of a line's hash, by the line's position (server/service/talk.py): in
    a
    table of its own, written in the line's own transaction."""

    __tablename__ = "talk_signatures"

    position: int = Field(
        sa_column=Column(
            BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=False
        )
    )
    signature: str = Field(sa_column=Column(Text, nullable=False))


TALK_LINES = TalkRecord.metadata.tables[TalkRecord.__tablename__]
TALK_SIGNATURES = TalkSignature.metadata.tables[TalkSignature.__tablename__]
_COLUMNS = (
    "position",
    "game_id",
    "channel",
    "number",
    "court_version",
    "sender",
    "recipients",
    "said_at",
    "text",
    "prev_hash",
    "hash",
)
# A line as read: its columns and its signature ('' for a line stored without one).
_READ = (
    *(TALK_LINES.c[c] for c in _COLUMNS),
    func.coalesce(TALK_SIGNATURES.c.signature, "").label("signature"),
)
_JOINED = TALK_LINES.outerjoin(TALK_SIGNATURES, TALK_SIGNATURES.c.position == TALK_LINES.c.position)


def _line(row: Row[Any]) -> TalkLine:
    values = row._mapping
    return TalkLine(**{**values, "recipients": tuple(json.loads(values["recipients"]))})


class SqlTalkStore:
    """Talk lines on the event store's engine: `add` one line, read a channel's head, read
    the lines of some channels after a position."""

    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def add(self, line: TalkLine) -> TalkLine:
        """Store a line; ConcurrencyError when its number in the channel is taken (another
        line was said there first). The line as stored, with its position."""
        values = {c: getattr(line, c) for c in _COLUMNS if c != "position"}
        values["recipients"] = json.dumps(list(line.recipients))
        try:
            with self.engine.begin() as conn:
                result = conn.execute(TALK_LINES.insert().values(**values))
                inserted = result.inserted_primary_key
                assert inserted is not None
                signed = {"position": inserted.position, "signature": line.signature}
                conn.execute(TALK_SIGNATURES.insert().values(**signed))
        except IntegrityError:
            raise ConcurrencyError(line.game_id, line.number - 1) from None
        return replace(line, position=inserted.position)

    def channel_head(self, game_id: str, channel: str) -> ChannelHead | None:
        """The channel's newest line, or None before its first."""
        query = (
            select(*(TALK_LINES.c[c] for c in ChannelHead._fields))
            .where(TALK_LINES.c.game_id == game_id, TALK_LINES.c.channel == channel)
            .order_by(TALK_LINES.c.number.desc())
            .limit(1)
        )
        with self.engine.connect() as conn:
            row = conn.execute(query).first()
        return None if row is None else ChannelHead(row.number, row.hash)

    def last_position(self, game_id: str) -> int:
        """The position of the game's newest line in any channel; 0 before its first."""
        query = select(func.max(TALK_LINES.c.position)).where(TALK_LINES.c.game_id == game_id)
        with self.engine.connect() as conn:
            return conn.scalar(query) or 0

    def lines_of(
        self,
        game_id: str,
        channels: Sequence[str] | None,
        *,
        after: int = 0,
        limit: int | None = None,
        whispers_from: int = 0,
    ) -> list[TalkLine]:
        """The lines of these channels (None: of every channel) of the game after position
        `after`, in position order; of the whispers, only those said once the court stood at
        `whispers_from` or later."""
        found = [TALK_LINES.c.game_id == game_id, TALK_LINES.c.position > after]
        if channels is not None:
            found.append(TALK_LINES.c.channel.in_(list(channels)))
        query = (
            select(*_READ)
            .select_from(_JOINED)
            .where(*found)
            .order_by(TALK_LINES.c.position)
            .limit(limit)
        )
        if whispers_from:
            query = query.where(
                or_(TALK_LINES.c.channel == TABLE, TALK_LINES.c.court_version >= whispers_from)
            )
        with self.engine.connect() as conn:
            return [_line(row) for row in conn.execute(query)]
