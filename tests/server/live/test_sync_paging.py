"""A catch-up comes in pages of at most SYNC_PAGE records, each saying whether more follow
and from where to ask (docs/protocol.md, "Catching up"): over the Flask-SocketIO test client
and a real python-socketio client against the real server on loopback."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from sqlalchemy import event

from server.live.sockets import SYNC_PAGE
from tests.live_server import LiveServer
from tests.server.http.court_client import Game, lobby_game, start
from tests.server.live.live import NAMESPACE, connect, send
from tests.server.store.records import grow_log

LONG = 2 * SYNC_PAGE + 57  # records added after the start: three pages and a bit


def grown(app: Flask, game: Game) -> int:
    """The game with LONG more records stored; its newest version."""
    return grow_log(app.extensions["court_store"], game.id, LONG)


def test_a_catch_up_on_connect_is_one_page_and_sync_asks_for_the_rest(
    app: Flask, game: Game
) -> None:
    # Given a spectator who saw version 3 of a game now 450 versions longer
    head = grown(app, game)
    client = connect(app, game, None, last_version=3)
    # When it connects, then one page follows the welcome, saying where to go on from
    pages = [m["args"][0] for m in client.get_received(NAMESPACE) if m["name"] == "events"]
    assert len(pages) == 1
    page = pages[0]
    assert [r["version"] for r in page["records"]] == list(range(4, 4 + SYNC_PAGE))
    assert (page["more"], page["next_after"], page["version"]) == (True, 3 + SYNC_PAGE, head)
    # ... and `sync` from there brings the rest, a page at a time, up to the head
    versions = [r["version"] for r in page["records"]]
    while page["more"]:
        page = send(client, "sync", {"last_version": page["next_after"]})
        assert page["ok"] and len(page["records"]) <= SYNC_PAGE
        versions += [r["version"] for r in page["records"]]
    assert versions == list(range(4, head + 1))
    assert page["next_after"] is None


def test_a_sync_at_the_head_is_one_empty_last_page(app: Flask, game: Game) -> None:
    client = connect(app, game, None)
    ack = send(client, "sync", {"last_version": game.started})
    assert (ack["records"], ack["more"], ack["next_after"]) == ([], False, None)


def test_a_sync_at_the_head_takes_one_database_connection(app: Flask, game: Game) -> None:
    """Every page sends `sync` as it connects, and a busy server has many connecting at once
    and few connections to the database: one that holds the head reads the head alone, and
    a page that is behind reads its records without asking for the head again."""
    spectator = connect(app, game, None)
    taken: list[object] = []
    event.listen(app.extensions["court_store"].engine, "checkout", lambda *_: taken.append(1))
    # When a page at the head syncs three times
    for _ in range(3):
        assert send(spectator, "sync", {"last_version": game.started})["records"] == []
    # Then each sync took one connection from the pool
    assert len(taken) == 3
    # And a page one record behind takes two: the head, and its records
    ack = send(spectator, "sync", {"last_version": game.started - 1})
    assert [r["version"] for r in ack["records"]] == [game.started]
    assert len(taken) == 5


@pytest.fixture(scope="module")
def server(tmp_path_factory: pytest.TempPathFactory):
    db: Path = tmp_path_factory.mktemp("paging") / "court.db"
    with LiveServer(db, deadlines=False) as live:
        yield live


def test_a_real_client_pages_through_a_sync_from_version_0(server: LiveServer) -> None:
    # Given a long game on the real server
    http = server.app.test_client()
    game = lobby_game(http)
    start(http, game)
    head = grown(server.app, game)
    client = server.client(game.id, None)
    try:
        # When a client asks `sync` from version 0 until no more is said to follow
        acks: list[dict[str, Any]] = []
        after: int | None = 0
        while after is not None:
            acks.append(client.call("sync", {"last_version": after}, namespace=NAMESPACE))
            after = acks[-1]["next_after"]
    finally:
        client.disconnect()
    # Then every ack held at most a page, and together they hold the log once, in order
    assert all(len(a["records"]) <= SYNC_PAGE for a in acks) and len(acks) >= 3
    assert [a["more"] for a in acks] == [True] * (len(acks) - 1) + [False]
    assert [r["version"] for a in acks for r in a["records"]] == list(range(1, head + 1))
