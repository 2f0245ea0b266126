"""Presence: every client of a game learns which seats have a connection open, and when that
changes; a spectator who takes a seat shows as that seat at once."""

from __future__ import annotations

import time

from flask import Flask

from court.commands import Actor
from court.ids import Seat
from server.live.presence import Presence
from tests.server.http.court_client import Game, create_game, join
from tests.server.live.live import NAMESPACE, connect, send


def presences(client) -> list[dict]:
    return [m["args"][0] for m in client.get_received(NAMESPACE) if m["name"] == "presence"]


def test_presence_counts_connections_per_game_and_seat() -> None:
    presence = Presence()
    presence.enter("a", "g1", Actor(seat=Seat(0), host=True))
    presence.enter("b", "g1", Actor(seat=Seat(0)))
    presence.enter("c", "g1", Actor())
    presence.enter("d", "g2", Actor(seat=Seat(1)))
    presence.enter("e", "g1", Actor(master=True))  # the game master is no spectator

    assert presence.snapshot("g1") == {
        "seats": [0],
        "spectators": 1,
        "host": True,
        "game_master": True,
    }
    assert presence.leave("a") == "g1"
    assert presence.leave("e") == "g1"
    assert presence.snapshot("g1") == {
        "seats": [0],
        "spectators": 1,
        "host": False,
        "game_master": False,
    }
    presence.leave("b")
    assert presence.snapshot("g1")["seats"] == []
    assert presence.leave("unknown") is None
    assert presence.snapshot("g2") == {
        "seats": [1],
        "spectators": 0,
        "host": False,
        "game_master": False,
    }


def test_every_client_sees_seats_come_and_go(app: Flask, game: Game) -> None:
    stark = connect(app, game, game.tokens["stark"])
    assert presences(stark)[-1]["seats"] == [game.seats["stark"]]
    lannister = connect(app, game, game.tokens["lannister"])
    spectator = connect(app, game, None)

    seen = presences(stark)[-1]
    assert seen["seats"] == sorted([game.seats["stark"], game.seats["lannister"]])
    assert seen["spectators"] == 1 and seen["host"] is True
    assert abs(seen["server_time"] - time.time()) < 5
    assert presences(spectator)[-1]["seats"] == seen["seats"]

    lannister.disconnect(namespace=NAMESPACE)

    assert presences(stark)[-1]["seats"] == [game.seats["stark"]]
    assert presences(spectator)[-1]["seats"] == [game.seats["stark"]]


def test_a_spectator_taking_a_seat_shows_as_that_seat(app: Flask) -> None:
    client = app.test_client()
    created = create_game(client)
    join(client, created["game_id"], "stark", created["host_token"])
    lobby = Game(created["game_id"], created["host_token"], {}, {"stark": 0})
    host = connect(app, lobby, created["host_token"])
    newcomer = connect(app, lobby, None)
    assert presences(host)[-1]["spectators"] == 1

    ack = send(
        newcomer,
        "join",
        {"house": "lannister", "player_name": "Tywin", "invite": created["invite"]},
    )

    assert ack["ok"] is True
    last = presences(host)[-1]
    assert last["seats"] == [0, ack["seat"]] and last["spectators"] == 0
