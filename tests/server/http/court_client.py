"""Small steps the HTTP API tests repeat: create, join, start, and read every stored log's head."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from flask import Flask
from flask.testing import FlaskClient

HOUSES = ("stark", "lannister", "tyrell")


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


@dataclass(frozen=True)
class Game:
    """A game created through the API, with every secret token the test was handed."""

    id: str
    host_token: str
    tokens: dict[str, str]  # house -> seat token
    seats: dict[str, int]  # house -> seat number
    started: int = 0  # the version the start answered; 0 while the game is in the lobby
    game_master_token: str | None = None
    invite: str | None = None  # the secret joining this unlisted game needs

    def auth(self, house: str) -> dict[str, str]:
        return bearer(self.tokens[house])

    @property
    def host(self) -> dict[str, str]:
        return bearer(self.host_token)


# The invite each game created here was given: `join` takes a seat the way the invite link
# does, unless a test sends its own (tests/server/http/test_private_games_http.py).
_INVITES: dict[str, str] = {}


def create_game(client: FlaskClient, **body: Any) -> dict[str, Any]:
    response = client.post("/api/games", json={"players": 3, "host_name": "Eddard", **body})
    assert response.status_code == 201, response.get_json()
    created: dict[str, Any] = response.get_json()
    _INVITES[created["game_id"]] = created["invite"]
    return created


def join(
    client: FlaskClient,
    game_id: str,
    house: str,
    token: str | None = None,
    invite: str | None = None,
) -> dict[str, Any]:
    response = client.post(
        f"/api/games/{game_id}/commands/join",
        json={
            "house": house,
            "player_name": f"Player of {house}",
            "invite": invite or _INVITES.get(game_id),
        },
        headers=bearer(token) if token else {},
    )
    assert response.status_code == 201, response.get_json()
    return response.get_json()


def lobby_game(client: FlaskClient, houses: tuple[str, ...] = HOUSES, **body: Any) -> Game:
    """A game whose host took the first House with his host token; the others joined with the
    invite."""
    created = create_game(client, **body)
    tokens: dict[str, str] = {}
    seats: dict[str, int] = {}
    for index, house in enumerate(houses):
        host = created["host_token"] if index == 0 else None
        joined = join(client, created["game_id"], house, host, created["invite"])
        tokens[house] = joined["token"]
        seats[house] = joined["seat"]
    return Game(
        created["game_id"],
        created["host_token"],
        tokens,
        seats,
        game_master_token=created.get("game_master_token"),
        invite=created["invite"],
    )


def start(client: FlaskClient, game: Game) -> int:
    """Start the game as its host; the version the start answered (phase 1 of round 1 run)."""
    response = client.post(f"/api/games/{game.id}/commands/start", json={}, headers=game.host)
    assert response.status_code == 200, response.get_json()
    body = response.get_json()
    assert body["ok"] is True and isinstance(body["version"], int), body
    return pass_decrees(client, game) or body["version"]


def pass_decrees(client: FlaskClient, game: Game) -> int | None:
    """Every player passes in each decree step now open (R-4.2); the version it ends at, or
    None when no step was open."""
    seat_house = {seat: house for house, seat in game.seats.items()}
    version = None
    for _ in range(100):
        decree = client.get(f"/api/games/{game.id}").get_json()["decree"]
        if decree is None or decree["current"] is None:
            return version
        house = seat_house[decree["current"]]
        response = client.post(f"/api/games/{game.id}/commands/pass", headers=game.auth(house))
        assert response.status_code == 200, response.get_json()
        version = response.get_json()["version"]
    raise AssertionError("the decree steps did not end")


def log_state(client: FlaskClient, game_id: str) -> tuple[int, str]:
    """(records, head) of a game's log as /verify reports it, which checks it ok (where that
    check began, `since`, moves on from one call to the next; the log does not)."""
    verified = client.get(f"/api/games/{game_id}/verify").get_json()
    assert verified["ok"] is True, verified
    return verified["records"], verified["head"]


def logs(app: Flask, client: FlaskClient) -> dict[str, tuple[int, str]]:
    """(records, head) of every stored game's log as /verify reports it."""
    games = app.extensions["court_store"].games()
    return {game_id: log_state(client, game_id) for game_id in games}


def error_body(response: Any, status: int, code: str | None = None) -> dict[str, Any]:
    """The JSON error of a refused request: the status, a string code and a string message."""
    assert response.status_code == status, (response.status_code, response.data[:300])
    assert response.mimetype == "application/json"
    body = response.get_json()
    assert isinstance(body, dict)
    assert isinstance(body.get("code"), str) and body["code"]
    assert isinstance(body.get("message"), str) and body["message"]
    if code is not None:
        assert body["code"] == code, body
    return body


def next_round(client: FlaskClient, game: Game) -> None:
    """The host closes the phases played at the table until a new round begins, every seat
    passing in a council seat sale and ending its purchases in phase 4; then every player
    passes in the decree steps (R-4.1, R-4.2, R-4.6)."""
    start_round = client.get(f"/api/games/{game.id}").get_json()["game"]["round"]
    seat_house = {seat: house for house, seat in game.seats.items()}
    for _ in range(40):
        view = client.get(f"/api/games/{game.id}").get_json()
        if view["game"]["round"] != start_round:
            pass_decrees(client, game)
            return
        auction, purchases = view["auction"], view["purchases"]
        if auction and auction["winner"] is None:
            house = seat_house[auction["waiting"][0]]
            path, headers = "commands/pass_bid", game.auth(house)
        elif purchases and purchases["current"] is not None:
            path, headers = "commands/end_purchases", game.auth(seat_house[purchases["current"]])
        else:
            path, headers = "commands/advance_phase", game.host
        response = client.post(f"/api/games/{game.id}/{path}", json={}, headers=headers)
        assert response.status_code == 200, response.get_json()
    raise AssertionError("no new round began")
