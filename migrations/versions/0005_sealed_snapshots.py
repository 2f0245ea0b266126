"""Sealed snapshots (server/store/snapshots.py): each row carries the MAC of the instance secret
that sealed it and that secret's id; the server reads only rows it sealed itself. The rows of
before hold no seal and would never be read again, so the table is made anew: it is a cache,
written again as the server folds its games.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-08
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

INDEX = "ix_snapshots_game_format_version"


def _snapshots(*seal: sa.Column[str | None]) -> None:
    op.create_table(
        "snapshots",
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("format", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        *seal,
        sa.Column("state", sa.Text(), nullable=False),
        sa.PrimaryKeyConstraint("game_id", "version", "format"),
    )
    op.create_index(INDEX, "snapshots", ["game_id", "format", "version"])


def upgrade() -> None:
    op.drop_table("snapshots")
    _snapshots(
        sa.Column("key_id", sa.String(64), nullable=True),
        sa.Column("mac", sa.String(64), nullable=True),
    )


def downgrade() -> None:
    op.drop_table("snapshots")
    _snapshots()
