"""One process's pushes when another process appends to the same game (played here by a
second service on the same database file): its clients get every record once and in order,
whether it learns of them by its own next command, an announcement, or a new connection."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from flask import Flask

from app import create_app
from court.commands import AdjustGold
from court.ids import HouseId
from server.service.court_service import CourtService
from server.store.sql import SqlEventStore
from tests.databases import migrated
from tests.server.http.court_client import Game, lobby_game, start
from tests.server.live.live import NAMESPACE, connect, pushed, send


@pytest.fixture
def app(tmp_path) -> Iterator[Flask]:
    app = create_app(
        {"DATABASE_URL": migrated(tmp_path / "court.db"), "DEADLINES": False, "RATE_LIMITS": False}
    )
    yield app
    app.extensions["court_store"].close()


@pytest.fixture
def other(app: Flask) -> Iterator[CourtService]:
    """Another process's service over the same database."""
    store = SqlEventStore(app.config["DATABASE_URL"])
    yield CourtService(store)
    store.close()


def started(app: Flask) -> Game:
    client = app.test_client()
    game = lobby_game(client)
    start(client, game)
    return game


def elsewhere(other: CourtService, game: Game, *amounts: int) -> int:
    """Gold recorded by the other process's host; the version it ends at."""
    actor, _ = other.authenticate(game.id, game.host_token)
    version = 0
    for amount in amounts:
        command = AdjustGold(house=HouseId("tyrell"), amount=amount, cause="elsewhere")
        version = other.handle(game.id, command, actor).version
    return version


def versions(records: list[dict]) -> list[int]:
    return [r["version"] for r in records]


def test_a_command_decided_after_another_process_appended_pushes_its_records_first(
    app: Flask, other: CourtService
) -> None:
    game = started(app)
    host = connect(app, game, game.host_token)
    watcher = connect(app, game, game.tokens["lannister"])
    head = app.test_client().get(f"/api/games/{game.id}/verify").get_json()["records"]
    for client in (host, watcher):
        client.get_received(NAMESPACE)
    elsewhere(other, game, 1, 2)  # versions head+1 .. head+4

    ack = send(host, "record_gold", {"house": "tyrell", "amount": 3, "cause": "here"})
    assert ack["ok"] and ack["version"] == head + 6
    for client in (host, watcher):
        records = pushed(client)
        assert versions(records) == list(range(head + 1, head + 7))
        assert [r["data"].get("cause") for r in records[1::2]] == ["elsewhere"] * 2 + ["here"]


def test_an_announcement_brings_this_process_clients_up_once(
    app: Flask, other: CourtService
) -> None:
    game = started(app)
    watcher = connect(app, game, None)
    head = watcher.get_received(NAMESPACE)[0]["args"][0]["version"]
    top = elsewhere(other, game, 1, 2, 3)
    pusher = app.extensions["pushes"]
    assert pusher.catch_up(game.id) == top - head
    assert pusher.catch_up(game.id) == 0
    assert versions(pushed(watcher)) == list(range(head + 1, top + 1))


def test_a_new_connection_first_brings_the_clients_already_here_up_to_its_welcome(
    app: Flask, other: CourtService
) -> None:
    game = started(app)
    first = connect(app, game, game.tokens["lannister"])
    head = first.get_received(NAMESPACE)[0]["args"][0]["version"]
    top = elsewhere(other, game, 5)
    second = connect(app, game, game.tokens["tyrell"])
    assert versions(pushed(first)) == list(range(head + 1, top + 1))
    welcome = second.get_received(NAMESPACE)
    # besides presence and the talk backlog (server/live/talk.py), only the welcome
    assert [m["name"] for m in welcome if m["name"] not in ("presence", "talk")] == ["welcome"]
    assert welcome[0]["args"][0]["version"] == top
    assert app.extensions["pushes"].catch_up(game.id) == 0
    assert pushed(first) == [] and pushed(second) == []


def test_a_game_without_clients_here_is_not_followed(app: Flask, other: CourtService) -> None:
    game = started(app)
    client = connect(app, game, None)
    pusher = app.extensions["pushes"]
    assert pusher.games() == [game.id]
    client.disconnect(namespace=NAMESPACE)
    assert pusher.games() == []
    elsewhere(other, game, 1)
    assert pusher.catch_up(game.id) == 0
