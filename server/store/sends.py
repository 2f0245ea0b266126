"""What the court sent at a request to an address from outside the game (a mail with a
verification link, a webhook's test post), counted against limits over a window. A row stays
until it is older than the longest window: no request removes one, so removing an address and
giving it again, or a server started anew, counts on from what was sent. Where it went is kept
as a keyed digest only (server/notify/sends.py). Times are epoch milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from sqlalchemy import BigInteger, Column, Index, Integer, delete, func, insert, select, text
from sqlalchemy.engine import Connection, Engine
from sqlmodel import Field, SQLModel


class SentRow(SQLModel, table=True):
    __tablename__ = "sends"
    __table_args__ = (
        Index("ix_sends_kind_game", "kind", "game_id", "sent_at"),
        Index("ix_sends_kind_target", "kind", "target", "sent_at"),
    )

    id: int | None = Field(
        default=None,
        sa_column=Column(
            BigInteger().with_variant(Integer(), "sqlite"), primary_key=True, autoincrement=True
        ),
    )
    kind: str = Field(max_length=16)
    game_id: str = Field(max_length=64)
    seat: int | None = Field(default=None)
    target: str = Field(max_length=64)  # the keyed digest of the address or URL
    sent_at: int = Field(sa_column=Column(BigInteger, nullable=False))


SENDS = SentRow.metadata.tables[SentRow.__tablename__]


class Scope(StrEnum):
    """What a limit counts the sends of."""

    SEAT = "seat"  # the game's seat that asked
    TARGET = "target"  # the address or URL, whoever asked, in any game
    GAME = "game"  # the game, whichever seat asked


@dataclass(frozen=True, slots=True)
class Limit:
    """At most `most` sends of a kind in any `window_ms`, counted over `scope`."""

    scope: Scope
    most: int
    window_ms: int


@dataclass(frozen=True, slots=True, kw_only=True)
class Send:
    kind: str
    game_id: str
    seat: int | None
    target: str


class SendLedger:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._dialect = engine.dialect.name

    def reserve(self, send: Send, now_ms: int, limits: Sequence[Limit]) -> Limit | None:
        """Keep `send` if it reaches none of `limits`, and return None; else the first limit it
        reaches, keeping nothing. Reservations are taken one at a time (two requests at once
        cannot both take the last one): on SQLite the first write of the transaction takes
        the database's write lock, on PostgreSQL the table is locked against other writers."""
        longest = max((limit.window_ms for limit in limits), default=0)
        with self.engine.begin() as conn:
            if self._dialect == "postgresql":
                conn.execute(text("LOCK TABLE sends IN SHARE ROW EXCLUSIVE MODE"))
            old = (SENDS.c.kind == send.kind) & (SENDS.c.sent_at <= now_ms - longest)
            conn.execute(delete(SENDS).where(old))
            for limit in limits:
                if _count(conn, send, limit, now_ms) >= limit.most:
                    return limit
            conn.execute(insert(SENDS).values(**_values(send), sent_at=now_ms))
        return None

    def rows(self) -> list[dict[str, Any]]:
        """Every row kept (tests and the operator's checks)."""
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(select(SENDS).order_by(SENDS.c.id))]


def _values(send: Send) -> dict[str, Any]:
    return {"kind": send.kind, "game_id": send.game_id, "seat": send.seat, "target": send.target}


def _count(conn: Connection, send: Send, limit: Limit, now_ms: int) -> int:
    where = (SENDS.c.kind == send.kind) & (SENDS.c.sent_at > now_ms - limit.window_ms)
    if limit.scope is Scope.TARGET:
        where &= SENDS.c.target == send.target
    else:
        where &= SENDS.c.game_id == send.game_id
    if limit.scope is Scope.SEAT:
        where &= SENDS.c.seat == send.seat
    found: int = conn.execute(select(func.count()).select_from(SENDS).where(where)).scalar_one()
    return found
