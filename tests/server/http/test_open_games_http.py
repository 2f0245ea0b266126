"""GET /api/games: the lobby's list of listed games waiting for players, newest first (an
unlisted game is never listed: tests/server/http/test_private_games_http.py)."""

from __future__ import annotations

from flask.testing import FlaskClient

from tests.server.http.court_client import create_game, join, lobby_game, start


def listed(client: FlaskClient, **query: int) -> list[dict]:
    response = client.get("/api/games", query_string=query)
    assert response.status_code == 200, response.get_json()
    return response.get_json()["games"]


def test_a_game_with_a_free_seat_is_listed_with_its_free_houses(client: FlaskClient) -> None:
    created = create_game(client, players=3, host_name="Catelyn", listed=True)
    join(client, created["game_id"], "stark", created["host_token"])

    (game,) = listed(client)

    assert game["game_id"] == created["game_id"]
    assert game["host_name"] == "Catelyn" and game["players"] == 3
    assert [s["house"] for s in game["seats"]] == ["stark"]
    free = {h["id"] for h in game["free_houses"]}
    assert "stark" not in free and {"lannister", "tyrell"} <= free
    assert game["url"].endswith(f"/games/{created['game_id']}")
    assert "host_token" not in str(game) and created["host_token"] not in str(game)


def test_full_and_started_games_are_not_listed(client: FlaskClient) -> None:
    full = lobby_game(client, listed=True)
    started = lobby_game(client, listed=True)
    start(client, started)
    waiting = create_game(client, listed=True)

    ids = [g["game_id"] for g in listed(client)]

    assert ids == [waiting["game_id"]]
    assert full.id not in ids and started.id not in ids


def test_newest_first_and_at_most_the_limit(client: FlaskClient) -> None:
    made = [create_game(client, listed=True)["game_id"] for _ in range(3)]

    assert [g["game_id"] for g in listed(client)] == made[::-1]
    assert [g["game_id"] for g in listed(client, limit=2)] == made[::-1][:2]


def test_a_limit_out_of_range_is_a_400(client: FlaskClient) -> None:
    response = client.get("/api/games?limit=0")
    assert response.status_code == 400
    assert response.get_json()["code"] == "bad_request"
