"""A started game brought over HTTP to the sale of the fourth council seat, each Warden
election of round 2 run by its region's House."""

from __future__ import annotations

from typing import Any

from flask.testing import FlaskClient

from tests.server.http.court_client import Game, next_round

NORTH = ("winterfell", "white-harbor", "the-dreadfort", "moat-cailin")


WEST = ("casterly-rock", "lannisport", "the-crag", "pyke", "lordsport")


WARDENS = {"warden-north": ("stark", "robb-stark"), "warden-west": ("lannister", "jaime-lannister")}


def post(client: FlaskClient, game: Game, path: str, headers: dict, body: dict | None = None):
    response = client.post(f"/api/games/{game.id}/{path}", json=body or {}, headers=headers)
    assert response.status_code == 200, (path, response.get_json())
    return response.get_json()


def court(client: FlaskClient, game: Game, headers: dict | None = None) -> dict[str, Any]:
    return client.get(f"/api/games/{game.id}", headers=headers or {}).get_json()


def house_of(game: Game, seat: int) -> str:
    return next(h for h, s in game.seats.items() if s == seat)


def run_warden_election(client: FlaskClient, game: Game) -> None:
    """Every seat in turn: the region's House puts its Lord forward and votes for him."""
    view = court(client, game)
    election = view["election"]
    house, lord = WARDENS[election["title"]]
    while view["election"] is not None and view["election"]["title"] == election["title"]:
        step = view["election"]
        mover = house_of(game, step["current"])
        if step["stage"] == "candidacy" and mover == house:
            post(client, game, "commands/stand", game.auth(mover), {"noble": lord})
        elif step["stage"] == "candidacy":
            post(client, game, "commands/pass", game.auth(mover))
        else:
            body = {"markers": [{"kind": "for", "candidate": lord}]}
            post(client, game, "commands/place_ballot", game.auth(mover), body)
        view = court(client, game)
        if view["pending"] is not None:
            post(client, game, "commands/accept_title", game.auth(house))
            view = court(client, game)


def to_the_sale(client: FlaskClient, game: Game) -> dict[str, Any]:
    """Stark holds the North, Lannister the West; both win their Warden in round 2, then
    phase 4 opens the sale of the fourth council seat."""
    for villages, house in ((NORTH, "stark"), (WEST, "lannister")):
        for village in villages:
            body = {"village": village, "house": house, "cause": "battle"}
            post(client, game, "commands/record_village", game.host, body)
    next_round(client, game)
    view = court(client, game)
    while view["election"] is not None:
        run_warden_election(client, game)
        view = court(client, game)
    assert view["game"]["phase"] == "cards"
    post(client, game, "commands/advance_phase", game.host)
    view = court(client, game)
    assert view["game"]["phase"] == "purchases"
    return view
