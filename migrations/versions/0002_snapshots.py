"""Snapshots of game states beside the log (server/store/snapshots.py): a cache, so unlike
event_records the table has no append-only guard.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-24
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.Column("state", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "version", "format"),
    )
    op.create_index(
        "ix_snapshots_game_format_version", "snapshots", ["game_id", "format", "version"]
    )


def downgrade() -> None:
    op.drop_table("snapshots")
