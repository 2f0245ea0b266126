"""A person's key (server/mykey.py), beside the log and never in it: for each key, by the
digest of its secret, the seats it gathers, each as its game, the digest of its token and the
token sealed under a key only the key's secret gives. The server keeps neither the secret nor
a token in clear, so these rows alone open no seat."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from sqlalchemy import BigInteger, Column, Connection, Index, Text, delete, select
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlmodel import Field, SQLModel


class SeatKeyRow(SQLModel, table=True):
    __tablename__ = "seat_keys"
    __table_args__ = (Index("ix_seat_keys_token", "token_sha256"),)

    key_sha256: str = Field(max_length=64, primary_key=True)
    token_sha256: str = Field(max_length=64, primary_key=True)
    game_id: str = Field(max_length=64)
    sealed: str = Field(sa_column=Column(Text, nullable=False))
    added_at: int = Field(sa_column=Column(BigInteger, nullable=False))


SEAT_KEYS = SeatKeyRow.metadata.tables[SeatKeyRow.__tablename__]


@dataclass(frozen=True, slots=True)
class KeptSeat:
    """One seat a key gathers: its game, its token's digest and the token sealed."""

    game_id: str
    token_sha256: str
    sealed: str


class SeatKeyStore:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine
        self._dialect = engine.dialect.name

    def keys_holding(self, token_digests: Iterable[str]) -> set[str]:
        """The keys that gather any of these seats."""
        digests = sorted(set(token_digests))
        if not digests:
            return set()
        query = select(SEAT_KEYS.c.key_sha256).where(SEAT_KEYS.c.token_sha256.in_(digests))
        with self.engine.connect() as conn:
            return set(conn.scalars(query.distinct()))

    def replace(self, key_sha256: str, seats: Iterable[KeptSeat], now_ms: int) -> None:
        """Keep a new key with these seats, and drop every older key that gathered any of
        them: a person has one key, and making a new one voids the old."""
        seats = list(seats)
        with self.engine.begin() as conn:
            older = select(SEAT_KEYS.c.key_sha256).where(
                SEAT_KEYS.c.token_sha256.in_([s.token_sha256 for s in seats])
            )
            conn.execute(delete(SEAT_KEYS).where(SEAT_KEYS.c.key_sha256.in_(older)))
            self._insert(conn, key_sha256, seats, now_ms)

    def add(self, key_sha256: str, seats: Iterable[KeptSeat], now_ms: int) -> None:
        """Gather more seats into a key (a seat it gathers already stays as it is); another
        key that gathered one of them lets it go: a seat is in one key at most."""
        seats = list(seats)
        others = SEAT_KEYS.c.token_sha256.in_([s.token_sha256 for s in seats]) & (
            SEAT_KEYS.c.key_sha256 != key_sha256
        )
        with self.engine.begin() as conn:
            conn.execute(delete(SEAT_KEYS).where(others))
            self._insert(conn, key_sha256, seats, now_ms)

    def _insert(
        self, conn: Connection, key_sha256: str, seats: list[KeptSeat], now_ms: int
    ) -> None:
        if not seats:
            return
        make = postgresql.insert if self._dialect == "postgresql" else sqlite.insert
        rows = [
            {
                "key_sha256": key_sha256,
                "token_sha256": s.token_sha256,
                "game_id": s.game_id,
                "sealed": s.sealed,
                "added_at": now_ms,
            }
            for s in seats
        ]
        statement = make(SEAT_KEYS).values(rows).on_conflict_do_nothing()
        conn.execute(statement)

    def seats(self, key_sha256: str) -> list[KeptSeat]:
        query = (
            select(SEAT_KEYS)
            .where(SEAT_KEYS.c.key_sha256 == key_sha256)
            .order_by(SEAT_KEYS.c.added_at, SEAT_KEYS.c.game_id)
        )
        with self.engine.connect() as conn:
            return [KeptSeat(r.game_id, r.token_sha256, r.sealed) for r in conn.execute(query)]

    def exists(self, key_sha256: str) -> bool:
        query = select(SEAT_KEYS.c.key_sha256).where(SEAT_KEYS.c.key_sha256 == key_sha256)
        with self.engine.connect() as conn:
            return conn.execute(query.limit(1)).first() is not None

    def drop(self, key_sha256: str, token_digests: Iterable[str]) -> None:
        """Let a key gather these seats no more (their tokens open nothing now)."""
        digests = list(token_digests)
        if not digests:
            return
        mine = (SEAT_KEYS.c.key_sha256 == key_sha256) & SEAT_KEYS.c.token_sha256.in_(digests)
        with self.engine.begin() as conn:
            conn.execute(delete(SEAT_KEYS).where(mine))

    def revoke(self, key_sha256: str) -> bool:
        with self.engine.begin() as conn:
            found = conn.execute(delete(SEAT_KEYS).where(SEAT_KEYS.c.key_sha256 == key_sha256))
            return found.rowcount > 0
