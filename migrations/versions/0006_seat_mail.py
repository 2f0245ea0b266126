"""The seats' mail addresses and the outbox of their reminders (server/store/mail.py), beside
the log and never in it: an address is a seat's secret, and an operator may empty either
table (the players give their addresses again).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-10
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_mail",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), autoincrement=False, nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("address", sa.String(254), nullable=False),
        sa.Column("page", sa.Text(), nullable=False),
        sa.Column("set_at", sa.BigInteger(), nullable=False),
        sa.Column("verified_at", sa.BigInteger(), nullable=True),
        sa.Column("code_sha256", sa.String(64), nullable=True),
        sa.Column("code_expires", sa.BigInteger(), nullable=True),
        sa.Column("turn_step", sa.String(200), nullable=True),
        sa.Column("turn_mailed_at", sa.BigInteger(), nullable=True),
        sa.PrimaryKeyConstraint("game_id", "seat"),
    )
    op.create_table(
        "mail_outbox",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("notice_key", sa.String(200), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=False),
        sa.Column("subject", sa.String(200), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("due_at", sa.BigInteger(), nullable=False),
        sa.Column("created_at", sa.BigInteger(), nullable=False),
        sa.Column("claimed_by", sa.String(32), nullable=True),
        sa.Column("claimed_until", sa.BigInteger(), nullable=True),
        sa.Column("done_at", sa.BigInteger(), nullable=True),
        sa.Column("last_error", sa.String(200), nullable=True),
        sa.UniqueConstraint("game_id", "notice_key", name="uq_mail_outbox_game_key"),
    )
    op.create_index("ix_mail_outbox_state_due", "mail_outbox", ["state", "due_at"])


def downgrade() -> None:
    op.drop_table("mail_outbox")
    op.drop_table("seat_mail")
