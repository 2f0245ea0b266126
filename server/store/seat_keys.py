"""A person's key (server/service/seat_keys.py), beside the log: for each key, by the digest of its
link's
secret, the seats it gathers, each as its game, the digest of the token it gathered, the number
and digest of the link the game's log recorded for it, and that link's token sealed under a key
only the key's secret gives. The server keeps neither a secret nor a token in clear, so these
rows alone open no seat; the log alone says whether a link still opens one."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from typing import Any

from sqlalchemy import BigInteger, Column, Index, Integer, Row, Text, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlmodel import Field, SQLModel


class SeatKeyRow(SQLModel, table=True):
    __tablename__ = "seat_keys"
    __table_args__ = (Index("ix_seat_keys_token", "token_sha256"),)

    key_sha256: str = Field(max_length=64, primary_key=True)
    token_sha256: str = Field(max_length=64, primary_key=True)
    game_id: str = Field(max_length=64)
    link: int = Field(sa_column=Column(Integer, nullable=False))
    link_sha256: str = Field(max_length=64)
    sealed: str = Field(sa_column=Column(Text, nullable=False))
    added_at: int = Field(sa_column=Column(BigInteger, nullable=False))


SEAT_KEYS = SeatKeyRow.metadata.tables[SeatKeyRow.__tablename__]


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """One seat a key gathers: its game, the digest of the token gathered, the link the log
    recorded for it (its number and its token's digest) and the link's token sealed."""

    game_id: str
    token_sha256: str
    link: int
    link_sha256: str
    sealed: str


class SeatKeyStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._dialect = engine.dialect.name

    def holding(self, token_digests: Iterable[str]) -> dict[str, list[KeptSeat]]:
        """The keys that gather any of these tokens, each with every seat it gathers."""
        digests = sorted(set(token_digests))
        if not digests:
            return {}
        holders = select(SEAT_KEYS.c.key_sha256).where(SEAT_KEYS.c.token_sha256.in_(digests))
        query = select(SEAT_KEYS).where(SEAT_KEYS.c.key_sha256.in_(holders))
        found: dict[str, list[KeptSeat]] = {}
        with self.engine.connect() as conn:
            for row in conn.execute(query.order_by(SEAT_KEYS.c.added_at, SEAT_KEYS.c.game_id)):
                found.setdefault(row.key_sha256, []).append(_kept(row))
        return found

    def add(self, key_sha256: str, seats: Iterable[KeptSeat], now_ms: int) -> None:
        """Gather these seats into the key (a seat it gathers already stays as it is)."""
        rows = [
            {
                "key_sha256": key_sha256,
                "token_sha256": s.token_sha256,
                "game_id": s.game_id,
                "link": s.link,
                "link_sha256": s.link_sha256,
                "sealed": s.sealed,
                "added_at": now_ms,
            }
            for s in seats
        ]
        if not rows:
            return
        make = postgresql.insert if self._dialect == "postgresql" else sqlite.insert
        with self.engine.begin() as conn:
            conn.execute(make(SEAT_KEYS).values(rows).on_conflict_do_nothing())

    def seats(self, key_sha256: str) -> list[KeptSeat]:
        query = (
            select(SEAT_KEYS)
            .where(SEAT_KEYS.c.key_sha256 == key_sha256)
            .order_by(SEAT_KEYS.c.added_at, SEAT_KEYS.c.game_id)
        )
        with self.engine.connect() as conn:
            return [_kept(r) for r in conn.execute(query)]

    def exists(self, key_sha256: str) -> bool:
        query = select(SEAT_KEYS.c.key_sha256).where(SEAT_KEYS.c.key_sha256 == key_sha256)
        with self.engine.connect() as conn:
            return conn.execute(query.limit(1)).first() is not None

    def drop(self, key_sha256: str, token_digests: Iterable[str]) -> None:
        """Let a key gather these seats no more (their links were dropped, or open nothing)."""
        digests = list(token_digests)
        if not digests:
            return
        mine = (SEAT_KEYS.c.key_sha256 == key_sha256) & SEAT_KEYS.c.token_sha256.in_(digests)
        with self.engine.begin() as conn:
            conn.execute(delete(SEAT_KEYS).where(mine))


def _kept(row: Row[Any]) -> KeptSeat:
    return KeptSeat(row.game_id, row.token_sha256, row.link, row.link_sha256, row.sealed)
