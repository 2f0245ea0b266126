"""The event log: table event_records, its unique (game_id, version) lock, the append-only
triggers, and on PostgreSQL the trigger handing out positions in commit order.

On SQLite this is exactly the schema the store created before migrations existed, so such
a database is stamped at this revision rather than migrated (server/store/migrate.py).

Revision ID: 0001
Revises:
Create Date: 2026-11-22
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None

# A revision is a snapshot: its SQL is written out here, never imported from the store.
SQLITE_GUARDS = tuple(
    f"CREATE TRIGGER IF NOT EXISTS event_records_no_{action.lower()} "
    f"BEFORE {action} ON event_records "
    "BEGIN SELECT RAISE(ABORT, 'event records are append-only'); END"
    for action in ("UPDATE", "DELETE")
)
POSTGRESQL_GUARDS = (
    "CREATE OR REPLACE FUNCTION event_records_append_only() RETURNS trigger "
    "LANGUAGE plpgsql AS $$ BEGIN "
    "RAISE EXCEPTION 'event records are append-only'; "
    "END $$",
    *(
        f"CREATE OR REPLACE TRIGGER event_records_no_{action.lower()} "
        f"BEFORE {action} ON event_records FOR EACH {each} "
        "EXECUTE FUNCTION event_records_append_only()"
        for action, each in (("UPDATE", "ROW"), ("DELETE", "ROW"), ("TRUNCATE", "STATEMENT"))
    ),
    "CREATE OR REPLACE FUNCTION event_records_commit_order() RETURNS trigger "
    "LANGUAGE plpgsql AS $$ BEGIN "
    # server.store.postgres.LOCK_KEY: positions are drawn in commit order (see its docstring).
    "PERFORM pg_advisory_xact_lock(7160429001); RETURN NULL; "
    "END $$",
    "CREATE OR REPLACE TRIGGER event_records_commit_order "
    "BEFORE INSERT ON event_records FOR EACH STATEMENT "
    "EXECUTE FUNCTION event_records_commit_order()",
)
POSTGRESQL_DROPS = (
    "DROP FUNCTION IF EXISTS event_records_append_only() CASCADE",
    "DROP FUNCTION IF EXISTS event_records_commit_order() CASCADE",
)


def upgrade() -> None:
    op.create_table(
        "event_records",
        sa.Column(
            "position",
            sa.BigInteger().with_variant(sa.Integer(), "sqlite"),
            primary_key=True,
            autoincrement=True,
        ),
        sa.Column("game_id", sa.String(64), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("type", sa.String(64), nullable=False),
        sa.Column("schema_version", sa.Integer(), nullable=False),
        sa.Column("recorded_at", sa.String(40), nullable=False),
        sa.Column("seat", sa.Integer(), nullable=True),
        sa.Column("data", sa.Text(), nullable=False),
        sa.Column("private", sa.Text(), nullable=True),
        sa.Column("private_sha256", sa.String(64), nullable=False),
        sa.Column("hash", sa.String(64), nullable=False),
        sa.UniqueConstraint("game_id", "version", name="uq_event_records_game_version"),
    )
    op.create_index("ix_event_records_game_version", "event_records", ["game_id", "version"])
    for statement in _guards():
        op.execute(statement)


def downgrade() -> None:
    op.drop_table("event_records")  # its triggers go with it
    if op.get_context().dialect.name == "postgresql":
        for statement in POSTGRESQL_DROPS:
            op.execute(statement)


def _guards() -> tuple[str, ...]:
    dialect = op.get_context().dialect.name
    if dialect == "sqlite":
        return SQLITE_GUARDS
    if dialect == "postgresql":
        return POSTGRESQL_GUARDS
    raise RuntimeError(f"The event store runs on SQLite or PostgreSQL, not on {dialect}.")
