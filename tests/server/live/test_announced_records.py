"""Records another process announced (server/live/relay.py) move this process's cached head
on without a read of the log, only when they follow it and chain from its hash, and never
when a record has a private part: a forged or a private record is read from the log instead."""

from __future__ import annotations

import dataclasses

from flask import Flask

from court.commands import Actor, AdjustGold
from server.service import CourtService
from server.store.sql import SqlEventStore
from tests.server.http.court_client import Game


def appended_elsewhere(app: Flask, game: Game, count: int) -> list:
    """`count` gold records another process appends to the game; the records."""
    store = SqlEventStore(app.config["DATABASE_URL"])
    other = CourtService(store)
    try:
        before = other.current(game.id).version
        for amount in range(1, count + 1):
            other.handle(
                game.id, AdjustGold(house="stark", amount=amount, cause="tax"), Actor(host=True)
            )
        return other.records(game.id, after=before)
    finally:
        store.close()


def test_announced_records_that_follow_the_head_are_folded_without_the_log(
    app: Flask, game: Game
) -> None:
    service: CourtService = app.extensions["court"]
    cached = service.latest(game.id)
    records = appended_elsewhere(app, game, 2)

    moved = service.replay.extend(game.id, records)

    assert moved is not None
    head, fresh = moved
    assert [r.version for r in fresh] == list(range(cached.version + 1, head.version + 1))
    assert len(fresh) == len(records) >= 2
    assert head.version == service.current(game.id).version
    assert head.hash == service.current(game.id).hash
    assert head.state == service.current(game.id).state


def test_a_forged_a_private_or_a_gapped_announcement_is_not_folded(app: Flask, game: Game) -> None:
    service: CourtService = app.extensions["court"]
    service.latest(game.id)
    records = appended_elsewhere(app, game, 2)
    forged = [dataclasses.replace(records[0], data={**records[0].data, "amount": 9}), records[1]]
    private = [dataclasses.replace(records[0], private={"x": 1}), records[1]]

    assert service.replay.extend(game.id, forged) is None
    assert service.replay.extend(game.id, private) is None
    assert service.replay.extend(game.id, records[1:]) is None
    assert service.latest(game.id).version == records[0].version - 1
