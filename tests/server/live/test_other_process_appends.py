"""Records another process appends while a client connects here reach that client: the
announcement of such a record may arrive before this process follows the game (and is then
not for it), so the connection looks at the log once more after following it."""

from __future__ import annotations

from flask import Flask

from court.commands import Actor, AdjustGold
from server.service import CourtService
from server.store.sql import SqlEventStore
from tests.server.http.court_client import Game
from tests.server.live.live import connect, pushed


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
