"""A game brought over HTTP to the ballot of the North's Warden election, Stark and
Lannister voting."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.server.http.court_client import Game, next_round
from tests.server.http.north_election import post

NORTH = {
    "winterfell": "stark",
    "white-harbor": "stark",
    "the-dreadfort": "lannister",
    "moat-cailin": "lannister",
}


def to_the_ballot(client: FlaskClient, game: Game) -> None:
    """A Warden of the North election with Stark and Lannister voting, at its ballot."""
    for village, house in NORTH.items():
        body = {"village": village, "house": house, "cause": "battle"}
        post(client, game, "commands/record_village", game.host, body)
    next_round(client, game)
    post(client, game, "commands/stand", game.auth("lannister"), {"noble": "jaime-lannister"})
    post(client, game, "commands/pass", game.auth("tyrell"))
    post(client, game, "commands/stand", game.auth("stark"), {"noble": "robb-stark"})
