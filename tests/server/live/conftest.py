"""A server app on a SQLite file and a started 3-player game (Stark, Lannister, Tyrell)."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace

import pytest
from flask import Flask

from app import create_app
from tests.databases import migrated
from tests.server.http.court_client import Game, lobby_game, start


@pytest.fixture
def app(tmp_path) -> Flask:
    # A book of connections that has settled from the start: the tests play presence's
    # first seconds after a start in tests/server/live/test_presence_book.py.
    return create_app({"DATABASE_URL": migrated(tmp_path / "court.db"), "PRESENCE_TTL": 0})


@pytest.fixture
def bot_app(tmp_path) -> Iterator[Flask]:
    """The app with its bot playing (server/live/bots.py), after a pause short for a test."""
    app = create_app(
        {
            "DATABASE_URL": migrated(tmp_path / "court.db"),
            "PRESENCE_TTL": 0,
            "BOT_PAUSE_SECONDS": 0.05,
        }
    )
    app.extensions["bots"].start()
    yield app
    app.extensions["bots"].stop()


@pytest.fixture
def game(app: Flask) -> Game:
    client = app.test_client()
    game = lobby_game(client)
    return replace(game, started=start(client, game))
