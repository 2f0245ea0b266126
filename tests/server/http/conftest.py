"""Fixtures of the HTTP API tests: an app on its own SQLite file, its client, and games built
through the API (a full lobby, and a started 3-player game) with their tokens kept."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.databases import migrated
from tests.server.http.court_client import Game, lobby_game, start


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    # Presence settled from the start (tests/server/live/test_presence_book.py plays its first
    # seconds).
    app = create_app({"DATABASE_URL": migrated(tmp_path / "t.db"), "PRESENCE_TTL": 0})
    yield app
    app.extensions["court_store"].close()


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def lobby(client: FlaskClient) -> Game:
    """A 3-player game with every seat taken (stark by the host), not started: version 4."""
    return lobby_game(client)


@pytest.fixture
def game(client: FlaskClient, lobby: Game) -> Game:
    """The same game started by the host: GameStarted, RoundStarted, then phase 1 of round 1 run by
    the server (every election skipped, the cards phase begun); `game.started` is that version."""
    return replace(lobby, started=start(client, lobby))
