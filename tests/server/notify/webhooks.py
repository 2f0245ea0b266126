"""A game's webhook set over HTTP, and the ballot the notices tests place."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.server.http.court_client import Game

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
