"""What the court sent at a request to an address from outside the game, counted against limits
over an hour (server/store/sends.py), and a seat's mails linked under PUBLIC_URL alone: the page
a player reached when he gave his address, which named the request's Host header, is kept no
more. An operator may empty `sends`: the limits count afresh from then.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-14
"""

from __future__ import annotations

import sqlite3

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "sends",
        sa.Column(
            "id",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("target", sa.String(64), nullable=False),
        sa.Column("sent_at", sa.BigInteger(), nullable=False),
    )
    op.create_index("ix_sends_kind_game", "sends", ["kind", "game_id", "sent_at"])
    op.create_index("ix_sends_kind_target", "sends", ["kind", "target", "sent_at"])
    _drop_page()


def _drop_page() -> None:
    """SQLite drops a column itself from 3.35 on, leaving the table's statement as the model
    makes it; an older one has the table copied without the column."""
    context = op.get_context()
    old_sqlite = context.dialect.name == "sqlite" and sqlite3.sqlite_version_info < (3, 35)
    if old_sqlite and not context.as_sql:
        with op.batch_alter_table("seat_mail") as table:
            table.drop_column("page")
    else:
        op.drop_column("seat_mail", "page")


def downgrade() -> None:
    op.add_column("seat_mail", sa.Column("page", sa.Text(), nullable=False, server_default=""))
    op.drop_index("ix_sends_kind_target", table_name="sends")
    op.drop_index("ix_sends_kind_game", table_name="sends")
    op.drop_table("sends")
