"""The connections a server process keeps for reads (DATABASE_POOL_SIZE) and how long a
request waits for one (DATABASE_POOL_TIMEOUT): a request that finds every one of them busy
for that long is refused with `database_unavailable`, and passes once one is free."""

from __future__ import annotations

import time
from pathlib import Path

import pytest

from app import create_app
from tests.databases import migrated
from tests.server.http.court_client import error_body, lobby_game

# Each test opens a SQLite file of its own.
pytestmark = pytest.mark.sql

WAIT = 0.5  # seconds a request waits for a connection in this test


def test_a_request_that_finds_every_connection_busy_is_refused_after_the_pool_timeout(
    tmp_path: Path,
) -> None:
    # Given a server whose pool keeps one connection (and one more while it is busy)
    settings = {"DATABASE_POOL_SIZE": "1", "DATABASE_POOL_TIMEOUT": str(WAIT), "DEADLINES": False}
    app = create_app({"DATABASE_URL": migrated(tmp_path / "court.db"), **settings})
    client = app.test_client()
    game = lobby_game(client)
    pool = app.extensions["court_store"].engine.pool
    assert (pool.size(), pool.timeout()) == (1, WAIT)
    # And every connection it may open is taken (the store's writer keeps one of them)
    held = [pool.connect() for _ in range(2 - pool.checkedout())]
    try:
        # When a player asks for the game
        began = time.monotonic()
        refused = client.get(f"/api/games/{game.id}")
        waited = time.monotonic() - began
        # Then he is refused with a code he can act on, once the pool's timeout passed
        error_body(refused, 503, "database_unavailable")
        assert WAIT <= waited < 10 * WAIT
    finally:
        for conn in held:
            conn.close()
    # And once a connection is free again, the same request passes
    assert client.get(f"/api/games/{game.id}").status_code == 200
    app.extensions["court_store"].close()
