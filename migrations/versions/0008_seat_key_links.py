"""A person's key hands out links of its own (server/store/seat_keys.py): each seat it gathers
keeps the number and digest of the link the game's log recorded, and the link's token sealed.
The keys made before kept the seats' own tokens, which no revoke could take back: they are
emptied, and the players make their keys again.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-20
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None


def _create(with_links: bool) -> None:
    links = (
        [
            sa.Column("link", sa.Integer(), nullable=False),
            sa.Column("link_sha256", sa.String(64), nullable=False),
        ]
        if with_links
        else []
    )
    op.create_table(
        "seat_keys",
        sa.Column("key_sha256", sa.String(64), nullable=False),
        sa.Column("token_sha256", sa.String(64), nullable=False),
        sa.Column("game_id", sa.String(64), nullable=False),
        *links,
        sa.Column("sealed", sa.Text(), nullable=False),
        sa.Column("added_at", sa.BigInteger(), nullable=False),
        sa.PrimaryKeyConstraint("key_sha256", "token_sha256"),
    )
    op.create_index("ix_seat_keys_token", "seat_keys", ["token_sha256"])


def _drop() -> None:
    op.drop_index("ix_seat_keys_token", table_name="seat_keys")
    op.drop_table("seat_keys")


def upgrade() -> None:
    _drop()
    _create(with_links=True)


def downgrade() -> None:
    _drop()
    _create(with_links=False)
