"""A person's key over HTTP: made from the seat tokens a device holds, it gives another device
every seat back, token and all; a seat handed to someone else drops out of it; a new key voids
the old and a revoked key opens nothing, each refused with a sentence; the server keeps
neither the key nor a seat's token in clear, and the key is in no view, history or export."""

from __future__ import annotations

import logging
from pathlib import Path

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import Game, bearer, error_body, lobby_game

MINE = "/api/keys/mine"


def held(*seats: tuple[Game, str]) -> dict:
    return {
        "seats": [
            {
                "game_id": game.id,
                "token": game.host_token if house == "host" else game.tokens[house],
            }
            for game, house in seats
        ]
    }


def make_key(client: FlaskClient, body: dict) -> dict:
    response = client.post("/api/keys", json=body)
    assert response.status_code == 201, response.get_json()
    made: dict = response.get_json()
    return made


def opened(client: FlaskClient, key: str) -> list[dict]:
    response = client.get(MINE, headers=bearer(key))
    assert response.status_code == 200, response.get_json()
    seats: list[dict] = response.get_json()["seats"]
    return seats


@pytest.fixture
def two_games(client: FlaskClient) -> tuple[Game, Game]:
    """Ann hosts the first game (as Stark) and sits as Lannister in the second."""
    return lobby_game(client, name="Saturday"), lobby_game(client, name="Sunday")


def test_a_key_gives_another_device_every_seat_with_its_token(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, second = two_games
    made = make_key(client, held((first, "host"), (second, "lannister")))
    assert made["url"].endswith(f"/key#{made['key']}")
    assert [s["token"] for s in made["seats"]] == [first.host_token, second.tokens["lannister"]]

    seats = opened(client, made["key"])

    by_game = {s["game_id"]: s for s in seats}
    assert set(by_game) == {first.id, second.id}
    assert by_game[first.id]["token"] == first.host_token
    assert by_game[first.id]["title"] == "Saturday"
    assert by_game[first.id]["label"] == "Player of stark, House Stark, host"
    assert by_game[second.id]["token"] == second.tokens["lannister"]
    assert (by_game[second.id]["seat"], by_game[second.id]["house"]) == (1, "lannister")
    assert by_game[second.id]["url"].endswith(f"/games/{second.id}")
    # each token opens its seat
    court = client.get(f"/api/games/{second.id}", headers=bearer(by_game[second.id]["token"]))
    assert court.get_json()["viewer"]["seat"] == 1


def test_a_key_gathers_the_seats_joined_since(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, second = two_games
    made = make_key(client, held((first, "host")))
    third = lobby_game(client)
    response = client.put(
        MINE, json=held((second, "tyrell"), (third, "stark")), headers=bearer(made["key"])
    )
    assert response.status_code == 200, response.get_json()
    assert {s["game_id"] for s in opened(client, made["key"])} == {first.id, second.id, third.id}


def test_a_seat_handed_to_a_new_player_drops_out_of_the_key(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, second = two_games
    made = make_key(client, held((first, "host"), (second, "lannister")))
    handed = client.post(
        f"/api/games/{second.id}/commands/hand_seat",
        json={"seat": second.seats["lannister"], "player_name": "Eve"},
        headers=second.host,
    )
    assert handed.status_code == 200, handed.get_json()

    seats = opened(client, made["key"])

    assert [s["game_id"] for s in seats] == [first.id]
    # the old token opens nothing, and the key does not bring it back
    error_body(
        client.get(f"/api/games/{second.id}", headers=second.auth("lannister")), 401, "bad_token"
    )
    assert second.tokens["lannister"] not in str(opened(client, made["key"]))


def test_a_revoked_key_opens_nothing_and_says_so(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, _ = two_games
    made = make_key(client, held((first, "stark")))
    response = client.delete(MINE, headers=bearer(made["key"]))
    assert response.status_code == 200 and response.get_json() == {"revoked": True}

    refused = error_body(client.get(MINE, headers=bearer(made["key"])), 401, "key_revoked")
    assert "revoked" in refused["message"]
    error_body(client.delete(MINE, headers=bearer(made["key"])), 401, "key_revoked")
    error_body(
        client.put(MINE, json=held((first, "stark")), headers=bearer(made["key"])),
        401,
        "key_revoked",
    )
    # the seat itself stays its holder's
    assert client.get(f"/api/games/{first.id}", headers=first.host).status_code == 200


def test_a_new_key_voids_the_old_one(client: FlaskClient, two_games: tuple[Game, Game]) -> None:
    first, second = two_games
    old = make_key(client, held((first, "host"), (second, "lannister")))
    new = make_key(client, held((second, "lannister")))
    error_body(client.get(MINE, headers=bearer(old["key"])), 401, "key_revoked")
    assert [s["game_id"] for s in opened(client, new["key"])] == [second.id]


@pytest.mark.parametrize(
    ("body", "status", "code"),
    [
        ({"seats": [{"game_id": "nosuchgame", "token": "x" * 43}]}, 409, "no_seats"),
        ({"seats": []}, 400, "bad_request"),
        ({"seats": [{"game_id": "BAD ID", "token": "x"}]}, 400, "bad_request"),
        ({"seats": [{"game_id": "abc", "token": "x" * 500}]}, 400, "bad_request"),
        ({}, 400, "bad_request"),
    ],
)
def test_a_key_of_nothing_is_refused_with_a_sentence(
    client: FlaskClient, body: dict, status: int, code: str
) -> None:
    error_body(client.post("/api/keys", json=body), status, code)


def test_a_stale_token_is_left_out_of_a_new_key(
    client: FlaskClient, two_games: tuple[Game, Game]
) -> None:
    first, _ = two_games
    body = held((first, "stark"))
    body["seats"].append({"game_id": first.id, "token": "not-a-token-of-this-game"})
    made = make_key(client, body)
    assert [s["token"] for s in made["seats"]] == [first.tokens["stark"]]


@pytest.mark.parametrize("headers", [{}, bearer("not-a-key"), {"Authorization": "Basic x"}])
def test_opening_a_key_needs_the_key(client: FlaskClient, headers: dict) -> None:
    response = client.get(MINE, headers=headers)
    assert response.status_code in (400, 401)
    assert error_body(response, response.status_code)["code"] in (
        "key_required",
        "key_revoked",
        "bad_token",
    )


def test_the_key_is_in_no_view_history_export_log_nor_in_clear_in_the_database(
    app: Flask,
    client: FlaskClient,
    two_games: tuple[Game, Game],
    tmp_path: Path,
    caplog: pytest.LogCaptureFixture,
) -> None:
    caplog.set_level(logging.DEBUG)
    first, second = two_games
    made = make_key(client, held((first, "host"), (second, "lannister")))
    key = made["key"]
    opened(client, key)
    for game in (first, second):
        for headers in (game.host, *(game.auth(h) for h in game.tokens), {}):
            for path in ("", "/events", "/export", "/history"):
                answer = client.get(f"/api/games/{game.id}{path}", headers=headers)
                assert key not in answer.get_data(as_text=True)
    assert key not in caplog.text
    stored = b"".join(p.read_bytes() for p in tmp_path.glob("t.db*"))
    assert key.encode() not in stored
    for token in (first.host_token, second.tokens["lannister"]):
        assert token.encode() not in stored
