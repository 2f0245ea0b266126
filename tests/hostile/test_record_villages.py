"""A hostile `record_villages` (section 9): a list naming an unknown or repeated village, or
sent by a seat, is refused whole and records nothing; an oversized list is refused unread
(tests/hostile/test_oversized.py)."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.databases import migrated
from tests.server.http.court_client import Game, error_body, lobby_game, start


@pytest.fixture
def app(tmp_path: Path) -> Flask:
    return create_app({"DATABASE_URL": migrated(tmp_path / "t.db"), "DEADLINES": False})


@pytest.fixture
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture
def game(client: FlaskClient) -> Game:
    game = lobby_game(client)
    return replace(game, started=start(client, game))


def _send(client: FlaskClient, game: Game, changes: list[dict[str, Any]], headers: Any) -> Any:
    return client.post(
        f"/api/games/{game.id}/commands/record_villages",
        json={"changes": changes, "cause": "battle"},
        headers=headers,
    )


def _version(client: FlaskClient, game: Game) -> int:
    return client.get(f"/api/games/{game.id}").get_json()["game"]["version"]


@pytest.mark.parametrize(
    ("changes", "code"),
    [
        (
            [{"village": "winterfell", "house": "stark"}, {"village": "atlantis", "house": None}],
            "unknown_village",
        ),
        (
            [{"village": "rosby", "house": "stark"}, {"village": "rosby", "house": "tyrell"}],
            "duplicate_village",
        ),
        ([], "no_change"),
    ],
)
def test_a_record_naming_a_bad_village_is_refused_whole(
    client: FlaskClient, game: Game, changes: list[dict[str, Any]], code: str
) -> None:
    before = _version(client, game)

    error_body(_send(client, game, changes, game.host), 409, code)

    assert _version(client, game) == before


def test_a_seat_cannot_record_villages(client: FlaskClient, game: Game) -> None:
    before = _version(client, game)
    changes = [{"village": "winterfell", "house": "stark"}]

    error_body(_send(client, game, changes, game.auth("lannister")), 403, "host_only")

    assert _version(client, game) == before


def test_a_change_without_its_house_is_malformed(client: FlaskClient, game: Game) -> None:
    """`house` is required (null for nobody): a forgotten field never gives a village away."""
    body = error_body(_send(client, game, [{"village": "winterfell"}], game.host), 400)
    assert "changes" in body["fields"]
