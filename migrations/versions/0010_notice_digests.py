"""What a game's webhook is told (`game_webhooks.digest`: every move, step summaries or results
only) and the line a post of the game's notices opens with (`outbox.lead`, the game's name):
several notices of a game that arrive within a few seconds go out as one post under it.

Revision ID: 0010
Revises: 0009
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("game_webhooks") as table:
        table.add_column(sa.Column("digest", sa.String(16), nullable=False, server_default="steps"))
    with op.batch_alter_table("outbox") as table:
        table.add_column(sa.Column("lead", sa.Text(), nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("outbox") as table:
        table.drop_column("lead")
    with op.batch_alter_table("game_webhooks") as table:
        table.drop_column("digest")
