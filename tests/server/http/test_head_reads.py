"""A GET reads the log's head once: the caller's token is checked on the head the view then
renders (`CourtService.authenticate` returns it), rather than on a head read again."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from server.store.rows import StreamHead
from server.store.sql import SqlEventStore
from tests.databases import migrated
from tests.server.http.court_client import Game, bearer, lobby_game, start


class CountingStore(SqlEventStore):
    """The SQL store, counting the reads of a game's head."""

    def __init__(self, url: str) -> None:
        super().__init__(url)
        self.head_reads = 0

    def head(self, game_id: str) -> StreamHead | None:
        self.head_reads += 1
        return super().head(game_id)


@pytest.fixture
def counted(tmp_path: Path) -> Iterator[tuple[Flask, CountingStore]]:
    store = CountingStore(migrated(tmp_path / "t.db"))
    app = create_app({"DATABASE_URL": store.url, "PRESENCE_TTL": 0}, store=store)
    yield app, store
    store.close()


def reads(store: CountingStore, client: FlaskClient, url: str, **kw: Any) -> int:
    """The head reads one request makes, the game's state cached or not."""
    before = store.head_reads
    response = client.get(url, **kw)
    assert response.status_code == 200, response.get_json()
    return store.head_reads - before


def started(client: FlaskClient) -> Game:
    game = lobby_game(client)
    start(client, game)
    return game


@pytest.mark.parametrize(
    "path",
    ["", "/versions/2", "/versions/{head}", "/events", "/history", "/changes", "/export"],
)
def test_a_get_of_a_game_reads_its_head_once(
    counted: tuple[Flask, CountingStore], path: str
) -> None:
    """Given a started game, when a seat reads its court, an old version, the history, the
    changes or the export, then the store's head is read once for the request."""
    app, store = counted
    client = app.test_client()
    game = started(client)
    head = client.get(f"/api/games/{game.id}", headers=game.host).get_json()["game"]["version"]
    url = f"/api/games/{game.id}" + path.format(head=head)
    assert reads(store, client, url, headers=game.host) == 1
    assert reads(store, client, url, headers=bearer(game.tokens["tyrell"])) == 1
    assert reads(store, client, url) == 1  # a spectator's
