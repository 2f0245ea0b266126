"""The host role over HTTP changes hands only in the open: never by votes in the lobby, never
from a host who is present; the creator of a game that has not started is its host until he
hands the role on himself."""

from __future__ import annotations

from typing import Any

from flask import Flask
from flask.testing import FlaskClient

from tests.server.http.court_client import (
    Game,
    bearer,
    create_game,
    error_body,
    join,
    log_state,
)


def vote(client: FlaskClient, game_id: str, token: str, seat: int | None) -> Any:
    return client.post(
        f"/api/games/{game_id}/commands/vote_host", json={"seat": seat}, headers=bearer(token)
    )


def test_a_stranger_who_joins_a_listed_lobby_cannot_vote_himself_host(client: FlaskClient) -> None:
    """Given a listed game whose creator has not sat down, when a stranger joins and votes
    himself host, then he is refused, the log is unchanged, the creator's token still opens the
    game as its host, and the stranger reads neither the invite nor the webhook."""
    created = create_game(client, listed=True)
    game_id, host_token = created["game_id"], created["host_token"]
    stranger = join(client, game_id, "lannister")
    before = log_state(client, game_id)

    refused = vote(client, game_id, stranger["token"], stranger["seat"])

    body = error_body(refused, 409, "game_lobby")
    assert "host" in body["message"]
    assert log_state(client, game_id) == before
    host_view = client.get(f"/api/games/{game_id}", headers=bearer(host_token))
    assert host_view.status_code == 200 and host_view.get_json()["viewer"]["host"] is True
    seen = client.get(f"/api/games/{game_id}", headers=bearer(stranger["token"])).get_json()
    assert seen["invite"] is None and seen["viewer"]["host"] is False
    webhook = client.get(f"/api/games/{game_id}/webhook", headers=bearer(stranger["token"]))
    assert webhook.status_code == 403


def test_two_seats_of_one_person_cannot_vote_a_seated_host_out_of_the_lobby(
    client: FlaskClient, lobby: Game
) -> None:
    before = log_state(client, lobby.id)
    for house in ("lannister", "tyrell"):
        error_body(vote(client, lobby.id, lobby.tokens[house], lobby.seats["tyrell"]), 409)
    assert log_state(client, lobby.id) == before
    court = client.get(f"/api/games/{lobby.id}", headers=lobby.host).get_json()
    assert court["viewer"]["host"] is True


def test_in_play_a_host_the_server_has_not_seen_leave_keeps_the_role_for_the_profile_time(
    client: FlaskClient, game: Game
) -> None:
    """Given a started game whose host never opened a connection to this server, when two of
    the three players vote for a new host at once, then each is refused: the host counts as
    away only since the server or the game started, less than the profile's 10 minutes."""
    before = log_state(client, game.id)
    for house in ("lannister", "tyrell"):
        body = error_body(vote(client, game.id, game.tokens[house], game.seats["tyrell"]), 409)
        assert body["code"] == "host_not_away_long", body
        assert "10 minutes" in body["message"], body
    assert log_state(client, game.id) == before


def test_a_vote_payload_cannot_say_how_long_the_host_has_been_away(
    client: FlaskClient, game: Game
) -> None:
    response = client.post(
        f"/api/games/{game.id}/commands/vote_host",
        json={"seat": game.seats["tyrell"], "host_away_since": 0},
        headers=game.auth("lannister"),
    )

    body = error_body(response, 400, "bad_request")
    assert "host_away_since" in body["fields"]


def test_the_court_view_says_why_no_takeover_is_possible_in_the_lobby(
    client: FlaskClient, lobby: Game
) -> None:
    view = client.get(f"/api/games/{lobby.id}", headers=lobby.auth("lannister")).get_json()

    takeover = view["host_role"]
    assert takeover["open"] is False and takeover["why"] == "lobby"
    assert "before the game starts" in takeover["message"].lower()
    assert takeover["takeover_after"] == 600


def test_the_court_view_tells_a_seat_what_a_takeover_needs_in_play(
    client: FlaskClient, game: Game
) -> None:
    seat_view = client.get(f"/api/games/{game.id}", headers=game.auth("lannister")).get_json()
    host_view = client.get(f"/api/games/{game.id}", headers=game.host).get_json()

    takeover = seat_view["host_role"]
    assert takeover["open"] is True and takeover["why"] is None
    assert takeover["electors"] == 2 and takeover["votes_needed"] == 2
    assert "10 minutes" in takeover["message"]
    assert host_view["host_role"]["why"] == "host"


def test_a_game_may_be_created_with_a_shorter_takeover_time(app: Flask) -> None:
    client = app.test_client()
    created = create_game(client, host_role={"takeover_after": 30})
    view = client.get(f"/api/games/{created['game_id']}").get_json()
    assert view["host_role"]["takeover_after"] == 30
    refused = client.post(
        "/api/games",
        json={"players": 3, "host_name": "Ann", "host_role": {"takeover_after": -1}},
    )
    error_body(refused, 400, "bad_request")
