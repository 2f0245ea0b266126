"""Notices to the players' chat beside the log: each game's webhook setting and the outbox of
notices to send to it (server/notify/). Neither is part of the court's truth: the log never
holds a webhook URL, and an operator may empty either table.

Several server processes send from one outbox, a game at a time: a game's notices go out in
their order, so only its oldest pending one may be sent, and a process claims it with one
conditional UPDATE (the row is still pending, due, and nobody's claim holds it); while that
claim holds, the game is nobody else's. A claim lapses after its lease, so a row claimed by
a process that stopped mid-send is sent again by another: a notice arrives at least once,
and twice only then.
Times are epoch milliseconds.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    Table,
    Text,
    UniqueConstraint,
    delete,
    func,
    select,
    update,
)
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from sqlmodel import Field, SQLModel

PENDING, SENT, FAILED = "pending", "sent", "failed"


class GameWebhook(SQLModel, table=True):
    __tablename__ = "game_webhooks"

    game_id: str = Field(max_length=64, primary_key=True)
    url: str = Field(sa_column=Column(Text, nullable=False))
    set_at: int = Field(sa_column=Column(BigInteger, nullable=False))


class OutboxKey(SQLModel):
    """The first columns of every outbox, the webhook's and the mails' (server/store/mail.py):
    a row a notice. The columns are declared once, by type (a table's Column objects cannot
    be shared), in two parts so that a mail's own columns come between them."""

    id: int | None = Field(
        default=None,
        primary_key=True,
        sa_type=BigInteger().with_variant(Integer(), "sqlite"),
        sa_column_kwargs={"autoincrement": True},
    )
    game_id: str = Field(max_length=64)
    # One notice per game and key (a turn, a record): a second insert of it is ignored.
    notice_key: str = Field(max_length=200)


class OutboxBody(SQLModel):
    """The rest of every outbox's columns: the notice's text, its state, tries and claim."""

    text: str = Field(sa_type=Text)
    state: str = Field(max_length=16)
    attempts: int
    due_at: int = Field(sa_type=BigInteger)
    created_at: int = Field(sa_type=BigInteger)
    claimed_by: str | None = Field(default=None, max_length=32)
    claimed_until: int | None = Field(default=None, sa_type=BigInteger)
    done_at: int | None = Field(default=None, sa_type=BigInteger)
    last_error: str | None = Field(default=None, max_length=200)


class OutboxNotice(OutboxBody, OutboxKey, table=True):
    __tablename__ = "outbox"
    __table_args__ = (
        UniqueConstraint("game_id", "notice_key", name="uq_outbox_game_key"),
        Index("ix_outbox_state_due", "state", "due_at"),
    )


WEBHOOKS = GameWebhook.metadata.tables[GameWebhook.__tablename__]
OUTBOX = OutboxNotice.metadata.tables[OutboxNotice.__tablename__]


@dataclass(frozen=True, slots=True)
class Notice:
    """A notice to insert: its game, its key (unique in the game) and its text; a mail's
    also its seat and subject (server/store/mail.py)."""

    game_id: str
    key: str
    text: str
    seat: int | None = None
    subject: str = ""


@dataclass(frozen=True, slots=True)
class Claimed:
    """A row this process claimed and must send, then mark."""

    id: int
    game_id: str
    text: str
    attempts: int
    seat: int | None = None
    subject: str = ""


def _next(table: Table) -> Any:
    """Each game's next notice: the oldest of its pending ones."""
    pending = table.alias("pending")
    return (
        select(func.min(pending.c.id)).where(pending.c.state == PENDING).group_by(pending.c.game_id)
    )


def _free(table: Table, now_ms: int) -> Any:
    """A pending row that is due and that no claim holds (a lapsed claim holds nothing)."""
    unclaimed = (table.c.claimed_until.is_(None)) | (table.c.claimed_until < now_ms)
    return (table.c.state == PENDING) & (table.c.due_at <= now_ms) & unclaimed


def _insert(dialect: str, table: Table) -> Any:
    make = postgresql.insert if dialect == "postgresql" else sqlite.insert
    return make(table).on_conflict_do_nothing(index_elements=["game_id", "notice_key"])


def _upsert(dialect: str, values: dict[str, Any]) -> Any:
    make = postgresql.insert if dialect == "postgresql" else sqlite.insert
    statement = make(WEBHOOKS).values(values)
    return statement.on_conflict_do_update(
        index_elements=["game_id"], set_={"url": values["url"], "set_at": values["set_at"]}
    )


class Outbox:
    """An outbox table on the store's engine (SQLite or PostgreSQL): this one of the webhook's
    notices, or one with the same columns and a seat and subject more (the seats' mails)."""

    def __init__(self, engine: Engine, table: Table = OUTBOX) -> None:
        self.engine = engine
        self.table = table
        self._dialect = engine.dialect.name
        self._mails = "seat" in table.c

    def enqueue(self, notices: Sequence[Notice], now_ms: int) -> None:
        """Insert pending notices, due now; one whose (game, key) is there already is left."""
        if not notices:
            return
        rows = [
            {
                "game_id": n.game_id,
                "notice_key": n.key,
                "text": n.text,
                "state": PENDING,
                "attempts": 0,
                "due_at": now_ms,
                "created_at": now_ms,
                **({"seat": n.seat, "subject": n.subject} if self._mails else {}),
            }
            for n in notices
        ]
        with self.engine.begin() as conn:
            for row in rows:
                conn.execute(_insert(self._dialect, self.table).values(row))

    def due_games(self, now_ms: int, most: int) -> list[str]:
        """Up to `most` games whose next notice (the oldest pending) is due and claimed by
        nobody, the longest waiting first."""
        table = self.table
        query = (
            select(table.c.game_id)
            .where(table.c.id.in_(_next(table)), _free(table, now_ms))
            .order_by(table.c.id)
            .limit(most)
        )
        with self.engine.connect() as conn:
            return list(conn.scalars(query))

    def claim_next(self, game_id: str, claimer: str, now_ms: int, lease_ms: int) -> Claimed | None:
        """Claim the game's next notice for `claimer` until now + lease, if it is due and
        nobody's claim holds it: one conditional UPDATE, which only one process's can win.
        None when there is none to claim now: a notice waiting to be tried again holds back
        the game's later ones, which are sent in order."""
        table = self.table
        columns = [table.c.id, table.c.text, table.c.attempts]
        if self._mails:
            columns += [table.c.seat, table.c.subject]
        query = select(*columns).where(table.c.game_id == game_id, table.c.state == PENDING)
        with self.engine.connect() as conn:
            row = conn.execute(query.order_by(table.c.id).limit(1)).first()
        if row is None:
            return None
        take = (
            update(table)
            .where(table.c.id == row.id, _free(table, now_ms))
            .values(claimed_by=claimer, claimed_until=now_ms + lease_ms)
        )
        with self.engine.begin() as conn:
            if conn.execute(take).rowcount != 1:
                return None
        return Claimed(row.id, game_id, row.text, row.attempts, *row[3:])

    def finish(self, row: Claimed, claimer: str, state: str, now_ms: int, error: str) -> None:
        """Mark a claimed row sent or failed for good."""
        values = {
            "state": state,
            "attempts": row.attempts + 1,
            "done_at": now_ms,
            "claimed_by": None,
            "claimed_until": None,
            "last_error": error[:200] or None,
        }
        self._release(row, claimer, values)

    def retry(self, row: Claimed, claimer: str, due_ms: int, error: str) -> None:
        """Give a claimed row back, to be tried again at `due_ms`."""
        values = {
            "attempts": row.attempts + 1,
            "due_at": due_ms,
            "claimed_by": None,
            "claimed_until": None,
            "last_error": error[:200],
        }
        self._release(row, claimer, values)

    def _release(self, row: Claimed, claimer: str, values: dict[str, Any]) -> None:
        table = self.table
        mine = (table.c.id == row.id) & (table.c.claimed_by == claimer)
        with self.engine.begin() as conn:
            conn.execute(update(table).where(mine).values(**values))

    def rows(self, game_id: str) -> list[dict[str, Any]]:
        """Every outbox row of a game in insertion order (for the operator and the tests)."""
        table = self.table
        query = select(table).where(table.c.game_id == game_id).order_by(table.c.id)
        with self.engine.connect() as conn:
            return [dict(row._mapping) for row in conn.execute(query)]


class NoticeStore(Outbox):
    """The webhooks and their outbox."""

    # -- webhooks ------------------------------------------------------------

    def set_webhook(self, game_id: str, url: str, now_ms: int) -> None:
        values = {"game_id": game_id, "url": url, "set_at": now_ms}
        with self.engine.begin() as conn:
            conn.execute(_upsert(self._dialect, values))

    def remove_webhook(self, game_id: str) -> bool:
        with self.engine.begin() as conn:
            return conn.execute(delete(WEBHOOKS).where(WEBHOOKS.c.game_id == game_id)).rowcount > 0

    def webhook(self, game_id: str) -> str | None:
        with self.engine.connect() as conn:
            query = select(WEBHOOKS.c.url).where(WEBHOOKS.c.game_id == game_id)
            found: str | None = conn.execute(query).scalar()
            return found

    def games_with_webhooks(self) -> set[str]:
        with self.engine.connect() as conn:
            return set(conn.scalars(select(WEBHOOKS.c.game_id)))
