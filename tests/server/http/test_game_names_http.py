"""A game's name over HTTP: given at creation, shown in the court view and the front page's
list, changed by the host alone (the history tells it), refused with a sentence when it cannot
be shown as typed, and printed by `flask court games`."""

from __future__ import annotations

import pytest
from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import (
    Game,
    create_game,
    error_body,
    log_state,
    logs,
)

NAME = "Saturday at Ann's"


def court(client: FlaskClient, game_id: str) -> dict:
    response = client.get(f"/api/games/{game_id}")
    assert response.status_code == 200, response.get_json()
    game: dict = response.get_json()["game"]
    return game


def rename(client: FlaskClient, game: Game, name: str, headers: dict[str, str]):  # type: ignore[no-untyped-def]
    return client.post(
        f"/api/games/{game.id}/commands/rename_game", json={"name": name}, headers=headers
    )


def test_the_name_given_at_creation_is_in_the_court_view_and_the_open_games(
    client: FlaskClient,
) -> None:
    created = create_game(client, name=f"  {NAME} ", listed=True)
    game = court(client, created["game_id"])
    assert (game["name"], game["title"]) == (NAME, NAME)
    listed = client.get("/api/games").get_json()["games"]
    [shown] = [g for g in listed if g["game_id"] == created["game_id"]]
    assert (shown["name"], shown["title"]) == (NAME, NAME)


def test_a_game_created_without_a_name_is_called_by_its_id(client: FlaskClient) -> None:
    created = create_game(client, listed=True)
    game = court(client, created["game_id"])
    assert game["name"] is None and game["title"] == f"Game {created['game_id']}"


@pytest.mark.parametrize(
    ("name", "status", "code"),
    [
        ("x" * 61, 400, "bad_request"),
        ("", 400, "bad_request"),
        ("Red\nWedding", 400, "bad_request"),
        ("Ann\u202eevE", 400, "bad_request"),
        ("    ", 409, "bad_game_name"),
        (42, 400, "bad_request"),
    ],
)
def test_a_name_that_cannot_be_shown_as_typed_creates_no_game(
    app: Flask, client: FlaskClient, name: object, status: int, code: str
) -> None:
    before = logs(app, client)
    response = client.post("/api/games", json={"players": 3, "host_name": "Ann", "name": name})
    body = error_body(response, status, code)
    if status == 400:
        assert "name" in body["fields"]
    else:
        assert "1 to 60 characters" in body["message"]
    assert logs(app, client) == before


def test_the_host_renames_the_game_and_the_history_tells_it(
    client: FlaskClient, lobby: Game
) -> None:
    response = rename(client, lobby, "The Red Wedding", lobby.host)
    assert response.status_code == 200, response.get_json()
    assert court(client, lobby.id)["title"] == "The Red Wedding"
    records = client.get(f"/api/games/{lobby.id}/events").get_json()["records"]
    assert records[-1]["type"] == "GameRenamed"
    assert records[-1]["text"] == "Eddard named the game “The Red Wedding”."


def test_a_seat_cannot_rename_the_game_and_a_bad_name_changes_nothing(
    client: FlaskClient, lobby: Game
) -> None:
    before = log_state(client, lobby.id)
    error_body(rename(client, lobby, "Mine now", lobby.auth("lannister")), 403, "host_only")
    error_body(rename(client, lobby, "Mine now", {}), 401, "token_required")
    error_body(rename(client, lobby, "\u200b", lobby.host), 400, "bad_request")
    error_body(rename(client, lobby, " \t ", lobby.host), 400, "bad_request")
    assert log_state(client, lobby.id) == before
