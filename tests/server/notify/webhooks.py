"""A game's webhook set over HTTP, and the ballot the notices tests place."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game
from tests.server.http.north_election import post, to_the_north_election

BALLOT = {
    "markers": [
        {"kind": "decoy", "candidate": "jaime-lannister"},
        {"kind": "for", "candidate": "robb-stark"},
    ]
}


def set_webhook(client: FlaskClient, game: Game, url: str, digest: str = "moves") -> None:
    body = {"url": url, "digest": digest}
    response = client.put(f"/api/games/{game.id}/webhook", json=body, headers=game.host)
    assert response.status_code == 200, response.get_json()


def lead(game: Game) -> str:
    """What the posts of an unnamed game open with."""
    return f"Game {game.id}"


def elect_robb(client: FlaskClient, game: Game) -> None:
    """The Warden of the North election of round 2, Stark alone voting (R-7.4)."""
    to_the_north_election(client, game)
    post(client, game, "commands/stand", game.auth("lannister"), {"noble": "jaime-lannister"})
    post(client, game, "commands/pass", game.auth("tyrell"))
    post(client, game, "commands/stand", game.auth("stark"), {"noble": "robb-stark"})
    post(client, game, "commands/place_ballot", game.auth("stark"), BALLOT)


def outbox(app: Flask, game: Game) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = app.extensions["court_store"].notices.rows(game.id)
    return rows
