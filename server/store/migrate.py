"""Schema migrations through Alembic (migrations/): upgrade a database to the newest revision,
or say which revision it stands at. The server upgrades at start-up (SqlEventStore.create_schema);
`alembic upgrade head` in the repository root does the same without starting it. Both run
migrations/env.py, which takes `exclusive` and `adopt_legacy` from here.

A SQLite database the store created before migrations existed holds exactly revision 0001
without Alembic's version table; it is stamped at 0001 and then upgraded like any other. The
store did not run on PostgreSQL then, so there such a table was made by something else, and
is refused.
"""

from __future__ import annotations

import threading
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

from alembic import command
from alembic.config import Config
from alembic.runtime.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import Connection, inspect, text
from sqlalchemy.engine import Engine

ROOT = Path(__file__).resolve().parents[2]
FIRST = "0001"
# Several servers starting together on one PostgreSQL database migrate it one at a time.
MIGRATION_LOCK_KEY = 7_160_429_002
# Alembic keeps the running migration's context in a module global: one thread at a time.
_IN_PROCESS = threading.Lock()


class SchemaError(RuntimeError):
    """The database holds a schema the migrations cannot take over."""


def config(connection: Connection | None = None) -> Config:
    cfg = Config(str(ROOT / "alembic.ini"))
    cfg.set_main_option("script_location", str(ROOT / "migrations"))
    if connection is not None:
        cfg.attributes["connection"] = connection
    return cfg


@cache
def head() -> str:
    """The newest revision in migrations/versions (read once: they do not change while the
    process runs)."""
    revision = ScriptDirectory.from_config(config()).get_current_head()
    if revision is None:
        raise RuntimeError("migrations/versions holds no revision")
    return revision


def current(engine: Engine) -> str | None:
    """The revision the database stands at (None: not migrated, or empty)."""
    with engine.connect() as conn:
        return MigrationContext.configure(conn).get_current_revision()


def upgrade(engine: Engine, revision: str = "head") -> str | None:
    """Bring the database up to `revision`; return the revision it stands at after. A database
    already at the newest revision is left alone without running Alembic's environment, which
    costs more than the look at its version table."""
    if revision == "head" and (found := current(engine)) == head():
        return found
    with _IN_PROCESS, engine.connect() as conn:
        command.upgrade(config(conn), revision)
    return current(engine)


def downgrade(engine: Engine, revision: str) -> str | None:
    """Take the database back to `revision` ("base" drops the log: for tests, not for games)."""
    with _IN_PROCESS, engine.connect() as conn:
        command.downgrade(config(conn), revision)
    return current(engine)


@contextmanager
def exclusive(conn: Connection) -> Iterator[None]:
    """Run a migration alone, and commit it: on PostgreSQL under a session advisory lock, so
    that servers starting together wait for the first one's migration instead of racing it."""
    locked = conn.dialect.name == "postgresql"
    if locked:
        conn.execute(text("SELECT pg_advisory_lock(:key)"), {"key": MIGRATION_LOCK_KEY})
        conn.commit()
    try:
        yield
        if conn.in_transaction():
            conn.commit()
    finally:
        if conn.in_transaction():
            conn.rollback()
        if locked:
            conn.execute(text("SELECT pg_advisory_unlock(:key)"), {"key": MIGRATION_LOCK_KEY})
            conn.commit()


def adopt_legacy(conn: Connection, context: MigrationContext, script: ScriptDirectory) -> None:
    """Stamp a SQLite log made before migrations at revision 0001; refuse anything else
    that holds event_records without Alembic's version table."""
    tables = set(inspect(conn).get_table_names())
    if "event_records" not in tables or "alembic_version" in tables:
        return
    if conn.dialect.name != "sqlite":
        raise SchemaError(
            "The database has an event_records table that the migrations did not make; "
            "use an empty database (see docs/deployment.md)."
        )
    context.stamp(script, FIRST)
