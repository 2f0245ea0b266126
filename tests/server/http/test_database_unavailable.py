"""A database that cannot be reached answers 503 `database_unavailable` over HTTP and the same
code in a Socket.IO ack, never a 500; the server serves again once the database is back."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from app import create_app
from tests.server.http.court_client import error_body, lobby_game, start
from tests.server.live.live import connect, send
from tests.services import PostgresServer


@pytest.fixture
def pg_app(postgres: PostgresServer) -> Iterator[tuple[Flask, PostgresServer, str]]:
    url = postgres.new_database("down")
    app = create_app({"DATABASE_URL": url, "DEADLINES": False})
    yield app, postgres, url.rsplit("/", 1)[1]
    app.extensions["court_store"].close()


def test_requests_get_503_while_the_database_is_gone(pg_app) -> None:
    app, postgres, name = pg_app
    client = app.test_client()
    game = lobby_game(client)
    start(client, game)
    host = connect(app, game, game.host_token)
    with postgres.connect(autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS false')
        conn.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = %s", (name,)
        )

    error_body(client.get(f"/api/games/{game.id}"), 503, "database_unavailable")
    error_body(client.get("/healthz"), 503, "database_unavailable")
    village = {"village": "winterfell", "house": "tyrell", "cause": "siege"}
    answer = client.post(
        f"/api/games/{game.id}/commands/record_village", json=village, headers=game.host
    )
    error_body(answer, 503, "database_unavailable")
    gold = {"house": "tyrell", "amount": 1, "cause": "tax"}
    assert send(host, "record_gold", gold) == {
        "ok": False,
        "code": "database_unavailable",
        "message": "The game's database cannot be reached; try again soon.",
    }

    with postgres.connect(autocommit=True) as conn:
        conn.execute(f'ALTER DATABASE "{name}" ALLOW_CONNECTIONS true')
    assert client.get(f"/api/games/{game.id}").status_code == 200
    assert send(host, "record_gold", gold)["ok"] is True


def test_every_operation_documents_its_503() -> None:
    """The OpenAPI document declares the 503 answer wherever the database is read."""
    app = create_app({"DATABASE_URL": "sqlite://", "DEADLINES": False})
    try:
        doc = app.test_client().get("/openapi.json").get_json()
    finally:
        app.extensions["court_store"].close()
    missing = [
        f"{method.upper()} {path}"
        for path, item in doc["paths"].items()
        for method, operation in item.items()
        if "503" not in operation["responses"]
    ]
    assert missing == []
