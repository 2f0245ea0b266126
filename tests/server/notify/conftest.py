"""An app whose sender of the outbox runs (polling often, retrying soon), allowed to post to a
receiver on 127.0.0.1 over http as the operator's config can allow, and a started game."""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app, start_notices
from tests.databases import migrated
from tests.server.http.court_client import Game, lobby_game, start
from tests.server.notify.certificates import Authority, authority

LOCAL_RECEIVERS = {
    "WEBHOOK_ALLOW_HTTP": True,
    "WEBHOOK_ALLOW_PRIVATE": True,
    "WEBHOOK_BACKOFF": 0.05,
    "WEBHOOK_TIMEOUT": 1.0,
    "WEBHOOK_ATTEMPTS": 4,
    "NOTICES_POLL": 0.05,
    "NOTICES_GROUP": 0.0,
}


def notifying_app(tmp_path: Path, **settings: Any) -> Flask:
    app = create_app(
        {
            "DATABASE_URL": migrated(tmp_path / "n.db"),
            "DEADLINES": False,
            "RATE_LIMITS": False,
            **LOCAL_RECEIVERS,
            **settings,
        }
    )
    start_notices(app)
    return app


def stop(app: Flask) -> None:
    app.extensions["notices"].sender.stop()
    app.extensions["court_store"].close()


@pytest.fixture
def app(tmp_path: Path) -> Iterator[Flask]:
    app = notifying_app(tmp_path)
    yield app
    stop(app)


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def game(client: FlaskClient) -> Game:
    lobby = lobby_game(client)
    return replace(lobby, started=start(client, lobby))


@pytest.fixture
def lobby_started(client: FlaskClient) -> Game:
    """A game its host started, at the first decree step of round 1 (no one passed yet)."""
    game = lobby_game(client)
    response = client.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host)
    assert response.status_code == 200, response.get_json()
    return game


@pytest.fixture(scope="session")
def local_authority(tmp_path_factory: pytest.TempPathFactory) -> Authority:
    """The tests' own certificate authority (tests/server/notify/certificates.py)."""
    return authority(tmp_path_factory.mktemp("authority"))
