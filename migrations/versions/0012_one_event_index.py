"""The events' second index on (game_id, version) goes: the unique constraint on the same pair
already keeps one, which every read of a game's records uses, so each append updated two
identical indexes.

Revision ID: 0012
Revises: 0011
Create Date: 2026-11-29
"""

from __future__ import annotations

from alembic import op

revision = "0012"
down_revision = "0011"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.drop_index("ix_event_records_game_version", table_name="event_records")


def downgrade() -> None:
    op.create_index("ix_event_records_game_version", "event_records", ["game_id", "version"])
