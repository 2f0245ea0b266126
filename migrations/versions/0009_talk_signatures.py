"""The server's signature of each talk line's hash (server/store/talk.py, server/service/talk.py),
by
the line's position: a line rewritten in the database, its channel's chain recomputed, carries
no signature of the server's key. Lines said before have none: the first lines of a channel may
be unsigned, and are counted as such by its check (GET /api/games/<id>/talk/verify).

Revision ID: 0009
Revises: 0008
Create Date: 2026-11-28
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "talk_signatures",
        sa.Column(
            "position",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=False,
        ),
        sa.Column("signature", sa.Text(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("talk_signatures")
