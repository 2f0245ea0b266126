"""What a game's webhook is told (`game_webhooks.digest`: every move, step summaries or results
only) and the line a post of the game's notices opens with (`outbox.lead`, the game's name):
several notices of a game that arrive within a few seconds go out as one post under it.

PostgreSQL adds the columns. SQLite would append them to the tables' statements in its own
words, unlike the model's: there both tables are made anew, as the model makes them, and
their rows copied over (a notice queued before has its name and link in its text, no lead).

Revision ID: 0011
Revises: 0010
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

WEBHOOK_COLUMNS = ("game_id", "url", "set_at")
OUTBOX_COLUMNS = (
    "id",
    "game_id",
    "notice_key",
    "text",
    "state",
    "attempts",
    "due_at",
    "created_at",
    "claimed_by",
    "claimed_until",
    "done_at",
    "last_error",
)


def _webhooks(digest: bool) -> None:
    columns = [
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("set_at", sa.BigInteger(), nullable=False),
    ]
    if digest:
        columns.append(sa.Column("digest", sa.String(16), nullable=False, server_default="steps"))
    op.create_table("game_webhooks", *columns, sa.PrimaryKeyConstraint("game_id"))


def _outbox(lead: bool) -> None:
    columns = [
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("notice_key", sa.String(200), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.BigInteger(), nullable=True),
        sa.Column("done_at", sa.BigInteger(), nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
    ]
    if lead:
        columns.append(sa.Column("lead", sa.Text(), nullable=False))
    op.create_table(
        "outbox",
        *columns,
        sa.UniqueConstraint("game_id", "notice_key", name="uq_outbox_game_key"),
    )
    op.create_index("ix_outbox_state_due", "outbox", ["state", "due_at"])


def _copy(table: str, columns: tuple[str, ...], extra: dict[str, str]) -> None:
    """Rows of the renamed old table into the new one, `extra` columns given as SQL values."""
    names = ", ".join((*columns, *extra))
    values = ", ".join((*columns, *extra.values()))
    op.execute(f"INSERT INTO {table} ({names}) SELECT {values} FROM _old_{table}")
    op.drop_table(f"_old_{table}")


def _remake_sqlite(new_columns: bool) -> None:
    op.drop_index("ix_outbox_state_due", table_name="outbox")
    op.rename_table("outbox", "_old_outbox")
    op.rename_table("game_webhooks", "_old_game_webhooks")
    _webhooks(new_columns)
    _outbox(new_columns)
    _copy("game_webhooks", WEBHOOK_COLUMNS, {"digest": "'steps'"} if new_columns else {})
    _copy("outbox", OUTBOX_COLUMNS, {"lead": "''"} if new_columns else {})


def upgrade() -> None:
    if op.get_context().dialect.name == "sqlite":
        _remake_sqlite(new_columns=True)
        return
    op.add_column(
        "game_webhooks",
        sa.Column("digest", sa.String(16), nullable=False, server_default="steps"),
    )
    op.add_column("outbox", sa.Column("lead", sa.Text(), nullable=False, server_default=""))
    # Only the rows there now take the default: a new notice states its lead.
    op.alter_column("outbox", "lead", server_default=None)


def downgrade() -> None:
    if op.get_context().dialect.name == "sqlite":
        _remake_sqlite(new_columns=False)
        return
    op.drop_column("outbox", "lead")
    op.drop_column("game_webhooks", "digest")
