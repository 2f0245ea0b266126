"""A started game brought over HTTP to the Warden election of the North, and the POST its
tests send."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.server.http.court_client import Game, next_round

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


def post(client: FlaskClient, game: Game, path: str, headers: dict, body: dict | None = None):
    response = client.post(f"/api/games/{game.id}/{path}", json=body or {}, headers=headers)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def to_the_north_election(client: FlaskClient, game: Game) -> None:
    for village in NORTH:
        post(
            client,
            game,
            "commands/record_village",
            game.host,
            {"village": village, "house": "stark", "cause": "battle"},
        )
    next_round(client, game)
    court = client.get(f"/api/games/{game.id}").get_json()
    assert court["election"]["id"] == "warden-north"
