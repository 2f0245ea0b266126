"""Seats follow the player over Socket.IO: a token replaced or removed stops at once on every
connection that holds it, and the host role moves with `hand_host`."""

from __future__ import annotations

from typing import Any

from flask import Flask

from tests.server.http.court_client import (
    Game,
    bearer,
    create_game,
    join,
    lobby_game,
    log_state,
    start,
)
from tests.server.live.live import NAMESPACE, connect, pushed, send


def received(client, name: str) -> list[dict[str, Any]]:
    return [m["args"][0] for m in client.get_received(NAMESPACE) if m["name"] == name]


def hand_seat(app: Flask, game: Game, seat: int, **body: Any) -> dict[str, Any]:
    response = app.test_client().post(
        f"/api/games/{game.id}/commands/hand_seat", json={"seat": seat, **body}, headers=game.host
    )
    assert response.status_code == 200, response.get_json()
    return response.get_json()


def test_a_seat_handed_to_a_new_player_ends_every_connection_of_the_old_token(
    app: Flask, game: Game
) -> None:
    """Given Lannister's token open on two devices, the host and a spectator connected, when
    the host hands Lannister's seat to Eve, then both old devices are told `seat_ended` and
    count as spectators, their next command is refused with `bad_token`, nobody but the host
    gets the new token, and a device with the new token plays the seat."""
    seat = game.seats["lannister"]
    first = connect(app, game, game.tokens["lannister"])
    second = connect(app, game, game.tokens["lannister"])
    host = connect(app, game, game.host_token)
    watcher = connect(app, game, None)
    for client in (first, second, host, watcher):
        client.get_received(NAMESPACE)

    answer = hand_seat(app, game, seat, player_name="Eve")

    assert answer["seat"] == seat and len(answer["token"]) >= 32
    for old in (first, second):
        messages = old.get_received(NAMESPACE)
        ended = [m["args"][0] for m in messages if m["name"] == "seat_ended"]
        assert ended and ended[0]["seat"] == seat and "spectator" in ended[0]["message"]
        assert answer["token"] not in str(messages)
        assert send(old, "pass")["code"] == "bad_token"
        assert send(old, "sync", {"last_version": 1})["code"] == "bad_token"
    assert received(host, "seat_ended") == []
    told = [r for r in pushed(watcher) if r["type"] == "SeatHanded"]
    assert told[0]["text"] == "Player of lannister's seat was handed to Eve."
    assert told[0]["private"] is None and answer["token"] not in str(told)

    eve = connect(app, game, answer["token"])
    messages = eve.get_received(NAMESPACE)
    welcome = next(m["args"][0] for m in messages if m["name"] == "welcome")
    assert welcome["court"]["viewer"]["seat"] == seat
    presence = [m["args"][0] for m in messages if m["name"] == "presence"][-1]
    assert presence["seats"] == sorted([game.seats["stark"], seat])
    assert presence["spectators"] == 3
    refused = app.test_client().get(f"/api/games/{game.id}", headers=game.auth("lannister"))
    assert refused.status_code == 401
    log_state(app.test_client(), game.id)  # the audit accepts the seat handed


def test_the_host_role_handed_over_moves_the_host_powers_on_open_connections(
    app: Flask, game: Game
) -> None:
    """Given the host connected with his creation token and Tyrell connected, when the host
    hands the host role to Tyrell, then the old host's connection still plays Stark's seat
    without the host's powers, and Tyrell's connection closes phases."""
    host = connect(app, game, game.host_token)
    tyrell = connect(app, game, game.tokens["tyrell"])

    ack = send(host, "hand_host", {"seat": game.seats["tyrell"]})

    assert ack["ok"] is True, ack
    assert received(host, "seat_ended") == []
    assert send(host, "hand_host", {"seat": game.seats["lannister"]})["code"] == "host_only"
    # Tyrell, the host now, is connected: no vote takes the role from him.
    assert send(host, "vote_host", {"seat": game.seats["stark"]})["code"] == "host_present"
    court = app.test_client().get(f"/api/games/{game.id}", headers=bearer(game.host_token))
    assert court.get_json()["viewer"] == {
        "seat": game.seats["stark"],
        "host": False,
        "role": "player",
        "holder": f"seat:{game.seats['stark']}",
        "handed_over": None,
    }
    again = send(tyrell, "hand_host", {"seat": game.seats["stark"]})
    assert again["ok"] is True, again
    court = app.test_client().get(f"/api/games/{game.id}", headers=bearer(game.host_token))
    assert court.get_json()["viewer"]["host"] is True


def test_the_seats_take_the_host_role_over_by_a_majority(app: Flask) -> None:
    """Given a game whose seats may take over as soon as the host has no connection, and a
    host who never connected, the two other seats' votes make Tyrell host
    (tests/server/live/test_host_takeover_sockets.py holds the host's comings and goings)."""
    client = app.test_client()
    game = lobby_game(client, host_role={"takeover_after": 0})
    start(client, game)
    lannister = connect(app, game, game.tokens["lannister"])
    tyrell = connect(app, game, game.tokens["tyrell"])
    assert send(lannister, "vote_host", {"seat": game.seats["tyrell"]})["ok"] is True
    assert send(tyrell, "vote_host", {"seat": game.seats["tyrell"]})["ok"] is True
    texts = [r["text"] for r in pushed(lannister)]
    assert texts[-1].startswith("Player of tyrell became the host in place of Player of stark")
    court = app.test_client().get(f"/api/games/{game.id}", headers=bearer(game.host_token))
    assert court.get_json()["viewer"]["host"] is False
    # The audit of the whole log (court/audit/) accepts the votes and the takeover.
    assert log_state(app.test_client(), game.id)[0] == court.get_json()["game"]["version"]


def test_a_squatter_removed_in_the_lobby_loses_his_connection_seat(app: Flask) -> None:
    client = app.test_client()
    created = create_game(client)
    join(client, created["game_id"], "stark", created["host_token"])
    squatter = join(client, created["game_id"], "lannister")
    lobby = Game(created["game_id"], created["host_token"], {}, {})
    host = connect(app, lobby, created["host_token"])
    other = connect(app, lobby, squatter["token"])

    ack = send(host, "remove_seat", {"seat": squatter["seat"]})

    assert ack["ok"] is True, ack
    assert received(other, "seat_ended")[0]["seat"] == squatter["seat"]
    assert send(other, "leave")["code"] == "bad_token"
    court = client.get(f"/api/games/{lobby.id}").get_json()
    assert [s["house"] for s in court["seats"]] == ["stark"]
    log_state(client, lobby.id)


def test_only_the_host_hands_a_seat_and_a_refusal_leaves_the_log_unchanged(
    app: Flask, game: Game
) -> None:
    client = app.test_client()
    before = log_state(client, game.id)
    response = client.post(
        f"/api/games/{game.id}/commands/hand_seat",
        json={"seat": game.seats["tyrell"]},
        headers=game.auth("lannister"),
    )
    assert response.status_code == 403 and response.get_json()["code"] == "host_only"
    assert "token" not in response.get_json()
    assert log_state(client, game.id) == before
