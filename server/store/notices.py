"""Notices to the players' chat beside the log: each game's webhook setting and the outbox of
notices to send to it (server/notify/). Neither is part of the court's truth: the log never
holds a webhook URL, and an operator may empty either table.

Several server processes send from one outbox, a game at a time: a game's notices go out in
their order, so only its oldest pending one may be sent, and a process claims it with one
conditional UPDATE (the row is still pending, due, and nobody's claim holds it); while that
claim holds, the game is nobody else's. A claim lapses after its lease, so a row claimed by
a process that stopped mid-send is sent again by another: a notice arrives at least once,
and twice only then.
A game's notices arriving within a few seconds are claimed together and posted as one
(`claim_group`); a notice may also be held (due at HELD) until its publisher releases it: a
step's summary is told when the step ends.
Times are epoch milliseconds.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from sqlalchemy import (
    BigInteger,
    Column,
    Index,
    Integer,
    String,
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
HELD = 2**62  # the due time of a notice held until its publisher releases it
DIGESTS = ("moves", "steps", "results")  # what a game's webhook is told: server/notify/texts.py


class GameWebhook(SQLModel, table=True):
    __tablename__ = "game_webhooks"

    game_id: str = Field(max_length=64, primary_key=True)
    url: str = Field(sa_column=Column(Text, nullable=False))
    set_at: int = Field(sa_column=Column(BigInteger, nullable=False))
    digest: str = Field(
        default="steps", sa_column=Column(String(16), nullable=False, server_default="steps")
    )


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
    # The line a post of the game's notices opens with (the game's name, as told then).
    lead: str = Field(default="", sa_column=Column(Text, nullable=False))
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
    lead: str = ""  # the webhook's: the line its post opens with


@dataclass(frozen=True, slots=True)
class Claimed:
    """Rows this process claimed and must send as one, then mark: the first, and `joined`,
    the game's later rows (id, text) that arrived within the group window of it."""

    id: int
    game_id: str
    text: str
    attempts: int
    seat: int | None = None
    subject: str = ""
    lead: str = ""  # the last row's: the game's name as told most recently
    joined: tuple[tuple[int, str], ...] = field(default=())

    @property
    def ids(self) -> tuple[int, ...]:
        return (self.id, *(i for i, _ in self.joined))

    @property
    def texts(self) -> tuple[str, ...]:
        return (self.text, *(t for _, t in self.joined))


# Whether rows' texts, led by a line, fit in one post.
Fits = Callable[[Sequence[str], str], bool]


class _Lost(Exception):
    """Another process's claim won a row of the group: nothing is claimed."""


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
        index_elements=["game_id"],
        set_={key: values[key] for key in ("url", "set_at", "digest")},
    )


def _texts(rows: Sequence[Any]) -> list[str]:
    return [row.text for row in rows]


def _lead(rows: Sequence[Any]) -> str:
    lead: str = rows[-1].lead if "lead" in rows[-1]._fields else ""
    return lead


class Outbox:
    """An outbox table on the store's engine (SQLite or PostgreSQL): this one of the webhook's
    notices, or one with the same columns and a seat and subject more (the seats' mails)."""

    def __init__(self, engine: Engine, table: Table = OUTBOX) -> None:
        self.engine = engine
        self.table = table
        self._dialect = engine.dialect.name
        self._mails = "seat" in table.c
        self._leads = "lead" in table.c

    def enqueue(self, notices: Sequence[Notice], now_ms: int, due_ms: int | None = None) -> None:
        """Insert pending notices, due at `due_ms` (now if None; HELD: until released); one
        whose (game, key) is there already is left."""
        if not notices:
            return
        rows = [
            {
                "game_id": n.game_id,
                "notice_key": n.key,
                "text": n.text,
                "state": PENDING,
                "attempts": 0,
                "due_at": now_ms if due_ms is None else due_ms,
                "created_at": now_ms,
                **({"seat": n.seat, "subject": n.subject} if self._mails else {}),
                **({"lead": n.lead} if self._leads else {}),
            }
            for n in notices
        ]
        with self.engine.begin() as conn:
            for row in rows:
                conn.execute(_insert(self._dialect, self.table).values(row))

    def release(self, game_id: str, due_ms: int) -> int:
        """Make the game's held notices due at `due_ms`; how many there were."""
        table = self.table
        held = (table.c.game_id == game_id) & (table.c.state == PENDING) & (table.c.due_at == HELD)
        with self.engine.begin() as conn:
            return int(conn.execute(update(table).where(held).values(due_at=due_ms)).rowcount)

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

    def claim_next(
        self,
        game_id: str,
        claimer: str,
        now_ms: int,
        lease_ms: int,
        *,
        group_ms: int = 0,
        fits: Fits | None = None,
        most: int = 50,
    ) -> Claimed | None:
        """Claim the game's next notice for `claimer` until now + lease, if it is due and
        nobody's claim holds it, and with `group_ms` the game's later pending notices due
        within that long of it, as many as `fits` one post: one conditional UPDATE, which
        only one process's can win. None when there is none to claim now: a notice waiting to
        be tried again holds back the game's later ones, which are sent in order."""
        rows = self._pending(game_id, most if group_ms else 1)
        if not rows:
            return None
        first = rows[0]
        group = [first] + [
            row for row in rows[1:] if group_ms and row.due_at <= first.due_at + group_ms
        ]
        while len(group) > 1 and fits is not None and not fits(_texts(group), _lead(group)):
            group.pop()
        if not self._claim([row.id for row in group], claimer, now_ms, lease_ms):
            return None
        return Claimed(
            first.id,
            game_id,
            first.text,
            first.attempts,
            seat=first.seat if self._mails else None,
            subject=first.subject if self._mails else "",
            lead=_lead(group),
            joined=tuple((row.id, row.text) for row in group[1:]),
        )

    def _pending(self, game_id: str, most: int) -> list[Any]:
        """The game's first `most` pending notices, oldest first."""
        table = self.table
        columns = [table.c.id, table.c.text, table.c.attempts, table.c.due_at]
        if self._mails:
            columns += [table.c.seat, table.c.subject]
        if self._leads:
            columns += [table.c.lead]
        query = select(*columns).where(table.c.game_id == game_id, table.c.state == PENDING)
        with self.engine.connect() as conn:
            return list(conn.execute(query.order_by(table.c.id).limit(most)).all())

    def _claim(self, ids: list[int], claimer: str, now_ms: int, lease_ms: int) -> bool:
        """Claim every row of `ids`, the first due, none held by a claim; or none of them."""
        table = self.table
        unclaimed = (table.c.claimed_until.is_(None)) | (table.c.claimed_until < now_ms)
        take = (
            update(table)
            .where(
                table.c.id.in_(ids),
                table.c.state == PENDING,
                unclaimed,
                (table.c.id != ids[0]) | (table.c.due_at <= now_ms),
            )
            .values(claimed_by=claimer, claimed_until=now_ms + lease_ms)
        )
        try:
            with self.engine.begin() as conn:
                if conn.execute(take).rowcount != len(ids):
                    raise _Lost
        except _Lost:
            return False
        return True

    def finish(self, row: Claimed, claimer: str, state: str, now_ms: int, error: str) -> None:
        """Mark claimed rows sent or failed for good."""
        values = {
            "state": state,
            "attempts": self.table.c.attempts + 1,
            "done_at": now_ms,
            "claimed_by": None,
            "claimed_until": None,
            "last_error": error[:200] or None,
        }
        self._release(row, claimer, values)

    def retry(self, row: Claimed, claimer: str, due_ms: int, error: str) -> None:
        """Give claimed rows back, to be tried again at `due_ms`."""
        values = {
            "attempts": self.table.c.attempts + 1,
            "due_at": due_ms,
            "claimed_by": None,
            "claimed_until": None,
            "last_error": error[:200],
        }
        self._release(row, claimer, values)

    def _release(self, row: Claimed, claimer: str, values: dict[str, Any]) -> None:
        table = self.table
        mine = (table.c.id.in_(row.ids)) & (table.c.claimed_by == claimer)
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

    def set_webhook(self, game_id: str, url: str, now_ms: int, digest: str = "steps") -> None:
        values = {"game_id": game_id, "url": url, "set_at": now_ms, "digest": digest}
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

    def digest(self, game_id: str) -> str | None:
        """What the game's webhook is told (DIGESTS), or None without one."""
        with self.engine.connect() as conn:
            query = select(WEBHOOKS.c.digest).where(WEBHOOKS.c.game_id == game_id)
            found: str | None = conn.execute(query).scalar()
            return found

    def games_with_webhooks(self) -> dict[str, str]:
        """Each game with a webhook, and what it is told."""
        with self.engine.connect() as conn:
            query = select(WEBHOOKS.c.game_id, WEBHOOKS.c.digest)
            return {row.game_id: row.digest for row in conn.execute(query)}
