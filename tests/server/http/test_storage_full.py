"""A full disk, and any other failure of the database, answers 503 with a code and a sentence,
over HTTP and in a Socket.IO ack, never a 500 or a traceback; nothing is recorded, /healthz
says so, and the next command once space is freed is recorded.

The disk is filled for real as SQLite sees it: `PRAGMA max_page_count` caps the database at
its current size on every connection, and SQLite refuses the write that needs another page
with SQLITE_FULL ("database or disk is full"), as it does when the disk itself is full.
"""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient
from sqlalchemy import event

from app import create_app
from tests.server.http.court_client import Game, error_body, lobby_game, start
from tests.server.live.live import connect, pushed, send

GOLD = {"house": "tyrell", "amount": 1, "cause": "tax"}
FULL = "The server's disk is full, so nothing was recorded; try again once space is freed."


class Disk:
    """Every connection the store opens, to cap the database's size on each (or lift it)."""

    def __init__(self, app: Flask) -> None:
        self.connections: list[Any] = []
        engine = app.extensions["court_store"].engine
        event.listen(engine, "connect", self._opened)
        engine.dispose()  # the connections the migrations opened: the next are seen opening

    def _opened(self, dbapi_conn: Any, _record: Any) -> None:
        self.connections.append(dbapi_conn)

    def fill(self) -> None:
        for conn in self.connections:
            pages = conn.execute("PRAGMA page_count").fetchone()[0]
            conn.execute(f"PRAGMA max_page_count={pages}")

    def free(self) -> None:
        for conn in self.connections:
            conn.execute("PRAGMA max_page_count=1073741823")


@pytest.fixture
def full(tmp_path: Path) -> Iterator[tuple[Flask, Disk]]:
    app = create_app({"DATABASE_URL": f"sqlite:///{tmp_path}/full.db", "DEADLINES": False})
    disk = Disk(app)
    yield app, disk
    app.extensions["court_store"].close()


def head(client: FlaskClient, game: Game) -> tuple[int, str]:
    verified = client.get(f"/api/games/{game.id}/verify").get_json()
    assert verified["ok"] is True
    return verified["records"], verified["head"]


def until_refused(client: FlaskClient, game: Game) -> Any:
    """Record gold until the database refuses a command (the last pages fill first)."""
    for _ in range(200):
        before = head(client, game)
        answer = client.post(
            f"/api/games/{game.id}/commands/record_gold", json=GOLD, headers=game.host
        )
        if answer.status_code != 200:
            assert head(client, game) == before  # the refused append left no trace
            return answer
    raise AssertionError("the capped database never filled")


def test_a_full_disk_answers_503_storage_full_and_records_nothing(full, caplog) -> None:
    """Given a started game whose database is full, when a command is sent over HTTP, then it
    is answered 503 storage_full with a sentence (no traceback) and the log stays as it was;
    /healthz answers 503 too, until space is freed and the next command is recorded."""
    app, disk = full
    client = app.test_client()
    game = lobby_game(client)
    start(client, game)
    disk.fill()

    answer = until_refused(client, game)

    body = error_body(answer, 503, "storage_full")
    assert body == {"code": "storage_full", "message": FULL}
    assert b"Traceback" not in answer.data
    assert "Traceback" not in caplog.text  # a full disk is no defect: one line, no trace
    health = error_body(client.get("/healthz"), 503, "storage_full")
    assert health["database"] == "sqlite"

    disk.free()
    before = head(client, game)
    again = client.post(f"/api/games/{game.id}/commands/record_gold", json=GOLD, headers=game.host)
    assert again.status_code == 200, again.get_json()
    assert head(client, game)[0] == again.get_json()["version"] > before[0]
    assert client.get("/healthz").get_json()["status"] == "ok"


def test_a_full_disk_answers_the_socket_ack_storage_full(full) -> None:
    """Given a seat connected over Socket.IO and a full database, when it sends commands, then
    the ack says storage_full with the sentence and no record is pushed; once space is freed
    the same command is recorded and acked."""
    app, disk = full
    client = app.test_client()
    game = lobby_game(client)
    start(client, game)
    host = connect(app, game, game.host_token)
    host.get_received("/court")
    disk.fill()

    for _ in range(30):  # within the connection's burst allowance
        before = head(client, game)
        ack = send(host, "record_gold", GOLD)
        if not ack["ok"]:
            break
    assert ack == {"ok": False, "code": "storage_full", "message": FULL}
    assert head(client, game) == before
    assert all(r["version"] <= before[0] for r in pushed(host))

    disk.free()
    ack = send(host, "record_gold", GOLD)
    assert ack["ok"] is True and head(client, game)[0] == ack["version"] > before[0]


def test_a_constraint_the_database_refuses_is_no_lost_race(full) -> None:
    """Given a database that refuses every new record with a constraint of its own (not the
    unique version), when a command is sent, then it is answered 503 database_unavailable at
    once, not retried as if another writer had taken the version and answered 409 busy."""
    app, _ = full
    client = app.test_client()
    game = lobby_game(client)
    with app.extensions["court_store"].engine.begin() as conn:
        conn.exec_driver_sql(
            "CREATE TRIGGER refuse BEFORE INSERT ON event_records "
            "BEGIN SELECT RAISE(ABORT, 'refused by the database'); END"
        )

    answer = client.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host)

    error_body(answer, 503, "database_unavailable")
    error_body(client.get("/healthz"), 503, "database_unavailable")
