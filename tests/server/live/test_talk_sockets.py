"""Table talk and whispers over Socket.IO with several real clients: `say` reaches every seat, a
whisper reaches its two parties alone, a spectator says and hears nothing, and a client
(re)connecting gets its own backlog."""

from __future__ import annotations

from dataclasses import replace
from typing import Any

from flask import Flask

from tests.server.http.court_client import Game, lobby_game, start
from tests.server.live.live import NAMESPACE, connect, send, talk


def seats(app: Flask, game: Game) -> dict[str, Any]:
    clients = {house: connect(app, game, token) for house, token in game.tokens.items()}
    for client in clients.values():
        client.get_received(NAMESPACE)
    return clients


def test_a_table_line_reaches_every_seat_and_its_ack_holds_the_line(app: Flask, game: Game) -> None:
    clients = seats(app, game)
    ack = send(clients["lannister"], "say", {"text": "Hear me roar"})
    assert ack["ok"] is True
    line = ack["line"]
    assert (line["channel"], line["sender"], line["text"]) == ("table", "seat:1", "Hear me roar")
    assert line["recipients"] == ["seat:0", "seat:2"] and line["court_version"] == game.started
    for client in clients.values():
        assert talk(client) == [line]


def test_a_whisper_between_two_seats_reaches_only_those_two(app: Flask, game: Game) -> None:
    clients = seats(app, game)
    spectator = connect(app, game, None)
    spectator.get_received(NAMESPACE)
    ack = send(clients["stark"], "whisper", {"to": game.seats["tyrell"], "text": "Roses"})
    assert ack["ok"] is True and ack["line"]["channel"] == "whisper:seat:0|seat:2"
    assert talk(clients["stark"]) == [ack["line"]] == talk(clients["tyrell"])
    assert talk(clients["lannister"]) == [] and talk(spectator) == []
    answer = send(clients["tyrell"], "whisper", {"to": 0, "text": "Thorns"})
    assert answer["line"]["number"] == 2 and answer["line"]["prev_hash"] == ack["line"]["hash"]
    assert talk(clients["lannister"]) == []


def test_a_spectator_says_nothing_and_is_refused_before_his_payload_is_read(
    app: Flask, game: Game
) -> None:
    spectator = connect(app, game, None)
    for message, payload in (("say", {"text": "hi"}), ("whisper", {"to": 0, "text": "hi"})):
        ack = send(spectator, message, payload)
        assert (ack["ok"], ack["code"]) == (False, "token_required")
    assert send(spectator, "say", {"nonsense": 1})["code"] == "token_required"


def test_bad_lines_are_refused_with_a_code_and_reach_nobody(app: Flask, game: Game) -> None:
    clients = seats(app, game)
    refusals = [
        ("say", {"text": "x" * 501}, "talk_too_long"),
        ("say", {"text": "  "}, "talk_empty"),
        ("say", {"text": "ring\x07"}, "talk_unprintable"),
        ("say", {"text": 5}, "bad_request"),
        ("say", {"text": "hi", "to": 1}, "bad_request"),
        ("whisper", {"to": 0, "text": "me"}, "whisper_to_self"),
        ("whisper", {"to": 4, "text": "you"}, "whisper_to_nobody"),
        ("whisper", {"to": "master", "text": "gm"}, "whisper_to_nobody"),
        ("whisper", {"to": True, "text": "yes"}, "bad_request"),
    ]
    for message, payload, code in refusals:
        ack = send(clients["stark"], message, payload)
        assert (ack["ok"], ack["code"]) == (False, code), (payload, ack)
        assert "x" * 50 not in ack["message"]
    assert all(talk(client) == [] for client in clients.values())


def test_a_sender_talking_too_fast_is_refused_with_a_sentence(app: Flask, game: Game) -> None:
    clients = seats(app, game)
    for n in range(5):
        assert send(clients["stark"], "say", {"text": f"line {n}"})["ok"] is True
    ack = send(clients["stark"], "say", {"text": "one more"})
    assert (ack["ok"], ack["code"]) == (False, "talk_too_fast") and "Wait" in ack["message"]
    assert send(clients["lannister"], "say", {"text": "my turn"})["ok"] is True
    assert len(talk(clients["tyrell"])) == 6


def test_a_line_refused_for_talking_too_fast_is_not_stored(app: Flask, game: Game) -> None:
    """Given Stark said five lines in ten seconds, when his sixth is refused, then no party
    reads it afterwards either: the table holds the five lines alone."""
    clients = seats(app, game)
    for n in range(5):
        assert send(clients["stark"], "say", {"text": f"line {n}"})["ok"] is True

    ack = send(clients["stark"], "say", {"text": "one more"})

    assert ack["code"] == "talk_too_fast"
    read = app.test_client().get(f"/api/games/{game.id}/talk", headers=game.auth("tyrell"))
    assert [line["text"] for line in read.get_json()["lines"]] == [f"line {n}" for n in range(5)]


def test_a_client_connecting_gets_the_backlog_of_its_own_channels(app: Flask, game: Game) -> None:
    clients = seats(app, game)
    said = send(clients["stark"], "say", {"text": "To all"})["line"]
    secret = send(clients["stark"], "whisper", {"to": 1, "text": "To Lannister"})["line"]
    send(clients["tyrell"], "whisper", {"to": 1, "text": "Also to Lannister"})
    for client in clients.values():
        client.disconnect(namespace=NAMESPACE)
    tyrell = connect(app, game, game.tokens["tyrell"])
    backlog = [m["args"][0] for m in tyrell.get_received(NAMESPACE) if m["name"] == "talk"]
    assert [line["text"] for line in backlog[0]["lines"]] == ["To all", "Also to Lannister"]
    assert backlog[0]["more"] is False
    spectator = connect(app, game, None)
    assert [m for m in spectator.get_received(NAMESPACE) if m["name"] == "talk"] == []
    socketio = app.extensions["socketio"]
    again = socketio.test_client(
        app,
        namespace=NAMESPACE,
        auth={"game": game.id, "token": game.tokens["lannister"], "talk_after": said["position"]},
    )
    lines = [
        line
        for m in again.get_received(NAMESPACE)
        if m["name"] == "talk"
        for line in m["args"][0]["lines"]
    ]
    assert [line["text"] for line in lines] == ["To Lannister", "Also to Lannister"]
    assert lines[0] == secret


def test_the_game_master_hears_the_table_and_his_whispers_only(app: Flask) -> None:
    http = app.test_client()
    game = lobby_game(http, game_master_name="Maester Aemon")
    game = replace(game, started=start(http, game))
    clients = seats(app, game)
    master = connect(app, game, game.game_master_token)
    master.get_received(NAMESPACE)
    table = send(master, "say", {"text": "The court is open"})["line"]
    assert table["sender"] == "master" and table["recipients"] == ["seat:0", "seat:1", "seat:2"]
    to_master = send(clients["tyrell"], "whisper", {"to": "master", "text": "A fact"})["line"]
    assert to_master["channel"] == "whisper:master|seat:2"
    between_seats = send(clients["stark"], "whisper", {"to": 1, "text": "Not for him"})["line"]
    assert talk(master) == [table, to_master]
    assert talk(clients["tyrell"]) == [table, to_master]
    assert talk(clients["lannister"]) == [table, between_seats]
    assert send(master, "whisper", {"to": 2, "text": "Noted"})["ok"] is True
    assert [line["text"] for line in talk(clients["tyrell"])] == ["Noted"]
    assert talk(clients["stark"]) == [table, between_seats]
