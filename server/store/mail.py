"""The seats' mail addresses and the outbox of their reminders (server/notify/reminders.py),
beside the log and never in it: an address is a seat's secret, no game fact, so no record,
export, history, push or notice holds one. A row belongs to the token that set it: the seat
handed to a new token no longer has it. Only a digest of a verification code is kept.
Times are epoch milliseconds.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from sqlalchemy import BigInteger, Column, Index, UniqueConstraint, delete, select
from sqlalchemy import update as sql_update
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlmodel import Field, SQLModel

from server.store.notices import Outbox, OutboxBody, OutboxKey

ADDRESS_MAX = 254  # the longest address SMTP carries (RFC 5321's path, less its brackets)


class SeatMailRow(SQLModel, table=True):
    __tablename__ = "seat_mail"

    game_id: str = Field(max_length=64, primary_key=True)
    seat: int = Field(primary_key=True, sa_column_kwargs={"autoincrement": False})
    token_sha256: str = Field(max_length=64)  # the token that gave the address
    address: str = Field(max_length=ADDRESS_MAX)
    set_at: int = Field(sa_column=Column(BigInteger, nullable=False))
    verified_at: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    code_sha256: str | None = Field(default=None, max_length=64)
    code_expires: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))
    # The step of the last "your turn" mailed, and when: one a step, and not too often.
    turn_step: str | None = Field(default=None, max_length=200)
    turn_mailed_at: int | None = Field(default=None, sa_column=Column(BigInteger, nullable=True))


class MailAddressing(SQLModel):
    """Whom a mail goes to and what it is called."""

    seat: int
    subject: str = Field(max_length=200)


class MailOutboxRow(OutboxBody, MailAddressing, OutboxKey, table=True):
    """The webhook outbox's columns (server/store/notices.py), and the seat and subject."""

    __tablename__ = "mail_outbox"
    __table_args__ = (
        UniqueConstraint("game_id", "notice_key", name="uq_mail_outbox_game_key"),
        Index("ix_mail_outbox_state_due", "state", "due_at"),
    )


SEAT_MAIL = SeatMailRow.metadata.tables[SeatMailRow.__tablename__]
MAIL_OUTBOX = MailOutboxRow.metadata.tables[MailOutboxRow.__tablename__]


@dataclass(frozen=True, slots=True)
class SeatMail:
    """A seat's address as kept: whose token gave it, verified or not, its last turn mailed."""

    seat: int
    token_sha256: str
    address: str
    verified: bool
    code_expires: int | None
    set_at: int
    turn_step: str | None
    turn_mailed_at: int | None


@dataclass(frozen=True, slots=True, kw_only=True)
class Given:
    """An address as a seat's token gives it, with its verification code's digest."""

    token_sha256: str
    address: str
    code_sha256: str
    code_expires: int


def _seat_mail(row: Any) -> SeatMail:
    return SeatMail(
        seat=row.seat,
        token_sha256=row.token_sha256,
        address=row.address,
        verified=row.verified_at is not None,
        code_expires=row.code_expires,
        set_at=row.set_at,
        turn_step=row.turn_step,
        turn_mailed_at=row.turn_mailed_at,
    )


class MailStore(Outbox):
    """The seats' addresses and the outbox of their mails."""

    def __init__(self, engine: Engine) -> None:
        super().__init__(engine, MAIL_OUTBOX)

    def _key(self, game_id: str, seat: int) -> Any:
        return (SEAT_MAIL.c.game_id == game_id) & (SEAT_MAIL.c.seat == seat)

    def set_address(self, game_id: str, seat: int, given: Given, now_ms: int) -> None:
        """Keep a new, unverified address for the seat (any before is dropped), with the
        digest of its verification code and when the code expires."""
        values = {
            "game_id": game_id,
            "seat": seat,
            "token_sha256": given.token_sha256,
            "address": given.address,
            "set_at": now_ms,
            "verified_at": None,
            "code_sha256": given.code_sha256,
            "code_expires": given.code_expires,
            "turn_step": None,
            "turn_mailed_at": None,
        }
        make = postgresql.insert if self._dialect == "postgresql" else sqlite.insert
        statement = make(SEAT_MAIL).values(values)
        changed = {k: v for k, v in values.items() if k not in ("game_id", "seat")}
        statement = statement.on_conflict_do_update(
            index_elements=["game_id", "seat"], set_=changed
        )
        with self.engine.begin() as conn:
            conn.execute(statement)

    def seat_mail(self, game_id: str, seat: int) -> SeatMail | None:
        with self.engine.connect() as conn:
            row = conn.execute(select(SEAT_MAIL).where(self._key(game_id, seat))).first()
        return None if row is None else _seat_mail(row)

    def verified(self, game_id: str) -> dict[int, SeatMail]:
        """The game's seats with a verified address."""
        query = select(SEAT_MAIL).where(
            SEAT_MAIL.c.game_id == game_id, SEAT_MAIL.c.verified_at.is_not(None)
        )
        with self.engine.connect() as conn:
            return {row.seat: _seat_mail(row) for row in conn.execute(query)}

    def remove(self, game_id: str, seat: int) -> bool:
        with self.engine.begin() as conn:
            return conn.execute(delete(SEAT_MAIL).where(self._key(game_id, seat))).rowcount > 0

    def verify(self, game_id: str, code_sha256: str, now_ms: int) -> bool:
        """Mark verified the game's address whose code this is, if the code has not expired;
        the code is spent."""
        mine = (
            (SEAT_MAIL.c.game_id == game_id)
            & (SEAT_MAIL.c.code_sha256 == code_sha256)
            & (SEAT_MAIL.c.code_expires >= now_ms)
        )
        done = sql_update(SEAT_MAIL).where(mine).values(verified_at=now_ms, code_sha256=None)
        with self.engine.begin() as conn:
            return conn.execute(done).rowcount > 0

    def mark_turn(self, game_id: str, seat: int, step: str, now_ms: int) -> None:
        done = sql_update(SEAT_MAIL).where(self._key(game_id, seat))
        with self.engine.begin() as conn:
            conn.execute(done.values(turn_step=step, turn_mailed_at=now_ms))

    def games_with_addresses(self) -> set[str]:
        with self.engine.connect() as conn:
            return set(conn.scalars(select(SEAT_MAIL.c.game_id).distinct()))
