"""The schema comes from the Alembic migrations, on SQLite and PostgreSQL: it is the schema the
model describes (the store's statements are compiled from the model), the server builds it at
start-up, and a SQLite log made before migrations existed is taken over unchanged."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
from alembic.autogenerate import compare_metadata
from alembic.runtime.migration import MigrationContext
from sqlalchemy import Connection, inspect, text
from sqlmodel import SQLModel

from app import create_app
from server.store import migrate
from server.store.mail import MAIL_OUTBOX, SEAT_MAIL, MailStore
from server.store.notices import OUTBOX, WEBHOOKS
from server.store.postgres import LOCK_KEY
from server.store.seat_keys import SEAT_KEYS
from server.store.sends import SENDS
from server.store.snapshots import SNAPSHOTS
from server.store.sql import TABLE, SqlEventStore, database_url, make_engine
from server.store.talk import TALK_LINES, TALK_SIGNATURES
from tests.server.store.conftest import NewDatabase
from tests.server.store.records import chain
from tests.services import PostgresServer

# The schema on SQLite and PostgreSQL, and the URLs that reach them.
pytestmark = pytest.mark.sql

ROOT = Path(__file__).resolve().parents[3]
# What the store ran on SQLite before migrations existed, besides creating the model's table.
SECOND_INDEX = "ix_event_records_game_version"
LEGACY_SQLITE_TRIGGERS = tuple(
    f"CREATE TRIGGER IF NOT EXISTS event_records_no_{action.lower()} "
    f"BEFORE {action} ON event_records "
    "BEGIN SELECT RAISE(ABORT, 'event records are append-only'); END"
    for action in ("UPDATE", "DELETE")
)
# The talk lines' guards (migrations/versions/0004_*), as SQLite states them.
TALK_SQLITE_TRIGGERS = tuple(
    f"CREATE TRIGGER IF NOT EXISTS talk_lines_no_{action.lower()} "
    f"BEFORE {action} ON talk_lines "
    "BEGIN SELECT RAISE(ABORT, 'talk lines are append-only'); END"
    for action in ("UPDATE", "DELETE")
)
TRIGGERS = {
    "sqlite": {
        "event_records_no_update",
        "event_records_no_delete",
        "talk_lines_no_update",
        "talk_lines_no_delete",
    },
    "postgresql": {
        "event_records_no_update",
        "event_records_no_delete",
        "event_records_no_truncate",
        "event_records_commit_order",
        "talk_lines_no_update",
        "talk_lines_no_delete",
        "talk_lines_no_truncate",
        "talk_lines_commit_order",
    },
}


def schema(conn: Connection) -> list[tuple[str, ...]]:
    """Every table, column, index, constraint and trigger as the database itself states them."""
    if conn.dialect.name == "sqlite":
        rows = conn.exec_driver_sql(
            "SELECT type, name, tbl_name, coalesce(sql, '') FROM sqlite_master "
            "WHERE tbl_name != 'alembic_version' ORDER BY type, name"
        )
        return [tuple(r) for r in rows]
    queries = (
        "SELECT table_name, column_name, data_type, is_nullable, coalesce(column_default, '') "
        "FROM information_schema.columns WHERE table_schema = 'public' "
        "AND table_name != 'alembic_version' ORDER BY 1, 2",
        "SELECT tablename, indexname, indexdef FROM pg_indexes WHERE schemaname = 'public' "
        "AND tablename != 'alembic_version' ORDER BY 2",
        "SELECT conrelid::regclass::text, conname, pg_get_constraintdef(oid) FROM pg_constraint "
        "WHERE connamespace = 'public'::regnamespace AND conrelid::regclass::text != "
        "'alembic_version' ORDER BY 2",
        "SELECT tgname, pg_get_triggerdef(oid) FROM pg_trigger WHERE NOT tgisinternal ORDER BY 1",
        "SELECT proname, prosrc FROM pg_proc WHERE pronamespace = 'public'::regnamespace "
        "ORDER BY 1",
    )
    return [tuple(r) for q in queries for r in conn.exec_driver_sql(q)]


def triggers(conn: Connection) -> set[str]:
    if conn.dialect.name == "sqlite":
        query = "SELECT name FROM sqlite_master WHERE type = 'trigger'"
    else:
        query = "SELECT tgname FROM pg_trigger WHERE NOT tgisinternal"
    return {name for (name,) in conn.exec_driver_sql(query)}


@pytest.fixture
def migrated(new_database: NewDatabase):
    store = SqlEventStore(new_database())
    store.create_schema()
    yield store
    store.close()


def test_the_migrations_build_the_schema_the_model_describes(migrated: SqlEventStore) -> None:
    with migrated.engine.connect() as conn:
        context = MigrationContext.configure(
            conn, opts={"compare_type": True, "compare_server_default": True}
        )
        assert compare_metadata(context, SQLModel.metadata) == []
        assert triggers(conn) == TRIGGERS[conn.dialect.name]
    assert migrate.current(migrated.engine) == migrate.head()


def test_the_migrated_schema_equals_the_one_the_model_creates(
    migrated: SqlEventStore, new_database: NewDatabase
) -> None:
    """Table, columns, defaults, indexes and constraints exactly as the model creates them. On
    SQLite the triggers too, as the store made them before migrations; PostgreSQL's triggers
    and functions exist only in the migration (their names are checked above, and what they
    do by tests/server/store/test_store.py and test_concurrency.py)."""
    reference = make_engine(new_database())
    try:
        SQLModel.metadata.create_all(
            reference,
            tables=[
                TABLE,
                SNAPSHOTS,
                WEBHOOKS,
                OUTBOX,
                TALK_LINES,
                TALK_SIGNATURES,
                SEAT_MAIL,
                MAIL_OUTBOX,
                SEAT_KEYS,
                SENDS,
            ],
        )
        with reference.begin() as conn:
            if conn.dialect.name == "sqlite":
                for statement in LEGACY_SQLITE_TRIGGERS + TALK_SQLITE_TRIGGERS:
                    conn.exec_driver_sql(statement)
            expected = schema(conn)
        with migrated.engine.connect() as conn:
            made = schema(conn)
        if reference.dialect.name == "postgresql":
            only_migrated = TRIGGERS["postgresql"] | {
                "event_records_append_only",
                "event_records_commit_order",
                "talk_lines_append_only",
                "talk_lines_commit_order",
            }
            assert {r[0] for r in made if r[0] in only_migrated} == only_migrated
            made = [r for r in made if r[0] not in only_migrated]
        assert len(expected) >= 5 and made == expected
    finally:
        reference.dispose()


def test_upgrading_a_migrated_database_again_changes_nothing(migrated: SqlEventStore) -> None:
    migrated.append(chain("g", 3), 0)
    with migrated.engine.connect() as conn:
        before = schema(conn)
    assert migrate.upgrade(migrated.engine) == migrate.head()
    with migrated.engine.connect() as conn:
        assert schema(conn) == before
    assert [r.version for r in migrated.read("g")] == [1, 2, 3]


def test_downgrading_to_base_removes_the_schema_and_upgrading_builds_it_again(
    migrated: SqlEventStore,
) -> None:
    with migrated.engine.connect() as conn:
        before = schema(conn)
    assert migrate.downgrade(migrated.engine, "base") is None
    with migrated.engine.connect() as conn:
        assert inspect(conn).get_table_names() == ["alembic_version"]
        assert [r for r in schema(conn) if r[0] != "alembic_version"] == []
    assert migrate.upgrade(migrated.engine) == migrate.head()
    with migrated.engine.connect() as conn:
        assert schema(conn) == before


def test_a_sqlite_log_from_before_migrations_is_taken_over_unchanged(tmp_path: Path) -> None:
    legacy = make_engine(f"sqlite:///{tmp_path}/legacy.db")
    SQLModel.metadata.create_all(legacy, tables=[TABLE])
    with legacy.begin() as conn:
        # The store made a second index on the unique pair then, which revision 0012 drops.
        conn.exec_driver_sql(f"CREATE INDEX {SECOND_INDEX} ON event_records (game_id, version)")
        for statement in LEGACY_SQLITE_TRIGGERS:
            conn.exec_driver_sql(statement)
        before = schema(conn)
    legacy.dispose()
    store = SqlEventStore(f"sqlite:///{tmp_path}/legacy.db")
    try:
        store.append(chain("g", 2), 0)
        store.create_schema()
        assert migrate.current(store.engine) == migrate.head()
        with store.engine.connect() as conn:
            # the log's table and triggers as they were, less the second index; later
            # revisions otherwise only add tables
            made = schema(conn)
            kept = [row for row in before if row[1] != SECOND_INDEX]
            assert len(kept) == len(before) - 1
            assert [row for row in made if row[2] == "event_records"] == kept
            assert {row[2] for row in made} == {
                "event_records",
                "snapshots",
                "game_webhooks",
                "outbox",
                "talk_lines",
                "talk_signatures",
                "seat_mail",
                "mail_outbox",
                "seat_keys",
                "sends",
            }
        assert [r.version for r in store.read("g")] == [1, 2]
    finally:
        store.close()


def test_an_address_given_before_links_named_public_url_alone_is_kept(
    new_database: NewDatabase,
) -> None:
    """Revision 0010 drops the page each address was given on (its Host header's), and keeps
    the address, its seat and whether it was verified."""
    engine = make_engine(new_database())
    try:
        migrate.upgrade(engine, "0009")
        row = {"game_id": "g", "seat": 1, "token_sha256": "t" * 64, "address": "ann@example.org"}
        page = {"page": "http://login-court.evil.example/games/g", "set_at": 5, "verified_at": 6}
        with engine.begin() as conn:
            conn.execute(
                text(
                    "INSERT INTO seat_mail (game_id, seat, token_sha256, address, page, set_at, "
                    "verified_at) VALUES (:game_id, :seat, :token_sha256, :address, :page, "
                    ":set_at, :verified_at)"
                ),
                {**row, **page},
            )

        migrate.upgrade(engine)

        kept = MailStore(engine).seat_mail("g", 1)
        assert kept is not None and (kept.address, kept.verified) == (row["address"], True)
        with engine.connect() as conn:
            assert "page" not in {c["name"] for c in inspect(conn).get_columns("seat_mail")}
    finally:
        engine.dispose()


def test_a_postgresql_table_the_migrations_did_not_make_is_refused(
    postgres: PostgresServer,
) -> None:
    engine = make_engine(postgres.new_database())
    try:
        SQLModel.metadata.create_all(engine, tables=[TABLE])
        with pytest.raises(migrate.SchemaError, match="did not make"):
            migrate.upgrade(engine)
        assert migrate.current(engine) is None
    finally:
        engine.dispose()


def test_servers_starting_together_on_postgresql_migrate_it_once(
    postgres: PostgresServer,
) -> None:
    """Four processes upgrade one empty database at the same moment; each waits its turn."""
    url = postgres.new_database()
    env = {**os.environ, "DATABASE_URL": url}
    command = [sys.executable, "-m", "alembic", "upgrade", "head"]
    processes = [
        subprocess.Popen(command, cwd=ROOT, env=env, stderr=subprocess.PIPE, text=True)
        for _ in range(4)
    ]
    outcomes = [(p.wait(timeout=120), p.stderr.read() if p.stderr else "") for p in processes]
    assert [code for code, _ in outcomes] == [0] * 4, outcomes
    engine = make_engine(url)
    try:
        with engine.connect() as conn:
            assert conn.execute(text("SELECT version_num FROM alembic_version")).all() == [
                (migrate.head(),)
            ]
    finally:
        engine.dispose()


def test_the_server_starts_on_an_empty_database_and_serves_games(
    new_database: NewDatabase,
) -> None:
    url = new_database()
    app = create_app({"DATABASE_URL": url, "DEADLINES": False})
    try:
        client = app.test_client()
        health = client.get("/healthz").get_json()
        assert health["database"] == ("sqlite" if url.startswith("sqlite") else "postgresql")
        created = client.post("/api/games", json={"players": 3, "host_name": "Ann"})
        assert created.status_code == 201
        game = created.get_json()["game_id"]
        assert client.get(f"/api/games/{game}/verify").get_json()["ok"] is True
    finally:
        app.extensions["court_store"].close()
    engine = make_engine(url)
    try:
        assert migrate.current(engine) == migrate.head()
    finally:
        engine.dispose()


def alembic(*args: str, url: str) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DATABASE_URL": url}
    return subprocess.run(
        [sys.executable, "-m", "alembic", *args],
        cwd=ROOT,
        env=env,
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_alembic_command_migrates_the_database_named_by_database_url(
    new_database: NewDatabase,
) -> None:
    url = new_database()
    assert alembic("upgrade", "head", url=url).returncode == 0
    current = alembic("current", url=url)
    assert current.returncode == 0 and f"{migrate.head()} (head)" in current.stdout
    store = SqlEventStore(url)
    try:
        store.append(chain("g", 1), 0)
        assert [r.version for r in store.read("g")] == [1]
    finally:
        store.close()


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("sqlite:///unused.db", "RAISE(ABORT, 'event records are append-only')"),
        ("postgresql://nobody@127.0.0.1:1/unused", f"pg_advisory_xact_lock({LOCK_KEY})"),
    ],
    ids=["sqlite", "postgresql"],
)
def test_the_migration_sql_can_be_printed_for_review(url: str, expected: str) -> None:
    """`alembic upgrade head --sql` needs no database; it shows the SQL a DBA would run."""
    printed = alembic("upgrade", "head", "--sql", url=url)
    assert printed.returncode == 0, printed.stderr
    assert "CREATE TABLE event_records" in printed.stdout and expected in printed.stdout


@pytest.mark.parametrize(
    ("url", "expected"),
    [
        ("postgresql://u:p@db:5432/court", "postgresql+psycopg://u:p@db:5432/court"),
        ("postgres://u@db/court", "postgresql+psycopg://u@db/court"),
        ("postgresql+psycopg://u@db/court", "postgresql+psycopg://u@db/court"),
        ("sqlite:///instance/x.db", "sqlite:///instance/x.db"),
    ],
)
def test_postgresql_urls_always_use_psycopg(url: str, expected: str) -> None:
    assert database_url(url) == expected


@pytest.mark.parametrize("url", ["mysql://u@db/court", "postgresql+psycopg2://u@db/court"])
def test_other_databases_are_refused_with_the_reason(url: str) -> None:
    with pytest.raises(ValueError, match="sqlite:/// or postgresql"):
        database_url(url)


def test_a_server_role_without_ddl_rights_starts_on_a_migrated_database(
    postgres: PostgresServer,
) -> None:
    """The grants docs/deployment.md names are all a server needs once the schema is there."""
    url = postgres.new_database()
    dbname = url.rsplit("/", 1)[1]
    owner = SqlEventStore(url)
    owner.create_schema()
    owner.close()
    role = f"server_{dbname}"
    with postgres.connect(dbname, autocommit=True) as conn:
        conn.execute(f"CREATE ROLE {role} LOGIN")
        conn.execute(f"GRANT SELECT, INSERT ON event_records TO {role}")
        conn.execute(f"GRANT USAGE ON SEQUENCE event_records_position_seq TO {role}")
        conn.execute(f"GRANT SELECT ON alembic_version TO {role}")
        conn.execute(f"GRANT SELECT, INSERT, UPDATE ON snapshots TO {role}")
        conn.execute(f"GRANT SELECT, INSERT, UPDATE, DELETE ON game_webhooks, outbox TO {role}")
        conn.execute(f"GRANT USAGE ON SEQUENCE outbox_id_seq TO {role}")
    app = create_app({"DATABASE_URL": url.replace("//court@", f"//{role}@"), "DEADLINES": False})
    try:
        client = app.test_client()
        created = client.post("/api/games", json={"players": 3, "host_name": "Ann"})
        assert created.status_code == 201
        game = created.get_json()["game_id"]
        assert client.get(f"/api/games/{game}/verify").get_json()["ok"] is True
        store = app.extensions["court_store"]
        with store.engine.connect() as conn, pytest.raises(Exception, match="permission denied"):
            conn.exec_driver_sql("CREATE TABLE intruder (x int)")
    finally:
        app.extensions["court_store"].close()
