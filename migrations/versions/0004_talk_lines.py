"""Table talk and whispers (server/store/talk.py): table talk_lines, its unique (game_id,
channel, number) lock, the append-only triggers, and on PostgreSQL the trigger handing out
positions in commit order.

Revision ID: 0004
Revises: 0003
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

# A revision is a snapshot: its SQL is written out here, never imported from the store.
SQLITE_GUARDS = tuple(
    f"CREATE TRIGGER IF NOT EXISTS talk_lines_no_{action.lower()} "
    f"BEFORE {action} ON talk_lines "
    "BEGIN SELECT RAISE(ABORT, 'talk lines are append-only'); END"
    for action in ("UPDATE", "DELETE")
)
POSTGRESQL_GUARDS = (
    "CREATE OR REPLACE FUNCTION talk_lines_append_only() RETURNS trigger "
    "LANGUAGE plpgsql AS $$ BEGIN "
    "RAISE EXCEPTION 'talk lines are append-only'; "
    "END $$",
    *(
        f"CREATE OR REPLACE TRIGGER talk_lines_no_{action.lower()} "
        f"BEFORE {action} ON talk_lines FOR EACH {each} "
        "EXECUTE FUNCTION talk_lines_append_only()"
        for action, each in (("UPDATE", "ROW"), ("DELETE", "ROW"), ("TRUNCATE", "STATEMENT"))
    ),
    "CREATE OR REPLACE FUNCTION talk_lines_commit_order() RETURNS trigger "
    "LANGUAGE plpgsql AS $$ BEGIN "
    # Positions are drawn in commit order, as event_records' are (server/store/postgres.py),
    # under a key of their own.
    "PERFORM pg_advisory_xact_lock(7160429004); RETURN NULL; "
    "END $$",
    "CREATE OR REPLACE TRIGGER talk_lines_commit_order "
    "BEFORE INSERT ON talk_lines FOR EACH STATEMENT "
    "EXECUTE FUNCTION talk_lines_commit_order()",
)
POSTGRESQL_DROPS = (
    "DROP FUNCTION IF EXISTS talk_lines_append_only() CASCADE",
    "DROP FUNCTION IF EXISTS talk_lines_commit_order() CASCADE",
)


def upgrade() -> None:
    op.create_table(
        "talk_lines",
        sa.Column(
            "position",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("channel", sa.String(64), nullable=False),
        sa.Column("number", sa.Integer(), nullable=False),
        sa.Column("court_version", sa.Integer(), nullable=False),
        sa.Column("sender", sa.String(16), nullable=False),
        sa.Column("recipients", sa.Text(), nullable=False),
        sa.Column("said_at", sa.String(40), nullable=False),
        sa.Column("text", sa.Text(), nullable=False),
        sa.Column("prev_hash", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("game_id", "channel", "number", name="uq_talk_lines_channel_number"),
    )
    op.create_index("ix_talk_lines_game_position", "talk_lines", ["game_id", "position"])
    for statement in _guards():
        op.execute(statement)


def downgrade() -> None:
    op.drop_table("talk_lines")  # its triggers go with it
    if op.get_context().dialect.name == "postgresql":
        for statement in POSTGRESQL_DROPS:
            op.execute(statement)


def _guards() -> tuple[str, ...]:
    dialect = op.get_context().dialect.name
    if dialect == "sqlite":
        return SQLITE_GUARDS
    if dialect == "postgresql":
        return POSTGRESQL_GUARDS
    raise RuntimeError(f"The talk store runs on SQLite or PostgreSQL, not on {dialect}.")
