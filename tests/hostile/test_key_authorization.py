"""The matrix of a person's key: every documented route under /api/keys, sent by each kind of
caller. A route the key's holder sends refuses no key (401 key_required), a game's seat or
host token, a key revoked and a key made of nothing (401 key_revoked), and the secret of the key
it does not take: a key's link adds no seat (403 key_maker_only), a maker's secret opens no seat
(401 key_revoked). It lets in the secret it takes: the link's to open the key, the maker's to add
seats, either to revoke. The route that makes a key takes only tokens that open a seat now,
whatever header comes with them. No refusal changes any game's log."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from flask import Flask
from flask.testing import FlaskClient

from app import create_app
from tests.api_routes import OPERATIONS, body
from tests.hostile.matrix import KEY_ROUTES, KEYS
from tests.server.http.court_client import Game, bearer, error_body, lobby_game, logs

# Which of a key's secrets each route sent by its holder takes, by its x-sender.
TAKES = {"key's link": {"link"}, "key's maker": {"maker"}, "key": {"link", "maker"}}
HOLDER = sorted(
    (method, path, op["x-sender"])
    for method, path, op in OPERATIONS
    if (method, path) in KEY_ROUTES
    if op["x-sender"] in TAKES
)


@pytest.fixture(scope="module")
def app(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Flask]:
    folder = tmp_path_factory.mktemp("keys")
    app = create_app(
        {"DATABASE_URL": f"sqlite:///{folder}/t.db", "DEADLINES": False, "RATE_LIMITS": False}
    )
    yield app
    app.extensions["court_store"].close()


@pytest.fixture(scope="module")
def client(app: Flask) -> FlaskClient:
    return app.test_client()


@pytest.fixture(scope="module")
def game(client: FlaskClient) -> Game:
    return lobby_game(client)


def seats_of(game: Game) -> dict[str, Any]:
    return {"seats": [{"game_id": game.id, "token": game.tokens["lannister"]}]}


def new_key(client: FlaskClient, game: Game) -> dict[str, str]:
    """A new key's secrets, by name: the link's and the maker's."""
    made = client.post("/api/keys", json=seats_of(game))
    assert made.status_code == 201, made.get_json()
    body = made.get_json()
    return {"link": body["key"], "maker": body["maker"]}


def send(client: FlaskClient, method: str, path: str, headers: dict, game: Game) -> Any:
    payload = seats_of(game) if body(method, path) is not None else None
    return client.open(path, method=method, json=payload, headers=headers)


def test_the_key_routes_are_all_known_here() -> None:
    assert {p for _, p in KEY_ROUTES} == {KEYS, KEYS + "/mine"}
    assert {(m, p) for m, p, _ in HOLDER} == KEY_ROUTES - {("POST", KEYS)}


CALLERS = ["none", "seat", "host", "revoked link", "revoked maker", "bogus", "other secret"]


@pytest.mark.parametrize(
    ("method", "path", "sender", "who"),
    [
        (*route, who)
        for route in HOLDER
        for who in CALLERS
        if who != "other secret" or TAKES[route[2]] != {"link", "maker"}
    ],
)
def test_a_caller_without_the_key_is_refused(
    app: Flask, client: FlaskClient, game: Game, method: str, path: str, sender: str, who: str
) -> None:
    revoked = new_key(client, game)
    assert client.delete(KEYS + "/mine", headers=bearer(revoked["maker"])).status_code == 200
    other = {"link", "maker"} - TAKES[sender]
    headers = {
        "none": {},
        "seat": game.auth("lannister"),
        "host": game.host,
        "revoked link": bearer(revoked["link"]),
        "revoked maker": bearer(revoked["maker"]),
        "bogus": bearer("x" * 43),
        "other secret": bearer(new_key(client, game)[min(other)]) if other else {},
    }[who]
    before = logs(app, client)

    response = send(client, method, path, headers, game)

    if who == "none":
        error_body(response, 401, "key_required")
    elif who == "other secret" and other == {"link"}:
        error_body(response, 403, "key_maker_only")
    else:
        error_body(response, 401, "key_revoked")
    assert logs(app, client) == before


@pytest.mark.parametrize(("method", "path", "sender"), HOLDER)
def test_the_key_s_holder_is_let_in(
    client: FlaskClient, game: Game, method: str, path: str, sender: str
) -> None:
    for secret in sorted(TAKES[sender]):
        key = new_key(client, game)
        response = send(client, method, path, bearer(key[secret]), game)
        assert response.status_code == 200, (secret, response.get_json())


@pytest.mark.parametrize("header", ["none", "host"])
def test_a_key_is_made_of_tokens_that_open_a_seat_now(
    client: FlaskClient, game: Game, header: str
) -> None:
    other = lobby_game(client)
    # a token of another game, named under this one, opens nothing here
    crossed = {"seats": [{"game_id": game.id, "token": other.tokens["lannister"]}]}
    headers = game.host if header == "host" else {}
    error_body(client.post(KEYS, json=crossed, headers=headers), 409, "no_seats")
    # a seat handed to a new player: its old token opens nothing, so it makes no key
    handed = client.post(
        f"/api/games/{other.id}/commands/hand_seat",
        json={"seat": other.seats["lannister"], "player_name": "Eve"},
        headers=other.host,
    )
    assert handed.status_code == 200, handed.get_json()
    stale = {"seats": [{"game_id": other.id, "token": other.tokens["lannister"]}]}
    error_body(client.post(KEYS, json=stale, headers=headers), 409, "no_seats")
