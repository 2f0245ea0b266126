"""A database outage as the server lives it: PostgreSQL stops for a moment and starts again on
its port. Every request meanwhile is refused with 503 `database_unavailable` (a Socket.IO
message with the same code), and the log says once that the database is unavailable and once
that it is back, with how long it was away: no line, no traceback per request."""

from __future__ import annotations

import logging
import time
from dataclasses import replace

import pytest

from app import create_app
from config.rulesdata import load_ruleset
from court.commands import Actor, CreateGame
from server.live.sockets import NAMESPACE
from server.service.court_service import CourtService
from server.store.failures import DATABASE_ERRORS
from server.store.sql import SqlEventStore
from tests.server.http.court_client import error_body, lobby_game, start
from tests.server.live.live import NORTH, connect
from tests.services import PostgresServer

# A PostgreSQL server of the module's own, stopped and started again.
pytestmark = pytest.mark.sql

BACK_SECONDS = 30.0


def test_a_database_outage_logs_one_line_when_it_starts_and_one_when_it_ends(
    own_postgres: PostgresServer, caplog: pytest.LogCaptureFixture
) -> None:
    app = create_app({"DATABASE_URL": own_postgres.new_database("outage"), "DEADLINES": False})
    client = app.test_client()
    game = lobby_game(client)
    game = replace(game, started=start(client, game))
    seat = connect(app, game, game.tokens["lannister"])
    caplog.set_level(logging.INFO, logger="small_council")
    # Given the database stops
    own_postgres.stop()
    try:
        # When players keep asking, over HTTP and Socket.IO
        answers = [client.get(f"/api/games/{game.id}") for _ in range(5)]
        village = {"village": NORTH[0], "house": "lannister", "cause": "battle"}
        acks = [
            seat.emit("record_village", village, namespace=NAMESPACE, callback=True)
            for _ in range(3)
        ]
        # Then each is refused with a code they can act on
        for answer in answers:
            error_body(answer, 503, "database_unavailable")
        assert [ack["code"] for ack in acks] == ["database_unavailable"] * 3
    finally:
        own_postgres.start()
    # And once the database is back, requests pass again
    deadline = time.monotonic() + BACK_SECONDS
    while client.get(f"/api/games/{game.id}").status_code != 200:
        assert time.monotonic() < deadline, "the database never answered again"
        time.sleep(0.1)
    # And the log told the outage once when it started and once when it ended
    ours = [r for r in caplog.records if r.name.startswith("small_council")]
    complaints = [r.getMessage() for r in ours if r.levelno >= logging.WARNING]
    ended = [r.getMessage() for r in ours if "database available again" in r.getMessage()]
    assert len(complaints) == 1 and complaints[0].startswith("database unavailable: "), complaints
    assert len(ended) == 1 and ended[0].endswith(" s"), ended
    assert not any(r.exc_info for r in ours)
    app.extensions["court_store"].close()


def test_a_catch_up_read_after_the_database_restarted_opens_a_new_connection(
    own_postgres: PostgresServer,
) -> None:
    """The rows another process appended are read on a connection kept for them
    (server/store/reader.py): while the database is down such a read fails, and once it is
    back the first read passes, on a new connection."""
    url = own_postgres.new_database("reader")
    store = SqlEventStore(url)
    store.create_schema()
    try:
        service = CourtService(store)
        create = CreateGame(ruleset=load_ruleset(), players=3, host_name="Ann")
        game_id = service.handle(None, create, Actor(host=True)).state.game_id
        assert [row.version for row in store.recent(game_id, after=0)] == [1]
        own_postgres.stop()
        try:
            with pytest.raises(DATABASE_ERRORS):
                store.recent(game_id, after=0)
        finally:
            own_postgres.start()
        assert [row.version for row in store.recent(game_id, after=0)] == [1]
        own_postgres.stop()
        own_postgres.start()
        assert [row.version for row in store.recent(game_id, after=0)] == [1]
    finally:
        store.close()
