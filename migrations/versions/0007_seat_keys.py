"""A person's key (server/store/seat_keys.py): the seats each key gathers, by the digest of
the key's secret, with each seat's token sealed under a key only that secret gives. An
operator may empty the table: the players make their keys again.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-12
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "seat_keys",
        sa.Column("key_sha256", sa.String(64), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("sealed", sa.Text(), nullable=False),
        sa.Column("added_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("key_sha256", "token_sha256"),
    )
    op.create_index("ix_seat_keys_token", "seat_keys", ["token_sha256"])


def downgrade() -> None:
    op.drop_index("ix_seat_keys_token", table_name="seat_keys")
    op.drop_table("seat_keys")
