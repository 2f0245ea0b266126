"""What passes between processes over Redis (server/live/relay.py): an append is announced by
its game, version and hash, never its records, and whatever arrives on the channel is at most
a reason to read a followed game from the database or to look at a deadline: records an
announcement carries are never read, and a malformed one is passed over without harm."""

from __future__ import annotations

import json
from typing import Any

import pytest
import socketio
from flask import Flask

from court.commands import Actor, AdjustGold
from server.live.relay import COURT, PRESENCE, TALK, Notice, Relay, without_password
from server.outages import Outage
from server.service.court_service import CourtService
from tests.server.http.court_client import Game
from tests.server.live.live import appended_elsewhere


class Pipeline:
    def __init__(self, sent: list[dict[str, Any]]) -> None:
        self.sent = sent

    def publish(self, channel: str, message: str) -> None:
        self.sent.append(json.loads(message))

    def execute(self) -> list[int]:
        return []


class Channel:
    """A Redis client that keeps what is published."""

    def __init__(self) -> None:
        self.sent: list[dict[str, Any]] = []

    def pipeline(self, transaction: bool = True) -> Pipeline:
        return Pipeline(self.sent)


class Following:
    """A pusher, talk pusher and deadline watcher that keep what they are asked."""

    def __init__(self, *games: str) -> None:
        self.followed = list(games)
        self.deadlines: list[tuple[str, float]] = []

    def games(self) -> list[str]:
        return self.followed

    def watch_deadline(self, game_id: str, deadline: float) -> None:
        self.deadlines.append((game_id, deadline))


def relay(channel: Channel, following: Following) -> Relay:
    return Relay(
        channel,  # type: ignore[arg-type]  # a fake with the two methods used
        "here",
        following,  # type: ignore[arg-type]
        following,  # type: ignore[arg-type]
        following,  # type: ignore[arg-type]
        Outage("redis"),
        workers=0,
    )


def test_an_append_is_announced_by_its_version_and_hash_alone(app: Flask, game: Game) -> None:
    # Given an append of public records only (what every spectator is pushed)
    service: CourtService = app.extensions["court"]
    outcome = service.handle(
        game.id, AdjustGold(house="stark", amount=3, cause="tax"), Actor(host=True)
    )
    assert all(r.private is None for r in outcome.records)
    channel = Channel()
    # When it is announced
    relay(channel, Following()).publish(game.id, outcome.records, outcome.state)
    # Then the announcement names the game, its head and its deadline, and carries no record
    assert channel.sent == [
        {
            "game": game.id,
            "version": outcome.version,
            "hash": outcome.records[-1].hash,
            "deadline": None,
            "origin": "here",
        }
    ]


def test_records_an_announcement_carries_are_never_read(app: Flask, game: Game) -> None:
    following = Following(game.id)
    listener = relay(Channel(), following)
    records = [r.to_json() for r in appended_elsewhere(app, game, 1)]
    message = {"game": game.id, "version": 99, "hash": "h", "records": records, "origin": "x"}
    listener.received(json.dumps(message))
    assert listener._dirty == {(COURT, game.id): (99, "h")}
    assert "records" not in Notice.__slots__


@pytest.mark.parametrize(
    "data",
    [
        b"not json",
        b"[]",
        b'"game"',
        b'{"game": 5}',
        b'{"version": 3}',
        b'{"game": "g", "deadline": "soon"}',
        b'{"game": "g", "deadline": {}}',
        b'{"game": "g", "deadline": true}',
        b'{"game": "g", "deadline": NaN}',
        b'{"game": "g", "deadline": 1e999}',
        b'{"game": "g", "deadline": -Infinity}',
        b"\xff\xfe",
    ],
)
def test_a_malformed_announcement_is_passed_over(data: bytes) -> None:
    following = Following("g")
    listener = relay(Channel(), following)
    listener.received(data)
    assert following.deadlines == [] and listener._dirty == {}


def test_each_kind_of_notice_marks_its_game_once_and_watches_its_deadline() -> None:
    following = Following("g")
    listener = relay(Channel(), following)
    for message in (
        {"game": "g", "version": 4, "hash": "a", "deadline": 100},
        {"game": "g", "version": "4", "hash": "a", "deadline": 90.5},
        {"game": "g", "talk": 7},
        {"game": "g", "presence": True},
        {"game": "other", "version": 2, "hash": "b", "deadline": 50},
        {"game": "g", "version": 5, "hash": "c", "origin": "here"},
    ):
        listener.received(json.dumps({"origin": "there", **message}))
    assert following.deadlines == [("g", 100.0), ("g", 90.5), ("other", 50.0)]
    assert listener._dirty == {(COURT, "g"): None, (TALK, "g"): None, (PRESENCE, "g"): None}


@pytest.mark.parametrize(
    ("url", "bare"),
    [
        ("redis://127.0.0.1:6379/0", True),
        ("redis://court@127.0.0.1:6379/0", True),
        ("redis://:s3cret@127.0.0.1:6379/0", False),
        ("redis://court:s3cret@127.0.0.1:6379/0", False),
        ("rediss://court:s3cret@redis.example:6380/0", False),
        ("unix:///run/redis/redis.sock?db=0", True),
        ("unix:///run/redis/redis.sock?db=0&password=s3cret", False),
    ],
)
def test_a_redis_url_without_a_password_is_told_apart(url: str, bare: bool) -> None:
    assert without_password(url) is bare


def test_pushes_pass_through_no_message_queue(app: Flask) -> None:
    """python-socketio's message queue (a Redis manager) would carry whole pushes between
    processes, which nothing here could check: each process pushes to its own clients."""
    manager = app.extensions["socketio"].server.manager
    assert type(manager) is socketio.Manager
    assert not isinstance(manager, socketio.PubSubManager)
