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


def entries(client: FlaskClient, game: Game, **query: int) -> dict:
    response = client.get(f"/api/games/{game.id}/history", query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def elect_robb(client: FlaskClient, game: Game) -> None:
    to_the_north_election(client, game)
    post(client, game, "commands/stand", game.auth("lannister"), {"noble": "jaime-lannister"})
    post(client, game, "commands/pass", game.auth("tyrell"))
    post(client, game, "commands/stand", game.auth("stark"), {"noble": "robb-stark"})
    markers = [
        {"kind": "for", "candidate": "robb-stark"},
        {"kind": "decoy", "candidate": "jaime-lannister"},
    ]
    post(client, game, "commands/place_ballot", game.auth("stark"), {"markers": markers})
    post(client, game, "commands/accept_title", game.auth("stark"))
