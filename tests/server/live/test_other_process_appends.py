"""Records another process appends while a client connects here reach that client: the
announcement of such a record may arrive before this process follows the game (and is then
not for it), so the connection looks at the log once more after following it. Talk another
process stored reaches the parties here when this process catches the game's talk up."""

from __future__ import annotations

import logging

import pytest
from flask import Flask

from court.commands import Actor, AdjustGold
from court.ids import Seat
from server.service.court_service import CourtService
from server.service.talk import TalkService
from server.store.sql import SqlEventStore
from tests.server.http.court_client import Game
from tests.server.live.live import NAMESPACE, appended_elsewhere, connect, pushed, talk


def test_a_record_appended_elsewhere_while_a_seat_connects_is_pushed_to_it(
    app: Flask, game: Game
) -> None:
    # Given another process on the same database, which appends a record just after this
    # process read the game's head for a connecting seat, before it follows the game
    other_store = SqlEventStore(app.config["DATABASE_URL"])
    other = CourtService(other_store)
    pusher = app.extensions["pushes"]
    follow = pusher.follow
    appended: list[int] = []

    def follow_late(game_id: str, head) -> None:
        gold = AdjustGold(house="stark", amount=1, cause="tax")
        appended.append(other.handle(game_id, gold, Actor(host=True)).version)
        follow(game_id, head)

    pusher.follow = follow_late
    # When Lannister's seat connects (it has seen everything up to the start)
    client = connect(app, game, game.tokens["lannister"], last_version=game.started)
    pusher.follow = follow
    # Then the other process's record is pushed to it, once
    versions = [r["version"] for r in pushed(client)]
    assert appended and versions.count(appended[0]) == 1
    other_store.close()


def test_lines_another_process_stored_are_pushed_here_once_to_their_parties_alone(
    app: Flask, game: Game
) -> None:
    # Given seats connected to this process, and another process on the same database
    clients = {house: connect(app, game, token) for house, token in game.tokens.items()}
    for client in clients.values():
        client.get_received(NAMESPACE)
    other_store = SqlEventStore(app.config["DATABASE_URL"])
    other = TalkService(other_store.talk, CourtService(other_store))
    stark, lannister = Actor(seat=Seat(game.seats["stark"])), game.seats["lannister"]
    # When the other process stores a table line and a whisper (its announcement lost, or
    # sent while Redis was away), and this process catches the game's talk up
    said = other.say(game.id, stark, "The North remembers")
    whispered = other.whisper(game.id, stark, lannister, "Meet me at the Twins")
    pushes = app.extensions["talk_pushes"]
    assert pushes.catch_up(game.id) == 2
    assert pushes.catch_up(game.id) == 0
    # Then each line reached its parties here, once, and the whisper no one else
    expected = {
        "stark": [said.position, whispered.position],
        "lannister": [said.position, whispered.position],
        "tyrell": [said.position],
    }
    for house, client in clients.items():
        assert [line["position"] for line in talk(client)] == expected[house], house
    other_store.close()


def test_an_announced_head_the_log_does_not_bear_out_is_logged_and_the_log_pushed(
    app: Flask, game: Game, caplog: pytest.LogCaptureFixture
) -> None:
    # Given a spectator here, and two records another process appended
    watcher = connect(app, game, None)
    watcher.get_received(NAMESPACE)
    records = appended_elsewhere(app, game, 2)
    # When an announcement names the last of them with another hash
    pusher = app.extensions["pushes"]
    with caplog.at_level(logging.WARNING, "small_council.pushes"):
        assert pusher.catch_up(game.id, (records[-1].version, "0" * 64)) == len(records)
    # Then the spectator is pushed the log's records, and the mismatch is logged
    assert [(r["version"], r["hash"]) for r in pushed(watcher)] == [
        (r.version, r.hash) for r in records
    ]
    assert "a hash the log does not hold" in caplog.text
    # And a true announcement logs nothing
    caplog.clear()
    more = appended_elsewhere(app, game, 1)
    with caplog.at_level(logging.WARNING, "small_council.pushes"):
        assert pusher.catch_up(game.id, (more[-1].version, more[-1].hash)) == len(more)
    assert caplog.text == ""
