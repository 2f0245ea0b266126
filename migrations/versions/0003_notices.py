"""Notices to the players' chat (server/store/notices.py): each game's webhook setting, kept
outside the log, and the outbox of notices to send to it. Neither is part of the log, so
neither has the append-only guard.

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "game_webhooks",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("url", sa.Text(), nullable=False),
        sa.Column("set_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("game_id"),
    )
    op.create_table(
        "outbox",
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
        sa.UniqueConstraint("game_id", "notice_key", name="uq_outbox_game_key"),
    )
    op.create_index("ix_outbox_state_due", "outbox", ["state", "due_at"])


def downgrade() -> None:
    op.drop_table("outbox")
    op.drop_table("game_webhooks")
