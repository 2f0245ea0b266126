"""The bot at the server moves once per turn, even with two processes on one database: a move
chosen on a version the game has moved past is refused as moved on and not tried again
(server/live/bots.py)."""

from __future__ import annotations

import time

from flask import Flask

from court.commands import Actor, BotMove, Pass
from court.errors import CourtError
from court.options.bot import awaited_bots
from court.views.waiting import awaited
from server.live.bots import BotPlayer
from server.service.court_service import CourtService
from server.store.sql import SqlEventStore
from tests.server.live.live import connect, four_seats, send


def bot_awaited(app: Flask) -> tuple[str, int]:
    """A 4-seat game whose Martell seat the bot plays, the court waiting on it."""
    app.extensions["bots"].stop()  # this test makes the bot's moves itself
    game = four_seats(app)
    gone = game.seats["martell"]
    clients = {game.seats[h]: connect(app, game, game.tokens[h]) for h in ("lannister", "tyrell")}
    clients[game.seats["stark"]] = connect(app, game, game.host_token)
    for voter in (game.seats["lannister"], game.seats["tyrell"]):
        assert send(clients[voter], "vote_replace", {"seat": gone, "bot": True})["ok"] is True
    service: CourtService = app.extensions["court"]
    for _ in range(50):
        head = service.current(game.id)
        if gone in awaited_bots(head.state):
            return game.id, head.version
        turn = awaited(head.state)
        if turn is None:
            answer = send(clients[game.seats["stark"]], "advance_phase")
        else:
            answer = send(clients[turn.seats[0]], "pass")
        assert answer["ok"] is True, answer
    raise AssertionError("the court never waited on the bot")


def test_two_processes_make_the_bots_move_once(bot_app: Flask) -> None:
    app = bot_app
    game_id, version = bot_awaited(app)
    store = SqlEventStore(app.config["DATABASE_URL"])
    try:
        other = CourtService(store)
        other.current(game_id)  # the other process has the same head cached
        here = BotPlayer(app.extensions["court"], pause=0)
        there = BotPlayer(other, pause=0)
        assert here.play(game_id, version) is not None
        assert there.play(game_id, version) is None
        records = other.records(game_id, after=version)
        assert [r.type for r in records].count("BotPlayed") == 1
        # The race itself: a move chosen on the old head reaches the append after another.
        stale = other.replay.cached(game_id)
        assert stale is not None
        seat = records[0].seat
        try:
            move = BotMove(move=Pass(), chosen_at=version)
            other.handle(game_id, move, Actor(seat=seat, bot=True))
        except CourtError as exc:
            assert exc.code == "moved_on"
        else:
            raise AssertionError("a move chosen on a past version was made")
        assert other.records(game_id, after=version) == records
    finally:
        store.close()


def test_a_process_that_starts_makes_the_bots_move_due_while_it_was_down(
    bot_app: Flask,
) -> None:
    """The court waited on the bot while no process played it: the next one to start does."""
    app = bot_app
    game_id, version = bot_awaited(app)
    service: CourtService = app.extensions["court"]
    starting = BotPlayer(service, pause=0)
    starting.watch_all()
    starting.start()
    try:
        limit = time.monotonic() + 10
        while service.current(game_id).version == version:
            assert time.monotonic() < limit, "the bot's move due was never made"
            time.sleep(0.02)
    finally:
        starting.stop()
    assert service.records(game_id, after=version)[0].type == "BotPlayed"
